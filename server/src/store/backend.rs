//! The store's contract: every operation the server asks of its database, one trait per
//! concern. `sqlite/<concern>.rs` and `postgres/<concern>.rs` each implement the trait of
//! that name, so the compiler checks that both backends offer the same operations with the
//! same signatures, and [`Store`](super::Store) hands every call to the backend it opened
//! (docs/decisions/013-store-contract.md). What an operation does is written here, once; a
//! backend file says only how it does it.

use std::sync::Arc;

use async_trait::async_trait;
use tokio::sync::{Notify, watch};
use tokio::task::JoinHandle;

use super::assets::{AssetRelease, RecordedAsset};
use super::campaigns::{CampaignChange, CampaignEdit, CampaignFields, CampaignRecord, CampaignSaved};
use super::{
    Attempt, AuditEntry, Channel, DeliveryCount, Erased, FunnelRow, FunnelState, LeadDetail, LeadFilter, LeadRecord, LeadRow, LimitKey,
    Listed, LoginRules, Mail, NewAudit, NewSession, NewSubmission, Outbox, OutboxCounts, OutboxItem, OutboxRow, OutboxSummary, Person,
    PersonRecords, RecountHold, Reserved, Retried, RetryOutcome, RetryScope, SeedPlan, Seeded, SessionRecord, SlowDelivery, StaffAccount,
    StaffLogin, StoreError, SubmissionFilter, SubmissionRecord, Submitted, Suppression, Verdict, ZoneOffsets,
};
use crate::leads::{NewLead, TokenRecord};

/// A backend: every trait below but [`Limits`] (each backend implements each in its file of
/// that name), and the shared limits where it keeps them.
pub trait Backend: Writer + Leads + Outboxes + Jobs + Submissions + Staff + Console + Funnel + Seed + Assets + Campaigns {
    /// The limits every server on the database shares, when the database keeps them:
    /// PostgreSQL's (`postgres/limits.rs`). None on SQLite: one server runs per file, and it
    /// keeps its rate limits and sign-in throttle in memory (docs/decisions/022-shared-limits.md).
    fn shared_limits(&self) -> Option<&dyn Limits>;
}

/// The writer (`writer.rs`): one per process, committing request writes in groups
/// (docs/decisions/002-group-commit.md).
#[async_trait]
pub trait Writer: Send + Sync {
    /// "sqlite" or "postgres".
    fn backend(&self) -> &'static str;

    /// False once the writer has stopped (closed, or its thread or task ended): writes would fail.
    fn writer_alive(&self) -> bool;

    /// Resolves once the writer has taken a no-op off its queue and finished the group it
    /// came with (whatever that group's outcome, and without a database round trip of its
    /// own): proof that the writer turns, for systemd's watchdog (`systemd.rs`). A writer
    /// stuck in a commit never answers; a stopped one answers `WriterStopped`.
    async fn ping(&self) -> Result<(), StoreError>;

    /// Waits until every write handed to the writer is committed, then stops it.
    async fn close(&self);
}

/// Leads and certificate tokens (`leads.rs`).
#[async_trait]
pub trait Leads: Send + Sync {
    /// Stores a lead and one outbox row per channel in one durable transaction, unless the
    /// same phone asked about the same service within the window.
    async fn submit_lead(&self, lead: NewLead, channels: Vec<Channel>, now_ms: i64) -> Result<Submitted, StoreError>;

    /// Records a certificate token: inserts it, or fills the fields its record lacks (a
    /// record is never overwritten, whoever sends the token again).
    async fn record_token(&self, record: TokenRecord, now_ms: i64) -> Result<(), StoreError>;

    async fn lead(&self, id: &str) -> Result<Option<LeadRecord>, StoreError>;

    async fn count_leads(&self) -> Result<i64, StoreError>;

    async fn token(&self, token: &str) -> Result<Option<TokenRecord>, StoreError>;

    /// Deletes leads (with their outbox rows), certificate records and submissions received
    /// before `cutoff_ms`, and the staff audit lines written before it: an audit line is
    /// never written before the record it names was received, so it is kept at least as
    /// long as that record (and as long as the records, not forever).
    async fn purge_before(&self, cutoff_ms: i64) -> Result<(u64, u64), StoreError>;
}

