import { expect, test } from "./fixtures";
import { MAIN_DB } from "./support/env";
import { expectStoredLead, waitForLeadMail } from "./support/leads";
import { callbackForm, fillCallbackForm, fold, phoneFor, press, SUBMIT_LEAD, SUCCESS_MESSAGE, uniquePhone } from "./support/service";

// The service landing page without JavaScript: plain tel: links, and the callback form posts
// to the server, lands on the thank-you page, and the lead is stored and e-mailed.
// docs/product.md, "A service page" and "The callback request".

test(
  "without JavaScript the form posts to the server, lands on the thank-you page, and the lead is stored",
  { tag: "@one-width" },
  async ({ newContext }, testInfo) => {
    const context = await newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/solar");
    await expect(page.locator("html")).not.toHaveAttribute("data-hydrated", "true");

    // Call links are plain tel: links.
    const links = page.locator('a[href^="tel:"]');
    expect(await links.count()).toBeGreaterThan(0);
    for (const link of await links.all()) {
      await expect(link).toHaveAttribute("href", phoneFor("solar").tel);
      expect(await link.evaluate((a) => a.getAttributeNames().filter((n) => n.startsWith("on")))).toEqual([]);
    }

    const f = callbackForm(page);
    await expect(f.form).toHaveAttribute("method", "post");
    await expect(f.form).toHaveAttribute("action", SUBMIT_LEAD);
    const consentShown = fold((await f.consentText.textContent()) ?? "");
    const phone = uniquePhone(testInfo);
    const visitor = { name: "Ruth Abernathy", phone: phone.input, zip: "19103" };
    await fillCallbackForm(page, visitor);
    await press(f.submit);
    await page.waitForURL((url) => url.pathname === "/callback-requested");
    expect(new URL(page.url()).searchParams.get("service")).toBe("solar");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(SUCCESS_MESSAGE);
    await expect(page.locator('a[href^="tel:"]').first()).toHaveAttribute("href", phoneFor("solar").tel);

    const lead = await expectStoredLead(MAIN_DB, phone.e164);
    expect(lead).toMatchObject({ service_slug: "solar", full_name: visitor.name, zip_code: visitor.zip, consent: 1 });
    expect(fold(lead.tcpa_text)).toBe(consentShown);
    const mail = await waitForLeadMail(lead.id);
    expect(mail.text).toContain(visitor.name);
  },
);
