import type { Page, Request } from "@playwright/test";
import { expect, test } from "./fixtures";
import { certificateByToken } from "./support/db";
import { MAIN_DB, NOTIFY_RECIPIENT, TF_DB, TF_URL } from "./support/env";
import { expectStoredLead, waitForLeadMail } from "./support/leads";
import {
  callbackForm,
  expectHydrated,
  fillCallbackForm,
  fold,
  press,
  SLUGS,
  SUBMIT_LEAD,
  service,
  statusSheet,
  submitWithClock,
  uniquePhone,
} from "./support/service";
import { newCertificate, recordPosts, STAND_IN_RAN, serveStandIn } from "./support/trustedform";

// The callback request from the service landing page, in a real browser against the real
// server: end to end (the SQLite row with its consent wording, the e-mail, the page's answer),
// the consent certificate (TrustedForm stand-in) and every error message.
// docs/product.md, "The callback request" and "The API".

const RECORD_TOKEN = "/.netlify/functions/record-token";

/** What the callback test records inside the page. */
interface Timeline {
  __log: Array<{ t: number; disabled: boolean; text: string }>;
  __submittedAt: number;
  __fetches: Array<{ url: string; start: number; end: number; answer: unknown }>;
}

function jsonBody(request: Request): Record<string, unknown> {
  expect(request.headers()["content-type"]).toContain("application/json");
  return request.postDataJSON() as Record<string, unknown>;
}

// ---------------------------------------------------------------------------------------
// The callback request, end to end
// ---------------------------------------------------------------------------------------

