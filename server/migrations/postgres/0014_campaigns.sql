-- The campaigns the affiliate portal shows, kept in the store and changed from the console
-- (/admin/campaigns, docs/product.md "Campaigns in the console"). The first start on an
-- empty table imports catalogue/campaigns.json; afterwards this table is the truth. An
-- expand migration: the release before it never reads these tables.
--
-- status: LIVE (shown and open to applications) | paused (hidden, closed for now) | ended
-- (hidden for good, kept for history and the applications that name it). A name is unique
-- among the campaigns not ended. place keeps the catalogue's order; a new one goes last.
CREATE TABLE campaigns (
    id              BIGSERIAL PRIMARY KEY,
    name            TEXT NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('LIVE', 'paused', 'ended')),
    payouts         TEXT NOT NULL,
    payment_terms   TEXT NOT NULL,
    geos            TEXT NOT NULL,
    promo_allowed   TEXT,                          -- the promotion note; NULL: none
    cap             TEXT NOT NULL,
    inbound         BOOLEAN NOT NULL,
    transfer        BOOLEAN NOT NULL,
    seconds         BIGINT NOT NULL,
    hours           TEXT NOT NULL,
    notes           TEXT NOT NULL,
    place           BIGINT NOT NULL,
    created_ms      BIGINT NOT NULL,
    created_by      BIGINT REFERENCES staff (id), -- NULL: imported from the catalogue
    changed_ms      BIGINT NOT NULL,
    changed_by      BIGINT REFERENCES staff (id)
);
CREATE UNIQUE INDEX campaigns_open_name ON campaigns (name) WHERE status <> 'ended';

-- Each campaign's history: one row per field a save changed, from what to what.
CREATE TABLE campaign_changes (
    id              BIGSERIAL PRIMARY KEY,
    campaign_id     BIGINT NOT NULL REFERENCES campaigns (id),
    at_ms           BIGINT NOT NULL,
    staff_id        BIGINT REFERENCES staff (id),
    field           TEXT NOT NULL,
    old_value       TEXT,                          -- NULL: the campaign was added
    new_value       TEXT
);
CREATE INDEX campaign_changes_campaign ON campaign_changes (campaign_id, id);

-- Every server's pages follow a change within a second: a change notifies the channel
-- site_campaigns (delivered at commit, once per transaction and payload; the payload is the
-- schema written), which each server listens on (store/postgres/listen.rs), with a slow
-- poll as the fallback (docs/decisions/021).
CREATE FUNCTION site_campaigns_changed() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('site_campaigns', TG_TABLE_SCHEMA);
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER campaigns_changed AFTER INSERT OR UPDATE OR DELETE ON campaigns
    FOR EACH STATEMENT EXECUTE FUNCTION site_campaigns_changed();
