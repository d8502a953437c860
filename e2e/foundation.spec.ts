import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "@playwright/test";
import type { Campaign, Service } from "../client/lib/types";
import { expect, test } from "./fixtures";
import { hydrate } from "./support/hydrate";

// The foundation, in a real browser at phone and desktop width: server-rendered pages
// work without JavaScript, hydrate cleanly with it, and the interactive parts respond.

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..");

function readCatalogue<T>(name: string): T {
  return JSON.parse(readFileSync(join(repoRoot, "catalogue", name), "utf8")) as T;
}

const services = readCatalogue<Service[]>("services.json");
const campaigns = readCatalogue<Campaign[]>("campaigns.json");

function service(slug: string): Service {
  const found = services.find((s) => s.slug === slug);
  if (!found) throw new Error(`catalogue/services.json has no service "${slug}"`);
  return found;
}

/** What the portal should list: LIVE campaigns, name containing the search (any case),
 * payouts containing RTB when that filter is on. */
function expectedCampaignCount(search: string, rtbOnly = false): number {
  const needle = search.trim().toLowerCase();
  return campaigns.filter(
    (c) => c.status === "LIVE" && c.campaign.toLowerCase().includes(needle) && (!rtbOnly || c.payouts.includes("RTB")),
  ).length;
}

async function expectHydrated(page: Page): Promise<void> {
  await hydrate(page);
}

const SERVICE_CASES = [
  { slug: "hvac", phone: "(800) 555-0142", tel: "tel:+18005550142", badge: "24/7 Emergency" },
  { slug: "solar", phone: "(800) 555-0100", tel: "tel:+18005550100", badge: "Fast Response" },
] as const;

test.describe("service pages without JavaScript", () => {
  for (const c of SERVICE_CASES) {
    test(`/${c.slug} is complete as server HTML`, async ({ newContext }, testInfo) => {
      const svc = service(c.slug);
      const context = await newContext({ javaScriptEnabled: false });
      const page = await context.newPage();
      const response = await page.goto(`/${c.slug}`);
      expect(response?.status()).toBe(200);

      // JavaScript really is off: nothing hydrated.
      await expect(page.locator("html")).not.toHaveAttribute("data-hydrated", "true");

      await expect(page.locator("h1")).toHaveCount(1);
      await expect(page.locator("h1")).toHaveText(svc.title);
      await expect(page.getByText(svc.subtitle, { exact: true })).toBeVisible();
      // The description belongs to the desktop hero; the phone layout leaves it out.
      const description = page.getByText(svc.description, { exact: true });
      if (testInfo.project.name === "phone") await expect(description).toBeHidden();
      else await expect(description).toBeVisible();
      await expect(page.getByText(c.badge, { exact: true })).toBeVisible();
      const otherBadge = c.badge === "24/7 Emergency" ? "Fast Response" : "24/7 Emergency";
      await expect(page.getByText(otherBadge, { exact: true })).toHaveCount(0);

      // The number is shown, and the first call link on screen (the phone layout's sticky
      // call bar, the desktop header's button) is at the top of the page.
      const callLinks = page.locator('a[href^="tel:"]');
      const firstShown = callLinks.filter({ visible: true }).first();
      await expect(firstShown).toContainText(c.phone);
      expect((await firstShown.boundingBox())?.y ?? -1).toBeLessThan(40);
      await expect(page.getByRole("link", { name: `Call ${c.phone}`, exact: true }).first()).toBeVisible();

      // Every call link dials this service's number and carries the tracking attributes.
      const count = await callLinks.count();
      expect(count).toBeGreaterThanOrEqual(3);
      const locations: string[] = [];
      for (let i = 0; i < count; i++) {
        const link = callLinks.nth(i);
        await expect(link).toHaveAttribute("href", c.tel);
        await expect(link).toHaveAttribute("data-track-event", "call_click");
        await expect(link).toHaveAttribute("data-track-service", c.slug);
        await expect(link).toHaveAttribute("data-track-location", /\S/);
        locations.push((await link.getAttribute("data-track-location")) ?? "");
      }
      expect(locations).toEqual(expect.arrayContaining(["header", "hero", "footer"]));
    });
  }
});

