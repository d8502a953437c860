-- The staff console: staff accounts, their sessions, the audit log of what they do, the
-- do-not-call list, and what the console needs to find leads quickly (delivery status,
-- each delivery attempt, a name index). Times are UTC milliseconds.
--
-- Delivery status, delivery attempts, suppression and the name index are kept by the
-- triggers below, so every writer (the lead writer, the outbox worker, the console) keeps
-- them right without knowing of them.
CREATE TABLE staff (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    email           TEXT NOT NULL UNIQUE,          -- lower case
    password_hash   TEXT NOT NULL,                 -- argon2id, PHC string
    active          INTEGER NOT NULL DEFAULT 1,
    created_ms      INTEGER NOT NULL,
    disabled_ms     INTEGER
);

CREATE TABLE staff_sessions (
    id_hash         TEXT PRIMARY KEY,              -- SHA-256 of the cookie's random id, hex
    staff_id        INTEGER NOT NULL REFERENCES staff (id) ON DELETE CASCADE,
    created_ms      INTEGER NOT NULL,
    last_seen_ms    INTEGER NOT NULL,
    ip              TEXT,
    user_agent      TEXT
);
CREATE INDEX staff_sessions_staff ON staff_sessions (staff_id);

CREATE TABLE staff_audit (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    at_ms           INTEGER NOT NULL,
    staff_id        INTEGER,                       -- NULL: a failed login for no known account
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
    added_ms        INTEGER NOT NULL,
    staff_id        INTEGER REFERENCES staff (id)
);

-- none (no channel configured) | pending | delivered | failed | suppressed
ALTER TABLE leads ADD COLUMN delivery_status TEXT NOT NULL DEFAULT 'none';
-- Set when a data request erased the lead down to its consent record.
ALTER TABLE leads ADD COLUMN erased_ms INTEGER;
UPDATE leads SET delivery_status = CASE
    WHEN EXISTS (SELECT 1 FROM outbox o WHERE o.lead_id = leads.id AND o.status = 'failed') THEN 'failed'
    WHEN EXISTS (SELECT 1 FROM outbox o WHERE o.lead_id = leads.id AND o.status = 'pending') THEN 'pending'
    WHEN EXISTS (SELECT 1 FROM outbox o WHERE o.lead_id = leads.id) THEN 'delivered'
    ELSE 'none' END;
CREATE INDEX leads_list ON leads (received_at_ms, id);
CREATE INDEX leads_list_service ON leads (service_slug, received_at_ms, id);
CREATE INDEX leads_list_status ON leads (delivery_status, received_at_ms, id);
CREATE INDEX leads_list_phone ON leads (phone_e164, received_at_ms, id);

CREATE TABLE delivery_attempts (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    outbox_id       INTEGER NOT NULL,
    lead_id         TEXT NOT NULL REFERENCES leads (id) ON DELETE CASCADE,
    channel         TEXT NOT NULL,
    at_ms           INTEGER NOT NULL,
    outcome         TEXT NOT NULL,                 -- delivered | retry | failed
    error           TEXT
);
CREATE INDEX delivery_attempts_lead ON delivery_attempts (lead_id, at_ms);

-- Words of each lead's name, for the console's name search (rowid = the lead's rowid).
CREATE VIRTUAL TABLE lead_names USING fts5 (full_name, tokenize = 'unicode61');
INSERT INTO lead_names (rowid, full_name) SELECT rowid, full_name FROM leads;

CREATE TRIGGER lead_names_insert AFTER INSERT ON leads BEGIN
    INSERT INTO lead_names (rowid, full_name) VALUES (NEW.rowid, NEW.full_name);
END;
CREATE TRIGGER lead_names_update AFTER UPDATE OF full_name ON leads BEGIN
    DELETE FROM lead_names WHERE rowid = OLD.rowid;
    INSERT INTO lead_names (rowid, full_name) VALUES (NEW.rowid, NEW.full_name);
END;
CREATE TRIGGER lead_names_delete AFTER DELETE ON leads BEGIN
    DELETE FROM lead_names WHERE rowid = OLD.rowid;
END;

-- A lead from a suppressed number is marked so, and its outbox rows are never written.
CREATE TRIGGER leads_suppressed AFTER INSERT ON leads
WHEN EXISTS (SELECT 1 FROM suppressions WHERE phone_e164 = NEW.phone_e164) BEGIN
    UPDATE leads SET delivery_status = 'suppressed' WHERE id = NEW.id;
END;
CREATE TRIGGER outbox_suppressed BEFORE INSERT ON outbox
WHEN (SELECT delivery_status FROM leads WHERE id = NEW.lead_id) = 'suppressed' BEGIN
    SELECT RAISE(IGNORE);
END;
CREATE TRIGGER outbox_pending AFTER INSERT ON outbox BEGIN
    UPDATE leads SET delivery_status = 'pending' WHERE id = NEW.lead_id AND delivery_status <> 'pending';
END;
CREATE TRIGGER outbox_status AFTER UPDATE OF status ON outbox BEGIN
    UPDATE leads SET delivery_status = CASE
        WHEN EXISTS (SELECT 1 FROM outbox WHERE lead_id = NEW.lead_id AND status = 'failed') THEN 'failed'
        WHEN EXISTS (SELECT 1 FROM outbox WHERE lead_id = NEW.lead_id AND status = 'pending') THEN 'pending'
        ELSE 'delivered' END
    WHERE id = NEW.lead_id;
END;
CREATE TRIGGER outbox_attempt AFTER UPDATE OF attempts ON outbox WHEN NEW.attempts > OLD.attempts BEGIN
    INSERT INTO delivery_attempts (outbox_id, lead_id, channel, at_ms, outcome, error)
    VALUES (NEW.id, NEW.lead_id, NEW.channel,
            COALESCE(NEW.delivered_ms, CAST(unixepoch('subsec') * 1000 AS INTEGER)),
            CASE NEW.status WHEN 'delivered' THEN 'delivered' WHEN 'failed' THEN 'failed' ELSE 'retry' END,
            CASE WHEN NEW.status = 'delivered' THEN NULL ELSE NEW.last_error END);
END;
