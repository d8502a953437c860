import type { Page, Route } from "@playwright/test";
import { expect, test } from "./fixtures";
import { leadsByPhone } from "./support/db";
import { MAIN_DB } from "./support/env";
import { pointerAway } from "./support/hydrate";
import { callbackForm, expectHydrated, press, statusSheet, uniquePhone } from "./support/service";

// Islands and first paint: the page paints from server HTML alone; the island runtime is
// fetched after load and run on the first interaction; what the visitor does before it has
// arrived is not lost; and with the runtime gone the page still works as it does without
// JavaScript.

const RUNTIME = "**/assets/runtime-*.js";

/** Holds the island runtime's request until `release()`, so a test can act on the page
 * before any island is live. */
async function holdRuntime(page: Page): Promise<{ release: () => void; requested: Promise<void> }> {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let requestedResolve = () => {};
  const requested = new Promise<void>((resolve) => (requestedResolve = resolve));
  await page.route(RUNTIME, async (route: Route) => {
    requestedResolve();
    await released;
    await route.continue();
  });
  return { release, requested };
}

test.describe("first paint", { tag: "@one-width" }, () => {
  test("the HTML loads no script before it has painted; the runtime is fetched when idle and run on the first interaction", async ({
    page,
  }) => {
    await pointerAway(page);
    const response = await page.goto("/hvac");
    const html = (await response?.text()) ?? "";
    // The document's only executable script is the inline bootstrap: no src, no preload.
    const scripts = await page
      .locator("script")
      .evaluateAll((els) => els.map((s) => ({ src: s.getAttribute("src"), type: s.getAttribute("type") })));
    expect(scripts.filter((s) => s.src !== null)).toEqual([]);
    expect(scripts.filter((s) => s.type === null)).toHaveLength(1);
    expect(html).not.toMatch(/<link[^>]*rel="(modulepreload|preload)"/);

    // Once loaded and idle, the runtime and React are fetched ahead, after the first paint...
    await expect(page.locator('link[rel="modulepreload"][href^="/assets/runtime-"]')).toHaveCount(1);
    const timing = async () =>
      page.evaluate(() => {
        const fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? -1;
        const runtime = performance.getEntriesByType("resource").find((e) => new URL(e.name).pathname.startsWith("/assets/runtime-"));
        return { fcp, runtimeStart: runtime?.startTime ?? -1 };
      });
    // (A resource's timing entry is recorded once its response has ended.)
    await expect.poll(async () => (await timing()).runtimeStart).toBeGreaterThan(0);
    const { fcp, runtimeStart } = await timing();
    expect(fcp).toBeGreaterThan(0);
    expect(runtimeStart).toBeGreaterThan(fcp);
    // ...but nothing runs while the visitor does nothing.
    await page.waitForLoadState("networkidle");
    await expect(page.locator("[data-island][data-hydrated]")).toHaveCount(0);
    await expect(page.locator("html")).not.toHaveAttribute("data-hydrated", "true");

    // The first sign of life (the pointer moving) hydrates every island.
    await page.mouse.move(5, 5);
    await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
    await expect(page.locator("[data-island]:not([data-hydrated=true])")).toHaveCount(0);
  });

  test("a touch, a key or focus wakes the islands as the pointer does", async ({ page }) => {
    await pointerAway(page);
    await page.goto("/hvac");
    await page.waitForLoadState("networkidle");
    await expect(page.locator("html")).not.toHaveAttribute("data-hydrated", "true");
    await page.keyboard.press("Tab");
    await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  });

  test("a page without islands loads no JavaScript at all", async ({ page }) => {
    const scripts: string[] = [];
    page.on("request", (r) => {
      if (r.resourceType() === "script") scripts.push(r.url());
    });
    await page.goto("/privacy");
    await expectHydrated(page);
    await page.waitForLoadState("networkidle");
    expect(scripts).toEqual([]);
  });
});

