import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { insideSideways, lineCount } from "./support/layout";
import {
  badgeFor,
  CALL_LOCATIONS,
  callbackForm,
  expectHydrated,
  footer,
  isPhoneProject,
  phoneFor,
  press,
  SLUGS,
  service,
  services,
} from "./support/service";

// The service landing page (/{slug}) in a real browser against the real server, at phone
// (390 px) and desktop (1280 px) width: every part of each layout, the badge rule for every
// service in the catalogue, and the phone rule and call-tracking attributes of the call links.
// docs/product.md, "A service page" and "Constants".

/** Present in the HTML, not shown at this width. */
async function expectPresentButHidden(locator: Locator): Promise<void> {
  await expect(locator).toHaveCount(1);
  await expect(locator).toBeHidden();
}

const callLink = (page: Page, location: string) => page.locator(`a[href^="tel:"][data-track-location="${location}"]`);
const DISCLAIMER = /connects homeowners with independent, licensed contractors and is not itself a contractor/;

// ---------------------------------------------------------------------------------------
// Every element of each layout
// ---------------------------------------------------------------------------------------

test.describe("layout", () => {
  for (const slug of SLUGS) {
    test(`/${slug} shows every part of its layout, and only that layout's`, async ({ page }, testInfo) => {
      const svc = service(slug);
      const { display } = phoneFor(slug);
      const response = await page.goto(`/${slug}`);
      expect(response?.status()).toBe(200);
      await expectHydrated(page);

      // Both layouts.
      await expect(page.locator("h1")).toHaveCount(1);
      await expect(page.locator("h1")).toHaveText(svc.title);
      await expect(page.locator("h1")).toBeVisible();
      await expect(page.getByText(svc.subtitle, { exact: true })).toBeVisible();
      const hero = callLink(page, "hero");
      await expect(hero).toBeVisible();
      await expect(hero).toHaveText(`Call ${display}`);
      const heroSection = page.locator("#main > section").first();
      const heroIcon = heroSection.locator('svg[viewBox="0 0 100 100"]');
      await expect(heroIcon).toBeVisible();
      await expect(heroIcon.locator("rect")).toHaveAttribute("fill", svc.color);
      await expect(heroIcon.locator("xpath=following-sibling::*[local-name()='svg']")).toBeVisible();
      expect((await heroIcon.boundingBox())?.width ?? 0).toBeGreaterThan(50);
      const formHeading = page.getByRole("heading", { name: "Prefer a Callback?", exact: true });
      await expect(formHeading).toBeVisible();
      const f = callbackForm(page);
      for (const field of [f.name, f.phone, f.zip, f.consent, f.consentText, f.submit]) await expect(field).toBeVisible();
      await expect(f.submit).toHaveText("Request Callback");
      await expect(footer(page).getByRole("link", { name: "Privacy Policy", exact: true })).toHaveAttribute("href", "/privacy");
      await expect(footer(page).getByRole("link", { name: "Terms of Service", exact: true })).toHaveAttribute("href", "/terms");
      await expect(footer(page).getByText(DISCLAIMER)).toBeVisible();
      await expect(page.getByTestId("badge")).toHaveText(badgeFor(svc));
      await expect(page.getByText("5,000+ happy customers", { exact: true })).toBeVisible();
      await expect(page.getByText(/4\.9\/5/)).toBeVisible();

      const sticky = callLink(page, "sticky-bar");
      const card = page.getByText("Call Us Now", { exact: true });
      const trust = [page.getByText("Licensed & Insured", { exact: true }), page.getByText("24/7 Emergency Service", { exact: true })];
      const how = page.getByText("How It Works", { exact: true });
      const bottomCall = callLink(page, "bottom-bar");
      const bottomCallback = page.locator('button[type="button"]', { hasText: "Request Callback" });
      const header = page.getByTestId("desktop-header");
      const breadcrumb = page.locator('nav[aria-label="Breadcrumb"]');
      const problem = page.locator("section", { has: page.locator("h2", { hasText: svc.problemTitle }) });
      const solution = page.locator("section", { has: page.locator("h2", { hasText: svc.solutionTitle }) });
      const cta = callLink(page, "final-cta");
      const footerPhone = callLink(page, "footer");
      const email = footer(page).locator('a[href="mailto:info@ringready.example"]');

      if (isPhoneProject(testInfo)) {
        // Sticky top call bar: at the top, and still there after scrolling.
        await expect(sticky).toBeVisible();
        await expect(sticky).toHaveText(`Call Now: ${display}`);
        await page.evaluate(() => window.scrollTo(0, 1200));
        await expect.poll(async () => Math.round((await sticky.boundingBox())?.y ?? -1)).toBe(0);
        await page.evaluate(() => window.scrollTo(0, 0));
        await expect(page.locator("main").getByRole("link", { name: "RingReady", exact: true })).toBeVisible();

        await expect(card).toBeVisible();
        await expect(page.locator("section", { has: card }).getByText(svc.urgentMessage, { exact: true })).toBeVisible();
        await expect(callLink(page, "card")).toBeVisible();
        await expect(callLink(page, "card")).toHaveText(display);
        for (const t of trust) await expect(t).toBeVisible();
        await expect(how).toBeVisible();
        const steps = page.locator("section", { has: how }).locator("ol > li");
        await expect(steps).toHaveCount(3);
        for (const [i, title] of ["Call Us", "Answer a Few Questions", "Get Your Service"].entries()) {
          await expect(steps.nth(i)).toContainText(title);
        }

        // Fixed bottom bar, at the bottom of the screen.
        await expect(bottomCall).toBeVisible();
        await expect(bottomCall).toHaveText("Tap To Call Now");
        await expect(bottomCallback).toBeVisible();
        const viewport = page.viewportSize();
        const bar = await bottomCall.locator("..").boundingBox();
        expect(Math.round((bar?.y ?? 0) + (bar?.height ?? 0))).toBe(viewport?.height);

        // 'Request Callback' brings the form into view and focuses Full Name.
        await press(bottomCallback);
        await expect(f.name).toBeFocused();
        await expect(f.name).toBeInViewport();

        // Desktop-only parts are in the HTML but hidden.
        await expect(header).toBeHidden();
        await expectPresentButHidden(breadcrumb);
        await expectPresentButHidden(page.getByText(svc.description, { exact: true }));
        await expectPresentButHidden(problem);
        await expectPresentButHidden(solution);
        await expectPresentButHidden(cta);
        await expectPresentButHidden(footerPhone);
        await expectPresentButHidden(email);
      } else {
        await expect(header).toBeVisible();
        await expect(header.getByRole("link", { name: "RingReady", exact: true })).toBeVisible();
        await expect(callLink(page, "header")).toBeVisible();
        await expect(callLink(page, "header")).toHaveText(display);
        // A header with a call button: the logo and the number, nothing else to read.
        expect((await header.textContent())?.replace(/\s+/g, "")).toBe(`RingReady${display}`.replace(/\s+/g, ""));

        await expect(breadcrumb).toBeVisible();
        await expect(breadcrumb.getByRole("link", { name: "Home", exact: true })).toHaveAttribute("href", "/");
        await expect(breadcrumb.locator('[aria-current="page"]')).toHaveText(svc.name);
        await expect(page.getByText(svc.description, { exact: true })).toBeVisible();

        await expect(problem).toBeVisible();
        await expect(problem.getByRole("heading", { level: 2 })).toHaveText(svc.problemTitle);
        await expect(problem.getByText(svc.urgentMessage, { exact: true })).toBeVisible();
        await expect(problem.locator("li")).toHaveText(svc.urgentScenarios);
        expect(svc.urgentScenarios).toHaveLength(4);

        await expect(solution).toBeVisible();
        await expect(solution.getByRole("heading", { level: 2 })).toHaveText(svc.solutionTitle);
        expect(svc.features).toHaveLength(3);
        await expect(solution.getByRole("heading", { level: 3 })).toHaveText(svc.features.map((x) => x.title));
        for (const feature of svc.features) await expect(solution.getByText(feature.description, { exact: true })).toBeVisible();

        await expect(page.getByRole("heading", { name: `Talk to a local ${svc.name} pro today`, exact: true })).toBeVisible();
        await expect(cta).toBeVisible();
        await expect(cta).toHaveText(`Call ${display}`);

        await expect(footerPhone).toBeVisible();
        await expect(footerPhone).toHaveText(display);
        await expect(email).toBeVisible();
        await expect(email).toHaveText("info@ringready.example");

        // Phone-only parts are in the HTML but hidden.
        await expectPresentButHidden(sticky);
        await expectPresentButHidden(card);
        for (const t of trust) await expectPresentButHidden(t);
        await expectPresentButHidden(how);
        await expectPresentButHidden(bottomCall);
        await expectPresentButHidden(bottomCallback);
      }
    });
  }
});

