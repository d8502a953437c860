"""Section 1 of `make bench` (BENCH_ONLY=render): render time per page type, on one engine,
outside pool and cache: QuickJS (the render_bench binary, the server's own page table) and
Node (node-render.mjs: the same ssr.js in a bare vm context, the same props), plus the ratio.
Also checks that both give the same markup.
"""

import os

from common import ROOT, fields, ratio, run

SERVICE = "hvac"


def measure_render(bench):
    k = bench.knobs
    bench.say(f"1. render time per page type (one engine, no cache; {k.renders} renders each after warm-up)")
    built = run([k.cargo, "build", "--release", "--locked", "--quiet", "--bin", "render_bench"], cwd=ROOT)
    if built.returncode != 0:
        bench.die(f"cargo build --bin render_bench failed:\n{built.stderr[-2000:]}")
    props = bench.path("props.json")
    qjs = run([os.path.join(ROOT, "target/release/render_bench"), "--iterations", str(k.renders),
               "--service", SERVICE, "--props-out", props], cwd=ROOT)
    if qjs.returncode != 0:
        bench.die(f"render_bench failed: {qjs.stderr.strip()[-1000:]}")
    node = run(["node", "bench/node-render.mjs", bench.bundle, props, str(k.renders)], cwd=ROOT)
    if node.returncode != 0:
        bench.die(f"node-render.mjs failed: {node.stderr.strip()[-1000:]}")
    print("%-10s %12s %12s %12s %12s %9s %8s %6s" % ("page", "QuickJS med", "QuickJS p90", "Node med", "Node p90",
                                                    "QJS/Node", "markup", "same"))
    for page in ("home", "campaigns", "service", "not-found"):
        q, n = fields(qjs.stdout, f"quickjs {page}"), fields(node.stdout, f"node {page}")
        if "median_ms" not in q or "median_ms" not in n:
            bench.die(f"no render figures for {page}")
        r = ratio(q["median_ms"], n["median_ms"])
        same = n.get("same_markup", "")
        print("%-10s %9s ms %9s ms %9s ms %9s ms %8sx %7sB %6s" % (page, q["median_ms"], q.get("p90_ms"), n["median_ms"],
                                                                 n.get("p90_ms"), r, q.get("bytes"), same))
        bench.row(f"render {page} (median)", f"QuickJS {q['median_ms']} ms, Node {n['median_ms']} ms", f"{r}x slower",
                  "same markup" if same == "yes" else "MARKUP DIFFERS")
    print("engine start: QuickJS %s ms, Node vm %s ms (evaluating the bundle)" % (
        fields(qjs.stdout, "quickjs engine-start").get("ms"), fields(node.stdout, "node engine-start").get("ms")))
    print(f"(QuickJS times include the run_gc() the server does after each render; service = /{SERVICE})")
