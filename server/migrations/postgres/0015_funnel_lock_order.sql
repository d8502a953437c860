-- The funnel's daily counts of new leads take their rows' locks in one order
-- (docs/decisions/002-group-commit.md, "Two servers' groups never wait on each other in a circle").
--
-- A group's INSERT of leads upserts one lead_days row per (day, service) and per
-- (day, source) it holds (0011's statement-level trigger). The rows came out of a GROUP BY in
-- whatever order its plan made (a hash aggregate's is its hash table's), so two servers'
-- writers storing groups with the same services at the same moment could lock the same two
-- rows in opposite orders: PostgreSQL then finds the deadlock after deadlock_timeout (1 s)
-- and fails one group, whose leads the writer stores again one by one (nothing is lost, but
-- every lead in it waited a second). Sorted by (day, kind, key), every group locks the rows
-- it shares with another in the same order, and the second waits for the first to commit.
--
-- Rolling upgrades (docs/decisions/024): compatible back to 7, as 0010 to 0014. The function
-- is the same but for the order: an older server's groups go through it unchanged.
CREATE OR REPLACE FUNCTION lead_days_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO lead_days (day, kind, key, leads, delivered, suppressed, erased)
    SELECT business_day(received_at_ms), 'service', service_slug, COUNT(*),
           COUNT(*) FILTER (WHERE delivery_status = 'delivered'), COUNT(*) FILTER (WHERE delivery_status = 'suppressed'),
           COUNT(*) FILTER (WHERE erased_ms IS NOT NULL)
    FROM new_leads GROUP BY 1, 3 ORDER BY 1, 3
    ON CONFLICT (day, kind, key) DO UPDATE SET leads = lead_days.leads + excluded.leads,
        delivered = lead_days.delivered + excluded.delivered, suppressed = lead_days.suppressed + excluded.suppressed,
        erased = lead_days.erased + excluded.erased;
    INSERT INTO lead_days (day, kind, key, leads)
    SELECT business_day(received_at_ms), 'source', lead_source(utm_source, referrer, page_url, erased_ms), COUNT(*)
    FROM new_leads GROUP BY 1, 3 ORDER BY 1, 3
    ON CONFLICT (day, kind, key) DO UPDATE SET leads = lead_days.leads + excluded.leads;
    RETURN NULL;
END $$;
