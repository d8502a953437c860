"""What every section of `make bench` (bench/bench.py) shares: the knobs, the run's temp
folder, starting a `site` process and waiting for it to answer, HTTP helpers, a staff session,
synthetic leads through `site seed`, the lead-intake load (sections 5 and 12), a PostgreSQL
database made for the run, and the summary. The cluster test (scripts/cluster/) imports it
for the lead bodies and pg_url_for. Standard library only.

A new section imports this module only (never another section) and is a function
`measure_<name>(bench)` that bench.py calls when BENCH_ONLY names it. To start a server:

    site = bench.start_site("mine", {"DATABASE_URL": f"sqlite:{bench.path('mine', 'site.db')}"})
    ... requests to site.url ...
    bench.stop(site.proc)

Everything a section starts through `bench` (processes, databases) is stopped or dropped when
the run ends, even when it fails.
"""

import functools
import http.client
import json
import math
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import tomllib
import urllib.parse

import report
from report import judge  # noqa: F401 (the sections take it from here)

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))


class BenchError(Exception):
    """A failure that ends the run (printed as `bench: ...`, exit 1)."""


class Knobs:
    """The run's settings, from the environment (bench.py's docstring lists them)."""

    def __init__(self, env, sections):
        self.renders = int(env.get("BENCH_RENDERS", "200"))
        self.duration = env.get("BENCH_DURATION", "10s")
        self.connections = int(env.get("BENCH_CONNECTIONS", "64"))
        self.throughput_rounds = max(1, int(env.get("BENCH_THROUGHPUT_ROUNDS", "3")))
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
        unknown = [s for s in only if s not in sections]
        if unknown:
            raise BenchError(f"BENCH_ONLY: unknown section(s) {' '.join(unknown)} (known: {' '.join(sections)})")
        self.only = set(only or sections)
        if self.only & {"throughput"}:
            self.only.add("warm")


