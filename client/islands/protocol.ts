// What the inline bootstrap (client/bootstrap.ts) and the island runtime (client/runtime.tsx)
// share through `window.__islands`. The bootstrap is inline in every page, so it stays tiny:
// it holds early events, marks what the visitor touched, and loads the runtime after paint.

/** A click or submit on an island that had not hydrated yet, held to be replayed. */
export interface HeldEvent {
  type: "click" | "submit";
  target: Element;
  root: HTMLElement;
}

export interface IslandGlobal {
  /** Events held until their island is live (or has failed and the browser takes over). */
  held: HeldEvent[];
  /** Islands the visitor touched before they were live, most recent last: hydrated first. */
  touched: HTMLElement[];
  /** Marks an island done ("true", or "failed": plain HTML from now on) and replays its held events. */
  settle: (root: HTMLElement, state: "true" | "failed") => void;
}

declare global {
  interface Window {
    __islands?: IslandGlobal;
  }
}
