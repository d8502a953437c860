-- The staff console: staff accounts, their sessions, the audit log of what they do, the
-- do-not-call list, and what the console needs to find leads quickly (delivery status,
-- each delivery attempt, a name index). Times are UTC milliseconds.
--
-- Delivery status, delivery attempts and suppression are kept by the triggers below, so
-- every writer (the lead writer, the outbox worker, the console) keeps them right without
-- knowing of them.
CREATE TABLE staff (
    id              BIGSERIAL PRIMARY KEY,
    email           TEXT NOT NULL UNIQUE,          -- lower case
    password_hash   TEXT NOT NULL,                 -- argon2id, PHC string
    active          BOOLEAN NOT NULL DEFAULT TRUE,
    created_ms      BIGINT NOT NULL,
    disabled_ms     BIGINT
);

CREATE TABLE staff_sessions (
    id_hash         TEXT PRIMARY KEY,              -- SHA-256 of the cookie's random id, hex
    staff_id        BIGINT NOT NULL REFERENCES staff (id) ON DELETE CASCADE,
    created_ms      BIGINT NOT NULL,
    last_seen_ms    BIGINT NOT NULL,
    ip              TEXT,
    user_agent      TEXT
);
CREATE INDEX staff_sessions_staff ON staff_sessions (staff_id);

CREATE TABLE staff_audit (
    id              BIGSERIAL PRIMARY KEY,
    at_ms           BIGINT NOT NULL,
    staff_id        BIGINT,                        -- NULL: a failed login for no known account
    action          TEXT NOT NULL,                 -- login, logout, view_consent, export, suppress, …
    target          TEXT,                          -- a record id, never a phone number or address
    ip              TEXT,
    detail          TEXT
);
CREATE INDEX staff_audit_at ON staff_audit (at_ms);

-- The do-not-call list: a lead from one of these numbers is stored, marked suppressed and
-- never handed to the outbox.
CREATE TABLE suppressions (
    phone_e164      TEXT PRIMARY KEY,
    reason          TEXT NOT NULL,
    added_ms        BIGINT NOT NULL,
    staff_id        BIGINT REFERENCES staff (id)
);

-- none (no channel configured) | pending | delivered | failed | suppressed
ALTER TABLE leads ADD COLUMN delivery_status TEXT NOT NULL DEFAULT 'none';
-- Set when a data request erased the lead down to its consent record.
ALTER TABLE leads ADD COLUMN erased_ms BIGINT;
UPDATE leads SET delivery_status = CASE
    WHEN EXISTS (SELECT 1 FROM outbox o WHERE o.lead_id = leads.id AND o.status = 'failed') THEN 'failed'
    WHEN EXISTS (SELECT 1 FROM outbox o WHERE o.lead_id = leads.id AND o.status = 'pending') THEN 'pending'
    WHEN EXISTS (SELECT 1 FROM outbox o WHERE o.lead_id = leads.id) THEN 'delivered'
    ELSE 'none' END;
CREATE INDEX leads_list ON leads (received_at_ms, id);
CREATE INDEX leads_list_service ON leads (service_slug, received_at_ms, id);
CREATE INDEX leads_list_status ON leads (delivery_status, received_at_ms, id);
CREATE INDEX leads_list_phone ON leads (phone_e164, received_at_ms, id);
-- The console's name search: every word of the name, prefix-matched.
CREATE INDEX leads_name_words ON leads USING gin (to_tsvector('simple', full_name));

CREATE TABLE delivery_attempts (
    id              BIGSERIAL PRIMARY KEY,
    outbox_id       BIGINT NOT NULL,
    lead_id         TEXT NOT NULL REFERENCES leads (id) ON DELETE CASCADE,
    channel         TEXT NOT NULL,
    at_ms           BIGINT NOT NULL,
    outcome         TEXT NOT NULL,                 -- delivered | retry | failed
    error           TEXT
);
CREATE INDEX delivery_attempts_lead ON delivery_attempts (lead_id, at_ms);

-- A lead from a suppressed number is marked so, and its outbox rows are never written.
CREATE FUNCTION leads_mark_suppressed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM suppressions WHERE phone_e164 = NEW.phone_e164) THEN
        NEW.delivery_status := 'suppressed';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER leads_suppressed BEFORE INSERT ON leads FOR EACH ROW EXECUTE FUNCTION leads_mark_suppressed();

CREATE FUNCTION outbox_skip_suppressed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF (SELECT delivery_status FROM leads WHERE id = NEW.lead_id) = 'suppressed' THEN
        RETURN NULL;
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER outbox_suppressed BEFORE INSERT ON outbox FOR EACH ROW EXECUTE FUNCTION outbox_skip_suppressed();

CREATE FUNCTION outbox_lead_pending() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE leads SET delivery_status = 'pending' WHERE id = NEW.lead_id AND delivery_status <> 'pending';
    RETURN NULL;
END $$;
CREATE TRIGGER outbox_pending AFTER INSERT ON outbox FOR EACH ROW EXECUTE FUNCTION outbox_lead_pending();

CREATE FUNCTION outbox_lead_status() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE leads SET delivery_status = CASE
        WHEN EXISTS (SELECT 1 FROM outbox WHERE lead_id = NEW.lead_id AND status = 'failed') THEN 'failed'
        WHEN EXISTS (SELECT 1 FROM outbox WHERE lead_id = NEW.lead_id AND status = 'pending') THEN 'pending'
        ELSE 'delivered' END
    WHERE id = NEW.lead_id;
    IF NEW.attempts > OLD.attempts THEN
        INSERT INTO delivery_attempts (outbox_id, lead_id, channel, at_ms, outcome, error)
        VALUES (NEW.id, NEW.lead_id, NEW.channel,
                COALESCE(NEW.delivered_ms, (extract(epoch FROM clock_timestamp()) * 1000)::BIGINT),
                CASE NEW.status WHEN 'delivered' THEN 'delivered' WHEN 'failed' THEN 'failed' ELSE 'retry' END,
                CASE WHEN NEW.status = 'delivered' THEN NULL ELSE NEW.last_error END);
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER outbox_status AFTER UPDATE OF status, attempts ON outbox FOR EACH ROW EXECUTE FUNCTION outbox_lead_status();
