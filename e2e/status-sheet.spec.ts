import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { expectFocusTrapped } from "./support/dialog";
import {
  callbackForm,
  expectHydrated,
  fillCallbackForm,
  isPhoneProject,
  phoneFor,
  press,
  submitWithClock,
  uniquePhone,
} from "./support/service";

// The 'Callback status' sheet shown after a successful callback request: its window by local
// time, closing (by itself after 8 s, unless the pointer is over it; Escape, backdrop, buttons)
// and focus. docs/product.md, "A service page", "The callback request" and "Constants".

test.describe("callback status sheet", () => {
  test.use({ timezoneId: "America/New_York" });
  /** 10 June 2025 at hh:mm in New York (EDT, UTC-4). */
  const newYork = (hh: number, mm: number) => new Date(`2025-06-10T${String(hh).padStart(2, "0")}:${String(mm).padStart(2, "0")}:00-04:00`);

  /**
   * Opens `path` at `time` on a fake clock that, once the page has hydrated, only `runFor` moves.
   * An installed clock otherwise follows real time, and on a busy machine the sheet's 8 s could
   * run out between two steps of a test. (`pauseAt` cannot go back, hence the second of margin.)
   */
  async function openAt(page: Page, path: string, time: Date): Promise<void> {
    await page.clock.install({ time });
    await page.goto(path);
    await expectHydrated(page);
    const now = await page.evaluate(() => Date.now());
    await page.clock.pauseAt(now + 1_000);
  }

  const windows = [
    { at: [7, 59], title: "Callback scheduled", text: "8:00 AM today" },
    { at: [8, 0], title: "We\u2019re calling you now", text: "any moment" },
    { at: [19, 59], title: "We\u2019re calling you now", text: "any moment" },
    { at: [20, 0], title: "Callback scheduled", text: "8:00 AM tomorrow" },
  ] as const;

  for (const w of windows) {
    const hhmm = `${String(w.at[0]).padStart(2, "0")}:${String(w.at[1]).padStart(2, "0")}`;
    test(`at ${hhmm} local time: '${w.title}'`, async ({ page }, testInfo) => {
      await openAt(page, "/hvac", newYork(w.at[0], w.at[1]));
      expect(await page.evaluate(() => `${new Date().getHours()}:${new Date().getMinutes()}`)).toBe(`${w.at[0]}:${w.at[1]}`);
      await fillCallbackForm(page, { name: "Jordan Price", phone: uniquePhone(testInfo).input });
      await submitWithClock(page);
      const dialog = page.getByRole("dialog", { name: w.title, exact: true });
      await expect(dialog).toBeVisible();
      await expect(dialog).toHaveAttribute("data-testid", "callback-status");
      await expect(dialog).toContainText(w.text);
      if (w.title === "Callback scheduled") await expect(dialog).toContainText("TCPA");
      // The sheet offers the number too, tracked at its own location.
      const call = dialog.locator('a[href^="tel:"]');
      await expect(call).toHaveAttribute("href", phoneFor("hvac").tel);
      await expect(call).toHaveAttribute("data-track-location", "callback-status");
    });
  }

  /** Fills and submits the form (fake clock) and waits for the sheet; answers the sheet. */
  async function openSheet(page: Page, phone: string): Promise<Locator> {
    await fillCallbackForm(page, { name: "Morgan Ellis", phone });
    await submitWithClock(page);
    const sheet = page.getByRole("dialog", { name: "We\u2019re calling you now", exact: true });
    await expect(sheet).toBeVisible();
    return sheet;
  }

  test("is labelled by its title, takes focus, keeps Tab inside and gives focus back", async ({ page }, testInfo) => {
    await openAt(page, "/solar", newYork(10, 30));
    const f = callbackForm(page);
    const sheet = await openSheet(page, uniquePhone(testInfo).input);

    const labelledBy = await sheet.getAttribute("aria-labelledby");
    expect(labelledBy).toBeTruthy();
    await expect(page.locator(`[id="${labelledBy}"]`)).toHaveText("We\u2019re calling you now");
    await expect(sheet).toHaveJSProperty("open", true);
    // Modal: the page behind cannot be reached.
    expect(await sheet.evaluate((d) => d.matches(":modal"))).toBe(true);

    await expect(sheet.getByRole("button", { name: "Close" })).toBeFocused();
    await expectFocusTrapped(page, sheet);

    await press(sheet.getByRole("button", { name: "Close" }));
    await expect(sheet).toHaveCount(0);
    await expect.soft(f.submit, "focus returns to the submit button").toBeFocused();
  });

  test("is a bottom sheet at every width: its bottom edge is the window's, at most 32rem wide and centred", async ({ page }, testInfo) => {
    await openAt(page, "/roofing", newYork(9, 0));
    const sheet = await openSheet(page, uniquePhone(testInfo).input);
    const height = isPhoneProject(testInfo) ? 740 : 800;
    for (const width of isPhoneProject(testInfo) ? [320, 360, 390] : [768, 1024, 1280, 1440]) {
      await page.setViewportSize({ width, height });
      const box = await sheet.boundingBox();
      if (!box) throw new Error("the sheet has no box");
      expect(Math.abs(box.y + box.height - height), `${width} px: the sheet sits on the window's bottom edge`).toBeLessThan(1);
      expect(Math.abs(box.width - Math.min(width, 512)), `${width} px: the window's width, at most 32rem`).toBeLessThan(1);
      expect(Math.abs(box.x - (width - box.width) / 2), `${width} px: centred`).toBeLessThan(1);
    }
  });

  test("closes by itself after 8 s", async ({ page }, testInfo) => {
    await openAt(page, "/plumbing", newYork(11, 0));
    const pressedAt = await callbackForm(page).submit.boundingBox();
    const sheet = await openSheet(page, uniquePhone(testInfo).input);
    // The mouse (desktop) rests where it pressed submit: on the dimmed page, not the sheet.
    const box = await sheet.boundingBox();
    if (pressedAt && box) {
      const [x, y] = [pressedAt.x + pressedAt.width / 2, pressedAt.y + pressedAt.height / 2];
      expect(x < box.x || x > box.x + box.width || y < box.y || y > box.y + box.height, "the pointer is outside the sheet").toBe(true);
    }
    await page.clock.runFor(7_800);
    await expect(sheet).toBeVisible();
    await page.clock.runFor(300);
    await expect(sheet, "the sheet closes 8 s after it opened").toHaveCount(0);
    await expect.soft(callbackForm(page).submit, "focus returns to the submit button").toBeFocused();
  });

  test("does not close by itself while the pointer is over it, then does within 8 s of it leaving", async ({ page }, testInfo) => {
    await openAt(page, "/bathroom-remodeling", newYork(12, 0));
    const sheet = await openSheet(page, uniquePhone(testInfo).input);
    await sheet.getByRole("heading").hover();
    await page.clock.runFor(9_000);
    await expect(sheet).toBeVisible();

    // Away from the sheet: onto the dimmed page above it.
    const box = await sheet.boundingBox();
    expect(box && box.y > 20).toBeTruthy();
    await page.mouse.move(10, 10);
    await page.clock.runFor(8_100);
    await expect(sheet, "the sheet closes within 8 s of the pointer leaving it").toHaveCount(0);
  });

  test("closes on Escape, a click on the backdrop, its close button and 'Got it'", async ({ page }, testInfo) => {
    await openAt(page, "/hvac", newYork(15, 0));
    const f = callbackForm(page);

    let sheet = await openSheet(page, uniquePhone(testInfo, 1).input);
    await page.keyboard.press("Escape");
    await expect(sheet).toHaveCount(0);
    await expect.soft(f.submit, "focus returns to the submit button").toBeFocused();

    sheet = await openSheet(page, uniquePhone(testInfo, 2).input);
    // A click inside the sheet does not close it; one outside it does.
    // (Not on its tel: link: Chromium then hands the number to the system and stops
    // delivering input to the page.)
    await press(sheet.getByRole("heading"));
    await expect(sheet).toBeVisible();
    const box = await sheet.boundingBox();
    expect(box && box.y > 20).toBeTruthy();
    if (isPhoneProject(testInfo)) await page.touchscreen.tap(10, 10);
    else await page.mouse.click(10, 10);
    await expect(sheet).toHaveCount(0);

    sheet = await openSheet(page, uniquePhone(testInfo, 3).input);
    await press(sheet.getByRole("button", { name: "Close" }));
    await expect(sheet).toHaveCount(0);

    sheet = await openSheet(page, uniquePhone(testInfo, 4).input);
    await press(sheet.getByRole("button", { name: "Got it" }));
    await expect(sheet).toHaveCount(0);
    await expect.soft(f.submit, "focus returns to the submit button").toBeFocused();
  });
});
