//! Data requests: every record of a person, found by phone number (E.164) or e-mail, and
//! their deletion on request. A lead is erased down to its consent record (the wording's
//! hash, certificate, time, IP and the number consented for), which the law requires us to
//! keep; everything else [`ERASURE`] lists as cleared is cleared and `erased_ms` set. Its
//! notifications end whatever their state: the undelivered ones (pending, being sent, failed)
//! are deleted, and delivery refuses an erased lead (the outbox claim and every Retry check
//! `erased_ms` in the same transaction). Account requests and applications are deleted
//! (their e-mails go with them). Each erased or deleted record gets its own audit line, in
//! the same transaction.
//!
//! [`ERASURE`] names every column of every table with what a data request does to it:
//! cleared, deleted with its row, or kept and why. A test reads both databases' schemas and
//! fails on a column missing from it, so a new column is never left holding personal data
//! by oversight.

use super::SubmissionRecord;
use super::lead_fields::{BOOKKEEPING, Erase, LEAD_FIELDS};

/// Whom a data request is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Person {
    PhoneE164(String),
    /// Lower case.
    Email(String),
}

impl Person {
    pub(super) fn phone(&self) -> Option<String> {
        match self {
            Person::PhoneE164(p) => Some(p.clone()),
            Person::Email(_) => None,
        }
    }

    pub(super) fn email(&self) -> Option<String> {
        match self {
            Person::Email(e) => Some(e.clone()),
            Person::PhoneE164(_) => None,
        }
    }
}

/// A lead found for a data request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PersonLead {
    pub id: String,
    pub received_at_ms: i64,
    pub service_slug: String,
    pub full_name: String,
    pub erased_ms: Option<i64>,
}

/// Everything stored about a person.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PersonRecords {
    pub leads: Vec<PersonLead>,
    pub submissions: Vec<SubmissionRecord>,
}

/// What a deletion did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Erased {
    /// Leads erased down to their consent record (ones erased before are not counted).
    pub leads: i64,
    /// Account requests and applications deleted.
    pub submissions: i64,
}

/// Records shown for one person, at most.
pub const PERSON_LIMIT: usize = 500;

/// What a data request does to one column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fate {
    /// Set to NULL in the erased person's rows.
    Cleared,
    /// Set to '' in the erased person's rows (the column cannot be NULL).
    Emptied,
    /// The person's rows are deleted: account requests and applications, their e-mails,
    /// the undelivered notifications of an erased lead.
    Deleted,
    /// Kept, and why.
    Kept(&'static str),
}

/// One table, every one of its columns, and how a data request finds its rows of a person.
#[derive(Debug, Clone, Copy)]
pub struct TableErasure {
    pub table: &'static str,
    /// The column naming the erased lead (`id` in `leads`, `lead_id` in the tables about a
    /// lead): its [`Fate::Cleared`] and [`Fate::Emptied`] columns are cleared in those rows.
    pub lead_key: Option<&'static str>,
    /// Rows of an erased lead that are deleted rather than cleared (SQL, on the table).
    pub deleted_rows: Option<&'static str>,
    /// Only in SQLite's schema.
    pub sqlite_only: bool,
    pub columns: &'static [(&'static str, Fate)],
}

const CONSENT: Fate = Fate::Kept("the consent record, which the law requires us to keep");
const CERTIFICATE: Fate = Fate::Kept("the consent record: its certificate");
const BOOKKEEPING_FATE: Fate = Fate::Kept("not personal: ids, times, counts, states");
const LIMIT_KEY: Fate = Fate::Kept(
    "a SHA-256 digest of a client's address, session or typed e-mail, never the value; deleted within 15 minutes \
     (the shared limits, docs/decisions/022-shared-limits.md)",
);
const ASSET: Fate = Fate::Kept("the site's own scripts and files, the same for every visitor");
const STAFF: Fate = Fate::Kept("about the business's staff, not about a person who asked for a callback");
const CAMPAIGN: Fate = Fate::Kept("a campaign the business offers affiliates, the same for every visitor");

