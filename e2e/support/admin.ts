import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page, TestInfo } from "@playwright/test";
import { expect } from "../fixtures";
import { axeViolations, describeViolations } from "./axe";
import { MAIN_DB, repoRoot, resultsDir } from "./env";
import { callbackForm, expectHydrated, fillCallbackForm, press } from "./service";

// The staff console's side of the browser tests: a staff account made with the real command
// line, signing in, each screen checked with axe and photographed, and a visitor's callback
// request made the way a visitor makes it.

export const PASSWORD = "a long staff passphrase for the e2e run";
const SITE = join(repoRoot, "target", "debug", "site");
const SHOTS = join(resultsDir, "admin-console");

/** Makes a staff account with the real command line, against an e2e server's database (the
 * default server's unless told). */
export function addStaff(email: string, db: string = MAIN_DB): string {
  return execFileSync(SITE, ["staff", "add", email], {
    cwd: repoRoot,
    input: `${PASSWORD}\n`,
    env: { ...process.env, DATABASE_URL: `sqlite:${db}` },
    encoding: "utf8",
  });
}

/** Signs in on the login page the console sent `page` to (or opens it first). */
export async function signIn(page: Page, email: string): Promise<void> {
  await page.goto("/admin/login");
  await page.getByLabel("E-mail address").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await press(page.getByRole("button", { name: "Sign in" }));
  // The console's first screen (the funnel).
  await expect(page).toHaveURL(/\/admin$/);
}

export async function expectAccessible(page: Page, screen: string): Promise<void> {
  const { violations, passes } = await axeViolations(page);
  expect(passes, `axe ran its rules on ${screen}`).toBeGreaterThan(10);
  expect(violations, `axe violations on ${screen}:\n${describeViolations(violations)}`).toEqual([]);
}

/** axe, then a full-page screenshot in test-results/admin-console/. */
export async function checkScreen(page: Page, testInfo: TestInfo, screen: string): Promise<void> {
  await expectAccessible(page, screen);
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${testInfo.project.name}-${screen}.png`), fullPage: true });
}

/** A callback request from a service page, as a visitor makes it; resolves once stored. */
export async function requestCallback(page: Page, slug: string, visitor: { name: string; phone: string }): Promise<void> {
  await page.goto(`/${slug}`);
  await expectHydrated(page);
  await fillCallbackForm(page, { ...visitor, zip: "15213" });
  const f = callbackForm(page);
  const answer = page.waitForResponse((r) => r.request().method() === "POST" && r.url().endsWith("/.netlify/functions/submit-lead"));
  await press(f.submit);
  expect((await answer).status()).toBe(201);
  await expect(f.success).toBeVisible({ timeout: 10_000 });
}

/** The do-not-call list's form that adds a number. */
export function addForm(page: Page) {
  return page.locator('form[method="post"][action="/admin/suppressions"]');
}
