-- The funnel's daily counts of a group of new leads in one statement (docs/decisions/033).
--
-- 0015's trigger ran two upserts over the group's leads, one for the services' rows and one
-- for the sources', each calling business_day (PL/pgSQL, a query of its own) for every lead.
-- Here the lead's business day is looked up once, in the statement's own plan (a join on
-- business_zone's key), and both kinds of row go in one upsert, still sorted by (day, kind,
-- key) so that two servers' groups lock the rows they share in one order
-- (docs/decisions/002-group-commit.md). The zone lookup is business_day's own, written into
-- the statement so that it is planned once. A source's row counts only leads, as before: its
-- other counts stay 0.
--
-- Rolling upgrades (docs/decisions/024): compatible back to 7, as 0010 to 0015. The counts
-- are the same: an older server's groups go through this function unchanged.
CREATE OR REPLACE FUNCTION lead_days_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
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
