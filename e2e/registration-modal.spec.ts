import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import {
  ACCOUNT_REQUESTS,
  captureMailDrafts,
  expectStoredRequest,
  fillByLabel,
  INFO_EMAIL,
  mailDrafts,
  openRegistration,
  type RegistrationType,
  registrationValues,
  theMailDraft,
  uniqueEmail,
} from "./support/accounts";
import { ALL_RULES, axeViolations, describeViolations } from "./support/axe";
import { expectFocusTrapped } from "./support/dialog";
import { openHome } from "./support/home";
import { press } from "./support/service";

// The header's registration modal (docs/product.md, "Accounts"), opened by the
// hero's 'Get Started Today' and the closing call to action: the type choice, each type's
// form with the browser's own checks and the spec's option lists, the submitting state, the
// mail draft, the copy our server keeps, the success panel after 1000 ms, the error banner,
// the 95% height, axe and focus.

const TYPES: RegistrationType[] = ["Homeowner", "Contractors & Call Buyers", "Affiliate Partners"];
const LABEL: Record<RegistrationType, string> = {
  Homeowner: "Homeowner",
  "Contractors & Call Buyers": "Contractor",
  "Affiliate Partners": "Affiliate",
};
const STORED: Record<RegistrationType, string> = {
  Homeowner: "homeowner",
  "Contractors & Call Buyers": "call-buyer",
  "Affiliate Partners": "affiliate",
};

async function chooseType(dialog: Locator, type: RegistrationType): Promise<Locator> {
  await press(dialog.getByRole("button", { name: new RegExp(`^${type}`) }));
  const form = dialog.locator("form");
  await expect(form.getByRole("heading", { name: `${type} Registration` })).toBeVisible();
  return form;
}

const submitButton = (dialog: Locator) => dialog.getByRole("button", { name: "Complete Registration" });

test.describe("opening", () => {
  for (const where of ["hero", "closing"] as const) {
    test(`${where === "hero" ? "'Get Started Today'" : "the closing call to action"} opens it at most 95% of the viewport high; Back and close`, async ({
      page,
    }) => {
      await openHome(page);
      const { dialog, opener } = await openRegistration(page, where);
      await expect(dialog.getByRole("heading", { level: 2 })).toHaveText("Get Started");
      for (const type of TYPES) await expect(dialog.getByRole("button", { name: new RegExp(`^${type}`) })).toBeVisible();
      const { maxHeight, viewport } = await dialog.evaluate((el) => ({
        maxHeight: getComputedStyle(el).maxHeight,
        viewport: window.innerHeight,
      }));
      expect(parseFloat(maxHeight)).toBeCloseTo(viewport * 0.95, 0);
      await chooseType(dialog, "Affiliate Partners");
      await expect(dialog.getByLabel("First Name", { exact: true })).toBeFocused();
      await press(dialog.getByRole("button", { name: "Back" }));
      await expect(dialog.getByRole("button", { name: /^Affiliate Partners/ })).toBeFocused();
      await page.keyboard.press("Escape");
      await expect(dialog).toHaveCount(0);
      await expect(opener).toBeFocused();
    });
  }
});

