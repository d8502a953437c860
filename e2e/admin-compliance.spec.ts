import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { addForm, addStaff, checkScreen, requestCallback, signIn } from "./support/admin";
import { execute, leadsByPhone } from "./support/db";
import { MAILDIR, MAIN_DB } from "./support/env";
import { waitForLeadMail } from "./support/leads";
import { readMaildir } from "./support/mail";
import { press, uniquePhone } from "./support/service";

// The staff console's compliance screens in a real browser, at the phone's and the desktop's
// width, against the real binary: a number put on the do-not-call list stops its lead's
// undelivered notification, shown on the lead's page with no Retry, and a Retry pressed on a
// page opened before sends nothing; an erased lead likewise; the do-not-call list a page at a
// time, and one number found typed another way; the account request list naming the person
// and the company. Each screen passes axe and is photographed.

/** "+14125550134" → "412.555.0134". */
function dotted(e164: string): string {
  const d = e164.slice(2);
  return `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6)}`;
}

/** A visitor's lead, delivered by e-mail, then given up as the worker gives up a delivery that
 * failed for 72 hours (the one step a browser test cannot wait for): returns its id. */
async function failedLead(page: Page, slug: string, name: string, phone: { input: string; e164: string }): Promise<string> {
  await requestCallback(page, slug, { name, phone: phone.input });
  const stored = (await leadsByPhone(MAIN_DB, phone.e164)).find((l) => l.service_slug === slug);
  expect(stored, "the lead is stored").toBeTruthy();
  const id = stored?.id ?? "";
  await waitForLeadMail(id);
  const changed = await execute(MAIN_DB, "UPDATE outbox SET status = 'failed', last_error = 'connection refused' WHERE lead_id = ?", [id]);
  expect(changed).toBe(1);
  return id;
}

/** How many e-mails the SMTP test server holds about a lead. */
async function mailsAbout(leadId: string): Promise<number> {
  return (await readMaildir(MAILDIR)).filter((m) => m.messageId.includes(leadId)).length;
}

