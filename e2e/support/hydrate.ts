import type { Page } from "@playwright/test";
import { expect } from "../fixtures";

/** Islands hydrate on the visitor's first sign of life (client/bootstrap.ts): this moves the
 * pointer, as any visitor with a mouse does, and waits until every island is live. */
export async function hydrate(page: Page): Promise<void> {
  await page.mouse.move(2, 2);
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
}

/** The visitor's pointer away from the page, for a test that a page left alone runs nothing.
 * Headless Chromium's cursor rests at 0,0 inside the page, and on every load the browser
 * sends a move from there (no movement, at 0,0), which a visitor's browser sends only when
 * their cursor rests on the page: this keeps that one move from the page's scripts. A real
 * move (`page.mouse.move`) still reaches them. */
export async function pointerAway(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const resting = (e: PointerEvent | MouseEvent) =>
      e.clientX === 0 && e.clientY === 0 && e.movementX === 0 && e.movementY === 0 && e.buttons === 0;
    for (const type of ["pointerover", "pointermove", "mouseover", "mousemove"] as const)
      window.addEventListener(type, (e) => resting(e) && e.stopImmediatePropagation(), { capture: true });
  });
}