class Site:
    """One `site` process started by the bench: its process, base URL, log file and the
    environment that names its database (for `site staff add`, `site seed`)."""

    def __init__(self, proc, url, log, env):
        self.proc, self.url, self.log, self.env = proc, url, log, env
        self.db_env = {k: v for k, v in env.items() if k in ("DATABASE_URL", "SITE_CONFIG")}


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
        self.section = None  # the section running: each summary row is filed under it
        self.cleanups = []
        self.failures = []  # held figures short of their aim by more than their spread

    # -------------------------------------------------------------- output
    @staticmethod
    def say(title):
        print(f"\n== {title} ==", flush=True)

    @staticmethod
    def die(message):
        raise BenchError(message)

    def row(self, *cells):
        """A line of the summary printed at the end: what, figures, aim, verdict."""
        self.rows.append((self.section, tuple(cells) + ("",) * (4 - len(cells))))

    def held(self, what, figures, aim, checks, spread, note=""):
        """A summary line for a figure the site holds at its aim (docs/decisions/030): CHECKS
        are report.judge verdicts (one per number the aim names), SPREAD the run-to-run spread
        they allow. The worst verdict is the line's; a FAIL fails the run once every section
        has run (bench.py). Returns the verdict."""
        verdict = report.worst(checks)
        text = report.verdict_text(verdict, spread) + (f", {note}" if note else "")
        self.row(what, figures, aim, text)
        if verdict == report.FAIL:
            self.failures.append(f"{what}: {figures} (aim {aim})")
        return verdict

    def summary(self):
        self.say("summary")
        for _, cells in self.rows:
            print("%-28s %-38s %-28s %s" % cells)

    def rows_of(self, section):
        """The summary rows a section made (docs/benchmarks.md gets them, bench/report.py)."""
        return [cells for name, cells in self.rows if name == section]

    def path(self, *parts):
        return os.path.join(self.tmp, *parts)

    # -------------------------------------------------------------- processes
    def spawn(self, argv, log=None, **kwargs):
        """A process stopped when the run ends; its output appended to LOG (printed on failure)."""
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

    def free_port(self, port=None):
        """The first port from PORT (default BENCH_PORT) nothing listens on."""
        port = port or self.knobs.first_port
        first = port
        while port_busy(port):
            port += 1
            if port >= first + 100:
                self.die(f"no free port from {first}")
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

    def start_site(self, name, env, log_name=None, rate_limit=True, port=None, binary=None):
        """A `site` process (the release binary unless BINARY) in its own folder under the
        temp dir, listening on PORT (default: a free one from BENCH_PORT), with ENV on top of
        this process's environment; returns once /healthz answers. RATE_LIMIT lifts the
        per-address limit (the load comes from one address)."""
        port = port or self.free_port()
        folder = self.path(name)
        os.makedirs(folder, exist_ok=True)
        log = self.path(log_name or f"site-{name}.log")
        full = dict(os.environ, LISTEN=f"127.0.0.1:{port}", NO_COLOR="1", RUST_LOG_STYLE="never")
        if rate_limit:
            full["RATE_LIMIT_PER_MINUTE"] = "100000000"
        full.update(env)
        proc = self.spawn([binary or self.site_bin], log=log, cwd=folder, env=full)
        site = Site(proc, f"http://127.0.0.1:{port}", log, env)
        self.wait_http(site.url + "/healthz", proc, 60)
        return site

    def site_command(self, args, env, stdin=None):
        """`site ARGS...` with ENV (its database) on top of this process's environment; its
        standard output, or the run stops."""
        done = subprocess.run([self.site_bin, *args], input=stdin, capture_output=True, text=True,
                              env=dict(os.environ, NO_COLOR="1", RUST_LOG="warn", **env), cwd=self.root)
        if done.returncode != 0:
            self.die(f"site {' '.join(args)}: {(done.stderr or done.stdout).strip()[-500:]}")
        return done.stdout

    # -------------------------------------------------------------- data
    def seed(self, env, leads, notifications=False, newest_ms=None, spacing_ms=30_000):
        """LEADS synthetic leads in the database ENV names (`site seed`: its shape is in
        server/src/store/seed.rs; lead 0 is the newest). Returns the seconds it took."""
        args = ["seed", "--leads", str(leads), "--spacing-ms", str(spacing_ms), "--id-prefix", "bench"]
        if newest_ms is not None:
            args += ["--newest-ms", str(newest_ms)]
        if notifications:
            args.append("--notifications")
        started = time.monotonic()
        said = self.site_command(args, env).strip()
        took = time.monotonic() - started
        print(f"(site seed: {said}, in {took:.1f} s)", flush=True)
        return took

    def postgres_database(self, label):
        """A PostgreSQL database made for the run (dropped when the run ends, or by calling the
        second value): (its URL, drop), or (None, the reason there is none)."""
        url = self.knobs.pg_url
        if not shutil.which("psql"):
            return None, "skipped: psql is not installed"
        answer = psql(url, "SELECT 1", timeout=3)
        if answer.returncode != 0:
            return None, (f"skipped: PostgreSQL does not answer at {re.sub(r'//[^@/]*@', '//…@', url)} "
                          f"(BENCH_PG_URL or TEST_DATABASE_URL): {answer.stderr.strip()[-200:]}")
        name = f"bench_{label}_{os.getpid()}"
        made = psql(url, f"CREATE DATABASE {name}")
        if made.returncode != 0:
            return None, f"skipped: CREATE DATABASE {name} failed: {made.stderr.strip()[-200:]}"

        def drop():
            if drop in self.cleanups:
                self.cleanups.remove(drop)
            if psql(url, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)", timeout=5).returncode != 0:
                print(f"bench: could not drop the database {name}", file=sys.stderr)

        self.cleanups.append(drop)
        return pg_url_for(url, name), drop

    def cleanup(self, failed):
        for proc in reversed(list(self.procs)):
            self.stop(proc)
        for fn in reversed(list(self.cleanups)):
            fn()
        if failed:
            for log in self.logs:
                if os.path.exists(log) and os.path.getsize(log) > 0:
                    with open(log, errors="replace") as f:
                        lines = f.readlines()[-20:]
                    print(f"--- last lines of {log}", file=sys.stderr)
                    sys.stderr.write("".join(lines))
        shutil.rmtree(self.tmp, ignore_errors=True)


# ------------------------------------------------------------------ HTTP
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


class Client:
    """One keep-alive HTTP/1.1 connection, carrying a cookie once it has one."""

    def __init__(self, url):
        parts = urllib.parse.urlsplit(url)
        self.host, self.port = parts.hostname, parts.port
        self.conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
        self.cookie = ""

    def request(self, method, path, body=None, headers=None):
        h = {"Cookie": self.cookie} if self.cookie else {}
        h.update(headers or {})
        self.conn.request(method, path, body=body, headers=h)
        r = self.conn.getresponse()
        data = r.read()
        return r.status, r.getheaders(), data


def cookie_from(headers, name):
    for k, v in headers:
        if k.lower() == "set-cookie" and v.startswith(name + "="):
            return v.split(";", 1)[0]
    return None


STAFF_EMAIL = "bench@ringready.example"
STAFF_PASSWORD = "a long bench staff passphrase"


def sign_in(bench, site, add=True):
    """`site staff add` against the server's database (unless ADD is false: the account is
    there), then the sign-in form over HTTP: a Client with the staff session."""
    if add:
        bench.site_command(["staff", "add", STAFF_EMAIL], site.db_env, stdin=STAFF_PASSWORD + "\n")
    c = Client(site.url)
    status, headers, body = c.request("GET", "/admin/login")
    login_cookie = cookie_from(headers, "rr_admin_login")
    token = re.search(rb'name="csrf" value="([^"]+)"', body)
    if status != 200 or not login_cookie or not token:
        bench.die(f"GET /admin/login answered {status} without its form")
    c.cookie = login_cookie
    form = urllib.parse.urlencode({"csrf": token.group(1).decode(), "next": "/admin/leads", "email": STAFF_EMAIL,
                                   "password": STAFF_PASSWORD})
    status, headers, _ = c.request("POST", "/admin/login", form,
                                   {"Content-Type": "application/x-www-form-urlencoded", "Origin": site.url})
    session = cookie_from(headers, "rr_admin")
    if status != 303 or not session:
        bench.die(f"signing in answered {status}")
    c.cookie = session
    return c


