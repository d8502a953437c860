import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import {
  ACCOUNT_REQUESTS,
  accountOpener,
  captureMailDrafts,
  expectStoredRequest,
  fillByLabel,
  INFO_EMAIL,
  theMailDraft,
  uniqueEmail,
} from "./support/accounts";
import { ALL_RULES, axeViolations, describeViolations } from "./support/axe";
import { lineCount } from "./support/layout";
import { waitForLeadMail } from "./support/leads";
import { expectHydrated, press } from "./support/service";

// The registration request form at /register (the spec's second version; issue 9): without
// JavaScript (links, a plain form post answered with the first error in place, the thank-you
// page, the stored request and its e-mail), and with it (the same rules in the browser, in
// the spec's order, the mail draft, the copy our server keeps, then the same thank-you page).

const main = (page: Page) => page.locator("main");
const alert = (page: Page) => main(page).getByRole("alert");
const submit = (page: Page) => main(page).getByRole("button", { name: "Complete Registration" });
const control = (page: Page, label: string) => main(page).getByLabel(label, { exact: true });

/** Values that pass, by label, for the contractor form. */
function contractor(email: string): Record<string, string> {
  return {
    "First Name": "Luis",
    "Last Name": "Ortega",
    "Email Address": email,
    "Phone Number": "+1 (814) 555-0177",
    "Company Name": "Ortega Roofing LLC",
    "Business Type": "roofing",
    "Monthly Budget": "2500-5000",
    "Service Areas": "Erie County, PA",
  };
}

test(
  "without JavaScript: every registration button leads here, the form posts, errors show in place, then the thank-you page",
  { tag: "@one-width" },
  async ({ newContext, consoleProblems }, testInfo) => {
    // The server answers a broken rule with the page and status 400, which Chromium logs.
    consoleProblems.allow(/status of 400/);
    const context = await newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/");
    for (const link of [
      page.getByRole("link", { name: "Get Started Today" }),
      page.locator("#contact").getByRole("link", { name: "Request Your Account" }),
      accountOpener(page, testInfo),
    ]) {
      await expect(link).toHaveAttribute("href", "/register");
    }
    await press(page.getByRole("link", { name: "Get Started Today" }));
    await page.waitForURL("**/register");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Request an Account");
    await press(main(page).getByRole("link", { name: /^Contractors & Call Buyers/ }));
    await page.waitForURL("**/register/contractor");
    const form = main(page).locator("form");
    await expect(form).toHaveAttribute("method", "post");
    await expect(form).toHaveAttribute("action", ACCOUNT_REQUESTS);

    // An empty form: the server's answer is the page again, the first rule's message in place.
    await press(submit(page));
    await page.waitForURL(`**${ACCOUNT_REQUESTS}`);
    await expect(alert(page)).toHaveText("First name is required");
    await expect(control(page, "First Name")).toHaveAttribute("aria-invalid", "true");
    const email = uniqueEmail(testInfo, "nojs");
    await fillByLabel(main(page), { ...contractor(email), "Email Address": "luis@ortega", "Phone Number": "" });
    await press(submit(page));
    await expect(alert(page)).toHaveText("Please enter a valid email address");
    await expect(control(page, "Company Name")).toHaveValue("Ortega Roofing LLC");
    await expect(control(page, "Business Type")).toHaveValue("roofing");
    await control(page, "Email Address").fill(email);
    await control(page, "Phone Number").fill("0814 555 0177");
    await press(submit(page));
    await expect(alert(page)).toHaveText("Please enter a valid phone number");
    await expect(control(page, "Phone Number")).toHaveAttribute("aria-invalid", "true");
    await control(page, "Phone Number").fill("+1 (814) 555-0177");
    await press(submit(page));

    await page.waitForURL("**/register/thanks?type=contractor");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Registration Submitted!");
    await expect(page.getByText("We'll create your account and send login credentials within 24 hours.")).toBeVisible();
    const stored = await expectStoredRequest(email);
    expect(stored.data).toMatchObject({
      source: "request",
      accountType: "call-buyer",
      companyName: "Ortega Roofing LLC",
      businessType: "roofing",
    });
    expect(stored.phone).toBe("+18145550177");
    const mail = await waitForLeadMail(stored.id);
    expect(mail.subject).toBe("New Contractor Registration - Luis Ortega");
    expect(mail.text).toContain("Company name: Ortega Roofing LLC");
    expect(mail.text).toContain("the registration request form (/register)");
  },
);

