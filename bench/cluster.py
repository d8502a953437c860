"""Section 12 of `make bench` (BENCH_ONLY=cluster): lead intake through the balancer with 1,
2 and 3 servers on one PostgreSQL database. The cluster is the cluster test's
(scripts/cluster/harness.py: release servers behind Caddy run with deploy/Caddyfile, a
database made for each run and dropped after); the load is section 5's (wrk with
leads.lua, a distinct phone per request). No notification channel: intake only. The rate
limit is lifted, since every wrk connection comes from 127.0.0.1.
"""

import os
import shutil
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "cluster"))
import harness  # noqa: E402
from common import body_template, check_lead, lead_load, lead_report, psql  # noqa: E402

ROOT = harness.ROOT


class Through:
    """What lead_load needs of a site: its URL (here, the balancer's)."""

    def __init__(self, url):
        self.url = url


def measure_cluster(bench):
    k = bench.knobs
    bench.say(f"12. lead intake through the balancer (Caddy, deploy/Caddyfile) with 1, 2 and 3 servers on one "
              f"PostgreSQL: wrk -t{k.threads} -c{k.connections} -d{k.duration}, a new phone per request; the "
              f"client, Caddy, the servers and PostgreSQL share the {bench.cores} cores")
    if not shutil.which("caddy"):
        print("cluster: skipped: caddy is not installed (make deploy-tools)")
        bench.row("leads/s through balancer", "skipped: no caddy")
        return
    if psql(k.pg_url, "SELECT 1", timeout=3).returncode != 0:
        print("cluster: skipped: PostgreSQL does not answer (set BENCH_PG_URL)")
        bench.row("leads/s through balancer", "skipped: no PostgreSQL")
        return
    body_file = bench.path("cluster-lead-body.json")
    with open(body_file, "w") as f:
        f.write(body_template())
    binary = bench.site_bin
    print("%-22s %8s %10s %10s %9s %6s %8s %7s %9s" % ("servers", "leads/s", "p50", "p99", "201s", "200s", "non-2xx",
                                                     "sock.err", "DB rows"), flush=True)
    results = []
    for n in (1, 2, 3):
        work = bench.path(f"cluster-{n}")
        env = {"RATE_LIMIT_PER_MINUTE": "1000000000", "METRICS_LISTEN": ""}
        with harness.Cluster(work, k.pg_url, slots=n, smtp_delay_ms=None, server_env=env) as cluster:
            cluster.start_all(binary)
            site = Through(cluster.url)
            check_lead(bench, site)
            time.sleep(2)  # the balancer's first health checks of every server
            figures = lead_load(bench, site, f"cluster-{n}", body_file)
            rows = int(cluster.sql("SELECT count(*) FROM leads")[0][0])
        rps, p50, p99, check = lead_report(bench, f"{n} server{'s' if n > 1 else ''}", figures, rows)
        results.append((n, rps, p50, p99, check))
    for n, rps, p50, p99, check in results:
        bench.row(f"leads/s via balancer, {n}", f"{rps}/s, p50 {p50} ms, p99 {p99} ms", "(one PostgreSQL)", check)
    print("(each server is a release build with its own group-commit writer; the balancer is Caddy's round robin;")
    print(" on one machine the servers share its cores, so more servers show the cost of coordination, not scaling)")
