import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Locator, Page, TestInfo } from "@playwright/test";
import type { Service } from "../../client/lib/types";
import { expect, test } from "../fixtures";
import { repoRoot } from "./env";
import { hydrate } from "./hydrate";

// The catalogue, the numbers the site shows, and the callback form, for the service tests.

export const services: Service[] = JSON.parse(readFileSync(join(repoRoot, "catalogue", "services.json"), "utf8")) as Service[];

export function service(slug: string): Service {
  const found = services.find((s) => s.slug === slug);
  if (!found) throw new Error(`catalogue/services.json has no service "${slug}"`);
  return found;
}

/** The site's numbers (catalogue/site.toml): two services have their own. */
export function phoneFor(slug: string): { display: string; tel: string } {
  const digits = slug === "hvac" ? "8005550142" : slug === "bathroom-remodeling" ? "8005550177" : "8005550100";
  return { display: `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`, tel: `tel:+1${digits}` };
}

export const badgeFor = (s: Service): string => (s.emergencyAvailable ? "24/7 Emergency" : "Fast Response");

/** Where the call links sit (data-track-location), by layout. */
export const CALL_LOCATIONS = {
  phone: ["sticky-bar", "hero", "card", "bottom-bar"],
  desktop: ["header", "hero", "final-cta", "footer"],
} as const;

export const SUCCESS_MESSAGE = "Thanks! We received your request and will call you shortly.";

export function isPhoneProject(testInfo: TestInfo): boolean {
  return testInfo.project.name === "phone";
}

/** White space folded, as the server compares consent wording. */
export const fold = (s: string): string => s.replace(/\s+/g, " ").trim();

/** A valid US number no other test uses (derived from the test's id), for leads that must
 * not be answered as repeats of another test's. */
export function uniquePhone(testInfo: TestInfo, n = 0): { input: string; e164: string } {
  const hash = createHash("sha256").update(`${testInfo.testId}:${n}:${testInfo.repeatEachIndex}:${testInfo.retry}`).digest();
  let exchange = 200 + (hash.readUInt32BE(0) % 800);
  if (exchange % 100 === 11) exchange += 1; // N11 codes are not dialable
  const line = String(hash.readUInt32BE(4) % 10_000).padStart(4, "0");
  return { input: `(412) ${exchange}-${line}`, e164: `+1412${exchange}${line}` };
}

export async function expectHydrated(page: Page): Promise<void> {
  await hydrate(page);
}

/** The 'Prefer a Callback?' form and its parts. */
export function callbackForm(page: Page) {
  const form = page.locator("#callback form");
  return {
    form,
    name: form.getByRole("textbox", { name: "Full Name", exact: true }),
    phone: form.getByRole("textbox", { name: "Phone Number", exact: true }),
    zip: form.getByRole("textbox", { name: "ZIP Code (optional)", exact: true }),
    consent: form.locator('input[type="checkbox"][name="consent"]'),
    consentText: form.locator('[data-tf-element-role="consent-language"]'),
    submit: form.locator('[data-tf-element-role="submit"]'),
    status: form.locator('[aria-live="polite"]'),
    alert: form.getByRole("alert"),
    success: form.getByText(SUCCESS_MESSAGE, { exact: true }),
  };
}

/** A tap on a touch screen (the phone project), a mouse click elsewhere. */
export async function press(locator: Locator): Promise<void> {
  if (test.info().project.use.hasTouch) await locator.tap();
  else await locator.click();
}

export interface Visitor {
  name: string;
  phone: string;
  zip?: string;
}

export async function fillCallbackForm(page: Page, visitor: Visitor): Promise<void> {
  const f = callbackForm(page);
  await f.name.fill(visitor.name);
  await f.phone.fill(visitor.phone);
  if (visitor.zip !== undefined) await f.zip.fill(visitor.zip);
  await press(f.consent);
  await expect(f.consent).toBeChecked();
}

/** The status sheet ('Callback status' dialog) shown after a successful request. */
export function statusSheet(page: Page): Locator {
  return page.locator('dialog[data-testid="callback-status"]');
}

/** Where the callback form posts (with JavaScript and without). */
export const SUBMIT_LEAD = "/.netlify/functions/submit-lead";

/** hvac and bathroom-remodeling have their own numbers; plumbing is an emergency
 * service and solar is not. */
export const SLUGS = ["hvac", "bathroom-remodeling", "plumbing", "solar"] as const;

export const footer = (page: Page) => page.locator("footer");

/** Submits the filled form on a page whose clock may be stopped: with the certification
 * script off the request goes out at once, no timer of the page has to run (and none is
 * moved, so the status sheet's 8 s start when it opens). */
export async function submitWithClock(page: Page): Promise<void> {
  await press(callbackForm(page).submit);
}
