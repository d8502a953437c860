import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { availableCampaigns, cards, live, openAvailableCampaigns } from "./support/campaigns";
import { openHome } from "./support/home";
import { hydrate } from "./support/hydrate";
import { callbackForm, fillCallbackForm, isPhoneProject, press, uniquePhone } from "./support/service";

// The visitor's stored preferences (docs/product.md, Accounts): `userPreferences` (theme and
// language) is written in its one shape once a page is live, a visitor's own values are kept,
// the document shows the site's one theme and language, and every page keeps working when
// the browser refuses storage altogether (private modes, storage switched off).

const KEY = "userPreferences";
const stored = (page: Page) => page.evaluate((key) => localStorage.getItem(key), KEY);
const html = (page: Page) => page.locator("html");

test("a first visit stores theme light and language en once the page is live, and the document says so", { tag: "@one-width" }, async ({
  page,
}) => {
  for (const path of ["/", "/hvac", "/campaigns"]) {
    await page.goto(path);
    await page.evaluate(() => localStorage.clear());
    expect(await stored(page), `${path}: nothing is read or written before the page is live`).toBeNull();
    await hydrate(page);
    expect(JSON.parse((await stored(page)) ?? "null"), path).toEqual({ theme: "light", language: "en" });
    await expect(html(page)).toHaveAttribute("lang", "en");
    await expect(html(page)).toHaveAttribute("data-theme", "light");
  }
});

test("a visitor's stored values are kept; a broken value is replaced by the defaults; nothing differs from the server's HTML", {
  tag: "@one-width",
}, async ({ page, consoleProblems }) => {
  // An unreadable value is only logged.
  consoleProblems.allow(/^Unable to read stored preference userPreferences$/);
  // Values the site has no theme or language for: kept for the visitor, not applied (the
  // fixture fails the test on any hydration warning).
  await page.goto("/");
  await page.evaluate((key) => localStorage.setItem(key, '{"theme":"dark","language":"fr"}'), KEY);
  await page.reload();
  await hydrate(page);
  expect(await stored(page)).toBe('{"theme":"dark","language":"fr"}');
  await expect(html(page)).toHaveAttribute("lang", "en");
  await expect(html(page)).toHaveAttribute("data-theme", "light");

  await page.evaluate((key) => localStorage.setItem(key, '{"language":'), KEY);
  await page.goto("/roofing");
  await hydrate(page);
  expect(JSON.parse((await stored(page)) ?? "null")).toEqual({ theme: "light", language: "en" });
});

test.describe("when the browser refuses storage", { tag: "@one-width" }, () => {
  test.beforeEach(async ({ page, consoleProblems }) => {
    // As Safari's private mode and switched-off storage do: touching localStorage throws.
    await page.addInitScript(() => {
      Object.defineProperty(window, "localStorage", {
        configurable: true,
        get() {
          throw new DOMException("The operation is insecure.", "SecurityError");
        },
      });
    });
    // Storage failures are only logged (docs/product.md).
    consoleProblems.allow(/^Unable to (read stored preference|save preference|clear view preference)/);
  });

  test("the home page, its affiliate dashboard and the campaigns' view toggle still work", async ({ page }, testInfo) => {
    const warnings: string[] = [];
    page.on("console", (m) => void (m.type() === "warning" && warnings.push(m.text())));
    await openHome(page);
    const modal = await openAvailableCampaigns(page, testInfo);
    expect(
      warnings.some((w) => w.startsWith("Unable to clear view preference")),
      "the affiliate choice's failed clear is logged",
    ).toBe(true);
    expect(
      warnings.some((w) => w.startsWith("Unable to save preference")),
      "the preferences' failed write is logged",
    ).toBe(true);
    await expect(html(page)).toHaveAttribute("data-theme", "light");
    if (!isPhoneProject(testInfo)) {
      const grid = modal.getByRole("button", { name: "Grid view" });
      await press(grid);
      await expect(grid).toHaveAttribute("aria-pressed", "true");
    }
    await expect(cards(availableCampaigns(page))).toHaveCount(live.length);
  });

  test("a service page still takes a callback request", async ({ page }, testInfo) => {
    await page.goto("/window-cleaning");
    await hydrate(page);
    await fillCallbackForm(page, { name: "Ines Park", phone: uniquePhone(testInfo).input });
    const f = callbackForm(page);
    await press(f.submit);
    await expect(f.success).toBeVisible();
  });
});
