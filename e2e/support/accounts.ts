import type { Locator, Page, TestInfo } from "@playwright/test";
import { expect } from "../fixtures";
import { query } from "./db";
import { MAIN_DB } from "./env";

import { isPhoneProject, press } from "./service";

// The account dialog, the registration modal and the /register form: their mail drafts,
// the copies the server keeps, and the controls that open them.

export const INFO_EMAIL = "info@ringready.example";
export const ACCOUNT_REQUESTS = "/api/account-requests";

/** Mail drafts open through a click on a mailto: link (client/lib/mailDraft.ts). This
 * records each one instead of handing it to a mail program the test machine lacks; with
 * `fail`, opening one throws, as a browser that refuses would. */
export async function captureMailDrafts(page: Page, { fail = false } = {}): Promise<void> {
  await page.addInitScript((fail) => {
    const drafts: string[] = [];
    (window as unknown as { __mailDrafts: string[] }).__mailDrafts = drafts;
    const click = HTMLAnchorElement.prototype.click;
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      if (!this.href.startsWith("mailto:")) return click.call(this);
      if (fail) throw new Error("no mail program");
      drafts.push(this.href);
    };
  }, fail);
}

export interface MailDraft {
  to: string;
  subject: string;
  body: string;
}

export async function mailDrafts(page: Page): Promise<MailDraft[]> {
  const urls = await page.evaluate(() => (window as unknown as { __mailDrafts?: string[] }).__mailDrafts ?? []);
  return urls.map((url) => {
    const [to, query] = url.slice("mailto:".length).split("?");
    const params = Object.fromEntries(query.split("&").map((p) => [p.split("=")[0], decodeURIComponent(p.split("=")[1] ?? "")]));
    return { to, subject: params.subject ?? "", body: (params.body ?? "").replace(/\r\n/g, "\n") };
  });
}

/** The one draft opened so far. */
export async function theMailDraft(page: Page): Promise<MailDraft> {
  await expect.poll(async () => (await mailDrafts(page)).length, { message: "one mail draft opened" }).toBe(1);
  return (await mailDrafts(page))[0];
}

export interface StoredRequest {
  id: string;
  email: string;
  phone: string | null;
  data: Record<string, string>;
  subject: string | null;
}

/** The account requests the main server stored for an address, with their e-mail's subject. */
export async function storedRequests(email: string): Promise<StoredRequest[]> {
  const rows = await query<{ id: string; email: string; phone: string | null; data: string; subject: string | null }>(
    MAIN_DB,
    `SELECT s.id, s.email, s.phone, s.data, m.subject FROM submissions s LEFT JOIN mail_outbox m ON m.submission_id = s.id
      WHERE s.kind = 'account_request' AND s.email = ? ORDER BY s.received_at_ms`,
    [email.toLowerCase()],
  );
  return rows.map((r) => ({ ...r, data: JSON.parse(r.data) as Record<string, string> }));
}

export async function expectStoredRequest(email: string): Promise<StoredRequest> {
  await expect.poll(async () => (await storedRequests(email)).length, { message: `one account request stored for ${email}` }).toBe(1);
  return (await storedRequests(email))[0];
}

/** An address of its own for each test, project and step (a repeat within 10 minutes is one request). */
export function uniqueEmail(testInfo: TestInfo, label: string): string {
  const slug = `${testInfo.project.name}-${testInfo.title}-${label}`
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, 60);
  return `${slug}-${Date.now() % 1_000_000}@example.com`;
}

/** 'Login' in the phone header, 'Log in' in the desktop header's claims banner. */
export function accountOpener(page: Page, testInfo: TestInfo): Locator {
  return page.locator("header").getByRole("link", { name: isPhoneProject(testInfo) ? "Login" : "Log in", exact: true });
}

export const accountDialog = (page: Page, brand = "RingReady"): Locator => page.getByRole("dialog", { name: `Welcome to ${brand}` });

export async function openAccountDialog(page: Page, testInfo: TestInfo): Promise<{ dialog: Locator; opener: Locator }> {
  const opener = accountOpener(page, testInfo);
  await press(opener);
  const dialog = accountDialog(page);
  await expect(dialog).toBeVisible();
  return { dialog, opener };
}

/** Step 1 of the account dialog: the type, then the tab. */
export async function chooseAccountType(
  dialog: Locator,
  title: "Homeowners" | "Contractors/Call Buyers" | "Affiliate Partners",
  tab: "Login" | "Sign Up" = "Login",
): Promise<void> {
  await press(dialog.getByRole("button", { name: new RegExp(`^${title.replace("/", "\\/")}`) }));
  await expect(dialog.getByRole("tab", { name: "Login" })).toBeVisible();
  if (tab === "Sign Up") await press(dialog.getByRole("tab", { name: "Sign Up" }));
  await expect(dialog.getByRole("tab", { name: tab })).toHaveAttribute("aria-selected", "true");
}

export const registrationDialog = (page: Page): Locator => page.getByRole("dialog", { name: "Get Started" });

/** 'Get Started Today' in the hero, or the closing call to action's 'Request Your Account'. */
export function registrationOpener(page: Page, where: "hero" | "closing"): Locator {
  return where === "hero"
    ? page.getByRole("link", { name: "Get Started Today", exact: true })
    : page.locator("#contact").getByRole("link", { name: "Request Your Account", exact: true });
}

export async function openRegistration(page: Page, where: "hero" | "closing" = "hero"): Promise<{ dialog: Locator; opener: Locator }> {
  const opener = registrationOpener(page, where);
  await press(opener);
  const dialog = registrationDialog(page);
  await expect(dialog).toBeVisible();
  return { dialog, opener };
}

export type RegistrationType = "Homeowner" | "Contractors & Call Buyers" | "Affiliate Partners";

/** A complete, valid set of registration values for each type, by field label. */
export function registrationValues(type: RegistrationType, email: string): Record<string, string> {
  const common = { "First Name": "Dana", "Last Name": "Whitfield", "Email Address": email, "Phone Number": "(412) 555-0134" };
  switch (type) {
    case "Homeowner":
      return {
        ...common,
        "Property Address": "118 Maple Street, Erie, PA 16501",
        "Property Type": "condo",
        "Service Needs": "Roof leak over the kitchen",
      };
    case "Contractors & Call Buyers":
      return {
        ...common,
        "Company Name": "Whitfield Roofing",
        "Business Type": "roofing",
        "Monthly Budget": "2500-5000",
        "Service Areas": "Erie County, PA",
      };
    case "Affiliate Partners":
      return {
        ...common,
        "Company Name": "Whitfield Media",
        Website: "https://whitfield.example",
        "Traffic Sources": "Search ads",
        "Monthly Volume": "100-500",
      };
  }
}

/** Fills a registration form by label: selects by option value, the rest by typing. */
export async function fillByLabel(scope: Locator, values: Record<string, string>): Promise<void> {
  for (const [label, value] of Object.entries(values)) {
    const control = scope.getByLabel(label, { exact: true });
    if ((await control.evaluate((el) => el.tagName)) === "SELECT") await control.selectOption(value);
    else await control.fill(value);
  }
}
