import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import {
  CLOSE_BYS,
  closeDialog,
  columnCount,
  EMAIL,
  menuButton,
  nav,
  openHome,
  SUPPORT,
  servicesMenu,
  showNavigation,
} from "./support/home";
import { hydrate } from "./support/hydrate";
import { isPhoneProject, press, services } from "./support/service";

// The home page (docs/product.md, "The home page") at phone and desktop width: the header with its
// Home Services dropdown and phone menu, the seven sections, and the footer shared with
// /campaigns. The overlays are in home-overlays.spec.ts.

const footer = (page: Page) => page.locator("footer");

test.describe("header", () => {
  test("banner claims, navigation items, rating, phone link and buttons", async ({ page }, testInfo) => {
    await openHome(page);
    const banner = page.locator("header").first();
    await expect(banner.getByText("Trusted by 500+ contractors", { exact: true })).toBeVisible();
    await expect(banner.getByText("Live in 24 hours", { exact: true })).toBeVisible();
    if (isPhoneProject(testInfo)) {
      await expect(page.getByRole("link", { name: "Login", exact: true })).toBeVisible();
      await expect(menuButton(page)).toBeVisible();
      await expect(nav(page)).toBeHidden();
    } else {
      await expect(menuButton(page)).toBeHidden();
      await expect(nav(page).getByRole("button", { name: "Home Services" })).toBeVisible();
    }
    await showNavigation(page, testInfo);
    const n = nav(page);
    await expect(n.getByRole("link", { name: "About", exact: true })).toHaveAttribute("href", "/#features");
    await expect(n.getByRole("link", { name: "Contact", exact: true })).toHaveAttribute("href", "/#contact");
    await expect(n.getByText("4.7 from 230+ reviews")).toBeVisible();
    await expect(n.getByRole("button", { name: "For Contractors", exact: true })).toBeVisible();
    await expect(n.getByRole("button", { name: "Get Service Now", exact: true })).toBeVisible();
    const call = n.getByRole("link", { name: SUPPORT.display, exact: true });
    await expect(call).toBeVisible();
    await expect(call).toHaveAttribute("href", SUPPORT.tel);
    await expect(call).toHaveAttribute("data-track-event", "call_click");
    await expect(call).toHaveAttribute("data-track-service", "site");
    await expect(call).toHaveAttribute("data-track-location", "header");
  });

  test("laptop and tablet widths: the desktop header fits from 1024 px, the menu holds every item below it, the hero's buttons clear the lead card", async ({
    page,
  }, testInfo) => {
    test.skip(isPhoneProject(testInfo), "sets its own widths");
    await openHome(page);
    const n = nav(page);
    const items = [
      n.getByRole("button", { name: "Home Services" }),
      n.getByRole("link", { name: "About", exact: true }),
      n.getByRole("link", { name: "Contact", exact: true }),
      n.getByRole("button", { name: "For Contractors", exact: true }),
      n.getByRole("link", { name: SUPPORT.display, exact: true }),
      n.getByRole("button", { name: "Get Service Now", exact: true }),
      page.locator("header").getByRole("link", { name: "Log in", exact: true }),
    ];
    const rating = n.getByText("4.7 from 230+ reviews");
    const heroCall = page
      .locator("main section")
      .first()
      .getByRole("link", { name: `Call ${SUPPORT.display}` });
    const leadCard = page.locator("figure").filter({ hasText: "Sample roofing lead" });
    for (const width of [1024, 1100, 1239, 1279, 1280, 1440]) {
      await page.setViewportSize({ width, height: 800 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${width} px: the page does not scroll sideways`).toBe(width);
      await expect(menuButton(page)).toBeHidden();
      for (const item of items) {
        await expect(item).toBeVisible();
        const box = await item.boundingBox();
        expect(box && box.x >= 0 && box.x + box.width <= width, `${width} px: ${String(item)} is inside the window`).toBe(true);
      }
      // The rating badge from 1280 px; narrower, it is left out of the row (the menu has it),
      // and the phone link moves up into the claims banner, in white on its blue.
      const call = n.getByRole("link", { name: SUPPORT.display, exact: true });
      const banner = await page.getByText("Trusted by 500+ contractors", { exact: true }).locator("xpath=../..").boundingBox();
      const callBox = await call.boundingBox();
      const inBanner = !!banner && !!callBox && callBox.y >= banner.y && callBox.y + callBox.height <= banner.y + banner.height;
      if (width >= 1280) {
        await expect(rating).toBeVisible();
        expect(inBanner, `${width} px: the phone link is in the row`).toBe(false);
        await expect(call).toHaveCSS("color", "rgb(30, 64, 175)");
      } else {
        await expect(rating).toBeHidden();
        expect(inBanner, `${width} px: the phone link is in the claims banner`).toBe(true);
        await expect(call).toHaveCSS("color", "rgb(255, 255, 255)");
      }
      const hero = await heroCall.boundingBox();
      const card = await leadCard.boundingBox();
      const overlap =
        hero &&
        card &&
        hero.x < card.x + card.width &&
        card.x < hero.x + hero.width &&
        hero.y < card.y + card.height &&
        card.y < hero.y + hero.height;
      expect(overlap, `${width} px: the hero's call button clears the lead card`).toBe(false);
    }
    for (const width of [768, 1023]) {
      await page.setViewportSize({ width, height: 800 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${width} px: the page does not scroll sideways`).toBe(width);
      await expect(n).toBeHidden();
      await menuButton(page).click();
      for (const item of [...items.slice(1, 6), rating]) await expect(item).toBeVisible();
      await expect(page.locator("header").getByRole("link", { name: "Login", exact: true })).toBeVisible();
      await menuButton(page).click();
      await expect(n).toBeHidden();
    }
  });

  test("the service links are in the server HTML, with icons, for crawlers and without JavaScript", async ({ newContext }) => {
    const context = await newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/");
    const links = servicesMenu(page).locator("a[href^='/']");
    await expect(links).toHaveCount(services.length);
    for (const [i, svc] of services.entries()) {
      await expect(links.nth(i)).toHaveText(svc.name);
      await expect(links.nth(i)).toHaveAttribute("href", `/${svc.slug}`);
      await expect(links.nth(i).locator("img")).toHaveAttribute("src", new RegExp(`^/assets/icons-[0-9a-f]+\\.svg#v-${svc.icon}$`));
      await expect(links.nth(i).locator("img")).toHaveAttribute("alt", "");
    }
  });

  test("desktop: the Home Services dropdown opens by mouse, 600 px wide, 42 links in 3 columns", async ({ page }, testInfo) => {
    test.skip(isPhoneProject(testInfo), "the dropdown is the desktop layout's");
    await openHome(page);
    const button = nav(page).getByRole("button", { name: "Home Services" });
    const menu = servicesMenu(page);
    await expect(button).toHaveAttribute("aria-expanded", "false");
    await expect(button).toHaveAttribute("aria-controls", "services-menu");
    await expect(menu).toBeHidden();

    await button.click();
    await expect(button).toHaveAttribute("aria-expanded", "true");
    await expect(menu).toBeVisible();
    expect((await menu.boundingBox())?.width).toBe(600);
    await expect(menu.getByRole("link")).toHaveCount(42);
    expect(await columnCount(menu.locator("li"))).toBe(3);
    for (const svc of [services[0], services[41]]) {
      await expect(menu.getByRole("link", { name: svc.name, exact: true })).toHaveAttribute("href", `/${svc.slug}`);
    }
    // Each service shows its icon from the sprite file, loaded once the menu is open.
    const icon = menu.locator("li img").first();
    expect((await icon.boundingBox())?.width).toBe(16);
    await expect.poll(() => icon.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

    // A click outside closes it; so does a second click on the button.
    await page.mouse.click(640, 780);
    await expect(menu).toBeHidden();
    await expect(button).toHaveAttribute("aria-expanded", "false");
    await button.click();
    await expect(menu).toBeVisible();
    await button.click();
    await expect(menu).toBeHidden();

    // A link goes to its service page.
    await button.click();
    await menu.getByRole("link", { name: "Roofing", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/roofing");
  });

  test("desktop: the dropdown works from the keyboard; Escape and Tab away close it", async ({ page }, testInfo) => {
    test.skip(isPhoneProject(testInfo), "the dropdown is the desktop layout's");
    await openHome(page);
    const button = nav(page).getByRole("button", { name: "Home Services" });
    const menu = servicesMenu(page);
    await button.focus();
    await page.keyboard.press("Enter");
    await expect(button).toHaveAttribute("aria-expanded", "true");
    await expect(menu).toBeVisible();
    await page.keyboard.press("Tab");
    await expect(menu.getByRole("link", { name: services[0].name, exact: true })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
    await expect(button).toBeFocused();
    await expect(button).toHaveAttribute("aria-expanded", "false");

    await page.keyboard.press("Space");
    await expect(menu).toBeVisible();
    // Shift+Tab leaves for the logo: focus outside closes the menu.
    await page.keyboard.press("Shift+Tab");
    await expect(menu).toBeHidden();
    await expect(button).toHaveAttribute("aria-expanded", "false");
  });

  test("phone: the menu shows the same items, the services in 2 columns; Escape and a tap outside close it", async ({ page }, testInfo) => {
    test.skip(!isPhoneProject(testInfo), "the menu is the phone layout's");
    await openHome(page);
    const button = menuButton(page);
    await expect(button).toHaveAttribute("aria-controls", "site-nav");
    await press(button);
    await expect(button).toHaveAttribute("aria-expanded", "true");
    const n = nav(page);
    for (const name of ["About", "Contact", SUPPORT.display]) await expect(n.getByRole("link", { name, exact: true })).toBeVisible();
    for (const name of ["For Contractors", "Get Service Now"]) await expect(n.getByRole("button", { name, exact: true })).toBeVisible();
    await expect(n.getByText("Home Services", { exact: true }).filter({ visible: true })).toBeVisible();
    const links = servicesMenu(page).getByRole("link");
    await expect(links).toHaveCount(42);
    await links.last().scrollIntoViewIfNeeded();
    await expect(links.last()).toBeVisible();
    expect(await columnCount(servicesMenu(page).locator("li"))).toBe(2);

    await page.keyboard.press("Escape");
    await expect(n).toBeHidden();
    await expect(button).toBeFocused();
    await expect(button).toHaveAttribute("aria-expanded", "false");

    // By keyboard: Enter opens it, Tab moves into it, Escape closes it and gives focus back.
    await button.focus();
    await page.keyboard.press("Enter");
    await expect(n).toBeVisible();
    await expect(button).toHaveAttribute("aria-expanded", "true");
    await page.keyboard.press("Tab");
    expect(await n.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    await page.keyboard.press("Escape");
    await expect(n).toBeHidden();
    await expect(button).toBeFocused();

    await press(button);
    await expect(n).toBeVisible();
    // The claims banner is outside the menu and its button.
    await page.getByText("Trusted by 500+ contractors", { exact: true }).tap();
    await expect(n).toBeHidden();
    await expect(button).toHaveAttribute("aria-expanded", "false");
  });

  test("phone: following About or Contact from the menu closes it and shows that section", async ({ page }, testInfo) => {
    test.skip(!isPhoneProject(testInfo), "the menu is the phone layout's");
    await openHome(page);
    const button = menuButton(page);
    for (const [name, section] of [
      ["About", "#features"],
      ["Contact", "#contact"],
    ]) {
      await press(button);
      await expect(nav(page)).toBeVisible();
      await press(nav(page).getByRole("link", { name, exact: true }));
      await expect(nav(page), `the menu closes after '${name}'`).toBeHidden();
      await expect(button).toHaveAttribute("aria-expanded", "false");
      expect(new URL(page.url()).hash).toBe(section);
      await expect(page.locator(section)).toBeInViewport();
    }
  });

  test("without JavaScript the header's buttons are links: the menus open as the address's target", async ({ newContext }, testInfo) => {
    const context = await newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/");
    const n = nav(page);
    const links = servicesMenu(page).locator("a[href^='/']");
    const claims = page.getByText("Trusted by 500+ contractors", { exact: true });
    if (isPhoneProject(testInfo)) {
      await expect(n).toBeHidden();
      await expect(page.getByRole("button", { name: "Menu" })).toHaveCount(0);
      await press(page.getByRole("link", { name: "Menu", exact: true }));
      await expect(n).toBeVisible();
      await expect(claims, "the page did not jump to the menu").toBeInViewport();
      await expect(links).toHaveCount(42);
      // 'Get Service Now' leads to the services, inside the menu, which stays open.
      await press(n.getByRole("link", { name: "Get Service Now" }));
      expect(new URL(page.url()).hash).toBe("#services-menu");
      await expect(n).toBeVisible();
      await expect(links.first()).toBeInViewport();
      await expect(n.getByRole("link", { name: "For Contractors" })).toHaveAttribute("href", "/register");
      await press(n.getByRole("link", { name: "Close menu" }));
      await expect(n).toBeHidden();
      await expect(claims).toBeInViewport();
      await press(page.getByRole("link", { name: "Menu", exact: true }));
    } else {
      await expect(servicesMenu(page)).toBeHidden();
      await expect(n.getByRole("button")).toHaveCount(0);
      await press(n.getByRole("link", { name: "Home Services" }));
      await expect(servicesMenu(page)).toBeVisible();
      await expect(claims, "the page did not jump to the dropdown").toBeInViewport();
      await expect(links).toHaveCount(42);
      expect(await columnCount(servicesMenu(page).locator("li"))).toBe(3);
      await press(servicesMenu(page).getByRole("link", { name: "Close", exact: true }));
      await expect(servicesMenu(page)).toBeHidden();
      await press(n.getByRole("link", { name: "Get Service Now" }));
      await expect(servicesMenu(page)).toBeVisible();
      await expect(claims).toBeInViewport();
      await expect(n.getByRole("link", { name: "Close menu" })).toHaveCount(0);
      await expect(n.getByRole("link", { name: "For Contractors" })).toHaveAttribute("href", "/register");
    }
    await press(links.filter({ hasText: "Roofing" }).first());
    await page.waitForURL((url) => url.pathname === "/roofing");
  });
});

test.describe("sections", () => {
  test("the seven sections, with the spec's strings and anchors", async ({ page }) => {
    await openHome(page);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Stop Missing Calls. Start Converting Leads.");
    const start = page.getByRole("link", { name: "Get Started Today", exact: true });
    await expect(start).toBeVisible();
    // It opens the registration modal (e2e/registration-modal.spec.ts); without JavaScript it
    // leads to the registration request form.
    await expect(start).toHaveAttribute("href", "/register");

    // The sample roofing lead's call card: caller, issue, urgency, area, recording and transcript.
    const card = page.locator("figure").filter({ hasText: "Sample roofing lead" });
    for (const text of [
      "Caller",
      "Issue",
      "Area",
      "Urgent: active leak",
      "Recording 3:18",
      "Transcript ready",
      "SMS sent",
      "E-mail sent",
    ]) {
      await expect(card.getByText(text, { exact: true })).toBeVisible();
    }

    for (const label of ["The problem", "The leak", "The fix"]) await expect(page.getByText(label, { exact: true })).toBeVisible();
    await expect(page.getByText("Each missed call costs $500-$5,000.", { exact: true })).toBeVisible();

    const features = page.locator("#features");
    for (const layer of ["Capture Layer", "Delivery Engine", "Follow-Up Fuel"]) {
      await expect(features.getByRole("heading", { name: layer, exact: true })).toBeVisible();
    }
    for (const capability of [
      "Live call recording",
      "Instant email delivery",
      "SMS notifications",
      "Real-time alerts",
      "Professional agents",
      "Call transcripts",
    ]) {
      await expect(features.getByText(new RegExp(`^${capability}$`, "i"))).toBeVisible();
    }
    await expect(page.getByRole("heading", { name: "Your marketing works. Voicemail wastes it." })).toBeVisible();

    const contact = page.locator("#contact");
    await expect(contact.getByRole("heading", { level: 2 })).toHaveText("Be live in 24 hours");
    await expect(contact.getByRole("link", { name: `Call ${SUPPORT.display}` })).toHaveAttribute("href", SUPPORT.tel);
    await expect(contact.getByRole("link", { name: EMAIL })).toHaveAttribute("href", `mailto:${EMAIL}`);
    await expect(page.locator("#pricing")).toContainText("No setup fees");
    await expect(page.getByRole("heading", { name: "Live in 24 hours, in three steps" })).toBeVisible();

    // Hero, problem, features, waste, contact and getting started; the footer is the seventh.
    await expect(page.locator("main > section")).toHaveCount(6);
    await expect(page.locator("main + footer")).toHaveCount(1);

    await expect(contact.getByRole("link", { name: "Request Your Account", exact: true })).toHaveAttribute("href", "/register");
  });
});

test.describe("footer", () => {
  for (const path of ["/", "/campaigns"]) {
    test(`${path}: links and collapsibles of this layout`, async ({ page }, testInfo) => {
      await page.goto(path);
      await hydrate(page);
      const f = footer(page);
      const visibleHrefs = async () => f.locator("a:visible").evaluateAll((els) => els.map((el) => el.getAttribute("href") ?? ""));
      const both = ["/hvac", "/roofing", "/plumbing", "/pest-control", "/electrician", "/water-damage"];
      const phoneMore = [
        "/siding",
        "/flooring",
        "/appliance-repair",
        "/handyman",
        "/bathroom-remodeling",
        "/lawncare",
        "/pressure-washing",
        "/carpet-cleaning",
        "/decks",
        "/fences",
        "/painting",
        "/tree-services",
      ];
      const serviceNav = f.getByRole("navigation", { name: "Home services" });
      const serviceHrefs = async () => (await visibleHrefs()).filter((h) => [...both, ...phoneMore].includes(h));

      await expect(f.getByText("Professional call answering service for contractors and small businesses.")).toBeVisible();
      await expect(f.getByText(/© 2025 RingReady/)).toBeVisible();
      if (isPhoneProject(testInfo)) {
        await expect(f.getByRole("link", { name: `Call ${SUPPORT.display}` })).toHaveAttribute("href", SUPPORT.tel);
        await expect(f.getByRole("link", { name: EMAIL }).first()).toHaveAttribute("href", `mailto:${EMAIL}`);
        expect(await serviceHrefs()).toEqual(both);
        const more = serviceNav.locator("details");
        await press(more.getByText("More services", { exact: true }));
        await expect(more).toHaveAttribute("open", "");
        expect(await serviceHrefs()).toEqual([...both, ...phoneMore]);
        const contact = f.locator("details").filter({ hasText: "Contact us" });
        await expect(contact.getByText(`E-mail: ${EMAIL}`)).toBeHidden();
        await press(contact.getByText("Contact us", { exact: true }));
        await expect(contact.getByRole("link", { name: SUPPORT.display })).toBeVisible();
        await expect(contact.getByRole("link", { name: EMAIL })).toBeVisible();
      } else {
        for (const heading of ["Contact", "Home Services", "Company"])
          await expect(f.getByRole("heading", { name: heading, exact: true })).toBeVisible();
        expect(await serviceHrefs()).toEqual([...both, ...phoneMore].slice(0, 10));
        await expect(f.getByText("More services")).toBeHidden();
        // Four columns: the brand blurb, then Contact, Home Services and Company.
        const blurb = f.getByText("Professional call answering service for contractors and small businesses.");
        const lefts = await f.locator("h2:visible").evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().left)));
        const blurbLeft = await blurb.evaluate((e) => Math.round(e.getBoundingClientRect().left));
        expect(new Set([blurbLeft, ...lefts]).size).toBe(4);
        expect(blurbLeft).toBeLessThan(Math.min(...lefts));
        await expect(f.getByRole("link", { name: SUPPORT.display })).toHaveAttribute("href", SUPPORT.tel);
        await expect(f.getByRole("link", { name: EMAIL })).toHaveAttribute("href", `mailto:${EMAIL}`);
      }
      const company = f.getByRole("navigation", { name: "Company" });
      expect(await company.getByRole("link").allInnerTexts()).toEqual(["About Us", "Pricing", "Contact", "Support"]);
      await expect(company.getByRole("link", { name: "About Us" })).toHaveAttribute("href", "/#features");
      await expect(company.getByRole("link", { name: "Pricing" })).toHaveAttribute("href", "/#pricing");
      await expect(company.getByRole("link", { name: "Contact", exact: true })).toHaveAttribute("href", "/#contact");
      await expect(company.getByRole("link", { name: "Support" })).toHaveAttribute("href", SUPPORT.tel);
      for (const name of ["Facebook", "LinkedIn", "YouTube"])
        await expect(f.getByRole("link", { name })).toHaveAttribute("href", /^https:\/\//);
      expect(await visibleHrefs()).not.toContain("#");

      // The legal links open their modal once live, and are links to the pages.
      for (const [title, href] of [
        ["Privacy Policy", "/privacy"],
        ["Terms of Service", "/terms"],
      ]) {
        const link = f.getByRole("link", { name: title, exact: true });
        await expect(link).toHaveAttribute("href", href);
        for (const by of CLOSE_BYS) {
          await press(link);
          const dialog = page.getByRole("dialog", { name: title });
          await expect(dialog.getByRole("heading", { level: 3 }).first()).toBeVisible();
          await closeDialog(page, dialog, by);
          await expect(link).toBeFocused();
        }
      }
      expect(new URL(page.url()).pathname).toBe(path);
    });
  }

  test("the collapsibles open without JavaScript, and the legal links are plain links", async ({ newContext }, testInfo) => {
    test.skip(!isPhoneProject(testInfo), "the collapsibles are the phone layout's");
    const context = await newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/");
    const f = footer(page);
    await press(f.getByText("More services", { exact: true }));
    await expect(f.getByRole("link", { name: "Tree Services" })).toBeVisible();
    await press(f.getByText("Contact us", { exact: true }));
    await expect(f.locator("details").filter({ hasText: "Contact us" }).getByRole("link", { name: EMAIL })).toBeVisible();
    await press(f.getByRole("link", { name: "Terms of Service" }));
    await page.waitForURL((url) => url.pathname === "/terms");
  });
});
