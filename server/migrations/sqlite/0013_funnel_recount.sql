-- The funnel's daily counts (docs/decisions/012), continued. Three changes, one migration:
--
-- 1. A visitor's source never shares a key with the funnel's own kinds. `direct` and
--    `erased` stay as they were; every source a request named (a UTM source, a referring
--    host) is kept as 'src:' and its text, so `?utm_source=Erased` is the source "erased", not
--    the count of erased leads.
-- 2. Case is folded the same way on both databases: ASCII letters only (SQLite's lower(),
--    without ICU; PostgreSQL's ascii_lower, migration 0013 there). PostgreSQL's lower()
--    followed its database's locale, so a source with other capitals ("Élodie-dupont") had
--    another key there than here, and a data request missed it after site copy-store.
-- 3. lead_days can be counted anew while leads keep arriving (store/sqlite/funnel.rs): the
--    counts of the leads stored before a cut are made from a read snapshot of that cut, and
--    added to what the triggers counted since. So the triggers that follow a lead's delivery
--    status and its erasure add to a day's row, making it when it is not there yet, instead
--    of updating a row they assumed (an erasure's source row still goes when it comes to 0).
--    funnel_recount says a recount is due or under way (the console and the health page say
--    so too); the server running the scheduled jobs does it (server/src/background.rs).
--
-- Rolling upgrades (docs/decisions/024): compatible back to 7, as 0010 to 0012. On SQLite
-- one server runs per file; an older binary started on it (a rollback without a restore)
-- stores and counts leads through these triggers unchanged, shows the visitor's sources
-- with their 'src:' in its funnel, and, finding another time zone, counts anew the old way
-- (holding the writer), which gives the same counts.

-- A recount of lead_days is due (a row here): the counting rules changed (this migration),
-- or a recount began and has not finished (`token`: the one under way, set at its cut).
CREATE TABLE funnel_recount (
    id              INTEGER PRIMARY KEY CHECK (id = 1),
    reason          TEXT NOT NULL,
    asked_ms        INTEGER NOT NULL,
    token           TEXT
);

-- 1, 2. A lead's source, as 0009 worked it out, the visitor's ones with their prefix.
DROP VIEW lead_sources;
CREATE VIEW lead_sources AS
SELECT id, CASE
    WHEN erased_ms IS NOT NULL THEN 'erased'
    WHEN trim(COALESCE(utm_source, '')) <> '' THEN 'src:' || substr(lower(trim(utm_source)), 1, 60)
    WHEN r <> '' AND r IS NOT p THEN 'src:' || substr(r, 1, 60)
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

-- A new lead: as 0012, the visitor's source with its prefix.
DROP TRIGGER lead_days_insert;
CREATE TRIGGER lead_days_insert AFTER INSERT ON leads BEGIN
    INSERT INTO lead_days (day, kind, key, leads, delivered, suppressed, erased)
    VALUES ((NEW.received_at_ms + COALESCE((SELECT offset_ms FROM business_zone z WHERE z.from_ms <= NEW.received_at_ms
                                             ORDER BY z.from_ms DESC LIMIT 1), 0)) / 86400000,
            'service', NEW.service_slug, 1, NEW.delivery_status = 'delivered', NEW.delivery_status = 'suppressed',
            NEW.erased_ms IS NOT NULL)
    ON CONFLICT (day, kind, key) DO UPDATE SET leads = leads + 1, delivered = delivered + excluded.delivered,
        suppressed = suppressed + excluded.suppressed, erased = erased + excluded.erased;
    INSERT INTO lead_days (day, kind, key, leads)
    VALUES ((NEW.received_at_ms + COALESCE((SELECT offset_ms FROM business_zone z WHERE z.from_ms <= NEW.received_at_ms
                                             ORDER BY z.from_ms DESC LIMIT 1), 0)) / 86400000,
            'source', CASE
                WHEN NEW.erased_ms IS NOT NULL THEN 'erased'
                WHEN trim(COALESCE(NEW.utm_source, '')) <> '' THEN 'src:' || substr(lower(trim(NEW.utm_source)), 1, 60)
                WHEN COALESCE(NEW.referrer, '') = '' THEN 'direct'
                ELSE (SELECT s.source FROM lead_sources s WHERE s.id = NEW.id) END, 1)
    ON CONFLICT (day, kind, key) DO UPDATE SET leads = leads + 1;
END;

-- 3. The delivery status moved: its counts follow, added to the day's row (made if missing).
DROP TRIGGER lead_days_status;
CREATE TRIGGER lead_days_status AFTER UPDATE OF delivery_status ON leads
WHEN OLD.delivery_status IS NOT NEW.delivery_status BEGIN
    INSERT INTO lead_days (day, kind, key, delivered, fast, suppressed)
    VALUES ((NEW.received_at_ms + COALESCE((SELECT offset_ms FROM business_zone z WHERE z.from_ms <= NEW.received_at_ms
                                             ORDER BY z.from_ms DESC LIMIT 1), 0)) / 86400000,
            'service', NEW.service_slug,
            (NEW.delivery_status = 'delivered') - (OLD.delivery_status = 'delivered'),
            CASE WHEN (NEW.delivery_status = 'delivered') = (OLD.delivery_status = 'delivered') THEN 0
                WHEN COALESCE((SELECT MAX(o.delivered_ms) FROM outbox o WHERE o.lead_id = NEW.id AND +o.status = 'delivered')
                     - NEW.received_at_ms <= 60000, 0)
                THEN (CASE WHEN NEW.delivery_status = 'delivered' THEN 1 ELSE -1 END) ELSE 0 END,
            (NEW.delivery_status = 'suppressed') - (OLD.delivery_status = 'suppressed'))
    ON CONFLICT (day, kind, key) DO UPDATE SET delivered = delivered + excluded.delivered, fast = fast + excluded.fast,
        suppressed = suppressed + excluded.suppressed;
END;

-- 3. Erased on a data request: counted, and its lead moves from its source to 'erased'; the
-- source's row goes when that leaves it at 0 or below (it may name the person). Below 0 it
-- stays only while a recount is under way (funnel_recount.token set: the lead is in that
-- recount's snapshot, whose count of it meets this -1 when added). Before the update, while
-- the source can still be read.
DROP TRIGGER lead_days_erased;
CREATE TRIGGER lead_days_erased BEFORE UPDATE OF erased_ms ON leads
WHEN OLD.erased_ms IS NULL AND NEW.erased_ms IS NOT NULL BEGIN
    INSERT INTO lead_days (day, kind, key, erased)
    VALUES ((OLD.received_at_ms + COALESCE((SELECT offset_ms FROM business_zone z WHERE z.from_ms <= OLD.received_at_ms
                                             ORDER BY z.from_ms DESC LIMIT 1), 0)) / 86400000,
            'service', OLD.service_slug, 1)
    ON CONFLICT (day, kind, key) DO UPDATE SET erased = erased + 1;
    INSERT INTO lead_days (day, kind, key, leads)
    VALUES ((OLD.received_at_ms + COALESCE((SELECT offset_ms FROM business_zone z WHERE z.from_ms <= OLD.received_at_ms
                                             ORDER BY z.from_ms DESC LIMIT 1), 0)) / 86400000,
            'source', (SELECT source FROM lead_sources WHERE id = OLD.id), -1)
    ON CONFLICT (day, kind, key) DO UPDATE SET leads = leads - 1;
    DELETE FROM lead_days
    WHERE kind = 'source' AND key = (SELECT source FROM lead_sources WHERE id = OLD.id)
      AND (leads = 0 OR (leads < 0 AND NOT EXISTS (SELECT 1 FROM funnel_recount WHERE token IS NOT NULL)))
      AND day = (OLD.received_at_ms + COALESCE((SELECT offset_ms FROM business_zone z WHERE z.from_ms <= OLD.received_at_ms
                                                 ORDER BY z.from_ms DESC LIMIT 1), 0)) / 86400000;
    INSERT INTO lead_days (day, kind, key, leads)
    VALUES ((OLD.received_at_ms + COALESCE((SELECT offset_ms FROM business_zone z WHERE z.from_ms <= OLD.received_at_ms
                                             ORDER BY z.from_ms DESC LIMIT 1), 0)) / 86400000,
            'source', 'erased', 1)
    ON CONFLICT (day, kind, key) DO UPDATE SET leads = leads + 1;
END;

-- 1. The sources counted so far take their prefix (by way of a kind no row has, so a source
-- that already began with 'src:' never meets its own new key). A visitor's "direct" or
-- "erased" counted so far cannot be told apart here: the recount asked for below does it.
UPDATE lead_days SET kind = 'source 0013' WHERE kind = 'source' AND key NOT IN ('direct', 'erased');
INSERT INTO lead_days (day, kind, key, leads, delivered, fast, suppressed, erased)
SELECT day, 'source', 'src:' || key, leads, delivered, fast, suppressed, erased FROM lead_days WHERE kind = 'source 0013';
DELETE FROM lead_days WHERE kind = 'source 0013';

INSERT INTO funnel_recount (id, reason, asked_ms)
SELECT 1, 'the sources are kept apart from the funnel''s own kinds (migration 0013)',
       CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER)
WHERE EXISTS (SELECT 1 FROM leads);
