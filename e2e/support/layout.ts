import type { Locator, Page } from "@playwright/test";

// What the layout gate (layout.spec.ts) checks on whatever the page shows at that moment.

/** The widths the site must fit, each with a window height of a device that has it:
 * small, common and large phones, a tablet upright, a tablet held sideways (and small
 * laptops), a laptop window, and two desktop windows. */
export const SCREENS = [
  { width: 320, height: 568 },
  { width: 360, height: 740 },
  { width: 390, height: 844 },
  { width: 768, height: 1024 },
  { width: 1024, height: 768 },
  { width: 1100, height: 800 },
  { width: 1280, height: 800 },
  { width: 1440, height: 900 },
] as const;

/**
 * What is wrong with the layout now, in words (empty when nothing is):
 * - the page scrolls sideways (its content is wider than the window);
 * - a visible control (link, button, form field) is not wholly inside the window, left to right;
 * - a box's content spills out of it sideways, or a box scrolls sideways (text and buttons
 *   running under their neighbours: a row of buttons wider than its column). Boxes that clip
 *   on purpose (`overflow: hidden`) and form fields (which scroll their own text) are left out.
 *   A table's scroll box is the one box that may scroll sideways: a labelled region the
 *   keyboard can reach (`[role=region][tabindex="0"][aria-label]`, the console's TableScroll),
 *   as wide tables are meant to fit a phone. The controls in it are reached by scrolling it,
 *   so it is the box that must lie inside the window.
 * - an SVG image's text (a chart's axis labels) is not wholly inside the image's box: the
 *   image draws it cut at its edge.
 * While a modal dialog is open only the open dialogs are looked at (the page under them was
 * looked at before they opened): each must lie inside the window too.
 */
