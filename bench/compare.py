"""Compares `site` builds on lead intake: each build in turn, ROUNDS times, on one machine.

    python3 bench/compare.py sqlite|postgres ROUNDS NAME=BINARY [NAME=BINARY ...]

Figures move a lot from run to run and machine to machine here (docs/decisions/027), so a
change to intake is judged against the build before it, measured in turn on the same quiet
machine, never against a figure written down elsewhere. A build from before a change:

    git worktree add ../before <commit> && make -C ../before build   # ../before/target/release/site

Each round starts every build (in an order that rotates from round to round) on a fresh
database (SQLite in the run's temp folder, or a PostgreSQL database made for it, BENCH_PG_URL
or TEST_DATABASE_URL), posts one lead to check it answers 201, then loads it with wrk as
section 5 of `make bench` does (the same knobs: BENCH_DURATION, BENCH_CONNECTIONS,
BENCH_THREADS). It prints accepted leads/s, p99, and two CPU times per accepted lead: the
server's and wrk's own during the load, and the whole machine's (which also counts
PostgreSQL, the kernel's softirq work and anything else running: it is only meaningful on an
otherwise idle machine, so the load average is printed before each run). Medians come last.
Standard library only.
"""

import os
import re
import resource
import statistics
import sys

from common import Bench, BenchError, Knobs, ROOT, body_template, check_lead, lead_load

USAGE = "usage: python3 bench/compare.py sqlite|postgres ROUNDS NAME=BINARY [NAME=BINARY ...] (see its docstring)"


def machine_busy_seconds():
    """CPU seconds every core spent busy since boot, from /proc/stat."""
    with open("/proc/stat") as f:
        ticks = [int(x) for x in f.readline().split()[1:]]
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")


def children_seconds():
    """CPU seconds of this process's finished children (wrk, once it has run)."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def process_seconds(pid):
    """CPU seconds the running process PID has used (its threads' user and system time)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def one_run(bench, store, name, binary, body_file, round_no):
    """BINARY on a fresh database under wrk: (leads/s, p99 ms, own CPU us/lead, machine CPU us/lead)."""
    label = f"{name}-{round_no}"
    if store == "sqlite":
        url, drop = f"sqlite:{bench.path(label, 'site.db')}", None
    else:
        url, drop = bench.postgres_database("compare")
        if url is None:
            bench.die(f"no PostgreSQL database for the run: {drop.removeprefix('skipped: ')}")
    site = bench.start_site(label, {"DATABASE_URL": url}, binary=binary)
    check_lead(bench, site)
    # The server's own time from here on (not its start, which warms the page cache), and wrk's.
    own0 = process_seconds(site.proc.pid) + children_seconds()
    machine0 = machine_busy_seconds()
    figures = lead_load(bench, site, label, body_file)
    own1 = process_seconds(site.proc.pid) + children_seconds()
    machine1 = machine_busy_seconds()
    bench.stop(site.proc)
    if drop:
        drop()
    accepted = int(figures["accepted"])
    if accepted == 0:
        bench.die(f"{name}: no lead accepted under load")
    per_lead = 1e6 / accepted
    return (accepted / float(figures["seconds"]), float(figures["p99_ms"]),
            (own1 - own0) * per_lead, (machine1 - machine0) * per_lead)


def parse(argv):
    """(store, rounds, [(name, binary)]), or an error message."""
    if len(argv) < 4:
        return "give the store, the number of rounds and at least one NAME=BINARY"
    store, rounds = argv[1], argv[2]
    if store not in ("sqlite", "postgres"):
        return f"the store is sqlite or postgres, not {store!r}"
    if not rounds.isdigit() or int(rounds) < 1:
        return f"ROUNDS is a whole number of at least 1, not {rounds!r}"
    builds = []
    for arg in argv[3:]:
        name, sep, binary = arg.partition("=")
        if not sep or not re.fullmatch(r"[A-Za-z0-9_.-]{1,40}", name):
            return f"{arg!r} is not NAME=BINARY (NAME: letters, digits, '_', '.', '-')"
        if any(name == seen for seen, _ in builds):
            return f"the name {name!r} is given twice"
        if not os.path.isfile(binary) or not os.access(binary, os.X_OK):
            return f"{binary!r} ({name}) is not an executable file"
        builds.append((name, os.path.abspath(binary)))
    return store, int(rounds), builds


def main(argv):
    parsed = parse(argv)
    if isinstance(parsed, str):
        print(f"compare: {parsed}\n{USAGE}", file=sys.stderr)
        return 2
    store, rounds, builds = parsed
    os.chdir(ROOT)
    bench = Bench(Knobs(os.environ, ["leads"]))
    failed = True
    try:
        body_file = bench.path("lead-body.json")
        with open(body_file, "w") as f:
            f.write(body_template())
        results = {name: [] for name, _ in builds}
        for round_no in range(1, rounds + 1):
            shift = (round_no - 1) % len(builds)
            for name, binary in builds[shift:] + builds[:shift]:
                load = os.getloadavg()[0]
                rate, p99, own, machine = one_run(bench, store, name, binary, body_file, round_no)
                results[name].append((rate, p99, own, machine))
                print(f"round {round_no} {name:12s} {rate:8.0f} leads/s  p99 {p99:6.2f} ms  CPU/lead: "
                      f"server+wrk {own:6.1f} us, machine {machine:6.1f} us  (load before {load:.2f})", flush=True)
        print(f"medians of {rounds} round(s) on {store}:")
        for name, runs in results.items():
            rate, p99, own, machine = (statistics.median(r[i] for r in runs) for i in range(4))
            print(f"  {name:12s} {rate:8.0f} leads/s  p99 {p99:6.2f} ms  CPU/lead: server+wrk {own:6.1f} us, "
                  f"machine {machine:6.1f} us")
        failed = False
        return 0
    except BenchError as e:
        print(f"compare: {e}", file=sys.stderr)
        return 1
    finally:
        bench.cleanup(failed)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