// ---------------------------------------------------------------------------------------
// The badge rule, for every service in the catalogue
// ---------------------------------------------------------------------------------------

test("phones from 320 px: the bottom bar's 'Tap To Call Now' and 'Request Callback' each keep to one line inside their button", async ({
  page,
}, testInfo) => {
  test.skip(!isPhoneProject(testInfo), "the bottom bar is the phone layout's");
  await page.goto("/hvac");
  const bar = page.getByRole("complementary", { name: "Call or request a callback" });
  const labels = [
    bar.getByRole("link", { name: "Tap To Call Now" }).getByText("Tap To Call Now"),
    bar.getByRole("button", { name: "Request Callback" }),
  ];
  for (const width of [320, 360, 390, 430]) {
    await page.setViewportSize({ width, height: 740 });
    for (const label of labels) {
      expect(await lineCount(label), `${width} px: ${String(label)} on one line`).toBe(1);
      expect(await insideSideways(label, "a, button"), `${width} px: ${String(label)} inside its button`).toBe(true);
    }
  }
});

test("every service's badge: '24/7 Emergency' iff emergencyAvailable, else 'Fast Response'", async ({ page }) => {
  // 42 page loads in one test: on a busy machine that takes longer than one page's 30 s.
  test.setTimeout(120_000);
  expect(services).toHaveLength(42);
  expect(services.some((s) => s.emergencyAvailable) && services.some((s) => !s.emergencyAvailable)).toBe(true);
  for (const svc of services) {
    const response = await page.goto(`/${svc.slug}`, { waitUntil: "domcontentloaded" });
    expect(response?.status(), svc.slug).toBe(200);
    const badge = page.getByTestId("badge");
    await expect(badge, svc.slug).toHaveText(badgeFor(svc));
    await expect(badge, svc.slug).toBeVisible();
    const other = svc.emergencyAvailable ? "Fast Response" : "24/7 Emergency";
    await expect(page.getByText(other, { exact: true }), svc.slug).toHaveCount(0);
  }
  // The last one hydrates without a mismatch (the fixture fails the test on one).
  await expectHydrated(page);
});

