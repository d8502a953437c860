"""A cluster on loopback, for the cluster test (cluster_test.py) and `make bench`'s cluster
section: N `site` servers on one fresh PostgreSQL database behind Caddy run with
deploy/Caddyfile as it is (its addresses and upstreams from the environment), and a real
SMTP server (scripts/smtp-server.mjs) that may take its time over each message. A server
may run with its clock ahead (libfaketime, Debian's libfaketime). Standard library only.

    with Cluster(work_dir, admin_url, slots=3) as cluster:
        cluster.start_all(binary)          # every server, then the balancer
        cluster.url                        # http://127.0.0.1:PORT, the balancer
        cluster.servers[1].kill(); cluster.servers[1].start(binary)
        cluster.replace(0, newer_binary)   # SIGTERM (the server drains), then the new one

Everything is stopped, and the database dropped, when the block ends.
"""

import email
import email.policy
import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.parse

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
# bench/common.py (standard library only) holds the helpers the bench and the cluster share.
BENCH = os.path.join(ROOT, "bench")
if BENCH not in sys.path:
    sys.path.insert(0, BENCH)
from common import pg_url_for  # noqa: E402
CADDYFILE = os.path.join(ROOT, "deploy", "Caddyfile")
SMTP_SCRIPT = os.path.join(ROOT, "scripts", "smtp-server.mjs")
FAKETIME_LIBS = (
    "/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1",
    "/usr/lib/aarch64-linux-gnu/faketime/libfaketimeMT.so.1",
    "/usr/lib/faketime/libfaketimeMT.so.1",
)
# More than two of the balancer's health check intervals (deploy/Caddyfile: 1 s).
DRAIN_MS = 3000


class ClusterError(Exception):
    """The cluster could not be set up (a tool missing, a process that would not start)."""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def faketime_lib():
    return next((p for p in FAKETIME_LIBS if os.path.exists(p)), None)


def psql(url, sql, timeout=30):
    """Runs SQL with psql; its rows as lists of strings (unaligned, tab-separated)."""
    done = subprocess.run(["psql", url, "-qAt", "-F", "\t", "-v", "ON_ERROR_STOP=1", "-c", sql],
                          capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        raise ClusterError(f"psql: {done.stderr.strip()}")
    return [line.split("\t") for line in done.stdout.splitlines() if line]


def request(method, url, body=None, headers=None, source=None, timeout=30):
    """One request on a connection of its own, from the loopback address `source` (the
    balancer passes it on as the visitor's address). (status, headers, body), or raises
    OSError / http.client.HTTPException (a reset, a refused connection)."""
    parts = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout,
                                      source_address=(source, 0) if source else None)
    try:
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        conn.request(method, path, body=body, headers=headers or {})
        r = conn.getresponse()
        return r.status, r.headers, r.read()
    finally:
        conn.close()


def wait_until(check, timeout, what, interval=0.2):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(interval)
    raise ClusterError(f"timed out after {timeout:.0f} s waiting for {what}")


class Smtp:
    """scripts/smtp-server.mjs on a loopback port, taking `delay_ms` over each message."""

    def __init__(self, work, delay_ms):
        self.port = free_port()
        self.maildir = os.path.join(work, "maildir")
        self.log = open(os.path.join(work, "smtp.log"), "w")
        self.proc = subprocess.Popen(["node", SMTP_SCRIPT, "--listen", f"127.0.0.1:{self.port}",
                                      "--maildir", self.maildir, "--delay-ms", str(delay_ms)],
                                     stdout=self.log, stderr=subprocess.STDOUT, cwd=ROOT)
        wait_until(self._listening, 30, "the SMTP server")

    def _listening(self):
        if self.proc.poll() is not None:
            raise ClusterError("the SMTP server exited; see smtp.log")
        with open(self.log.name) as f:
            return "listening on" in f.read()

    def messages(self):
        """Every accepted message: dicts with message_id, lead_id (from the text), subject."""
        out = []
        new = os.path.join(self.maildir, "new")
        for name in sorted(os.listdir(new)) if os.path.isdir(new) else []:
            with open(os.path.join(new, name), "rb") as f:
                msg = email.message_from_binary_file(f, policy=email.policy.default)
            text = ""
            for part in msg.walk():
                if part.get_content_type() == "text/plain":
                    text += part.get_content()
            lead = re.search(r"Lead id:\s+([0-9a-f-]{36})", text)
            out.append({"message_id": str(msg.get("Message-ID", "")).strip(),
                        "lead_id": lead.group(1) if lead else None, "subject": str(msg.get("Subject", ""))})
        return out

    def stop(self):
        stop(self.proc)
        self.log.close()