/// The outboxes the notification worker delivers from (`outbox.rs`): lead notifications and
/// submission e-mails, each operation taking which. Several servers may deliver from one
/// database: leases are the database's clock's, and outcomes are bound to claims
/// (docs/decisions/019).
#[async_trait]
pub trait Outboxes: Send + Sync {
    /// Leases up to `limit` of an outbox's notifications due at `now_ms` for `lease_ms`. The
    /// lease is set, and the leases of earlier claims judged, by the database's clock, so a
    /// server whose clock runs ahead never takes a row another holds; `now_ms` only says what
    /// is due (a retry is due at the time the server that scheduled it wrote). Each claimed
    /// row gets a new token, handed back in its item. For lead notifications, in the same
    /// transaction, due ones whose lead's number is on the do-not-call list are marked
    /// suppressed instead, and none of an erased lead is ever returned: the list and erasure
    /// bind at delivery (docs/decisions/011).
    async fn claim_due(&self, outbox: Outbox, now_ms: i64, lease_ms: i64, limit: usize) -> Result<Vec<OutboxItem>, StoreError>;

    /// Records what the `attempts`-th delivery attempt of notification `id`, sent under the
    /// claim whose token is `claim`, came to; true when it was recorded. It is not (false)
    /// when the row no longer holds that token (another claim took it after this one's lease
    /// ran out: that claim's outcome is the one that counts) or is no longer pending: a
    /// lead's notification suppressed meanwhile stays suppressed (unless it did go out: then
    /// it is delivered), one erased meanwhile is gone.
    async fn finish(&self, outbox: Outbox, id: i64, claim: i64, attempts: u32, attempt: Attempt) -> Result<bool, StoreError>;

    async fn mark_delivered(&self, outbox: Outbox, id: i64, claim: i64, attempts: u32, now_ms: i64) -> Result<bool, StoreError> {
        self.finish(outbox, id, claim, attempts, Attempt::Delivered { at_ms: now_ms }).await
    }

    async fn mark_retry(&self, outbox: Outbox, id: i64, claim: i64, attempts: u32, next_ms: i64, error: &str) -> Result<bool, StoreError> {
        let error = error.to_string();
        self.finish(outbox, id, claim, attempts, Attempt::Retry { next_ms, error }).await
    }

    async fn mark_failed(&self, outbox: Outbox, id: i64, claim: i64, attempts: u32, error: &str) -> Result<bool, StoreError> {
        let error = error.to_string();
        self.finish(outbox, id, claim, attempts, Attempt::Failed { error }).await
    }

    /// An outbox's rows by status (a count of the whole table: for tests and operators).
    async fn outbox_counts(&self, outbox: Outbox) -> Result<OutboxCounts, StoreError>;

    /// An outbox's pending and failed counts and its oldest undelivered notification, read
    /// from the undelivered rows only.
    async fn outbox_summary(&self, outbox: Outbox) -> Result<OutboxSummary, StoreError>;

    /// Delivery attempts of lead notifications at or after `since_ms`, by channel and
    /// outcome (an index range over their time).
    async fn deliveries_since(&self, since_ms: i64) -> Result<Vec<DeliveryCount>, StoreError>;

    /// An outbox's rows with `status` ("pending", "failed", "delivered"), oldest first, at most `limit`.
    async fn outbox_rows(&self, outbox: Outbox, status: &str, limit: usize) -> Result<Vec<OutboxRow>, StoreError>;

    /// Makes an outbox's failed notifications pending again, due now, with a fresh delivery
    /// effort (another full retry period), in one transaction that checks the do-not-call list
    /// and erasure: a lead's notification whose number is listed now is marked suppressed
    /// instead, and one of an erased lead is never sent.
    async fn retry_failed(&self, outbox: Outbox, scope: RetryScope, now_ms: i64) -> Result<Retried, StoreError>;

    /// How long after `now_ms` the next pending notification (lead or submission e-mail) is
    /// due, if there is one (0 or less: now): its retry time judged against `now_ms`, its
    /// lease, when it has one, against the database's clock.
    async fn next_due_in_ms(&self, now_ms: i64) -> Result<Option<i64>, StoreError>;

    /// Rings `wake` whenever any server queues a notification on this database or makes a
    /// failed one pending again, when the database can tell: PostgreSQL's LISTEN/NOTIFY, on
    /// a connection of its own, reconnected when it drops (and `wake` rung then, for what
    /// was missed), until `stop` turns true (docs/decisions/021). None on SQLite: one server
    /// holds the file, and its own requests ring `wake`.
    fn watch_queue(&self, wake: Arc<Notify>, stop: watch::Receiver<bool>) -> Option<JoinHandle<()>>;
}

