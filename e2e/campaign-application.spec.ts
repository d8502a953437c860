import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { axeViolations, describeViolations } from "./support/axe";
import {
  type Applicant,
  application,
  applicationForm,
  applicationsByEmail,
  applyLink,
  fillApplication,
  live,
  mailDrafts,
  spyOnMailDrafts,
  uniqueEmail,
} from "./support/campaigns";
import { MAILDIR, MAIN_DB } from "./support/env";
import { EMAIL, SUPPORT } from "./support/home";
import { readMaildir } from "./support/mail";
import { expectHydrated, press } from "./support/service";

// The campaign application on /campaigns (docs/product.md, "The campaign application"): 'Apply
// Now' on every card with its campaign chosen, the nine rules in order in the 'Application
// Error' banner, the mail draft, 'Submitting...' then the success panel, Cancel and Close
// resetting everything, the exception path, and the post that reaches staff whatever the
// visitor's mail program does.

const SOLAR = "Solar Transfers - Utility Bill $150+";
const ROOFING = "Roofing Inbound Calls";

function applicant(email: string): Applicant {
  return {
    firstName: "Jane",
    lastName: "Okafor",
    email,
    phone: "(412) 555-0188",
    company: "LeadFlow Media",
    experience: "Intermediate (6 months - 2 years)",
    volume: "500-1000 leads",
  };
}

async function openApplication(page: Page, campaign: string) {
  await press(applyLink(page, campaign));
  const dialog = application(page);
  await expect(dialog).toBeVisible();
  return { dialog, f: applicationForm(dialog) };
}

async function openPortal(page: Page): Promise<void> {
  await page.goto("/campaigns");
  await expectHydrated(page);
}

