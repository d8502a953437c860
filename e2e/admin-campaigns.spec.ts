import { expect, test } from "./fixtures";
import { addStaff, checkScreen, signIn } from "./support/admin";
import { CONSOLE_DB, CONSOLE_URL } from "./support/env";
import { press } from "./support/service";

// Campaigns run from the console, end to end on the console's server (its own SQLite file,
// so the public pages' campaign counts of the other specs stay as the catalogue has them):
// a staff member adds a campaign, changes its payout, pauses, resumes and ends it, and after
// each step the public portal (/campaigns) and the apply page show it, at the project's
// width. Each project works on a campaign of its own name.

// bypassCSP: axe is injected into the page for checkScreen, as the other console specs do.
test.use({ baseURL: CONSOLE_URL, bypassCSP: true });

test(
  "staff add, change, pause and end a campaign, and the public pages follow",
  { tag: "@one-width" },
  async ({ page, consoleProblems }, testInfo) => {
    const email = `campaigns-${testInfo.project.name}@ringready.example`;
    addStaff(email, CONSOLE_DB);
    const name = `E2E Solar Inbound ${testInfo.project.name}`;
    await signIn(page, email);
    await press(page.getByRole("link", { name: "Campaigns" }));
    await expect(page).toHaveURL(/\/admin\/campaigns$/);
    await checkScreen(page, testInfo, "campaigns");

    // Add.
    const form = page.locator('form[method="post"][action="/admin/campaigns"]');
    await form.getByLabel("Name", { exact: true }).fill(name);
    await form.getByLabel("Payout", { exact: true }).fill("$41");
    await form.getByLabel("GEOs", { exact: true }).fill("TX, FL");
    await form.getByLabel("Cap", { exact: true }).fill("20/day");
    await form.getByLabel("Promotion note", { exact: true }).fill("Search only");
    await press(page.getByRole("button", { name: "Save", exact: true }));
    await expect(page.getByRole("status")).toContainText("Campaign added");
    await page.goto("/campaigns");
    await expect(page.getByRole("heading", { name })).toBeVisible();
    await expect(page.getByText("$41").first()).toBeVisible();

    // A payout the portal's filters cannot sort is refused, naming the field (a 400 page).
    consoleProblems.allow(/^Failed to load resource: the server responded with a status of 400/);
    await page.goto("/admin/campaigns");
    await press(page.getByRole("link", { name }));
    await form.getByLabel("Payout", { exact: true }).fill("call us");
    await press(page.getByRole("button", { name: "Save", exact: true }));
    await expect(page.getByRole("alert")).toContainText("Payout: write a $ amount");

    // Change the payout.
    await form.getByLabel("Payout", { exact: true }).fill("$55");
    await press(page.getByRole("button", { name: "Save", exact: true }));
    await expect(page.getByRole("status")).toContainText("Campaign saved");
    await expect(page.getByRole("table", { name: "History" })).toContainText("$55");
    await checkScreen(page, testInfo, "campaign");
    await page.goto("/campaigns");
    await expect(page.getByText("$55").first()).toBeVisible();

    // Pause: off the portal; its apply link says it takes no applications.
    await page.goto(`/admin/campaigns?name=${encodeURIComponent(name)}`);
    await press(page.getByRole("button", { name: `Pause ${name}` }));
    await expect(page.getByRole("status")).toContainText("Campaign paused");
    await page.goto("/campaigns");
    await expect(page.getByRole("heading", { name })).toHaveCount(0);
    await page.goto(`/campaigns/apply?campaign=${encodeURIComponent(name)}`);
    await expect(page.getByText("is no longer accepting applications")).toBeVisible();

    // Resume, then end.
    await page.goto(`/admin/campaigns?name=${encodeURIComponent(name)}`);
    await press(page.getByRole("button", { name: `Resume ${name}` }));
    await expect(page.getByRole("status")).toContainText("live again");
    await page.goto("/campaigns");
    await expect(page.getByRole("heading", { name })).toBeVisible();
    await page.goto(`/admin/campaigns?name=${encodeURIComponent(name)}`);
    await press(page.getByRole("button", { name: `End ${name}` }));
    // The confirmation the island asks for (the plain form posts at once without JavaScript).
    await press(page.getByRole("button", { name: "Yes, end it" }));
    await expect(page.getByRole("status")).toContainText("Campaign ended");
    await page.goto("/campaigns");
    await expect(page.getByRole("heading", { name })).toHaveCount(0);
  },
);