class Server:
    """One slot: a `site` server on a fixed port, started and stopped as the test says.
    Each process it runs logs to a file of its own (server-<slot>-<n>.log, JSON lines)."""

    def __init__(self, cluster, slot, clock_ahead_s=0):
        self.cluster, self.slot, self.clock_ahead_s = cluster, slot, clock_ahead_s
        self.port, self.metrics_port = free_port(), free_port()
        self.proc, self.binary, self.runs, self.logs = None, None, 0, []

    @property
    def base(self):
        return f"http://127.0.0.1:{self.port}"

    def env(self):
        c = self.cluster
        env = dict(os.environ)
        env.update({
            "LISTEN": f"127.0.0.1:{self.port}",
            "METRICS_LISTEN": f"127.0.0.1:{self.metrics_port}",
            "DATABASE_URL": c.db_url,
            "SMTP_URL": f"smtp://127.0.0.1:{c.smtp.port}" if c.smtp else "",
            "NOTIFY_RECIPIENTS": "leads@cluster.example",
            "TRUST_FORWARDED_FOR": "true",
            "SHUTDOWN_DRAIN_MS": str(DRAIN_MS),
            "SHUTDOWN_GRACE_MS": "15000",
            "RENDER_POOL_SIZE": "2",
            "LOG_FORMAT": "json",
        })
        env.update(c.server_env)
        if self.clock_ahead_s:
            lib = faketime_lib()
            if not lib:
                raise ClusterError("libfaketime is not installed (Debian packages faketime, libfaketime: make faketime)")
            env.update({"LD_PRELOAD": lib, "FAKETIME": f"+{self.clock_ahead_s}", "FAKETIME_DONT_FAKE_MONOTONIC": "1"})
        return env

    def start(self, binary, wait=True):
        self.runs += 1
        log = os.path.join(self.cluster.work, f"server-{self.slot}-{self.runs}.log")
        self.logs.append(log)
        self.binary = binary
        with open(log, "w") as out:
            self.proc = subprocess.Popen([binary], env=self.env(), stdout=out, stderr=subprocess.STDOUT, cwd=self.cluster.work)
        if wait:
            self.wait_ready()

    def ready(self):
        if self.proc.poll() is not None:
            raise ClusterError(f"server {self.slot} exited ({self.proc.returncode}); see {self.logs[-1]}")
        try:
            return request("GET", f"{self.base}/healthz", timeout=2)[0] == 200
        except (OSError, http.client.HTTPException):
            return False

    def wait_ready(self, timeout=240):
        wait_until(self.ready, timeout, f"server {self.slot} to answer /healthz", interval=0.25)

    def kill(self):
        """SIGKILL: no drain, nothing finished."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def pause(self):
        """SIGSTOP: the process stops answering, its connections and health checks hang."""
        self.proc.send_signal(signal.SIGSTOP)

    def resume(self):
        self.proc.send_signal(signal.SIGCONT)

    def terminate(self, timeout=60):
        """SIGTERM: the server drains, finishes what is in flight and exits."""
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(timeout=timeout)
        return self.proc.returncode

    def log_lines(self, run=None):
        """The JSON lines of every process this slot ran (or of the `run`-th, from 1)."""
        paths = self.logs if run is None else [self.logs[run - 1]]
        out = []
        for path in paths:
            with open(path) as f:
                for line in f:
                    try:
                        out.append(json.loads(line))
                    except ValueError:
                        pass
        return out


class Balancer:
    """Caddy with deploy/Caddyfile, its variables pointing at the cluster's servers."""

    def __init__(self, work, upstreams):
        if not shutil.which("caddy"):
            raise ClusterError("caddy is not installed (Debian package caddy: make deploy-tools)")
        self.port = free_port()
        home = os.path.join(work, "caddy")
        os.makedirs(home, exist_ok=True)
        env = dict(os.environ)
        env.update({
            "SITE_ADDRESS": f"http://127.0.0.1:{self.port}",
            "SITE_APEX_ADDRESS": f"http://127.0.0.1:{free_port()}",
            "SITE_UPSTREAMS": " ".join(upstreams),
            "CADDY_GLOBAL_OPTIONS": "admin off",
            "HOME": home, "XDG_DATA_HOME": home, "XDG_CONFIG_HOME": home,
        })
        self.log_path = os.path.join(work, "caddy.log")
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen(["caddy", "run", "--adapter", "caddyfile", "--config", CADDYFILE],
                                     env=env, stdout=self.log, stderr=subprocess.STDOUT, cwd=home)
        self.url = f"http://127.0.0.1:{self.port}"

        def up():
            if self.proc.poll() is not None:
                raise ClusterError("caddy exited; see caddy.log")
            try:
                return request("GET", f"{self.url}/healthz", timeout=2)[0] == 200
            except (OSError, http.client.HTTPException):
                return False
        wait_until(up, 60, "the balancer to route to a server")

    def log_entries(self):
        """The JSON lines Caddy has logged so far."""
        self.log.flush()
        out = []
        with open(self.log_path) as f:
            for line in f:
                try:
                    out.append(json.loads(line))
                except ValueError:
                    pass
        return out

    def stop(self):
        stop(self.proc)
        self.log.close()


