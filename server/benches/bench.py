#!/usr/bin/env python3
"""`make bench`: measures the site against its performance budgets (README, Benchmarks) in one run.

This file holds main(), what the measurements share and sections 1-3; leads.py has
sections 5-6, browser.py sections 4 and 7, admin.py section 8, ops.py section 9,
callback.py section 10, admin_burst.py section 11, cluster.py section 12. Run it from anywhere: python3 server/benches/bench.py

  1. Render time per page type, on one engine, outside pool and cache: QuickJS (the
     render_bench binary, the server's own page table) and Node (the same ssr.js in a bare
     vm context, the same props), plus the ratio. Also checks both give the same markup.
  2. Time to warm every route at start (the server's "render cache warmed" log line).
  3. Cached-page throughput of /hvac with wrk: the server against nginx serving the same
     bytes and headers from a file on loopback (identity; gzip when nginx has gzip_static),
     and brotli against the server alone (skipped, not fatal, when nginx is missing).
  4. Sizes: gzipped HTML document (CSS inline) and gzipped JS it loads before any
     interaction, for /, /campaigns and /hvac, against the 14 KB and 90 KB budgets (1 KB = 1024 B).
  5. Lead intake: accepted leads/s and p50/p99 of POST /.netlify/functions/submit-lead under
     wrk (leads.lua: a distinct valid phone per request, 201s counted), on SQLite (WAL,
     synchronous=FULL) and on PostgreSQL in a database created for the run and dropped
     after (skipped when PostgreSQL does not answer); rows counted in the database after.
  6. Accept-to-delivered: a steady 50 leads/s for 20 s into a local SMTP server
     (scripts/smtp-server.mjs, from the npm packages), then outbox.delivered_ms -
     leads.received_at_ms of every e-mail.
  7. Lighthouse (mobile): Lighthouse 13's default config in Debian's Chromium
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

Expects `make build` to have run (the Makefile's bench target does it). Standard library
only. Knobs, by environment: BENCH_RENDERS (200), BENCH_DURATION (10s), BENCH_CONNECTIONS
(64), BENCH_THREADS (2), BENCH_PORT (first port tried, 18080), BENCH_PG_URL (an existing
database to connect to for creating the run's own; default $TEST_DATABASE_URL, else
postgres://postgres@127.0.0.1:5432/test), BENCH_STEADY_RATE (50), BENCH_STEADY_SECONDS (20),
BENCH_LH_PATHS ("/ /hvac /campaigns /privacy"), BENCH_LH_RUNS (3), BENCH_LH_TIMEOUT (60 s a
run), BENCH_LH_MAX_WAIT_MS (20000), BENCH_LH_VERSION (13.5.0), CHROME_PATH (else
$CHROMIUM_PATH, else /usr/bin/chromium), and BENCH_ONLY (default all: a subset of
"render warm throughput sizes leads delivery lighthouse admin ops callback admin-burst cluster";
throughput and sizes imply warm), BENCH_ADMIN_REQUESTS (200 per filter), BENCH_CALLBACK_RUNS (20),
BENCH_CALLBACK_TOKEN_MS (300), BENCH_BURST_LEADS (10000), BENCH_BURST_CONNECTIONS (200),
BENCH_BURST_SECONDS (15), BENCH_BURST_STAFF_REQUESTS (200).
"""

import gzip
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import http.client
import urllib.parse

sys.dont_write_bytecode = True  # no __pycache__ in the work tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import admin  # noqa: E402
import admin_burst  # noqa: E402
import browser  # noqa: E402
import callback  # noqa: E402
import cluster  # noqa: E402
import leads  # noqa: E402
import ops  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SECTIONS = ("render", "warm", "throughput", "sizes", "leads", "delivery", "lighthouse", "admin", "ops", "callback", "admin-burst",
            "cluster")
SERVICE = "hvac"


class BenchError(Exception):
    """A failure that ends the run (printed as `bench: ...`, exit 1)."""


