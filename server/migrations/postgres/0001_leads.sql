-- Leads, their consent record and the notification outbox. Times are UTC milliseconds.
CREATE TABLE consent_texts (
    sha256      TEXT PRIMARY KEY,
    text        TEXT NOT NULL,
    first_seen_ms BIGINT NOT NULL
);

CREATE TABLE leads (
    id                  TEXT PRIMARY KEY,          -- UUIDv7: time-ordered
    received_at_ms      BIGINT NOT NULL,
    service_slug        TEXT NOT NULL,
    full_name           TEXT NOT NULL,
    phone_e164          TEXT NOT NULL,
    zip_code            TEXT,
    consent             BOOLEAN NOT NULL,
    consent_sha256      TEXT NOT NULL REFERENCES consent_texts (sha256),
    cert_url            TEXT,
    cert_token          TEXT,
    cert_ping_url       TEXT,
    ip                  TEXT,
    user_agent          TEXT,
    page_url            TEXT,
    referrer            TEXT,
    utm_source          TEXT,
    utm_medium          TEXT,
    utm_campaign        TEXT,
    utm_term            TEXT,
    utm_content         TEXT
);
CREATE INDEX leads_recent_by_phone ON leads (phone_e164, service_slug, received_at_ms);
CREATE INDEX leads_received ON leads (received_at_ms);

CREATE TABLE certificates (
    token          TEXT PRIMARY KEY,
    ping_url       TEXT,
    cert_url       TEXT,
    service_slug   TEXT NOT NULL,
    recorded_at_ms BIGINT NOT NULL,
    updated_at_ms  BIGINT NOT NULL
);
CREATE INDEX certificates_recorded ON certificates (recorded_at_ms);

CREATE TABLE outbox (
    id               BIGSERIAL PRIMARY KEY,
    lead_id          TEXT NOT NULL REFERENCES leads (id) ON DELETE CASCADE,
    channel          TEXT NOT NULL,               -- 'email' | 'webhook'
    status           TEXT NOT NULL,               -- 'pending' | 'delivered' | 'failed'
    attempts         BIGINT NOT NULL DEFAULT 0,
    next_attempt_ms  BIGINT NOT NULL,
    locked_until_ms  BIGINT NOT NULL DEFAULT 0,
    last_error       TEXT,
    created_ms       BIGINT NOT NULL,
    delivered_ms     BIGINT
);
CREATE INDEX outbox_due ON outbox (status, next_attempt_ms);
CREATE INDEX outbox_lead ON outbox (lead_id);