def stop(proc, timeout=30):
    if proc and proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


class Cluster:
    """A database made for the run on the PostgreSQL server of `admin_url`, an SMTP server
    (unless smtp_delay_ms is None), `slots` servers (the `fast_clock` one with its clock
    `clock_ahead_s` ahead) and the balancer. `server_env` is added to every server's."""

    def __init__(self, work, admin_url, slots=3, smtp_delay_ms=0, fast_clock=None, clock_ahead_s=240, server_env=None):
        self.work, self.admin_url, self.server_env = work, admin_url, dict(server_env or {})
        os.makedirs(work, exist_ok=True)
        self.db_name = f"cluster_{int(time.time() * 1000)}_{os.getpid()}"
        self.db_url = pg_url_for(admin_url, self.db_name)
        self.smtp_delay_ms = smtp_delay_ms
        self.smtp, self.balancer = None, None
        self.servers = [Server(self, i, clock_ahead_s if i == fast_clock else 0) for i in range(slots)]

    def __enter__(self):
        self._drop_stale()
        psql(self.admin_url, f'CREATE DATABASE "{self.db_name}"')
        if self.smtp_delay_ms is not None:
            self.smtp = Smtp(self.work, self.smtp_delay_ms)
        return self

    def __exit__(self, *exc):
        for s in self.servers:
            if s.proc:
                stop(s.proc)
        if self.balancer:
            self.balancer.stop()
        if self.smtp:
            self.smtp.stop()
        try:
            psql(self.admin_url, f'DROP DATABASE IF EXISTS "{self.db_name}" WITH (FORCE)')
        except (ClusterError, subprocess.TimeoutExpired) as e:
            print(f"cluster: could not drop database {self.db_name}: {e}")
        return False

    def _drop_stale(self):
        """Databases of runs over an hour old (a run killed before it could drop its own)."""
        hour_ago = int(time.time() * 1000) - 3_600_000
        for (name,) in psql(self.admin_url, "SELECT datname FROM pg_database WHERE datname LIKE 'cluster\\_%'"):
            made = name.split("_")[1] if name.count("_") >= 2 else ""
            if made.isdigit() and int(made) < hour_ago:
                psql(self.admin_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def site(self, binary, args, stdin=None):
        """Runs `site ARGS` against the cluster's database (e.g. `staff add`)."""
        env = self.servers[0].env()
        return subprocess.run([binary, *args], env=env, input=stdin, capture_output=True, text=True, timeout=120)

    def start_all(self, binary, balancer=True):
        """Starts every server at once (one of them migrates the database, the others wait
        for it), then the balancer."""
        for s in self.servers:
            s.start(binary, wait=False)
        for s in self.servers:
            s.wait_ready()
        if balancer:
            self.balancer = Balancer(self.work, [f"127.0.0.1:{s.port}" for s in self.servers])

    @property
    def url(self):
        return self.balancer.url

    def replace(self, slot, binary):
        """One step of a rolling upgrade: SIGTERM (the server drains), then `binary` on its port."""
        server = self.servers[slot]
        code = server.terminate()
        server.start(binary)
        return code

    def sql(self, query):
        return psql(self.db_url, query)