/// Who runs the scheduled jobs (`jobs.rs`): one server at a time holds a lease on them, by
/// the database's clock, and renews it well before it ends (docs/decisions/020).
#[async_trait]
pub trait Jobs: Send + Sync {
    /// Takes or renews the jobs' lease for `holder`, until `ttl_ms` from now by the
    /// database's clock; true when `holder` holds it afterwards: it held it already, nobody
    /// did, or the last holder's lease had run out. One statement, so two servers asking at
    /// once never both get it.
    async fn lead_jobs(&self, holder: &str, ttl_ms: i64) -> Result<bool, StoreError>;

    /// Gives the lease up if `holder` holds it (a server stopping), so that another takes it
    /// at its next try instead of waiting for it to run out.
    async fn resign_jobs(&self, holder: &str) -> Result<(), StoreError>;

    /// Who holds the lease now, if anyone does (an expired one counts as nobody).
    async fn jobs_leader(&self) -> Result<Option<String>, StoreError>;
}

/// Submissions besides leads: account requests and campaign applications (`submissions.rs`).
#[async_trait]
pub trait Submissions: Send + Sync {
    /// Stores a submission (account request, campaign application) and, unless `mail` is
    /// None, its e-mail to the notification recipients, in one durable transaction; a
    /// repeat (the same [`NewSubmission::dedupe_key`], derived here from its fields) within
    /// the window gets the first id and no e-mail.
    async fn submit_form(&self, submission: NewSubmission, mail: Option<Mail>, now_ms: i64) -> Result<Submitted, StoreError>;

    async fn submission(&self, id: &str) -> Result<Option<SubmissionRecord>, StoreError>;

    /// Submissions matching `filter`, newest first, at most `limit`.
    async fn list_submissions(&self, filter: &SubmissionFilter, limit: usize) -> Result<Vec<SubmissionRecord>, StoreError>;

    /// Sets a submission's status and note, writing `audit` in the same transaction. False
    /// when there is no such submission.
    async fn review_submission(&self, id: &str, status: &str, note: Option<&str>, audit: NewAudit, now_ms: i64)
    -> Result<bool, StoreError>;
}

/// Staff accounts, their sessions and the audit log (`staff.rs`).
#[async_trait]
pub trait Staff: Send + Sync {
    /// Adds a staff account (`email` in lower case). None when the address already has one.
    async fn add_staff(&self, email: &str, password_hash: &str, now_ms: i64) -> Result<Option<i64>, StoreError>;

    /// Disables the account and ends its sessions. False when there is no such account.
    async fn disable_staff(&self, email: &str, now_ms: i64) -> Result<bool, StoreError>;

    async fn list_staff(&self) -> Result<Vec<StaffAccount>, StoreError>;

    async fn staff_login(&self, email: &str) -> Result<Option<StaffLogin>, StoreError>;

    /// Starts a session and writes its audit line, in one transaction.
    async fn create_session(&self, session: NewSession, audit: NewAudit, now_ms: i64) -> Result<(), StoreError>;

    /// The session with this id hash, if its account is still active.
    async fn session(&self, id_hash: &str) -> Result<Option<SessionRecord>, StoreError>;

    async fn touch_session(&self, id_hash: &str, now_ms: i64) -> Result<(), StoreError>;

    /// Ends a session; with `audit`, writes that line in the same transaction.
    async fn end_session(&self, id_hash: &str, audit: Option<NewAudit>, now_ms: i64) -> Result<(), StoreError>;

    async fn audit(&self, entry: NewAudit, now_ms: i64) -> Result<(), StoreError>;

    /// When the account `staff_id` was last unlocked (`site staff unlock`) at or after
    /// `since_ms`, if it was: a range of the audit log's time index, never the whole log.
    async fn staff_unlocked_since(&self, staff_id: i64, since_ms: i64) -> Result<Option<i64>, StoreError>;

    /// The audit log, newest first, from before the entry `before` (None: the newest).
    async fn audit_log(&self, before: Option<i64>, limit: usize) -> Result<Vec<AuditEntry>, StoreError>;
}

/// What the staff console reads and changes of leads, the do-not-call list and a person's
/// records (`console.rs`).
#[async_trait]
pub trait Console: Send + Sync {
    /// Leads matching `filter`, newest first, at most `limit`.
    async fn list_leads(&self, filter: &LeadFilter, limit: usize) -> Result<Vec<LeadRow>, StoreError>;