class Knobs:
    def __init__(self, env):
        self.renders = int(env.get("BENCH_RENDERS", "200"))
        self.duration = env.get("BENCH_DURATION", "10s")
        self.connections = int(env.get("BENCH_CONNECTIONS", "64"))
        self.threads = int(env.get("BENCH_THREADS", "2"))
        self.first_port = int(env.get("BENCH_PORT", "18080"))
        self.pg_url = env.get("BENCH_PG_URL") or env.get("TEST_DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/test"
        self.steady_rate = env.get("BENCH_STEADY_RATE", "50")
        self.steady_seconds = env.get("BENCH_STEADY_SECONDS", "20")
        self.cargo = env.get("CARGO", "cargo")
        self.npm = env.get("NPM", "npm")
        self.lh_version = env.get("BENCH_LH_VERSION", "13.5.0")
        self.lh_paths = env.get("BENCH_LH_PATHS", "/ /hvac /campaigns /privacy").split()
        self.lh_runs = max(1, int(env.get("BENCH_LH_RUNS", "3")))
        self.lh_timeout = float(env.get("BENCH_LH_TIMEOUT", "60"))
        self.lh_max_wait_ms = env.get("BENCH_LH_MAX_WAIT_MS", "20000")
        self.lh_chrome = env.get("CHROME_PATH") or env.get("CHROMIUM_PATH") or "/usr/bin/chromium"
        self.smtp_script = os.path.join(ROOT, "scripts", "smtp-server.mjs")
        self.callback_runs = max(1, int(env.get("BENCH_CALLBACK_RUNS", "20")))
        self.callback_token_ms = int(env.get("BENCH_CALLBACK_TOKEN_MS", "300"))
        only = env.get("BENCH_ONLY", "").replace(",", " ").split()
        unknown = [s for s in only if s not in SECTIONS]
        if unknown:
            raise BenchError(f"BENCH_ONLY: unknown section(s) {' '.join(unknown)} (known: {' '.join(SECTIONS)})")
        self.only = set(only or SECTIONS)
        if self.only & {"throughput", "sizes"}:
            self.only.add("warm")


class Site:
    """One release server started by the bench."""

    def __init__(self, proc, url, log):
        self.proc, self.url, self.log = proc, url, log


class Bench:
    """What the measurements share: knobs, the temp dir, processes to stop, summary rows."""

    def __init__(self, knobs):
        self.knobs = knobs
        self.root = ROOT
        self.cores = len(os.sched_getaffinity(0))
        self.site_bin = os.path.join(ROOT, "target/release/site")
        self.bundle = os.path.join(ROOT, "target/web/ssr.js")
        self.tmp = tempfile.mkdtemp(prefix="site-bench.", dir=os.environ.get("TMPDIR", "/tmp"))
        self.procs = []
        self.logs = []
        self.rows = []
        self.cleanups = []
        self.nginx = None

    # -------------------------------------------------------------- output
    @staticmethod
    def say(title):
        print(f"\n== {title} ==", flush=True)

    @staticmethod
    def port_busy(port):
        return port_busy(port)

    @staticmethod
    def die(message):
        raise BenchError(message)

    def row(self, *cells):
        self.rows.append(tuple(cells) + ("",) * (4 - len(cells)))

    def path(self, *parts):
        return os.path.join(self.tmp, *parts)

    # -------------------------------------------------------------- processes
    def spawn(self, argv, log=None, **kwargs):
        out = open(log, "ab") if log else subprocess.DEVNULL
        try:
            proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, **kwargs)
        finally:
            if log:
                out.close()
        self.procs.append(proc)
        if log:
            self.logs.append(log)
        return proc

    def stop(self, proc):
        """SIGTERM, up to 5 s to exit, then SIGKILL."""
        if proc is None:
            return
        if proc.poll() is None:
            try:
                proc.terminate()
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
        proc.wait()
        if proc in self.procs:
            self.procs.remove(proc)

    def fetch(self, url, encoding=None):
        """Like curl -fsS: the headers and body of a 200, else the run stops."""
        try:
            status, headers, body = http_get(url, {"Accept-Encoding": encoding} if encoding else None)
        except OSError as e:
            self.die(f"GET {url}: {e}")
        if status != 200:
            self.die(f"GET {url} answered {status}")
        return headers, body

    def free_port(self, port):
        while port_busy(port):
            port += 1
            if port >= self.knobs.first_port + 100:
                self.die(f"no free port from {self.knobs.first_port}")
        return port

    def wait_http(self, url, proc, seconds):
        """Until URL answers 200, failing if PROC exits first."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                if http_get(url, timeout=1)[0] == 200:
                    return
            except OSError:
                pass
            if proc.poll() is not None:
                self.die(f"process {proc.pid} exited before {url} answered")
            time.sleep(0.1)
        self.die(f"{url} did not answer within {seconds} s")

    def start_site(self, name, env, log_name=None, rate_limit=True):
        """The site, in its own folder under the temp dir, on a free port."""
        port = self.free_port(self.knobs.first_port)
        folder = self.path(name)
        os.makedirs(folder, exist_ok=True)
        log = self.path(log_name or f"lead-server-{name}.log")
        full = dict(os.environ, LISTEN=f"127.0.0.1:{port}", NO_COLOR="1", RUST_LOG_STYLE="never")
        if rate_limit:
            full["RATE_LIMIT_PER_MINUTE"] = "100000000"
        full.update(env)
        proc = self.spawn([self.site_bin], log=log, cwd=folder, env=full)
        site = Site(proc, f"http://127.0.0.1:{port}", log)
        self.wait_http(site.url + "/healthz", proc, 60)
        return site

    def cleanup(self, failed):
        for proc in reversed(list(self.procs)):
            self.stop(proc)
        for fn in reversed(self.cleanups):
            fn()
        if failed:
            for log in self.logs:
                if os.path.exists(log) and os.path.getsize(log) > 0:
                    with open(log, errors="replace") as f:
                        lines = f.readlines()[-20:]
                    print(f"--- last lines of {log}", file=sys.stderr)
                    sys.stderr.write("".join(lines))
        shutil.rmtree(self.tmp, ignore_errors=True)


# ------------------------------------------------------------------ small helpers
def port_busy(port):
    with socket.socket() as s:
        s.settimeout(1)
        return s.connect_ex(("127.0.0.1", port)) == 0


def http_get(url, headers=None, timeout=10):
    """(status, [(name, value)...], body): no redirects followed, no decoding."""
    parts = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    try:
        conn.request("GET", parts.path or "/", headers=headers or {})
        response = conn.getresponse()
        return response.status, response.getheaders(), response.read()
    finally:
        conn.close()


def header(headers, name):
    return next((v for k, v in headers if k.lower() == name), "")


def fields(text, prefix):
    """key=value pairs on the lines that start with PREFIX (later lines do not override)."""
    out = {}
    for line in text.splitlines():
        if line.startswith(prefix + " "):
            for word in line.split():
                key, eq, value = word.partition("=")
                if eq and key not in out:
                    out[key] = value
    return out


def ratio(a, b):
    try:
        return f"{float(a) / float(b):.2f}" if float(b) > 0 else "n/a"
    except (TypeError, ValueError):
        return "n/a"


def run(argv, **kwargs):
    return subprocess.run(argv, capture_output=True, text=True, **kwargs)


def find_nginx():
    return shutil.which("nginx") or ("/usr/sbin/nginx" if os.access("/usr/sbin/nginx", os.X_OK) else None)


def check_tools(bench):
    k = bench.knobs
    if not shutil.which("wrk") or not find_nginx():
        print("installing wrk and nginx-light (Debian packages)", flush=True)
        sudo = [] if os.getuid() == 0 else ["sudo"]
        if run(sudo + ["apt-get", "update", "-qq"]).returncode != 0 or run(
            sudo + ["env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "install", "-y", "-qq", "wrk", "nginx-light"]
        ).returncode != 0:
            print("bench: apt-get install wrk nginx-light failed", file=sys.stderr)
    bench.nginx = find_nginx()
    needs_wrk = k.only & {"throughput", "leads", "admin-burst"}
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
    if bench.nginx:
        nginx = run([bench.nginx, "-v"]).stderr.strip().removeprefix("nginx version: ")
    wrk = "no wrk"
    if shutil.which("wrk"):
        first = (run(["wrk", "-v"]).stdout + "\n").splitlines()[0].split()
        wrk = " ".join(first[:2])
    return f"{bench.cores} cores, {node}, {nginx}, {wrk}"


# ================================================================== 1. render time
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
    node = run(["node", "server/benches/node-render.mjs", bench.bundle, props, str(k.renders)], cwd=ROOT)
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


# ================================================================== 2. warm at start
def measure_warm(bench):
    """Starts the server the next two sections use and returns it."""
    bench.say("2. time to warm every route at start")
    os.makedirs(bench.path("run", "data"), exist_ok=True)
    started = time.monotonic()
    site = bench.start_site("run", {"RUST_LOG": "info"}, log_name="server.log", rate_limit=False)
    ready_ms = round((time.monotonic() - started) * 1000)
    with open(site.log, errors="replace") as f:
        log = re.sub(r"\x1b\[[0-9;]*m", "", f.read())
    line = next((l for l in log.splitlines() if "render cache warmed" in l), None)
    if line is None:
        bench.die("no 'render cache warmed' line in the server log")
    kv = {m.group(1): m.group(2) for m in re.finditer(r"(?:^| )(ms|pages|failed|engines)=([0-9]+)", line)}
    ms, pages, failed, engines = (kv.get(x, "") for x in ("ms", "pages", "failed", "engines"))
    print(f"render cache warmed: {ms} ms for {pages} pages ({failed} failed) on {engines} engines")
    print(f"process start to /healthz answering: {ready_ms} ms")
    bench.row("warm all routes at start", f"{ms} ms", f"{pages} pages, {engines} engines",
              "0 failed" if failed == "0" else f"{failed} FAILED")
    return site


# ================================================================== 3. throughput
def write_nginx_conf(bench, www, port, headers):
    """nginx repeats the server's headers (security headers, cache-control, vary) so both
    answers weigh about the same; date, length, type, etag and the like it sets itself."""
    skip = {"date", "content-length", "content-type", "content-encoding", "etag", "last-modified", "connection",
            "keep-alive", "transfer-encoding", "server", "accept-ranges"}
    add = "".join(f'            add_header {name} "{value.strip()}" always;\n' for name, value in headers
                  if name.lower() not in skip and not re.search(r'[$"\\]', value))
    info = run([bench.nginx, "-V"]).stderr
    gzip_static = "--with-http_gzip_static_module" in info
    temp = "".join(f"    {m}_temp_path {bench.path('nginx', 'tmp', m)};\n" for m in ("client_body", "proxy", "fastcgi",
                   "uwsgi", "scgi") if m == "client_body" or f"--without-http_{m}_module" not in info)
    ctype = header(headers, "content-type") or "text/html; charset=utf-8"
    conf = ("user root;\n" if os.getuid() == 0 else "") + f"""daemon off;
