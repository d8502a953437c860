import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import {
  ACCOUNT_REQUESTS,
  accountDialog,
  captureMailDrafts,
  chooseAccountType,
  expectStoredRequest,
  INFO_EMAIL,
  mailDrafts,
  openAccountDialog,
  theMailDraft,
  uniqueEmail,
} from "./support/accounts";
import { ALL_RULES, axeViolations, describeViolations } from "./support/axe";
import { expectFocusTrapped } from "./support/dialog";
import { openHome } from "./support/home";
import { press } from "./support/service";

// The account dialog (docs/product.md, "Accounts"), opened by the phone header's
// 'Login' and the desktop navigation's 'Log in': the type choice, the Login and Sign Up tabs,
// the login attempts with the clock controlled (no network call), the thirteen sign-up rules
// in order, the mail draft, the copy our server keeps, the success panel after 1000 ms, and
// axe and focus at every step.

test.use({ timezoneId: "America/New_York" });

/** The home page with the clock installed (it runs until `pause`). */
async function openWithClock(page: Page): Promise<void> {
  await page.clock.install({ time: new Date("2025-03-05T14:00:00-05:00") });
  await openHome(page);
}

/** From here on, timers run only when the test says (after the dialog has loaded: React
 * needs running timers to show what it lazily loads). */
async function pause(page: Page): Promise<void> {
  await page.clock.pauseAt(new Date("2025-03-05T14:07:00-05:00"));
}

const banner = (dialog: Locator) => dialog.getByRole("alert");
const field = (dialog: Locator, label: string) => dialog.getByLabel(label, { exact: true });

test.describe("the dialog", { tag: "@one-width" }, () => {
  test("step 1 offers the three types, step 2 the tabs, headings and subtitles; Back and close", async ({ page }, testInfo) => {
    await openHome(page);
    const { dialog, opener } = await openAccountDialog(page, testInfo);
    await expect(dialog.getByRole("heading", { level: 2 })).toHaveText("Welcome to RingReady");
    for (const [title, text] of [
      ["Homeowners", "Get service for your home"],
      ["Contractors/Call Buyers", "Manage your call answering service"],
      ["Affiliate Partners", "View available campaigns & apply"],
    ]) {
      await expect(dialog.getByRole("button", { name: `${title} ${text}` })).toBeVisible();
    }
    for (const [title, label] of [
      ["Homeowners", "Homeowner"],
      ["Contractors/Call Buyers", "Contractor"],
      ["Affiliate Partners", "Affiliate"],
    ] as const) {
      await chooseAccountType(dialog, title);
      await expect(dialog.getByRole("heading", { level: 3 })).toHaveText("Login to Continue");
      await expect(dialog.getByText(`Access ${label} portal`, { exact: true })).toBeVisible();
      await expect(field(dialog, "Username")).toBeFocused();
      await press(dialog.getByRole("tab", { name: "Sign Up" }));
      await expect(dialog.getByRole("heading", { level: 3 })).toHaveText("Create Your Account");
      await expect(dialog.getByText(`Sign up for ${label} access`, { exact: true })).toBeVisible();
      await expect(dialog.getByRole("tabpanel")).toHaveAccessibleName("Sign Up");
      await press(dialog.getByRole("button", { name: "Back" }));
      await expect(dialog.getByRole("button", { name: new RegExp(`^${title.replace("/", "\\/")}`) })).toBeFocused();
    }
    // The password show/hide toggle.
    await chooseAccountType(dialog, "Homeowners");
    const password = field(dialog, "Password");
    await password.fill("hunter22");
    await expect(password).toHaveAttribute("type", "password");
    await press(dialog.getByRole("button", { name: "Show password" }));
    await expect(password).toHaveAttribute("type", "text");
    await expect(dialog.getByRole("button", { name: "Hide password" })).toHaveAttribute("aria-pressed", "true");
    await press(dialog.getByRole("button", { name: "Hide password" }));
    await expect(password).toHaveAttribute("type", "password");
    // Arrow keys move between the tabs.
    await dialog.getByRole("tab", { name: "Login" }).focus();
    await page.keyboard.press("ArrowRight");
    await expect(dialog.getByRole("tab", { name: "Sign Up" })).toBeFocused();
    await expect(dialog.getByRole("tab", { name: "Sign Up" })).toHaveAttribute("aria-selected", "true");
    await press(dialog.getByRole("button", { name: "Close", exact: true }));
    await expect(dialog).toHaveCount(0);
    await expect(opener).toBeFocused();
  });
});

