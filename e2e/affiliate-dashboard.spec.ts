import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { ALL_RULES, axeViolations, describeViolations } from "./support/axe";
import {
  application,
  applicationForm,
  applyButton,
  availableCampaigns,
  cards,
  dashboard,
  live,
  openAvailableCampaigns,
  openDashboard,
} from "./support/campaigns";
import { expectFocusTrapped } from "./support/dialog";
import { closeDialog, columnCount, EMAIL, openHome, SUPPORT } from "./support/home";
import { hydrate } from "./support/hydrate";
import { insideSideways, lineCount } from "./support/layout";
import { isPhoneProject, press } from "./support/service";

// The affiliate dashboard panel and its Available Campaigns modal (docs/product.md, "The affiliate dashboard (home page header)"): what the demo affiliate sees, the modal's search, status select, legend,
// badges, counts and empty state, the list/grid toggle kept in affiliateViewMode, 'Apply
// Now' with its campaign chosen, and axe with each dialog open.

const hash = (page: Page) => page.evaluate(() => window.location.hash);

test("the chooser's affiliate choice opens the demo dashboard: greeting, terms, manager and the ways in", async ({ page }, testInfo) => {
  await openHome(page);
  const opener = await openDashboard(page, testInfo);
  const panel = dashboard(page);
  await expect(panel.getByRole("heading", { name: "Welcome back, Jordan Reyes" })).toBeVisible();
  await expect(panel).toContainText("Summit Lead Partners");
  await expect(panel).toContainText("Demo:");
  await expect(panel).toContainText("sample data");
  const terms = panel.getByRole("list", { name: "Partner terms" });
  await expect(terms).toContainText("$28-$175+");
  await expect(terms).toContainText("per qualified lead");
  await expect(terms).toContainText("Weekly");
  await expect(terms).toContainText("24-48 hours");
  const manager = panel.getByRole("region", { name: "Your affiliate manager" });
  await expect(manager.getByRole("link", { name: EMAIL })).toHaveAttribute("href", `mailto:${EMAIL}`);
  await expect(manager.getByRole("link", { name: SUPPORT.display })).toHaveAttribute("href", SUPPORT.tel);
  await expect(panel.getByRole("link", { name: "Open the campaign portal" })).toHaveAttribute("href", "/campaigns");
  await expect(panel.getByRole("button", { name: "View Available Campaigns" })).toBeFocused();
  expect(await hash(page), "the dashboard has its own address").toBe("#affiliate-dashboard");
  await expectFocusTrapped(page, panel);

  await page.keyboard.press("Escape");
  await expect(panel).toHaveCount(0);
  await expect(opener).toBeFocused();
  expect(await hash(page)).toBe("");
});

test("phones at 390, 360 and 320 px: each partner term's figure stays on one line inside its box", async ({ page }, testInfo) => {
  test.skip(!isPhoneProject(testInfo), "phone widths");
  await page.goto("/#affiliate-dashboard");
  await hydrate(page);
  const figures = dashboard(page).getByRole("list", { name: "Partner terms" }).getByRole("listitem");
  await expect(figures).toHaveCount(3);
  for (const width of [390, 360, 320]) {
    await page.setViewportSize({ width, height: 740 });
    for (const value of ["$28-$175+", "Weekly", "24-48 hours"]) {
      const figure = figures.getByText(value, { exact: true });
      expect(await lineCount(figure), `${width} px: ${value} on one line`).toBe(1);
      expect(await insideSideways(figure, "li"), `${width} px: ${value} inside its box`).toBe(true);
    }
    // The demo partner's line wraps between its parts, never inside the number.
    expect(await lineCount(dashboard(page).getByText("(800) 555-0123", { exact: true })), `${width} px: the number on one line`).toBe(1);
  }
});

test("the portal link leads to /campaigns", { tag: "@one-width" }, async ({ page }, testInfo) => {
  await openHome(page);
  await openDashboard(page, testInfo);
  await press(dashboard(page).getByRole("link", { name: "Open the campaign portal" }));
  await page.waitForURL((url) => url.pathname === "/campaigns");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("No account required");
});

