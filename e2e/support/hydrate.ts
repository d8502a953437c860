import type { Page } from "@playwright/test";
import { expect } from "../fixtures";

/** Islands hydrate on the visitor's first sign of life (client/bootstrap.ts): this moves the
 * pointer, as any visitor with a mouse does, and waits until every island is live. */
export async function hydrate(page: Page): Promise<void> {
  await page.mouse.move(2, 2);
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
}