worker_processes {bench.cores};
pid {bench.path('nginx', 'nginx.pid')};
error_log {bench.path('nginx', 'error.log')} warn;
events {{ worker_connections 4096; }}
http {{
{temp}    access_log off;
    server_tokens off;
    sendfile on;
    tcp_nopush on;
    tcp_nodelay on;
    keepalive_requests 1000000;
    keepalive_timeout 75s;
    open_file_cache max=16;
    server {{
        listen 127.0.0.1:{port};
        root {www};
        location = /{SERVICE} {{
            default_type "{ctype}";
            {"gzip_static on;" if gzip_static else ""}
{add}        }}
    }}
}}
"""
    with open(bench.path("nginx", "nginx.conf"), "w") as f:
        f.write(conf)
    return gzip_static


def start_nginx(bench, www, identity, gz, port, headers):
    """nginx serving the server's bytes, or a reason it cannot."""
    if not bench.nginx:
        return None, False, "skipped: nginx not found (apt-get install nginx-light)"
    os.makedirs(bench.path("nginx", "tmp"), exist_ok=True)
    gzip_static = write_nginx_conf(bench, www, port, headers)
    for dirpath, dirnames, filenames in os.walk(bench.tmp):
        for name in dirnames + filenames:
            p = os.path.join(dirpath, name)
            os.chmod(p, os.stat(p).st_mode | (0o555 if os.path.isdir(p) else 0o444))
    os.chmod(bench.tmp, 0o755)
    argv = [bench.nginx, "-p", bench.path("nginx"), "-c", bench.path("nginx", "nginx.conf"), "-e",
            bench.path("nginx", "error.log")]
    test = run(argv[:1] + ["-t", "-q"] + argv[1:])
    if test.returncode != 0:
        return None, False, f"skipped: nginx refused the generated config: {test.stderr.strip()[-200:]}"
    proc = bench.spawn(argv, log=bench.path("nginx", "stderr.log"))
    url = f"http://127.0.0.1:{port}/{SERVICE}"
    bench.wait_http(url, proc, 10)
    if bench.fetch(url)[1] != identity:
        bench.die("nginx does not serve the server's identity bytes")
    if gzip_static and bench.fetch(url, "gzip")[1] != gz:
        bench.die("nginx does not serve the server's gzip bytes")
    return proc, gzip_static, None


