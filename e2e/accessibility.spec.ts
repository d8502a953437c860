import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { axeViolations, describeViolations } from "./support/axe";
import { callbackForm, expectHydrated, fillCallbackForm, footer, press, submitWithClock, uniquePhone } from "./support/service";

// Accessibility of the service landing page: axe (WCAG 2.1 A/AA) as loaded, with each legal
// modal and with the status sheet; the keyboard order of the callback form; visible focus.

/** The focused element as "tag[type]:name", for checking the Tab order. */
async function focusedDescription(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return "body";
    const name = el.getAttribute("aria-label") || (el as HTMLInputElement).labels?.[0]?.textContent || el.textContent || "";
    return `${el.tagName.toLowerCase()}${el.getAttribute("type") ? `[${el.getAttribute("type")}]` : ""}:${name.replace(/\s+/g, " ").trim().slice(0, 40)}`;
  });
}

test.describe("accessibility", () => {
  // axe is injected as a script, which the page's CSP would refuse.
  test.use({ bypassCSP: true, timezoneId: "America/New_York" });

  async function expectNoViolations(page: Page, state: string): Promise<void> {
    const { violations, passes } = await axeViolations(page);
    expect(passes, "axe ran its WCAG rules").toBeGreaterThan(10);
    expect(violations, `axe violations ${state}:\n${describeViolations(violations)}`).toEqual([]);
  }

  test("axe finds no WCAG 2.1 A/AA violations: as loaded, with each legal modal, with the status sheet", async ({ page }, testInfo) => {
    await page.clock.install({ time: new Date("2025-06-10T21:30:00-04:00") });
    await page.goto("/hvac");
    await expectHydrated(page);
    await expectNoViolations(page, "on the page as loaded");

    for (const title of ["Privacy Policy", "Terms of Service"]) {
      await press(footer(page).getByRole("link", { name: title, exact: true }));
      const dialog = page.getByRole("dialog", { name: title, exact: true });
      await expect(dialog.getByRole("heading", { level: 3 }).first()).toBeVisible();
      await expectNoViolations(page, `with the ${title} open`);
      await press(dialog.getByRole("button", { name: "Close" }));
      await expect(dialog).toHaveCount(0);
    }

    await fillCallbackForm(page, { name: "Avery Stone", phone: uniquePhone(testInfo).input });
    await submitWithClock(page);
    const sheet = page.getByRole("dialog", { name: "Callback scheduled" });
    await expect(sheet).toBeVisible();
    // axe needs running timers, so the clock keeps going: the pointer on the sheet keeps it open.
    await sheet.getByRole("heading").hover();
    await expectNoViolations(page, "with the callback status sheet open");
  });

  test("the form's controls are reached by Tab in order, and keyboard focus is visible", async ({ page }) => {
    await page.goto("/plumbing");
    await expectHydrated(page);
    const f = callbackForm(page);

    // The first Tab on the page reaches the skip link.
    await page.keyboard.press("Tab");
    expect(await focusedDescription(page)).toBe("a:Skip to content");

    await f.name.focus();
    const order = [await focusedDescription(page)];
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press("Tab");
      order.push(await focusedDescription(page));
    }
    expect(order).toEqual([
      "input[text]:Full Name",
      "input[tel]:Phone Number",
      "input[text]:ZIP Code (optional)",
      expect.stringMatching(/^input\[checkbox\]:/),
      "button[button]:Terms of Service",
      "button[button]:Privacy Policy",
      "button[submit]:Request Callback",
    ]);
    // The honeypot is never reached.
    await page.keyboard.press("Shift+Tab");
    await expect(f.form.locator('input[name="hp_website"]')).not.toBeFocused();

    // Keyboard focus shows an outline on a button, a link and a field.
    for (const target of [f.submit, page.locator('a[href^="tel:"][data-track-location="hero"]'), f.phone]) {
      await target.focus();
      // focus() from script after keyboard use keeps :focus-visible in Chromium.
      await page.keyboard.press("Shift+Tab");
      await page.keyboard.press("Tab");
      await expect(target).toBeFocused();
      const style = await target.evaluate((el) => {
        const s = getComputedStyle(el);
        return { visible: el.matches(":focus-visible"), outlineStyle: s.outlineStyle, outlineWidth: parseFloat(s.outlineWidth) };
      });
      expect(style.visible).toBe(true);
      expect(style.outlineStyle).not.toBe("none");
      expect(style.outlineWidth).toBeGreaterThanOrEqual(2);
    }
  });
});
