-- The console's funnel (its first screen): leads per day of the business's time zone, by
-- service and by source, kept by the triggers below in the same transaction as each change
-- (docs/decisions/012). Times are UTC milliseconds.
--
-- The business's time zone as UTC offsets: from `from_ms` on, local time is UTC plus
-- `offset_ms` (one row per change of offset, made by the server from `site.time_zone`).
-- When the server finds another zone here it writes its own and counts `lead_days` anew.
CREATE TABLE business_zone (
    from_ms         BIGINT PRIMARY KEY,
    offset_ms       BIGINT NOT NULL,
    zone            TEXT NOT NULL
);

-- Counts per local day (days since 1970-01-01 in the business's zone). Rows of kind
-- 'service' (key: the service's slug) carry every count; rows of kind 'source' (key: the
-- lead's source, see lead_source) carry the number of leads only.
CREATE TABLE lead_days (
    id              BIGSERIAL PRIMARY KEY,
    day             BIGINT NOT NULL,
    kind            TEXT NOT NULL,                 -- service | source
    key             TEXT NOT NULL,
    leads           BIGINT NOT NULL DEFAULT 0,
    delivered       BIGINT NOT NULL DEFAULT 0,     -- delivery status delivered
    fast            BIGINT NOT NULL DEFAULT 0,     -- ... its last notification within 60 s of arrival
    suppressed      BIGINT NOT NULL DEFAULT 0,     -- delivery status suppressed (do not call)
    erased          BIGINT NOT NULL DEFAULT 0,     -- erased on a data request
    UNIQUE (day, kind, key)
);

-- The host of an http(s) URL, lower case, without user, port or a leading 'www.' (the same
-- steps as SQLite's view lead_sources).
CREATE FUNCTION url_host(url TEXT) RETURNS TEXT LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE h TEXT;
BEGIN
    IF url IS NULL THEN RETURN NULL; END IF;
    h := lower(substr(url, strpos(url, '://') + 3));
    IF strpos(h, '/') > 0 THEN h := substr(h, 1, strpos(h, '/') - 1); END IF;
    IF strpos(h, '?') > 0 THEN h := substr(h, 1, strpos(h, '?') - 1); END IF;
    IF strpos(h, '#') > 0 THEN h := substr(h, 1, strpos(h, '#') - 1); END IF;
    IF strpos(h, '@') > 0 THEN h := substr(h, strpos(h, '@') + 1); END IF;
    IF strpos(h, ':') > 0 THEN h := substr(h, 1, strpos(h, ':') - 1); END IF;
    IF substr(h, 1, 4) = 'www.' THEN h := substr(h, 5); END IF;
    RETURN h;
END $$;

-- A lead's source: 'erased' once erased (its attribution is gone), else its UTM source,
-- else the host of the page's referrer when that is another site, else 'direct'. Lower
-- case, at most 60 characters.
CREATE FUNCTION lead_source(utm_source TEXT, referrer TEXT, page_url TEXT, erased_ms BIGINT) RETURNS TEXT
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE r TEXT := url_host(referrer);
BEGIN
    IF erased_ms IS NOT NULL THEN RETURN 'erased'; END IF;
    IF btrim(COALESCE(utm_source, '')) <> '' THEN RETURN substr(lower(btrim(utm_source)), 1, 60); END IF;
    IF r <> '' AND r IS DISTINCT FROM url_host(page_url) THEN RETURN substr(r, 1, 60); END IF;
    RETURN 'direct';
END $$;

-- A local day (days since 1970-01-01 in the business's zone) of an instant.
CREATE FUNCTION business_day(ms BIGINT) RETURNS BIGINT LANGUAGE sql STABLE AS $$
    SELECT (ms + COALESCE((SELECT offset_ms FROM business_zone WHERE from_ms <= ms ORDER BY from_ms DESC LIMIT 1), 0)) / 86400000
$$;

-- Whether a lead counts as delivered within a minute: delivered, and its last notification
-- delivered at most 60 s after it arrived.
CREATE FUNCTION lead_is_fast(lead TEXT, received_at_ms BIGINT) RETURNS BOOLEAN LANGUAGE sql STABLE AS $$
    SELECT COALESCE((SELECT MAX(delivered_ms) FROM outbox WHERE lead_id = lead AND status = 'delivered') - received_at_ms <= 60000, FALSE)
$$;

CREATE FUNCTION lead_days_insert() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE d BIGINT := business_day(NEW.received_at_ms);
BEGIN
    INSERT INTO lead_days (day, kind, key, leads, delivered, suppressed, erased)
    VALUES (d, 'service', NEW.service_slug, 1, (NEW.delivery_status = 'delivered')::INT, (NEW.delivery_status = 'suppressed')::INT,
            (NEW.erased_ms IS NOT NULL)::INT)
    ON CONFLICT (day, kind, key) DO UPDATE SET leads = lead_days.leads + 1, delivered = lead_days.delivered + excluded.delivered,
        suppressed = lead_days.suppressed + excluded.suppressed, erased = lead_days.erased + excluded.erased;
    INSERT INTO lead_days (day, kind, key, leads)
    VALUES (d, 'source', lead_source(NEW.utm_source, NEW.referrer, NEW.page_url, NEW.erased_ms), 1)
    ON CONFLICT (day, kind, key) DO UPDATE SET leads = lead_days.leads + 1;
    RETURN NULL;
END $$;
CREATE TRIGGER lead_days_insert AFTER INSERT ON leads FOR EACH ROW EXECUTE FUNCTION lead_days_insert();

-- The delivery status moved (kept by the outbox's triggers, migration 0004): the counts of
-- delivered, delivered within a minute and suppressed follow it.
CREATE FUNCTION lead_days_status() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    was BOOLEAN := OLD.delivery_status = 'delivered';
    now_delivered BOOLEAN := NEW.delivery_status = 'delivered';
    fast_delta INT := 0;
BEGIN
    IF was <> now_delivered AND lead_is_fast(NEW.id, NEW.received_at_ms) THEN
        fast_delta := CASE WHEN now_delivered THEN 1 ELSE -1 END;
    END IF;
    UPDATE lead_days SET
        delivered = delivered + now_delivered::INT - was::INT,
        suppressed = suppressed + (NEW.delivery_status = 'suppressed')::INT - (OLD.delivery_status = 'suppressed')::INT,
        fast = fast + fast_delta
    WHERE day = business_day(NEW.received_at_ms) AND kind = 'service' AND key = NEW.service_slug;
    RETURN NULL;
END $$;
CREATE TRIGGER lead_days_status AFTER UPDATE OF delivery_status ON leads FOR EACH ROW
WHEN (OLD.delivery_status IS DISTINCT FROM NEW.delivery_status) EXECUTE FUNCTION lead_days_status();

-- Erased on a data request: counted, and its lead moves from its source to 'erased' (a source
-- row it leaves empty goes: a source may be whatever a link put in utm_source).
CREATE FUNCTION lead_days_erased() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE d BIGINT := business_day(OLD.received_at_ms);
BEGIN
    UPDATE lead_days SET erased = erased + 1 WHERE day = d AND kind = 'service' AND key = OLD.service_slug;
    UPDATE lead_days SET leads = leads - 1
    WHERE day = d AND kind = 'source' AND key = lead_source(OLD.utm_source, OLD.referrer, OLD.page_url, NULL);
    DELETE FROM lead_days
    WHERE day = d AND kind = 'source' AND leads <= 0 AND key = lead_source(OLD.utm_source, OLD.referrer, OLD.page_url, NULL);
    INSERT INTO lead_days (day, kind, key, leads) VALUES (d, 'source', 'erased', 1)
    ON CONFLICT (day, kind, key) DO UPDATE SET leads = lead_days.leads + 1;
    RETURN NULL;
END $$;
CREATE TRIGGER lead_days_erased AFTER UPDATE OF erased_ms ON leads FOR EACH ROW
WHEN (OLD.erased_ms IS NULL AND NEW.erased_ms IS NOT NULL) EXECUTE FUNCTION lead_days_erased();

-- The slowest deliveries of a period: walked from the slowest down.
CREATE INDEX outbox_slowest ON outbox ((delivered_ms - created_ms), id) WHERE status = 'delivered';
