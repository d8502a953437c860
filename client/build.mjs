// Builds what the browser gets: the island runtime and chunks, the inline bootstrap, the
// Tailwind CSS and the icon set.
// Output goes to target/web/, which the Rust build embeds into the binary.

import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { findIslands } from "./islands/discover.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "target", "web");
mkdirSync(out, { recursive: true });

// The island runtime and one chunk per island (every `<Name>.island.tsx` under client/, found
// by islands/discover.mjs, so adding an island is adding its file). Every file name carries
// its content hash, so the server can serve them all as immutable; manifest.json names the
// runtime entry.
const clientOut = join(out, "client");
rmSync(clientOut, { recursive: true, force: true });
const clientDir = join(root, "client");
const islands = findIslands(clientDir);
const islandNames = islands.map((i) => i.name);
const islandRegistry = {
  name: "island-registry",
  setup(b) {
    b.onResolve({ filter: /^virtual:islands$/ }, () => ({ path: "registry", namespace: "islands" }));
    b.onLoad({ filter: /.*/, namespace: "islands" }, () => ({
      contents: `export const islands = {${islands.map((i) => `${JSON.stringify(i.name)}: () => import(${JSON.stringify(i.path)})`).join(",")}};`,
      resolveDir: clientDir,
      loader: "ts",
    }));
  },
};
const shared = {
  bundle: true,
  minify: true,
  target: ["es2020"],
  platform: "browser",
  jsx: "automatic",
  define: { "process.env.NODE_ENV": '"production"' },
  legalComments: "none",
  logLevel: "warning",
};
const result = await build({
  ...shared,
  entryPoints: [join(root, "client", "runtime.tsx")],
  outdir: clientOut,
  entryNames: "[name]-[hash]",
  chunkNames: "chunk-[hash]",
  splitting: true,
  metafile: true,
  format: "esm",
  plugins: [islandRegistry],
});

const files = Object.keys(result.metafile.outputs).map((p) => p.split("/").pop());
// The runtime's own output: dynamically imported modules (islands, and what they load
// lazily) are entry points too, in no guaranteed order.
const entry = Object.entries(result.metafile.outputs)
  .find(([, o]) => o.entryPoint?.replace(/\\/g, "/").endsWith("client/runtime.tsx"))?.[0]
  .split("/")
  .pop();
if (!entry) throw new Error("esbuild produced no entry chunk");
// The runtime and the chunks it imports statically (React): fetched ahead of the first
// interaction, so hydration then only has to evaluate them.
const entryPath = Object.keys(result.metafile.outputs).find((p) => p.endsWith(`/${entry}`));
const preload = [
  entry,
  ...result.metafile.outputs[entryPath].imports.filter((i) => i.kind === "import-statement").map((i) => i.path.split("/").pop()),
].map((f) => `/assets/${f}`);
writeFileSync(join(out, "manifest.json"), JSON.stringify({ entry, islands: islandNames, files }, null, 2));

// The inline bootstrap, with the runtime's URL (and what to fetch ahead) built in. The server
// inlines it into every page and allows it in the CSP by its hash. A classic script, so it
// runs before the body is parsed.
await build({
  ...shared,
  entryPoints: [join(root, "client", "bootstrap.ts")],
  outfile: join(out, "bootstrap.js"),
  format: "iife",
  define: {
    ...shared.define,
    RUNTIME_URL: JSON.stringify(`/assets/${entry}`),
    RUNTIME_PRELOAD: JSON.stringify(preload),
  },
});

execFileSync(
  process.execPath,
  [
    join(root, "node_modules", "tailwindcss", "lib", "cli.js"),
    "-c",
    join(root, "client", "tailwind.config.cjs"),
    "-i",
    join(root, "client", "styles.css"),
    "-o",
    join(out, "site.css"),
    "--minify",
  ],
  { stdio: ["ignore", "ignore", "inherit"] },
);

// Every lucide icon as data ({ "air-vent": [[tag, attrs], ...] }). The server validates
// catalogue icon names against this set and sends each page only the icons it uses.
const iconDir = join(root, "node_modules", "lucide", "dist", "esm", "icons");
const icons = {};
for (const file of readdirSync(iconDir)
  .filter((f) => f.endsWith(".mjs"))
  .sort()) {
  const mod = await import(pathToFileURL(join(iconDir, file)).href);
  icons[file.replace(/\.mjs$/, "")] = mod.default;
}
writeFileSync(join(out, "icons.json"), JSON.stringify(icons));
