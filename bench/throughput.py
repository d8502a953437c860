"""Sections 2 and 3 of `make bench` (BENCH_ONLY=warm, throughput): the time to warm every
route at start (the server's "render cache warmed" log line), then the cached-page throughput
of /hvac with wrk: the server against nginx serving the same bytes and headers from a file on
loopback (identity; gzip when nginx has gzip_static), and brotli against the server alone
(skipped, not fatal, when nginx is missing).
"""

import gzip
import os
import re
import shutil
import sys
import time
import urllib.parse

from common import header, judge, ratio, run

SERVICE = "hvac"
# The aims (docs/decisions/030-the-cached-page-at-the-limit.md): the server answers a cached
# page at least as fast as nginx serves the same bytes, with a p99 no worse than nginx's, in
# the same run. Both servers share the run's conditions, so the ratio moves less from run to
# run than either rate (about 10%); a p99 moves more (about 25%).
RATIO_AIM, RATIO_SPREAD = 1.0, 0.10
P99_SPREAD = 0.25


def find_nginx():
    return shutil.which("nginx") or ("/usr/sbin/nginx" if os.access("/usr/sbin/nginx", os.X_OK) else None)




def measure_warm(bench):
    """Starts the server the next two sections use and returns it."""
    bench.say("2. time to warm every route at start")
    os.makedirs(bench.path("run", "data"), exist_ok=True)
    started = time.monotonic()
    site = bench.start_site("run", {"RUST_LOG": "info"}, log_name="server.log", rate_limit=False)
    ready_ms = round((time.monotonic() - started) * 1000)
    with open(site.log, errors="replace") as f:
        log = re.sub(r"\x1b\[[0-9;]*m", "", f.read())
    line = next((l for l in log.splitlines() if "render cache warmed" in l), None)
    if line is None:
        bench.die("no 'render cache warmed' line in the server log")
    kv = {m.group(1): m.group(2) for m in re.finditer(r"(?:^| )(ms|pages|failed|engines)=([0-9]+)", line)}
    ms, pages, failed, engines = (kv.get(x, "") for x in ("ms", "pages", "failed", "engines"))
    print(f"render cache warmed: {ms} ms for {pages} pages ({failed} failed) on {engines} engines")
    print(f"process start to /healthz answering: {ready_ms} ms")
    bench.row("warm all routes at start", f"{ms} ms", f"{pages} pages, {engines} engines",
              "0 failed" if failed == "0" else f"{failed} FAILED")
    return site


# ================================================================== 3. throughput
def write_nginx_conf(bench, www, port, headers):
    """nginx repeats the server's headers (security headers, cache-control, vary) so both
    answers weigh about the same; date, length, type, etag and the like it sets itself."""
    skip = {"date", "content-length", "content-type", "content-encoding", "etag", "last-modified", "connection",
            "keep-alive", "transfer-encoding", "server", "accept-ranges"}
    add = "".join(f'            add_header {name} "{value.strip()}" always;\n' for name, value in headers
                  if name.lower() not in skip and not re.search(r'[$"\\]', value))
    info = run([find_nginx(), "-V"]).stderr
    gzip_static = "--with-http_gzip_static_module" in info
    temp = "".join(f"    {m}_temp_path {bench.path('nginx', 'tmp', m)};\n" for m in ("client_body", "proxy", "fastcgi",
                   "uwsgi", "scgi") if m == "client_body" or f"--without-http_{m}_module" not in info)
    ctype = header(headers, "content-type") or "text/html; charset=utf-8"
    conf = ("user root;\n" if os.getuid() == 0 else "") + f"""daemon off;
worker_processes {bench.cores};
pid {bench.path('nginx', 'nginx.pid')};
error_log {bench.path('nginx', 'error.log')} warn;
events {{ worker_connections 4096; }}
http {{
{temp}    access_log off;
    server_tokens off;
    sendfile on;
    tcp_nopush on;
    tcp_nodelay on;
    keepalive_requests 1000000;
    keepalive_timeout 75s;
    open_file_cache max=16;
    server {{
        listen 127.0.0.1:{port};
        root {www};
        location = /{SERVICE} {{
            default_type "{ctype}";
            {"gzip_static on;" if gzip_static else ""}
{add}        }}
    }}
}}
"""
    with open(bench.path("nginx", "nginx.conf"), "w") as f:
        f.write(conf)
    return gzip_static


