// The account dialog's login (docs/product.md, "Accounts"). Visitors have no accounts, so
// it makes no network call: after a simulated delay every attempt fails, at most three times.

export const MAX_LOGIN_ATTEMPTS = 3;
export const LOGIN_DELAY_MS = 1000;
export const LOGIN_FAILED_TITLE = "Login Failed";
export const MSG_CONTACT_SUPPORT = "Maximum login attempts exceeded. Please contact support.";
export const MSG_TRY_LATER = "Maximum login attempts exceeded. Please try again later.";

/** The failure message after `attempts` failed attempts in all. */
export function failureMessage(attempts: number): string {
  const remaining = MAX_LOGIN_ATTEMPTS - attempts;
  return remaining <= 0 ? MSG_CONTACT_SUPPORT : `Account not found. ${remaining} attempt(s) remaining. Try signing up instead?`;
}

/** The yellow note after a failure. */
export const remainingNote = (attempts: number): string => `Attempts remaining: ${Math.max(0, MAX_LOGIN_ATTEMPTS - attempts)}`;

export const atMaximum = (attempts: number): boolean => attempts >= MAX_LOGIN_ATTEMPTS;

/** The login rules, in the spec's order: null when both fields pass. */
export function validateLogin(username: string, password: string): { field: "username" | "password"; message: string } | null {
  if (!username.trim()) return { field: "username", message: "Username is required" };
  if (!password) return { field: "password", message: "Password is required" };
  if (Array.from(username.trim()).length < 3) return { field: "username", message: "Username must be at least 3 characters long" };
  return null;
}

/** What a submit leads to, before any delay: refused at once (the maximum is reached or a
 * rule fails), or an attempt that will fail after `LOGIN_DELAY_MS`. */
export type LoginStep = { kind: "refused"; message: string; field?: "username" | "password" } | { kind: "attempt" };

export function loginStep(attempts: number, username: string, password: string): LoginStep {
  if (atMaximum(attempts)) return { kind: "refused", message: MSG_TRY_LATER };
  const invalid = validateLogin(username, password);
  return invalid ? { kind: "refused", message: invalid.message, field: invalid.field } : { kind: "attempt" };
}
