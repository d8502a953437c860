// Builds what the browser gets: the hydration bundle, the Tailwind CSS and the icon set.
// Output goes to target/web/, which the Rust build embeds into the binary.
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "target", "web");
mkdirSync(out, { recursive: true });

// The hydration bundle, split: what a page needs at start, plus chunks loaded on demand
// (legal texts, dialogs). Every file name carries its content hash, so the server can
// serve them all as immutable; manifest.json names the entry.
const clientOut = join(out, "client");
rmSync(clientOut, { recursive: true, force: true });
const result = await build({
  entryPoints: [join(root, "client", "entry-client.tsx")],
  outdir: clientOut,
  entryNames: "app-[hash]",
  chunkNames: "chunk-[hash]",
  splitting: true,
  metafile: true,
  bundle: true,
  minify: true,
  format: "esm",
  target: ["es2020"],
  platform: "browser",
  jsx: "automatic",
  define: { "process.env.NODE_ENV": '"production"' },
  legalComments: "none",
  logLevel: "warning",
});

const files = Object.keys(result.metafile.outputs).map((p) => p.split("/").pop());
const entry = Object.entries(result.metafile.outputs).find(([, o]) => o.entryPoint)?.[0].split("/").pop();
if (!entry) throw new Error("esbuild produced no entry chunk");
writeFileSync(join(out, "manifest.json"), JSON.stringify({ entry, files }, null, 2));

execFileSync(
  process.execPath,
  [
    join(root, "node_modules", "tailwindcss", "lib", "cli.js"),
    "-c", join(root, "client", "tailwind.config.cjs"),
    "-i", join(root, "client", "styles.css"),
    "-o", join(out, "site.css"),
    "--minify",
  ],
  { stdio: ["ignore", "ignore", "inherit"] },
);

// Every lucide icon as data ({ "air-vent": [[tag, attrs], ...] }). The server validates
// catalogue icon names against this set and sends each page only the icons it uses.
const iconDir = join(root, "node_modules", "lucide", "dist", "esm", "icons");
const icons = {};
for (const file of readdirSync(iconDir).filter((f) => f.endsWith(".mjs")).sort()) {
  const mod = await import(pathToFileURL(join(iconDir, file)).href);
  icons[file.replace(/\.mjs$/, "")] = mod.default;
}
writeFileSync(join(out, "icons.json"), JSON.stringify(icons));