test.describe("the forms", { tag: "@one-width" }, () => {
  test("each type's fields, input types, option lists and three-row text areas; all required", async ({ page }) => {
    await openHome(page);
    const { dialog } = await openRegistration(page);
    const expected: Record<RegistrationType, [string, string][]> = {
      Homeowner: [
        ["First Name", "text"],
        ["Last Name", "text"],
        ["Email Address", "email"],
        ["Phone Number", "tel"],
        ["Property Address", "text"],
        ["Property Type", "select"],
        ["Service Needs", "textarea"],
      ],
      "Contractors & Call Buyers": [
        ["First Name", "text"],
        ["Last Name", "text"],
        ["Email Address", "email"],
        ["Phone Number", "tel"],
        ["Company Name", "text"],
        ["Business Type", "select"],
        ["Monthly Budget", "select"],
        ["Service Areas", "textarea"],
      ],
      "Affiliate Partners": [
        ["First Name", "text"],
        ["Last Name", "text"],
        ["Email Address", "email"],
        ["Phone Number", "tel"],
        ["Company Name", "text"],
        ["Website", "url"],
        ["Traffic Sources", "textarea"],
        ["Monthly Volume", "select"],
      ],
    };
    const options: Record<string, string[]> = {
      "Property Type": ["", "single-family", "condo", "townhouse", "apartment", "multi-family", "commercial"],
      "Business Type": ["", "hvac", "roofing", "plumbing", "flooring", "pest-control", "siding", "general", "other"],
      "Monthly Budget": ["", "1000-2500", "2500-5000", "5000-10000", "10000-25000", "25000+"],
      "Monthly Volume": ["", "1-50", "50-100", "100-500", "500-1000", "1000+"],
    };
    for (const type of TYPES) {
      const form = await chooseType(dialog, type);
      const controls = form.locator("input:not([type=hidden]):not([name^=hp_]), select, textarea");
      await expect(controls).toHaveCount(expected[type].length);
      for (const [i, [label, kind]] of expected[type].entries()) {
        const control = form.getByLabel(label, { exact: true });
        await expect(controls.nth(i)).toHaveAttribute("id", (await control.getAttribute("id")) ?? "");
        await expect(control).toHaveJSProperty("required", true);
        const tag = await control.evaluate((el) => el.tagName.toLowerCase());
        if (kind === "select" || kind === "textarea") expect(tag).toBe(kind);
        else await expect(control).toHaveAttribute("type", kind);
        if (kind === "textarea") await expect(control).toHaveAttribute("rows", "3");
        if (kind === "select") {
          expect(await control.locator("option").evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual(
            options[label],
          );
          // One spelling with the campaign application (campaign-application.spec.ts).
          if (label === "Monthly Volume")
            await expect(control.locator("option:not([value=''])")).toHaveText([
              "1-50 leads",
              "50-100 leads",
              "100-500 leads",
              "500-1000 leads",
              "1000+ leads",
            ]);
          await expect(control).toHaveValue("");
        }
      }
      await press(dialog.getByRole("button", { name: "Back" }));
    }
  });

  test("only the browser's own checks: nothing is sent until they pass, and no message of ours shows", async ({ page }, testInfo) => {
    await captureMailDrafts(page);
    await openHome(page);
    const { dialog } = await openRegistration(page);
    const form = await chooseType(dialog, "Affiliate Partners");
    await press(submitButton(dialog));
    await expect(form.getByLabel("First Name", { exact: true })).toBeFocused();
    expect(await form.evaluate((f) => (f as HTMLFormElement).checkValidity())).toBe(false);
    await expect(dialog.getByRole("alert")).toHaveCount(0);
    // The e-mail, URL and select checks are the browser's too.
    await fillByLabel(form, { ...registrationValues("Affiliate Partners", "not-an-address"), Website: "whitfield.example" });
    await press(submitButton(dialog));
    await expect(form.getByLabel("Email Address", { exact: true })).toBeFocused();
    expect(await form.getByLabel("Email Address", { exact: true }).evaluate((el) => (el as HTMLInputElement).validity.typeMismatch)).toBe(
      true,
    );
    await form.getByLabel("Email Address", { exact: true }).fill(uniqueEmail(testInfo, "native"));
    await press(submitButton(dialog));
    await expect(form.getByLabel("Website", { exact: true })).toBeFocused();
    await form.getByLabel("Monthly Volume", { exact: true }).selectOption("");
    await form.getByLabel("Website", { exact: true }).fill("https://whitfield.example");
    await press(submitButton(dialog));
    await expect(form.getByLabel("Monthly Volume", { exact: true })).toBeFocused();
    expect(await mailDrafts(page)).toEqual([]);
  });
});

test.describe("submitting", { tag: "@one-width" }, () => {
  for (const type of TYPES) {
    test(`${type}: submitting state, the mail draft, the copy our server keeps, success after 1000 ms`, async ({ page }, testInfo) => {
      await captureMailDrafts(page);
      await page.clock.install({ time: new Date("2025-03-05T14:00:00-05:00") });
      await openHome(page);
      const { dialog } = await openRegistration(page);
      const form = await chooseType(dialog, type);
      await page.clock.pauseAt(new Date("2025-03-05T14:07:00-05:00"));
      const email = uniqueEmail(testInfo, STORED[type]);
      const values = registrationValues(type, email);
      await fillByLabel(form, values);
      const posted = page.waitForResponse((r) => r.url().endsWith(ACCOUNT_REQUESTS));
      await press(submitButton(dialog));

      // Submitting: every field and button disabled, a spinner and 'Submitting...'.
      const busy = dialog.getByRole("button", { name: "Submitting..." });
      await expect(busy).toBeDisabled();
      await expect(busy.locator("svg")).toBeVisible();
      await expect(dialog.getByRole("button", { name: "Back" })).toBeDisabled();
      for (const label of Object.keys(values)) await expect(form.getByLabel(label, { exact: true })).toBeDisabled();

      const draft = await theMailDraft(page);
      expect(draft.to).toBe(INFO_EMAIL);
      expect(draft.subject).toBe(`New ${LABEL[type]} Registration - Dana Whitfield`);
      expect(draft.body).toContain(`Email Address: ${email}`);
      expect(draft.body).toContain("Phone Number: (412) 555-0134");
      expect(draft.body).toContain(`Account Type: ${LABEL[type]}`);

      const response = await posted;
      expect(response.status()).toBe(201);
      expect(response.request().postDataJSON()).toMatchObject({
        source: "registration",
        accountType: STORED[type],
        firstName: "Dana",
        email,
        hp_website: "",
      });
      const stored = await expectStoredRequest(email);
      expect(stored.phone).toBe("+14125550134");
      expect(stored.subject).toBe(draft.subject);

      await page.clock.runFor(999);
      await expect(busy).toBeVisible();
      await page.clock.runFor(1);
      await expect(dialog.getByRole("heading", { name: "Registration Submitted!" })).toBeVisible();
      await expect(dialog.getByRole("button", { name: "Close", exact: true }).last()).toBeFocused();
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
    await page.route(`**${ACCOUNT_REQUESTS}`, (route) => route.abort("connectionrefused"));
    await openHome(page);
    const { dialog } = await openRegistration(page, "closing");
    const form = await chooseType(dialog, "Homeowner");
    await fillByLabel(form, registrationValues("Homeowner", uniqueEmail(testInfo, "refused")));
    await press(submitButton(dialog));
    await expect(dialog.getByRole("heading", { name: "Registration Submitted!" })).toBeVisible();
    expect((await theMailDraft(page)).subject).toBe("New Homeowner Registration - Dana Whitfield");
  });

  test("an exception shows the 'Registration Error' banner and keeps the form for another try", async ({ page }, testInfo) => {
    await captureMailDrafts(page, { fail: true });
    await openHome(page);
    const { dialog } = await openRegistration(page);
    const form = await chooseType(dialog, "Contractors & Call Buyers");
    await fillByLabel(form, registrationValues("Contractors & Call Buyers", uniqueEmail(testInfo, "error")));
    await press(submitButton(dialog));
    await expect(dialog.getByRole("alert")).toHaveText(
      "Registration ErrorAn error occurred while submitting your registration. Please try again.",
    );
    await expect(form.getByLabel("First Name", { exact: true })).toHaveValue("Dana");
    await expect(submitButton(dialog)).toBeEnabled();
  });
});

test.describe("accessibility", () => {
  test.use({ bypassCSP: true });

  async function check(page: Page, dialog: Locator, state: string): Promise<void> {
    await expectFocusTrapped(page, dialog);
    const { violations } = await axeViolations(page, ALL_RULES);
    expect(violations, `axe ${state}:\n${describeViolations(violations)}`).toEqual([]);
  }

  test("axe finds nothing and focus stays inside at every step", async ({ page }, testInfo) => {
    await captureMailDrafts(page);
    await openHome(page);
    const { dialog, opener } = await openRegistration(page);
    await check(page, dialog, "at the type choice");
    // The homeowner last: its form is submitted.
    for (const type of ["Contractors & Call Buyers", "Affiliate Partners", "Homeowner"] as const) {
      const form = await chooseType(dialog, type);
      await check(page, dialog, `on the ${type} form`);
      if (type !== "Homeowner") {
        await press(dialog.getByRole("button", { name: "Back" }));
        continue;
      }
      await fillByLabel(form, registrationValues(type, uniqueEmail(testInfo, "axe")));
      await press(submitButton(dialog));
      await expect(dialog.getByRole("heading", { name: "Registration Submitted!" })).toBeVisible();
      await check(page, dialog, "on the success panel");
      break;
    }
    await press(dialog.getByRole("button", { name: "Close", exact: true }).last());
    await expect(opener).toBeFocused();
  });
});
