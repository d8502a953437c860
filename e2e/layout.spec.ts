import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { ACCOUNT_REQUESTS, accountDialog, chooseAccountType, registrationDialog } from "./support/accounts";
import { addForm, addStaff, signIn } from "./support/admin";
import { application, applyLink, availableCampaigns, cards, dashboard, live } from "./support/campaigns";
import {
  accountRequestId,
  chartEstimateShortfalls,
  consolePageRoutes,
  LONG_SOURCE,
  type SeededConsole,
  seedMonthOnce,
} from "./support/console";
import { BROKEN_URL, CONSOLE_DB, CONSOLE_URL } from "./support/env";
import { chooser, menuButton, nav, servicesMenu } from "./support/home";
import { hydrate } from "./support/hydrate";
import { layoutProblems, SCREENS } from "./support/layout";
import { callbackForm, fillCallbackForm, press, services, statusSheet, uniquePhone } from "./support/service";

// The layout gate: every public page, and every overlay, at every width from a small phone
// to a desktop (support/layout.ts: SCREENS). At each: the page does not scroll sideways,
// every visible control lies inside the window, and no box's content spills out of it
// sideways (support/layout.ts: layoutProblems). One page per width and test, reused for
// page after page and overlay after overlay, so that the whole gate takes a few minutes.
// Runs in its own project ("layout"), at the widths it sets itself.
//
// The staff console too: every screen of it (CONSOLE, below), signed in, over a month of
// seeded leads, so that the funnel's charts show the figures of a busy store.

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

/** What a console screen's addresses are made of: the seeded leads, and the records the test
 * makes at its width (an account request, a number on the do-not-call list). */
interface ConsoleRecords extends SeededConsole {
  submissionId: string;
}

/**
 * Every screen of the staff console, by the console's route (as its screen's `routes()` in
 * server/src/admin/ names it), with the addresses the gate looks at it on. A route the console adds fails "every
 * console screen is in the layout gate's table" until it has its line here. The screens
 * marked `signedOut` are looked at before signing in, the others after.
 */
const CONSOLE: ReadonlyArray<{ route: string; signedOut?: true; visit: (r: ConsoleRecords) => string[] }> = [
  { route: "/admin/login", signedOut: true, visit: () => ["/admin/login"] },
  { route: "/admin", visit: () => ["/admin", "/admin?days=90"] },
  // Not a screen: it answers with a redirect to /admin.
  { route: "/admin/", visit: () => [] },
  { route: "/admin/leads", visit: (r) => ["/admin/leads", `/admin/leads?phone=${encodeURIComponent(r.phone)}`] },
  { route: "/admin/leads/{id}", visit: (r) => r.leadIds.map((id) => `/admin/leads/${id}`) },
  { route: "/admin/account-requests", visit: () => ["/admin/account-requests"] },
  { route: "/admin/applications", visit: () => ["/admin/applications"] },
  { route: "/admin/submissions/{id}", visit: (r) => [`/admin/submissions/${r.submissionId}`] },
  { route: "/admin/data-requests", visit: (r) => ["/admin/data-requests", `/admin/data-requests?q=${encodeURIComponent(r.phone)}`] },
  { route: "/admin/suppressions", visit: () => ["/admin/suppressions"] },
  { route: "/admin/campaigns", visit: () => ["/admin/campaigns", "/admin/campaigns?edit=1"] },
  { route: "/admin/health", visit: () => ["/admin/health"] },
  { route: "/admin/audit", visit: () => ["/admin/audit"] },
];

