// Renders the SSR bundle in Node, in a bare vm context (like the QuickJS engine: no Node
// globals), with the props render_bench wrote, and times render(page, propsJson).
//
// Usage: node bench/node-render.mjs BUNDLE PROPS_JSON [ITERATIONS] [WARMUP]
// Prints one line per page type, in the same shape as render_bench:
//   node <page> n=<N> median_ms=<x> p90_ms=<y> min_ms=<z> bytes=<n> same_markup=<yes|no>

import { readFileSync } from "node:fs";
import vm from "node:vm";

const [bundlePath, propsPath, iterArg = "200", warmArg = "50"] = process.argv.slice(2);
if (!bundlePath || !propsPath) {
  console.error("usage: node-render.mjs BUNDLE PROPS_JSON [ITERATIONS] [WARMUP]");
  process.exit(2);
}
const iterations = Math.max(1, Number.parseInt(iterArg, 10));
const warmup = Math.max(0, Number.parseInt(warmArg, 10));

const context = vm.createContext({});
const started = process.hrtime.bigint();
vm.runInContext(readFileSync(bundlePath, "utf8"), context, { filename: "ssr.js" });
const render = context.render;
if (typeof render !== "function") {
  console.error("the bundle does not define globalThis.render");
  process.exit(1);
}
console.log(`node engine-start ms=${(Number(process.hrtime.bigint() - started) / 1e6).toFixed(3)}`);

const pages = JSON.parse(readFileSync(propsPath, "utf8"));
const quantile = (sorted, q) => sorted[Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length))) - 1];

for (const [page, { props, markup: quickjsMarkup }] of Object.entries(pages)) {
  let markup = "";
  for (let i = 0; i < warmup; i++) markup = render(page, props);
  const samples = new Float64Array(iterations);
  for (let i = 0; i < iterations; i++) {
    const t = process.hrtime.bigint();
    markup = render(page, props);
    samples[i] = Number(process.hrtime.bigint() - t) / 1e6;
  }
  samples.sort();
  const same = markup === quickjsMarkup ? "yes" : "no";
  console.log(
    `node ${page} n=${iterations} median_ms=${quantile(samples, 0.5).toFixed(3)} ` +
      `p90_ms=${quantile(samples, 0.9).toFixed(3)} min_ms=${samples[0].toFixed(3)} bytes=${Buffer.byteLength(markup)} same_markup=${same}`,
  );
}