def wrk(bench, name, url, encoding=None):
    """A short warm-up, then the measured run: (requests/s, 'p50 .., p99 ..')."""
    k = bench.knobs
    extra = ["-H", f"Accept-Encoding: {encoding}"] if encoding else []
    base = ["wrk", f"-t{k.threads}", f"-c{k.connections}"]
    run(base + ["-d2s"] + extra + [url])
    out = run(base + [f"-d{k.duration}", "--latency"] + extra + [url]).stdout
    for line in out.splitlines():
        if "Non-2xx" in line or "Socket errors" in line:
            print(f"  {name}: {line.strip()}", file=sys.stderr)
    m = re.search(r"^Requests/sec:\s+([0-9.]+)", out, re.M)
    if not m:
        bench.die(f"no figures from wrk for {name}:\n{out[-500:]}")
    lat = {p: re.search(rf"^\s+{p}%\s+(\S+)", out, re.M) for p in ("50", "99")}
    return f"{float(m.group(1)):.0f}", "p50 %s, p99 %s" % tuple(x.group(1) if x else "" for x in lat.values())


def measure_throughput(bench, site):
    k = bench.knobs
    bench.say(f"3. cached-page throughput: /{SERVICE}, wrk -t{k.threads} -c{k.connections} -d{k.duration} "
              f"(client and server share the {bench.cores} cores)")
    www = bench.path("www")
    os.makedirs(www, exist_ok=True)
    url = f"{site.url}/{SERVICE}"
    headers, identity = bench.fetch(url)
    gz_headers, gz = bench.fetch(url, "gzip")
    br_headers, br = bench.fetch(url, "br")
    if header(gz_headers, "content-encoding").strip() != "gzip":
        bench.die("the server did not answer gzip to Accept-Encoding: gzip")
    if header(br_headers, "content-encoding").strip() != "br":
        bench.die("the server did not answer br to Accept-Encoding: br")
    if gzip.decompress(gz) != identity:
        bench.die(f"the gzip body of /{SERVICE} differs from its identity body")
    for name, data in ((SERVICE, identity), (SERVICE + ".gz", gz)):
        with open(os.path.join(www, name), "wb") as f:
            f.write(data)
    port = bench.free_port(int(urllib.parse.urlsplit(site.url).port) + 1)
    nginx, gzip_static, nginx_note = start_nginx(bench, www, identity, gz, port, headers)
    nginx_url = f"http://127.0.0.1:{port}/{SERVICE}"

    print("%-26s %12s %28s %10s" % ("target", "requests/s", "latency", "body"))

    def line(label, rps_lat, size):
        print("%-26s %12s %28s %9sB" % (label, rps_lat[0], rps_lat[1], size), flush=True)
        return rps_lat[0]

    rps = {"server identity": line("server identity", wrk(bench, "server-identity", url), len(identity))}
    if nginx:
        rps["nginx identity"] = line("nginx identity", wrk(bench, "nginx-identity", nginx_url), len(identity))
    rps["server gzip"] = line("server gzip", wrk(bench, "server-gzip", url, "gzip"), len(gz))
    if gzip_static:
        rps["nginx gzip"] = line("nginx gzip (gzip_static)", wrk(bench, "nginx-gzip", nginx_url, "gzip"), len(gz))
    rps["server br"] = line("server br", wrk(bench, "server-br", url, "br"), len(br))
    if nginx:
        r = ratio(rps["server identity"], rps["nginx identity"])
        print(f"server/nginx, identity: {r}")
        bench.row(f"/{SERVICE} identity req/s", f"server {rps['server identity']}, nginx {rps['nginx identity']}",
                  f"server/nginx {r}")
    else:
        print(f"nginx: {nginx_note}")
        bench.row(f"/{SERVICE} identity req/s", f"server {rps['server identity']}", f"nginx {nginx_note}")
    if gzip_static:
        r = ratio(rps["server gzip"], rps["nginx gzip"])
        print(f"server/nginx, gzip:     {r}")
        bench.row(f"/{SERVICE} gzip req/s", f"server {rps['server gzip']}, nginx {rps['nginx gzip']}", f"server/nginx {r}")
    else:
        bench.row(f"/{SERVICE} gzip req/s", f"server {rps['server gzip']}",
                  "(nginx lacks gzip_static)" if nginx else "(no nginx)")
    bench.row(f"/{SERVICE} br req/s", f"server {rps['server br']}", "(nginx-light has no brotli)")
    bench.stop(nginx)


