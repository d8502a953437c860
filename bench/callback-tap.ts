// The callback's speed, for bench/callback.py: in Debian's Chromium (a phone: 390 px,
// touch), the time from the tap on 'Request Callback' to the confirmation on screen, on the
// service page of a server with the certification script off and of one with it on.
//
// Each run is a fresh page: the form is filled (which makes it live), then tapped. The page
// itself notes the tap (its `touchstart`) and the first frame after 'Thanks! We received your
// request…' appears, so the figure is the browser's, not Playwright's. With certification on,
// TrustedForm's script is the e2e stand-in (e2e/support/trustedform.ts), held until the page
// has seen the tap and then adding its fields `--token-ms` after it runs: the token comes a
// little more than that after the tap (the page notes when), and the form must send it as soon
// as it is there.
//
// Bundled by esbuild (callback.py) and run with node:
//   node callback-tap.mjs --off URL --on URL --runs 20 --token-ms 300 --chrome /usr/bin/chromium
// Prints one line per mode: `callback MODE runs=N median_ms=… p90_ms=… min_ms=… max_ms=…`, and
// for `on` also `token_median_ms=…` (tap to token) and `after_token_median_ms=…` (token to
// confirmation on screen).

import { type Browser, chromium } from "@playwright/test";
import { newCertificate, serveStandIn } from "../e2e/support/trustedform";

interface Options {
  off: string;
  on: string;
  runs: number;
  tokenMs: number;
  chrome: string;
  path: string;
}

function options(argv: string[]): Options {
  const get = (name: string, fallback?: string): string => {
    const i = argv.indexOf(`--${name}`);
    const value = i >= 0 ? argv[i + 1] : fallback;
    if (value === undefined) throw new Error(`--${name} is required`);
    return value;
  };
  return {
    off: get("off"),
    on: get("on"),
    runs: Number(get("runs", "20")),
    tokenMs: Number(get("token-ms", "300")),
    chrome: get("chrome", "/usr/bin/chromium"),
    path: get("path", "/hvac"),
  };
}

/** What the page notes, in its own clock (performance.now()). */
interface Marks {
  tapAt?: number;
  tokenAt?: number;
  shownAt?: number;
}

interface Run {
  shown: number;
  token?: number;
}

/** A US number of its own for each run (a repeat within 10 minutes would be answered as the
 * first): exchanges 320-399, never an N11. */
function phone(n: number): string {
  return `(412) ${320 + (Math.floor(n / 9000) % 80)}-${1000 + (n % 9000)}`;
}

async function oneRun(browser: Browser, base: string, o: Options, n: number, certification: boolean): Promise<Run> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  try {
    const page = await context.newPage();
    const standIn = certification ? await serveStandIn(page, { cert: newCertificate(), delayMs: o.tokenMs, hold: true }) : null;
    // The held script would hold the load event: wait for the document only.
    await page.goto(base + o.path, { waitUntil: "domcontentloaded" });
    const form = page.locator("#callback form");
    await form.getByRole("textbox", { name: "Full Name", exact: true }).fill(`Bench Run ${n}`);
    await form.getByRole("textbox", { name: "Phone Number", exact: true }).fill(phone(n));
    await form.locator('input[type="checkbox"][name="consent"]').tap();
    await page.locator('html[data-hydrated="true"]').waitFor();
    // The held script goes out once the page has seen the tap.
    await page.exposeFunction("__tapped", () => standIn?.release());
    await form.evaluate((el) => {
      const w = window as unknown as { __marks: Marks; __tapped: () => void };
      const marks: Marks = {};
      w.__marks = marks;
      const submit = el.querySelector('[data-tf-element-role="submit"]');
      submit?.addEventListener(
        "touchstart",
        (e) => {
          marks.tapAt = e.timeStamp;
          w.__tapped();
        },
        { capture: true, once: true },
      );
      const observer = new MutationObserver(() => {
        if (marks.tokenAt === undefined && el.querySelector('input[name="xxTrustedFormCertUrl"]')) marks.tokenAt = performance.now();
        if (!el.textContent?.includes("Thanks! We received your request")) return;
        observer.disconnect();
        requestAnimationFrame(() => (marks.shownAt = performance.now()));
      });
      observer.observe(el, { childList: true, subtree: true, characterData: true });
    });
    await form.locator('[data-tf-element-role="submit"]').tap();
    await page.waitForFunction(() => (window as unknown as { __marks: Marks }).__marks.shownAt !== undefined, null, { timeout: 15_000 });
    const marks = await page.evaluate(() => (window as unknown as { __marks: Marks }).__marks);
    if (marks.tapAt === undefined || marks.shownAt === undefined) throw new Error("the page noted no tap or no confirmation");
    if (certification && marks.tokenAt === undefined) throw new Error("the confirmation came without the token");
    return { shown: marks.shownAt - marks.tapAt, token: marks.tokenAt === undefined ? undefined : marks.tokenAt - marks.tapAt };
  } finally {
    await context.close();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  return sorted.length % 2 ? sorted[Math.floor(mid)] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function summary(mode: string, runs: Run[]): string {
  const sorted = runs.map((r) => r.shown).sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  const f = (ms: number) => ms.toFixed(0);
  let line = `callback ${mode} runs=${sorted.length} median_ms=${f(median(sorted))} p90_ms=${f(at(0.9))} min_ms=${f(sorted[0])} max_ms=${f(sorted[sorted.length - 1])}`;
  const tokens = runs.flatMap((r) => (r.token === undefined ? [] : [{ token: r.token, after: r.shown - r.token }]));
  if (tokens.length)
    line += ` token_median_ms=${f(median(tokens.map((t) => t.token)))} after_token_median_ms=${f(median(tokens.map((t) => t.after)))}`;
  return line;
}

async function main(): Promise<void> {
  const o = options(process.argv.slice(2));
  const browser = await chromium.launch({
    executablePath: o.chrome,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
  });
  try {
    let n = Math.floor(Date.now() / 1000) % 50_000;
    for (const [mode, base, certification] of [
      ["off", o.off, false],
      ["on", o.on, true],
    ] as const) {
      // Two runs to warm the browser and the server, not counted.
      for (let i = 0; i < 2; i++) await oneRun(browser, base, o, n++, certification);
      const runs: Run[] = [];
      for (let i = 0; i < o.runs; i++) runs.push(await oneRun(browser, base, o, n++, certification));
      console.log(summary(mode, runs));
    }
  } finally {
    await browser.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
