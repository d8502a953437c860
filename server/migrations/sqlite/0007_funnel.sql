-- The console's funnel (its first screen): leads per day of the business's time zone, by
-- service and by source, kept by the triggers below in the same transaction as each change
-- (docs/decisions/012). Times are UTC milliseconds.
--
-- The business's time zone as UTC offsets: from `from_ms` on, local time is UTC plus
-- `offset_ms` (one row per change of offset, made by the server from `site.time_zone`).
-- When the server finds another zone here it writes its own and counts `lead_days` anew.
CREATE TABLE business_zone (
    from_ms         INTEGER PRIMARY KEY,
    offset_ms       INTEGER NOT NULL,
    zone            TEXT NOT NULL
);

-- Counts per local day (days since 1970-01-01 in the business's zone). Rows of kind
-- 'service' (key: the service's slug) carry every count; rows of kind 'source' (key: the
-- lead's source, see lead_sources) carry the number of leads only.
CREATE TABLE lead_days (
    id              INTEGER PRIMARY KEY,
    day             INTEGER NOT NULL,
    kind            TEXT NOT NULL,                 -- service | source
    key             TEXT NOT NULL,
    leads           INTEGER NOT NULL DEFAULT 0,
    delivered       INTEGER NOT NULL DEFAULT 0,    -- delivery status delivered
    fast            INTEGER NOT NULL DEFAULT 0,    -- ... its last notification within 60 s of arrival
    suppressed      INTEGER NOT NULL DEFAULT 0,    -- delivery status suppressed (do not call)
    erased          INTEGER NOT NULL DEFAULT 0,    -- erased on a data request
    UNIQUE (day, kind, key)
);

-- A lead's source: 'erased' once erased (its attribution is gone), else its UTM source,
-- else the host of the page's referrer when that is another site, else 'direct'. Lower
-- case, at most 60 characters. (PostgreSQL: the function lead_source, the same steps.)
CREATE VIEW lead_sources AS
SELECT id, CASE
    WHEN erased_ms IS NOT NULL THEN 'erased'
    WHEN trim(COALESCE(utm_source, '')) <> '' THEN substr(lower(trim(utm_source)), 1, 60)
    WHEN r6 <> '' AND r6 IS NOT p6 THEN substr(r6, 1, 60)
    ELSE 'direct' END AS source
FROM (SELECT id, erased_ms, utm_source,
        CASE WHEN substr(r5, 1, 4) = 'www.' THEN substr(r5, 5) ELSE r5 END AS r6,
        CASE WHEN substr(p5, 1, 4) = 'www.' THEN substr(p5, 5) ELSE p5 END AS p6
    FROM (SELECT id, erased_ms, utm_source,
            CASE WHEN instr(r4, ':') > 0 THEN substr(r4, 1, instr(r4, ':') - 1) ELSE r4 END AS r5,
            CASE WHEN instr(p4, ':') > 0 THEN substr(p4, 1, instr(p4, ':') - 1) ELSE p4 END AS p5
        FROM (SELECT id, erased_ms, utm_source,
                CASE WHEN instr(r3, '@') > 0 THEN substr(r3, instr(r3, '@') + 1) ELSE r3 END AS r4,
                CASE WHEN instr(p3, '@') > 0 THEN substr(p3, instr(p3, '@') + 1) ELSE p3 END AS p4
            FROM (SELECT id, erased_ms, utm_source,
                    CASE WHEN instr(r2, '#') > 0 THEN substr(r2, 1, instr(r2, '#') - 1) ELSE r2 END AS r3,
                    CASE WHEN instr(p2, '#') > 0 THEN substr(p2, 1, instr(p2, '#') - 1) ELSE p2 END AS p3
                FROM (SELECT id, erased_ms, utm_source,
                        CASE WHEN instr(r1, '?') > 0 THEN substr(r1, 1, instr(r1, '?') - 1) ELSE r1 END AS r2,
                        CASE WHEN instr(p1, '?') > 0 THEN substr(p1, 1, instr(p1, '?') - 1) ELSE p1 END AS p2
                    FROM (SELECT id, erased_ms, utm_source,
                            CASE WHEN instr(r0, '/') > 0 THEN substr(r0, 1, instr(r0, '/') - 1) ELSE r0 END AS r1,
                            CASE WHEN instr(p0, '/') > 0 THEN substr(p0, 1, instr(p0, '/') - 1) ELSE p0 END AS p1
                        FROM (SELECT id, erased_ms, utm_source,
                                lower(substr(referrer, instr(referrer, '://') + 3)) AS r0,
                                lower(substr(page_url, instr(page_url, '://') + 3)) AS p0
                            FROM leads)))))));

-- A lead's local day.
CREATE VIEW lead_local_days AS
SELECT id, (received_at_ms + COALESCE((SELECT offset_ms FROM business_zone z WHERE z.from_ms <= received_at_ms
                                        ORDER BY z.from_ms DESC LIMIT 1), 0)) / 86400000 AS day
FROM leads;

-- Whether a lead counts as delivered within a minute: delivered, and its last notification
-- delivered at most 60 s after it arrived. (`+o.status`: read the lead's few rows through
-- outbox_lead; SQLite would otherwise walk every delivered row by status.)
CREATE VIEW lead_fast AS
SELECT id, delivery_status = 'delivered' AND COALESCE((SELECT MAX(o.delivered_ms) FROM outbox o
        WHERE o.lead_id = leads.id AND +o.status = 'delivered') - received_at_ms <= 60000, 0) AS fast
FROM leads;

CREATE TRIGGER lead_days_insert AFTER INSERT ON leads BEGIN
    INSERT INTO lead_days (day, kind, key, leads, delivered, suppressed, erased)
    SELECT d.day, 'service', NEW.service_slug, 1, NEW.delivery_status = 'delivered', NEW.delivery_status = 'suppressed',
           NEW.erased_ms IS NOT NULL
    FROM lead_local_days d WHERE d.id = NEW.id
    ON CONFLICT (day, kind, key) DO UPDATE SET leads = leads + 1, delivered = delivered + excluded.delivered,
        suppressed = suppressed + excluded.suppressed, erased = erased + excluded.erased;
    INSERT INTO lead_days (day, kind, key, leads)
    SELECT d.day, 'source', s.source, 1 FROM lead_local_days d JOIN lead_sources s ON s.id = d.id WHERE d.id = NEW.id
    ON CONFLICT (day, kind, key) DO UPDATE SET leads = leads + 1;
END;

-- The delivery status moved (kept by the outbox's triggers, migration 0004): the counts of
-- delivered, delivered within a minute and suppressed follow it.
CREATE TRIGGER lead_days_status AFTER UPDATE OF delivery_status ON leads
WHEN OLD.delivery_status IS NOT NEW.delivery_status BEGIN
    UPDATE lead_days SET
        delivered = delivered + (NEW.delivery_status = 'delivered') - (OLD.delivery_status = 'delivered'),
        suppressed = suppressed + (NEW.delivery_status = 'suppressed') - (OLD.delivery_status = 'suppressed'),
        fast = fast + (CASE WHEN (NEW.delivery_status = 'delivered') = (OLD.delivery_status = 'delivered') THEN 0
            WHEN COALESCE((SELECT MAX(o.delivered_ms) FROM outbox o WHERE o.lead_id = NEW.id AND +o.status = 'delivered')
                 - NEW.received_at_ms <= 60000, 0)
            THEN (CASE WHEN NEW.delivery_status = 'delivered' THEN 1 ELSE -1 END) ELSE 0 END)
    WHERE kind = 'service' AND key = NEW.service_slug AND day = (SELECT day FROM lead_local_days WHERE id = NEW.id);
END;

-- Erased on a data request: counted, and its lead moves from its source to 'erased' (a source
-- row it leaves empty goes: a source may be whatever a link put in utm_source). Before the
-- update, while its source can still be read.
CREATE TRIGGER lead_days_erased BEFORE UPDATE OF erased_ms ON leads
WHEN OLD.erased_ms IS NULL AND NEW.erased_ms IS NOT NULL BEGIN
    UPDATE lead_days SET erased = erased + 1
    WHERE kind = 'service' AND key = OLD.service_slug AND day = (SELECT day FROM lead_local_days WHERE id = OLD.id);
    UPDATE lead_days SET leads = leads - 1
    WHERE kind = 'source' AND key = (SELECT source FROM lead_sources WHERE id = OLD.id)
      AND day = (SELECT day FROM lead_local_days WHERE id = OLD.id);
    DELETE FROM lead_days
    WHERE kind = 'source' AND leads <= 0 AND key = (SELECT source FROM lead_sources WHERE id = OLD.id)
      AND day = (SELECT day FROM lead_local_days WHERE id = OLD.id);
    INSERT INTO lead_days (day, kind, key, leads)
    SELECT d.day, 'source', 'erased', 1 FROM lead_local_days d WHERE d.id = OLD.id
    ON CONFLICT (day, kind, key) DO UPDATE SET leads = leads + 1;
END;

-- The slowest deliveries of a period: walked from the slowest down.
CREATE INDEX outbox_slowest ON outbox ((delivered_ms - created_ms)) WHERE status = 'delivered';