test.describe("hydration", () => {
  for (const path of ["/", "/campaigns", "/hvac", "/solar"]) {
    test(`${path} hydrates without console errors or warnings`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      await expectHydrated(page);
      // Let effects and any late recoverable errors surface before the fixture checks.
      await page.waitForLoadState("networkidle");
    });
  }

  test("the console check catches a hydration mismatch", async ({ page, consoleProblems }) => {
    // Serve /hvac with callback-island props whose consent wording differs from the server
    // HTML: React must report the mismatch, and the fixture must record it.
    const original = "&quot;consentText&quot;:&quot;By checking this box";
    await page.route("**/hvac", async (route) => {
      const response = await route.fetch();
      const html = await response.text();
      expect(html).toContain(original);
      const headers = { ...response.headers() };
      delete headers["content-encoding"];
      delete headers["content-length"];
      delete headers.etag;
      await route.fulfill({
        status: response.status(),
        headers,
        body: html.replace(original, "&quot;consentText&quot;:&quot;A different wording. By checking this box"),
      });
    });
    await page.goto("/hvac");
    await expectHydrated(page);
    await expect(page.locator('[data-tf-element-role="consent-language"]')).toContainText("A different wording.");
    await expect.poll(() => consoleProblems.list().length).toBeGreaterThan(0);
    const problems = consoleProblems.take();
    expect(problems.map((p) => p.text).join("\n")).toMatch(/hydrat|#418|#425|did not match/i);
  });
});

test.describe("interactive after hydration", () => {
  test("campaign search and payout filter", async ({ page }) => {
    await page.goto("/campaigns");
    await expectHydrated(page);

    const heading = page.getByRole("heading", { name: /^Available Campaigns \(\d+\)$/ });
    const search = page.getByPlaceholder("Search campaigns...");
    const filter = page.getByRole("combobox", { name: "Filter campaigns" });
    const items = page.locator("main ul").last().locator(":scope > li");

    await expect(heading).toHaveText(`Available Campaigns (${expectedCampaignCount("")})`);

    for (const term of ["hvac", "SOLAR", "roof", "Transfers"]) {
      const n = expectedCampaignCount(term);
      expect(n, `fixture search "${term}" should match something`).toBeGreaterThan(0);
      await search.fill(term);
      await expect(heading).toHaveText(`Available Campaigns (${n})`);
      await expect(items).toHaveCount(n);
    }

    await search.fill("");
    await filter.selectOption({ label: "RTB Campaigns" });
    const rtb = expectedCampaignCount("", true);
    expect(rtb).toBeGreaterThan(0);
    await expect(heading).toHaveText(`Available Campaigns (${rtb})`);
    await expect(items).toHaveCount(rtb);
    const payouts = await items.locator("dd:first-of-type").allTextContents();
    expect(payouts.length).toBe(rtb);
    for (const payout of payouts) expect(payout).toContain("RTB");

    // Search and filter combine.
    await search.fill("hvac");
    await expect(heading).toHaveText(`Available Campaigns (${expectedCampaignCount("hvac", true)})`);

    await filter.selectOption({ label: "All Campaigns" });
    await search.fill("zzz no such campaign");
    await expect(heading).toHaveText("Available Campaigns (0)");
    await expect(page.getByText("No campaigns found", { exact: true })).toBeVisible();
    await expect(page.getByText("Try adjusting your search or filter criteria", { exact: true })).toBeVisible();
  });

  test("home page mobile menu toggles", async ({ page }, testInfo) => {
    await page.goto("/");
    await expectHydrated(page);
    const button = page.getByRole("button", { name: /^(Menu|Close menu)$/ });
    // The menu holds the navigation's items; its service links are in #services-menu.
    const menu = page.locator("#site-nav");

    if (testInfo.project.name !== "phone") {
      // At desktop width the main navigation shows and the menu button does not.
      await expect(button).toBeHidden();
      await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
      return;
    }

    await expect(button).toBeVisible();
    await expect(button).toHaveText("Menu");
    await expect(button).toHaveAttribute("aria-expanded", "false");
    await expect(menu).toBeHidden();

    await button.click();
    await expect(button).toHaveAttribute("aria-expanded", "true");
    await expect(button).toHaveText("Close menu");
    await expect(menu).toBeVisible();
    const links = menu.locator("#services-menu").getByRole("link");
    await expect(links).toHaveCount(services.length);
    for (const svc of [services[0], services[services.length - 1]]) {
      const link = menu.getByRole("link", { name: svc.name, exact: true });
      await expect(link).toBeVisible();
      await expect(link).toHaveAttribute("href", `/${svc.slug}`);
    }

    await button.click();
    await expect(button).toHaveAttribute("aria-expanded", "false");
    await expect(menu).toBeHidden();
  });
});