def start_nginx(bench, www, identity, gz, port, headers):
    """nginx serving the server's bytes, or a reason it cannot."""
    if not find_nginx():
        return None, False, "skipped: nginx not found (apt-get install nginx-light)"
    os.makedirs(bench.path("nginx", "tmp"), exist_ok=True)
    gzip_static = write_nginx_conf(bench, www, port, headers)
    for dirpath, dirnames, filenames in os.walk(bench.tmp):
        for name in dirnames + filenames:
            p = os.path.join(dirpath, name)
            os.chmod(p, os.stat(p).st_mode | (0o555 if os.path.isdir(p) else 0o444))
    os.chmod(bench.tmp, 0o755)
    argv = [find_nginx(), "-p", bench.path("nginx"), "-c", bench.path("nginx", "nginx.conf"), "-e",
            bench.path("nginx", "error.log")]
    test = run(argv[:1] + ["-t", "-q"] + argv[1:])
    if test.returncode != 0:
        return None, False, f"skipped: nginx refused the generated config: {test.stderr.strip()[-200:]}"
    proc = bench.spawn(argv, log=bench.path("nginx", "stderr.log"))
    url = f"http://127.0.0.1:{port}/{SERVICE}"
    bench.wait_http(url, proc, 10)
    if bench.fetch(url)[1] != identity:
        bench.die("nginx does not serve the server's identity bytes")
    if gzip_static and bench.fetch(url, "gzip")[1] != gz:
        bench.die("nginx does not serve the server's gzip bytes")
    return proc, gzip_static, None


def milliseconds(text):
    """A wrk latency ('786.00us', '1.05ms', '2.30s') in milliseconds; None if unreadable."""
    m = re.fullmatch(r"([0-9.]+)(us|ms|s|m)", text or "")
    if not m:
        return None
    return float(m.group(1)) * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0}[m.group(2)]


def wrk(bench, name, url, encoding=None):
    """A short warm-up, then the measured run: (requests/s, 'p50 .., p99 ..', p99 in ms)."""
    k = bench.knobs
    extra = ["-H", f"Accept-Encoding: {encoding}"] if encoding else []
    base = ["wrk", f"-t{k.threads}", f"-c{k.connections}"]
    run(base + ["-d2s"] + extra + [url])
    out = run(base + [f"-d{k.duration}", "--latency"] + extra + [url]).stdout
    for line in out.splitlines():
        if "Non-2xx" in line or "Socket errors" in line:
            print(f"  {name}: {line.strip()}", file=sys.stderr)
    m = re.search(r"^Requests/sec:\s+([0-9.]+)", out, re.M)
    if not m:
        bench.die(f"no figures from wrk for {name}:\n{out[-500:]}")
    lat = {p: re.search(rf"^\s+{p}%\s+(\S+)", out, re.M) for p in ("50", "99")}
    p99 = milliseconds(lat["99"].group(1)) if lat["99"] else None
    return (f"{float(m.group(1)):.0f}", "p50 %s, p99 %s" % tuple(x.group(1) if x else "" for x in lat.values()), p99)


