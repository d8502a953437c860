"""Section 8 of `make bench` (BENCH_ONLY=admin): the staff console's leads list and its first
screen, the funnel, with 1M leads.

For SQLite and then PostgreSQL (a database made for the run, dropped after; skipped when
PostgreSQL does not answer): the release server starts on an empty database (it creates the
tables), 1M leads go in with one INSERT … SELECT (a recursive CTE on SQLite, generate_series
on PostgreSQL; the database's own triggers fill the name index and the funnel's daily counts),
each lead that is not pending or suppressed gets an e-mail notification, delivered 1-21 s after
it arrived (one in ten 1-11 min) or failed (the triggers count them by day as the lead's status
follows), a staff account is made with
`site staff add` (password on standard input) and signs in over HTTP; then each filter of the
list is asked BENCH_ADMIN_REQUESTS times (200) in turn on one keep-alive connection, and its
p50 and p95 are printed against the 50 ms aim, and then the funnel (/admin, 30 and 90 days) the
same way. Each answer is a whole page: the session check, the query, and React rendered in
QuickJS for that request. Last, on SQLite, the server starts again with another time zone and
the time until the funnel answers is printed: what counting the days anew from 1M leads costs
(once, after an upgrade to migration 0007 or a change of `site.time_zone`).
"""

import http.client
import json
import os
import re
import shutil
import sqlite3
import subprocess
import time
import urllib.parse

from leads import percentile, pg_url_for, psql

# BENCH_ADMIN_LEADS: fewer for a quick try of the section itself (the README's figures are at 1M).
LEADS = int(os.environ.get("BENCH_ADMIN_LEADS", "1000000"))
P95_AIM_MS = 50
EMAIL = "bench@ringready.example"
PASSWORD = "a long bench staff passphrase"

FIRST = ["Maria", "James", "Ana", "Robert", "Linda", "Michael", "Sofia", "David", "Emily", "Daniel",
         "Grace", "Luis", "Olivia", "Noah", "Chloe", "Ethan", "Mia", "Lucas", "Zoe", "Henry"]
LAST = ["Garcia", "Smith", "Johnson", "Brown", "Jones", "Miller", "Davis", "Rodriguez", "Martinez", "Wilson",
        "Anderson", "Taylor", "Thomas", "Moore", "Jackson", "Martin", "Lee", "Thompson", "White", "Harris",
        "Clark", "Lewis", "Robinson", "Walker", "Young", "Allen", "King", "Wright", "Scott", "Torres",
        "Nguyen", "Hill", "Flores", "Green", "Adams", "Nelson", "Baker", "Hall", "Rivera", "Campbell",
        "Mitchell", "Carter", "Roberts", "Gomez", "Phillips", "Evans", "Turner", "Diaz", "Parker", "Cruz"]
# Most leads delivered, a few still being retried, given up or suppressed.
STATUS_EVERY = [("failed", 997), ("pending", 499), ("suppressed", 1009)]


def services(bench):
    with open(os.path.join(bench.root, "catalogue", "services.json")) as f:
        return [s["slug"] for s in json.load(f)]


def fill_sql(dialect, slugs, newest_ms, sha, count=LEADS):
    """One statement that adds COUNT leads (LEADS unless told), a lead every 30 s back from NEWEST_MS: lead i has
    service slugs[i % n], name FIRST[i % 20] + LAST[(i / 20) % 50], phone +1412 (2000000 + i),
    a UTM source for some (google, facebook, one of 40 newsletters). Each starts pending (or
    suppressed); `delivery_sql` then delivers or fails the ones STATUS_EVERY says."""
    n = len(slugs)
    svc = "CASE " + " ".join(f"WHEN i % {n} = {k} THEN '{s}'" for k, s in enumerate(slugs)) + " END"
    first = "CASE " + " ".join(f"WHEN i % 20 = {k} THEN '{s}'" for k, s in enumerate(FIRST)) + " END"
    last = "CASE " + " ".join(f"WHEN (i / 20) % 50 = {k} THEN '{s}'" for k, s in enumerate(LAST)) + " END"
    status = ("CASE " + " ".join(f"WHEN i % {m} = 0 THEN '{'suppressed' if s == 'suppressed' else 'pending'}'"
                                 for s, m in STATUS_EVERY) + " ELSE 'pending' END")
    concat = "||"
    utm = (f"CASE WHEN i % 3 = 0 THEN 'google' WHEN i % 7 = 0 THEN 'facebook' "
           f"WHEN i % 11 = 0 THEN 'newsletter-' {concat} (i % 40) END")
    if dialect == "postgres":
        utm = utm.replace("(i % 40)", "(i % 40)::text")
    cols = ("id, received_at_ms, service_slug, full_name, phone_e164, zip_code, consent, consent_sha256, "
            "delivery_status, utm_source")
    if dialect == "sqlite":
        ident = "printf('bench-%08d', i)"
        phone = "'+1412' || (2000000 + i)"
        return (f"WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i + 1 < {count}) "
                f"INSERT INTO leads ({cols}) SELECT {ident}, {newest_ms} - i * 30000, {svc}, {first} || ' ' || {last}, "
                f"{phone}, '15213', 1, '{sha}', {status}, {utm} FROM k")
    ident = "'bench-' || lpad(i::text, 8, '0')"
    phone = "'+1412' || (2000000 + i)::text"
    return (f"INSERT INTO leads ({cols}) SELECT {ident}, {newest_ms}::BIGINT - i * 30000, {svc}, "
            f"{first} || ' ' || {last}, {phone}, '15213', TRUE, '{sha}', {status}, {utm} "
            f"FROM generate_series(0::BIGINT, {count - 1}) AS i")