test.describe("callback request", { tag: "@one-width" }, () => {
  for (const slug of SLUGS) {
    test(`/${slug}: a request is stored with its consent wording, e-mailed, and confirmed`, async ({ page }, testInfo) => {
      const svc = service(slug);
      const phone = uniquePhone(testInfo);
      const visitor = { name: `Dana Whitfield ${testInfo.project.name}`, phone: phone.input, zip: "15213" };
      await page.goto(`/${slug}`);
      await expectHydrated(page);
      const f = callbackForm(page);
      const consentShown = fold((await f.consentText.textContent()) ?? "");
      expect(consentShown).toContain("Request Callback");

      await fillCallbackForm(page, visitor);
      // Watch, from inside the page, the button, the moment of submit and the request.
      await f.form.evaluate((form) => {
        const button = form.querySelector<HTMLButtonElement>('[data-tf-element-role="submit"]');
        if (!button) throw new Error("no submit button");
        const w = window as unknown as Timeline & Window;
        w.__log = [];
        w.__fetches = [];
        const note = () => w.__log.push({ t: performance.now(), disabled: button.disabled, text: button.textContent ?? "" });
        form.addEventListener("submit", () => (w.__submittedAt = performance.now()), { capture: true });
        new MutationObserver(note).observe(button, { attributes: true, childList: true, characterData: true, subtree: true });
        const realFetch = window.fetch.bind(window);
        window.fetch = async (input, init) => {
          const entry: Timeline["__fetches"][number] = { url: String(input), start: performance.now(), end: 0, answer: null };
          w.__fetches.push(entry);
          const response = await realFetch(input, init);
          entry.end = performance.now();
          entry.answer = await response
            .clone()
            .json()
            .catch(() => null);
          return response;
        };
      });

      const requestPromise = page.waitForRequest((r) => r.method() === "POST" && r.url().endsWith(SUBMIT_LEAD));
      await press(f.submit);
      const request = await requestPromise;
      expect((await request.response())?.status()).toBe(201);

      const body = jsonBody(request);
      expect(body).toMatchObject({
        serviceSlug: slug,
        fullName: visitor.name,
        phone: visitor.phone,
        zipCode: visitor.zip,
        consent: true,
        trustedform_token: "",
        trustedform_ping: "",
        trustedform_cert_url: "",
      });
      expect(fold(String(body.tcpa_text))).toBe(consentShown);

      // Outcome on the page.
      await expect(f.success).toBeVisible();
      await expect(f.alert).toHaveCount(0);
      await expect(f.submit).toBeEnabled();
      await expect(f.submit).toHaveText("Request Callback");
      await expect(f.name).toHaveValue("");
      await expect(f.phone).toHaveValue("");
      await expect(f.zip).toHaveValue("");
      await expect(f.consent).not.toBeChecked();
      const sheet = statusSheet(page);
      await expect(sheet).toBeVisible();
      await expect(sheet.getByText("Callback status", { exact: true })).toBeVisible();
      await expect(page.getByRole("dialog")).toHaveAccessibleName(/^(We’re calling you now|Callback scheduled)$/);

      // The request goes out; the button turns 'Submitting…' and disabled before the answer
      // is in, and stays so until then. (That the certification script being off means no
      // wait at all is the next test's, with the clock stopped.)
      const timeline = await page.evaluate(() => {
        const w = window as unknown as Timeline;
        return { submittedAt: w.__submittedAt, log: w.__log, fetches: w.__fetches };
      });
      expect(timeline.fetches).toHaveLength(1);
      const [sent] = timeline.fetches;
      expect(sent.url).toBe(SUBMIT_LEAD);
      const answer = sent.answer as { id: string };
      expect(answer).toEqual({ id: expect.any(String) });
      expect(sent.start).toBeGreaterThanOrEqual(timeline.submittedAt);
      const firstChange = timeline.log[0];
      expect(firstChange).toMatchObject({ disabled: true, text: "Submitting…" });
      expect(firstChange.t, "'Submitting…' shows before the answer is in").toBeLessThanOrEqual(sent.end);
      const enabledAgain = timeline.log.find((e) => !e.disabled);
      expect(enabledAgain, "the button is enabled again after the answer").toBeTruthy();
      expect(enabledAgain?.t ?? 0).toBeGreaterThanOrEqual(sent.end);
      for (const e of timeline.log.filter((x) => x.t < (enabledAgain?.t ?? 0)))
        expect(e).toMatchObject({ disabled: true, text: "Submitting…" });

      // The stored lead carries exactly the wording the visitor saw.
      const lead = await expectStoredLead(MAIN_DB, phone.e164);
      expect(lead.id).toBe(answer.id);
      expect(lead).toMatchObject({ service_slug: slug, full_name: visitor.name, zip_code: visitor.zip, consent: 1, cert_url: null });
      expect(fold(lead.tcpa_text)).toBe(consentShown);
      expect(lead.page_url ?? "").toContain(`/${slug}`);

      // And staff get an e-mail for it.
      const mail = await waitForLeadMail(lead.id);
      expect(mail.to).toContain(NOTIFY_RECIPIENT);
      expect(mail.subject).toContain(svc.name);
      expect(mail.text).toContain(visitor.name);
      expect(mail.text).toContain(lead.id);
      expect(mail.text).toContain(phone.input);
    });
  }
});

