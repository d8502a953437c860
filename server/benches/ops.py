"""Section 8 of `make bench` (BENCH_ONLY=ops): how long the operator's commands take on a
database of BENCH_OPS_LEADS leads (100,000), each with two notifications, some delivered.

  - `site backup FILE`: the online copy, its integrity_check and row counts (the server
    not running: the copy's own cost);
  - `site copy-store --from sqlite://… --to postgres://…`: every table copied into a database
    made for the run (and dropped after), then counted and hashed on both sides.

The database is filled directly with Python's sqlite3 in one transaction, after `site`
itself created the schema (`site staff list` opens it, which applies the migrations).
"""

import os
import re
import shutil
import sqlite3
import subprocess
import time
import uuid

import leads


def fill(db, n):
    """N leads with their consent text, two outbox rows each (one lead in three delivered)."""
    conn = sqlite3.connect(db)
    text = "By submitting, I agree to be called back about my request."
    sha = "0" * 63 + "1"
    now = int(time.time() * 1000) - n * 1000
    with conn:
        conn.execute("INSERT INTO consent_texts (sha256, text, first_seen_ms) VALUES (?, ?, ?)", (sha, text, now))
        ids = [str(uuid.UUID(int=(i + 1) << 64)) for i in range(n)]
        conn.executemany(
            "INSERT INTO leads (id, received_at_ms, service_slug, full_name, phone_e164, zip_code, consent, consent_sha256, "
            "ip, user_agent, page_url, utm_source) VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?)",
            ((ids[i], now + i * 1000, ("hvac", "roofing", "plumbing")[i % 3], "Dana Whitfield",
              f"+1412{2000000 + i:07d}", "15213", sha, f"203.0.113.{i % 250}",
              "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)", "https://www.ringready.example/hvac",
              "google" if i % 3 == 0 else None) for i in range(n)))
        # Rows written in their final state (an UPDATE per row would run the status triggers
        # a hundred thousand times); the attempts of the delivered ones beside them.
        def outbox_rows():
            for i in range(n):
                t = now + i * 1000
                for ch in ("email", "webhook"):
                    done = i % 3 == 0
                    yield (ids[i], ch, "delivered" if done else "pending", 1 if done else 0, t, t, t + 80 if done else None)
        conn.executemany(
            "INSERT INTO outbox (lead_id, channel, status, attempts, next_attempt_ms, created_ms, delivered_ms) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)", outbox_rows())
        conn.execute(
            "INSERT INTO delivery_attempts (outbox_id, lead_id, channel, at_ms, outcome) "
            "SELECT id, lead_id, channel, delivered_ms, 'delivered' FROM outbox WHERE status = 'delivered'")
    conn.close()


def timed(argv, env):
    started = time.monotonic()
    done = subprocess.run(argv, capture_output=True, text=True, env=env)
    return time.monotonic() - started, done


def measure_ops(bench):
    n = int(os.environ.get("BENCH_OPS_LEADS", "100000"))
    bench.say(f"8. operations: site backup and site copy-store on {n:,} leads")
    folder = bench.path("ops")
    os.makedirs(folder, exist_ok=True)
    db = os.path.join(folder, "site.db")
    env = dict(os.environ, DATABASE_URL=f"sqlite:{db}", NO_COLOR="1", RUST_LOG="warn")
    made = subprocess.run([bench.site_bin, "staff", "list"], capture_output=True, text=True, env=env)
    if made.returncode != 0:
        bench.die(f"site staff list (creating the database): {made.stderr.strip()[-300:]}")
    started = time.monotonic()
    fill(db, n)
    size_mb = os.path.getsize(db) / 1e6
    print(f"filled {db}: {n:,} leads, {2 * n:,} outbox rows, {size_mb:.0f} MB in {time.monotonic() - started:.1f} s",
          flush=True)

    seconds, done = timed([bench.site_bin, "backup", os.path.join(folder, "backup.db")], env)
    if done.returncode != 0:
        bench.die(f"site backup: {done.stdout[-300:]}{done.stderr[-300:]}")
    leads_line = next((l for l in done.stdout.splitlines() if l.split()[:1] == ["leads"]), "leads ?")
    print(f"site backup: {seconds:.2f} s for {size_mb:.0f} MB ({leads_line.split()[-1]} leads in the copy, "
          "integrity_check and row counts included)", flush=True)
    bench.row(f"site backup ({n:,} leads)", f"{seconds:.2f} s, {size_mb:.0f} MB", "(checked, counted)", "")

    url = bench.knobs.pg_url
    if not shutil.which("psql") or leads.psql(url, "SELECT 1", timeout=3).returncode != 0:
        note = f"skipped: PostgreSQL does not answer at {re.sub(r'//[^@/]*@', '//…@', url)} (set BENCH_PG_URL)"
        print(f"site copy-store: {note}")
        bench.row(f"site copy-store ({n:,} leads)", note)
        return
    name = f"bench_ops_{os.getpid()}"
    made = leads.psql(url, f"CREATE DATABASE {name}")
    if made.returncode != 0:
        bench.die(f"CREATE DATABASE {name}: {made.stderr.strip()[-200:]}")

    def drop():
        leads.psql(url, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)", timeout=5)

    bench.cleanups.append(drop)
    target = leads.pg_url_for(url, name)
    seconds, done = timed([bench.site_bin, "copy-store", "--from", f"sqlite://{db}", "--to", target], env)
    if done.returncode != 0:
        bench.die(f"site copy-store: {done.stdout[-500:]}{done.stderr[-300:]}")
    copied = [l for l in done.stdout.splitlines() if l.startswith("copied ")]
    for line in copied:
        print("  " + line)
    print(f"site copy-store: {seconds:.2f} s in all (copy, sequences, then counts and hashes of both sides)", flush=True)
    rows = sum(int(l.split()[2]) for l in copied)
    bench.row(f"site copy-store ({n:,} leads)", f"{seconds:.2f} s", f"{rows:,} rows in all, verified", "")
    drop()
    bench.cleanups.remove(drop)
