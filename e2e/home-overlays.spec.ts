import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { ALL_RULES, axeViolations, describeViolations } from "./support/axe";
import { leadsByPhone } from "./support/db";
import { MAIN_DB, TF_DB, TF_URL } from "./support/env";
import {
  CLOSE_BYS,
  CONTRACTOR_ALERT,
  chooser,
  chooserOpener,
  closeDialog,
  HOMEOWNER_ALERT,
  menuButton,
  nav,
  openChooser,
  openHome,
  openServiceRequest,
  SUPPORT,
  servicesMenu,
  showNavigation,
} from "./support/home";
import { hydrate } from "./support/hydrate";
import { fold, isPhoneProject, press, SUCCESS_MESSAGE, services, uniquePhone } from "./support/service";
import { newCertificate, serveStandIn } from "./support/trustedform";

// The home header's overlays (docs/product.md, "The home page"): the contractor login type
// chooser, its two alerts, the affiliate dashboard and the service request modal, each
// opened and closed (Escape, close button, backdrop), and axe with each one open.

const DEMO_AFFILIATE = "Jordan Reyes";

test.describe("contractor login type chooser", () => {
  for (const by of CLOSE_BYS) {
    test(`opens from its button and closes by ${by}, giving focus back`, async ({ page }, testInfo) => {
      await openHome(page);
      const opener = await openChooser(page, testInfo);
      const dialog = chooser(page);
      for (const [title, text] of [
        ["Homeowners", "Get service for your home"],
        ["Contractors/Call Buyers", "Manage your call answering service"],
        ["Affiliate Partners", "View available campaigns & apply"],
      ]) {
        await expect(dialog.getByRole("button", { name: `${title} ${text}` })).toBeVisible();
      }
      await closeDialog(page, dialog, by);
      await expect(opener).toBeFocused();
    });
  }

  test("phone: 'For Contractors' in the menu opens it too, and the menu stays open behind it", async ({ page }, testInfo) => {
    test.skip(!isPhoneProject(testInfo), "the menu is the phone layout's");
    await openHome(page);
    await showNavigation(page, testInfo);
    const opener = nav(page).getByRole("button", { name: "For Contractors" });
    await press(opener);
    await expect(chooser(page)).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(chooser(page)).toHaveCount(0);
    await expect(nav(page)).toBeVisible();
    await expect(opener).toBeFocused();
    await expect(menuButton(page)).toHaveAttribute("aria-expanded", "true");
  });

  for (const c of [
    { choice: "Homeowners", text: HOMEOWNER_ALERT, title: "Homeowner dashboard" },
    { choice: "Contractors/Call Buyers", text: CONTRACTOR_ALERT, title: "Contractor login" },
  ]) {
    test(`choosing ${c.choice} shows its alert with the support number`, async ({ page }, testInfo) => {
      await openHome(page);
      const opener = await openChooser(page, testInfo);
      await press(chooser(page).getByRole("button", { name: new RegExp(`^${c.choice.replace("/", "\\/")}`) }));
      await expect(chooser(page)).toHaveCount(0);
      const alert = page.getByRole("alertdialog", { name: c.title });
      await expect(alert).toBeVisible();
      await expect(alert.getByText(c.text, { exact: true })).toBeVisible();
      await expect(alert).toHaveAccessibleDescription(c.text);
      await expect(alert.getByRole("link", { name: `Call ${SUPPORT.display}` })).toHaveAttribute("href", SUPPORT.tel);
      await expect(alert.getByRole("button", { name: "OK" })).toBeFocused();
      await press(alert.getByRole("button", { name: "OK" }));
      await expect(alert).toHaveCount(0);
      await expect(opener).toBeFocused();

      // Escape, the close button and the backdrop close it too.
      for (const by of CLOSE_BYS) {
        await openChooser(page, testInfo);
        await press(chooser(page).getByRole("button", { name: new RegExp(`^${c.choice.replace("/", "\\/")}`) }));
        await expect(alert).toBeVisible();
        await closeDialog(page, alert, by);
      }
    });
  }

  test("choosing Affiliate Partners clears the view preference and opens the demo affiliate's dashboard", async ({ page }, testInfo) => {
    await openHome(page);
    await page.evaluate(() => {
      localStorage.setItem("affiliateViewMode", "grid");
      localStorage.setItem("theme", "light");
    });
    const opener = await openChooser(page, testInfo);
    await press(chooser(page).getByRole("button", { name: /^Affiliate Partners/ }));
    await expect(chooser(page)).toHaveCount(0);
    const dashboard = page.getByRole("dialog", { name: "Affiliate Dashboard" });
    await expect(dashboard).toBeVisible();
    await expect(dashboard).toContainText(`Welcome back, ${DEMO_AFFILIATE}`);
    await expect(dashboard.getByRole("link", { name: "Open the campaign portal" })).toHaveAttribute("href", "/campaigns");
    expect(await page.evaluate(() => localStorage.getItem("affiliateViewMode"))).toBeNull();
    expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("light");
    await page.keyboard.press("Escape");
    await expect(dashboard).toHaveCount(0);
    await expect(opener).toBeFocused();

    for (const by of CLOSE_BYS) {
      await openChooser(page, testInfo);
      await press(chooser(page).getByRole("button", { name: /^Affiliate Partners/ }));
      await expect(dashboard).toBeVisible();
      await closeDialog(page, dashboard, by);
    }
  });

  test("when storage refuses, the affiliate choice only logs 'Unable to clear view preference'", async ({
    page,
    consoleProblems,
  }, testInfo) => {
    consoleProblems.allow(/^Unable to clear view preference/);
    const warnings: string[] = [];
    page.on("console", (m) => m.type() === "warning" && warnings.push(m.text()));
    await page.addInitScript(() => {
      Storage.prototype.removeItem = () => {
        throw new DOMException("The operation is insecure.", "SecurityError");
      };
    });
    await openHome(page);
    await openChooser(page, testInfo);
    await press(chooser(page).getByRole("button", { name: /^Affiliate Partners/ }));
    await expect(page.getByRole("dialog", { name: "Affiliate Dashboard" })).toBeVisible();
    await expect.poll(() => warnings.some((w) => w.startsWith("Unable to clear view preference"))).toBe(true);
  });
});