test("every console screen is in the layout gate's table", () => {
  const routes = consolePageRoutes();
  expect(routes, "the router's routes were read").toEqual(expect.arrayContaining(["/admin", "/admin/login", "/admin/leads/{id}"]));
  expect(
    routes.filter((r) => !CONSOLE.some((s) => s.route === r)),
    "console routes the table lacks",
  ).toEqual([]);
  expect(
    CONSOLE.map((s) => s.route).filter((r) => !routes.includes(r)),
    "routes in the table the console no longer has",
  ).toEqual([]);
});

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
      // The pages around the forms: the apply page, and the thank-you pages, for a service,
      // a type, or none.
      for (const path of [
        `/campaigns/apply?campaign=${encodeURIComponent(live[0].campaign)}`,
        "/campaigns/applied",
        "/callback-requested?service=hvac",
        "/callback-requested",
        "/register/thanks?type=homeowner",
        "/register/thanks",
      ]) {
        await page.goto(path);
        await check(page, path);
      }
      // The answers to refused forms: each page again with its error.
      const refused = async (path: string, form: Locator, submit: Locator, what: string, change?: (form: Locator) => Promise<unknown>) => {
        await page.goto(path);
        await form.evaluate((f: HTMLFormElement) => (f.noValidate = true));
        await change?.(form);
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
      // The callback's answer when the post names a service the site does not have: the
      // message and the way home.
      await refused(
        "/hvac",
        callbackForm(page).form,
        callbackForm(page).submit,
        "the callback form's answer for an unknown service",
        async (form) =>
          form.evaluate((f: HTMLFormElement) =>
            f.querySelector<HTMLInputElement>('[name="serviceSlug"]')?.setAttribute("value", "no-such-service"),
          ),
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

    // On the console's own server: its month of leads stays out of the other tests' funnels.
    test.describe(() => {
      test.use({ baseURL: CONSOLE_URL });
      test("the staff console, signed in, over a month of leads", async ({ page }, testInfo) => {
        test.setTimeout(180_000);
        const seeded = await seedMonthOnce();
        // An account request, for the submission screen.
        const email = `layout-${screen.width}-${Date.now() % 1_000_000}@example.com`;
        const request = await page.request.post(ACCOUNT_REQUESTS, {
          headers: { Origin: CONSOLE_URL, Accept: "application/json" },
          form: {
            source: "request",
            accountType: "call-buyer",
            firstName: "Layout",
            lastName: `Width ${screen.width}`,
            email,
            phone: "+1 (814) 555-0177",
            companyName: "Gate Roofing LLC",
            businessType: "roofing",
            monthlyBudget: "2500-5000",
            serviceAreas: "Pittsburgh, Allegheny County and the South Hills",
          },
          maxRedirects: 0,
        });
        expect(request.status(), await request.text()).toBeLessThan(400);
        const records: ConsoleRecords = { ...seeded, submissionId: await accountRequestId(email) };
        const look = async (signedOut: boolean) => {
          for (const s of CONSOLE.filter((c) => Boolean(c.signedOut) === signedOut)) {
            for (const path of s.visit(records)) {
              const answer = await page.goto(path);
              expect(answer?.status(), path).toBe(200);
              await check(page, path);
            }
          }
        };

        await look(true);
        const staff = `layout-${screen.width}-${testInfo.repeatEachIndex}@ringready.example`;
        addStaff(staff, CONSOLE_DB);
        await signIn(page, staff);

        // The console's sections, as its navigation lists them: each is in the table.
        const sections = await page
          .getByRole("navigation", { name: "Console" })
          .getByRole("link")
          .evaluateAll((links) => links.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
        expect(sections.filter((p) => !CONSOLE.some((s) => s.route === p))).toEqual([]);

        // A number on the do-not-call list, so that its screen shows one.
        const number = uniquePhone(testInfo);
        await page.goto("/admin/suppressions");
        await addForm(page).getByLabel("Phone").fill(number.input);
        await addForm(page).getByLabel("Reason").fill("Asked not to be called again, on the phone");
        await press(page.getByRole("button", { name: "Add to the list" }));
        await expect(page).toHaveURL(/done=added/);
        await check(page, "/admin/suppressions?done=added");

        await look(false);

        // The funnel's charts: what they show, then every label they could show at this scale;
        // their figures, opened (each table scrolls inside its own box).
        await page.goto("/admin");
        await expect(page.getByRole("list", { name: "Leads per day by source: totals" })).toContainText(LONG_SOURCE);
        await expect(page.getByRole("img", { name: "Leads per day by service" }).locator("text")).toContainText(["0", "2,500", "5,000"]);
        expect.soft(await chartEstimateShortfalls(page), "the charts' estimates of their text").toEqual([]);
        for (const figures of await page.locator("summary", { hasText: "Figures per day" }).all()) await press(figures);
        await expect(page.getByRole("table", { name: "Leads per day by source" })).toBeVisible();
        await check(page, "/admin with its figures per day open");
      });
    });
  });
}
