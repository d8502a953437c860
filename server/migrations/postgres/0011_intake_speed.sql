-- Lead intake (docs/decisions/027-intake-speed.md).
--
-- 1. business_day and lead_is_fast were SQL functions with a subquery: PostgreSQL cannot
-- inline those, and runs one called from a trigger by parsing and planning its body at every
-- call (for business_day, at every lead stored). The same bodies in PL/pgSQL keep their plan
-- for the connection's life.
CREATE OR REPLACE FUNCTION business_day(ms BIGINT) RETURNS BIGINT LANGUAGE plpgsql STABLE AS $$
BEGIN
    RETURN (ms + COALESCE((SELECT offset_ms FROM business_zone WHERE from_ms <= ms ORDER BY from_ms DESC LIMIT 1), 0)) / 86400000;
END $$;

CREATE OR REPLACE FUNCTION lead_is_fast(lead TEXT, received_at_ms BIGINT) RETURNS BOOLEAN LANGUAGE plpgsql STABLE AS $$
BEGIN
    RETURN COALESCE((SELECT MAX(delivered_ms) FROM outbox WHERE lead_id = lead AND status = 'delivered') - received_at_ms <= 60000, FALSE);
END $$;

-- 2. leads_received (received_at_ms) is the first column of leads_list (received_at_ms, id),
-- which serves every query it served: one index less to write per lead.
DROP INDEX leads_received;

-- 3. The funnel's counts of new leads: once per INSERT statement, over the rows it inserted
-- (a transition table), instead of a PL/pgSQL call per row. The writer stores a group's
-- leads in one INSERT, so a group costs two upserts, whatever its size.
DROP TRIGGER lead_days_insert ON leads;
CREATE OR REPLACE FUNCTION lead_days_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO lead_days (day, kind, key, leads, delivered, suppressed, erased)
    SELECT business_day(received_at_ms), 'service', service_slug, COUNT(*),
           COUNT(*) FILTER (WHERE delivery_status = 'delivered'), COUNT(*) FILTER (WHERE delivery_status = 'suppressed'),
           COUNT(*) FILTER (WHERE erased_ms IS NOT NULL)
    FROM new_leads GROUP BY 1, 3
    ON CONFLICT (day, kind, key) DO UPDATE SET leads = lead_days.leads + excluded.leads,
        delivered = lead_days.delivered + excluded.delivered, suppressed = lead_days.suppressed + excluded.suppressed,
        erased = lead_days.erased + excluded.erased;
    INSERT INTO lead_days (day, kind, key, leads)
    SELECT business_day(received_at_ms), 'source', lead_source(utm_source, referrer, page_url, erased_ms), COUNT(*)
    FROM new_leads GROUP BY 1, 3
    ON CONFLICT (day, kind, key) DO UPDATE SET leads = lead_days.leads + excluded.leads;
    RETURN NULL;
END $$;
CREATE TRIGGER lead_days_insert AFTER INSERT ON leads REFERENCING NEW TABLE AS new_leads
FOR EACH STATEMENT EXECUTE FUNCTION lead_days_insert();
