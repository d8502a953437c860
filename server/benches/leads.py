#!/usr/bin/env python3
"""Lead helpers for server/benches/run.sh (standard library only).

  leads.py body                       the submit-lead JSON body of the tests' common::lead_body,
                                      with @PHONE@ where the number goes
  leads.py count-sqlite DB            leads count=<rows in leads>
  leads.py steady URL RATE SECONDS    POSTs RATE leads/s for SECONDS on a fixed schedule
                                      (distinct phones), then prints
                                      steady sent=.. accepted=.. duplicate=.. other=.. errors=..
                                      rate=.. lag_p99_ms=.. lag_max_ms=.. p50_ms=.. p99_ms=..
  leads.py delivery DB TIMEOUT        waits (up to TIMEOUT s) until no outbox row is pending,
                                      then prints the e-mail accept-to-delivered latency:
                                      delivery count=.. p50_ms=.. p99_ms=.. max_ms=..
                                      pending=.. delivered=.. failed=.. waited_s=..
Percentiles are nearest-rank.
"""

import http.client
import json
import math
import os
import sqlite3
import sys
import threading
import time
import tomllib
import urllib.parse
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def percentile(sorted_values, q):
    if not sorted_values:
        return float("nan")
    return sorted_values[min(len(sorted_values), max(1, math.ceil(q / 100 * len(sorted_values)))) - 1]


def body_template():
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


def steady(url, rate, seconds):
    parts = urllib.parse.urlsplit(url)
    template = body_template()
    total = int(rate * seconds)
    local = threading.local()
    lock = threading.Lock()
    statuses, latencies, lags, errors = {}, [], [], []

    def post(n, due):
        started = time.monotonic()
        body = template.replace("@PHONE@", phone(n)).encode()
        try:
            conn = getattr(local, "conn", None)
            if conn is None:
                conn = local.conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
            conn.request("POST", parts.path, body=body, headers={"Content-Type": "application/json"})
            response = conn.getresponse()
            response.read()
            status = response.status
        except (OSError, http.client.HTTPException) as e:
            local.conn = None
            with lock:
                errors.append(repr(e))
            return
        finished = time.monotonic()
        with lock:
            statuses[status] = statuses.get(status, 0) + 1
            latencies.append((finished - started) * 1000)
            lags.append((started - due) * 1000)

    start = time.monotonic() + 0.2
    with ThreadPoolExecutor(max_workers=32) as pool:
        for n in range(total):
            due = start + n / rate
            delay = due - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            pool.submit(post, n, due)
    elapsed = time.monotonic() - start
    latencies.sort()
    lags.sort()
    accepted = statuses.get(201, 0)
    duplicate = statuses.get(200, 0)
    other = sum(statuses.values()) - accepted - duplicate
    for e in errors[:3]:
        print("  request error:", e, file=sys.stderr)
    print(
        f"steady sent={total} accepted={accepted} duplicate={duplicate} other={other} errors={len(errors)} "
        f"rate={total / elapsed:.1f} lag_p99_ms={percentile(lags, 99):.1f} lag_max_ms={(lags[-1] if lags else 0):.1f} "
        f"p50_ms={percentile(latencies, 50):.1f} p99_ms={percentile(latencies, 99):.1f}"
    )


def connect(db):
    return sqlite3.connect(db, timeout=10)


def count_sqlite(db):
    with connect(db) as conn:
        (n,) = conn.execute("SELECT COUNT(*) FROM leads").fetchone()
    print(f"leads count={n}")


def delivery(db, timeout):
    started = time.monotonic()
    conn = connect(db)
    while True:
        (pending,) = conn.execute("SELECT COUNT(*) FROM outbox WHERE status = 'pending'").fetchone()
        if pending == 0 or time.monotonic() - started > timeout:
            break
        time.sleep(0.1)
    waited = time.monotonic() - started
    counts = dict(conn.execute("SELECT status, COUNT(*) FROM outbox GROUP BY status").fetchall())
    rows = conn.execute(
        "SELECT o.delivered_ms - l.received_at_ms FROM outbox o JOIN leads l ON l.id = o.lead_id "
        "WHERE o.channel = 'email' AND o.status = 'delivered' ORDER BY 1"
    ).fetchall()
    conn.close()
    ms = [r[0] for r in rows]
    print(
        f"delivery count={len(ms)} p50_ms={percentile(ms, 50)} p99_ms={percentile(ms, 99)} max_ms={ms[-1] if ms else 'nan'} "
        f"pending={counts.get('pending', 0)} delivered={counts.get('delivered', 0)} failed={counts.get('failed', 0)} waited_s={waited:.1f}"
    )


def main(argv):
    usage = "usage: leads.py body | count-sqlite DB | steady URL RATE SECONDS | delivery DB TIMEOUT"
    if not argv:
        sys.exit(usage)
    command, args = argv[0], argv[1:]
    if command == "body" and not args:
        sys.stdout.write(body_template())
    elif command == "count-sqlite" and len(args) == 1:
        count_sqlite(args[0])
    elif command == "steady" and len(args) == 3:
        steady(args[0], float(args[1]), float(args[2]))
    elif command == "delivery" and len(args) == 2:
        delivery(args[0], float(args[1]))
    else:
        sys.exit(usage)


if __name__ == "__main__":
    main(sys.argv[1:])
