-- Several servers on one database (docs/decisions/019): every claim of a notification gets
-- a token, the row's claim counter, and a delivery's outcome is recorded only while the
-- row still holds the token of the claim that sent it. Leases (`locked_until_ms`) are set
-- and judged by the database's clock. On SQLite one server holds the file, so this is the
-- same code path with one claimant.
ALTER TABLE outbox ADD COLUMN claim_token INTEGER NOT NULL DEFAULT 0;
ALTER TABLE mail_outbox ADD COLUMN claim_token INTEGER NOT NULL DEFAULT 0;

-- Who runs the scheduled jobs (the retention purge, the outbox figures of /metrics): one
-- server at a time, holding this row until `expires_ms` (the database's clock) and renewing
-- it well before (docs/decisions/020).
CREATE TABLE job_leader (
    name        TEXT PRIMARY KEY,
    holder      TEXT NOT NULL,
    elected_ms  INTEGER NOT NULL,
    expires_ms  INTEGER NOT NULL
);
