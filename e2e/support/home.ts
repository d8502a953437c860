import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Locator, Page, TestInfo } from "@playwright/test";
import { expect } from "../fixtures";
import { repoRoot } from "./env";
import { hydrate } from "./hydrate";
import { isPhoneProject, press } from "./service";

// The home page's header and overlays, for home.spec.ts and home-overlays.spec.ts.

// The support number and info address the server under test is configured with.
const SITE_TOML = readFileSync(join(repoRoot, "catalogue", "site.toml"), "utf8");
const setting = (key: string): string => {
  const m = new RegExp(`^${key}\\s*=\\s*"([^"]+)"`, "m").exec(SITE_TOML);
  if (!m) throw new Error(`catalogue/site.toml has no ${key}`);
  return m[1];
};
const SUPPORT_DIGITS = setting("support_phone");
export const SUPPORT = {
  display: `(${SUPPORT_DIGITS.slice(0, 3)}) ${SUPPORT_DIGITS.slice(3, 6)}-${SUPPORT_DIGITS.slice(6)}`,
  tel: `tel:+1${SUPPORT_DIGITS}`,
};
export const EMAIL = setting("info_email");

export const HOMEOWNER_ALERT = `Homeowner dashboard coming soon! Please call ${SUPPORT.display} for immediate service.`;
export const CONTRACTOR_ALERT = `Contractor login coming soon! Please call ${SUPPORT.display} for access.`;

export async function openHome(page: Page): Promise<void> {
  await page.goto("/");
  await hydrate(page);
}

export const nav = (page: Page): Locator => page.getByRole("navigation", { name: "Main" });
export const menuButton = (page: Page): Locator => page.getByRole("button", { name: /^(Menu|Close menu)$/ });
export const servicesMenu = (page: Page): Locator => page.locator("#services-menu");

/** On phones, opens the menu, where the navigation's items are; on desktops they show. */
export async function showNavigation(page: Page, testInfo: TestInfo): Promise<void> {
  if (!isPhoneProject(testInfo)) return;
  if ((await menuButton(page).getAttribute("aria-expanded")) !== "true") await press(menuButton(page));
  await expect(nav(page)).toBeVisible();
}

/** The button that opens the contractor login type chooser: 'For Contractors' in the
 * navigation (in the menu on phones, where the header's 'Login' opens the account dialog). */
export function chooserOpener(page: Page, _testInfo?: TestInfo): Locator {
  return nav(page).getByRole("button", { name: "For Contractors", exact: true });
}

export const chooser = (page: Page): Locator => page.getByRole("dialog", { name: "Choose your account type" });

export async function openChooser(page: Page, testInfo: TestInfo): Promise<Locator> {
  await showNavigation(page, testInfo);
  await press(chooserOpener(page, testInfo));
  await expect(chooser(page)).toBeVisible();
  return chooserOpener(page, testInfo);
}

/** Opens the service request modal from 'Get Service Now'. */
export async function openServiceRequest(page: Page, testInfo: TestInfo): Promise<{ dialog: Locator; opener: Locator }> {
  await showNavigation(page, testInfo);
  const opener = nav(page).getByRole("button", { name: "Get Service Now", exact: true });
  await press(opener);
  const dialog = page.getByRole("dialog", { name: "Get Service Now" });
  await expect(dialog).toBeVisible();
  return { dialog, opener };
}

export type CloseBy = "Escape" | "close button" | "backdrop";
export const CLOSE_BYS: CloseBy[] = ["Escape", "close button", "backdrop"];

/** Closes the top dialog the way given and checks it is gone. */
export async function closeDialog(page: Page, dialog: Locator, by: CloseBy): Promise<void> {
  if (by === "Escape") await page.keyboard.press("Escape");
  else if (by === "close button") await press(dialog.getByRole("button", { name: "Close", exact: true }));
  // The corner of the viewport is the backdrop: a click there lands on the <dialog> itself.
  else await page.mouse.click(4, 4);
  await expect(dialog).toHaveCount(0);
}

/** The distinct left edges of a list's items (those drawn at all): its number of columns. */
export async function columnCount(items: Locator): Promise<number> {
  const lefts = await items.evaluateAll((els) =>
    els.filter((el) => el.getClientRects().length > 0).map((el) => Math.round(el.getBoundingClientRect().left)),
  );
  return new Set(lefts).size;
}
