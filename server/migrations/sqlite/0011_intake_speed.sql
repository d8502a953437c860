-- Lead intake (docs/decisions/027-intake-speed.md): two triggers that cost the writer most of
-- its time per lead.
--
-- 1. The name search's words. A full-text table writes its pending words out at every
-- savepoint, and every lead's INSERT opens one (a statement with triggers has a statement
-- journal): a segment of the index per lead, and merges of them. The writer now adds the
-- names of the leads it stored at the end of each group, in one statement, before the group
-- commits (store/sqlite/leads.rs, index_new_names): a lead is searchable from the same commit
-- that stores it. The words follow a name's change only once the name is indexed; a name
-- not yet indexed is indexed as it then is.
DROP TRIGGER lead_names_insert;
DROP TRIGGER lead_names_update;
CREATE TRIGGER lead_names_update AFTER UPDATE OF full_name ON leads
WHEN EXISTS (SELECT 1 FROM lead_names WHERE rowid = OLD.rowid) BEGIN
    DELETE FROM lead_names WHERE rowid = OLD.rowid;
    INSERT INTO lead_names (rowid, full_name) VALUES (NEW.rowid, NEW.full_name);
END;

-- 2. The funnel's count of the new lead's source. lead_sources computes a source from the
-- referrer's and the page's addresses in steps that SQLite keeps apart (migration 0009); a
-- lead with a UTM source, or with no referrer, has its source without them: the view's own
-- first two answers, read here from the new row. Only a lead with a referrer and no UTM
-- source goes through the view.
DROP TRIGGER lead_days_insert;
CREATE TRIGGER lead_days_insert AFTER INSERT ON leads BEGIN
    INSERT INTO lead_days (day, kind, key, leads, delivered, suppressed, erased)
    SELECT d.day, 'service', NEW.service_slug, 1, NEW.delivery_status = 'delivered', NEW.delivery_status = 'suppressed',
           NEW.erased_ms IS NOT NULL
    FROM lead_local_days d WHERE d.id = NEW.id
    ON CONFLICT (day, kind, key) DO UPDATE SET leads = leads + 1, delivered = delivered + excluded.delivered,
        suppressed = suppressed + excluded.suppressed, erased = erased + excluded.erased;
    INSERT INTO lead_days (day, kind, key, leads)
    SELECT d.day, 'source', CASE
        WHEN NEW.erased_ms IS NOT NULL THEN 'erased'
        WHEN trim(COALESCE(NEW.utm_source, '')) <> '' THEN substr(lower(trim(NEW.utm_source)), 1, 60)
        WHEN COALESCE(NEW.referrer, '') = '' THEN 'direct'
        ELSE (SELECT s.source FROM lead_sources s WHERE s.id = NEW.id) END, 1
    FROM lead_local_days d WHERE d.id = NEW.id
    ON CONFLICT (day, kind, key) DO UPDATE SET leads = leads + 1;
END;

-- 3. leads_received (received_at_ms) is the first column of leads_list (received_at_ms, id),
-- which serves every query it served: one index less to write per lead.
DROP INDEX leads_received;
