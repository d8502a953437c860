-- The console's health page and /metrics count the delivery attempts of the last 24 hours
-- (by channel and outcome): an index range over their time, never the whole table.
CREATE INDEX delivery_attempts_at ON delivery_attempts (at_ms);