test.describe("service request modal", () => {
  for (const by of CLOSE_BYS) {
    test(`'Get Service Now' opens it and ${by} closes it, giving focus back`, async ({ page }, testInfo) => {
      await openHome(page);
      const { dialog, opener } = await openServiceRequest(page, testInfo);
      await expect(dialog.getByRole("searchbox", { name: "What do you need help with?" })).toBeFocused();
      await expect(dialog.getByRole("list", { name: "Services" }).getByRole("button")).toHaveCount(42);
      await closeDialog(page, dialog, by);
      await expect(opener).toBeFocused();
    });
  }

  test("the picker lists every service with its own icon, in the catalogue's order", async ({ page }, testInfo) => {
    await openHome(page);
    const { dialog } = await openServiceRequest(page, testInfo);
    const choices = dialog.getByRole("list", { name: "Services" }).getByRole("button");
    await expect(choices).toHaveText(services.map((s) => s.name));
    const icons = await choices.evaluateAll((buttons) => buttons.map((b) => b.querySelector("img")?.getAttribute("src") ?? ""));
    expect(icons).toHaveLength(services.length);
    for (const [i, src] of icons.entries()) {
      expect(src).toMatch(new RegExp(`^/assets/icons-[0-9a-f]+\\.svg#v-${services[i].icon}$`));
    }
  });

  test("the visitor finds a service, asks for a callback, and the lead lands in the database", async ({ page }, testInfo) => {
    await openHome(page);
    const { dialog } = await openServiceRequest(page, testInfo);
    const search = dialog.getByRole("searchbox", { name: "What do you need help with?" });
    const choices = dialog.getByRole("list", { name: "Services" }).getByRole("button");
    await search.fill("gutter");
    await expect(choices).toHaveText(["Gutters", "Gutter Protection"]);
    await search.fill("no such trade");
    await expect(choices).toHaveCount(0);
    await expect(dialog.getByText("No service matches “no such trade”.")).toBeVisible();
    await search.fill("roof");
    await press(dialog.getByRole("button", { name: "Roofing", exact: true }));

    // The service pages' own form: the same fields, wording and button.
    const form = dialog.locator("form");
    const name = form.getByRole("textbox", { name: "Full Name", exact: true });
    await expect(name).toBeFocused();
    await press(dialog.getByRole("button", { name: "Change service" }));
    await expect(search).toBeFocused();
    await press(dialog.getByRole("button", { name: "Roofing", exact: true }));

    const phone = uniquePhone(testInfo);
    await name.fill("Dana Whitfield");
    await form.getByRole("textbox", { name: "Phone Number", exact: true }).fill(phone.input);
    await form.getByRole("textbox", { name: "ZIP Code (optional)", exact: true }).fill("16509");
    await press(form.locator('input[name="consent"]'));
    const consentShown = fold((await form.locator('[data-tf-element-role="consent-language"]').textContent()) ?? "");
    expect(consentShown).toContain("I agree to the Terms of Service and Privacy Policy.");
    await press(form.locator('[data-tf-element-role="submit"]'));

    await expect(form.getByText(SUCCESS_MESSAGE, { exact: true })).toBeVisible({ timeout: 10_000 });
    const sheet = page.locator('dialog[data-testid="callback-status"]');
    await expect(sheet).toBeVisible();
    await expect(sheet.getByRole("link", { name: `Call ${SUPPORT.display}` })).toHaveAttribute("data-track-service", "roofing");

    await expect.poll(async () => (await leadsByPhone(MAIN_DB, phone.e164)).length).toBe(1);
    const [lead] = await leadsByPhone(MAIN_DB, phone.e164);
    expect(lead.service_slug).toBe("roofing");
    expect(lead.full_name).toBe("Dana Whitfield");
    expect(lead.zip_code).toBe("16509");
    expect(lead.consent).toBe(1);
    expect(fold(lead.tcpa_text)).toBe(consentShown);
    expect(new URL(lead.page_url ?? "").pathname).toBe("/");

    await press(sheet.getByRole("button", { name: "Got it" }));
    await expect(sheet).toHaveCount(0);
    await expect(form.locator('[data-tf-element-role="submit"]')).toBeFocused();
  });
});

