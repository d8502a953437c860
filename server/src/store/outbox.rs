//! The outboxes: lead notifications (`outbox`) and e-mails about submissions
//! (`mail_outbox`), the items the worker leases from them and what operators and /metrics
//! read of them. Both backends share these types, each outbox's statements (`Outbox::sql`,
//! in `sql/shared.rs`) and the condition under which a notification may be sent.
//!
//! Several servers may deliver from one database (docs/decisions/019): a lease is set and
//! judged by the database's clock, each claim gives the row a new token (its claim
//! counter, `claim_token`), and an outcome is recorded only while the row still holds the
//! token of the claim that sent it.

use super::sql::{OUTBOX_LEADS, OUTBOX_MAIL, OutboxSql};
use super::{Channel, LeadRecord, Mail};

/// A notification that is due, leased to this worker for a while (from either outbox).
#[derive(Debug, Clone)]
pub struct OutboxItem {
    /// Its row's id in its outbox.
    pub id: i64,
    /// The token of this claim: its outcome is recorded only while the row still holds it
    /// (no other claim came after this one's lease ran out).
    pub claim: i64,
    pub attempts: u32,
    /// When the current delivery effort began (creation, or the last `site outbox retry`).
    pub since_ms: i64,
    /// What to send.
    pub notice: Notice,
}

/// What an outbox item sends: everything its delivery needs.
#[derive(Debug, Clone)]
pub enum Notice {
    /// A lead, to the people who call it back, on one channel (`outbox`).
    Lead { channel: Channel, lead: Box<LeadRecord> },
    /// An e-mail about an account request or a campaign application, to the notification
    /// recipients (`mail_outbox`).
    Mail { submission_id: String, mail: Mail },
}

impl OutboxItem {
    /// The outbox it came from.
    pub fn outbox(&self) -> Outbox {
        match self.notice {
            Notice::Lead { .. } => Outbox::Leads,
            Notice::Mail { .. } => Outbox::Mail,
        }
    }

    /// The lead, when it is a lead's notification.
    pub fn lead(&self) -> Option<&LeadRecord> {
        match &self.notice {
            Notice::Lead { lead, .. } => Some(lead),
            Notice::Mail { .. } => None,
        }
    }

    /// The channel, when it is a lead's notification.
    pub fn channel(&self) -> Option<Channel> {
        match self.notice {
            Notice::Lead { channel, .. } => Some(channel),
            Notice::Mail { .. } => None,
        }
    }
}

/// What a delivery attempt came to, as its outbox records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Attempt {
    Delivered {
        at_ms: i64,
    },
    /// Failed; tried again from `next_ms`.
    Retry {
        next_ms: i64,
        error: String,
    },
    /// Failed for good (`site outbox retry` sends it again).
    Failed {
        error: String,
    },
}

impl Attempt {
    /// The row's status after it.
    pub(super) fn status(&self) -> &'static str {
        match self {
            Attempt::Delivered { .. } => "delivered",
            Attempt::Retry { .. } => "pending",
            Attempt::Failed { .. } => "failed",
        }
    }

    pub(super) fn delivered_ms(&self) -> Option<i64> {
        match self {
            Attempt::Delivered { at_ms } => Some(*at_ms),
            _ => None,
        }
    }

    /// When it is due again (0, and unused, unless it is retried).
    pub(super) fn next_ms(&self) -> i64 {
        match self {
            Attempt::Retry { next_ms, .. } => *next_ms,
            _ => 0,
        }
    }

    pub(super) fn error(&self) -> Option<String> {
        match self {
            Attempt::Retry { error, .. } | Attempt::Failed { error } => Some(error.clone()),
            Attempt::Delivered { .. } => None,
        }
    }
}

/// The undelivered part of an outbox, for /metrics: read from the rows that are not
/// delivered only (an index range), never by counting the whole table.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OutboxSummary {
    pub pending: i64,
    pub failed: i64,
    /// Creation time of the oldest notification not yet delivered (pending or failed).
    pub oldest_undelivered_ms: Option<i64>,
}

impl OutboxSummary {
    /// Records one row of `SELECT status, COUNT(*), MIN(created_ms) … GROUP BY status`.
    pub(super) fn add(&mut self, status: &str, n: i64, oldest: Option<i64>) {
        match status {
            "pending" => self.pending = n,
            "failed" => self.failed = n,
            _ => return,
        }
        self.oldest_undelivered_ms = match (self.oldest_undelivered_ms, oldest) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
    }
}

/// Delivery attempts of lead notifications in a period, for one channel and outcome
/// ("delivered", "retry", "failed").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeliveryCount {
    pub channel: String,
    pub outcome: String,
    pub count: i64,
}

/// The outboxes the worker delivers from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outbox {
    /// Lead notifications (`outbox`: e-mail and webhook).
    Leads,
    /// E-mails about account requests and campaign applications (`mail_outbox`).
    Mail,
}

impl Outbox {
    pub const ALL: [Outbox; 2] = [Outbox::Leads, Outbox::Mail];

    /// Its name in /metrics and in `site outbox retry`.
    pub fn name(self) -> &'static str {
        match self {
            Outbox::Leads => "leads",
            Outbox::Mail => "mail",
        }
    }

    /// Its statements both backends run (`sql/shared.rs`).
    pub(super) fn sql(self) -> &'static OutboxSql {
        match self {
            Outbox::Leads => &OUTBOX_LEADS,
            Outbox::Mail => &OUTBOX_MAIL,
        }
    }

    /// The condition (on a row of its table, named by the table) under which a notification
    /// may be sent: its lead is neither erased nor a number on the do-not-call list. A
    /// submission's e-mails are deleted with it, so any row left may go.
    pub(super) fn sendable(self) -> &'static str {
        match self {
            Outbox::Leads => {
                "EXISTS (SELECT 1 FROM leads l WHERE l.id = outbox.lead_id AND l.erased_ms IS NULL \
                 AND NOT EXISTS (SELECT 1 FROM suppressions s WHERE s.phone_e164 = l.phone_e164))"
            }
            Outbox::Mail => "TRUE",
        }
    }
}

/// One outbox row as operators see it (`site outbox retry` lists the failed ones).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutboxRow {
    pub id: i64,
    /// The lead (or, in the mail outbox, the submission) it is about.
    pub record_id: String,
    pub channel: String,
    pub status: String,
    pub attempts: i64,
    pub created_ms: i64,
    pub last_error: Option<String>,
    /// The token of its latest claim (0: never claimed).
    pub claim: i64,
}

/// Which failed notifications `Outboxes::retry_failed` sends again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RetryScope {
    All,
    One(i64),
}

/// What `Outboxes::retry_failed` did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Retried {
    /// Made pending again, due now.
    pub sent: u64,
    /// Not sent: the number is on the do-not-call list now, so they are marked suppressed.
    pub suppressed: u64,
}

/// Counts of an outbox's rows by status.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OutboxCounts {
    pub pending: i64,
    pub delivered: i64,
    pub failed: i64,
}

impl OutboxCounts {
    /// Records the count of one status row of `SELECT status, COUNT(*) … GROUP BY status`.
    pub(super) fn set(&mut self, status: &str, n: i64) {
        match status {
            "pending" => self.pending = n,
            "delivered" => self.delivered = n,
            "failed" => self.failed = n,
            _ => {}
        }
    }
}
