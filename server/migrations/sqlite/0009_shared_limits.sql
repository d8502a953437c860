-- The tables PostgreSQL keeps the shared limits in (docs/decisions/022-shared-limits.md).
-- SQLite has one server per file, which keeps its limits in memory: these stay empty, and
-- exist so that both databases have the same tables (site copy-store and the data-request
-- checks compare the two schemas).
CREATE TABLE rate_windows (
    key             BLOB NOT NULL,
    window_end_ms   INTEGER NOT NULL,
    hits            INTEGER NOT NULL,
    PRIMARY KEY (key, window_end_ms)
);

CREATE TABLE login_attempts (
    id              INTEGER PRIMARY KEY,
    account         BLOB NOT NULL,
    client          BLOB,
    at_ms           INTEGER NOT NULL,
    expires_ms      INTEGER NOT NULL,
    failed          INTEGER NOT NULL DEFAULT 0,
    forgiven        INTEGER NOT NULL DEFAULT 0
);

-- Lead intake: the funnel's insert trigger (migration 0007) reads a new lead's source from
-- lead_sources. Written as nested subqueries that SQLite flattens into one expression,
-- each level repeating the one below it 3 to 4 times, the view evaluated the referrer's
-- and the page's string functions thousands of times per lead (about 1.6 ms a lead; the
-- writer's whole budget is a few tens of microseconds). The same steps, now each one
-- repeating the one below twice at most, '?' and '#' cut together with '/', and each level
-- DISTINCT, which keeps SQLite from flattening it (its one row is computed once; a lookup
-- by id is still pushed down to the leads index): about 30 us a lead, the same sources.
DROP VIEW lead_sources;
CREATE VIEW lead_sources AS
SELECT id, CASE
    WHEN erased_ms IS NOT NULL THEN 'erased'
    WHEN trim(COALESCE(utm_source, '')) <> '' THEN substr(lower(trim(utm_source)), 1, 60)
    WHEN r <> '' AND r IS NOT p THEN substr(r, 1, 60)
    ELSE 'direct' END AS source
FROM (SELECT DISTINCT id, erased_ms, utm_source,
        substr(r, 1 + 4 * (substr(r, 1, 4) = 'www.')) AS r,
        substr(p, 1 + 4 * (substr(p, 1, 4) = 'www.')) AS p
    FROM (SELECT DISTINCT id, erased_ms, utm_source,
            substr(r, 1, instr(r || ':', ':') - 1) AS r,
            substr(p, 1, instr(p || ':', ':') - 1) AS p
        FROM (SELECT DISTINCT id, erased_ms, utm_source,
                substr(r, instr(r, '@') + 1) AS r,
                substr(p, instr(p, '@') + 1) AS p
            FROM (SELECT DISTINCT id, erased_ms, utm_source,
                    substr(r, 1, instr(r || '/', '/') - 1) AS r,
                    substr(p, 1, instr(p || '/', '/') - 1) AS p
                FROM (SELECT DISTINCT id, erased_ms, utm_source,
                        replace(replace(lower(substr(referrer, instr(referrer, '://') + 3)), '?', '/'), '#', '/') AS r,
                        replace(replace(lower(substr(page_url, instr(page_url, '://') + 3)), '?', '/'), '#', '/') AS p
                    FROM leads)))));