test("/campaigns: 'No account required' heads the page, every card has 'Apply Now', the contact footer has e-mail and phone", {
  tag: "@one-width",
}, async ({ page }) => {
  await openPortal(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("No account required");
  const links = page.locator("main").getByRole("link", { name: /^Apply Now: / });
  await expect(links).toHaveCount(live.length);
  // Before the page is live (and without JavaScript) each one is a link to the apply page.
  await expect(applyLink(page, SOLAR)).toHaveAttribute(
    "href",
    "/campaigns/apply?campaign=Solar%20Transfers%20-%20Utility%20Bill%20%24150%2B",
  );
  const contact = page.getByRole("region", { name: "Questions about a campaign?" });
  await expect(contact.getByRole("link", { name: EMAIL })).toHaveAttribute("href", `mailto:${EMAIL}`);
  await expect(contact.getByRole("link", { name: SUPPORT.display })).toHaveAttribute("href", SUPPORT.tel);
  await expect(page.locator("footer").last()).toContainText("Professional call answering service for contractors and small businesses.");
});

test("'Apply Now' opens the application with its campaign chosen, and the picker searches the live campaigns", {
  tag: "@one-width",
}, async ({ page }) => {
  await openPortal(page);
  const { dialog, f } = await openApplication(page, SOLAR);
  await expect(f.selected).toHaveText([`${SOLAR}×`]);
  await expect(dialog.getByRole("checkbox", { checked: true })).toHaveCount(1);
  await expect(dialog.getByRole("list", { name: "Live campaigns" }).getByRole("checkbox")).toHaveCount(live.length);
  await expect(f.experience.locator("option")).toHaveText([
    "Select your experience",
    "Beginner (0-6 months)",
    "Intermediate (6 months - 2 years)",
    "Experienced (2+ years)",
    "Expert (5+ years)",
  ]);
  await expect(f.volume.locator("option")).toHaveText([
    "Select monthly volume",
    "1-50 leads",
    "50-100 leads",
    "100-500 leads",
    "500-1000 leads",
    "1000+ leads",
  ]);

  await f.find.fill("roofing");
  const roofing = live.filter((c) => c.campaign.toLowerCase().includes("roofing"));
  await expect(dialog.getByRole("list", { name: "Live campaigns" }).getByRole("checkbox")).toHaveCount(roofing.length);
  await press(f.checkbox(ROOFING));
  await expect(f.selected).toHaveText([`${ROOFING}×`, `${SOLAR}×`]);
  await f.find.fill("nothing like this");
  await expect(dialog.getByText("No campaign matches “nothing like this”.")).toBeVisible();
  await press(dialog.getByRole("button", { name: `Remove ${SOLAR}` }));
  await expect(f.selected).toHaveText([`${ROOFING}×`]);
});

test("the nine rules, in order, in the 'Application Error' banner", { tag: "@one-width" }, async ({ page }) => {
  await spyOnMailDrafts(page);
  await openPortal(page);
  const { dialog, f } = await openApplication(page, ROOFING);
  const expectError = async (message: string) => {
    await press(f.submit);
    await expect(f.banner).toHaveText(`Application Error${message}`);
    await expect(f.banner.getByText("Application Error", { exact: true })).toBeVisible();
  };
  await press(dialog.getByRole("button", { name: `Remove ${ROOFING}` }));
  await expectError("First name is required");
  await f.firstName.fill("  ");
  await expectError("First name is required");
  await f.firstName.fill("Jane");
  await expectError("Last name is required");
  await f.lastName.fill("Okafor");
  await expectError("Email is required");
  await f.email.fill("jane at leadflow");
  await expectError("Please enter a valid email address");
  await f.email.fill("jane@leadflow.example");
  await expectError("Phone number is required");
  await f.phone.fill("412 555 0188");
  await expectError("Company name is required");
  await f.company.fill("LeadFlow Media");
  // The website is optional and has no rule among the nine: one that is not a website is
  // answered only once they all pass.
  await f.website.fill("my site");
  await expectError("Please select your experience level");
  await f.experience.selectOption({ label: "Expert (5+ years)" });
  await expectError("Please select your expected monthly volume");
  await f.volume.selectOption({ label: "1-50 leads" });
  await expectError("Please select at least one campaign");
  await press(f.checkbox(ROOFING));
  await expectError("Please enter a valid website address, such as https://example.com");
  expect(await mailDrafts(page), "no draft while a rule fails").toEqual([]);
  await expect(f.firstName).toHaveValue("Jane");
});

test(
  "a valid application: the mail draft, 'Submitting...' with the inputs disabled, the success panel after 1000 ms, and the application stored and e-mailed",
  { tag: "@one-width" },
  async ({ page }, testInfo) => {
    await spyOnMailDrafts(page);
    // A fake clock that, once the page is live, only runFor moves (see status-sheet.spec.ts).
    await page.clock.install();
    await openPortal(page);
    const email = uniqueEmail(testInfo);
    const { dialog, f } = await openApplication(page, SOLAR);
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
    await fillApplication(dialog, { ...applicant(email), website: "leadflow.example", info: "Mostly search.\nSome native." });
    await press(f.checkbox(ROOFING));
    await press(f.submit);

    await expect(f.submit).toHaveText("Submitting...");
    await expect(f.submit).toBeDisabled();
    for (const input of [f.firstName, f.email, f.experience, f.info, f.find, f.cancel]) await expect(input).toBeDisabled();
    await expect(dialog.getByRole("checkbox", { name: ROOFING })).toBeDisabled();
    await expect(dialog.getByRole("heading", { name: "Application Submitted!" })).toHaveCount(0);

    const [draft] = await mailDrafts(page);
    expect(draft.to).toBe(EMAIL);
    expect(draft.subject).toBe("New Campaign Application - Jane Okafor");
    const lines = draft.body.split("\r\n");
    for (const line of [
      "Name: Jane Okafor",
      `Email: ${email}`,
      "Phone: (412) 555-0188",
      "Company: LeadFlow Media",
      "Website: https://leadflow.example",
      "Experience: Intermediate (6 months - 2 years)",
      "Expected monthly volume: 500-1000 leads",
      `- ${ROOFING}`,
      `- ${SOLAR}`,
      "Mostly search.",
      "Some native.",
      "Source: Campaign Portal Application",
    ]) {
      expect(lines, line).toContain(line);
    }
    expect(lines.some((l) => /^Application date: \w+ \d{1,2}, \d{4} at \d{1,2}:\d{2} [AP]M$/.test(l))).toBe(true);

    await page.clock.runFor(1000);
    await expect(dialog.getByRole("heading", { name: "Application Submitted!" })).toBeVisible();
    await expect(dialog).toContainText("24-48 hours");
    await expect(dialog).toContainText(email);
    await expect(dialog.getByRole("button", { name: "Close", exact: true }).last()).toBeFocused();

    await expect.poll(async () => (await applicationsByEmail(MAIN_DB, email)).length).toBe(1);
    const [stored] = await applicationsByEmail(MAIN_DB, email);
    expect(JSON.parse(stored.data)).toMatchObject({
      firstName: "Jane",
      website: "https://leadflow.example",
      experience: "intermediate",
      monthlyVolume: "500-1000",
      selectedCampaigns: [ROOFING, SOLAR],
      additionalInfo: "Mostly search.\nSome native.",
    });
    expect(stored.phone).toBe("+14125550188");
    expect(new URL(stored.page_url ?? "").pathname).toBe("/campaigns");
    await expect
      .poll(async () => (await readMaildir(MAILDIR)).filter((m) => m.messageId.includes(stored.id)).map((m) => m.subject), {
        timeout: 10_000,
      })
      .toEqual(["New Campaign Application - Jane Okafor"]);

    // Close: gone, and the next application starts empty with its own campaign.
    const opener = applyLink(page, SOLAR);
    await press(dialog.getByRole("button", { name: "Close", exact: true }).last());
    await expect(dialog).toHaveCount(0);
    await expect(opener).toBeFocused();
    const again = await openApplication(page, ROOFING);
    await expect(again.f.firstName).toHaveValue("");
    await expect(again.f.selected).toHaveText([`${ROOFING}×`]);
  },
);

for (const by of ["Cancel", "the close button", "Escape"] as const) {
  test(`${by} resets everything and closes the modal`, { tag: "@one-width" }, async ({ page }) => {
    await openPortal(page);
    const { dialog, f } = await openApplication(page, SOLAR);
    await fillApplication(dialog, applicant("reset@leadflow.example"));
    await press(f.checkbox(ROOFING));
    await f.lastName.fill("");
    await press(f.submit);
    await expect(f.banner).toContainText("Last name is required");
    if (by === "Cancel") await press(f.cancel);
    else if (by === "Escape") await page.keyboard.press("Escape");
    else await press(dialog.getByRole("button", { name: "Close", exact: true }));
    await expect(dialog).toHaveCount(0);
    await expect(applyLink(page, SOLAR)).toBeFocused();
    const again = await openApplication(page, SOLAR);
    for (const input of [again.f.firstName, again.f.lastName, again.f.email, again.f.phone, again.f.company])
      await expect(input).toHaveValue("");
    await expect(again.f.experience).toHaveValue("");
    await expect(again.f.selected).toHaveText([`${SOLAR}×`]);
    await expect(again.f.banner).toHaveCount(0);
  });
}

test("a failed post to the server changes nothing the visitor sees", { tag: "@one-width" }, async ({ page, consoleProblems }, testInfo) => {
  consoleProblems.allow(/Failed to load resource/);
  await spyOnMailDrafts(page);
  let posted = 0;
  await page.route("**/api/campaign-applications", (route) => {
    posted++;
    return route.abort("connectionrefused");
  });
  await openPortal(page);
  const email = uniqueEmail(testInfo);
  const { dialog, f } = await openApplication(page, ROOFING);
  await fillApplication(dialog, applicant(email));
  await press(f.submit);
  await expect(dialog.getByRole("heading", { name: "Application Submitted!" })).toBeVisible();
  expect(posted).toBe(1);
  expect(await mailDrafts(page)).toHaveLength(1);
  expect(await applicationsByEmail(MAIN_DB, email)).toEqual([]);
});

test(
  "when the mail draft cannot open, the spec's message shows and the form stays open for a retry",
  { tag: "@one-width" },
  async ({ page }, testInfo) => {
    await spyOnMailDrafts(page, true);
    await openPortal(page);
    const { dialog, f } = await openApplication(page, ROOFING);
    await fillApplication(dialog, applicant(uniqueEmail(testInfo)));
    await press(f.submit);
    await expect(f.banner).toHaveText("Application ErrorAn error occurred while submitting your application. Please try again.");
    await expect(f.firstName).toHaveValue("Jane");
    await expect(f.submit).toBeEnabled();
    await expect(f.selected).toHaveText([`${ROOFING}×`]);
  },
);

test("an 'Apply Now' pressed before the page is live opens the modal once it is", { tag: "@one-width" }, async ({ page }) => {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/assets/runtime-*.js", async (route) => {
    await released;
    await route.continue();
  });
  await page.goto("/campaigns");
  await press(applyLink(page, SOLAR));
  expect(new URL(page.url()).pathname, "the click is held, not followed").toBe("/campaigns");
  release();
  await expect(application(page)).toBeVisible();
  await expect(applicationForm(application(page)).selected).toHaveText([`${SOLAR}×`]);
});

