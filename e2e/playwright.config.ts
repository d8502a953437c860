import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "@playwright/test";
import {
  BROKEN_DB,
  BROKEN_LISTEN,
  BROKEN_URL,
  CONSOLE_DB,
  CONSOLE_LISTEN,
  CONSOLE_URL,
  MAIN_DB,
  MAIN_LISTEN,
  MAIN_URL,
  NOTIFY_RECIPIENT,
  PIXEL_DB,
  PIXEL_ID,
  PIXEL_LISTEN,
  PIXEL_URL,
  repoRoot,
  SMTP_PORT,
  TF_DB,
  TF_LISTEN,
  TF_URL,
} from "./support/env";

// Browser tests against the real server binary (target/debug/site), in Debian's
// chromium-headless-shell (the same Chromium without the desktop browser around it: about half
// the CPU per test of `chromium --headless`). Nothing is downloaded: build first (see Makefile, `make test-e2e`).
//
// Five servers: the default one (4173, certification script off) stores leads in its own
// SQLite file and e-mails them to a local SMTP test server (global-setup.ts); the second (4174)
// has TRUSTEDFORM_ENABLED=true, and its tests serve a stand-in for TrustedForm's script; the
// third (4175) has the ad pixel on; the fourth (4182) renders nothing in time, so every page
// is the server-only 500 page (whose HTML the checker reads); the fifth (4176) is the layout
// gate's staff console, whose month of seeded leads would crowd the other tests' funnels.
// Playwright empties test-results/ before a run and each server deletes its database file
// before it starts, so every run starts from empty databases and an empty Maildir.
// (E2E_REUSE=1 reuses running servers, whose databases the tests then cannot see.)

const e2eDir = dirname(fileURLToPath(import.meta.url));
const LAYOUT_GATE = /[\\/]layout\.spec\.ts$/;
const baseURL = MAIN_URL;

/** Deletes the server's SQLite files, then runs the server in the shell's place. Its
 * /metrics listener is off: the default port (8079) would collide between the servers
 * and with a second checkout running the suite. */
function siteCommand(db: string): string {
  const rel = relative(repoRoot, db);
  return `rm -f '${rel}' '${rel}-wal' '${rel}-shm' && METRICS_LISTEN= exec ./target/debug/site`;
}

const serverDefaults = {
  cwd: repoRoot,
  reuseExistingServer: process.env.E2E_REUSE === "1",
  timeout: 120_000,
  stdout: "ignore",
  stderr: "pipe",
  gracefulShutdown: { signal: "SIGTERM", timeout: 5_000 },
} as const;

export default defineConfig({
  testDir: e2eDir,
  outputDir: join(repoRoot, "test-results"),
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  workers: 2,
  reporter: "list",
  // Generous: the multi-step axe scans run long on a busy two-core machine.
  timeout: 60_000,
  // Polls of the database and the Maildir wait on another process: 10 s on a busy machine.
  expect: { timeout: 10_000 },
  use: {
    baseURL,
    screenshot: "only-on-failure",
    trace: "off",
    video: "off",
    launchOptions: {
      // Debian's chromium-headless-shell (`make test-e2e` installs it and sets CHROMIUM_PATH).
      executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium-headless-shell",
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
    },
  },
  // The layout gate first: its tests are the longest (a page at every width, the console
  // over a month of leads), and started first they run beside the many short ones; last,
  // one of them at the end would leave the other worker idle.
  projects: [
    // The layout gate sets its own widths, from 320 to 1440 px (layout.spec.ts).
    {
      name: "layout",
      testMatch: LAYOUT_GATE,
      use: { browserName: "chromium" },
    },
    // A test tagged @one-width looks at nothing the window's width changes (the console's
    // flows, the forms' rules and the server's answers, script loading, the e-mails): it
    // runs at the desktop width only. The width-dependent tests (the header's menus, the
    // status sheet, the service layout, the dialogs' axe scans) run at both, and the layout
    // gate checks every page and overlay at eight widths.
    // See docs/development.md, "The quality gates in `make test`".
    {
      name: "phone",
      testIgnore: LAYOUT_GATE,
      grepInvert: /@one-width/,
      use: { browserName: "chromium", viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
    },
    {
      name: "desktop",
      testIgnore: LAYOUT_GATE,
      use: { browserName: "chromium", viewport: { width: 1280, height: 800 } },
    },
  ],
  globalSetup: join(e2eDir, "global-setup.ts"),
  webServer: [
    {
      ...serverDefaults,
      name: "site",
      command: siteCommand(MAIN_DB),
      env: {
        LISTEN: MAIN_LISTEN,
        DATABASE_URL: `sqlite:${MAIN_DB}`,
        // Many tests post from one IP, and sign in to the console from it; the limits
        // themselves are tested in server/tests.
        RATE_LIMIT_PER_MINUTE: "100000",
        ADMIN_SIGN_IN_RATE_LIMIT_PER_MINUTE: "100000",
        SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
        NOTIFY_RECIPIENTS: NOTIFY_RECIPIENT,
        // Should a delivery fail, retry soon (the tests wait 10 s for each e-mail).
        NOTIFY_RETRY_BASE_MS: "200",
      },
      url: `${MAIN_URL}/healthz`,
    },
    {
      ...serverDefaults,
      name: "site-trustedform",
      command: siteCommand(TF_DB),
      env: {
        LISTEN: TF_LISTEN,
        DATABASE_URL: `sqlite:${TF_DB}`,
        RATE_LIMIT_PER_MINUTE: "100000",
        TRUSTEDFORM_ENABLED: "true",
      },
      url: `${TF_URL}/healthz`,
    },
    {
      ...serverDefaults,
      name: "site-pixel",
      command: siteCommand(PIXEL_DB),
      env: {
        LISTEN: PIXEL_LISTEN,
        DATABASE_URL: `sqlite:${PIXEL_DB}`,
        PIXEL_ENABLED: "true",
        PIXEL_ID,
        RENDER_POOL_SIZE: "1",
      },
      url: `${PIXEL_URL}/healthz`,
    },
    {
      ...serverDefaults,
      name: "site-console",
      command: siteCommand(CONSOLE_DB),
      env: {
        LISTEN: CONSOLE_LISTEN,
        DATABASE_URL: `sqlite:${CONSOLE_DB}`,
        // Every width signs in and posts an account request from one IP.
        RATE_LIMIT_PER_MINUTE: "100000",
        ADMIN_SIGN_IN_RATE_LIMIT_PER_MINUTE: "100000",
        RENDER_POOL_SIZE: "1",
      },
      url: `${CONSOLE_URL}/healthz`,
    },
    {
      ...serverDefaults,
      name: "site-broken",
      command: siteCommand(BROKEN_DB),
      env: {
        LISTEN: BROKEN_LISTEN,
        DATABASE_URL: `sqlite:${BROKEN_DB}`,
        // No page renders in 1 ms: every page answers the server-only 500 page.
        RENDER_TIMEOUT_MS: "1",
        RENDER_POOL_SIZE: "1",
      },
      url: `${BROKEN_URL}/healthz`,
    },
  ],
});
