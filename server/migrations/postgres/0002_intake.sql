-- Everything a visitor submits besides leads (account requests, campaign applications),
-- and the e-mails about them to the notification recipients. Times are UTC milliseconds.
CREATE TABLE submissions (
    id              TEXT PRIMARY KEY,              -- UUIDv7: time-ordered
    kind            TEXT NOT NULL,                 -- 'account_request' | 'campaign_application'
    received_at_ms  BIGINT NOT NULL,
    dedupe_key      TEXT NOT NULL,                 -- a repeat within the window answers with the first id
    email           TEXT NOT NULL,                 -- lower case, for finding a person's records
    phone           TEXT,                          -- E.164 when it parses, else as typed
    data            TEXT NOT NULL,                 -- the validated fields as JSON (never a password)
    ip              TEXT,
    user_agent      TEXT,
    page_url        TEXT,
    status          TEXT NOT NULL DEFAULT 'new',   -- set by staff: new | contacted | approved | rejected
    note            TEXT
);
CREATE INDEX submissions_kind_received ON submissions (kind, received_at_ms);
CREATE INDEX submissions_dedupe ON submissions (dedupe_key, received_at_ms);
CREATE INDEX submissions_email ON submissions (email);
CREATE INDEX submissions_phone ON submissions (phone);

CREATE TABLE mail_outbox (
    id               BIGSERIAL PRIMARY KEY,
    submission_id    TEXT NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
    subject          TEXT NOT NULL,
    body             TEXT NOT NULL,
    status           TEXT NOT NULL,               -- 'pending' | 'delivered' | 'failed'
    attempts         BIGINT NOT NULL DEFAULT 0,
    next_attempt_ms  BIGINT NOT NULL,
    locked_until_ms  BIGINT NOT NULL DEFAULT 0,
    last_error       TEXT,
    created_ms       BIGINT NOT NULL,
    delivered_ms     BIGINT
);
CREATE INDEX mail_outbox_due ON mail_outbox (status, next_attempt_ms);
CREATE INDEX mail_outbox_submission ON mail_outbox (submission_id);
