// The island runtime: the browser entry, loaded by the inline bootstrap after first paint.
// It fetches the code of every island on the page at once, then hydrates them one by one,
// the ones the visitor touched first, yielding to the browser between islands. React's own
// runtime comes with this module, in one content-hashed file shared by every page.

import { islands } from "virtual:islands";
import { type ReactNode, useEffect } from "react";
import { hydrateRoot } from "react-dom/client";
import { IslandTree } from "./islands/island";
import type { IslandGlobal } from "./islands/protocol";
import { settlePreferences } from "./lib/preferences";

type Loaded = Awaited<ReturnType<(typeof islands)[string]>>;

/** Resolves once React has committed the island (effects run after their children's). */
function Committed({ onCommit, children }: { onCommit: () => void; children: ReactNode }) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on the island's first commit
  useEffect(onCommit, []);
  return children;
}

async function hydrate(root: HTMLElement, code: Promise<Loaded>, global: IslandGlobal): Promise<void> {
  const name = root.dataset.island ?? "";
  try {
    // (Each file declares the island its name says: vitest checks it, so the browser need not.)
    const { default: island } = await code;
    const props: object = JSON.parse(root.dataset.props ?? "{}");
    await new Promise<void>((resolve) => {
      hydrateRoot(
        root,
        <Committed onCommit={resolve}>
          <IslandTree Component={island.Component} props={props} />
        </Committed>,
      );
    });
    global.settle(root, "true");
  } catch (error) {
    console.error(`island ${name} did not hydrate`, error);
    global.settle(root, "failed");
  }
}

const yieldToBrowser = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

async function start(global: IslandGlobal): Promise<void> {
  const pending = Array.from(document.querySelectorAll<HTMLElement>("[data-island]:not([data-hydrated])"));
  // Every island's code at once: the requests run in parallel while the first ones hydrate.
  const code = new Map(
    pending.map((root) => {
      const load = islands[root.dataset.island ?? ""];
      const loaded: Promise<Loaded> = load ? load() : Promise.reject(new Error(`no island named ${root.dataset.island}`));
      loaded.catch(() => undefined); // reported when awaited in hydrate()
      return [root, loaded] as const;
    }),
  );
  const next = (): HTMLElement | undefined => {
    for (let root = global.touched.pop(); root; root = global.touched.pop()) {
      const i = pending.indexOf(root);
      if (i >= 0) return pending.splice(i, 1)[0];
    }
    return pending.shift();
  };
  for (let root = next(); root; root = next()) {
    const loaded = code.get(root);
    if (loaded) await hydrate(root, loaded, global);
    await yieldToBrowser();
  }
  // The stored theme and language: read (and stored in their shape) only now, after the
  // islands match the server's HTML.
  settlePreferences();
  document.documentElement.setAttribute("data-hydrated", "true");
}

if (window.__islands) void start(window.__islands);