test.describe("before the islands are live", { tag: "@one-width" }, () => {
  test("a callback request typed and sent before the runtime arrives is sent once it has", async ({ page }, testInfo) => {
    const runtime = await holdRuntime(page);
    await page.goto("/roofing");
    await runtime.requested;
    const f = callbackForm(page);
    const phone = uniquePhone(testInfo);
    await f.name.fill("Early Bird");
    await f.phone.fill(phone.input);
    // Plain clicks: the islands are not live, so these are held, not lost.
    await press(f.consent);
    await press(f.submit);
    await expect(page.locator('[data-island="Callback"]')).toHaveAttribute("aria-busy", "true");
    expect(new URL(page.url()).pathname, "the page did not post the form itself").toBe("/roofing");

    runtime.release();
    await expect(statusSheet(page)).toBeVisible();
    await expect(f.consent).not.toBeChecked(); // the form was cleared after success
    expect(new URL(page.url()).pathname).toBe("/roofing");
    await expect.poll(async () => (await leadsByPhone(MAIN_DB, phone.e164)).length).toBe(1);
    const [lead] = await leadsByPhone(MAIN_DB, phone.e164);
    expect(lead.full_name).toBe("Early Bird");
    expect(lead.service_slug).toBe("roofing");
  });

  test("a legal link pressed before the runtime arrives opens its modal once it has", async ({ page }) => {
    const runtime = await holdRuntime(page);
    await page.goto("/plumbing");
    await runtime.requested;
    const link = page.locator("footer").getByRole("link", { name: "Terms of Service", exact: true });
    await press(link);
    expect(new URL(page.url()).pathname).toBe("/plumbing");
    runtime.release();
    const dialog = page.getByRole("dialog", { name: "Terms of Service", exact: true });
    await expect(dialog).toBeVisible();
    expect(new URL(page.url()).pathname, "the modal opened, the page stayed").toBe("/plumbing");
  });

  test("a campaign search and filter set before the runtime arrives apply once it has", async ({ page }) => {
    const runtime = await holdRuntime(page);
    await page.goto("/campaigns");
    await runtime.requested;
    const search = page.getByPlaceholder("Search campaigns...");
    const filter = page.getByRole("combobox", { name: "Filter campaigns" });
    await search.fill("solar");
    await filter.selectOption("rtb");
    const heading = page.getByRole("heading", { name: /^Available Campaigns \(\d+\)$/ });
    const before = await heading.textContent();

    runtime.release();
    await expectHydrated(page);
    const cards = page.locator("main li h3");
    await expect(heading).not.toHaveText(before ?? "");
    const names = await cards.allTextContents();
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(name.toLowerCase()).toContain("solar");
    await expect(search).toHaveValue("solar");
    await expect(filter).toHaveValue("rtb");
  });
});

test.describe("when the runtime cannot load", { tag: "@one-width" }, () => {
  test("links and the callback form work as they do without JavaScript", async ({ page, consoleProblems }, testInfo) => {
    consoleProblems.allow(/Failed to load resource|Failed to fetch dynamically imported module/);
    await page.route(RUNTIME, (route) => route.abort());
    await page.goto("/solar");
    const f = callbackForm(page);
    const phone = uniquePhone(testInfo);
    // The first interaction asks for the runtime, which does not come: the islands stay HTML.
    await f.name.fill("No Script Ned");
    await expect(page.locator('[data-island="Callback"]')).toHaveAttribute("data-hydrated", "failed");
    await f.phone.fill(phone.input);
    await press(f.consent);
    await press(f.submit);
    await page.waitForURL((url) => url.pathname === "/callback-requested");
    await expect.poll(async () => (await leadsByPhone(MAIN_DB, phone.e164)).length).toBe(1);

    await page.goto("/solar");
    await press(page.locator("footer").getByRole("link", { name: "Privacy Policy", exact: true }));
    await page.waitForURL((url) => url.pathname === "/privacy");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Privacy Policy");
  });
});

test.describe("legal pages", { tag: "@one-width" }, () => {
  for (const doc of [
    { path: "/privacy", title: "Privacy Policy", sections: 8 },
    { path: "/terms", title: "Terms of Service", sections: 11 },
  ]) {
    test(`without JavaScript the footer's ${doc.title} link opens ${doc.path}`, async ({ newContext }) => {
      const context = await newContext({ javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto("/electrician");
      await press(page.locator("footer").getByRole("link", { name: doc.title, exact: true }));
      await page.waitForURL((url) => url.pathname === doc.path);
      await expect(page).toHaveTitle(`${doc.title} | RingReady`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(doc.title);
      await expect(page.locator("main h2")).toHaveCount(doc.sections);
      await expect(page.locator("main")).toContainText("Effective date: January 1, 2025");
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `https://www.ringready.example${doc.path}`);
    });
  }
});