test("the choice and the forms are one page: links, Back and the browser's history move between them", { tag: "@one-width" }, async ({
  page,
}) => {
  await page.goto("/register");
  await expectHydrated(page);
  await page.evaluate(() => ((window as unknown as { __same: boolean }).__same = true));
  await press(main(page).getByRole("link", { name: /^Affiliate Partners/ }));
  await expect(main(page).getByRole("heading", { name: "Affiliate Partners Registration" })).toBeVisible();
  await expect(page).toHaveURL(/\/register\/affiliate$/);
  await expect(control(page, "First Name")).toBeFocused();
  await press(main(page).getByRole("link", { name: "Back" }));
  await expect(page).toHaveURL(/\/register$/);
  await expect(main(page).getByRole("link", { name: /^Affiliate Partners/ })).toBeFocused();
  await page.goBack();
  await expect(main(page).getByRole("heading", { name: "Affiliate Partners Registration" })).toBeVisible();
  await page.goBack();
  await expect(main(page).getByRole("heading", { name: "Choose your account type" })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __same?: boolean }).__same)).toBe(true);
});

/** Submits, checks the message, then types what the next step needs. */
async function steps(page: Page, sequence: [message: string, label: string, value: string][]): Promise<void> {
  for (const [message, label, value] of sequence) {
    await press(submit(page));
    await expect(alert(page)).toHaveText(message);
    await expect(control(page, label)).toHaveAttribute("aria-invalid", "true");
    await expect(control(page, label)).toBeFocused();
    const field = control(page, label);
    if ((await field.evaluate((el) => el.tagName)) === "SELECT") await field.selectOption(value);
    else await field.fill(value);
  }
}

const COMMON: [string, string, string][] = [
  ["First name is required", "First Name", "Dana"],
  ["Last name is required", "Last Name", "Whitfield"],
  ["Email is required", "Email Address", "dana@example"],
  ["Please enter a valid email address", "Email Address", "dana@example.com"],
  ["Phone number is required", "Phone Number", "0412 555 0134"],
  ["Please enter a valid phone number", "Phone Number", "+44 20 7946 0958"],
];

