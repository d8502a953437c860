"""Compares `site` builds on lead intake: each build in turn, ROUNDS times, on one machine.

    python3 bench/compare.py sqlite|postgres ROUNDS NAME=BINARY [NAME=BINARY ...]

Figures move a lot from run to run and machine to machine here (docs/decisions/027), so a
change to intake is judged against the build before it, measured in turn on the same machine,
never against a figure written down elsewhere. Each round starts every build on a fresh
database (SQLite in the run's temp folder, or a PostgreSQL database made for it, BENCH_PG_URL or
TEST_DATABASE_URL), loads it with wrk exactly as section 5 of `make bench` does (the same
knobs: BENCH_DURATION, BENCH_CONNECTIONS, BENCH_THREADS), and prints accepted leads/s, p99 and
the whole machine's CPU time per accepted lead (wrk's included: the same for every build).
The medians come last. Standard library only.
"""

import os
import statistics
import sys

from common import Bench, BenchError, Knobs, ROOT, body_template, lead_load


def machine_busy_ticks():
    """(busy, total) clock ticks of every CPU since boot, from /proc/stat."""
    with open("/proc/stat") as f:
        ticks = [int(x) for x in f.readline().split()[1:]]
    idle = ticks[3] + ticks[4]
    return sum(ticks) - idle, sum(ticks)


def one_run(bench, store, name, binary, body_file, round_no):
    """Starts BINARY on a fresh database, loads it; (leads/s, p99 ms, CPU us per lead)."""
    label = f"{name}-{round_no}"
    if store == "sqlite":
        url, drop = f"sqlite:{bench.path(label, 'site.db')}", None
    else:
        url, drop = bench.postgres_database("compare")
        if url is None:
            bench.die(drop)
    site = bench.start_site(label, {"DATABASE_URL": url}, binary=binary)
    busy0, _ = machine_busy_ticks()
    figures = lead_load(bench, site, label, body_file)
    busy1, _ = machine_busy_ticks()
    bench.stop(site.proc)
    if drop:
        drop()
    accepted = int(figures["accepted"])
    if accepted == 0:
        bench.die(f"{name}: no lead accepted (see {site.log})")
    seconds = float(figures["seconds"])
    cpu_us = (busy1 - busy0) / os.sysconf("SC_CLK_TCK") / accepted * 1e6
    return accepted / seconds, float(figures["p99_ms"]), cpu_us


def main(argv):
    if len(argv) < 4 or argv[1] not in ("sqlite", "postgres") or not argv[2].isdigit():
        print(__doc__, file=sys.stderr)
        return 2
    store, rounds = argv[1], int(argv[2])
    builds = []
    for arg in argv[3:]:
        name, sep, binary = arg.partition("=")
        if not sep or not os.access(binary, os.X_OK):
            print(f"compare: {arg!r} is not NAME=BINARY with an executable BINARY", file=sys.stderr)
            return 2
        builds.append((name, os.path.abspath(binary)))
    os.chdir(ROOT)
    bench = Bench(Knobs(os.environ, ["leads"]))
    failed = True
    try:
        body_file = bench.path("lead-body.json")
        with open(body_file, "w") as f:
            f.write(body_template())
        results = {name: [] for name, _ in builds}
        for round_no in range(1, rounds + 1):
            for name, binary in builds:
                rate, p99, cpu = one_run(bench, store, name, binary, body_file, round_no)
                results[name].append((rate, p99, cpu))
                print(f"round {round_no} {name:12s} {rate:8.0f} leads/s  p99 {p99:6.2f} ms  {cpu:6.1f} us CPU/lead", flush=True)
        print(f"medians of {rounds} rounds on {store}:")
        for name, runs in results.items():
            rate, p99, cpu = (statistics.median(r[i] for r in runs) for i in range(3))
            print(f"  {name:12s} {rate:8.0f} leads/s  p99 {p99:6.2f} ms  {cpu:6.1f} us CPU/lead")
        failed = False
        return 0
    except BenchError as e:
        print(f"compare: {e}", file=sys.stderr)
        return 1
    finally:
        bench.cleanup(failed)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
