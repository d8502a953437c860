import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { accountDialog, chooseAccountType, registrationDialog } from "./support/accounts";
import { application, applyLink, availableCampaigns, cards, dashboard, live } from "./support/campaigns";
import { BROKEN_URL } from "./support/env";
import { chooser, menuButton, nav, servicesMenu } from "./support/home";
import { hydrate } from "./support/hydrate";
import { layoutProblems, SCREENS } from "./support/layout";
import { callbackForm, fillCallbackForm, services, statusSheet, uniquePhone } from "./support/service";

// The layout gate: every public page, and every overlay, at every width from a small phone
// to a desktop (support/layout.ts: SCREENS). At each: the page does not scroll sideways,
// every visible control lies inside the window, and no box's content spills out of it
// sideways (support/layout.ts: layoutProblems). One page per width and test, reused for
// page after page and overlay after overlay, so that the whole gate takes a few minutes.
// Runs in its own project ("layout"), at the widths it sets itself.

/** Records what is wrong with the layout now, under `what`, and lets the test go on (the
 * test fails at its end, listing every problem it met). */
async function check(page: Page, what: string): Promise<void> {
  expect.soft(await layoutProblems(page), what).toEqual([]);
}

/** The phone layout's menu open, where the navigation is (wide windows show it anyway). */
async function showNavigation(page: Page): Promise<void> {
  const button = menuButton(page);
  if ((await button.isVisible()) && (await button.getAttribute("aria-expanded")) !== "true") await button.click();
  await expect(nav(page)).toBeVisible();
}

async function closeWithEscape(page: Page, dialog: Locator): Promise<void> {
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
}

const REGISTRATION_TYPES = ["Homeowner", "Contractors & Call Buyers", "Affiliate Partners"];

