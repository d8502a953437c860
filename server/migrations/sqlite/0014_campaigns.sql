-- The campaigns the affiliate portal shows, kept in the store and changed from the console
-- (/admin/campaigns, docs/product.md "Campaigns in the console"). The first start on an
-- empty table imports catalogue/campaigns.json; afterwards this table is the truth. An
-- expand migration: the release before it never reads these tables.
--
-- status: LIVE (shown and open to applications) | paused (hidden, closed for now) | ended
-- (hidden for good, kept for history and the applications that name it). A name is unique
-- among the campaigns not ended. place keeps the catalogue's order; a new one goes last.
CREATE TABLE campaigns (
    id              INTEGER PRIMARY KEY,
    name            TEXT NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('LIVE', 'paused', 'ended')),
    payouts         TEXT NOT NULL,
    payment_terms   TEXT NOT NULL,
    geos            TEXT NOT NULL,
    promo_allowed   TEXT,                          -- the promotion note; NULL: none
    cap             TEXT NOT NULL,
    inbound         INTEGER NOT NULL,
    transfer        INTEGER NOT NULL,
    seconds         INTEGER NOT NULL,
    hours           TEXT NOT NULL,
    notes           TEXT NOT NULL,
    place           INTEGER NOT NULL,
    created_ms      INTEGER NOT NULL,
    created_by      INTEGER REFERENCES staff (id), -- NULL: imported from the catalogue
    changed_ms      INTEGER NOT NULL,
    changed_by      INTEGER REFERENCES staff (id)
);
CREATE UNIQUE INDEX campaigns_open_name ON campaigns (name) WHERE status <> 'ended';

-- Each campaign's history: one row per field a save changed, from what to what.
CREATE TABLE campaign_changes (
    id              INTEGER PRIMARY KEY,
    campaign_id     INTEGER NOT NULL REFERENCES campaigns (id),
    at_ms           INTEGER NOT NULL,
    staff_id        INTEGER REFERENCES staff (id),
    field           TEXT NOT NULL,
    old_value       TEXT,                          -- NULL: the campaign was added
    new_value       TEXT
);
CREATE INDEX campaign_changes_campaign ON campaign_changes (campaign_id, id);