test(
  "Available Campaigns: every live campaign with its badges, the legend, search, status and the empty state",
  { tag: "@one-width" },
  async ({ page }, testInfo) => {
    await openHome(page);
    const modal = await openAvailableCampaigns(page, testInfo);
    await expect(modal.getByText("Choose campaigns that match your traffic sources", { exact: true })).toBeVisible();
    expect(await hash(page)).toBe("#available-campaigns");
    const search = modal.getByRole("searchbox", { name: "Search campaigns" });
    await expect(search).toBeFocused();
    await expect(search).toHaveAttribute("placeholder", "Search campaigns...");
    const status = modal.getByRole("combobox", { name: "Campaign status" });
    await expect(status.locator("option")).toHaveText(["All Status", "Live Only"]);
    const footer = modal.getByText(/^Showing \d+ live campaigns?$/);
    await expect(footer).toHaveText(`Showing ${live.length} live campaigns`);
    await expect(modal.getByText("Questions? Contact your affiliate manager for more details.", { exact: true })).toBeVisible();

    // The legend says what each badge means.
    const legend = modal.getByRole("group", { name: "Legend" }).getByRole("definition");
    await expect(legend).toHaveText(["Active campaigns accepting applications", "Inbound traffic allowed", "Live call transfers accepted"]);

    // Each card: name, status, the badges it has, payout, payment terms, GEOs (not on the small
    // phone card), guidelines and 'Apply Now'.
    const list = modal.getByRole("list", { name: "Campaigns" });
    await expect(list.getByText("LIVE", { exact: true })).toHaveCount(live.length);
    await expect(list.getByText("Inbound", { exact: true })).toHaveCount(live.filter((c) => c.inbound).length);
    await expect(list.getByText("Transfer", { exact: true })).toHaveCount(live.filter((c) => c.transfer).length);
    const sample = live.find((c) => c.inbound && c.transfer) ?? live[0];
    const card = cards(modal).filter({ has: page.getByRole("heading", { name: sample.campaign, exact: true }) });
    await expect(card).toContainText(sample.payouts);
    await expect(card).toContainText(sample.paymentTerms);
    await expect(card).toContainText(sample.notes);
    if (sample.promoAllowed) await expect(card).toContainText(sample.promoAllowed);
    await expect(card.getByText("Inbound", { exact: true })).toBeVisible();
    await expect(card.getByText("Transfer", { exact: true })).toBeVisible();
    const geos = card.getByText(sample.geos, { exact: true });
    if (isPhoneProject(testInfo)) await expect(geos).toBeHidden();
    else await expect(geos).toBeVisible();
    await expect(applyButton(modal, sample.campaign)).toBeVisible();

    // Search by name, any case; the status select; the counts follow.
    const solar = live.filter((c) => c.campaign.toLowerCase().includes("solar"));
    await search.fill("SOLAR");
    await expect(cards(modal)).toHaveCount(solar.length);
    await expect(footer).toHaveText(`Showing ${solar.length} live campaigns`);
    await status.selectOption({ label: "Live Only" });
    await expect(cards(modal)).toHaveCount(solar.length);
    await search.fill("zzz no such campaign");
    await expect(cards(modal)).toHaveCount(0);
    await expect(modal.getByText("No campaigns found", { exact: true })).toBeVisible();
    await expect(modal.getByText("Try adjusting your search or filter criteria", { exact: true })).toBeVisible();
    await expect(footer).toHaveText("Showing 0 live campaigns");
    await search.fill("");
    await status.selectOption({ label: "All Status" });
    await expect(cards(modal)).toHaveCount(live.length);

    // Closing it goes back to the dashboard, focus on the button that opened it.
    await page.keyboard.press("Escape");
    await expect(modal).toHaveCount(0);
    await expect(dashboard(page)).toBeVisible();
    await expect(dashboard(page).getByRole("button", { name: "View Available Campaigns" })).toBeFocused();
    expect(await hash(page)).toBe("#affiliate-dashboard");
  },
);

test("the list/grid toggle: larger screens only, saved to affiliateViewMode and restored after a reload", async ({ page }, testInfo) => {
  await openHome(page);
  let modal = await openAvailableCampaigns(page, testInfo);
  const view = modal.getByRole("group", { name: "View" });
  const stored = () => page.evaluate(() => localStorage.getItem("affiliateViewMode"));
  expect(await stored(), "the affiliate choice cleared it").toBeNull();
  if (isPhoneProject(testInfo)) {
    await expect(view).toBeHidden();
    await expect(modal.getByRole("button", { name: "Grid view" })).toBeHidden();
    expect(await columnCount(cards(modal))).toBe(1);
    // A mode saved on a larger screen changes nothing here: the phone card is one column.
    await page.evaluate(() => localStorage.setItem("affiliateViewMode", "grid"));
    await page.reload();
    modal = availableCampaigns(page);
    await expect(cards(modal)).toHaveCount(live.length);
    expect(await columnCount(cards(modal))).toBe(1);
    return;
  }
  await expect(view).toBeVisible();
  const list = view.getByRole("button", { name: "List view" });
  const grid = view.getByRole("button", { name: "Grid view" });
  await expect(list).toHaveAttribute("aria-pressed", "true");
  expect(await columnCount(cards(modal))).toBe(1);
  await press(grid);
  await expect(grid).toHaveAttribute("aria-pressed", "true");
  expect(await stored()).toBe("grid");
  expect(await columnCount(cards(modal))).toBe(3);

  // The dashboard and its modal have their own address: after a reload they are back,
  // read from storage after hydration, in grid view.
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  modal = availableCampaigns(page);
  await expect(cards(modal)).toHaveCount(live.length);
  await expect(modal.getByRole("button", { name: "Grid view" })).toHaveAttribute("aria-pressed", "true");
  expect(await columnCount(cards(modal))).toBe(3);
  await expect(dashboard(page)).toHaveCount(1);
  await press(modal.getByRole("button", { name: "List view" }));
  expect(await stored()).toBe("list");
  expect(await columnCount(cards(modal))).toBe(1);
});

