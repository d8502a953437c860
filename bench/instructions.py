#!/usr/bin/env python3
"""Instructions per cached page: the server's own user-space work for one GET /hvac, counted
by valgrind's callgrind, so the figure does not move with the machine's load (wall-clock
rates do, a lot, on a shared machine). Not a section of `make bench`: a tool for comparing
builds, as docs/decisions/030-the-cached-page-at-the-limit.md did.

    python3 bench/instructions.py [BINARY] [--seconds N] [--connections N] [--top N]

BINARY defaults to target/release/site. For function names in the top entries, build with
line tables and symbols kept (the release profile strips them):

    CARGO_TARGET_DIR=target/prof CARGO_PROFILE_RELEASE_DEBUG=line-tables-only \\
        CARGO_PROFILE_RELEASE_STRIP=none cargo build --release --bin site

The server starts under callgrind with instrumentation off (its warm-up renders every page
in QuickJS, which would take minutes instrumented), on a SQLite file in a temporary folder,
with its default settings. Once /healthz answers, instrumentation goes on, and for each of
identity and gzip: a short wrk run, the counters zeroed, `wrk -t1 -cN -dS` (the requests
counted by wrk), a dump of the counters. Instructions per request are the dump's
total over wrk's count (the few requests in flight when wrk stops make the figure a little
high). The kernel's work (the loopback, the socket calls) is not counted: what this compares
is the server's own code. Needs valgrind and wrk (Debian packages).
"""

import argparse
import glob
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_ready(url, proc, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            sys.exit(f"the server exited ({proc.returncode}) before {url} answered")
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        time.sleep(1)
    sys.exit(f"{url} did not answer within {seconds} s")


def control(pid, *args):
    subprocess.run(["callgrind_control", *args, str(pid)], capture_output=True, text=True, check=False)


def wrk(url, seconds, connections, encoding):
    argv = ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s"]
    if encoding:
        argv += ["-H", f"Accept-Encoding: {encoding}"]
    out = subprocess.run(argv + [url], capture_output=True, text=True).stdout
    m = re.search(r"^\s*(\d+) requests in", out, re.M)
    if not m or "Non-2xx" in out:
        sys.exit(f"wrk gave no clean count:\n{out}")
    return int(m.group(1))


def total_of(dump):
    with open(dump, errors="replace") as f:
        for line in f:
            if line.startswith(("summary:", "totals:")):
                return int(line.split()[1])
    sys.exit(f"no totals in {dump}")


def top(dump, n, inclusive):
    """callgrind_annotate's list (inclusive or self cost), the first N functions."""
    out = subprocess.run(["callgrind_annotate", f"--inclusive={'yes' if inclusive else 'no'}", dump],
                         capture_output=True, text=True).stdout
    lines = [l for l in out.splitlines() if re.match(r"^\s*[\d,]+ \(", l)]
    return lines[:n]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("binary", nargs="?", default=os.path.join(ROOT, "target", "release", "site"))
    p.add_argument("--seconds", type=int, default=20)
    p.add_argument("--connections", type=int, default=16)
    p.add_argument("--top", type=int, default=40)
    p.add_argument("--path", default="/hvac")
    p.add_argument("--keep", help="a folder to keep the callgrind dumps in")
    args = p.parse_args()
    for tool in ("valgrind", "callgrind_control", "callgrind_annotate", "wrk"):
        if not shutil.which(tool):
            sys.exit(f"{tool} is required (apt-get install valgrind wrk)")
    tmp = tempfile.mkdtemp(prefix="site-instructions.")
    port = free_port()
    env = dict(os.environ, LISTEN=f"127.0.0.1:{port}", METRICS_LISTEN="", NO_COLOR="1", RUST_LOG="warn",
               DATABASE_URL=f"sqlite:{os.path.join(tmp, 'site.db')}")
    out_file = os.path.join(tmp, "callgrind.out.%p")
    proc = subprocess.Popen(["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out_file}",
                             os.path.abspath(args.binary)], cwd=tmp, env=env, stdout=subprocess.DEVNULL,
                            stderr=open(os.path.join(tmp, "valgrind.log"), "w"))
    url = f"http://127.0.0.1:{port}{args.path}"
    try:
        wait_ready(f"http://127.0.0.1:{port}/healthz", proc, 900)
        results = []
        control(proc.pid, "-i", "on")
        for label, encoding in (("identity", None), ("gzip", "gzip")):
            wrk(url, 2, args.connections, encoding)
            control(proc.pid, "-z")
            n = wrk(url, args.seconds, args.connections, encoding)
            control(proc.pid, "-d", label)
            time.sleep(1)
            dumps = sorted(glob.glob(os.path.join(tmp, f"callgrind.out.{proc.pid}.*")), key=os.path.getmtime)
            dump = dumps[-1]
            results.append((label, n, total_of(dump), dump))
        for label, n, total, dump in results:
            print(f"\n== {args.path} {label}: {n} requests, {total:,} instructions, {total // max(n, 1):,} a request "
                  f"(wrk -t1 -c{args.connections} -d{args.seconds}s, user space only)")
            print("-- self cost (instructions in the function itself):")
            for line in top(dump, args.top, False):
                print(line)
            print("-- inclusive cost (with what it calls):")
            for line in top(dump, args.top, True):
                print(line)
        if args.keep:
            os.makedirs(args.keep, exist_ok=True)
            for _, _, _, dump in results:
                shutil.copy(dump, args.keep)
        print()
        for label, n, total, _ in results:
            print(f"instructions {label} per_request={total // max(n, 1)} requests={n}")
    finally:
        proc.terminate()
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            proc.kill()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
