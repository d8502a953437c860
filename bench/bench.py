#!/usr/bin/env python3
"""`make bench`: measures the site against its performance budgets in one run, and writes each
section's summary into docs/benchmarks.md (bench/report.py: the generated part, with the date
and the commit; a section not run keeps its previous figures). BENCH_WRITE_DOCS=0 only prints.

This file holds main() and the list of sections; common.py what they share (starting a
`site` process, HTTP, a staff session, `site seed`, a PostgreSQL database for the run, the
summary); each section is a module of its own that imports common.py only: render.py (1),
throughput.py (2, 3), sizes.py (4), leads.py (5, 6), lighthouse.py (7), admin.py (8),
ops.py (9), callback.py (10), admin_burst.py (11), cluster.py (12), footprint.py (13). Run it
from anywhere: python3 bench/bench.py

  1. Render time per page type, on one engine, outside pool and cache: QuickJS (the
     render_bench binary, the server's own page table) and Node (the same ssr.js in a bare
     vm context, the same props), plus the ratio. Also checks both give the same markup.
  2. Time to warm every route at start (the server's "render cache warmed" log line).
  3. Cached-page throughput of /hvac with wrk: the server against nginx serving the same
     bytes and headers from a file on loopback (identity; gzip when nginx has gzip_static),
     and brotli against the server alone (skipped, not fatal, when nginx is missing).
  4. Page weight: the test that holds the pages to their budgets in `make test`
     (server/tests/it/pages/weight.rs, docs/product.md "Page weight"), run to print its table:
     the gzipped HTML with its CSS and the gzipped JavaScript each page loads, ahead and with
     its islands live.
  5. Lead intake: accepted leads/s and p50/p99 of POST /.netlify/functions/submit-lead under
     wrk (leads.lua: a distinct valid phone per request, 201s counted), on SQLite (WAL,
     synchronous=FULL) and on PostgreSQL in a database created for the run and dropped
     after (skipped when PostgreSQL does not answer); rows counted in the database after.
  6. Accept-to-delivered: a steady 50 leads/s for 20 s into a local SMTP server
     (scripts/smtp-server.mjs, from the npm packages), then outbox.delivered_ms -
     leads.received_at_ms of every e-mail.
  7. Lighthouse (mobile, lighthouse.py): Lighthouse 13's default config in Debian's Chromium
     against the release server started with NOSCRIPT_VARIANTS=true, 3 runs per URL, on
     /, /hvac, /campaigns, /privacy and on each of them with its scripts stripped
     (/_noscript/...): scores of every run, median FCP, LCP, TBT, CLS, JS bytes, and the
     FCP and LCP ratios to the script-free page; then a Markdown table of those rows.
  8. Staff console (admin.py): the leads list with 1M leads in SQLite and in PostgreSQL, p50
     and p95 of each filter over HTTP with a staff session, against the 50 ms aim.
  9. Operations (ops.py): `site backup` and `site copy-store` on 100,000 leads
     (BENCH_OPS_LEADS), the copy into a PostgreSQL database made for the run.
 10. The callback (callback.py): tap to confirmation on screen in Chromium as a phone,
     median of 20, with the certification script off (aim 0.5 s) and on (the token 300 ms
     after the tap).
 11. Staff console under a public burst (admin_burst.py): the leads list's p50/p95 and its
     answers other than 200 for a signed-in staff member, idle and while wrk keeps 200
     connections loading the sign-in page, then posting forms whose answers are rendered.
 12. Lead intake through the balancer (cluster.py): section 5's load sent to Caddy (deploy/
     Caddyfile) in front of 1, 2 and 3 release servers on one PostgreSQL database made for
     each run (the cluster test's harness, scripts/cluster/harness.py); skipped without
     caddy or PostgreSQL.
 13. Footprint (footprint.py): the release server's resident memory with its default
     settings at rest and under 256 connections, and the release binary's size, against
     their aims (80 MB, 100 MB, 20 MB).

The figures the site holds at a limit (cached pages against nginx, lead intake, the
callback, Lighthouse, the footprint) are printed beside their aims with a verdict that
allows for their run-to-run spread (bench/report.py, `judge`); when one misses its aim by
more than that, the run still finishes and writes its figures, then exits 1 naming it.

Expects `make build` to have run (the Makefile's bench target does it). Standard library
only. Knobs, by environment: BENCH_RENDERS (200), BENCH_DURATION (10s), BENCH_CONNECTIONS
(64), BENCH_THROUGHPUT_ROUNDS (3: the cached-page runs, medians), BENCH_THREADS (2), BENCH_PORT (first port tried, 18080), BENCH_PG_URL (an existing
database to connect to for creating the run's own; default $TEST_DATABASE_URL, else
postgres://postgres@127.0.0.1:5432/test), BENCH_STEADY_RATE (50), BENCH_STEADY_SECONDS (20),
BENCH_LH_PATHS ("/ /hvac /campaigns /privacy"), BENCH_LH_RUNS (3), BENCH_LH_TIMEOUT (60 s a
run), BENCH_LH_MAX_WAIT_MS (20000), BENCH_LH_VERSION (13.5.0), CHROME_PATH (else
$CHROMIUM_PATH, else /usr/bin/chromium), and BENCH_ONLY (default all: a subset of
"render warm throughput sizes leads delivery lighthouse admin ops callback admin-burst cluster footprint";
throughput implies warm), BENCH_ADMIN_REQUESTS (200 per filter), BENCH_CALLBACK_RUNS (20),
BENCH_CALLBACK_TOKEN_MS (300), BENCH_BURST_LEADS (10000), BENCH_BURST_CONNECTIONS (200),
BENCH_BURST_SECONDS (15), BENCH_BURST_STAFF_REQUESTS (200), BENCH_ADMIN_LEADS (1,000,000),
BENCH_OPS_LEADS (100,000), BENCH_FOOTPRINT_CONNECTIONS (256), BENCH_REST_SECONDS (3).
"""