test.describe("the wait for the certificate is a limit, not a delay", { tag: "@one-width" }, () => {
  // The page's clock is stopped at the tap: whatever happens next happens without any timer
  // of the page running, so a wait of even 100 ms would hold the request back.
  const MORNING = new Date("2025-03-05T10:00:00-05:00");
  const LATER = new Date("2025-03-05T10:05:00-05:00");
  test.use({ timezoneId: "America/New_York" });

  test("with the certification script off, the request goes out at once and the confirmation shows", async ({ page }, testInfo) => {
    const leadPosts = recordPosts(page, SUBMIT_LEAD);
    await page.clock.install({ time: MORNING });
    await page.goto("/roofing");
    await expectHydrated(page);
    await fillCallbackForm(page, { name: "Rosa Delgado", phone: uniquePhone(testInfo).input });
    await page.clock.pauseAt(LATER);
    const f = callbackForm(page);
    await press(f.submit);
    await expect(f.success).toBeVisible();
    expect(leadPosts).toHaveLength(1);
    expect(jsonBody(leadPosts[0])).toMatchObject({ serviceSlug: "roofing", trustedform_token: "", trustedform_cert_url: "" });
  });

  test("with it on, the request goes out the moment the token appears, not at the next look", async ({ page }, testInfo) => {
    const cert = newCertificate();
    // The script is held until after the tap; it then adds its fields 250 ms later, between
    // two of the page's looks (every 100 ms from the tap).
    const standIn = await serveStandIn(page, { cert, delayMs: 250, hold: true });
    const leadPosts = recordPosts(page, SUBMIT_LEAD);
    await page.clock.install({ time: MORNING });
    await page.goto(`${TF_URL}/decks`);
    await expectHydrated(page);
    await expect.poll(() => standIn.requested.length).toBe(1);
    await fillCallbackForm(page, { name: "Rosa Delgado", phone: uniquePhone(testInfo).input });
    await page.clock.pauseAt(LATER);
    const f = callbackForm(page);
    await press(f.submit);
    await expect(f.submit).toHaveText("Submitting…");
    standIn.release();
    await expect.poll(() => page.evaluate((flag) => flag in window, STAND_IN_RAN)).toBe(true);
    await page.clock.runFor(249);
    await expect(f.form.locator('input[name="xxTrustedFormCertUrl"]')).toHaveCount(0);
    expect(leadPosts, "nothing is sent while the token is missing").toHaveLength(0);
    await page.clock.runFor(1);
    // The clock stands at 250 ms: the next look would be at 300.
    await expect(f.success).toBeVisible();
    expect(leadPosts).toHaveLength(1);
    expect(jsonBody(leadPosts[0])).toMatchObject({
      serviceSlug: "decks",
      trustedform_token: cert.token,
      trustedform_cert_url: cert.certUrl,
    });
  });
});

// ---------------------------------------------------------------------------------------
// The consent certificate (server with TRUSTEDFORM_ENABLED=true, stand-in script)
// ---------------------------------------------------------------------------------------

