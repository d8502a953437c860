-- The do-not-call list and data requests bind when a notification is sent, not only when a
-- lead is stored (docs/decisions/011). A notification gets the status 'suppressed' when its
-- lead's number is on the do-not-call list at the moment it would be sent (the outbox
-- worker's claim, a console Retry, `site outbox retry`), and every undelivered one of a
-- number's leads gets it when the number is added. Each suppression is written to
-- delivery_attempts (outcome 'suppressed'), for the lead's page and /metrics, and a lead
-- whose notifications are delivered or suppressed, at least one suppressed, is 'suppressed'.
CREATE OR REPLACE FUNCTION outbox_lead_status() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE leads SET delivery_status = CASE
        WHEN EXISTS (SELECT 1 FROM outbox WHERE lead_id = NEW.lead_id AND status = 'failed') THEN 'failed'
        WHEN EXISTS (SELECT 1 FROM outbox WHERE lead_id = NEW.lead_id AND status = 'pending') THEN 'pending'
        WHEN EXISTS (SELECT 1 FROM outbox WHERE lead_id = NEW.lead_id AND status = 'suppressed') THEN 'suppressed'
        ELSE 'delivered' END
    WHERE id = NEW.lead_id;
    IF NEW.attempts > OLD.attempts THEN
        INSERT INTO delivery_attempts (outbox_id, lead_id, channel, at_ms, outcome, error)
        VALUES (NEW.id, NEW.lead_id, NEW.channel,
                COALESCE(NEW.delivered_ms, (extract(epoch FROM clock_timestamp()) * 1000)::BIGINT),
                CASE NEW.status WHEN 'delivered' THEN 'delivered' WHEN 'failed' THEN 'failed' ELSE 'retry' END,
                CASE WHEN NEW.status = 'delivered' THEN NULL ELSE NEW.last_error END);
    END IF;
    IF NEW.status = 'suppressed' AND OLD.status <> 'suppressed' THEN
        INSERT INTO delivery_attempts (outbox_id, lead_id, channel, at_ms, outcome, error)
        VALUES (NEW.id, NEW.lead_id, NEW.channel, (extract(epoch FROM clock_timestamp()) * 1000)::BIGINT, 'suppressed', NULL);
    END IF;
    RETURN NULL;
END $$;

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