def delivery_sql(newest_ms, dialect):
    """An e-mail notification for each lead that STATUS_EVERY does not leave pending or
    suppressed, delivered 1-21 s after its lead arrived (every tenth 1-11 min) or, every 997th
    lead, failed; then those leads' status set to match (the triggers count them as the
    outbox's own would). Written done rather than pending-then-updated: the outbox's status
    trigger looks its lead's rows up by status, and a million pending rows at once (never
    seen in service) makes that walk them all for each row."""
    i = f"(({newest_ms} - received_at_ms) / 30000)"
    pending = dict((s, m) for s, m in STATUS_EVERY)["pending"]
    failed = dict((s, m) for s, m in STATUS_EVERY)["failed"]
    took = f"CASE WHEN {i} % 10 = 0 THEN 60000 + ({i} * 7919) % 600000 ELSE 1000 + ({i} * 7919) % 20000 END"
    chosen = f"delivery_status = 'pending' AND NOT ({i} % {pending} = 0 AND {i} % {failed} <> 0)"
    return [
        "INSERT INTO outbox (lead_id, channel, status, attempts, next_attempt_ms, created_ms, delivered_ms, last_error) "
        f"SELECT id, 'email', CASE WHEN {i} % {failed} = 0 THEN 'failed' ELSE 'delivered' END, 1, received_at_ms, "
        f"received_at_ms, CASE WHEN {i} % {failed} = 0 THEN NULL ELSE received_at_ms + {took} END, "
        f"CASE WHEN {i} % {failed} = 0 THEN 'connection refused' END FROM leads WHERE {chosen}",
        # PostgreSQL: statistics of the new rows, so the triggers' lookups use the lead's index.
        "ANALYZE outbox" if dialect == "postgres" else "ANALYZE",
        f"UPDATE leads SET delivery_status = CASE WHEN {i} % {failed} = 0 THEN 'failed' ELSE 'delivered' END "
        f"WHERE {chosen}",
    ]


def filters(slugs, newest_ms):
    """The list's filters as a person would use them (query strings)."""
    day = 86_400_000
    # A week ending ten days before the newest lead, as dates in the site's time zone (the
    # bench leaves it at America/New_York; UTC-5 is near enough for picking dates).
    end = time.gmtime((newest_ms - 10 * day - 5 * 3_600_000) / 1000)
    start = time.gmtime((newest_ms - 17 * day - 5 * 3_600_000) / 1000)
    phone = 2000000 + 123_457
    return [
        ("newest, no filter", ""),
        ("service", f"service={slugs[3]}"),
        ("date range (a week)", f"from={time.strftime('%Y-%m-%d', start)}&to={time.strftime('%Y-%m-%d', end)}"),
        ("status failed", "status=failed"),
        ("status delivered", "status=delivered"),
        ("phone (typed)", "phone=" + urllib.parse.quote(f"(412) {str(phone)[:3]}-{str(phone)[3:]}")),
        ("name (two words)", "name=" + urllib.parse.quote("maria garcia")),
        ("name (one word)", "name=nguyen"),
        ("service + dates + status", f"service={slugs[3]}&status=delivered&from={time.strftime('%Y-%m-%d', start)}"
                                     f"&to={time.strftime('%Y-%m-%d', end)}"),
        ("service + name", f"service={slugs[1]}&name=smith"),
        ("page 20 (keyset)", None),
    ]


class Client:
    """One keep-alive HTTP/1.1 connection with the staff session's cookie."""

    def __init__(self, url):
        parts = urllib.parse.urlsplit(url)
        self.host, self.port = parts.hostname, parts.port
        self.conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
        self.cookie = ""

    def request(self, method, path, body=None, headers=None):
        h = {"Cookie": self.cookie} if self.cookie else {}
        h.update(headers or {})
        self.conn.request(method, path, body=body, headers=h)
        r = self.conn.getresponse()
        data = r.read()
        return r.status, r.getheaders(), data


