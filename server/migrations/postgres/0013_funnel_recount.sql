-- The funnel's daily counts (docs/decisions/012), continued. Four changes, one migration:
--
-- 1. A visitor's source never shares a key with the funnel's own kinds. `direct` and
--    `erased` stay as they were; every source a request named (a UTM source, a referring
--    host) is kept as 'src:' and its text, so `?utm_source=Erased` is the source "erased", not
--    the count of erased leads.
-- 2. Case is folded the same way on both databases: ASCII letters only (ascii_lower below;
--    SQLite's lower() without ICU). lower() follows the database's locale (C.UTF-8 folds
--    "É", C does not), so a source with such capitals had another key here than in the
--    SQLite file it was copied from, and a data request then left it in the funnel.
-- 3. lead_days can be counted anew while leads keep arriving (store/postgres/funnel.rs): the
--    counts of the leads stored before a cut are made from a snapshot taken at that cut, and
--    added to what the triggers counted since. So the triggers that follow a lead's delivery
--    status and its erasure add to a day's row, making it when it is not there yet, instead
--    of updating a row they assumed (an erasure's source row still goes when it comes to 0).
--    funnel_recount says a recount is due or under way; the server running the scheduled
--    jobs does it (server/src/background.rs), never a view of the console.
-- 4. business_zone is written only by that recount (which sets site.funnel_recount for its
--    transaction): a server whose time zone differs reports it instead of rewriting the
--    zone and counting every lead again under a lock that held up lead intake.
--
-- Rolling upgrades (docs/decisions/024): compatible back to 7, as 0010 to 0012. An older
-- server runs beside this release: its leads, deliveries and erasures go through these
-- triggers unchanged. Its funnel shows the visitor's sources with their 'src:'. Where its
-- time zone (or time zone database) agrees with the one stored, nothing else differs; where
-- it does not, its start logs an error and its funnel page answers with an error instead of
-- counting every lead again under a lock (4): upgrade it, or give it the same zone.

-- A recount of lead_days is due (a row here): the counting rules changed (this migration),
-- or a recount began and has not finished (`token`: the one under way, set at its cut).
CREATE TABLE funnel_recount (
    id              BIGINT PRIMARY KEY CHECK (id = 1),
    reason          TEXT NOT NULL,
    asked_ms        BIGINT NOT NULL,
    token           TEXT
);

-- 2. ASCII letters to lower case, whatever the database's locale.
CREATE FUNCTION ascii_lower(s TEXT) RETURNS TEXT LANGUAGE sql IMMUTABLE AS $$
    SELECT translate(s, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')
$$;

-- 0012's steps, with ascii_lower.
CREATE OR REPLACE FUNCTION url_host(url TEXT) RETURNS TEXT LANGUAGE sql IMMUTABLE AS $$
    SELECT regexp_replace(split_part(regexp_replace(split_part(split_part(split_part(
        ascii_lower(substr(url, strpos(url, '://') + 3)), '/', 1), '?', 1), '#', 1), '^[^@]*@', ''), ':', 1), '^www[.]', '')
$$;

-- 1, 2. A lead's source, the visitor's ones with their prefix.
CREATE OR REPLACE FUNCTION lead_source(utm_source TEXT, referrer TEXT, page_url TEXT, erased_ms BIGINT) RETURNS TEXT
LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE
        WHEN erased_ms IS NOT NULL THEN 'erased'
        WHEN btrim(COALESCE(utm_source, '')) <> '' THEN 'src:' || substr(ascii_lower(btrim(utm_source)), 1, 60)
        WHEN url_host(referrer) <> '' AND url_host(referrer) IS DISTINCT FROM url_host(page_url)
            THEN 'src:' || substr(url_host(referrer), 1, 60)
        ELSE 'direct' END
$$;

-- 3. The delivery status moved: its counts follow, added to the day's row (made if missing).
CREATE OR REPLACE FUNCTION lead_days_status() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    was BOOLEAN := OLD.delivery_status = 'delivered';
    now_delivered BOOLEAN := NEW.delivery_status = 'delivered';
    fast_delta INT := 0;
BEGIN
    IF was <> now_delivered AND lead_is_fast(NEW.id, NEW.received_at_ms) THEN
        fast_delta := CASE WHEN now_delivered THEN 1 ELSE -1 END;
    END IF;
    INSERT INTO lead_days AS d (day, kind, key, delivered, fast, suppressed)
    VALUES (business_day(NEW.received_at_ms), 'service', NEW.service_slug, now_delivered::INT - was::INT, fast_delta,
            (NEW.delivery_status = 'suppressed')::INT - (OLD.delivery_status = 'suppressed')::INT)
    ON CONFLICT (day, kind, key) DO UPDATE SET delivered = d.delivered + excluded.delivered, fast = d.fast + excluded.fast,
        suppressed = d.suppressed + excluded.suppressed;
    RETURN NULL;
END $$;

-- 3. Erased on a data request: counted, and its lead moves from its source to 'erased'; the
-- source's row goes when that leaves it at 0 or below (it may name the person). Below 0 it
-- stays only while a recount is under way (funnel_recount.token set: the lead is in that
-- recount's snapshot, whose count of it meets this -1 when added).
CREATE OR REPLACE FUNCTION lead_days_erased() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    d BIGINT := business_day(OLD.received_at_ms);
    was_source TEXT := lead_source(OLD.utm_source, OLD.referrer, OLD.page_url, NULL);
BEGIN
    INSERT INTO lead_days AS t (day, kind, key, erased) VALUES (d, 'service', OLD.service_slug, 1)
    ON CONFLICT (day, kind, key) DO UPDATE SET erased = t.erased + 1;
    INSERT INTO lead_days AS t (day, kind, key, leads) VALUES (d, 'source', was_source, -1), (d, 'source', 'erased', 1)
    ON CONFLICT (day, kind, key) DO UPDATE SET leads = t.leads + excluded.leads;
    DELETE FROM lead_days WHERE day = d AND kind = 'source' AND key = was_source
        AND (leads = 0 OR (leads < 0 AND NOT EXISTS (SELECT 1 FROM funnel_recount WHERE token IS NOT NULL)));
    RETURN NULL;
END $$;

-- 4. Only the recount writes the zone.
CREATE FUNCTION business_zone_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF current_setting('site.funnel_recount', TRUE) IS DISTINCT FROM 'on' THEN
        RAISE EXCEPTION 'business_zone is written only by the funnel''s recount, run by the server running the scheduled jobs'
            USING HINT = 'This server''s time zone differs from the one the funnel counts days in: see docs/operations.md.';
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER business_zone_guard BEFORE INSERT OR UPDATE OR DELETE ON business_zone
FOR EACH STATEMENT EXECUTE FUNCTION business_zone_guard();

-- 1. The sources counted so far take their prefix (by way of a kind no row has, so a source
-- that already began with 'src:' never meets its own new key). A visitor's "direct" or
-- "erased" counted so far, and a source whose case lower() folded otherwise, cannot be told
-- apart here: the recount asked for below does it.
UPDATE lead_days SET kind = 'source 0013' WHERE kind = 'source' AND key NOT IN ('direct', 'erased');
INSERT INTO lead_days (day, kind, key, leads, delivered, fast, suppressed, erased)
SELECT day, 'source', 'src:' || key, leads, delivered, fast, suppressed, erased FROM lead_days WHERE kind = 'source 0013';
DELETE FROM lead_days WHERE kind = 'source 0013';

INSERT INTO funnel_recount (id, reason, asked_ms)
SELECT 1, 'the sources are kept apart from the funnel''s own kinds (migration 0013)', (EXTRACT(EPOCH FROM now()) * 1000)::BIGINT
WHERE EXISTS (SELECT 1 FROM leads);