# ------------------------------------------------------------------ lead intake (sections 5, 6 and 12, the cluster test)
SUBMIT_PATH = "/.netlify/functions/submit-lead"


@functools.cache
def body_template():
    """The submit-lead JSON body of the tests' common::lead_body, with @PHONE@ where the number goes."""
    with open(os.path.join(ROOT, "catalogue", "site.toml"), "rb") as f:
        brand = tomllib.load(f)["site"]["brand"]
    with open(os.path.join(ROOT, "catalogue", "consent.toml"), "rb") as f:
        wording = tomllib.load(f)["wording"][-1]["text"]
    body = {
        "serviceSlug": "hvac",
        "fullName": "Maria Gonzalez",
        "phone": "@PHONE@",
        "zipCode": "15213",
        "consent": True,
        "trustedform_token": "",
        "trustedform_ping": "",
        "trustedform_cert_url": "",
        "tcpa_text": wording.replace("{brand}", brand),
    }
    return json.dumps(body, separators=(",", ":"))


def phone(n):
    """The n-th distinct valid number: (724) EEE-LLLL, exchanges 200-999 without N11."""
    exchanges = [e for e in range(200, 1000) if e % 100 != 11]
    return "(724) %03d-%04d" % (exchanges[(n // 10000) % len(exchanges)], n % 10000)


def lead_body(n):
    """The n-th lead's submit-lead body (bytes): body_template with phone(n), so no two are duplicates."""
    return body_template().replace("@PHONE@", phone(n)).encode()


def post(url, body, timeout=10):
    parts = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    try:
        conn.request("POST", parts.path, body=body.encode(), headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def check_lead(bench, site):
    """One lead sent before the load must get its 201."""
    status, body = post(site.url + SUBMIT_PATH, body_template().replace("@PHONE@", "(724) 555-0100"))
    if status != 201:
        bench.die(f"a single lead was answered {status}, not 201: {body[:300].decode('utf-8', 'replace')}")


def lead_load(bench, site, name, body_file):
    """The wrk run against the site: the key=value figures leads.lua prints."""
    k = bench.knobs
    done = subprocess.run(
        ["wrk", f"-t{k.threads}", f"-c{k.connections}", f"-d{k.duration}", "--latency", "-s",
         "bench/leads.lua", site.url + SUBMIT_PATH, "--", body_file, str(k.threads)],
        capture_output=True, text=True, cwd=ROOT,
    )
    out = done.stdout
    with open(bench.path(f"wrk-leads-{name}.txt"), "w") as f:
        f.write(out)
    if not re.search(r"^leads accepted=", out, re.M):
        bench.die(f"no figures from leads.lua (wrk exited {done.returncode}): {(done.stderr or out).strip()[-500:]}")
    return fields(out, "leads")


def lead_report(bench, label, figures, rows):
    """The table line of a run (ROWS counted after the server stopped; the check lead is one of them)."""
    accepted, duplicate = int(figures["accepted"]), int(figures["duplicate"])
    sockets = sum(int(figures[x]) for x in ("connect", "read", "write", "timeout"))
    rps = round(accepted / float(figures["seconds"]))
    # wrk stops with up to one request per connection in flight: the server may still commit those.
    extra = rows - accepted - 1
    if 0 <= extra <= bench.knobs.connections and duplicate == 0:
        check = f"rows match (+{extra} in flight at stop)"
    else:
        check = "ROWS MISMATCH"
    p50, p99 = figures["p50_ms"], figures["p99_ms"]
    print("%-22s %8s %10s %10s %9s %6s %8s %7s %9s  %s" % (label, rps, f"{p50} ms", f"{p99} ms", accepted, duplicate,
                                                          figures["status"], sockets, rows, check), flush=True)
    return rps, p50, p99, check


# ------------------------------------------------------------------ PostgreSQL
def pg_url_for(url, database):
    """URL with its database name swapped for DATABASE (query string kept)."""
    base, q, query = url.partition("?")
    scheme, sep, rest = base.partition("://")
    if "/" in rest:
        rest = rest[: rest.rindex("/")]
    return f"{scheme}{sep}{rest}/{database}{q}{query}"


def psql(url, sql, timeout=None):
    env = dict(os.environ, PGCONNECT_TIMEOUT=str(timeout)) if timeout else None
    return subprocess.run(["psql", url, "-qAt", "-v", "ON_ERROR_STOP=1", "-c", sql], capture_output=True, text=True,
                          env=env)


# ------------------------------------------------------------------ figures
def percentile(sorted_values, q):
    """Nearest rank; NaN for no values."""
    if not sorted_values:
        return float("nan")
    return sorted_values[min(len(sorted_values), max(1, math.ceil(q / 100 * len(sorted_values)))) - 1]


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