def cookie_from(headers, name):
    for k, v in headers:
        if k.lower() == "set-cookie" and v.startswith(name + "="):
            return v.split(";", 1)[0]
    return None


def sign_in(bench, site, add=True):
    """`site staff add` against the server's database (unless the account is there), then the
    login form over HTTP."""
    env = dict(os.environ, **site.db_env)
    made = subprocess.run([bench.site_bin, "staff", "add", EMAIL], input=PASSWORD + "\n", capture_output=True,
                          text=True, env=env, cwd=bench.root) if add else None
    if made is not None and made.returncode != 0:
        bench.die(f"site staff add: {made.stderr.strip()[-300:]}")
    c = Client(site.url)
    status, headers, body = c.request("GET", "/admin/login")
    login_cookie = cookie_from(headers, "rr_admin_login")
    token = re.search(rb'name="csrf" value="([^"]+)"', body)
    if status != 200 or not login_cookie or not token:
        bench.die(f"GET /admin/login answered {status} without its form")
    c.cookie = login_cookie
    form = urllib.parse.urlencode({"csrf": token.group(1).decode(), "next": "/admin/leads", "email": EMAIL,
                                   "password": PASSWORD})
    status, headers, _ = c.request("POST", "/admin/login", form,
                                   {"Content-Type": "application/x-www-form-urlencoded", "Origin": site.url})
    session = cookie_from(headers, "rr_admin")
    if status != 303 or not session:
        bench.die(f"signing in answered {status}")
    c.cookie = session
    return c


def measure_list(bench, client, label, slugs, newest_ms):
    requests = int(os.environ.get("BENCH_ADMIN_REQUESTS", "200"))
    results = []
    for name, query in filters(slugs, newest_ms):
        if query is None:
            # Twenty pages down the unfiltered list by its own "Older" links.
            path = "/admin/leads"
            for _ in range(19):
                _, _, body = client.request("GET", path)
                older = re.search(rb'href="(/admin/leads\?before=[^"]+)"', body)
                if not older:
                    bench.die("the list has no link to older leads")
                path = older.group(1).decode().replace("&amp;", "&")
        else:
            path = "/admin/leads" + (f"?{query}" if query else "")
        status, _, body = client.request("GET", path)
        if status != 200:
            bench.die(f"GET {path} answered {status}")
        rows = body.count(b'href="/admin/leads/bench-')
        times = []
        for _ in range(requests):
            t = time.perf_counter()
            status, _, _ = client.request("GET", path)
            times.append((time.perf_counter() - t) * 1000)
            if status != 200:
                bench.die(f"GET {path} answered {status}")
        times.sort()
        p50, p95 = percentile(times, 50), percentile(times, 95)
        verdict = "OK" if p95 < P95_AIM_MS else "ABOVE"
        print("%-10s %-26s %5d rows %8.1f ms %8.1f ms  %s" % (label, name, rows, p50, p95, verdict), flush=True)
        results.append((name, p95, verdict))
    worst = max(results, key=lambda r: r[1])
    bench.row(f"leads list p95 {label}", f"worst {worst[1]:.1f} ms ({worst[0]})", f"< {P95_AIM_MS} ms, 1M leads",
              "OK" if all(r[2] == "OK" for r in results) else "ABOVE")


def measure_funnel(bench, client, label):
    """The console's first screen, 30 and 90 days, BENCH_ADMIN_REQUESTS times each."""
    requests = int(os.environ.get("BENCH_ADMIN_REQUESTS", "200"))
    results = []
    for name, path in [("funnel, 30 days", "/admin"), ("funnel, 90 days", "/admin?days=90")]:
        t = time.perf_counter()
        status, _, body = client.request("GET", path)
        first = (time.perf_counter() - t) * 1000
        if status != 200 or b"Leads per day by service" not in body:
            bench.die(f"GET {path} answered {status} without its charts")
        leads = re.search(rb"Leads received</dt><dd[^>]*>([0-9,]+)<", body)
        times = []
        for _ in range(requests):
            t = time.perf_counter()
            status, _, _ = client.request("GET", path)
            times.append((time.perf_counter() - t) * 1000)
            if status != 200:
                bench.die(f"GET {path} answered {status}")
        times.sort()
        p50, p95 = percentile(times, 50), percentile(times, 95)
        verdict = "OK" if p95 < P95_AIM_MS else "ABOVE"
        shown = leads.group(1).decode() if leads else "?"
        print("%-10s %-26s %10s %8.1f ms %8.1f ms  %s (first %.0f ms)" % (label, name, shown + " leads", p50, p95, verdict, first),
              flush=True)
        results.append((name, p95, verdict))
    worst = max(results, key=lambda r: r[1])
    bench.row(f"funnel p95 {label}", f"worst {worst[1]:.1f} ms ({worst[0]})", f"< {P95_AIM_MS} ms, 1M leads",
              "OK" if all(r[2] == "OK" for r in results) else "ABOVE")