test.describe("consent certificate", { tag: "@one-width" }, () => {
  test("the token is recorded once when it appears, and a later submit carries it", async ({ page }, testInfo) => {
    const cert = newCertificate();
    const standIn = await serveStandIn(page, { cert, delayMs: 600 });
    const tokenPosts = recordPosts(page, RECORD_TOKEN);
    const leadPosts = recordPosts(page, SUBMIT_LEAD);
    await page.goto(`${TF_URL}/plumbing`);
    await expectHydrated(page);

    // The page asked for the script with the field names it reads.
    await expect.poll(() => standIn.requested.length).toBe(1);
    const scriptUrl = new URL(standIn.requested[0]);
    expect(scriptUrl.origin + scriptUrl.pathname).toBe("https://api.trustedform.com/trustedform.js");
    expect(scriptUrl.searchParams.get("field")).toBe("xxTrustedFormCertUrl");
    expect(scriptUrl.searchParams.get("ping_field")).toBe("xxTrustedFormPingUrl");

    await expect.poll(() => tokenPosts.length, { timeout: 10_000 }).toBe(1);
    const post = tokenPosts[0];
    const body = jsonBody(post);
    expect(Object.keys(body).sort()).toEqual(["certUrl", "ping", "serviceSlug", "token"]);
    expect(body).toEqual({ token: cert.token, ping: cert.ping, serviceSlug: "plumbing", certUrl: cert.certUrl });
    expect((await post.response())?.status()).toBe(204);
    expect(await certificateByToken(TF_DB, cert.token)).toEqual([
      { token: cert.token, ping_url: cert.ping, cert_url: cert.certUrl, service_slug: "plumbing" },
    ]);

    // A submit after the token is there sends it without waiting.
    const phone = uniquePhone(testInfo);
    await fillCallbackForm(page, { name: "Priya Raman", phone: phone.input });
    const f = callbackForm(page);
    await press(f.submit);
    await expect(f.success).toBeVisible();
    expect(leadPosts).toHaveLength(1);
    expect(jsonBody(leadPosts[0])).toMatchObject({
      trustedform_token: cert.token,
      trustedform_ping: cert.ping,
      trustedform_cert_url: cert.certUrl,
    });
    const lead = await expectStoredLead(TF_DB, phone.e164);
    expect(lead).toMatchObject({ cert_url: cert.certUrl, cert_token: cert.token, cert_ping_url: cert.ping });
    // Still one token post, seconds later.
    expect(tokenPosts).toHaveLength(1);
  });

  test("a submit made before the token appears waits for it, then sends it", async ({ page }, testInfo) => {
    const cert = newCertificate();
    // The script's answer is held until the visitor has pressed submit.
    const standIn = await serveStandIn(page, { cert, delayMs: 600, hold: true });
    const tokenPosts = recordPosts(page, RECORD_TOKEN);
    const leadPosts = recordPosts(page, SUBMIT_LEAD);
    await page.goto(`${TF_URL}/solar`, { waitUntil: "domcontentloaded" });
    await expectHydrated(page);
    await expect.poll(() => standIn.requested.length).toBe(1);

    const phone = uniquePhone(testInfo);
    await fillCallbackForm(page, { name: "Tomás Álvarez", phone: phone.input, zip: "16501" });
    const f = callbackForm(page);
    await press(f.submit);
    await expect(f.submit).toHaveText("Submitting…");
    await expect(f.submit).toBeDisabled();
    expect(await f.form.locator('input[name="xxTrustedFormCertUrl"]').count()).toBe(0);
    expect(leadPosts, "nothing is sent while the token is missing").toHaveLength(0);

    standIn.release();
    await expect(f.form.locator('input[name="xxTrustedFormCertUrl"]')).toHaveCount(1);
    await expect(f.success).toBeVisible();
    expect(leadPosts).toHaveLength(1);
    expect(jsonBody(leadPosts[0])).toMatchObject({
      serviceSlug: "solar",
      trustedform_token: cert.token,
      trustedform_ping: cert.ping,
      trustedform_cert_url: cert.certUrl,
    });
    const lead = await expectStoredLead(TF_DB, phone.e164);
    expect(lead).toMatchObject({ cert_url: cert.certUrl, cert_token: cert.token, cert_ping_url: cert.ping, full_name: "Tomás Álvarez" });
    await expect.poll(() => tokenPosts.length, { timeout: 10_000 }).toBe(1);
    expect(jsonBody(tokenPosts[0])).toEqual({ token: cert.token, ping: cert.ping, serviceSlug: "solar", certUrl: cert.certUrl });
  });

  test("when the script never certifies, the submit goes out after 2.5 s with empty certificate fields", async ({ page }, testInfo) => {
    await serveStandIn(page, { cert: null });
    const tokenPosts = recordPosts(page, RECORD_TOKEN);
    await page.goto(`${TF_URL}/hvac`);
    await expectHydrated(page);
    const phone = uniquePhone(testInfo);
    await fillCallbackForm(page, { name: "Lee Okafor", phone: phone.input });
    const f = callbackForm(page);
    const started = Date.now();
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.method() === "POST" && r.url().endsWith(SUBMIT_LEAD)),
      press(f.submit),
    ]);
    expect(Date.now() - started, "the page waited for the token").toBeGreaterThanOrEqual(2_400);
    expect(jsonBody(request)).toMatchObject({ trustedform_token: "", trustedform_ping: "", trustedform_cert_url: "" });
    await expect(f.success).toBeVisible();
    const lead = await expectStoredLead(TF_DB, phone.e164);
    expect(lead).toMatchObject({ cert_url: null, cert_token: null, cert_ping_url: null });
    expect(tokenPosts, "no token, nothing recorded").toHaveLength(0);
  });
});