test.describe("staff console: do-not-call list, erasure, account requests", { tag: "@one-width" }, () => {
  // axe is injected as a script, which the console's CSP would refuse.
  test.use({ bypassCSP: true });

  test("a listed number's or an erased lead's failed delivery is never sent, and its page says why", async ({
    page,
    context,
  }, testInfo) => {
    test.setTimeout(180_000);
    const email = `dnc-${testInfo.project.name}-${testInfo.repeatEachIndex}@ringready.example`;
    addStaff(email);
    const listed = uniquePhone(testInfo, 10);
    const erased = uniquePhone(testInfo, 11);
    const listedLead = await failedLead(page, "hvac", `Quinn Avery ${testInfo.project.name}`, listed);
    const erasedLead = await failedLead(page, "roofing", `Rae Holt ${testInfo.project.name}`, erased);
    await signIn(page, email);

    // Pages opened before anything changed, each offering Retry.
    const stale = await context.newPage();
    await stale.goto(`/admin/leads/${listedLead}`);
    await expect(stale.getByRole("button", { name: "Retry email" })).toBeVisible();
    const staleErased = await context.newPage();
    await staleErased.goto(`/admin/leads/${erasedLead}`);
    await expect(staleErased.getByRole("button", { name: "Retry email" })).toBeVisible();

    // The person asks not to be called: the number goes on the list, typed another way.
    await page.goto("/admin/suppressions");
    await addForm(page)
      .getByLabel("Phone")
      .fill(`+1 ${dotted(listed.e164).replaceAll(".", " ")}`);
    await addForm(page).getByLabel("Reason").fill("Asked not to be called");
    await press(page.getByRole("button", { name: "Add to the list" }));
    await expect(page).toHaveURL(/done=added&stopped=1/);
    await expect(page.getByText("1 notification(s) of its earlier leads that were not delivered yet never will be")).toBeVisible();

    await page.goto(`/admin/leads/${listedLead}`);
    await expect(page.getByText("On the do-not-call list", { exact: true })).toBeVisible();
    await expect(page.getByRole("cell", { name: "Not sent: on the do-not-call list" })).toBeVisible();
    await expect(page.getByRole("button", { name: /^Retry/ })).toHaveCount(0);
    await checkScreen(page, testInfo, "lead-suppressed");

    // Retry on the page opened before: nothing is sent, and the page says why.
    await press(stale.getByRole("button", { name: "Retry email" }));
    await expect(stale).toHaveURL(/done=suppressed/);
    await expect(
      stale.getByText("Not sent: the number is on the do-not-call list, so the delivery is marked suppressed.", { exact: true }),
    ).toBeVisible();

    // The other person asks to be forgotten.
    await page.goto(`/admin/data-requests?q=${encodeURIComponent(dotted(erased.e164))}`);
    await press(page.getByRole("button", { name: "Delete these records" }));
    await press(page.getByRole("button", { name: "Yes, delete" }));
    await expect(page).toHaveURL(/done=1\.0/);
    await page.goto(`/admin/leads/${erasedLead}`);
    await expect(page.getByText("Erased on request")).toBeVisible();
    await expect(page.getByRole("button", { name: /^Retry/ })).toHaveCount(0);
    await checkScreen(page, testInfo, "lead-erased");
    await press(staleErased.getByRole("button", { name: "Retry email" }));
    await expect(staleErased).toHaveURL(/done=erased/);
    await expect(
      staleErased.getByText("Not sent: this lead was erased on request, so nothing is sent for it.", { exact: true }),
    ).toBeVisible();

    // The worker runs all along (it polls every two seconds at the most): still only the
    // e-mail each lead got before.
    await page.waitForTimeout(3000);
    expect(await mailsAbout(listedLead)).toBe(1);
    expect(await mailsAbout(erasedLead)).toBe(1);
  });

  test("the do-not-call list pages newest first and finds a number typed any way", async ({ page }, testInfo) => {
    test.setTimeout(120_000);
    const email = `dnc-pages-${testInfo.project.name}-${testInfo.repeatEachIndex}@ringready.example`;
    addStaff(email);
    await signIn(page, email);
    await page.goto("/admin/suppressions");
    const csrf = await page.locator('input[name="csrf"]').first().inputValue();
    // 55 numbers, more than a page; the first one added ends up on a later page.
    const numbers = Array.from({ length: 55 }, (_, i) => uniquePhone(testInfo, 100 + i));
    for (const [i, n] of numbers.entries()) {
      const r = await page.request.post("/admin/suppressions", {
        form: { csrf, phone: n.input, reason: `Replied STOP ${i}` },
        maxRedirects: 0,
      });
      expect(r.status(), n.input).toBe(303);
    }
    await page.goto("/admin/suppressions");
    const rows = page.getByRole("region", { name: "Numbers not to call" }).locator("tbody tr");
    await expect(rows).toHaveCount(50);
    await expect(page.getByRole("link", { name: "Newest" })).toHaveCount(0);
    await checkScreen(page, testInfo, "suppressions-page-1");
    const oldest = numbers[0];
    const display = oldest.input;
    await expect(page.getByRole("cell", { name: display, exact: true })).toHaveCount(0);
    // Older pages until the first number added shows up.
    for (let pages = 1; (await page.getByRole("cell", { name: display, exact: true }).count()) === 0; pages += 1) {
      expect(pages, "found within a few pages").toBeLessThan(10);
      await press(page.getByRole("link", { name: "Older numbers" }));
      await expect(page).toHaveURL(/before=/);
      await expect(page.getByRole("link", { name: "Newest" })).toBeVisible();
    }
    await expect(page.getByRole("row").filter({ hasText: "Replied STOP 0" })).toHaveCount(1);
    await checkScreen(page, testInfo, "suppressions-older");

    // One number, typed as a person would: dotted, then with +1 and brackets.
    for (const typed of [dotted(oldest.e164), `+1 ${oldest.input}`]) {
      await page.getByRole("searchbox", { name: "Find a number" }).fill(typed);
      await press(page.getByRole("button", { name: "Find", exact: true }));
      await expect(page).toHaveURL(/phone=/);
      await expect(rows).toHaveCount(1);
      await expect(page.getByRole("cell", { name: display, exact: true })).toBeVisible();
    }
    await checkScreen(page, testInfo, "suppressions-found");
    await page.getByRole("searchbox", { name: "Find a number" }).fill("555-01");
    await press(page.getByRole("button", { name: "Find", exact: true }));
    await expect(page.getByRole("alert")).toContainText("is not a US phone number");
  });

  test("the account request list names the person, with the company beside it", async ({ page }, testInfo) => {
    test.setTimeout(120_000);
    const email = `names-${testInfo.project.name}-${testInfo.repeatEachIndex}@ringready.example`;
    addStaff(email);
    const tag = `${testInfo.project.name}${testInfo.repeatEachIndex}`;
    const homeowner = {
      source: "registration",
      accountType: "homeowner",
      firstName: "Dana",
      lastName: `Whitfield ${tag}`,
      email: `dana-${tag}@example.com`,
      phone: "(412) 555-0134",
      address: "118 Maple Street, Erie, PA 16501",
      propertyType: "single-family",
      serviceNeeds: "Roof leak over the kitchen.",
      hp_website: "",
    };
    const contractor = {
      source: "request",
      accountType: "call-buyer",
      firstName: "Luis",
      lastName: `Ortega ${tag}`,
      email: `luis-${tag}@ortegaroofing.example`,
      phone: "814-555-0177",
      companyName: `Ortega Roofing ${tag}`,
      businessType: "roofing",
      monthlyBudget: "2500-5000",
      serviceAreas: "Erie County, PA",
      hp_website: "",
    };
    for (const body of [homeowner, contractor]) {
      const r = await page.request.post("/api/account-requests", { data: body });
      expect(r.status()).toBe(201);
    }
    await signIn(page, email);
    await page.goto("/admin/account-requests");
    await expect(page.getByRole("cell", { name: `Dana Whitfield ${tag}`, exact: true })).toBeVisible();
    await expect(page.getByRole("cell", { name: `Luis Ortega ${tag} (Ortega Roofing ${tag})`, exact: true })).toBeVisible();
    await checkScreen(page, testInfo, "account-requests-names");
  });
});
