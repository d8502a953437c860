// The visitor's preferences in local storage (spec section 3, Preferences). Storage can be
// missing or refuse access (private modes, blocked cookies): a failure is only logged.

/** How the affiliate campaign list is shown: "list" (the default) or "grid". */
export const AFFILIATE_VIEW_MODE_KEY = "affiliateViewMode";
export const CLEAR_VIEW_MODE_WARNING = "Unable to clear view preference";

/** Removes the stored affiliate view mode; a failure only logs the spec's warning. */
export function clearAffiliateViewMode(storage: () => Pick<Storage, "removeItem"> = () => window.localStorage, warn: (...data: unknown[]) => void = console.warn): void {
  try {
    storage().removeItem(AFFILIATE_VIEW_MODE_KEY);
  } catch (error) {
    warn(CLEAR_VIEW_MODE_WARNING, error);
  }
}