import os
import shutil
import signal
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the work tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import admin  # noqa: E402
import admin_burst  # noqa: E402
import callback  # noqa: E402
import cluster  # noqa: E402
import footprint  # noqa: E402
import leads  # noqa: E402
import lighthouse  # noqa: E402
import ops  # noqa: E402
import render  # noqa: E402
import report  # noqa: E402
import sizes  # noqa: E402
import throughput  # noqa: E402
from common import ROOT, Bench, BenchError, Knobs, run  # noqa: E402


def warm_and_throughput(bench):
    """Sections 2 and 3 share one server: the one warmed is the one loaded."""
    site = throughput.measure_warm(bench)
    if "throughput" in bench.knobs.only:
        throughput.measure_throughput(bench, site)
    bench.stop(site.proc)


# The sections in the order they run, each with its function (None: run by another).
SECTIONS = (
    ("render", render.measure_render),
    ("warm", warm_and_throughput),
    ("throughput", None),
    ("sizes", sizes.measure_sizes),
    ("leads", leads.measure_intake),
    ("delivery", leads.measure_delivery),
    ("ops", ops.measure_ops),
    ("lighthouse", lighthouse.measure_lighthouse),
    ("admin", admin.measure_admin),
    ("callback", callback.measure_callback),
    ("admin-burst", admin_burst.measure_burst),
    ("cluster", cluster.measure_cluster),
    ("footprint", footprint.measure_footprint),
)


def check_tools(bench):
    k = bench.knobs
    if not shutil.which("wrk") or not throughput.find_nginx():
        print("installing wrk and nginx-light (Debian packages)", flush=True)
        sudo = [] if os.getuid() == 0 else ["sudo"]
        if run(sudo + ["apt-get", "update", "-qq"]).returncode != 0 or run(
            sudo + ["env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "install", "-y", "-qq", "wrk", "nginx-light"]
        ).returncode != 0:
            print("bench: apt-get install wrk nginx-light failed", file=sys.stderr)
    needs_wrk = k.only & {"throughput", "leads", "admin-burst", "cluster", "footprint"}
    for tool in ["node"] + (["wrk"] if needs_wrk else []):
        if not shutil.which(tool):
            bench.die(f"{tool} is required")
    if not os.path.isfile(bench.bundle):
        bench.die(f"{bench.bundle} is missing: run 'make bench' (it builds the web bundles first)")
    if not os.access(bench.site_bin, os.X_OK):
        bench.die(f"{bench.site_bin} is missing: run 'make bench' (it builds the release binary first)")
    if "delivery" in k.only and not os.path.isdir(os.path.join(ROOT, "node_modules", "smtp-server")):
        bench.die("the SMTP test server's npm package is missing: run 'make deps' (make bench does)")


def versions(bench):
    node = run(["node", "--version"]).stdout.strip()
    nginx = "no nginx"
    if throughput.find_nginx():
        nginx = run([throughput.find_nginx(), "-v"]).stderr.strip().removeprefix("nginx version: ")
    wrk = "no wrk"
    if shutil.which("wrk"):
        first = (run(["wrk", "-v"]).stdout + "\n").splitlines()[0].split()
        wrk = " ".join(first[:2])
    return f"{bench.cores} cores, {node}, {nginx}, {wrk}"


def write_docs(bench, ran, date, machine, extra):
    """Each section run gets its block in docs/benchmarks.md, replacing the previous one."""
    order = [name for name, _ in SECTIONS]
    sha = report.commit(ROOT)
    blocks = {name: report.section_block(name, date, sha, machine, bench.rows_of(name), extra.get(name, ""))
              for name in ran}
    path = os.path.join(ROOT, "docs", "benchmarks.md")
    report.write(path, blocks, order)
    print(f"\nwrote {', '.join(ran)} into {os.path.relpath(path, ROOT)} (commit {sha}, {date})", flush=True)


# ================================================================== main
def main():
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    os.chdir(ROOT)
    try:
        bench = Bench(Knobs(os.environ, [name for name, _ in SECTIONS]))
    except BenchError as e:
        print(f"bench: {e}", file=sys.stderr)
        return 1
    failed, code = True, 1
    try:
        check_tools(bench)
        print(f"site bench: {versions(bench)}", flush=True)
        started = time.strftime("%Y-%m-%d", time.gmtime())
        machine = f"{versions(bench)}, load average {os.getloadavg()[0]:.1f} at the start"
        figures = {}
        for name, measure in SECTIONS:
            if measure and name in bench.knobs.only:
                bench.section = name
                figures[name] = measure(bench)
        bench.summary()
        extra = {}
        if figures.get("lighthouse"):
            extra["lighthouse"] = lighthouse.markdown(bench, figures["lighthouse"])
            bench.say("Lighthouse summary (Markdown)")
            print(extra["lighthouse"])
        if os.environ.get("BENCH_WRITE_DOCS", "1") != "0":
            write_docs(bench, [n for n in figures], started, machine, extra)
        failed, code = False, 0
        if bench.failures:
            print(f"\nbench: {len(bench.failures)} figure(s) short of their aim by more than the run-to-run spread:",
                  file=sys.stderr)
            for failure in bench.failures:
                print(f"  {failure}", file=sys.stderr)
            code = 1
    except BenchError as e:
        print(f"bench: {e}", file=sys.stderr)
    except KeyboardInterrupt:
        code = 130
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 1
    finally:
        sys.stdout.flush()
        bench.cleanup(failed)
    return code


if __name__ == "__main__":
    sys.exit(main())