    async fn lead_detail(&self, id: &str) -> Result<Option<LeadDetail>, StoreError>;

    /// Sends a failed notification of `lead_id` back to the outbox, due now, with a fresh
    /// retry period (what `site outbox retry ID` does, decision 009), unless its lead is
    /// erased or its number is on the do-not-call list: checked in the same transaction,
    /// which marks it suppressed in that case. `audit` is written with a change, with the
    /// outcome added to its detail.
    async fn retry_delivery(&self, lead_id: &str, outbox_id: i64, audit: NewAudit, now_ms: i64) -> Result<RetryOutcome, StoreError>;

    /// Lists the numbers on the do-not-call list, newest first (ties by number, highest
    /// first); `phone` narrows it to one number, `before` (a row's `added_ms` and number)
    /// starts the page after that row.
    async fn suppressions(&self, phone: Option<&str>, before: Option<(i64, String)>, limit: usize) -> Result<Vec<Suppression>, StoreError>;

    /// Puts a number on the list and marks every undelivered notification of its leads
    /// suppressed, audited, in one transaction.
    async fn suppress(&self, phone_e164: &str, reason: &str, audit: NewAudit, now_ms: i64) -> Result<Listed, StoreError>;

    /// Takes a number off the list (audited in the same transaction). False when it was not on it.
    async fn unsuppress(&self, phone_e164: &str, audit: NewAudit, now_ms: i64) -> Result<bool, StoreError>;

    /// Everything stored about a person (at most `PERSON_LIMIT` of each kind).
    async fn person_records(&self, person: &Person) -> Result<PersonRecords, StoreError>;

    /// Erases the person's leads and deletes their submissions; `audit` is the line each
    /// record gets (its action and target are set per record).
    async fn erase_person(&self, person: &Person, audit: NewAudit, now_ms: i64) -> Result<Erased, StoreError>;
}

/// The console's funnel: daily counts kept by triggers, and the slowest deliveries
/// (`funnel.rs`).
#[async_trait]
pub trait Funnel: Send + Sync {
    /// The zone the daily counts are made in and the recount due, if any (two small reads).
    async fn funnel_state(&self) -> Result<FunnelState, StoreError>;

    /// Writes `zone` to `business_zone` and counts `lead_days` anew from the leads, while
    /// leads keep arriving (`funnel.rs`): writers wait at most for two short steps, never
    /// for the counting. `reason` is recorded until it is done, so a recount cut short (the
    /// server stopped) is done again. Run by the server running the scheduled jobs only.
    /// `hold` may keep it between its counting and the adding of its counts (tests do).
    async fn recount_funnel(&self, zone: &ZoneOffsets, reason: &str, hold: RecountHold) -> Result<(), StoreError>;

