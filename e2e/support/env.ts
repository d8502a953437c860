import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

// Where the browser tests' servers listen and keep their files. Read by the config (to
// start them), by the global setup (the SMTP server) and by the tests (to look inside).

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const resultsDir = join(repoRoot, "test-results");

/** The servers listen on E2E_PORT_BASE and the next ports (two checkouts can run the suite
 * side by side with different bases). */
const PORT_BASE = Number(process.env.E2E_PORT_BASE || 4173);

/** The default server: certification script off, e-mail to the local SMTP server. */
export const MAIN_LISTEN = `127.0.0.1:${PORT_BASE}`;
export const MAIN_URL = `http://${MAIN_LISTEN}`;
/** The second server: TRUSTEDFORM_ENABLED=true, for the certificate tests. */
export const TF_LISTEN = `127.0.0.1:${PORT_BASE + 1}`;
export const TF_URL = `http://${TF_LISTEN}`;

/** The third server: the ad pixel switched on, for the call-tracking test. */
export const PIXEL_LISTEN = `127.0.0.1:${PORT_BASE + 2}`;
export const PIXEL_URL = `http://${PIXEL_LISTEN}`;
export const PIXEL_ID = "1234567890";

/** The fifth server: the layout gate's staff console, over a month of seeded leads in a
 * database of its own (the other tests' funnels never see them). */
export const CONSOLE_LISTEN = `127.0.0.1:${PORT_BASE + 3}`;
export const CONSOLE_URL = `http://${CONSOLE_LISTEN}`;

/** The fourth server: every render times out (RENDER_TIMEOUT_MS=1), so every page is the
 * server-only 500 page; for checking that page's HTML. */
export const BROKEN_LISTEN = `127.0.0.1:${PORT_BASE + 9}`;
export const BROKEN_URL = `http://${BROKEN_LISTEN}`;

/** The servers' SQLite files live here; Playwright empties test-results before each run. */
export const dbDir = join(resultsDir, "e2e-db");
export const MAIN_DB = join(dbDir, "site.db");
export const TF_DB = join(dbDir, "trustedform.db");
export const PIXEL_DB = join(dbDir, "pixel.db");
export const BROKEN_DB = join(dbDir, "broken.db");
export const CONSOLE_DB = join(dbDir, "console.db");

/** The SMTP test server (scripts/smtp-server.mjs, started by global-setup.ts) stores what it receives in this Maildir. */
export const SMTP_PORT = Number(process.env.E2E_SMTP_PORT || PORT_BASE + 17);
export const mailDir = join(resultsDir, "e2e-mail");
export const MAILDIR = join(mailDir, "box");
export const NOTIFY_RECIPIENT = "dispatch@ringready.example";
export const SMTP_SCRIPT = join(repoRoot, "scripts", "smtp-server.mjs");
