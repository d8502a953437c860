import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Locator, Page, TestInfo } from "@playwright/test";
import type { Campaign } from "../../client/lib/types";
import { expect } from "../fixtures";
import { query } from "./db";
import { repoRoot } from "./env";
import { chooser, openChooser } from "./home";
import { press } from "./service";

// The affiliate screens (issue 10): the campaign catalogue, the mail draft the application
// opens, what the server stored, and the dialogs' locators.

export const campaigns: Campaign[] = JSON.parse(readFileSync(join(repoRoot, "catalogue", "campaigns.json"), "utf8")) as Campaign[];
export const live = campaigns.filter((c) => c.status === "LIVE");

export const dashboard = (page: Page): Locator => page.getByRole("dialog", { name: "Affiliate Dashboard" });
export const availableCampaigns = (page: Page): Locator => page.getByRole("dialog", { name: "Available Campaigns" });
export const application = (page: Page): Locator => page.getByRole("dialog", { name: "Campaign Application" });

/** Opens the dashboard from the chooser's 'Affiliate Partners'. */
export async function openDashboard(page: Page, testInfo: TestInfo): Promise<Locator> {
  const opener = await openChooser(page, testInfo);
  await press(chooser(page).getByRole("button", { name: /^Affiliate Partners/ }));
  await expect(dashboard(page)).toBeVisible();
  return opener;
}

/** Opens the dashboard, then its Available Campaigns modal, with the campaigns loaded. */
export async function openAvailableCampaigns(page: Page, testInfo: TestInfo): Promise<Locator> {
  await openDashboard(page, testInfo);
  await press(dashboard(page).getByRole("button", { name: "View Available Campaigns" }));
  const modal = availableCampaigns(page);
  await expect(modal).toBeVisible();
  await expect(cards(modal)).toHaveCount(live.length);
  return modal;
}

/** The campaign cards of the Available Campaigns modal. */
export const cards = (modal: Locator): Locator => modal.getByRole("list", { name: "Campaigns" }).getByRole("listitem");

/** The 'Apply Now' of one campaign (its accessible name carries the campaign's): a link on
 * /campaigns, a button in the dashboard's modal. */
export const applyLink = (page: Page, campaign: string): Locator => page.getByRole("link", { name: `Apply Now: ${campaign}`, exact: true });
export const applyButton = (modal: Locator, campaign: string): Locator =>
  modal.getByRole("button", { name: `Apply Now: ${campaign}`, exact: true });

/** Records the mail drafts the page opens instead of handing them to a mail program;
 * `fail` makes opening one throw (the application's exception path). */
export async function spyOnMailDrafts(page: Page, fail = false): Promise<void> {
  await page.addInitScript((fail: boolean) => {
    const w = window as unknown as { __mailDrafts: string[] };
    w.__mailDrafts = [];
    const click = HTMLAnchorElement.prototype.click;
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      if (!this.href.startsWith("mailto:")) return click.call(this);
      if (fail) throw new Error("no mail program");
      w.__mailDrafts.push(this.href);
    };
  }, fail);
}

export interface MailDraft {
  to: string;
  subject: string;
  body: string;
}

export async function mailDrafts(page: Page): Promise<MailDraft[]> {
  const hrefs = await page.evaluate(() => (window as unknown as { __mailDrafts: string[] }).__mailDrafts);
  return hrefs.map((href) => {
    const url = new URL(href);
    return {
      to: decodeURIComponent(url.pathname),
      subject: url.searchParams.get("subject") ?? "",
      body: url.searchParams.get("body") ?? "",
    };
  });
}

/** An e-mail address no other test uses. */
export function uniqueEmail(testInfo: TestInfo, n = 0): string {
  const tag = createHash("sha256").update(`${testInfo.testId}:${n}:${testInfo.retry}:${testInfo.project.name}`).digest("hex").slice(0, 12);
  return `affiliate-${tag}@leadflow.example`;
}

export interface StoredApplication {
  id: string;
  email: string;
  phone: string | null;
  page_url: string | null;
  data: string;
}

/** The applications stored for an e-mail address (lower case), oldest first. */
export function applicationsByEmail(dbPath: string, email: string): Promise<StoredApplication[]> {
  return query<StoredApplication>(
    dbPath,
    "SELECT id, email, phone, page_url, data FROM submissions WHERE kind = 'campaign_application' AND email = ? ORDER BY received_at_ms",
    [email.toLowerCase()],
  );
}

export interface Applicant {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  company: string;
  website?: string;
  experience: string;
  volume: string;
  info?: string;
}

/** The application form's controls, inside its dialog or on the apply page. */
export function applicationForm(scope: Locator | Page) {
  return {
    firstName: scope.getByRole("textbox", { name: "First Name", exact: true }),
    lastName: scope.getByRole("textbox", { name: "Last Name", exact: true }),
    email: scope.getByRole("textbox", { name: "Email", exact: true }),
    phone: scope.getByRole("textbox", { name: "Phone", exact: true }),
    company: scope.getByRole("textbox", { name: "Company Name", exact: true }),
    website: scope.getByRole("textbox", { name: "Website (optional)", exact: true }),
    experience: scope.getByRole("combobox", { name: "Experience Level", exact: true }),
    volume: scope.getByRole("combobox", { name: "Expected Monthly Volume", exact: true }),
    info: scope.getByRole("textbox", { name: "Additional Information (optional)", exact: true }),
    submit: scope.getByRole("button", { name: /^(Submit Application|Submitting\.\.\.)$/ }),
    cancel: scope.getByRole("button", { name: "Cancel", exact: true }),
    banner: scope.getByRole("alert"),
    selected: scope.getByRole("list", { name: "Selected campaigns" }).getByRole("listitem"),
    find: scope.getByRole("searchbox", { name: "Find a campaign to add" }),
    checkbox: (name: string) => scope.getByRole("checkbox", { name, exact: true }),
  };
}

export async function fillApplication(scope: Locator | Page, a: Applicant): Promise<void> {
  const f = applicationForm(scope);
  await f.firstName.fill(a.firstName);
  await f.lastName.fill(a.lastName);
  await f.email.fill(a.email);
  await f.phone.fill(a.phone);
  await f.company.fill(a.company);
  if (a.website !== undefined) await f.website.fill(a.website);
  await f.experience.selectOption({ label: a.experience });
  await f.volume.selectOption({ label: a.volume });
  if (a.info !== undefined) await f.info.fill(a.info);
}