test(
  "without JavaScript 'Apply Now' leads to the apply page, which posts, answers errors and confirms",
  { tag: "@one-width" },
  async ({ newContext, consoleProblems }, testInfo) => {
    // The refused post is answered 400 with the page again, which the browser logs.
    consoleProblems.allow(/status of 400/);
    const context = await newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/campaigns");
    await press(applyLink(page, SOLAR));
    await page.waitForURL((url) => url.pathname === "/campaigns/apply");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Campaign Application");
    await expect(page.getByText(`Applying for: ${SOLAR}`)).toBeVisible();
    const f = applicationForm(page);
    await expect(f.checkbox(SOLAR)).toBeChecked();
    const email = uniqueEmail(testInfo);

    // No campaign ticked: the server's answer is the page again, values kept, the rule's message
    // (the nine before the website, as in the browser; an ftp address passes the browser's own
    // URL check, not ours).
    await fillApplication(page, { ...applicant(email), website: "ftp://leadflow.example" });
    await press(f.checkbox(SOLAR));
    await press(f.submit);
    await expect(f.banner).toHaveText("Application ErrorPlease select at least one campaign");
    await expect(f.firstName).toHaveValue("Jane");
    await expect(f.experience).toHaveValue("intermediate");

    await press(f.checkbox(SOLAR));
    await press(f.checkbox(ROOFING));
    await press(f.submit);
    await expect(f.banner).toHaveText("Application ErrorPlease enter a valid website address, such as https://example.com");
    await f.website.fill("https://leadflow.example");
    await press(f.submit);
    await page.waitForURL((url) => url.pathname === "/campaigns/applied");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Application Submitted!");
    const [stored] = await applicationsByEmail(MAIN_DB, email);
    expect(JSON.parse(stored.data).selectedCampaigns).toEqual([ROOFING, SOLAR]);
  },
);