test("with the certification script on, a service request carries its consent certificate", async ({ page }, testInfo) => {
  // The script certifies the forms it finds when it loads: it is loaded once the modal's form exists.
  const cert = newCertificate();
  const standIn = await serveStandIn(page, { cert, delayMs: 300 });
  await page.goto(`${TF_URL}/`);
  await hydrate(page);
  expect(standIn.requested, "nothing to certify before the form shows").toHaveLength(0);
  const { dialog } = await openServiceRequest(page, testInfo);
  await dialog.getByRole("searchbox", { name: "What do you need help with?" }).fill("plumb");
  await press(dialog.getByRole("button", { name: "Plumbing", exact: true }));
  await expect.poll(() => standIn.requested.length).toBe(1);

  const form = dialog.locator("form");
  const phone = uniquePhone(testInfo);
  await form.getByRole("textbox", { name: "Full Name", exact: true }).fill("Ines Okafor");
  await form.getByRole("textbox", { name: "Phone Number", exact: true }).fill(phone.input);
  await press(form.locator('input[name="consent"]'));
  await press(form.locator('[data-tf-element-role="submit"]'));
  await expect(form.getByText(SUCCESS_MESSAGE, { exact: true })).toBeVisible({ timeout: 10_000 });

  await expect.poll(async () => (await leadsByPhone(TF_DB, phone.e164)).length).toBe(1);
  const [lead] = await leadsByPhone(TF_DB, phone.e164);
  expect(lead).toMatchObject({ service_slug: "plumbing", cert_url: cert.certUrl, cert_token: cert.token, cert_ping_url: cert.ping });
});

test.describe("accessibility", () => {
  test.use({ bypassCSP: true });

  async function expectNoViolations(page: Page, state: string): Promise<void> {
    const { violations, passes } = await axeViolations(page, ALL_RULES);
    expect(passes, "axe ran its rules").toBeGreaterThan(10);
    expect(violations, `axe violations ${state}:\n${describeViolations(violations)}`).toEqual([]);
  }

  test("axe, every rule: as loaded, with the menu open, and with each overlay open", async ({ page }, testInfo) => {
    await openHome(page);
    await expectNoViolations(page, "as loaded");
    if (isPhoneProject(testInfo)) {
      await press(menuButton(page));
      await expect(nav(page)).toBeVisible();
      await expectNoViolations(page, "with the menu open");
      await press(menuButton(page));
    } else {
      await nav(page).getByRole("button", { name: "Home Services" }).click();
      await expect(servicesMenu(page)).toBeVisible();
      await expectNoViolations(page, "with the Home Services dropdown open");
      await page.keyboard.press("Escape");
    }

    await openChooser(page, testInfo);
    await expectNoViolations(page, "with the login type chooser open");
    for (const [choice, name] of [
      [/^Homeowners/, "alertdialog"],
      [/^Contractors/, "alertdialog"],
      [/^Affiliate Partners/, "dialog"],
    ] as const) {
      if (!(await chooser(page).isVisible())) await openChooser(page, testInfo);
      await press(chooser(page).getByRole("button", { name: choice }));
      const overlay = page.getByRole(name);
      await expect(overlay).toBeVisible();
      await expectNoViolations(page, `after choosing ${choice}`);
      await page.keyboard.press("Escape");
      await expect(overlay).toHaveCount(0);
    }
    await expect(chooserOpener(page, testInfo)).toBeFocused();

    const { dialog } = await openServiceRequest(page, testInfo);
    await expectNoViolations(page, "with the service request modal open");
    await press(dialog.getByRole("button", { name: "Plumbing", exact: true }));
    await expect(dialog.locator("form")).toBeVisible();
    await expectNoViolations(page, "with the service request form");
    await press(dialog.getByRole("button", { name: "Privacy Policy" }));
    const legal = page.getByRole("dialog", { name: "Privacy Policy" });
    await expect(legal.getByRole("heading", { level: 3 }).first()).toBeVisible();
    await expectNoViolations(page, "with the Privacy Policy over the form");
    await page.keyboard.press("Escape");
    await expect(legal).toHaveCount(0);
    await page.keyboard.press("Escape");
    await expect(dialog).toHaveCount(0);

    // The footer's legal links open the same modals.
    await press(page.locator("footer").getByRole("link", { name: "Terms of Service", exact: true }));
    const terms = page.getByRole("dialog", { name: "Terms of Service" });
    await expect(terms.getByRole("heading", { level: 3 }).first()).toBeVisible();
    await expectNoViolations(page, "with the Terms of Service opened from the footer");
  });
});
