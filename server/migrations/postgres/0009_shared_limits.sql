-- The limits every server on this database shares (docs/decisions/022-shared-limits.md):
-- the per-client rate limits and the staff sign-in throttle. Counts that matter for
-- minutes, so UNLOGGED: no write-ahead log per request (a crash of the database empties
-- them, which only forgives what was counted). Keys are SHA-256 digests of what is
-- limited (a scope and a client address, session or typed e-mail), never the value.

-- Requests per key in fixed windows of the database's clock: one row per key and window,
-- counted up by one statement per group of requests.
CREATE UNLOGGED TABLE rate_windows (
    key             BYTEA NOT NULL,
    window_end_ms   BIGINT NOT NULL,
    hits            INTEGER NOT NULL,
    PRIMARY KEY (key, window_end_ms)
);

-- Sign-in attempts that reached (or are reaching) the password check, by account and by
-- client. `failed` once its password was wrong; `forgiven` when a later success or an
-- operator's unlock lifted it from the account's count (the client's count keeps it).
CREATE UNLOGGED TABLE login_attempts (
    id              BIGSERIAL PRIMARY KEY,
    account         BYTEA NOT NULL,
    client          BYTEA,
    at_ms           BIGINT NOT NULL,
    expires_ms      BIGINT NOT NULL,
    failed          BOOLEAN NOT NULL DEFAULT FALSE,
    forgiven        BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE INDEX login_attempts_account ON login_attempts (account, at_ms);
CREATE INDEX login_attempts_client ON login_attempts (client, at_ms) WHERE client IS NOT NULL;