test.describe("accessibility", () => {
  test.use({ bypassCSP: true });

  async function expectNoViolations(page: Page, state: string): Promise<void> {
    const { violations, passes } = await axeViolations(page);
    expect(passes, "axe ran its WCAG rules").toBeGreaterThan(10);
    expect(violations, `axe violations ${state}:\n${describeViolations(violations)}`).toEqual([]);
  }

  test("axe: /campaigns, the application modal with its banner and its success panel, the apply page", async ({ page }) => {
    await spyOnMailDrafts(page);
    await openPortal(page);
    await expectNoViolations(page, "on /campaigns");
    const { dialog, f } = await openApplication(page, ROOFING);
    await expectNoViolations(page, "with the application modal open");
    await press(f.submit);
    await expect(f.banner).toBeVisible();
    await expectNoViolations(page, "with the 'Application Error' banner");
    await fillApplication(dialog, applicant("axe@leadflow.example"));
    await press(f.submit);
    await expect(dialog.getByRole("heading", { name: "Application Submitted!" })).toBeVisible();
    await expectNoViolations(page, "with the success panel");
    await page.goto(`/campaigns/apply?campaign=${encodeURIComponent(SOLAR)}`);
    await expectNoViolations(page, "on the apply page");
    await page.goto("/campaigns/applied");
    await expectNoViolations(page, "on the applied page");
  });
});
