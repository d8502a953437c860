//! The statements both backends run word for word, each written once with PostgreSQL's `$N`
//! placeholders (SQLite's `?N` text is made from it at compile time: `shared!` in
//! `mod.rs`). Use `NAME.pg` with tokio-postgres and `NAME.sqlite` with rusqlite, the
//! values in the same order.

use super::{Sql, sqlite_placeholders};

shared! {
    // Leads and certificate tokens.
    COUNT_LEADS = "SELECT COUNT(*) FROM leads";
    /// The certificate token `$1`.
    TOKEN = "SELECT token, ping_url, service_slug, cert_url FROM certificates WHERE token = $1";
    /// A token is inserted once, then only its missing URLs are filled in.
    RECORD_TOKEN = "INSERT INTO certificates (token, ping_url, cert_url, service_slug, recorded_at_ms, updated_at_ms) \
         VALUES ($1, $2, $3, $4, $5, $5) \
         ON CONFLICT (token) DO UPDATE SET ping_url = COALESCE(certificates.ping_url, excluded.ping_url), \
         cert_url = COALESCE(certificates.cert_url, excluded.cert_url), updated_at_ms = excluded.updated_at_ms";

    // Retention: everything received before the cutoff `$1`.
    PURGE_OUTBOX = "DELETE FROM outbox WHERE lead_id IN (SELECT id FROM leads WHERE received_at_ms < $1)";
    PURGE_LEADS = "DELETE FROM leads WHERE received_at_ms < $1";
    PURGE_CERTIFICATES = "DELETE FROM certificates WHERE recorded_at_ms < $1";
    PURGE_SUBMISSIONS = "DELETE FROM submissions WHERE received_at_ms < $1";
    PURGE_AUDIT = "DELETE FROM staff_audit WHERE at_ms < $1";

    // Submissions.
    /// The first submission with the dedupe key `$1` received since `$2`.
    EARLIER_SUBMISSION = "SELECT id FROM submissions WHERE dedupe_key = $1 AND received_at_ms >= $2 ORDER BY received_at_ms LIMIT 1";
    INSERT_SUBMISSION = "INSERT INTO submissions (id, kind, received_at_ms, dedupe_key, email, phone, data, ip, user_agent, page_url) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)";
    /// A submission's e-mail (`$1` the submission, `$4` now), pending.
    INSERT_MAIL = "INSERT INTO mail_outbox (submission_id, subject, body, status, attempts, next_attempt_ms, created_ms) \
         VALUES ($1, $2, $3, 'pending', 0, $4, $4)";
    SUBMISSION = concat!("SELECT ", submission_columns!(), " FROM submissions WHERE id = $1");

    // Staff accounts, sessions and the audit log.
    LIST_STAFF = "SELECT id, email, active, created_ms, disabled_ms FROM staff ORDER BY email";
    STAFF_LOGIN = "SELECT id, email, password_hash, active FROM staff WHERE email = $1";
    END_SESSION = "DELETE FROM staff_sessions WHERE id_hash = $1";
    /// One audit line: at, staff, action, target, address, detail.
    INSERT_AUDIT = concat!(audit_insert_into!(), " VALUES ($1, $2, $3, $4, $5, $6)");
    /// The last time since `$1` that the action `$2` was audited on the target `$3`.
    STAFF_UNLOCKED_SINCE = "SELECT MAX(at_ms) FROM staff_audit WHERE at_ms >= $1 AND action = $2 AND target = $3";
    /// The audit log below the line `$1`, newest first, `$2` lines.
    AUDIT_LOG = "SELECT l.id, l.at_ms, s.email, l.action, l.target, l.ip, l.detail FROM staff_audit l \
         LEFT JOIN staff s ON s.id = l.staff_id WHERE l.id < $1 ORDER BY l.id DESC LIMIT $2";

    // Campaigns (migration 0014), in the portal's order.
    /// Every campaign: id, the card's fields, created at and by, changed at and by.
    CAMPAIGNS = "SELECT c.id, c.name, c.status, c.payouts, c.payment_terms, c.geos, c.promo_allowed, c.cap, c.inbound, c.transfer, \
         c.seconds, c.hours, c.notes, c.created_ms, a.email, c.changed_ms, b.email FROM campaigns c \
         LEFT JOIN staff a ON a.id = c.created_by LEFT JOIN staff b ON b.id = c.changed_by ORDER BY c.place, c.id";
    COUNT_CAMPAIGNS = "SELECT COUNT(*) FROM campaigns";
    /// The card's fields of the campaign `$1`.
    CAMPAIGN_FIELDS = "SELECT name, status, payouts, payment_terms, geos, promo_allowed, cap, inbound, transfer, seconds, hours, notes \
         FROM campaigns WHERE id = $1";
    /// Another campaign than `$2` named `$1` that has not ended.
    CAMPAIGN_NAME_TAKEN = "SELECT id FROM campaigns WHERE name = $1 AND status <> 'ended' AND id <> $2";
    /// A new campaign, last: the card's fields `$1`…`$12`, created and changed at `$13` by `$14`.
    INSERT_CAMPAIGN = "INSERT INTO campaigns (name, status, payouts, payment_terms, geos, promo_allowed, cap, inbound, transfer, seconds, \
         hours, notes, place, created_ms, created_by, changed_ms, changed_by) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, (SELECT COALESCE(MAX(place), 0) + 1 FROM campaigns), $13, $14, $13, $14) \
         RETURNING id";
    /// The campaign `$15`'s new fields `$1`…`$12` (as `INSERT_CAMPAIGN`'s), changed at `$13` by `$14`.
    UPDATE_CAMPAIGN = "UPDATE campaigns SET name = $1, status = $2, payouts = $3, payment_terms = $4, geos = $5, promo_allowed = $6, \
         cap = $7, inbound = $8, transfer = $9, seconds = $10, hours = $11, notes = $12, changed_ms = $13, changed_by = $14 WHERE id = $15";
    /// A history row: the campaign `$1` at `$2` by `$3`, its field `$4` from `$5` to `$6`.
    INSERT_CAMPAIGN_CHANGE = "INSERT INTO campaign_changes (campaign_id, at_ms, staff_id, field, old_value, new_value) \
         VALUES ($1, $2, $3, $4, $5, $6)";
    /// The history of the campaign `$1`, newest first.
    CAMPAIGN_HISTORY = "SELECT h.at_ms, s.email, h.field, h.old_value, h.new_value FROM campaign_changes h \
         LEFT JOIN staff s ON s.id = h.staff_id WHERE h.campaign_id = $1 ORDER BY h.id DESC";

    // The console's lead page.
    LEAD_DELIVERY = "SELECT delivery_status, erased_ms FROM leads WHERE id = $1";
    LEAD_DELIVERIES = "SELECT id, channel, status, attempts, last_error, next_attempt_ms, delivered_ms FROM outbox \
         WHERE lead_id = $1 ORDER BY id";
    LEAD_ATTEMPTS = "SELECT channel, at_ms, outcome, error FROM delivery_attempts WHERE lead_id = $1 ORDER BY at_ms, id";
    PHONE_SUPPRESSED = "SELECT 1 FROM suppressions WHERE phone_e164 = $1";

    // The funnel.
    BUSINESS_ZONE = "SELECT from_ms, offset_ms, zone FROM business_zone ORDER BY from_ms";
    /// The daily counts from day `$1` to day `$2`.
    FUNNEL_ROWS = "SELECT day, kind, key, leads, delivered, fast, suppressed, erased FROM lead_days \
         WHERE day >= $1 AND day <= $2 AND (leads <> 0 OR erased <> 0) ORDER BY day, kind, key";

    /// Why a recount of the funnel is due, if it is.
    FUNNEL_RECOUNT_DUE = "SELECT reason FROM funnel_recount WHERE id = 1";
    /// Whether the recount under way is still the one of token `$1`.
    FUNNEL_RECOUNT_OURS = "SELECT 1 FROM funnel_recount WHERE id = 1 AND token = $1";
    /// The recount of token `$1` done.
    FUNNEL_RECOUNT_DONE = "DELETE FROM funnel_recount WHERE token = $1";
    CLEAR_BUSINESS_ZONE = "DELETE FROM business_zone";
    CLEAR_LEAD_DAYS = "DELETE FROM lead_days";
    /// What a recount reads first, so its snapshot begins there.
    COUNT_BUSINESS_ZONE = "SELECT COUNT(*) FROM business_zone";
    /// Rows the triggers made for a difference a recount's counts have now met (an erasure
    /// of a lead counted in the snapshot leaves its source at 0), and a source left below 0
    /// (a lead changed outside the triggers): it may name a person erased.
    DROP_EMPTY_LEAD_DAYS = "DELETE FROM lead_days WHERE (kind = 'source' AND leads <= 0) \
         OR (leads = 0 AND delivered = 0 AND fast = 0 AND suppressed = 0 AND erased = 0)";

    // The scheduled jobs' lease.
    /// Gives the lease up if `$1` holds it.
    RESIGN_JOBS = "DELETE FROM job_leader WHERE name = 'jobs' AND holder = $1";

    // The releases' hashed files (rolling upgrades).
    /// A file of any kept release, by its path.
    RECORDED_ASSET = "SELECT content_type, body, gzip FROM assets WHERE path = $1 LIMIT 1";
    /// Every release but the `$1` started last, with its files (ON DELETE CASCADE).
    PRUNE_ASSET_RELEASES = "DELETE FROM asset_releases WHERE release NOT IN \
         (SELECT release FROM asset_releases ORDER BY started_ms DESC, release LIMIT $1)";

    // The outboxes, each statement once per outbox (`OUTBOX_LEADS` and `OUTBOX_MAIL` below).
    /// Records the outcome of a delivery of notification `$1`: its status `$2`, attempts `$3`,
    /// delivery time `$4`, next attempt `$5` (kept unless pending) and error `$6`, only
    /// while it still holds the token `$7` of the claim that sent it (a claim that outlived
    /// its lease, taken over by another, records nothing) and is still pending: a lead's
    /// notification suppressed meanwhile stays suppressed, unless it did go out (then it is
    /// delivered); one erased meanwhile is gone.
    LEADS_FINISH = concat!(finish_head!("outbox"), "claim_token = $7 AND (status = 'pending' OR ($2 = 'delivered' AND status = 'suppressed'))");
    /// As `LEADS_FINISH`, for a submission's e-mail: never suppressed, and erasure deletes it.
    MAIL_FINISH = concat!(finish_head!("mail_outbox"), "claim_token = $7 AND status = 'pending'");
    LEADS_COUNTS = "SELECT status, COUNT(*) FROM outbox GROUP BY status";
    MAIL_COUNTS = "SELECT status, COUNT(*) FROM mail_outbox GROUP BY status";
    /// The undelivered notifications by status, with the oldest one's time.
    LEADS_SUMMARY = "SELECT status, COUNT(*), MIN(created_ms) FROM outbox WHERE status IN ('pending', 'failed') GROUP BY status";
    MAIL_SUMMARY = "SELECT status, COUNT(*), MIN(created_ms) FROM mail_outbox WHERE status IN ('pending', 'failed') GROUP BY status";
    /// The oldest `$2` notifications of status `$1`, as operators see them.
    LEADS_ROWS = "SELECT id, lead_id, channel, status, attempts, created_ms, last_error, claim_token FROM outbox WHERE status = $1 \
         ORDER BY created_ms, id LIMIT $2";
    /// As `LEADS_ROWS`: the mail outbox sends e-mail only.
    MAIL_ROWS = "SELECT id, submission_id, 'email', status, attempts, created_ms, last_error, claim_token FROM mail_outbox WHERE status = $1 \
         ORDER BY created_ms, id LIMIT $2";
    /// The delivery attempts since `$1`, by channel and outcome.
    DELIVERIES_SINCE = "SELECT channel, outcome, COUNT(*) FROM delivery_attempts WHERE at_ms >= $1 GROUP BY channel, outcome ORDER BY channel, outcome";

    // The migrations' bookkeeping.
    /// Fills in what rows from before checksums or the marker were kept lack: migration `$1`'s
    /// name `$2`, checksum `$3` and marker `$4`.
    FILL_MIGRATION = "UPDATE schema_migrations SET name = COALESCE(name, $2), checksum = COALESCE(checksum, $3), \
         compatible_back_to = COALESCE(compatible_back_to, $4) \
         WHERE version = $1 AND (checksum IS NULL OR compatible_back_to IS NULL)";
    /// Records migration `$1` applied at `$2`: its name, checksum, the binary, its marker.
    RECORD_MIGRATION = "INSERT INTO schema_migrations (version, applied_ms, name, checksum, applied_by, compatible_back_to) \
         VALUES ($1, $2, $3, $4, $5, $6)";
}

/// One outbox's statements (`Outbox::sql`).
#[derive(Debug, Clone, Copy)]
pub struct OutboxSql {
    pub finish: Sql,
    pub counts: Sql,
    pub summary: Sql,
    pub rows: Sql,
}

/// The lead notifications' (`outbox`).
pub const OUTBOX_LEADS: OutboxSql = OutboxSql {
    finish: LEADS_FINISH,
    counts: LEADS_COUNTS,
    summary: LEADS_SUMMARY,
    rows: LEADS_ROWS,
};

/// The submissions' e-mails (`mail_outbox`).
pub const OUTBOX_MAIL: OutboxSql = OutboxSql {
    finish: MAIL_FINISH,
    counts: MAIL_COUNTS,
    summary: MAIL_SUMMARY,
    rows: MAIL_ROWS,
};
