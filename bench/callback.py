"""Section 10 of `make bench` (BENCH_ONLY=callback; standard library only): the callback's speed.

In Debian's Chromium, as a phone (390 px, touch), the time from the tap on
'Request Callback' to the confirmation on screen (the first frame after 'Thanks! We received
your request…' appears), median of BENCH_CALLBACK_RUNS (20) fresh page loads each: on the
service page of a release server with the certification script off (the aim: within 0.5 s),
and of one with it on, TrustedForm's script replaced by the e2e stand-in, held until the page
has seen the tap and adding its token BENCH_CALLBACK_TOKEN_MS (300) after it runs; for that
one also the median time from the tap to the token and from the token to the confirmation. The browser side is
callback-tap.ts, bundled with the project's esbuild into target/bench/ (beside node_modules,
where it finds Playwright) and run with node.
"""

import os
import subprocess

from common import judge

AIM_MS = 500
# What a run's median may move with the machine's load before a miss of the aim counts.
SPREAD = 0.20


def figures(text, mode):
    """The key=value pairs of the driver's line for MODE ('callback off ...')."""
    line = next((l for l in text.splitlines() if l.startswith(f"callback {mode} ")), "")
    return dict(w.split("=", 1) for w in line.split() if "=" in w)


def build_driver(bench):
    """The driver as one ES module under target/bench/, or the run stops."""
    out = os.path.join(bench.root, "target", "bench", "callback-tap.mjs")
    esbuild = os.path.join(bench.root, "node_modules", ".bin", "esbuild")
    built = subprocess.run([esbuild, os.path.join(bench.root, "bench", "callback-tap.ts"), "--bundle",
                            "--platform=node", "--format=esm", "--packages=external", "--log-level=warning",
                            f"--outfile={out}"], capture_output=True, text=True)
    if built.returncode != 0:
        bench.die(f"esbuild callback-tap.ts failed: {built.stderr.strip()[-1000:]}")
    return out


def measure_callback(bench):
    k = bench.knobs
    bench.say(f"10. callback: tap to confirmation on screen, {k.callback_runs} runs each (phone, 390 px, touch; "
              f"Chromium headless), certification off and on (token {k.callback_token_ms} ms after the tap)")
    if not os.access(k.lh_chrome, os.X_OK):
        note = f"skipped: no Chromium at {k.lh_chrome} (make chromium)"
        print(f"callback: {note}")
        bench.row("callback tap to confirmation", note)
        return
    driver = build_driver(bench)
    off = bench.start_site("callback-off", {"DATABASE_URL": f"sqlite:{bench.path('callback-off', 'site.db')}"})
    on = bench.start_site("callback-on", {"DATABASE_URL": f"sqlite:{bench.path('callback-on', 'site.db')}",
                                          "TRUSTEDFORM_ENABLED": "true"})
    result = subprocess.run(["node", driver, "--off", off.url, "--on", on.url, "--runs", str(k.callback_runs),
                             "--token-ms", str(k.callback_token_ms), "--chrome", k.lh_chrome], cwd=bench.root,
                            capture_output=True, text=True)
    bench.stop(off.proc)
    bench.stop(on.proc)
    if result.returncode != 0:
        bench.die(f"callback-tap failed: {(result.stderr or result.stdout).strip()[-1000:]}")
    print("%-34s %6s %10s %10s %10s %10s %8s" % ("certification", "runs", "median", "p90", "min", "max", "verdict"))
    for mode, label in (("off", "off"), ("on", f"on, token after {k.callback_token_ms} ms")):
        f = figures(result.stdout, mode)
        if "median_ms" not in f:
            bench.die(f"no figures from callback-tap for {mode}:\n{result.stdout[-500:]}")
        median = float(f["median_ms"])
        what = f"callback tap to confirmation ({label})"
        figures_text = f"median {f['median_ms']} ms, p90 {f.get('p90_ms')} ms"
        if mode == "off":
            verdict = bench.held(what, figures_text, f"median <= {AIM_MS} ms",
                                 [judge(median, AIM_MS, SPREAD, higher_is_better=False)], SPREAD)
        else:
            # Nothing can be sent before the token: what the form adds is token to confirmation.
            verdict = f"token at {f.get('token_median_ms')} ms, shown {f.get('after_token_median_ms')} ms later"
            bench.row(what, figures_text, "token wait up to 2500 ms", verdict)
        print("%-34s %6s %7s ms %7s ms %7s ms %7s ms  %s" % (label, f.get("runs"), f["median_ms"], f.get("p90_ms"),
                                                            f.get("min_ms"), f.get("max_ms"), verdict), flush=True)
    print("(the page's own clock: its touchstart on the button to the first animation frame after the confirmation "
          "text appears; each run a fresh page, filled first, so the form is live when tapped)")