# ================================================================== main
def main():
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    os.chdir(ROOT)
    try:
        bench = Bench(Knobs(os.environ))
    except BenchError as e:
        print(f"bench: {e}", file=sys.stderr)
        return 1
    failed, code = True, 1
    try:
        check_tools(bench)
        only = bench.knobs.only
        print(f"site bench: {versions(bench)}", flush=True)
        if "render" in only:
            measure_render(bench)
        if "warm" in only:
            site = measure_warm(bench)
            if "throughput" in only:
                measure_throughput(bench, site)
            if "sizes" in only:
                browser.measure_sizes(bench, site)
            bench.stop(site.proc)
        if "leads" in only:
            leads.measure_intake(bench)
        if "delivery" in only:
            leads.measure_delivery(bench)
        if "ops" in only:
            ops.measure_ops(bench)
        results = browser.measure_lighthouse(bench) if "lighthouse" in only else None
        if "admin" in only:
            admin.measure_admin(bench)
        if "callback" in only:
            callback.measure_callback(bench)
        if "admin-burst" in only:
            admin_burst.measure_burst(bench)
        if "cluster" in only:
            cluster.measure_cluster(bench)
        bench.say("summary")
        for cells in bench.rows:
            print("%-28s %-38s %-28s %s" % cells)
        if results:
            bench.say("Lighthouse summary (Markdown)")
            print(browser.markdown(bench, results))
        failed, code = False, 0
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
