// The inline bootstrap: the only script a page carries in its HTML (allowed by a CSP hash).
// It is the body's last element, so it runs once the markup has been parsed and never takes
// the parser's time before the first paint (in <head>, compiling and running it pushed the
// home page's hero text out of the first painted frame in about one load in three). It:
//   1. once the page has loaded and the browser is idle, fetches the island runtime and
//      React (modulepreload: fetched, not run), so nothing competes with the first paint
//      and no script runs while the visitor has not done anything;
//   2. runs the runtime, which hydrates the islands, on the visitor's first sign of life
//      (a pointer moving or pressing, a touch, a key, focus, the wheel), or as soon as the
//      page has painted when an island must run at once (`data-eager`: the scripts an
//      operator switched on, such as the consent certificate);
//   3. holds a click or submit on an island that is not live yet, and replays it when the
//      island has hydrated, so the first click is never lost. Should the runtime fail to
//      load, the island is left as plain HTML and the held event replayed on it: links
//      navigate and forms post, as they do without JavaScript.
// `RUNTIME_URL` and `RUNTIME_PRELOAD` are defined at build time (client/build.mjs).

import type { HeldEvent, IslandGlobal } from "./islands/protocol";

declare const RUNTIME_URL: string;
declare const RUNTIME_PRELOAD: string[];

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

  const islands: IslandGlobal = { held: [], touched: [], settle };
  window.__islands = islands;

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

  const hasIslands = () => !!doc.querySelector("[data-island]");

  const start = () => {
    if (started || doc.readyState === "loading") return;
    started = true;
    if (!hasIslands()) {
      doc.documentElement.setAttribute("data-hydrated", "true");
      return;
    }
    // Through a variable: `import(RUNTIME_URL)` makes esbuild add interop helpers (600 bytes
    // in every page) that nothing calls.
    const url: string = RUNTIME_URL;
    import(url).catch(() => {
      for (const root of doc.querySelectorAll<HTMLElement>("[data-island]:not([data-hydrated])")) settle(root, "failed");
    });
  };

  const onEvent = (event: Event) => {
    const target = event.target;
    const root = target instanceof Element ? target.closest<HTMLElement>("[data-island]") : null;
    if (root && !root.hasAttribute("data-hydrated")) {
      if (event.type === "click" || event.type === "submit") {
        event.preventDefault();
        event.stopImmediatePropagation();
        islands.held.push({ type: event.type, target: target as Element, root });
        root.setAttribute("aria-busy", "true");
      }
      islands.touched.push(root);
    }
    start();
  };
  for (const type of ["pointermove", "pointerdown", "touchstart", "wheel", "focusin", "keydown", "click", "submit"])
    doc.addEventListener(type, onEvent, { capture: true, passive: type === "touchstart" || type === "wheel" });
  // An event before the document was parsed could not start the runtime: try again then.
  doc.addEventListener("DOMContentLoaded", () => {
    if (islands.touched.length || islands.held.length) start();
  });

  // Fetches the runtime and React ahead (not run), once the page has both painted and loaded,
  // a frame has been drawn since it loaded (so the whole parsed page, its largest paint
  // included, is on screen: the first paint may have shown only its top), and the browser
  // is idle, or at the latest a second later (a busy phone may not be idle for long).
  let waiting = 2;
  const preload = () => {
    if (--waiting) return;
    const idle = (f: () => void) => ("requestIdleCallback" in window ? requestIdleCallback(f, { timeout: 1000 }) : setTimeout(f, 1));
    requestAnimationFrame(() =>
      setTimeout(() =>
        idle(() => {
          if (started) return;
          for (const href of RUNTIME_PRELOAD) {
            const link = doc.createElement("link");
            link.rel = "modulepreload";
            link.href = href;
            doc.head.append(link);
          }
        }),
      ),
    );
  };

  // Eager islands, and an island whose dialog the address names (`data-wake`, a list of
  // fragments), start after paint without waiting for the visitor.
  const now = () =>
    !!doc.querySelector("[data-island][data-eager]") ||
    (!!location.hash &&
      Array.from(doc.querySelectorAll("[data-island][data-wake]")).some((el) =>
        (el.getAttribute("data-wake") ?? "").split(" ").includes(location.hash),
      ));

  // After the first contentful paint (its entry is stamped when the frame is on screen).
  const afterPaint = () =>
    setTimeout(() => {
      if (now()) start();
      preload();
    }, 0);
  const painted = PerformanceObserver.supportedEntryTypes?.includes("paint");
  if (painted) {
    new PerformanceObserver((list, observer) => {
      if (list.getEntriesByName("first-contentful-paint").length) {
        observer.disconnect();
        if (doc.readyState === "loading") doc.addEventListener("DOMContentLoaded", afterPaint);
        else afterPaint();
      }
    }).observe({ type: "paint", buffered: true });
  }
  addEventListener("load", () => {
    if (!hasIslands()) {
      start();
      return;
    }
    // Without paint timing, eager islands start here.
    if (!painted) {
      if (now()) start();
      preload();
    }
    preload();
  });
})();
