-- The writer counts its own leads in the funnel (docs/decisions/034-the-writer-counts-its-leads.md).
--
-- 0016's trigger counted each statement's new leads in lead_days by working out every
-- lead's business day and source in the database, on the one writer's connection, where
-- every group waits for the one before: under load that was a sixth of intake's speed. The
-- writer now makes a group's counts itself, as it builds the group (one row per arrival
-- instant, service and source), and its INSERT of the leads adds them to lead_days in the
-- same statement (the server's `postgres_insert_and_count_leads`). Its transaction sets
-- site.funnel_counted, and the trigger does not fire for it; every other insert of a lead
-- (an older server, a hand-written INSERT) is still counted by 0016's function, unchanged.
--
-- Rolling upgrades (docs/decisions/024): compatible back to 7, as 0010 to 0016. An older
-- server never sets the setting: its groups are counted as before.
DROP TRIGGER lead_days_insert ON leads;
CREATE TRIGGER lead_days_insert AFTER INSERT ON leads REFERENCING NEW TABLE AS new_leads
FOR EACH STATEMENT WHEN (current_setting('site.funnel_counted', TRUE) IS DISTINCT FROM 'on')
EXECUTE FUNCTION lead_days_insert();
