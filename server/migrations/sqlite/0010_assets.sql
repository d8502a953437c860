-- The content-hashed files (/assets/...) of each release, recorded by every server at start,
-- so that during a rolling upgrade any server answers for the files of the current and the
-- previous release: a page served by a newer server names files an older one does not
-- embed (docs/operations.md, "Running several servers"). An expand migration: the release
-- before it never reads these tables.
--
-- A release is the set of files one binary serves, named by the hash of their paths; a
-- server records its own once (the files with the release, in one transaction) and then
-- only marks when one of its release last started. The two releases started last are kept.
CREATE TABLE asset_releases (
    release         TEXT PRIMARY KEY,
    version         TEXT NOT NULL,                 -- the binary's version, for operators
    first_ms        INTEGER NOT NULL,
    started_ms      INTEGER NOT NULL
);

CREATE TABLE assets (
    release         TEXT NOT NULL REFERENCES asset_releases (release) ON DELETE CASCADE,
    path            TEXT NOT NULL,                 -- /assets/<name>, as requested
    content_type    TEXT NOT NULL,
    body            BLOB NOT NULL,
    gzip            BLOB NOT NULL,
    PRIMARY KEY (release, path)
);
CREATE INDEX assets_path ON assets (path);