def median_run(found):
    """The median requests/s of FOUND's runs with the latency line of that run, and the median p99."""
    by_rate = sorted(found, key=lambda f: float(f[0]))
    middle = by_rate[len(by_rate) // 2]
    p99s = sorted(f[2] for f in found if f[2] is not None)
    return (middle[0], middle[1], p99s[len(p99s) // 2] if p99s else None)


def measure_throughput(bench, site):
    k = bench.knobs
    bench.say(f"3. cached-page throughput: /{SERVICE}, wrk -t{k.threads} -c{k.connections} -d{k.duration}, "
              f"{k.throughput_rounds} round(s) (client and server share the {bench.cores} cores)")
    www = bench.path("www")
    os.makedirs(www, exist_ok=True)
    url = f"{site.url}/{SERVICE}"
    headers, identity = bench.fetch(url)
    gz_headers, gz = bench.fetch(url, "gzip")
    br_headers, br = bench.fetch(url, "br")
    if header(gz_headers, "content-encoding").strip() != "gzip":
        bench.die("the server did not answer gzip to Accept-Encoding: gzip")
    if header(br_headers, "content-encoding").strip() != "br":
        bench.die("the server did not answer br to Accept-Encoding: br")
    if gzip.decompress(gz) != identity:
        bench.die(f"the gzip body of /{SERVICE} differs from its identity body")
    for name, data in ((SERVICE, identity), (SERVICE + ".gz", gz)):
        with open(os.path.join(www, name), "wb") as f:
            f.write(data)
    port = bench.free_port(int(urllib.parse.urlsplit(site.url).port) + 1)
    nginx, gzip_static, nginx_note = start_nginx(bench, www, identity, gz, port, headers)
    nginx_url = f"http://127.0.0.1:{port}/{SERVICE}"

    print("%-26s %12s %28s %10s" % ("target", "requests/s", "latency", "body"))

    def line(label, figures, size):
        print("%-26s %12s %28s %9sB" % (label, figures[0], figures[1], size), flush=True)
        return figures

    # Server and nginx in turn for each coding, so each pair shares the machine's state, and
    # the whole turn again for each round: with client and servers on two cores one run swings
    # by a third, so each figure is the median of the rounds (req/s and p99 each).
    targets = [("server identity", "server identity", url, None, len(identity))]
    if nginx:
        targets.append(("nginx identity", "nginx identity", nginx_url, None, len(identity)))
    targets.append(("server gzip", "server gzip", url, "gzip", len(gz)))
    if gzip_static:
        targets.append(("nginx gzip", "nginx gzip (gzip_static)", nginx_url, "gzip", len(gz)))
    targets.append(("server br", "server br", url, "br", len(br)))
    runs = {key: [] for key, *_ in targets}
    for n in range(k.throughput_rounds):
        for key, label, target, coding, size in targets:
            runs[key].append(line(f"{label} ({n + 1})", wrk(bench, f"{key.replace(' ', '-')}-{n + 1}", target, coding), size))
    got = {key: median_run(found) for key, found in runs.items()}
    if k.throughput_rounds > 1:
        print(f"medians of {k.throughput_rounds} rounds:")
        for key, label, _, _, size in targets:
            line(label, got[key], size)
    for coding, against in (("identity", nginx), ("gzip", gzip_static)):
        server = got[f"server {coding}"]
        if not against:
            why = f"nginx {nginx_note}" if not nginx else "(nginx lacks gzip_static)"
            print(f"server/nginx, {coding}: {why}")
            bench.row(f"/{SERVICE} {coding} req/s", f"server {server[0]}", why)
            continue
        other = got[f"nginx {coding}"]
        r = ratio(server[0], other[0])
        print(f"server/nginx, {coding}: {r}; p99 server {server[2]} ms, nginx {other[2]} ms")
        checks = [judge(r, RATIO_AIM, RATIO_SPREAD),
                  judge(server[2], other[2], P99_SPREAD, higher_is_better=False) if other[2] else "FAIL"]
        bench.held(f"/{SERVICE} {coding} req/s", f"server {server[0]}, nginx {other[0]}: server/nginx {r}; "
                   f"p99 server {server[2]} ms, nginx {other[2]} ms",
                   f"server/nginx >= {RATIO_AIM}, p99 <= nginx's", checks, RATIO_SPREAD,
                   f"p99 allowed {P99_SPREAD:.0%} over")
    bench.row(f"/{SERVICE} br req/s", f"server {got['server br'][0]}", "(nginx-light has no brotli)")
    bench.stop(nginx)
