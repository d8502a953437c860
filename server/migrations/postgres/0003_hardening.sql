-- The Referer header the server saw, kept beside the page URL and referrer the page sent.
ALTER TABLE leads ADD COLUMN seen_referer TEXT;
-- When the current delivery effort began: the row's creation, or an operator's re-send
-- (`site outbox retry`). A notification is given up only this long after it (72 h or more).
ALTER TABLE outbox ADD COLUMN retry_from_ms BIGINT;
-- Undelivered rows by age, for the oldest-undelivered figure in /metrics.
CREATE INDEX outbox_undelivered ON outbox (status, created_ms);
-- The same for the e-mails about account requests and campaign applications.
ALTER TABLE mail_outbox ADD COLUMN retry_from_ms BIGINT;
CREATE INDEX mail_outbox_undelivered ON mail_outbox (status, created_ms);