test.describe("routing", () => {
  test("unknown path answers the 404 page, which links home", async ({ page, consoleProblems }) => {
    // Chromium logs the 404 status of the document itself; that one is expected.
    consoleProblems.allow(/^Failed to load resource: the server responded with a status of 404/);
    const response = await page.goto("/does-not-exist");
    expect(response?.status()).toBe(404);
    await expectHydrated(page);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Service not found");
    const home = page.getByRole("link", { name: "Return Home" });
    await expect(home).toHaveAttribute("href", "/");
    await home.click();
    await page.waitForURL((url) => url.pathname === "/");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Stop Missing Calls. Start Converting Leads.");
  });

  test("/home-hvac redirects to /hvac", async ({ page }) => {
    const response = await page.goto("/home-hvac");
    expect(new URL(page.url()).pathname).toBe("/hvac");
    expect(response?.status()).toBe(200);
    const redirect = response?.request().redirectedFrom();
    expect(redirect, "the first request should have been redirected").toBeTruthy();
    expect(new URL(redirect?.url() ?? "").pathname).toBe("/home-hvac");
    expect((await redirect?.response())?.status()).toBe(301);
    await expect(page.locator("h1")).toHaveText(service("hvac").title);
  });
});

test.describe("head", () => {
  const hvac = service("hvac");
  const pages = [
    { path: "/", title: /\S/, description: /\S/ },
    { path: "/campaigns", title: /\S/, description: /\S/ },
    { path: "/hvac", title: hvac.title, description: hvac.description },
  ];
  for (const p of pages) {
    test(`${p.path} has title, meta description and canonical link`, async ({ page }) => {
      await page.goto(p.path);
      const title = await page.title();
      expect(title.trim().length).toBeGreaterThan(0);
      if (typeof p.title === "string") expect(title).toContain(p.title);

      const description = page.locator('head meta[name="description"]');
      await expect(description).toHaveCount(1);
      const content = (await description.getAttribute("content")) ?? "";
      if (typeof p.description === "string") expect(content).toBe(p.description);
      else expect(content).toMatch(p.description);

      const canonical = page.locator('head link[rel="canonical"]');
      await expect(canonical).toHaveCount(1);
      const href = (await canonical.getAttribute("href")) ?? "";
      const url = new URL(href); // throws unless absolute
      expect(url.protocol).toMatch(/^https?:$/);
      expect(url.pathname).toBe(p.path);
      await expectHydrated(page);
    });
  }
});

test.describe("screenshots (for people, not asserted)", () => {
  for (const { path, name } of [
    { path: "/", name: "home" },
    { path: "/campaigns", name: "campaigns" },
    { path: "/hvac", name: "hvac" },
  ]) {
    test(`full page ${path}`, async ({ page }, testInfo) => {
      await page.goto(path);
      await expectHydrated(page);
      await page.screenshot({
        path: join(testInfo.project.outputDir, "screenshots", `${testInfo.project.name}-${name}.png`),
        fullPage: true,
      });
    });
  }
});