test.describe("accessibility", () => {
  // axe is injected as a script, which the page's CSP would refuse.
  test.use({ bypassCSP: true });

  test("axe finds nothing and focus stays inside at every step", async ({ page }, testInfo) => {
    // Eight axe passes, each a full-page scan: slow on a busy two-core machine.
    test.setTimeout(120_000);
    await captureMailDrafts(page);
    await openHome(page);
    const { dialog, opener } = await openAccountDialog(page, testInfo);
    const check = async (state: string) => {
      await expectFocusTrapped(page, dialog);
      const { violations } = await axeViolations(page, ALL_RULES);
      expect(violations, `axe ${state}:\n${describeViolations(violations)}`).toEqual([]);
    };
    await check("at the type choice");
    await chooseAccountType(dialog, "Contractors/Call Buyers");
    await check("on the Login tab");
    await press(dialog.getByRole("button", { name: "Login", exact: true }));
    await expect(banner(dialog)).toHaveText("Username is required");
    await check("with a login error");
    await press(dialog.getByRole("tab", { name: "Sign Up" }));
    await check("on the Sign Up tab");
    await press(dialog.getByRole("button", { name: "Create Account" }));
    await expect(banner(dialog)).toHaveText("First name is required");
    await check("with a sign-up error");
    await signUp(dialog, "call-buyer", uniqueEmail(testInfo, "axe"));
    await expect(dialog.getByRole("heading", { name: "Registration Submitted!" })).toBeVisible();
    await check("on the success panel");
    await press(dialog.getByRole("button", { name: "Close", exact: true }).last());
    await expect(accountDialog(page)).toHaveCount(0);
    await expect(opener).toBeFocused();
  });
});

