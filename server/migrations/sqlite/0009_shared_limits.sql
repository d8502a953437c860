-- The tables PostgreSQL keeps the shared limits in (docs/decisions/022-shared-limits.md).
-- SQLite has one server per file, which keeps its limits in memory: these stay empty, and
-- exist so that both databases have the same tables (site copy-store and the data-request
-- checks compare the two schemas).
CREATE TABLE rate_windows (
    key             BLOB NOT NULL,
    window_end_ms   INTEGER NOT NULL,
    hits            INTEGER NOT NULL,
    PRIMARY KEY (key, window_end_ms)
);

CREATE TABLE login_attempts (
    id              INTEGER PRIMARY KEY,
    account         BLOB NOT NULL,
    client          BLOB,
    at_ms           INTEGER NOT NULL,
    expires_ms      INTEGER NOT NULL,
    failed          INTEGER NOT NULL DEFAULT 0,
    forgiven        INTEGER NOT NULL DEFAULT 0
);
