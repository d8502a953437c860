"""Section 9 of `make bench` (BENCH_ONLY=ops): how long the operator's commands take on a
database of BENCH_OPS_LEADS leads (100,000), most with an e-mail notification and its
delivery attempt (`site seed --notifications`; the shape is in server/src/store/seed.rs).

  - `site backup FILE`: the online copy, its integrity_check and row counts (the server
    not running: the copy's own cost);
  - `site copy-store --from sqlite://… --to postgres://…`: every table copied into a database
    made for the run (and dropped after), then counted and hashed on both sides.

`site seed` creates the database (it applies the migrations) and fills it in one transaction.
"""

import os
import subprocess
import time


def timed(argv, env):
    started = time.monotonic()
    done = subprocess.run(argv, capture_output=True, text=True, env=env)
    return time.monotonic() - started, done


def measure_ops(bench):
    n = int(os.environ.get("BENCH_OPS_LEADS", "100000"))
    bench.say(f"9. operations: site backup and site copy-store on {n:,} leads")
    folder = bench.path("ops")
    os.makedirs(folder, exist_ok=True)
    db = os.path.join(folder, "site.db")
    env = dict(os.environ, DATABASE_URL=f"sqlite:{db}", NO_COLOR="1", RUST_LOG="warn")
    bench.seed({"DATABASE_URL": f"sqlite:{db}"}, n, notifications=True, spacing_ms=1000)
    size_mb = os.path.getsize(db) / 1e6
    print(f"filled {db}: {size_mb:.0f} MB", flush=True)

    seconds, done = timed([bench.site_bin, "backup", os.path.join(folder, "backup.db")], env)
    if done.returncode != 0:
        bench.die(f"site backup: {done.stdout[-300:]}{done.stderr[-300:]}")
    leads_line = next((l for l in done.stdout.splitlines() if l.split()[:1] == ["leads"]), "leads ?")
    print(f"site backup: {seconds:.2f} s for {size_mb:.0f} MB ({leads_line.split()[-1]} leads in the copy, "
          "integrity_check and row counts included)", flush=True)
    bench.row(f"site backup ({n:,} leads)", f"{seconds:.2f} s, {size_mb:.0f} MB", "(checked, counted)", "")

    target, drop = bench.postgres_database("ops")
    if target is None:
        print(f"site copy-store: {drop}")
        bench.row(f"site copy-store ({n:,} leads)", drop)
        return
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
