-- The writer counts its own leads in the funnel (docs/decisions/034-the-writer-counts-its-leads.md).
--
-- 0016's trigger counted each statement's new leads in lead_days by working out every
-- lead's business day and source in the database, on the one writer's connection, where
-- every group waits for the one before: under load that was a sixth of intake's speed. The
-- writer now makes a group's counts itself, as it builds the group (one row per arrival
-- instant, service and source), and its INSERT of the leads adds them to lead_days in the
-- same statement (the server's `postgres_insert_and_count_leads`). Its transaction sets
-- site.funnel_counted, and this trigger leaves those leads alone; every other insert of a
-- lead (an older server, a hand-written INSERT) is still counted here, as before.
--
-- Rolling upgrades (docs/decisions/024): compatible back to 7, as 0010 to 0016. An older
-- server never sets the flag: its groups go through this function, counted as before.
CREATE OR REPLACE FUNCTION lead_days_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF current_setting('site.funnel_counted', TRUE) = 'on' THEN
        RETURN NULL;
    END IF;
    INSERT INTO lead_days AS d (day, kind, key, leads, delivered, suppressed, erased)
    SELECT day, kind, key, COUNT(*),
           COUNT(*) FILTER (WHERE by_status AND delivery_status = 'delivered'),
           COUNT(*) FILTER (WHERE by_status AND delivery_status = 'suppressed'),
           COUNT(*) FILTER (WHERE by_status AND erased_ms IS NOT NULL)
    FROM (SELECT (n.received_at_ms + COALESCE(z.offset_ms, 0)) / 86400000 AS day, n.*
          FROM new_leads n
          LEFT JOIN LATERAL (SELECT offset_ms FROM business_zone WHERE from_ms <= n.received_at_ms
                             ORDER BY from_ms DESC LIMIT 1) z ON TRUE) l
    CROSS JOIN LATERAL (VALUES ('service', l.service_slug, TRUE),
                               ('source', lead_source(l.utm_source, l.referrer, l.page_url, l.erased_ms), FALSE))
        AS k(kind, key, by_status)
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (day, kind, key) DO UPDATE SET leads = d.leads + excluded.leads,
        delivered = d.delivered + excluded.delivered, suppressed = d.suppressed + excluded.suppressed,
        erased = d.erased + excluded.erased;
    RETURN NULL;
END $$;