/// The columns of `leads`: the store's own (`BOOKKEEPING`), then each field's, as
/// `LEAD_FIELDS` declares it (`store/lead_fields.rs`).
const LEADS: [(&str, Fate); BOOKKEEPING.len() + LEAD_FIELDS.len()] = {
    let mut out = [("", BOOKKEEPING_FATE); BOOKKEEPING.len() + LEAD_FIELDS.len()];
    let mut i = 0;
    while i < BOOKKEEPING.len() {
        let (column, why) = BOOKKEEPING[i];
        out[i] = (
            column,
            match why {
                Some(why) => Fate::Kept(why),
                None => BOOKKEEPING_FATE,
            },
        );
        i += 1;
    }
    let mut j = 0;
    while j < LEAD_FIELDS.len() {
        let field = &LEAD_FIELDS[j];
        out[i + j] = (
            field.column,
            match field.erase {
                Erase::Cleared => Fate::Cleared,
                Erase::Emptied => Fate::Emptied,
                Erase::Kept(why) => Fate::Kept(why),
            },
        );
        j += 1;
    }
    out
};

/// Every column of every table, and what a data request does to it. A column added by a
/// migration goes here too (`every_column_is_either_cleared_by_a_data_request_or_kept_on_purpose` in the tests fails until it does): cleared when it
/// can hold anything a visitor sent or that names them, kept only with the reason.
pub const ERASURE: &[TableErasure] = &[
    TableErasure {
        table: "leads",
        lead_key: Some("id"),
        deleted_rows: None,
        sqlite_only: false,
        columns: &LEADS,
    },
    TableErasure {
        table: "lead_names",
        lead_key: None,
        deleted_rows: None,
        sqlite_only: true,
        columns: &[(
            "full_name",
            Fate::Kept("SQLite's index of leads.full_name, rewritten by a trigger when the name is cleared"),
        )],
    },
    TableErasure {
        table: "outbox",
        lead_key: Some("lead_id"),
        deleted_rows: Some("status IN ('pending', 'failed')"),
        sqlite_only: false,
        columns: &[
            ("id", BOOKKEEPING_FATE),
            ("lead_id", BOOKKEEPING_FATE),
            ("channel", BOOKKEEPING_FATE),
            (
                "status",
                Fate::Kept("what became of a delivered or suppressed notification (the undelivered ones are deleted)"),
            ),
            ("attempts", BOOKKEEPING_FATE),
            ("next_attempt_ms", BOOKKEEPING_FATE),
            ("locked_until_ms", BOOKKEEPING_FATE),
            ("last_error", Fate::Cleared),
            ("created_ms", BOOKKEEPING_FATE),
            ("delivered_ms", BOOKKEEPING_FATE),
            ("retry_from_ms", BOOKKEEPING_FATE),
            ("claim_token", BOOKKEEPING_FATE),
        ],
    },
    TableErasure {
        table: "delivery_attempts",
        lead_key: Some("lead_id"),
        deleted_rows: None,
        sqlite_only: false,
        columns: &[
            ("id", BOOKKEEPING_FATE),
            ("outbox_id", BOOKKEEPING_FATE),
            ("lead_id", BOOKKEEPING_FATE),
            ("channel", BOOKKEEPING_FATE),
            ("at_ms", BOOKKEEPING_FATE),
            ("outcome", BOOKKEEPING_FATE),
            ("error", Fate::Cleared),
        ],
    },
    TableErasure {
        table: "consent_texts",
        lead_key: None,
        deleted_rows: None,
        sqlite_only: false,
        columns: &[("sha256", CONSENT), ("text", CONSENT), ("first_seen_ms", CONSENT)],
    },
    TableErasure {
        table: "certificates",
        lead_key: None,
        deleted_rows: None,
        sqlite_only: false,
        columns: &[
            ("token", CERTIFICATE),
            ("ping_url", CERTIFICATE),
            ("cert_url", CERTIFICATE),
            ("service_slug", CERTIFICATE),
            ("recorded_at_ms", CERTIFICATE),
            ("updated_at_ms", CERTIFICATE),
        ],
    },
    TableErasure {
        table: "submissions",
        lead_key: None,
        deleted_rows: None,
        sqlite_only: false,
        columns: &[
            ("id", Fate::Deleted),
            ("kind", Fate::Deleted),
            ("received_at_ms", Fate::Deleted),
            ("dedupe_key", Fate::Deleted),
            ("email", Fate::Deleted),
            ("phone", Fate::Deleted),
            ("data", Fate::Deleted),
            ("ip", Fate::Deleted),
            ("user_agent", Fate::Deleted),
            ("page_url", Fate::Deleted),
            ("status", Fate::Deleted),
            ("note", Fate::Deleted),
        ],
    },
    TableErasure {
        table: "mail_outbox",
        lead_key: None,
        deleted_rows: None,
        sqlite_only: false,
        columns: &[
            ("id", Fate::Deleted),
            ("submission_id", Fate::Deleted),
            ("subject", Fate::Deleted),
            ("body", Fate::Deleted),
            ("status", Fate::Deleted),
            ("attempts", Fate::Deleted),
            ("next_attempt_ms", Fate::Deleted),
            ("locked_until_ms", Fate::Deleted),
            ("last_error", Fate::Deleted),
            ("created_ms", Fate::Deleted),
            ("delivered_ms", Fate::Deleted),
            ("retry_from_ms", Fate::Deleted),
            ("claim_token", Fate::Deleted),
        ],
    },
    TableErasure {
        table: "suppressions",
        lead_key: None,
        deleted_rows: None,
        sqlite_only: false,
        columns: &[
            (
                "phone_e164",
                Fate::Kept("the do-not-call request itself: erasing it would let the number be called again"),
            ),
            (
                "reason",
                Fate::Kept("why staff listed the number (their words, about the request, not the person)"),
            ),
            ("added_ms", BOOKKEEPING_FATE),
            ("staff_id", STAFF),
        ],
    },
    TableErasure {
        table: "staff",
        lead_key: None,
        deleted_rows: None,
        sqlite_only: false,
        columns: &[
            ("id", STAFF),
            ("email", STAFF),
            ("password_hash", STAFF),
            ("active", STAFF),
            ("created_ms", STAFF),
            ("disabled_ms", STAFF),
        ],
    },
    TableErasure {
        table: "staff_sessions",
        lead_key: None,
        deleted_rows: None,
        sqlite_only: false,
        columns: &[
            ("id_hash", STAFF),
            ("staff_id", STAFF),
            ("created_ms", STAFF),
            ("last_seen_ms", STAFF),
            ("ip", STAFF),
            ("user_agent", STAFF),
        ],
    },
    TableErasure {
        table: "staff_audit",
        lead_key: None,
        deleted_rows: None,
        sqlite_only: false,
        columns: &[
            ("id", BOOKKEEPING_FATE),
            ("at_ms", BOOKKEEPING_FATE),
            ("staff_id", STAFF),
            ("action", BOOKKEEPING_FATE),
            (
                "target",
                Fate::Kept("what staff did, kept as long as the records: record ids and masked numbers, never a name"),
            ),
            ("ip", STAFF),
            (
                "detail",
                Fate::Kept("what staff did: a filter, a status, a reason for the do-not-call list"),
            ),
        ],
    },
    TableErasure {
        table: "campaigns",
        lead_key: None,
        deleted_rows: None,
        sqlite_only: false,
        columns: &[
            ("id", BOOKKEEPING_FATE),
            ("name", CAMPAIGN),
            ("status", CAMPAIGN),
            ("payouts", CAMPAIGN),
            ("payment_terms", CAMPAIGN),
            ("geos", CAMPAIGN),
            ("promo_allowed", CAMPAIGN),
            ("cap", CAMPAIGN),
            ("inbound", CAMPAIGN),
            ("transfer", CAMPAIGN),
            ("seconds", CAMPAIGN),
            ("hours", CAMPAIGN),
            ("notes", CAMPAIGN),
            ("place", BOOKKEEPING_FATE),
            ("created_ms", BOOKKEEPING_FATE),
            ("created_by", STAFF),
            ("changed_ms", BOOKKEEPING_FATE),
            ("changed_by", STAFF),
        ],
    },
    TableErasure {
        table: "campaign_changes",
        lead_key: None,
        deleted_rows: None,
        sqlite_only: false,
        columns: &[
            ("id", BOOKKEEPING_FATE),
            ("campaign_id", BOOKKEEPING_FATE),
            ("at_ms", BOOKKEEPING_FATE),
            ("staff_id", STAFF),
            ("field", BOOKKEEPING_FATE),
            ("old_value", CAMPAIGN),
            ("new_value", CAMPAIGN),
        ],
    },
    TableErasure {
        table: "lead_days",
        lead_key: None,
        deleted_rows: None,
        sqlite_only: false,
        columns: &[
            ("id", BOOKKEEPING_FATE),
            ("day", BOOKKEEPING_FATE),
            ("kind", BOOKKEEPING_FATE),
            (
                "key",
                Fate::Kept(
                    "a service or a traffic source (UTM source or referring site) counted over a day's leads; an erased \
                     lead moves to the funnel's own source 'erased', and a source row it leaves empty is deleted (the \
                     same key on both databases, and counted anew by copy-store, docs/decisions/012)",
                ),
            ),
            ("leads", BOOKKEEPING_FATE),
            ("delivered", BOOKKEEPING_FATE),
            ("fast", BOOKKEEPING_FATE),
            ("suppressed", BOOKKEEPING_FATE),
            ("erased", BOOKKEEPING_FATE),
        ],
    },
    TableErasure {
        table: "funnel_recount",
        lead_key: None,
        deleted_rows: None,
        sqlite_only: false,
        columns: &[
            ("id", BOOKKEEPING_FATE),
            (
                "reason",
                Fate::Kept("why the funnel is being counted anew: a migration or a time zone, not about a person"),
            ),
            ("asked_ms", BOOKKEEPING_FATE),
            ("token", BOOKKEEPING_FATE),
        ],
    },
    TableErasure {
        table: "business_zone",
        lead_key: None,
        deleted_rows: None,
        sqlite_only: false,
        columns: &[
            ("from_ms", BOOKKEEPING_FATE),
            ("offset_ms", BOOKKEEPING_FATE),
            ("zone", Fate::Kept("the business's own time zone, not about a person")),
        ],
    },
    TableErasure {
        table: "job_leader",
        lead_key: None,
        deleted_rows: None,
        sqlite_only: false,
        columns: &[
            ("name", BOOKKEEPING_FATE),
            (
                "holder",
                Fate::Kept("which server runs the scheduled jobs (host and process), not about a person"),
            ),
            ("elected_ms", BOOKKEEPING_FATE),
            ("expires_ms", BOOKKEEPING_FATE),
        ],
    },
    TableErasure {
        table: "rate_windows",
        lead_key: None,
        deleted_rows: None,
        sqlite_only: false,
        columns: &[("key", LIMIT_KEY), ("window_end_ms", BOOKKEEPING_FATE), ("hits", BOOKKEEPING_FATE)],
    },
    TableErasure {
        table: "login_attempts",
        lead_key: None,
        deleted_rows: None,
        sqlite_only: false,
        columns: &[
            ("id", BOOKKEEPING_FATE),
            ("account", LIMIT_KEY),
            ("client", LIMIT_KEY),
            ("at_ms", BOOKKEEPING_FATE),
            ("expires_ms", BOOKKEEPING_FATE),
            ("failed", BOOKKEEPING_FATE),
            ("forgiven", BOOKKEEPING_FATE),
        ],
    },
    TableErasure {
        table: "schema_migrations",
        lead_key: None,
        deleted_rows: None,
        sqlite_only: false,
        columns: &[
            ("version", BOOKKEEPING_FATE),
            ("applied_ms", BOOKKEEPING_FATE),
            ("name", BOOKKEEPING_FATE),
            ("checksum", BOOKKEEPING_FATE),
            ("applied_by", BOOKKEEPING_FATE),
            ("compatible_back_to", BOOKKEEPING_FATE),
        ],
    },
    TableErasure {
        table: "asset_releases",
        lead_key: None,
        deleted_rows: None,
        sqlite_only: false,
        columns: &[
            ("release", BOOKKEEPING_FATE),
            ("version", BOOKKEEPING_FATE),
            ("first_ms", BOOKKEEPING_FATE),
            ("started_ms", BOOKKEEPING_FATE),
        ],
    },
    TableErasure {
        table: "assets",
        lead_key: None,
        deleted_rows: None,
        sqlite_only: false,
        columns: &[
            ("release", BOOKKEEPING_FATE),
            ("path", BOOKKEEPING_FATE),
            ("content_type", BOOKKEEPING_FATE),
            ("body", ASSET),
            ("gzip", ASSET),
        ],
    },
];

/// The tables whose rows name an erased lead, other than `leads` itself, with the column
/// that names it.
pub(super) fn lead_tables() -> impl Iterator<Item = (&'static TableErasure, &'static str)> {
    ERASURE
        .iter()
        .filter(|t| t.table != "leads")
        .filter_map(|t| t.lead_key.map(|key| (t, key)))
}
