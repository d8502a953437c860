"""Section 11 of `make bench` (BENCH_ONLY=admin-burst): the staff console under a public burst.

The release server with its shipped render settings (one engine per core for everyone, one
reserved for signed-in staff, queues of 64) on SQLite with BENCH_BURST_LEADS leads (10,000);
the console's signed-out limit and the visitors' limit are lifted, so that the burst is served
(or refused for lack of render capacity) rather than refused by a rate limit, as a burst from
many addresses would be. A staff member signs in and loads the leads list, one request after
another on one connection, first with the server otherwise idle, then during each burst:

  - sign-in page loads: wrk keeps BENCH_BURST_CONNECTIONS (200) connections loading
    /admin/login for BENCH_BURST_SECONDS (15 s);
  - public renders: the same number of connections posting a broken no-JavaScript
    registration form, whose answer (the form again, with its message) is rendered for each
    request: more than the public engines can do, so the public queue overflows (503).

Printed for each phase: the staff list's p50, p95 and slowest answer and how many answers were
not 200 (the aim: none), the burst's requests/s and non-2xx answers (the rendered form answers
are 400s; the 503s are renders refused for a full public queue, from /metrics), and the
engines' renders during the burst by lane (/metrics: site_renders_total), which shows that sign-in
page loads render nothing.
"""

import os
import re
import subprocess
import time

import common
from common import percentile

LEADS = int(os.environ.get("BENCH_BURST_LEADS", "10000"))
CONNECTIONS = int(os.environ.get("BENCH_BURST_CONNECTIONS", "200"))
SECONDS = int(os.environ.get("BENCH_BURST_SECONDS", "15"))
STAFF_REQUESTS = int(os.environ.get("BENCH_BURST_STAFF_REQUESTS", "200"))

REGISTER_POST = """wrk.method = "POST"
wrk.body = "source=request&accountType=pilot"
wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
"""


def renders(bench, metrics_url):
    """(public renders, staff renders, renders refused for a full queue) so far, from /metrics."""
    _, body = bench.fetch(metrics_url)
    text = body.decode()
    series = ['site_renders_total{lane="public"}', 'site_renders_total{lane="staff"}', "site_render_queue_rejected_total"]
    found = [re.search(rf"^{re.escape(name)} (\d+)$", text, re.M) for name in series]
    if not all(found):
        bench.die("/metrics lacks site_renders_total by lane or site_render_queue_rejected_total")
    return tuple(int(m.group(1)) for m in found)


def staff_loads(bench, client, until=None):
    """Loads the leads list STAFF_REQUESTS times (or until `until` says stop): sorted times in
    ms, and the statuses other than 200."""
    times, bad = [], []
    for _ in range(STAFF_REQUESTS):
        if until is not None and until():
            break
        t = time.perf_counter()
        status, _, _ = client.request("GET", "/admin/leads")
        times.append((time.perf_counter() - t) * 1000)
        if status != 200:
            bad.append(status)
    if not times:
        bench.die("no staff request was made during the burst")
    return sorted(times), bad


def line(label, times, bad, burst=""):
    print("%-30s %6d %9.1f ms %9.1f ms %9.1f ms %7d  %s" % (label, len(times), percentile(times, 50), percentile(times, 95),
                                                          times[-1], len(bad), burst), flush=True)


def burst(bench, site, client, metrics_url, label, path, script=None):
    """Runs wrk against PATH while the staff member loads the list; prints and returns the figures."""
    argv = ["wrk", f"-t{bench.knobs.threads}", f"-c{CONNECTIONS}", f"-d{SECONDS}s"]
    if script:
        argv += ["-s", script]
    before = renders(bench, metrics_url)
    proc = subprocess.Popen(argv + [site.url + path], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    bench.procs.append(proc)
    time.sleep(1)  # the burst is on before the first staff request
    started = time.monotonic()
    times, bad = staff_loads(bench, client, until=lambda: proc.poll() is not None or time.monotonic() - started > SECONDS - 2)
    out, _ = proc.communicate(timeout=SECONDS + 30)
    bench.procs.remove(proc)
    after = renders(bench, metrics_url)
    rps = re.search(r"^Requests/sec:\s+([0-9.]+)", out, re.M)
    non2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    if not rps:
        bench.die(f"no figures from wrk for {label}:\n{out[-500:]}")
    public, staff, refused = (a - b for a, b in zip(after, before))
    note = (f"burst {float(rps.group(1)):.0f} req/s, {non2xx.group(1) if non2xx else 0} non-2xx "
            f"({refused} of them 503); renders public {public}, staff {staff}")
    line(label, times, bad, note)
    return times, bad, public


def measure_burst(bench):
    bench.say(f"11. staff console under a public burst: the leads list ({LEADS:,} leads, SQLite), one staff "
              f"connection, while wrk keeps {CONNECTIONS} connections busy for {SECONDS} s (aim: no answer but 200)")
    db = bench.path("admin-burst", "site.db")
    os.makedirs(os.path.dirname(db), exist_ok=True)
    metrics_port = bench.free_port(bench.knobs.first_port + 50)
    env = {
        "DATABASE_URL": f"sqlite:{db}",
        "ADMIN_SIGN_IN_RATE_LIMIT_PER_MINUTE": "100000000",
        "METRICS_LISTEN": f"127.0.0.1:{metrics_port}",
    }
    site = bench.start_site("admin-burst", env, log_name="admin-burst.log")
    metrics_url = f"http://127.0.0.1:{metrics_port}/metrics"
    bench.seed(site.db_env, LEADS)
    client = common.sign_in(bench, site)
    script = bench.path("register-post.lua")
    with open(script, "w") as f:
        f.write(REGISTER_POST)

    print("%-30s %6s %12s %12s %12s %7s" % ("phase", "loads", "p50", "p95", "slowest", "not 200"), flush=True)
    staff_loads(bench, client)  # warm-up
    idle, idle_bad = staff_loads(bench, client)
    line("idle", idle, idle_bad)
    sign_in, sign_in_bad, sign_in_renders = burst(bench, site, client, metrics_url, "sign-in page burst", "/admin/login")
    renders_burst, renders_bad, _ = burst(bench, site, client, metrics_url, "public render burst", "/api/account-requests",
                                          script)
    bench.stop(site.proc)
    bad = len(sign_in_bad) + len(renders_bad)
    bench.row("console under burst", f"staff p95 {percentile(sign_in, 95):.1f} ms (sign-in), "
              f"{percentile(renders_burst, 95):.1f} ms (renders)",
              f"idle p95 {percentile(idle, 95):.1f} ms", "OK" if bad == 0 and sign_in_renders == 0 else "ABOVE")