def time_recount(bench, db):
    """The server again on the SQLite database, in another time zone: how long until the
    funnel answers (the days counted anew from every lead, at start)."""
    conf = bench.path("admin-sqlite", "chicago.toml")
    with open(conf, "w") as f:
        f.write('[site]\ntime_zone = "America/Chicago"\n')
    env = {"DATABASE_URL": f"sqlite:{db}", "SITE_CONFIG": conf}
    t = time.monotonic()
    site = bench.start_site("admin-sqlite", env, log_name="admin-sqlite-chicago.log")
    site.db_env = env
    client = sign_in(bench, site, add=False)
    status, _, body = client.request("GET", "/admin")
    took = time.monotonic() - t
    if status != 200 or b"America/Chicago" not in body:
        bench.die(f"the funnel in America/Chicago answered {status}")
    print(f"sqlite     a new time zone: days counted anew from {LEADS:,} leads, funnel answering after {took:.1f} s",
          flush=True)
    bench.row("funnel recount sqlite", f"{took:.1f} s after start", f"once, {LEADS // 1_000_000}M leads", "")
    bench.stop(site.proc)


def measure_admin(bench):
    bench.say(f"8. staff console: the leads list and the funnel with {LEADS:,} leads, p95 of each filter "
              f"(one connection, a whole page per answer; aim < {P95_AIM_MS} ms)")
    print("%-10s %-26s %10s %11s %11s" % ("store", "filter", "rows shown", "p50", "p95"), flush=True)
    slugs = services(bench)
    newest_ms = int(time.time() * 1000)
    sha = "b" * 64

    db = bench.path("admin-sqlite", "site.db")
    os.makedirs(os.path.dirname(db), exist_ok=True)
    site = bench.start_site("admin-sqlite", {"DATABASE_URL": f"sqlite:{db}"}, log_name="admin-sqlite.log")
    site.db_env = {"DATABASE_URL": f"sqlite:{db}"}
    t = time.monotonic()
    conn = sqlite3.connect(db, timeout=30)
    conn.execute("INSERT OR IGNORE INTO consent_texts (sha256, text, first_seen_ms) VALUES (?, 'I agree.', 0)", (sha,))
    conn.execute(fill_sql("sqlite", slugs, newest_ms, sha))
    for sql in delivery_sql(newest_ms, "sqlite"):
        conn.execute(sql)
    conn.commit()
    conn.close()
    print(f"(sqlite: {LEADS:,} leads added in {time.monotonic() - t:.0f} s)", flush=True)
    client = sign_in(bench, site)
    measure_list(bench, client, "sqlite", slugs, newest_ms)
    measure_funnel(bench, client, "sqlite")
    bench.stop(site.proc)
    time_recount(bench, db)

    url = bench.knobs.pg_url
    if not shutil.which("psql") or psql(url, "SELECT 1", timeout=3).returncode != 0:
        print("postgres: skipped (no psql, or PostgreSQL does not answer; set BENCH_PG_URL)")
        bench.row("leads list p95 postgres", "skipped")
        bench.row("funnel p95 postgres", "skipped")
        return
    name = f"bench_admin_{os.getpid()}"
    if psql(url, f"CREATE DATABASE {name}").returncode != 0:
        bench.die(f"CREATE DATABASE {name} failed")

    def drop():
        psql(url, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)", timeout=5)

    bench.cleanups.append(drop)
    pg = pg_url_for(url, name)
    site = bench.start_site("admin-postgres", {"DATABASE_URL": pg}, log_name="admin-postgres.log")
    site.db_env = {"DATABASE_URL": pg}
    t = time.monotonic()
    for sql in [f"INSERT INTO consent_texts (sha256, text, first_seen_ms) VALUES ('{sha}', 'I agree.', 0)",
                fill_sql("postgres", slugs, newest_ms, sha),
                "BEGIN; " + "; ".join(delivery_sql(newest_ms, "postgres")) + "; COMMIT",
                # What autovacuum does after a bulk insert: statistics, and the name index's
                # pending list merged (a GIN index collects new entries there).
                "VACUUM ANALYZE leads",
                "VACUUM ANALYZE outbox"]:
        done = psql(pg, sql)
        if done.returncode != 0:
            bench.die(f"filling PostgreSQL: {done.stderr.strip()[-300:]}")
    print(f"(postgres: {LEADS:,} leads added, vacuumed and analysed in {time.monotonic() - t:.0f} s)", flush=True)
    client = sign_in(bench, site)
    measure_list(bench, client, "postgres", slugs, newest_ms)
    measure_funnel(bench, client, "postgres")
    bench.stop(site.proc)
    drop()
    bench.cleanups.remove(drop)
