// Builds the server-side rendering bundle that QuickJS runs inside the Rust server:
// one IIFE, no imports, production React, and the non-streaming renderer only
// (the streaming one doubles the size and needs MessageChannel/TextEncoder).

import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "target", "web");
mkdirSync(out, { recursive: true });

await build({
  entryPoints: [join(root, "ssr-bundle", "entry-server.tsx")],
  outfile: join(out, "ssr.js"),
  bundle: true,
  minify: true,
  format: "iife",
  target: ["es2020"],
  platform: "neutral",
  mainFields: ["browser", "module", "main"],
  jsx: "automatic",
  define: { "process.env.NODE_ENV": '"production"' },
  alias: {
    "react-dom/server": join(root, "node_modules", "react-dom", "cjs", "react-dom-server-legacy.browser.production.js"),
  },
  legalComments: "none",
  logLevel: "warning",
});