test(
  "'Apply Now' opens the application with that campaign chosen; Cancel goes back to the list",
  { tag: "@one-width" },
  async ({ page }, testInfo) => {
    await openHome(page);
    const modal = await openAvailableCampaigns(page, testInfo);
    const campaign = live.find((c) => c.campaign.includes("&")) ?? live[live.length - 1];
    await modal.getByRole("searchbox", { name: "Search campaigns" }).fill(campaign.campaign.slice(0, 12));
    const button = applyButton(modal, campaign.campaign);
    await press(button);
    const dialog = application(page);
    await expect(dialog).toBeVisible();
    const f = applicationForm(dialog);
    await expect(f.selected).toHaveText([`${campaign.campaign}×`]);
    await expect(f.checkbox(campaign.campaign)).toBeChecked();
    await expect(dialog.getByRole("checkbox", { checked: true })).toHaveCount(1);
    await expect(f.firstName).toBeFocused();
    await expectFocusTrapped(page, dialog);
    await press(f.cancel);
    await expect(dialog).toHaveCount(0);
    await expect(modal).toBeVisible();
    await expect(button).toBeFocused();
  },
);

test(
  "each overlay closes by Escape, its close button and the backdrop, one at a time",
  { tag: "@one-width" },
  async ({ page }, testInfo) => {
    await openHome(page);
    const modal = await openAvailableCampaigns(page, testInfo);
    await press(applyButton(modal, live[0].campaign));
    await expect(application(page)).toBeVisible();
    await closeDialog(page, application(page), "backdrop");
    await expect(modal).toBeVisible();
    await closeDialog(page, modal, "close button");
    await expect(dashboard(page)).toBeVisible();
    await closeDialog(page, dashboard(page), "Escape");
    expect(await hash(page)).toBe("");
  },
);

test.describe("accessibility", () => {
  test.use({ bypassCSP: true });

  async function expectNoViolations(page: Page, state: string): Promise<void> {
    const { violations, passes } = await axeViolations(page, ALL_RULES);
    expect(passes, "axe ran its rules").toBeGreaterThan(10);
    expect(violations, `axe violations ${state}:\n${describeViolations(violations)}`).toEqual([]);
  }

  test("axe, every rule: the dashboard, the campaigns modal in each view, the application with its error banner", async ({
    page,
  }, testInfo) => {
    await openHome(page);
    await openDashboard(page, testInfo);
    await expectNoViolations(page, "with the dashboard open");
    await press(dashboard(page).getByRole("button", { name: "View Available Campaigns" }));
    const modal = availableCampaigns(page);
    await expect(cards(modal)).toHaveCount(live.length);
    await expectNoViolations(page, "with the Available Campaigns modal open");
    if (!isPhoneProject(testInfo)) {
      await press(modal.getByRole("button", { name: "Grid view" }));
      await expectNoViolations(page, "in grid view");
    }
    await modal.getByRole("searchbox", { name: "Search campaigns" }).fill("zzz");
    await expect(modal.getByText("No campaigns found", { exact: true })).toBeVisible();
    await expectNoViolations(page, "with the empty state");
    await modal.getByRole("searchbox", { name: "Search campaigns" }).fill("");
    await press(applyButton(modal, live[1].campaign));
    const dialog = application(page);
    await expect(dialog).toBeVisible();
    await expectNoViolations(page, "with the application modal open");
    await press(applicationForm(dialog).submit);
    await expect(applicationForm(dialog).banner).toContainText("First name is required");
    await expectNoViolations(page, "with the 'Application Error' banner");
  });
});