// ---------------------------------------------------------------------------------------
// The phone rule and the call-tracking attributes
// ---------------------------------------------------------------------------------------

test.describe("call links", () => {
  for (const slug of SLUGS) {
    test(`/${slug} dials its own number from every call link, each tracked at its own location`, async ({ page }, testInfo) => {
      const { display, tel } = phoneFor(slug);
      await page.goto(`/${slug}`);
      await expectHydrated(page);
      const links = page.locator('a[href^="tel:"]');
      const count = await links.count();
      expect(count, "one per location of both layouts").toBe(7);
      const all: string[] = [];
      const visible: string[] = [];
      for (let i = 0; i < count; i++) {
        const link = links.nth(i);
        await expect(link).toHaveAttribute("href", tel);
        await expect(link).toHaveAttribute("data-track-event", "call_click");
        await expect(link).toHaveAttribute("data-track-service", slug);
        await expect(link).toHaveAttribute("data-track-location", /\S/);
        const location = (await link.getAttribute("data-track-location")) ?? "";
        all.push(location);
        if (await link.isVisible()) visible.push(location);
      }
      expect(new Set(all).size, `locations are distinct: ${all.join(", ")}`).toBe(all.length);
      const layout = isPhoneProject(testInfo) ? "phone" : "desktop";
      expect(visible.sort()).toEqual([...CALL_LOCATIONS[layout]].sort());

      // The only number on the page is this service's.
      // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText, the text a visitor sees (textContent would count hidden copies too)
      const shown = (await page.locator("body").innerText()).match(/\(\d{3}\) \d{3}-\d{4}/g) ?? [];
      expect(shown.length).toBeGreaterThan(0);
      expect(new Set(shown)).toEqual(new Set([display]));
    });
  }
});
