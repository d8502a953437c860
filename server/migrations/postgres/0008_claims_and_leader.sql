-- Several servers on one database (docs/decisions/019): every claim of a notification gets
-- a token, the row's claim counter, and a delivery's outcome is recorded only while the
-- row still holds the token of the claim that sent it. Leases (`locked_until_ms`) are set
-- and judged by the database's clock (now()), never a server's.
ALTER TABLE outbox ADD COLUMN claim_token BIGINT NOT NULL DEFAULT 0;
ALTER TABLE mail_outbox ADD COLUMN claim_token BIGINT NOT NULL DEFAULT 0;

-- Who runs the scheduled jobs (the retention purge, the outbox figures of /metrics): one
-- server at a time, holding this row until `expires_ms` (the database's clock) and renewing
-- it well before (docs/decisions/020).
CREATE TABLE job_leader (
    name        TEXT PRIMARY KEY,
    holder      TEXT NOT NULL,
    elected_ms  BIGINT NOT NULL,
    expires_ms  BIGINT NOT NULL
);

-- Wake-ups (docs/decisions/021): a notification queued, or made due again by a retry, tells
-- every server listening on the channel `site_outbox`, in the transaction that commits it
-- (NOTIFY is delivered at commit, once per transaction and payload). The payload is the
-- table's schema, so servers on other schemas of the same database ignore it.
CREATE FUNCTION outbox_wake() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('site_outbox', TG_TABLE_SCHEMA);
    RETURN NULL;
END $$;

CREATE TRIGGER outbox_queued AFTER INSERT ON outbox FOR EACH STATEMENT EXECUTE FUNCTION outbox_wake();
CREATE TRIGGER outbox_requeued AFTER UPDATE OF status ON outbox FOR EACH ROW
    WHEN (NEW.status = 'pending' AND OLD.status <> 'pending') EXECUTE FUNCTION outbox_wake();
CREATE TRIGGER mail_outbox_queued AFTER INSERT ON mail_outbox FOR EACH STATEMENT EXECUTE FUNCTION outbox_wake();
CREATE TRIGGER mail_outbox_requeued AFTER UPDATE OF status ON mail_outbox FOR EACH ROW
    WHEN (NEW.status = 'pending' AND OLD.status <> 'pending') EXECUTE FUNCTION outbox_wake();
