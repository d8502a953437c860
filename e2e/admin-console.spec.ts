import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { expect, test } from "./fixtures";
import { addForm, addStaff, checkScreen, expectAccessible, PASSWORD, requestCallback } from "./support/admin";
import { leadsByPhone, query } from "./support/db";
import { MAILDIR, MAIN_DB } from "./support/env";
import { waitForLeadMail } from "./support/leads";
import { readMaildir } from "./support/mail";
import { press, uniquePhone } from "./support/service";

// The staff console end to end, against the real binary and its SQLite file: a staff account
// made with `site staff add` (password on standard input), a visitor's callback request on
// /hvac, then the staff member signs in, finds the lead by its phone typed in another format,
// opens its consent record, exports the list as CSV, puts the number on the do-not-call
// list (the next lead from it is stored but never e-mailed) and signs out. Every console
// screen passes axe and is photographed at the project's width.

/**
 * Leads of the last 20 days straight into the server's database, as the intake would have
 * stored them, with notifications delivered 2 s to 9 min after arrival (one transaction, so
 * the outbox worker never sees them pending). The database's triggers count them by day.
 */
function seedFunnel(tag: string): void {
  const script = `
import sqlite3, sys, time
path, tag = sys.argv[1], sys.argv[2]
db = sqlite3.connect(path, timeout=30)
now = int(time.time() * 1000)
services = ["hvac", "roofing", "plumbing", "electrician", "pest-control", "siding", "flooring"]
with db:
    db.execute("INSERT OR IGNORE INTO consent_texts (sha256, text, first_seen_ms) VALUES ('e2e-funnel', 'I agree.', 0)")
    for i in range(60):
        at = now - (i % 20) * 86400000 - i * 60000
        lead = "funnel-%s-%02d" % (tag, i)
        utm = ("e2e-" + tag) if i % 3 == 0 else None
        ref = "https://www.yelp.com/biz/x" if i % 3 == 1 else None
        db.execute("INSERT INTO leads (id, received_at_ms, service_slug, full_name, phone_e164, consent, consent_sha256, page_url, referrer, utm_source) "
                   "VALUES (?, ?, ?, 'Funnel Person', ?, 1, 'e2e-funnel', 'https://www.ringready.example/hvac', ?, ?)",
                   (lead, at, services[i % 7 if i % 2 else 0], "+1412%07d" % (8000000 + i), ref, utm))
        cur = db.execute("INSERT INTO outbox (lead_id, channel, status, attempts, next_attempt_ms, created_ms) VALUES (?, 'email', 'pending', 0, ?, ?)", (lead, at, at))
        db.execute("UPDATE outbox SET status = 'delivered', attempts = 1, delivered_ms = ? WHERE id = ?", (at + 2000 + (i * 9137) % 540000, cur.lastrowid))
`;
  execFileSync("python3", ["-c", script, MAIN_DB, tag]);
}

/** "+14125550134" → "412.555.0134": the same number as a person might type it. */
function dotted(e164: string): string {
  const d = e164.slice(2);
  return `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6)}`;
}

