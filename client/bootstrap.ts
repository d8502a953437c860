// The inline bootstrap: the only script a page carries in its HTML (allowed by a CSP hash).
// It runs before the body is parsed and:
//   1. loads the island runtime once the page has painted, so no script competes with the
//      document and its CSS for the first paint;
//   2. loads it at once when the visitor points at, focuses or types into an island;
//   3. holds a click or submit on an island that is not live yet, and replays it when the
//      island has hydrated, so the first click is never lost. Should the runtime fail to
//      load, the island is left as plain HTML and the held event replayed on it: links
//      navigate and forms post, as they do without JavaScript.
// `RUNTIME_URL` is defined at build time (client/build.mjs) as the runtime's hashed URL.

import type { HeldEvent, IslandGlobal } from "./islands/protocol";

declare const RUNTIME_URL: string;

(() => {
  const doc = document;
  let started = false;

  const settle = (root: HTMLElement, state: "true" | "failed") => {
    root.setAttribute("data-hydrated", state);
    root.removeAttribute("aria-busy");
    const mine = islands.held.filter((h) => h.root === root);
    islands.held = islands.held.filter((h) => h.root !== root);
    for (const h of mine) replay(h);
  };

  const islands: IslandGlobal = (window.__islands = { held: [], touched: [], settle });

  const replay = (h: HeldEvent) => {
    if (h.type === "submit") {
      (h.target as HTMLFormElement).requestSubmit();
      return;
    }
    // The nearest HTML element (a click on an icon inside a button replays on the button).
    let el: Element | null = h.target;
    while (el && !(el instanceof HTMLElement)) el = el.parentElement;
    el?.click();
  };

  const start = () => {
    if (started) return;
    started = true;
    if (!doc.querySelector("[data-island]")) {
      doc.documentElement.setAttribute("data-hydrated", "true");
      return;
    }
    import(RUNTIME_URL).catch(() => {
      for (const root of doc.querySelectorAll<HTMLElement>("[data-island]:not([data-hydrated])")) settle(root, "failed");
    });
  };

  const onEvent = (event: Event) => {
    const target = event.target;
    const root = target instanceof Element ? target.closest<HTMLElement>("[data-island]") : null;
    if (!root || root.hasAttribute("data-hydrated")) return;
    if (event.type === "click" || event.type === "submit") {
      event.preventDefault();
      event.stopImmediatePropagation();
      islands.held.push({ type: event.type, target: target as Element, root });
      root.setAttribute("aria-busy", "true");
    }
    islands.touched.push(root);
    start();
  };
  for (const type of ["pointerdown", "focusin", "keydown", "click", "submit"]) doc.addEventListener(type, onEvent, true);

  // After the first contentful paint (its entry is stamped when the frame is on screen).
  // Where paint timing is missing, or nothing contentful paints, a while after load.
  const afterPaint = () => setTimeout(start, 0);
  if (PerformanceObserver.supportedEntryTypes?.includes("paint")) {
    new PerformanceObserver((list, observer) => {
      if (list.getEntriesByName("first-contentful-paint").length) {
        observer.disconnect();
        afterPaint();
      }
    }).observe({ type: "paint", buffered: true });
  }
  addEventListener("load", () => setTimeout(start, 2000));
})();
