import type { Locator, Page } from "@playwright/test";
import { expect } from "../fixtures";

// Focus inside a modal dialog (the legal modals, the callback status sheet).

/** What Tab should reach inside a dialog, in DOM order (less what tabindex="-1" takes out:
 * a form's honeypot, a roving tab). */
const TABBABLE =
  'a[href]:not([tabindex="-1"]), button:not([disabled]):not([tabindex="-1"]), input:not([disabled]):not([type="hidden"]):not([tabindex="-1"]), select, textarea, [tabindex]:not([tabindex="-1"])';

/** How many controls Tab should cycle through in the dialog. */
async function tabbables(dialog: Locator): Promise<number> {
  return dialog.evaluate(
    (d, selector) =>
      Array.from(d.querySelectorAll<HTMLElement>(selector)).filter((el) => el.getClientRects().length > 0 && el.tabIndex >= 0).length,
    TABBABLE,
  );
}

/** Index of the focused element among the dialog's controls, -1 when focus is outside. */
async function focusIndex(dialog: Locator): Promise<number> {
  return dialog.evaluate(
    (d, selector) =>
      Array.from(d.querySelectorAll<HTMLElement>(selector))
        .filter((el) => el.getClientRects().length > 0 && el.tabIndex >= 0)
        .indexOf(document.activeElement as HTMLElement),
    TABBABLE,
  );
}

/** Focus is in the dialog and Tab / Shift+Tab cycle through its controls without leaving. */
export async function expectFocusTrapped(page: Page, dialog: Locator): Promise<void> {
  const n = await tabbables(dialog);
  expect(n, "the dialog has focusable controls").toBeGreaterThan(0);
  await expect.poll(() => focusIndex(dialog), { message: "focus moves into the dialog" }).toBeGreaterThanOrEqual(0);
  const start = await focusIndex(dialog);
  for (let i = 1; i <= n + 1; i++) {
    await page.keyboard.press("Tab");
    expect(await focusIndex(dialog), `Tab #${i} stays inside the dialog, in order`).toBe((start + i) % n);
  }
  for (let i = 1; i <= n + 1; i++) {
    await page.keyboard.press("Shift+Tab");
    expect(await focusIndex(dialog), `Shift+Tab #${i} stays inside the dialog, in order`).toBe((((start + 1 - i) % n) + n) % n);
  }
}
