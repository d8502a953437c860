-- The do-not-call list and data requests bind when a notification is sent, not only when a
-- lead is stored (docs/decisions/011). A notification gets the status 'suppressed' when its
-- lead's number is on the do-not-call list at the moment it would be sent (the outbox
-- worker's claim, a console Retry, `site outbox retry`), and every undelivered one of a
-- number's leads gets it when the number is added. Each suppression is written to
-- delivery_attempts (outcome 'suppressed'), for the lead's page and /metrics, and a lead
-- whose notifications are delivered or suppressed, at least one suppressed, is 'suppressed'.
DROP TRIGGER outbox_status;
CREATE TRIGGER outbox_status AFTER UPDATE OF status ON outbox BEGIN
    UPDATE leads SET delivery_status = CASE
        WHEN EXISTS (SELECT 1 FROM outbox WHERE lead_id = NEW.lead_id AND status = 'failed') THEN 'failed'
        WHEN EXISTS (SELECT 1 FROM outbox WHERE lead_id = NEW.lead_id AND status = 'pending') THEN 'pending'
        WHEN EXISTS (SELECT 1 FROM outbox WHERE lead_id = NEW.lead_id AND status = 'suppressed') THEN 'suppressed'
        ELSE 'delivered' END
    WHERE id = NEW.lead_id;
END;
CREATE TRIGGER outbox_suppressed_attempt AFTER UPDATE OF status ON outbox
WHEN NEW.status = 'suppressed' AND OLD.status <> 'suppressed' BEGIN
    INSERT INTO delivery_attempts (outbox_id, lead_id, channel, at_ms, outcome, error)
    VALUES (NEW.id, NEW.lead_id, NEW.channel, CAST(unixepoch('subsec') * 1000 AS INTEGER), 'suppressed', NULL);
END;

-- What the list already holds binds now: the undelivered notifications of listed numbers.
UPDATE outbox SET status = 'suppressed', locked_until_ms = 0
WHERE status IN ('pending', 'failed')
  AND EXISTS (SELECT 1 FROM leads l JOIN suppressions s ON s.phone_e164 = l.phone_e164 WHERE l.id = outbox.lead_id AND l.erased_ms IS NULL);

-- Leads erased before this release: their undelivered notifications end, the delivery errors
-- go, and the Referer header (which may carry a query string with a name or an address) is
-- cleared like the rest.
DELETE FROM outbox WHERE status IN ('pending', 'failed') AND lead_id IN (SELECT id FROM leads WHERE erased_ms IS NOT NULL);
UPDATE outbox SET last_error = NULL WHERE lead_id IN (SELECT id FROM leads WHERE erased_ms IS NOT NULL);
UPDATE delivery_attempts SET error = NULL WHERE lead_id IN (SELECT id FROM leads WHERE erased_ms IS NOT NULL);
UPDATE leads SET seen_referer = NULL, delivery_status = CASE
        WHEN delivery_status NOT IN ('pending', 'failed') THEN delivery_status
        WHEN EXISTS (SELECT 1 FROM outbox o WHERE o.lead_id = leads.id AND o.status = 'suppressed') THEN 'suppressed'
        WHEN EXISTS (SELECT 1 FROM outbox o WHERE o.lead_id = leads.id AND o.status = 'delivered') THEN 'delivered'
        ELSE 'none' END
WHERE erased_ms IS NOT NULL;

-- The do-not-call page lists the newest numbers first, a page at a time.
CREATE INDEX suppressions_newest ON suppressions (added_ms, phone_e164);