test.describe("staff console", () => {
  // axe is injected as a script, which the console's CSP would refuse.
  test.use({ bypassCSP: true, acceptDownloads: true });

  test(
    "a staff member finds a new lead, reads its consent record, exports it, suppresses the number and signs out",
    { tag: "@one-width" },
    async ({ page }, testInfo) => {
      test.setTimeout(180_000);
      const email = `staff-${testInfo.project.name}-${testInfo.repeatEachIndex}@ringready.example`;
      expect(addStaff(email)).toContain(email);

      // A visitor asks for a callback on /hvac; the lead is stored and e-mailed.
      const phone = uniquePhone(testInfo);
      const visitorName = `Morgan Ellery ${testInfo.project.name}`;
      await requestCallback(page, "hvac", { name: visitorName, phone: phone.input });
      const [stored] = await leadsByPhone(MAIN_DB, phone.e164);
      expect(stored.full_name).toBe(visitorName);
      await waitForLeadMail(stored.id);

      // Sign in.
      await page.goto("/admin/leads");
      await expect(page).toHaveURL(/\/admin\/login\?next=/);
      await expect(page.getByRole("heading", { name: "Staff sign-in" })).toBeVisible();
      await checkScreen(page, testInfo, "login");
      await page.getByLabel("E-mail address").fill(email);
      await page.getByLabel("Password").fill(PASSWORD);
      await press(page.getByRole("button", { name: "Sign in" }));
      await expect(page).toHaveURL(/\/admin\/leads$/);
      await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();

      // Find the lead by its phone typed another way.
      await page.getByRole("searchbox", { name: "Phone" }).fill(dotted(phone.e164));
      await press(page.getByRole("button", { name: "Search" }));
      await expect(page).toHaveURL(/phone=/);
      const row = page.getByRole("row").filter({ hasText: visitorName });
      await expect(row).toHaveCount(1);
      await expect(row.locator(`a[href="tel:${phone.e164}"]`)).toHaveCount(1);
      await checkScreen(page, testInfo, "leads");

      // Export the list as it is filtered.
      const downloading = page.waitForEvent("download");
      await press(page.getByRole("link", { name: "Export these leads (CSV)" }));
      const download = await downloading;
      expect(download.suggestedFilename()).toBe("leads.csv");
      const csv = readFileSync(await download.path(), "utf8");
      const lines = csv.split("\r\n");
      expect(lines[0]).toBe(`Lead id,Received (UTC),Received (America/New_York),Service,Name,Phone,ZIP,Delivery status`);
      expect(lines).toHaveLength(3); // header, the lead, and the empty string after the last CRLF
      expect(lines[1]).toMatch(
        new RegExp(`^${stored.id},\\d{4}-\\d\\d-\\d\\dT[^,]+Z,[^,]+,hvac,${visitorName},'\\${phone.e164},15213,(delivered|pending)$`),
      );

      // Its consent record.
      await press(row.getByRole("link").first());
      await expect(page).toHaveURL(new RegExp(`/admin/leads/${stored.id}$`));
      await expect(page.getByRole("heading", { name: "Consent record" })).toBeVisible();
      await expect(page.getByText(stored.tcpa_text, { exact: true })).toBeVisible();
      await expect(page.getByText("Morgan Ellery").first()).toBeVisible();
      await expect(page.getByRole("button", { name: "Copy the wording's SHA-256" })).toBeVisible();
      await checkScreen(page, testInfo, "lead");

      // Put the number on the do-not-call list, typed yet another way.
      await press(page.getByRole("link", { name: "Do not call" }));
      await expect(page).toHaveURL(/\/admin\/suppressions$/);
      await addForm(page).getByLabel("Phone").fill(phone.e164.slice(2));
      await addForm(page).getByLabel("Reason").fill("Replied STOP");
      await press(page.getByRole("button", { name: "Add to the list" }));
      await expect(page).toHaveURL(/done=added/);
      await expect(page.getByRole("cell", { name: "Replied STOP" })).toBeVisible();
      await checkScreen(page, testInfo, "suppressions");

      // The next lead from that number is stored, marked suppressed, and never e-mailed; a
      // lead from another number sent after it is e-mailed as usual.
      const other = uniquePhone(testInfo, 1);
      await requestCallback(page, "plumbing", { name: `${visitorName} again`, phone: phone.input });
      await requestCallback(page, "plumbing", { name: `Riley Other ${testInfo.project.name}`, phone: other.input });
      const suppressed = (await leadsByPhone(MAIN_DB, phone.e164)).find((l) => l.service_slug === "plumbing");
      expect(suppressed, "the second lead is stored").toBeTruthy();
      const [after] = await leadsByPhone(MAIN_DB, other.e164);
      await waitForLeadMail(after.id);
      const status = await query<{ delivery_status: string; rows: number }>(
        MAIN_DB,
        "SELECT delivery_status, (SELECT COUNT(*) FROM outbox o WHERE o.lead_id = l.id) AS rows FROM leads l WHERE id = ?",
        [suppressed?.id ?? ""],
      );
      expect(status).toEqual([{ delivery_status: "suppressed", rows: 0 }]);
      const mails = await readMaildir(MAILDIR);
      expect(mails.filter((m) => m.messageId.includes(suppressed?.id ?? "-") || m.text.includes(`${visitorName} again`))).toEqual([]);

      // The other screens: each passes axe, and looks right.
      await page.goto("/admin/account-requests");
      await expect(page.getByRole("heading", { name: "Account requests", level: 1 })).toBeVisible();
      await checkScreen(page, testInfo, "account-requests");
      await page.goto("/admin/applications");
      await expect(page.getByRole("heading", { name: "Applications", level: 1 })).toBeVisible();
      await checkScreen(page, testInfo, "applications");
      await page.goto(`/admin/data-requests?q=${encodeURIComponent(phone.input)}`);
      await expect(page.getByRole("button", { name: "Delete these records" })).toBeVisible();
      await checkScreen(page, testInfo, "data-requests");
      await page.goto("/admin/health");
      await expect(page.getByRole("heading", { name: "Lead notifications" })).toBeVisible();
      await expect(page.getByRole("heading", { name: "Deliveries in the last 24 hours" })).toBeVisible();
      await expect(page.getByRole("row", { name: /email: delivered/ })).toBeVisible();
      await checkScreen(page, testInfo, "health");
      await page.goto("/admin/audit");
      const mine = page.getByRole("row").filter({ hasText: email });
      for (const action of ["login", "export", "view_consent", "suppress"]) {
        await expect(mine.filter({ has: page.getByRole("cell", { name: action, exact: true }) }).first()).toBeVisible();
      }
      await checkScreen(page, testInfo, "audit");

      // Sign out: the console is closed again.
      await press(page.getByRole("button", { name: "Sign out" }));
      await expect(page).toHaveURL(/\/admin\/login$/);
      await page.goto("/admin/leads");
      await expect(page).toHaveURL(/\/admin\/login\?next=/);
    },
  );

  test("the first screen is the funnel: charts of leads per day with their figures in tables, at this width", async ({
    page,
  }, testInfo) => {
    test.setTimeout(120_000);
    const email = `funnel-${testInfo.project.name}-${testInfo.repeatEachIndex}@ringready.example`;
    addStaff(email);
    const tag = `${testInfo.project.name}${testInfo.repeatEachIndex}`;
    seedFunnel(tag);
    await page.goto("/admin/login");
    await page.getByLabel("E-mail address").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await press(page.getByRole("button", { name: "Sign in" }));
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole("heading", { name: "Funnel", level: 1 })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Funnel" })).toHaveAttribute(
      "aria-current",
      "page",
    );
    await expect(page.getByRole("link", { name: "Last 30 days" })).toHaveAttribute("aria-current", "page");

    // Two charts, each one named image that fits the page's width.
    const charts = page.getByRole("img", { name: /Leads per day by/ });
    await expect(charts).toHaveCount(2);
    const width = page.viewportSize()?.width ?? 0;
    for (const chart of await charts.all()) {
      const box = await chart.boundingBox();
      expect(box && box.width > 200 && box.x >= 0 && box.x + box.width <= width).toBe(true);
      // One path per series, each a piece of many days' columns.
      const pieces = (
        await chart.locator("path").evaluateAll((ps) => ps.map((p) => (p.getAttribute("d") ?? "").split("M").length - 1))
      ).reduce((a, b) => a + b, 0);
      expect(pieces).toBeGreaterThan(20);
    }
    await expect(page.getByRole("list", { name: "Leads per day by source: totals" })).toContainText(`e2e-${tag}`);
    await expect(page.getByRole("list", { name: "Leads per day by source: totals" })).toContainText("yelp.com");
    await expect(page.getByRole("list", { name: "Leads per day by service: totals" })).toContainText("Other");

    // The figures beside each chart: a table of every day, opened without JavaScript.
    const figures = page.locator("summary", { hasText: "Figures per day" }).first();
    await press(figures);
    const table = page.getByRole("table", { name: "Leads per day by service" });
    await expect(table).toBeVisible();
    await expect(table.getByRole("row")).toHaveCount(31);
    await expect(table.getByRole("columnheader", { name: "Within a minute" })).toBeVisible();
    // Open, the table scrolls inside its box: the page itself never scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

    // The slowest deliveries, each a link to its lead.
    const slowest = page.getByRole("region", { name: "Slowest deliveries" });
    await expect(slowest.getByRole("row")).toHaveCount(11);
    await expect(slowest.getByRole("link").first()).toHaveAttribute("href", /^\/admin\/leads\//);
    await checkScreen(page, testInfo, "funnel");

    await press(page.getByRole("link", { name: "Last 90 days" }));
    await expect(page).toHaveURL(/\/admin\?days=90$/);
    await expect(page.getByText(/^The last 90 days:/)).toBeVisible();
    await checkScreen(page, testInfo, "funnel-90");
    // The leads list is one link away.
    await press(page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Leads" }));
    await expect(page).toHaveURL(/\/admin\/leads$/);
  });

  test(
    "deleting asks first once the page is live, and the form still posts without JavaScript",
    { tag: "@one-width" },
    async ({ browser }, testInfo) => {
      test.setTimeout(120_000);
      const email = `confirm-${testInfo.project.name}-${testInfo.repeatEachIndex}@ringready.example`;
      addStaff(email);
      for (const javaScriptEnabled of [true, false]) {
        const context = await browser.newContext({ ...testInfo.project.use, javaScriptEnabled, bypassCSP: true });
        const page = await context.newPage();
        await page.goto("/admin/login");
        await page.getByLabel("E-mail address").fill(email);
        await page.getByLabel("Password").fill(PASSWORD);
        await press(page.getByRole("button", { name: "Sign in" }));
        await expect(page).toHaveURL(/\/admin$/);
        const number = uniquePhone(testInfo, javaScriptEnabled ? 2 : 3);
        await page.goto("/admin/suppressions");
        await addForm(page).getByLabel("Phone").fill(number.input);
        await addForm(page).getByLabel("Reason").fill("Asked by phone");
        await press(page.getByRole("button", { name: "Add to the list" }));
        await expect(page).toHaveURL(/done=added/);
        const remove = page.getByRole("button", { name: `Remove ${number.input} from the list` });
        await expect(remove).toBeVisible();
        if (javaScriptEnabled) {
          await press(remove);
          const ask = page.getByRole("group", { name: `Call ${number.input} again?` });
          await expect(ask).toBeVisible();
          await expect(page.getByRole("button", { name: "Yes, remove" })).toBeFocused();
          await expectAccessible(page, "the removal question");
          await press(ask.getByRole("button", { name: "Cancel" }));
          await expect(remove).toBeFocused();
          await press(remove);
          await press(page.getByRole("button", { name: "Yes, remove" }));
        } else {
          await press(remove);
        }
        await expect(page).toHaveURL(/done=removed/);
        await expect(page.getByRole("button", { name: `Remove ${number.input} from the list` })).toHaveCount(0);
        await context.close();
      }
    },
  );
});