// ---------------------------------------------------------------------------------------
// Every callback error message (docs/product.md, "The callback request")
// ---------------------------------------------------------------------------------------

test.describe("callback errors", { tag: "@one-width" }, () => {
  const cases: Array<{
    title: string;
    slug: string;
    phone?: string;
    route?: (page: Page) => Promise<unknown>;
    message: string;
    console: RegExp;
  }> = [
    {
      title: "the server's JSON error for a number it refuses",
      slug: "plumbing",
      phone: "123",
      message: "Please enter a valid US phone number, including the area code.",
      console: /^Failed to load resource: the server responded with a status of 400 \(Bad Request\)$/,
    },
    {
      title: "'Submit failed' for a JSON error answer without an error field",
      slug: "solar",
      route: (page) =>
        page.route(`**${SUBMIT_LEAD}`, (route) =>
          route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify({ message: "boom" }) }),
        ),
      message: "Submit failed",
      console: /^Failed to load resource: the server responded with a status of 500 \(Internal Server Error\)$/,
    },
    {
      title: "'Submit failed' for a JSON error answer with an empty error field",
      slug: "hvac",
      route: (page) =>
        page.route(`**${SUBMIT_LEAD}`, (route) =>
          route.fulfill({ status: 422, contentType: "application/json", body: JSON.stringify({ error: "" }) }),
        ),
      message: "Submit failed",
      console: /^Failed to load resource: the server responded with a status of 422 \(Unprocessable (Content|Entity)\)$/,
    },
    {
      title: "the status for a non-JSON answer",
      slug: "bathroom-remodeling",
      route: (page) =>
        page.route(`**${SUBMIT_LEAD}`, (route) =>
          route.fulfill({ status: 502, contentType: "text/html", body: "<html><body><h1>502 Bad Gateway</h1></body></html>" }),
        ),
      message: "502 Bad Gateway",
      console: /^Failed to load resource: the server responded with a status of 502 \(Bad Gateway\)$/,
    },
    {
      title: "the thrown error's message when the request fails",
      slug: "plumbing",
      route: (page) => page.route(`**${SUBMIT_LEAD}`, (route) => route.abort("failed")),
      message: "Failed to fetch",
      console: /^Failed to load resource: net::ERR_FAILED$/,
    },
  ];

  for (const c of cases) {
    test(`shows ${c.title}, in red`, async ({ page, consoleProblems }, testInfo) => {
      consoleProblems.allow(c.console);
      await page.clock.install();
      if (c.route) await c.route(page);
      await page.goto(`/${c.slug}`);
      await expectHydrated(page);
      const visitor = { name: "Sam Keller", phone: c.phone ?? uniquePhone(testInfo).input, zip: "44101" };
      await fillCallbackForm(page, visitor);
      const f = callbackForm(page);
      await submitWithClock(page);
      await expect(f.alert).toHaveText(c.message);
      await expect(f.alert).toBeVisible();
      const color = await f.alert.evaluate((el) => getComputedStyle(el).color);
      const [r, g, b] = (color.match(/\d+/g) ?? []).map(Number);
      expect(r, `red text (${color})`).toBeGreaterThan(150);
      expect(g).toBeLessThan(80);
      expect(b).toBeLessThan(80);

      // No success, no sheet; the form keeps what was typed and can be sent again.
      await expect(f.success).toHaveCount(0);
      await expect(statusSheet(page)).toHaveCount(0);
      await expect(f.submit).toBeEnabled();
      await expect(f.submit).toHaveText("Request Callback");
      await expect(f.name).toHaveValue(visitor.name);
      await expect(f.phone).toHaveValue(visitor.phone);
      await expect(f.consent).toBeChecked();
    });
  }
});