export async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const width = document.documentElement.clientWidth;
    const nameOf = (el: Element): string => {
      const text = (el.getAttribute("aria-label") || el.textContent || "").replace(/\s+/g, " ").trim().slice(0, 50);
      const id = el.id ? `#${el.id}` : "";
      return `<${el.tagName.toLowerCase()}${id}> "${text}"`;
    };
    const shown = (el: Element): boolean => el.checkVisibility({ visibilityProperty: true }) && !el.closest('[aria-hidden="true"]');
    const SCROLLER = '[role="region"][tabindex="0"][aria-label]';
    const scrolls = (el: Element): boolean => ["auto", "scroll"].includes(getComputedStyle(el).overflowX);
    /** The table's scroll box the element is in, if any. */
    const scrollerOf = (el: Element): Element | null => {
      for (let box = el.closest(SCROLLER); box; box = box.parentElement?.closest(SCROLLER) ?? null) if (scrolls(box)) return box;
      return null;
    };

    const page = document.documentElement;
    if (page.scrollWidth > width) problems.push(`the page scrolls sideways: ${page.scrollWidth} px of content in a ${width} px window`);

    const dialogs = Array.from(document.querySelectorAll("dialog")).filter((d) => d.open && d.matches(":modal"));
    const scopes: Element[] = dialogs.length ? dialogs : [document.body];
    for (const dialog of dialogs) {
      const r = dialog.getBoundingClientRect();
      if (r.left < -0.5 || r.right > width + 0.5)
        problems.push(`the dialog is not inside the window (${Math.round(r.left)} to ${Math.round(r.right)} px): ${nameOf(dialog)}`);
    }

    for (const scope of scopes) {
      const looked = new Set<Element>();
      for (const found of Array.from(scope.querySelectorAll("a[href], button, input:not([type=hidden]), select, textarea, summary"))) {
        const control = scrollerOf(found) ?? found;
        if (looked.has(control) || !shown(control)) continue;
        looked.add(control);
        const r = control.getBoundingClientRect();
        // Visually hidden (a skip link until focused): a 1 px box.
        if (r.width <= 1 && r.height <= 1) continue;
        if (r.left < -0.5 || r.right > width + 0.5)
          problems.push(`a control is not inside the window (${Math.round(r.left)} to ${Math.round(r.right)} px): ${nameOf(control)}`);
      }

      // How far a box's content reaches beyond its sides: its text and the boxes in its flow.
      // A popup (absolutely or fixed positioned: a dropdown beside its button) is laid out
      // apart from the box it sits in, and is looked at as a box of its own; so is what a
      // box that clips or scrolls holds.
      const beyond = (box: HTMLElement): number => {
        const r = box.getBoundingClientRect();
        const left = r.left + box.clientLeft;
        const right = left + box.clientWidth;
        const range = document.createRange();
        let most = 0;
        const measure = (rect: DOMRect) => {
          if (rect.width > 0 || rect.height > 0) most = Math.max(most, left - rect.left, rect.right - right);
        };
        const walk = (node: Node): void => {
          for (const child of Array.from(node.childNodes)) {
            if (child instanceof Element) {
              const style = getComputedStyle(child);
              if (style.display === "none" || style.position === "absolute" || style.position === "fixed") continue;
              measure(child.getBoundingClientRect());
              if (style.overflowX === "visible") walk(child);
            } else if (child.nodeType === Node.TEXT_NODE) {
              range.selectNodeContents(child);
              measure(range.getBoundingClientRect());
            }
          }
        };
        walk(box);
        return most;
      };

      for (const svg of Array.from(scope.querySelectorAll("svg"))) {
        if (!svg.checkVisibility({ visibilityProperty: true })) continue;
        const box = svg.getBoundingClientRect();
        for (const text of Array.from(svg.querySelectorAll("text"))) {
          const r = text.getBoundingClientRect();
          if (r.width === 0 && r.height === 0) continue;
          const out = Math.max(box.left - r.left, r.right - box.right, box.top - r.top, r.bottom - box.bottom);
          if (out > 0.5) {
            const where = `${Math.round(r.left - box.left)} to ${Math.round(r.right - box.left)} px across, ${Math.round(r.top - box.top)} to ${Math.round(r.bottom - box.top)} px down`;
            problems.push(
              `SVG text reaches ${out.toFixed(1)} px outside its image (${where} a ${Math.round(box.width)} × ${Math.round(box.height)} px image): "${text.textContent}" in ${nameOf(svg)}`,
            );
          }
        }
      }

      const overflowing: HTMLElement[] = [];
      for (const el of [scope, ...Array.from(scope.querySelectorAll("*"))]) {
        if (!(el instanceof HTMLElement) || el.matches("input, select, textarea, option")) continue;
        // Cheap test first: most boxes hold their content.
        if (el.clientWidth === 0 || el.scrollWidth <= el.clientWidth + 1) continue;
        const style = getComputedStyle(el);
        if (style.display === "inline" || style.display === "contents") continue;
        if (style.overflowX === "hidden" || style.overflowX === "clip") continue;
        if (el.matches(SCROLLER) && scrolls(el)) continue;
        if (!shown(el)) continue;
        if (style.overflowX === "visible" && beyond(el) <= 1) continue;
        overflowing.push(el);
      }
      // Name the innermost boxes only: their ancestors overflow because of them.
      for (const el of overflowing) {
        if (overflowing.some((other) => other !== el && el.contains(other))) continue;
        const how = getComputedStyle(el).overflowX === "visible" ? "spills out of its box" : "scrolls sideways";
        problems.push(`content ${how} (${el.scrollWidth} px in ${el.clientWidth} px): ${nameOf(el)}`);
      }
    }
    return problems;
  });
}

/** How many lines an element's text takes (the distinct tops of its text's line boxes). */
export async function lineCount(locator: Locator): Promise<number> {
  return locator.evaluate((el) => {
    const range = document.createRange();
    const tops = new Set<number>();
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      if (!text.textContent?.trim()) continue;
      range.selectNodeContents(text);
      for (const r of Array.from(range.getClientRects())) tops.add(Math.round(r.top));
    }
    return tops.size;
  });
}

/** The element's content (its text, not only its box) lies within its ancestor
 * `container`'s box, left to right. */
export async function insideSideways(locator: Locator, container: string): Promise<boolean> {
  return locator.evaluate((el, selector) => {
    const box = el.closest(selector);
    if (!box) throw new Error(`no ${selector} around the element`);
    const range = document.createRange();
    range.selectNodeContents(el);
    const r = range.getBoundingClientRect();
    const b = box.getBoundingClientRect();
    return r.left >= b.left - 0.5 && r.right <= b.right + 0.5;
  }, container);
}
