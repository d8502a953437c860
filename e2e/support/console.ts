import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { ASCENT_EM, DESCENT_EM, textWidth } from "../../client/features/admin/chartFrame";
import { formatNumber } from "../../client/lib/format";
import { execute, query } from "./db";
import { CONSOLE_DB, repoRoot, resultsDir } from "./env";

// The staff console as the layout gate sees it: the console's routes as its router lists them
// (each screen's `routes()` in server/src/admin/, and `table()` in its mod.rs), and a month of leads seeded once per run with the real
// `site seed` command, in the database of the gate's own console server (CONSOLE_URL).

const SITE = join(repoRoot, "target", "debug", "site");
const ADMIN_DIR = join(repoRoot, "server", "src", "admin");
const ADMIN_ROUTER = join(ADMIN_DIR, "mod.rs");
const ADMIN_LINKS = join(ADMIN_DIR, "links.rs");

/** The console's paths (as the router names them: `{id}` for a record's id) that answer GET
 * with a page: the routes of every screen's `routes()` and of the router's own `table()`, and
 * those it adds beside the table (the sign-in page); data (CSV, JSON) left out. Read from the
 * console's source, so that a screen added there is known here without anyone listing it
 * twice. */
export function consolePageRoutes(): string[] {
  const source = readFileSync(ADMIN_ROUTER, "utf8");
  const constants = new Map<string, string>();
  for (const m of readFileSync(ADMIN_LINKS, "utf8").matchAll(/pub const ([A-Z_]+): &str = "([^"]*)";/g)) constants.set(m[1], m[2]);
  const path = (token: string): string => {
    if (token.startsWith('"')) return token.slice(1, -1);
    const value = constants.get(token);
    if (value === undefined) throw new Error(`the console's router names the path ${token}, which links.rs does not define`);
    return value;
  };
  const own = /fn table\(\)[^{]*\{([\s\S]*?)\n\}/.exec(source)?.[1];
  if (!own) throw new Error(`no fn table() in ${ADMIN_ROUTER}: update consolePageRoutes to the router's new shape`);
  const screens = readdirSync(ADMIN_DIR)
    .filter((f) => f.endsWith(".rs") && f !== "mod.rs")
    .map((f) => /\npub fn routes\(\)[^{]*\{([\s\S]*?)\n\}/.exec(readFileSync(join(ADMIN_DIR, f), "utf8"))?.[1])
    .filter((body): body is string => body !== undefined);
  if (screens.length === 0) throw new Error(`no screen's fn routes() in ${ADMIN_DIR}: update consolePageRoutes to the console's new shape`);
  const table = [own, ...screens].join("\n");
  const entries = Array.from(table.matchAll(/\(Method::(\w+),\s*([A-Z_]+|"[^"]*")\s*,/g));
  const listed = table.split("(Method::").length - 1;
  if (entries.length !== listed || listed === 0)
    throw new Error(`read ${entries.length} of the ${listed} routes in the router's table: update consolePageRoutes to its new shape`);
  const gets = entries.filter((m) => m[1] === "GET").map((m) => path(m[2]));
  // Routes added beside the table with a GET handler (the sign-in page).
  const beside = Array.from(source.matchAll(/\.route\(\s*([A-Z_]+|"[^"]*")\s*,\s*get\(/g)).map((m) => path(m[1]));
  return [...new Set([...beside, ...gets])].filter((p) => !/\.(csv|json)$/.test(p));
}

/** What `seedMonthOnce` seeded. */
export interface SeededConsole {
  /** One seeded lead of each delivery status (delivered, failed, pending, suppressed, …). */
  leadIds: string[];
  /** A seeded lead's phone number. */
  phone: string;
}

const SEED_DIR = join(resultsDir, "layout-console-seed");
const SEED_DONE = join(SEED_DIR, "done");

function seed(args: string[]): void {
  execFileSync(SITE, ["seed", ...args], { cwd: repoRoot, env: { ...process.env, DATABASE_URL: `sqlite:${CONSOLE_DB}` }, encoding: "utf8" });
}

/** The id of the account request stored for `email` on the console's server. */
export async function accountRequestId(email: string): Promise<string> {
  const rows = await query<{ id: string }>(CONSOLE_DB, "SELECT id FROM submissions WHERE kind = 'account_request' AND email = ?", [
    email.toLowerCase(),
  ]);
  if (rows.length !== 1) throw new Error(`${rows.length} account requests stored for ${email}`);
  return rows[0].id;
}

/** A campaign's UTM source as long as the funnel keeps one (60 characters), with nowhere a
 * line may break. */
export const LONG_SOURCE = "spring_newsletter_for_homeowners_in_the_south_hills_2026_iss";

/**
 * A month of leads in the default server's database, seeded by whichever test asks first (the
 * others wait for it): 3,000 leads spread over the last 30 days, 100 a day, and 3,000 more on
 * a busy day, yesterday, each with its e-mail notification. The funnel's busiest day then has
 * about 3,100 leads whatever the time of the run, and its charts' axis goes up to 5,000. Then 40 leads over the month from a newsletter whose long UTM source is
 * among the five busiest, so the source chart's legend names it (written straight into the
 * table, as `site seed` writes, through the table's triggers).
 */
export async function seedMonthOnce(): Promise<SeededConsole> {
  mkdirSync(resultsDir, { recursive: true });
  let mine = true;
  try {
    mkdirSync(SEED_DIR);
  } catch {
    mine = false;
  }
  if (mine) {
    try {
      await seedMonth();
      writeFileSync(SEED_DONE, "");
    } catch (e) {
      // The tests waiting for the leads fail with the reason, at once.
      writeFileSync(SEED_DONE, `seeding the console's leads failed: ${e}`);
      throw e;
    }
  } else {
    const deadline = Date.now() + 60_000;
    while (!existsSync(SEED_DONE)) {
      if (Date.now() > deadline) throw new Error("the console's leads were not seeded within 60 s");
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const failed = readFileSync(SEED_DONE, "utf8");
    if (failed) throw new Error(failed);
  }
  const leads = await query<{ id: string; phone_e164: string }>(
    CONSOLE_DB,
    "SELECT MIN(id) AS id, MIN(phone_e164) AS phone_e164 FROM leads WHERE id LIKE 'layout-month-%' GROUP BY delivery_status ORDER BY 1",
  );
  return { leadIds: leads.map((l) => l.id), phone: leads[0]?.phone_e164 ?? "" };
}

/** Noon of yesterday in the business's time zone (catalogue/site.toml), to the hour. */
function yesterdayNoonMs(): number {
  const zone = /^time_zone = "([^"]+)"/m.exec(readFileSync(join(repoRoot, "catalogue", "site.toml"), "utf8"))?.[1];
  if (!zone) throw new Error("no time_zone in catalogue/site.toml");
  const date = new Intl.DateTimeFormat("en-CA", { timeZone: zone }).format(new Date(Date.now() - 86_400_000));
  const [y, m, d] = date.split("-").map(Number);
  const utcNoon = Date.UTC(y, m - 1, d, 12);
  const hour = Number(new Intl.DateTimeFormat("en-GB", { timeZone: zone, hour: "numeric", hourCycle: "h23" }).format(utcNoon));
  return utcNoon - (hour - 12) * 3_600_000;
}

async function seedMonth(): Promise<void> {
  seed(["--leads", "3000", "--spacing-ms", String(864_000), "--id-prefix", "layout-month", "--notifications"]);
  // The busy day: yesterday, 3,000 leads in the two and a half hours before noon.
  seed([
    "--leads",
    "3000",
    "--newest-ms",
    String(yesterdayNoonMs()),
    "--spacing-ms",
    "3000",
    "--id-prefix",
    "layout-busy",
    "--notifications",
  ]);
  await execute(
    CONSOLE_DB,
    `WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i + 1 < 40)
       INSERT INTO leads (id, received_at_ms, service_slug, full_name, phone_e164, zip_code, consent, consent_sha256, delivery_status, utm_source)
       SELECT printf('layout-long-%02d', i), ? - i * 61000000, 'roofing', 'Newsletter Reader', printf('+1412399%04d', i), '15213', 1,
              (SELECT consent_sha256 FROM leads WHERE id = 'layout-month-00000000'), 'pending', ? FROM k`,
    [Date.now(), LONG_SOURCE],
  );
  const [{ n }] = await query<{ n: number }>(CONSOLE_DB, "SELECT COUNT(*) AS n FROM leads WHERE utm_source = ?", [LONG_SOURCE]);
  if (n !== 40) throw new Error(`seeded ${n} of the 40 newsletter leads`);
}

/** Every label the funnel's charts can show: the axis's ticks for a busiest day of one lead to
 * a hundred thousand (tops of 1, 2 or 5 × 10^n, and their halves), and the dates. */
export const CHART_LABELS: ReadonlyArray<string> = [
  ...[1, 10, 100, 1000, 10_000, 100_000].flatMap((p) => [p, 2 * p, 5 * p]).flatMap((top) => [formatNumber(top), formatNumber(top / 2)]),
  ...["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"].map((m) => `${m} 28`),
];

/**
 * Where the chart's estimate of its text (client/features/admin/chartFrame.ts) is short of
 * what the browser draws: each label is set in the page's first chart, at the chart's font
 * size, and its box (in the chart's units, at the scale the chart is drawn at) compared with
 * the estimated width, ascent and descent.
 */
export async function chartEstimateShortfalls(page: Page): Promise<string[]> {
  const measured = await page.evaluate((labels) => {
    const svg = document.querySelector('svg[role="img"]');
    if (!svg) throw new Error("no chart on the page");
    const size = Number(svg.getAttribute("font-size"));
    return labels.map((label) => {
      const text = document.createElementNS("http://www.w3.org/2000/svg", "text");
      text.setAttribute("x", "0");
      text.setAttribute("y", "100");
      text.textContent = label;
      svg.append(text);
      const box = text.getBBox();
      text.remove();
      return { label, size, width: box.width, above: 100 - box.y, below: box.y + box.height - 100 };
    });
  }, CHART_LABELS);
  const problems: string[] = [];
  for (const m of measured) {
    const estimate = textWidth(m.label, m.size);
    if (m.width > estimate) problems.push(`"${m.label}" is ${m.width.toFixed(2)} wide, estimated ${estimate.toFixed(2)}`);
    if (m.above > ASCENT_EM * m.size) problems.push(`"${m.label}" reaches ${m.above.toFixed(2)} above its baseline`);
    if (m.below > DESCENT_EM * m.size) problems.push(`"${m.label}" reaches ${m.below.toFixed(2)} below its baseline`);
  }
  return problems;
}