    /// Counts anew ([`Funnel::recount_funnel`]) when `business_zone` holds another zone than
    /// `zone` (or none yet) or a recount is due. True when it counted anew. Cheap when
    /// nothing is to be done (the reads of [`Funnel::funnel_state`]).
    async fn ensure_business_zone(&self, zone: &ZoneOffsets) -> Result<bool, StoreError> {
        match self.funnel_state().await?.recount_reason(zone) {
            Some(reason) => {
                self.recount_funnel(zone, &reason, RecountHold::none()).await?;
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// The rows of `lead_days` from local day `from_day` to `to_day`, both included.
    async fn funnel_rows(&self, from_day: i64, to_day: i64) -> Result<Vec<FunnelRow>, StoreError>;

    /// The `limit` slowest delivered notifications of leads received at or after `since_ms`,
    /// slowest first (time from the lead's arrival to the notification's delivery).
    async fn slowest_deliveries(&self, since_ms: i64, limit: usize) -> Result<Vec<SlowDelivery>, StoreError>;
}

/// The content-hashed files of the releases running on the database (`assets.rs`), so any
/// server answers for another release's files during a rolling upgrade.
#[async_trait]
pub trait Assets: Send + Sync {
    /// Records `release`'s files unless they are recorded already, marks the release as
    /// started now, and deletes the files of every release but the `keep` started last.
    /// "Now" is the database's clock on both, so it takes no time from the caller: on
    /// PostgreSQL so that every server agrees on the order (docs/decisions/024), on SQLite it
    /// is the one server's own clock.
    async fn record_assets(&self, release: &AssetRelease, keep: usize) -> Result<(), StoreError>;

    /// What [`Assets::record_assets`] does for a release recorded already, asked by its name
    /// alone: marks it started now with `version` and deletes the files of every release but
    /// the `keep` started last; true. False, changing nothing, when `release` is not recorded
    /// (then record it). A server of a known release restarting thus sends no file.
    async fn restart_release(&self, release: &str, version: &str, keep: usize) -> Result<bool, StoreError>;

    /// A recorded file of any kept release, by its path (`/assets/<name>`).
    async fn recorded_asset(&self, path: &str) -> Result<Option<RecordedAsset>, StoreError>;
}

/// The campaigns the portal shows and staff change in the console (`campaigns.rs`).
#[async_trait]
pub trait Campaigns: Send + Sync {
    /// Every campaign, ended ones too, in the portal's order (the catalogue's, new ones last).
    async fn campaigns(&self) -> Result<Vec<CampaignRecord>, StoreError>;

    /// The first start's import: when no campaign is stored, stores `seed` in its order (no
    /// staff member, at `now_ms`) in one transaction and answers true; otherwise changes
    /// nothing and answers false. Two servers starting at once import once.
    async fn import_campaigns(&self, seed: &[CampaignFields], now_ms: i64) -> Result<bool, StoreError>;

    /// Saves `edits` in one transaction, all or none: each new one added last, each change
    /// written with a history row per field it changes, and the audit lines. Refused, saving
    /// nothing, when an id is unknown or a name is another open campaign's.
    async fn save_campaigns(
        &self,
        edits: &[CampaignEdit],
        staff_id: i64,
        audit: Vec<NewAudit>,
        now_ms: i64,
    ) -> Result<CampaignSaved, StoreError>;

    /// The history of the campaign `id`, newest first.
    async fn campaign_changes(&self, id: i64) -> Result<Vec<CampaignChange>, StoreError>;

    /// Rings `wake` whenever another server may have changed a campaign, until `stop` turns
    /// true: PostgreSQL's notifications (channel `site_campaigns`, migration 0014). None on
    /// SQLite, where the one server sees its own changes at once.
    fn watch_campaigns(&self, wake: Arc<Notify>, stop: watch::Receiver<bool>) -> Option<JoinHandle<()>>;
}

/// Synthetic leads for the benchmarks and the tests (`seed.rs`; `site seed`).
#[async_trait]
pub trait Seed: Send + Sync {
    /// Adds the plan's leads (and, if it says so, their notifications and delivery attempts)
    /// in one transaction, through the tables' triggers, then refreshes the planner's
    /// statistics of the tables it filled. The plan must have no [`SeedPlan::problem`].
    async fn seed_leads(&self, plan: &SeedPlan) -> Result<Seeded, StoreError>;
}

/// The limits every server on the database shares (`limits.rs`): the per-client rate limits
/// and the sign-in throttle (docs/decisions/022-shared-limits.md). Only PostgreSQL keeps
/// them, and only it implements this; they are reached through [`Backend::shared_limits`],
/// None with SQLite (one server per file), where each is kept in memory by its own module.
#[async_trait]
pub trait Limits: Send + Sync {
    /// Charges one request to `key`'s current window (`LIMIT_WINDOW_MS` of the database's
    /// clock): allowed while the window holds at most `limit` requests, this one included;
    /// refused ones count too (they end with the window). Requests arriving together are
    /// counted in one statement.
    async fn charge(&self, key: LimitKey, limit: u32) -> Result<Verdict, StoreError>;

    /// Counts a sign-in attempt for `account` from `client` at `now_ms`, unless either has
    /// spent its allowance within the window (counted under a lock of both keys, so two
    /// servers cannot both take the last place).
    async fn reserve_login(
        &self,
        account: &LimitKey,
        client: Option<&LimitKey>,
        rules: LoginRules,
        now_ms: i64,
    ) -> Result<Reserved, StoreError>;

    /// Settles attempt `id` of `account`: a failure keeps its place in both counts; a
    /// success gives its place back and forgives the account's failures (not the client's).
    async fn settle_login(&self, id: i64, account: &LimitKey, succeeded: bool) -> Result<(), StoreError>;

    /// Forgives the account's attempts made at or before `at_ms` (an operator unlocked it).
    async fn unlock_login(&self, account: &LimitKey, at_ms: i64) -> Result<(), StoreError>;

    /// Deletes the windows and attempts that have expired (by the database's clock). Each
    /// server does it about once a minute; callable by anyone.
    async fn purge_limits(&self) -> Result<u64, StoreError>;
}
