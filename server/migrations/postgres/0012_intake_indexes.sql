-- Lead intake, continued (docs/decisions/027-intake-speed.md). An expand migration: the
-- release before it runs on this schema unchanged.
--
-- 1. The repeat check (same number and service within the window) reads leads_list_phone
-- (phone_e164, received_at_ms, id), as every other lookup by number does: a number has few
-- leads, and the service is checked on those. leads_recent_by_phone was a second index keyed
-- by a random number: one more page written per lead.
DROP INDEX leads_recent_by_phone;

-- 2. url_host and lead_source were PL/pgSQL, called for every lead of every group by the
-- funnel's trigger (a call of the interpreter each, about 10 us a lead). The same steps as
-- one SQL expression each (cut at the first '/', '?', '#'; drop through the first '@'; cut
-- at the first ':'; drop a leading 'www.'), which PostgreSQL inlines into the query that
-- calls them. The same answers as before, NULL included, and as SQLite's view lead_sources
-- for ASCII hosts (SQLite's lower() leaves other letters as they are; tests/it/admin_funnel.rs
-- holds the cases). '[.]' rather than '\.': the same pattern whatever a session's
-- standard_conforming_strings.
CREATE OR REPLACE FUNCTION url_host(url TEXT) RETURNS TEXT LANGUAGE sql IMMUTABLE AS $$
    SELECT regexp_replace(split_part(regexp_replace(split_part(split_part(split_part(
        lower(substr(url, strpos(url, '://') + 3)), '/', 1), '?', 1), '#', 1), '^[^@]*@', ''), ':', 1), '^www[.]', '')
$$;
CREATE OR REPLACE FUNCTION lead_source(utm_source TEXT, referrer TEXT, page_url TEXT, erased_ms BIGINT) RETURNS TEXT
LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE
        WHEN erased_ms IS NOT NULL THEN 'erased'
        WHEN btrim(COALESCE(utm_source, '')) <> '' THEN substr(lower(btrim(utm_source)), 1, 60)
        WHEN url_host(referrer) <> '' AND url_host(referrer) IS DISTINCT FROM url_host(page_url) THEN substr(url_host(referrer), 1, 60)
        ELSE 'direct' END
$$;

-- 3. The funnel's counts of a statement's new leads in one upsert: each lead's local day by
-- a join on business_zone (business_day, a function with a query in it, ran that query
-- through the interpreter twice a lead).
CREATE OR REPLACE FUNCTION lead_days_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO lead_days AS d (day, kind, key, leads, delivered, suppressed, erased)
    WITH n AS (
        SELECT (l.received_at_ms + COALESCE(z.offset_ms, 0)) / 86400000 AS day, l.service_slug, l.delivery_status, l.erased_ms,
               lead_source(l.utm_source, l.referrer, l.page_url, l.erased_ms) AS source
        FROM new_leads l LEFT JOIN LATERAL (
            SELECT offset_ms FROM business_zone WHERE from_ms <= l.received_at_ms ORDER BY from_ms DESC LIMIT 1) z ON TRUE)
    SELECT day, 'service', service_slug, COUNT(*), COUNT(*) FILTER (WHERE delivery_status = 'delivered'),
           COUNT(*) FILTER (WHERE delivery_status = 'suppressed'), COUNT(*) FILTER (WHERE erased_ms IS NOT NULL)
    FROM n GROUP BY day, service_slug
    UNION ALL
    SELECT day, 'source', source, COUNT(*), 0, 0, 0 FROM n GROUP BY day, source
    ON CONFLICT (day, kind, key) DO UPDATE SET leads = d.leads + excluded.leads,
        delivered = d.delivered + excluded.delivered, suppressed = d.suppressed + excluded.suppressed,
        erased = d.erased + excluded.erased;
    RETURN NULL;
END $$;