test.describe("login", { tag: "@one-width" }, () => {
  test("fails every attempt after 1000 ms, three at most, with no network call; closing resets the count", async ({ page }, testInfo) => {
    await openWithClock(page);
    const { dialog } = await openAccountDialog(page, testInfo);
    await chooseAccountType(dialog, "Homeowners");
    await pause(page);
    const requests: string[] = [];
    page.on("request", (r) => requests.push(r.url()));
    const username = field(dialog, "Username");
    const password = field(dialog, "Password");
    const submit = dialog.getByRole("button", { name: "Login", exact: true });
    const note = dialog.getByTestId("attempts-note");

    // The three rules, in the spec's order; none counts as an attempt.
    await press(submit);
    await expect(banner(dialog)).toHaveText("Username is required");
    await expect(username).toHaveAttribute("aria-invalid", "true");
    await username.fill("ab");
    await press(submit);
    await expect(banner(dialog)).toHaveText("Password is required");
    await password.fill("wrong-password");
    await press(submit);
    await expect(banner(dialog)).toHaveText("Username must be at least 3 characters long");
    await expect(note).toHaveCount(0);
    await username.fill("dana");

    for (const [attempt, message] of [
      [1, "Account not found. 2 attempt(s) remaining. Try signing up instead?"],
      [2, "Account not found. 1 attempt(s) remaining. Try signing up instead?"],
      [3, "Maximum login attempts exceeded. Please contact support."],
    ] as const) {
      await password.fill(`attempt-${attempt}`);
      await press(submit);
      const loading = dialog.getByRole("button", { name: "Logging in..." });
      await expect(loading).toBeDisabled();
      await expect(username).toBeDisabled();
      await page.clock.runFor(999);
      await expect(loading).toBeVisible();
      await page.clock.runFor(1);
      await expect(banner(dialog)).toHaveText(`Login Failed${message}`);
      await expect(dialog.getByText("Login Failed", { exact: true })).toBeVisible();
      await expect(note).toHaveText(`Attempts remaining: ${3 - attempt}`);
      await expect(password).toHaveValue("");
    }
    // After the third failure the form stays usable: the lock comes only with the next submit,
    // refused at once (no 'Logging in...', no attempt) with the spec's last message.
    await expect(username).toBeEnabled();
    await expect(password).toBeEnabled();
    await expect(submit).toBeEnabled();
    await expect(password).toBeFocused();
    await password.fill("attempt-4");
    await press(submit);
    await expect(banner(dialog)).toHaveText("Login FailedMaximum login attempts exceeded. Please try again later.");
    await expect(dialog.getByRole("button", { name: "Logging in..." })).toHaveCount(0);
    await expect(username).toBeDisabled();
    await expect(password).toBeDisabled();
    await expect(submit).toBeDisabled();
    await expect(note).toHaveText("Attempts remaining: 0");
    await expect(dialog.getByRole("tab", { name: "Sign Up" })).toBeFocused();
    expect(requests, "no network call").toEqual([]);

    // Switching tab or type resets fields and status, not the count: the form is usable
    // again, and a submit is refused and locks it again, before any rule is checked.
    await press(dialog.getByRole("tab", { name: "Sign Up" }));
    await press(dialog.getByRole("tab", { name: "Login" }));
    await expect(username).toHaveValue("");
    await expect(banner(dialog)).toHaveCount(0);
    await expect(submit).toBeEnabled();
    await expect(note).toHaveText("Attempts remaining: 0");
    await press(submit);
    await expect(banner(dialog)).toHaveText("Login FailedMaximum login attempts exceeded. Please try again later.");
    await expect(submit).toBeDisabled();
    await press(dialog.getByRole("button", { name: "Back" }));
    await chooseAccountType(dialog, "Affiliate Partners");
    await expect(submit).toBeEnabled();
    await expect(note).toHaveText("Attempts remaining: 0");

    // Closing resets everything, the count included.
    await page.keyboard.press("Escape");
    await expect(dialog).toHaveCount(0);
    await page.clock.resume();
    await openAccountDialog(page, testInfo);
    await chooseAccountType(dialog, "Affiliate Partners");
    await expect(username).toBeEnabled();
    await expect(note).toHaveCount(0);
    await expect(banner(dialog)).toHaveCount(0);
  });

  test("switching tab or type clears what was typed and the message", async ({ page }, testInfo) => {
    await openHome(page);
    const { dialog } = await openAccountDialog(page, testInfo);
    await chooseAccountType(dialog, "Contractors/Call Buyers");
    await field(dialog, "Username").fill("lu");
    await press(dialog.getByRole("button", { name: "Login", exact: true }));
    await expect(banner(dialog)).toHaveText("Password is required");
    await press(dialog.getByRole("tab", { name: "Sign Up" }));
    await field(dialog, "First Name").fill("Luis");
    await press(dialog.getByRole("tab", { name: "Login" }));
    await expect(field(dialog, "Username")).toHaveValue("");
    await expect(banner(dialog)).toHaveCount(0);
    await press(dialog.getByRole("tab", { name: "Sign Up" }));
    await expect(field(dialog, "First Name")).toHaveValue("");
  });
});

type SignupType = "homeowner" | "call-buyer" | "affiliate";
const TITLES = { homeowner: "Homeowners", "call-buyer": "Contractors/Call Buyers", affiliate: "Affiliate Partners" } as const;
const PASSWORD = "correct-horse-7";

/** Fills the Sign Up tab with valid values for the type and submits. */
async function signUp(dialog: Locator, type: SignupType, email: string): Promise<void> {
  await field(dialog, "First Name").fill("Luis");
  await field(dialog, "Last Name").fill("Ortega");
  await field(dialog, "Email").fill(email);
  await field(dialog, "Username").fill("ortegaroof");
  await field(dialog, "Password").fill(PASSWORD);
  await field(dialog, "Confirm Password").fill(PASSWORD);
  if (type !== "homeowner") await field(dialog, "Company Name").fill("Ortega Roofing LLC");
  if (type === "affiliate") await field(dialog, "Website URL").fill("ortegaroofing.example");
  if (type === "homeowner") await field(dialog, "Address").fill("118 Maple Street, Erie, PA");
  if (type === "call-buyer") await field(dialog, "Service Areas").fill("Erie County, PA");
  await press(dialog.getByRole("button", { name: "Create Account" }));
}

