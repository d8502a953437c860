//! Data requests: every record of a person, found by phone number (E.164) or e-mail, and
//! their deletion on request. A lead is erased down to its consent record (the wording's
//! hash, certificate, time, IP and the number consented for), which the law requires us to
//! keep; its name and everything else are cleared and `erased_ms` set, and its pending
//! deliveries are dropped. Account requests and applications are deleted (their e-mails go
//! with them). Each erased or deleted record gets its own audit line, in the same statement.

use super::{NewAudit, Store, StoreError, SubmissionRecord};

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

/// The lead columns a data request clears (everything but the consent record).
pub(super) const ERASE_SET: &str = "full_name = '', zip_code = NULL, user_agent = NULL, page_url = NULL, referrer = NULL, \
     utm_source = NULL, utm_medium = NULL, utm_campaign = NULL, utm_term = NULL, utm_content = NULL, \
     delivery_status = CASE WHEN delivery_status = 'pending' THEN 'none' ELSE delivery_status END";

impl Store {
    pub async fn person_records(&self, person: &Person) -> Result<PersonRecords, StoreError> {
        match self {
            Store::Sqlite(s) => s.person_records(person).await,
            Store::Postgres(s) => s.person_records(person).await,
        }
    }

    /// Erases the person's leads and deletes their submissions; `audit` is the line each
    /// record gets (its action and target are set per record).
    pub async fn erase_person(&self, person: &Person, audit: NewAudit, now_ms: i64) -> Result<Erased, StoreError> {
        match self {
            Store::Sqlite(s) => s.erase_person(person, audit, now_ms).await,
            Store::Postgres(s) => s.erase_person(person, audit, now_ms).await,
        }
    }
}