test("the 'What happens next' box's phone number never breaks; a tall window has no band under the footer", async ({ page }) => {
  await page.goto("/register");
  const call = page.getByRole("complementary", { name: "What happens next" }).getByRole("link", { name: /^Call / });
  for (const width of [320, 360, 390, 1024, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    expect(await lineCount(call), `${width} px: '${await call.textContent()}' on one line`).toBe(1);
  }
  for (const [width, height] of [
    [1280, 900],
    [1440, 1200],
    [768, 1100],
  ]) {
    await page.setViewportSize({ width, height });
    const footerBottom = await page.locator("footer").evaluate((f) => f.getBoundingClientRect().bottom + window.scrollY);
    const pageHeight = await page.evaluate(() => document.documentElement.scrollHeight);
    expect(pageHeight, `${width} × ${height}: the page fills the window`).toBeGreaterThanOrEqual(height);
    expect(Math.abs(footerBottom - pageHeight), `${width} × ${height}: the footer ends the page, with no band under it`).toBeLessThan(1);
  }
});

test.describe("with JavaScript", { tag: "@one-width" }, () => {
  test("each type's rules in the spec's order, first failure shown, nothing sent", async ({ page }) => {
    const posts: string[] = [];
    page.on("request", (r) => {
      if (r.method() === "POST") posts.push(r.url());
    });
    await page.goto("/register/homeowner");
    await expectHydrated(page);
    await steps(page, [
      ...COMMON,
      ["Address is required", "Property Address", "118 Maple Street"],
      ["Property type is required", "Property Type", "condo"],
      ["Service needs are required", "Service Needs", "Gutter repair"],
    ]);
    await page.goto("/register/contractor");
    await expectHydrated(page);
    await fillByLabel(main(page), {
      "First Name": "Dana",
      "Last Name": "Whitfield",
      "Email Address": "dana@example.com",
      "Phone Number": "4125550134",
    });
    await steps(page, [
      ["Company name is required", "Company Name", "Whitfield Roofing"],
      ["Business type is required", "Business Type", "roofing"],
      ["Monthly budget is required", "Monthly Budget", "1000-2500"],
      ["Service areas are required", "Service Areas", "Erie"],
    ]);
    await page.goto("/register/affiliate");
    await expectHydrated(page);
    await fillByLabel(main(page), {
      "First Name": "Dana",
      "Last Name": "Whitfield",
      "Email Address": "dana@example.com",
      "Phone Number": "4125550134",
    });
    await steps(page, [
      ["Company name is required", "Company Name", "Whitfield Media"],
      ["Website URL is required", "Website", "whitfield.example"],
      ["Traffic sources are required", "Traffic Sources", "SEO"],
      ["Monthly volume is required", "Monthly Volume", "1-50"],
    ]);
    expect(posts).toEqual([]);
  });

  test("the mail draft, the copy our server keeps, and after 1000 ms the thank-you page", async ({ page }, testInfo) => {
    await captureMailDrafts(page);
    await page.clock.install({ time: new Date("2025-03-05T14:00:00-05:00") });
    await page.goto("/register/contractor");
    await expectHydrated(page);
    await page.clock.pauseAt(new Date("2025-03-05T14:07:00-05:00"));
    const email = uniqueEmail(testInfo, "js");
    await fillByLabel(main(page), contractor(email));
    const posted = page.waitForResponse((r) => r.url().endsWith(ACCOUNT_REQUESTS));
    await press(submit(page));
    const busy = main(page).getByRole("button", { name: "Submitting..." });
    await expect(busy).toBeDisabled();
    await expect(control(page, "First Name")).toBeDisabled();
    const draft = await theMailDraft(page);
    expect(draft).toMatchObject({ to: INFO_EMAIL, subject: "New Contractor Registration - Luis Ortega" });
    expect(draft.body).toContain("Monthly Budget: $2,500 - $5,000");
    expect((await posted).status()).toBe(201);
    const stored = await expectStoredRequest(email);
    expect(stored.data).toMatchObject({ source: "request", accountType: "call-buyer" });
    await page.clock.runFor(999);
    await expect(busy).toBeVisible();
    await page.clock.runFor(1);
    await page.waitForURL("**/register/thanks?type=contractor");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Registration Submitted!");
  });

  test("when our server refuses the copy, the visitor still lands on the thank-you page", async ({ page, consoleProblems }, testInfo) => {
    consoleProblems.allow(/Failed to load resource/);
    await captureMailDrafts(page);
    await page.route(`**${ACCOUNT_REQUESTS}`, (route) =>
      route.fulfill({
        status: 429,
        contentType: "application/json",
        body: '{"error":"Too many requests from your connection. Please wait a minute and try again."}',
      }),
    );
    await page.goto("/register/contractor");
    await expectHydrated(page);
    await fillByLabel(main(page), contractor(uniqueEmail(testInfo, "refused")));
    await press(submit(page));
    expect((await theMailDraft(page)).subject).toBe("New Contractor Registration - Luis Ortega");
    await page.waitForURL("**/register/thanks?type=contractor");
  });

  test("an exception shows the 'Registration Error' banner and keeps the form", async ({ page }, testInfo) => {
    await captureMailDrafts(page, { fail: true });
    await page.goto("/register/contractor");
    await expectHydrated(page);
    await fillByLabel(main(page), contractor(uniqueEmail(testInfo, "error")));
    await press(submit(page));
    await expect(alert(page)).toHaveText("Registration ErrorAn error occurred while submitting your registration. Please try again.");
    await expect(submit(page)).toBeEnabled();
    await expect(page).toHaveURL(/\/register\/contractor$/);
  });
});

test.describe("accessibility", () => {
  test.use({ bypassCSP: true });

  async function expectNoViolations(page: Page, state: string): Promise<void> {
    const { violations } = await axeViolations(page, ALL_RULES);
    expect(violations, `axe ${state}:\n${describeViolations(violations)}`).toEqual([]);
  }

  test("axe finds nothing on the choice, each form, an error, the server's own answer and the thank-you page", async ({ page }) => {
    await page.goto("/register");
    await expectHydrated(page);
    await expectNoViolations(page, "on the choice");
    for (const slug of ["homeowner", "contractor", "affiliate"]) {
      await page.goto(`/register/${slug}`);
      await expectHydrated(page);
      await expectNoViolations(page, `on /register/${slug}`);
    }
    await press(submit(page));
    await expect(alert(page)).toHaveText("First name is required");
    await expectNoViolations(page, "with an error");

    // The server's answer to a form post, served as the page: it hydrates with the visitor's
    // values and error (a mismatch would fail the test) and passes axe.
    const answer = await page.request.post(ACCOUNT_REQUESTS, {
      form: { source: "request", accountType: "affiliate", firstName: "Dana", lastName: "", email: "dana@example.com" },
    });
    expect(answer.status()).toBe(400);
    const html = await answer.text();
    await page.route("**/register/affiliate", (route) =>
      route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: html }),
    );
    await page.goto("/register/affiliate");
    await expectHydrated(page);
    await expect(alert(page)).toHaveText("Last name is required");
    await expect(control(page, "First Name")).toHaveValue("Dana");
    await expect(control(page, "Last Name")).toHaveAttribute("aria-invalid", "true");
    await expectNoViolations(page, "on the server's error answer");
    await steps(page, [["Last name is required", "Last Name", "Whitfield"]]);

    await page.goto("/register/thanks?type=affiliate");
    await expectNoViolations(page, "on the thank-you page");
  });
});