test.describe("sign-up", { tag: "@one-width" }, () => {
  test("the thirteen rules in order, first failure shown", async ({ page }, testInfo) => {
    await captureMailDrafts(page);
    await openHome(page);
    const { dialog } = await openAccountDialog(page, testInfo);
    const steps: [SignupType, string, string, string][] = [
      // type, then the field typed into after the message, what is typed, and the message on submit
      ["call-buyer", "First Name", "Luis", "First name is required"],
      ["call-buyer", "Last Name", "Ortega", "Last name is required"],
      ["call-buyer", "Email", "luis@ortega", "Email is required"],
      ["call-buyer", "Email", "luis@ortegaroofing.example", "Please enter a valid email address"],
      ["call-buyer", "Username", "lo", "Username is required"],
      ["call-buyer", "Username", "luis", "Username must be at least 3 characters long"],
      ["call-buyer", "Password", "short", "Password is required"],
      ["call-buyer", "Password", PASSWORD, "Password must be at least 8 characters long"],
      ["call-buyer", "Confirm Password", PASSWORD, "Passwords do not match"],
      ["call-buyer", "Company Name", "Ortega Roofing LLC", "Company name is required"],
      ["call-buyer", "Service Areas", "Erie County, PA", "Service areas are required"],
    ];
    await chooseAccountType(dialog, "Contractors/Call Buyers", "Sign Up");
    const submit = dialog.getByRole("button", { name: "Create Account" });
    for (const [, label, value, message] of steps) {
      await press(submit);
      await expect(banner(dialog)).toHaveText(message);
      await field(dialog, label).fill(value);
    }
    // Rule 9 with a different confirmation, rule 11 for affiliates, rule 12 for homeowners.
    for (const [type, message] of [
      ["affiliate", "Website URL is required"],
      ["homeowner", "Address is required"],
    ] as const) {
      await press(dialog.getByRole("button", { name: "Back" }));
      await chooseAccountType(dialog, TITLES[type], "Sign Up");
      await signUpWithout(dialog, type === "affiliate" ? "Website URL" : "Address");
      await expect(banner(dialog)).toHaveText(message);
    }
    await field(dialog, "Confirm Password").fill(`${PASSWORD}x`);
    await field(dialog, "Address").fill("118 Maple Street");
    await press(dialog.getByRole("button", { name: "Create Account" }));
    await expect(banner(dialog)).toHaveText("Passwords do not match");
    await expect(field(dialog, "Confirm Password")).toBeFocused();
    expect(await mailDrafts(page)).toEqual([]);
  });

  for (const type of ["homeowner", "call-buyer", "affiliate"] as const) {
    test(`${type}: the mail draft, the copy our server keeps, success after 1000 ms`, async ({ page }, testInfo) => {
      await captureMailDrafts(page);
      await openWithClock(page);
      const { dialog } = await openAccountDialog(page, testInfo);
      await chooseAccountType(dialog, TITLES[type], "Sign Up");
      await pause(page);
      const email = uniqueEmail(testInfo, type);
      const posted = page.waitForResponse((r) => r.url().endsWith(ACCOUNT_REQUESTS));
      await signUp(dialog, type, email);
      await expect(dialog.getByRole("button", { name: "Submitting..." })).toBeDisabled();

      const label = { homeowner: "Homeowner", "call-buyer": "Contractor", affiliate: "Affiliate" }[type];
      const draft = await theMailDraft(page);
      expect(draft.to).toBe(INFO_EMAIL);
      expect(draft.subject).toBe(`New Account Registration - ${label} - Luis Ortega`);
      for (const line of [
        "First Name: Luis",
        "Last Name: Ortega",
        `Email: ${email}`,
        "Username: ortegaroof",
        "Registration Date: March 5, 2025 at 2:07 PM",
        `Account Type: ${label}`,
        "Source: Website Registration",
        "NEXT STEPS",
      ]) {
        expect(draft.body).toContain(line);
      }
      expect(draft.body).not.toContain(PASSWORD);

      const response = await posted;
      expect(response.status()).toBe(201);
      const sent = response.request().postDataJSON() as Record<string, string>;
      expect(sent).toMatchObject({ source: "signup", accountType: type, firstName: "Luis", email, hp_website: "" });
      expect(JSON.stringify(sent)).not.toContain(PASSWORD);
      const stored = await expectStoredRequest(email);
      expect(stored.data).toMatchObject({ source: "signup", accountType: type, username: "ortegaroof" });
      expect(stored.subject).toBe(draft.subject);

      await page.clock.runFor(999);
      await expect(dialog.getByRole("heading", { name: "Registration Submitted!" })).toHaveCount(0);
      await page.clock.runFor(1);
      await expect(dialog.getByRole("heading", { name: "Registration Submitted!" })).toBeVisible();
      await expect(dialog.getByText("Your account request has been sent to our team.", { exact: true })).toBeVisible();
      await expect(
        dialog.getByText("We'll create your account and send login credentials within 24 hours.", { exact: true }),
      ).toBeVisible();
      await press(dialog.getByRole("button", { name: "Close", exact: true }).last());
      await expect(dialog).toHaveCount(0);
    });
  }

  test("when our server refuses the copy, the visitor still gets the draft and the success panel", async ({
    page,
    consoleProblems,
  }, testInfo) => {
    consoleProblems.allow(/Failed to load resource/);
    await captureMailDrafts(page);
    await page.route(`**${ACCOUNT_REQUESTS}`, (route) =>
      route.fulfill({
        status: 503,
        contentType: "application/json",
        body: '{"error":"We could not save your request just now. Please try again or call us."}',
      }),
    );
    await openWithClock(page);
    const { dialog } = await openAccountDialog(page, testInfo);
    await chooseAccountType(dialog, "Homeowners", "Sign Up");
    await pause(page);
    const refused = page.waitForResponse((r) => r.url().endsWith(ACCOUNT_REQUESTS));
    await signUp(dialog, "homeowner", uniqueEmail(testInfo, "refused"));
    expect((await refused).status()).toBe(503);
    await page.clock.runFor(1000);
    await expect(dialog.getByRole("heading", { name: "Registration Submitted!" })).toBeVisible();
    await expect(banner(dialog)).toHaveCount(0);
    expect((await theMailDraft(page)).subject).toBe("New Account Registration - Homeowner - Luis Ortega");
  });

  test("an exception shows the 'Registration Error' banner and keeps the form", async ({ page }, testInfo) => {
    await captureMailDrafts(page, { fail: true });
    await openHome(page);
    const { dialog } = await openAccountDialog(page, testInfo);
    await chooseAccountType(dialog, "Affiliate Partners", "Sign Up");
    await signUp(dialog, "affiliate", uniqueEmail(testInfo, "error"));
    await expect(banner(dialog)).toHaveText("Registration ErrorAn error occurred during registration. Please try again.");
    await expect(field(dialog, "First Name")).toHaveValue("Luis");
    await expect(dialog.getByRole("button", { name: "Create Account" })).toBeEnabled();
  });
});

/** Fills every sign-up field but one, then submits. */
async function signUpWithout(dialog: Locator, missing: string): Promise<void> {
  for (const [label, value] of [
    ["First Name", "Luis"],
    ["Last Name", "Ortega"],
    ["Email", "luis@ortegaroofing.example"],
    ["Username", "luis"],
    ["Password", PASSWORD],
    ["Confirm Password", PASSWORD],
  ]) {
    await field(dialog, label).fill(value);
  }
  for (const label of ["Company Name", "Website URL", "Address", "Service Areas"]) {
    if (label !== missing && (await field(dialog, label).count())) await field(dialog, label).fill("Ortega Roofing LLC");
  }
  await press(dialog.getByRole("button", { name: "Create Account" }));
}
