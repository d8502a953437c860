-- Lead intake, continued (docs/decisions/027-intake-speed.md). An expand migration: the
-- release before it runs on this schema unchanged.
--
-- 1. The repeat check (same number and service within the window) reads leads_list_phone
-- (phone_e164, received_at_ms, id), as every other lookup by number does: a number has few
-- leads, and the service is checked on those. leads_recent_by_phone was a second index keyed
-- by a random number, so every lead wrote to a page of it nobody else had touched.
DROP INDEX leads_recent_by_phone;

-- 2. The funnel's counts of a new lead: its local day from the new row itself, not through
-- lead_local_days (which looked the lead up again by id, twice). The source as before
-- (migration 0011).
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
                WHEN trim(COALESCE(NEW.utm_source, '')) <> '' THEN substr(lower(trim(NEW.utm_source)), 1, 60)
                WHEN COALESCE(NEW.referrer, '') = '' THEN 'direct'
                ELSE (SELECT s.source FROM lead_sources s WHERE s.id = NEW.id) END, 1)
    ON CONFLICT (day, kind, key) DO UPDATE SET leads = leads + 1;
END;
