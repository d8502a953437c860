import { readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { sourceFiles } from "../lib/sourceFiles";
import { findIslands } from "./discover.mjs";
import { defineIsland, eager, wakesOn } from "./island";

const clientDir = join(dirname(fileURLToPath(import.meta.url)), "..");
/** The files the build turns into islands (client/build.mjs finds them the same way). */
const islands = findIslands(clientDir);

function Greeting({ name }: { name: string }) {
  return <p>Hello, {name}</p>;
}
const GreetingIsland = defineIsland("Greeting", Greeting);
const Outer = defineIsland("Outer", ({ name }: { name: string }) => (
  <section>
    <GreetingIsland name={name} />
  </section>
));

/** A component whose props cannot travel as JSON (a callback). */
const WithCallback = ({ onDone }: { onDone: () => void }) => (
  <button type="button" onClick={onDone}>
    Done
  </button>
);

describe("defineIsland", () => {
  it("renders the component inside an element naming the island and carrying its props", () => {
    const html = renderToString(<GreetingIsland name={'Ann "<b>" & Co'} />);
    expect(html).toBe(
      '<div data-island="Greeting" data-props="{&quot;name&quot;:&quot;Ann \\&quot;&lt;b&gt;\\&quot; &amp; Co&quot;}" class="contents">' +
        "<p>Hello, <!-- -->Ann &quot;&lt;b&gt;&quot; &amp; Co</p></div>",
    );
  });

  it("marks an eager island, and only that one, for hydration right after paint", () => {
    const Now = eager(defineIsland("Now", ({ n }: { n: number }) => <i>{n}</i>));
    expect(renderToString(<Now n={1} />)).toContain('data-island="Now" data-props="{&quot;n&quot;:1}" data-eager=""');
    expect(renderToString(<GreetingIsland name="Al" />)).not.toContain("data-eager");
  });

  it("names the address fragments that wake an island right after paint", () => {
    const Panel = wakesOn(
      defineIsland("Panel", ({ n }: { n: number }) => <i>{n}</i>),
      ["#panel", "#panel-more"],
    );
    expect(renderToString(<Panel n={1} />)).toContain('data-wake="#panel #panel-more"');
    expect(renderToString(<GreetingIsland name="Al" />)).not.toContain("data-wake");
  });

  it("renders an island inside another as a plain part of it", () => {
    const html = renderToString(<Outer name="Bo" />);
    expect(html.match(/data-island=/g)).toHaveLength(1);
    expect(html).toContain("<section><p>Hello, <!-- -->Bo</p></section>");
  });

  it("refuses props that cannot travel as JSON, at compile time", () => {
    // @ts-expect-error a callback prop cannot be sent from the server
    const island = defineIsland("WithCallback", WithCallback);
    expect(island.islandName).toBe("WithCallback");
  });
});

describe("the islands (client/**/<Name>.island.tsx)", () => {
  it("exist", () => {
    expect(islands.length).toBeGreaterThan(0);
  });

  for (const { name, path } of islands) {
    it(`${relative(clientDir, path)} declares the island its file names`, async () => {
      const mod = (await import(path)) as { default?: { islandName?: string } };
      expect(mod.default?.islandName).toBe(name);
    });
  }

  it("are the only files that declare one (any other would never reach the browser)", () => {
    // Every TypeScript source under client/ but the tests and island.tsx itself.
    const declaring = sourceFiles(clientDir)
      .filter((file) => !/\.test\.tsx?$/.test(file) && file !== join(clientDir, "islands", "island.tsx"))
      .filter((file) => /\bdefineIsland\(/.test(readFileSync(file, "utf8")));
    expect(declaring.map((file) => relative(clientDir, file)).sort()).toEqual(islands.map((i) => relative(clientDir, i.path)).sort());
  });
});