for (const screen of SCREENS) {
  test.describe(`${screen.width} px`, () => {
    // Below 768 px: a phone (its browser applies the page's viewport tag; touch).
    const phone = { isMobile: screen.width < 768, hasTouch: screen.width < 768 };
    test.use({ viewport: screen, ...phone });

    test("every service page", async ({ page }) => {
      for (const s of services) {
        await page.goto(`/${s.slug}`);
        await check(page, `/${s.slug}`);
      }
    });

    test("the other pages, as served and once live", async ({ page, consoleProblems }) => {
      // The not-found and the 500 page answer with their status, which Chromium logs.
      consoleProblems.allow(/status of (404|500)/);
      for (const path of [
        "/",
        "/campaigns",
        "/register",
        "/register/homeowner",
        "/register/contractor",
        "/register/affiliate",
        "/privacy",
        "/terms",
        "/no-such-page",
      ]) {
        await page.goto(path);
        await check(page, path);
        await hydrate(page);
        await check(page, `${path} once live`);
      }
      // The server's own page when a page cannot be rendered.
      await page.goto(`${BROKEN_URL}/`);
      await check(page, "the 500 page");
    });

    test("without JavaScript: the header's menus, the forms and the server's answers", async ({ newContext, consoleProblems }) => {
      // A refused form is answered with status 400, which Chromium logs.
      consoleProblems.allow(/status of 400/);
      const context = await newContext({ javaScriptEnabled: false, viewport: screen, ...phone });
      const page = await context.newPage();
      // The menus open as the address's target (the phone menu; the desktop dropdown, or
      // on phones the services inside the menu).
      for (const path of ["/", "/#site-nav", "/#services-menu", "/hvac", "/campaigns", "/register/contractor"]) {
        await page.goto(path);
        await check(page, `${path} without JavaScript`);
      }
      for (const path of [
        `/campaigns/apply?campaign=${encodeURIComponent(live[0].campaign)}`,
        "/campaigns/applied",
        "/callback-requested?service=hvac",
        "/register/thanks?type=homeowner",
      ]) {
        await page.goto(path);
        await check(page, path);
      }
      // The answers to refused forms: each page again with its error.
      const refused = async (path: string, form: Locator, submit: Locator, what: string) => {
        await page.goto(path);
        await form.evaluate((f: HTMLFormElement) => (f.noValidate = true));
        await submit.click();
        await expect(page.getByRole("alert").first()).toBeVisible();
        await check(page, what);
      };
      await refused("/hvac", callbackForm(page).form, callbackForm(page).submit, "the callback form's answer with its error");
      await refused(
        "/register/contractor",
        page.locator("main form"),
        page.getByRole("button", { name: "Complete Registration" }),
        "the registration form's answer with its error",
      );
      await refused(
        "/campaigns/apply",
        page.locator("main form"),
        page.getByRole("button", { name: "Submit Application" }),
        "the campaign application's answer with its error",
      );
    });

    test("the home page's header menus and overlays", async ({ page }) => {
      await page.goto("/");
      await hydrate(page);

      // The header's menu (phone layout) or the Home Services dropdown (desktop layout).
      if (await menuButton(page).isVisible()) {
        await showNavigation(page);
        await check(page, "the header's menu");
        await menuButton(page).click();
        await expect(nav(page)).toBeHidden();
      } else {
        await nav(page).getByRole("button", { name: "Home Services" }).click();
        await expect(servicesMenu(page)).toBeVisible();
        await check(page, "the Home Services dropdown");
        await page.keyboard.press("Escape");
        await expect(servicesMenu(page)).toBeHidden();
      }

      // The account dialog: the type choice, then Login and Sign Up.
      await page
        .locator("header")
        .getByRole("link", { name: /^(Login|Log in)$/ })
        .filter({ visible: true })
        .click();
      const account = accountDialog(page);
      await expect(account).toBeVisible();
      await check(page, "the account dialog's type choice");
      await chooseAccountType(account, "Contractors/Call Buyers", "Login");
      await check(page, "the account dialog's login");
      await account.getByRole("tab", { name: "Sign Up" }).click();
      await check(page, "the account dialog's sign-up");
      await closeWithEscape(page, account);

      // The registration modal: the type choice and each type's form.
      await page.getByRole("link", { name: "Get Started Today", exact: true }).click();
      const registration = registrationDialog(page);
      await expect(registration).toBeVisible();
      await check(page, "the registration modal's type choice");
      for (const type of REGISTRATION_TYPES) {
        await registration.getByRole("button", { name: new RegExp(`^${type}`) }).click();
        await expect(registration.getByRole("heading", { name: `${type} Registration` })).toBeVisible();
        await check(page, `the registration modal's ${type} form`);
        await registration.getByRole("button", { name: "Back" }).click();
      }
      await closeWithEscape(page, registration);

      // The contractor chooser, an alert, the affiliate dashboard and its campaigns.
      await showNavigation(page);
      await nav(page).getByRole("button", { name: "For Contractors", exact: true }).click();
      await expect(chooser(page)).toBeVisible();
      await check(page, "the contractor chooser");
      await chooser(page)
        .getByRole("button", { name: /^Homeowners/ })
        .click();
      const alert = page.getByRole("alertdialog");
      await expect(alert).toBeVisible();
      await check(page, "the homeowner alert");
      await closeWithEscape(page, alert);
      await showNavigation(page);
      await nav(page).getByRole("button", { name: "For Contractors", exact: true }).click();
      await chooser(page)
        .getByRole("button", { name: /^Affiliate Partners/ })
        .click();
      await expect(dashboard(page)).toBeVisible();
      await check(page, "the affiliate dashboard");
      await dashboard(page).getByRole("button", { name: "View Available Campaigns" }).click();
      const campaigns = availableCampaigns(page);
      await expect(cards(campaigns)).toHaveCount(live.length);
      await check(page, "Available Campaigns");
      const grid = campaigns.getByRole("button", { name: "Grid view" });
      if (await grid.isVisible()) {
        await grid.click();
        await expect(grid).toHaveAttribute("aria-pressed", "true");
        await check(page, "Available Campaigns as a grid");
        await campaigns.getByRole("button", { name: "List view" }).click();
      }
      await campaigns.getByRole("button", { name: `Apply Now: ${live[0].campaign}`, exact: true }).click();
      await expect(application(page)).toBeVisible();
      await check(page, "the application modal over the dashboard");
      await closeWithEscape(page, application(page));
      await closeWithEscape(page, campaigns);
      await closeWithEscape(page, dashboard(page));

      // The service request modal: the picker, then the callback form.
      await showNavigation(page);
      await nav(page).getByRole("button", { name: "Get Service Now", exact: true }).click();
      const request = page.getByRole("dialog", { name: "Get Service Now" });
      await expect(request).toBeVisible();
      await check(page, "the service request modal's picker");
      await request.getByRole("button", { name: "Roofing", exact: true }).click();
      await expect(request.locator("form")).toBeVisible();
      await check(page, "the service request modal's form");
      await closeWithEscape(page, request);
    });

    test("a service page's legal modals and callback status sheet; the portal's application modal", async ({ page }, testInfo) => {
      // A clock the test moves: the form waits up to 2.5 s for a consent certificate.
      await page.clock.install();
      await page.goto("/hvac");
      await hydrate(page);
      await check(page, "/hvac once live");
      for (const title of ["Privacy Policy", "Terms of Service"]) {
        await page.locator("footer").getByRole("link", { name: title }).click();
        const legal = page.getByRole("dialog", { name: title, exact: true });
        await expect(legal).toBeVisible();
        await check(page, `the ${title} modal`);
        await closeWithEscape(page, legal);
      }
      await fillCallbackForm(page, { name: "Avery Lindqvist", phone: uniquePhone(testInfo).input });
      await callbackForm(page).submit.click();
      await page.clock.runFor(2_500);
      await expect(statusSheet(page)).toBeVisible();
      await check(page, "the callback status sheet");
      await closeWithEscape(page, statusSheet(page));

      await page.goto("/campaigns");
      await hydrate(page);
      await applyLink(page, live[0].campaign).click();
      const modal = application(page);
      await expect(modal).toBeVisible();
      await check(page, "the application modal");
      await modal.getByRole("button", { name: "Submit Application" }).click();
      await expect(modal.getByRole("alert")).toBeVisible();
      await check(page, "the application modal with its error");
      await closeWithEscape(page, modal);
    });
  });
}
