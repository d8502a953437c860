//! A lead's fields, declared once: each column of `leads` that a callback request fills,
//! with its SQL type, how it is read from a [`NewLead`] and into a [`LeadRecord`], what a
//! data request does to it, and where staff see it. From [`LEAD_FIELDS`] come the column
//! lists (`lead_columns` and `lead_row_columns` in `sql/built.rs`), both stores' inserts
//! (`sqlite_insert_lead`, `postgres_insert_leads`, there too) and row readers
//! ([`record_from`]; `LeadRow::field`), the seed's columns (`seed` in `sql/built.rs`), the
//! `leads` entry of `ERASURE` (`store/erasure.rs`), the export's columns
//! (`admin/export.rs`), the further lines of the lead e-mail (`notify/email.rs`) and of the
//! console's lead page (`admin/leads.rs`), and the webhook's further keys
//! (`notify/webhook.rs`) (docs/decisions/031-lead-fields-declared-once.md).
//!
//! The other columns of `leads` are the store's own ([`BOOKKEEPING`]). Adding a field is the
//! recipe "Add a field to a lead" in docs/architecture.md.

use super::leads::LeadRecord;
use crate::leads::NewLead;

/// What a data request does to a field (`store/erasure.rs` makes its `Fate` of it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Erase {
    /// Set to NULL.
    Cleared,
    /// Set to '' (the column cannot be NULL).
    Emptied,
    /// Kept, and why.
    Kept(&'static str),
}

/// How a place staff read (the console's lead page, the lead e-mail) shows a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Show {
    /// Not at all.
    No,
    /// Laid out by the place's own code (its phone link, its fallback words).
    Own,
    /// As a line "label: value" of the place's further fields, in this table's order, when it
    /// has a value: a new field needs nothing else to be seen there.
    Line,
}

/// One field of a lead.
#[derive(Debug, Clone, Copy)]
pub struct LeadField {
    /// Its column in `leads`, in both migrations.
    pub column: &'static str,
    /// Its type in both migrations' `leads` (`TEXT` or `TEXT NOT NULL`; the test
    /// `store::lead_fields` reads both schemas).
    pub sql_type: &'static str,
    /// Whether the request's body carries it, and under which key.
    pub sent: Sent,
    /// Its value in a new lead (None stores NULL).
    pub new: fn(&NewLead) -> Option<&str>,
    /// Its value in a stored lead.
    pub get: fn(&LeadRecord) -> Option<&str>,
    /// Puts the stored value into a lead read back (a NOT NULL column always has one).
    pub set: fn(&mut LeadRecord, Option<String>),
    /// What a data request does to it.
    pub erase: Erase,
    /// Its name where staff see it (the console, the e-mail, the export's header).
    pub label: &'static str,
    /// On the console's lead page.
    pub console: Show,
    /// In the lead e-mail.
    pub email: Show,
    /// A column of the CSV export (`/admin/leads.csv`), with its raw value; the leads list
    /// reads these columns too.
    pub export: bool,
    /// Its key in the webhook's JSON: `Own` for the keys `notify/webhook.rs` lays out, a key of
    /// its own (`Key`) added at the top level, or `No`.
    pub webhook: Webhook,
}

/// Whether a callback request's body carries a field (its key in `openapi.yaml` and in the
/// body `client/features/callback/CallbackForm.tsx` sends).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sent {
    /// The server makes it (a digest, a header, the page's URL).
    No,
    /// The page's script sends it (the certificate, the page's URL).
    Script(&'static str),
    /// The visitor types or chooses it (or the form carries it, the service): a refused post
    /// without JavaScript shows it again (`KEPT` in `api/submit_lead.rs`).
    Typed(&'static str),
}

impl Sent {
    pub const fn key(self) -> Option<&'static str> {
        match self {
            Sent::No => None,
            Sent::Script(key) | Sent::Typed(key) => Some(key),
        }
    }
}

/// How many fields the visitor types ([`Sent::Typed`]).
pub const TYPED: usize = {
    let (mut i, mut n) = (0, 0);
    while i < LEAD_FIELDS.len() {
        if matches!(LEAD_FIELDS[i].sent, Sent::Typed(_)) {
            n += 1;
        }
        i += 1;
    }
    n
};

/// Where the webhook's JSON carries a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Webhook {
    No,
    Own,
    Key(&'static str),
}

const CONSENT_RECORD: &str = "the consent record, which the law requires us to keep";
const CERTIFICATE: &str = "the consent record: its certificate";

/// The columns of `leads` that are the store's own, not a field of the request: what
/// `store/erasure.rs` does to each (its reason), in the order the migrations made them.
pub const BOOKKEEPING: [(&str, Option<&str>); 5] = [
    ("id", None),
    ("received_at_ms", Some(CONSENT_RECORD)),
    ("consent", Some(CONSENT_RECORD)),
    ("delivery_status", None),
    ("erased_ms", Some("when the data request erased it")),
];

/// Every field of a lead, in the order the store reads them.
pub const LEAD_FIELDS: [LeadField; 18] = [
    LeadField {
        column: "service_slug",
        sql_type: "TEXT NOT NULL",
        sent: Sent::Typed("serviceSlug"),
        new: |l| Some(&l.service_slug),
        get: |r| Some(&r.service_slug),
        set: |r, v| r.service_slug = v.unwrap_or_default(),
        erase: Erase::Kept("the consent record: what the consent was given for"),
        label: "Service",
        console: Show::Own,
        email: Show::Own,
        export: true,
        webhook: Webhook::Own,
    },
    LeadField {
        column: "full_name",
        sql_type: "TEXT NOT NULL",
        sent: Sent::Typed("fullName"),
        new: |l| Some(&l.full_name),
        get: |r| Some(&r.full_name),
        set: |r, v| r.full_name = v.unwrap_or_default(),
        erase: Erase::Emptied,
        label: "Name",
        console: Show::Own,
        email: Show::Own,
        export: true,
        webhook: Webhook::Own,
    },
    LeadField {
        column: "phone_e164",
        sql_type: "TEXT NOT NULL",
        sent: Sent::Typed("phone"),
        new: |l| Some(&l.phone),
        get: |r| Some(&r.phone),
        set: |r, v| r.phone = v.unwrap_or_default(),
        erase: Erase::Kept("the consent record: the number consented for"),
        label: "Phone",
        console: Show::Own,
        email: Show::Own,
        export: true,
        webhook: Webhook::Own,
    },
    LeadField {
        column: "zip_code",
        sql_type: "TEXT",
        sent: Sent::Typed("zipCode"),
        new: |l| l.zip_code.as_deref(),
        get: |r| r.zip_code.as_deref(),
        set: |r, v| r.zip_code = v,
        erase: Erase::Cleared,
        label: "ZIP",
        console: Show::Own,
        email: Show::Own,
        export: true,
        webhook: Webhook::Own,
    },
    LeadField {
        column: "consent_sha256",
        sql_type: "TEXT NOT NULL",
        sent: Sent::No,
        new: |l| Some(&l.consent_sha256),
        get: |r| Some(&r.consent_sha256),
        set: |r, v| r.consent_sha256 = v.unwrap_or_default(),
        erase: Erase::Kept(CONSENT_RECORD),
        label: "Consent wording SHA-256",
        console: Show::Own,
        email: Show::No,
        export: false,
        webhook: Webhook::Own,
    },
    LeadField {
        column: "cert_url",
        sql_type: "TEXT",
        sent: Sent::Script("trustedform_cert_url"),
        new: |l| l.certificate.cert_url.as_deref(),
        get: |r| r.cert_url.as_deref(),
        set: |r, v| r.cert_url = v,
        erase: Erase::Kept(CERTIFICATE),
        label: "Consent certificate",
        console: Show::Own,
        email: Show::Own,
        export: false,
        webhook: Webhook::Own,
    },
    LeadField {
        column: "cert_token",
        sql_type: "TEXT",
        sent: Sent::Script("trustedform_token"),
        new: |l| l.certificate.token.as_deref(),
        get: |r| r.cert_token.as_deref(),
        set: |r, v| r.cert_token = v,
        erase: Erase::Kept(CERTIFICATE),
        label: "Certificate token",
        console: Show::Own,
        email: Show::No,
        export: false,
        webhook: Webhook::Own,
    },
    LeadField {
        column: "cert_ping_url",
        sql_type: "TEXT",
        sent: Sent::Script("trustedform_ping"),
        new: |l| l.certificate.ping_url.as_deref(),
        get: |r| r.cert_ping_url.as_deref(),
        set: |r, v| r.cert_ping_url = v,
        erase: Erase::Kept(CERTIFICATE),
        label: "Certificate ping URL",
        console: Show::Own,
        email: Show::No,
        export: false,
        webhook: Webhook::Own,
    },
    LeadField {
        column: "ip",
        sql_type: "TEXT",
        sent: Sent::No,
        new: |l| l.context.ip.as_deref(),
        get: |r| r.ip.as_deref(),
        set: |r, v| r.ip = v,
        erase: Erase::Kept("the consent record: the address consent was given from"),
        label: "IP address",
        console: Show::Own,
        email: Show::No,
        export: false,
        webhook: Webhook::Own,
    },
    LeadField {
        column: "user_agent",
        sql_type: "TEXT",
        sent: Sent::No,
        new: |l| l.context.user_agent.as_deref(),
        get: |r| r.user_agent.as_deref(),
        set: |r, v| r.user_agent = v,
        erase: Erase::Cleared,
        label: "Browser",
        console: Show::Own,
        email: Show::No,
        export: false,
        webhook: Webhook::Own,
    },
    LeadField {
        column: "page_url",
        sql_type: "TEXT",
        sent: Sent::Script("pageUrl"),
        new: |l| l.context.page_url.as_deref(),
        get: |r| r.page_url.as_deref(),
        set: |r, v| r.page_url = v,
        erase: Erase::Cleared,
        label: "Page",
        console: Show::Own,
        email: Show::No,
        export: false,
        webhook: Webhook::Own,
    },
    LeadField {
        column: "referrer",
        sql_type: "TEXT",
        sent: Sent::Script("referrer"),
        new: |l| l.context.referrer.as_deref(),
        get: |r| r.referrer.as_deref(),
        set: |r, v| r.referrer = v,
        erase: Erase::Cleared,
        label: "Referrer",
        console: Show::Own,
        email: Show::No,
        export: false,
        webhook: Webhook::Own,
    },
    LeadField {
        column: "utm_source",
        sql_type: "TEXT",
        sent: Sent::No,
        new: |l| l.context.utm.source.as_deref(),
        get: |r| r.utm_source.as_deref(),
        set: |r, v| r.utm_source = v,
        erase: Erase::Cleared,
        label: "utm_source",
        console: Show::Own,
        email: Show::No,
        export: false,
        webhook: Webhook::Own,
    },
    LeadField {
        column: "utm_medium",
        sql_type: "TEXT",
        sent: Sent::No,
        new: |l| l.context.utm.medium.as_deref(),
        get: |r| r.utm_medium.as_deref(),
        set: |r, v| r.utm_medium = v,
        erase: Erase::Cleared,
        label: "utm_medium",
        console: Show::Own,
        email: Show::No,
        export: false,
        webhook: Webhook::Own,
    },
    LeadField {
        column: "utm_campaign",
        sql_type: "TEXT",
        sent: Sent::No,
        new: |l| l.context.utm.campaign.as_deref(),
        get: |r| r.utm_campaign.as_deref(),
        set: |r, v| r.utm_campaign = v,
        erase: Erase::Cleared,
        label: "utm_campaign",
        console: Show::Own,
        email: Show::No,
        export: false,
        webhook: Webhook::Own,
    },
    LeadField {
        column: "utm_term",
        sql_type: "TEXT",
        sent: Sent::No,
        new: |l| l.context.utm.term.as_deref(),
        get: |r| r.utm_term.as_deref(),
        set: |r, v| r.utm_term = v,
        erase: Erase::Cleared,
        label: "utm_term",
        console: Show::Own,
        email: Show::No,
        export: false,
        webhook: Webhook::Own,
    },
    LeadField {
        column: "utm_content",
        sql_type: "TEXT",
        sent: Sent::No,
        new: |l| l.context.utm.content.as_deref(),
        get: |r| r.utm_content.as_deref(),
        set: |r, v| r.utm_content = v,
        erase: Erase::Cleared,
        label: "utm_content",
        console: Show::Own,
        email: Show::No,
        export: false,
        webhook: Webhook::Own,
    },
    LeadField {
        column: "seen_referer",
        sql_type: "TEXT",
        sent: Sent::No,
        new: |l| l.context.seen_referer.as_deref(),
        get: |r| r.seen_referer.as_deref(),
        set: |r, v| r.seen_referer = v,
        erase: Erase::Cleared,
        label: "Referer header",
        console: Show::No,
        email: Show::No,
        export: false,
        webhook: Webhook::No,
    },
];

/// The columns a stored lead is read from before its fields: `l.id, l.received_at_ms,
/// l.consent, c.text` (`leads l` joined with `consent_texts c`).
pub const RECORD_HEAD: [&str; 4] = ["l.id", "l.received_at_ms", "l.consent", "c.text"];

/// How many columns a stored lead is read from ([`record_from`]).
pub const RECORD_COLUMNS: usize = RECORD_HEAD.len() + LEAD_FIELDS.len();

/// A stored lead from its columns as `sql::lead_columns` lists them: the head, then
/// each field's value.
pub fn record_from(id: String, received_at_ms: i64, consent: bool, consent_text: String, fields: Vec<Option<String>>) -> LeadRecord {
    let mut record = LeadRecord {
        id,
        received_at_ms,
        consent,
        consent_text,
        ..LeadRecord::default()
    };
    for (field, value) in LEAD_FIELDS.iter().zip(fields) {
        (field.set)(&mut record, value);
    }
    record
}

/// The columns of the leads list and the export before their fields (`l.id,
/// l.received_at_ms, l.delivery_status`).
pub const ROW_HEAD: [&str; 3] = ["l.id", "l.received_at_ms", "l.delivery_status"];

/// The fields the leads list and the export read, in order.
pub fn exported() -> impl Iterator<Item = &'static LeadField> {
    LEAD_FIELDS.iter().filter(|f| f.export)
}

/// The fields a place shows as further lines ([`Show::Line`]), with their label and value,
/// those with a value only (not NULL, not emptied by an erasure).
pub fn lines(record: &LeadRecord, place: fn(&LeadField) -> Show) -> Vec<(&'static str, &str)> {
    LEAD_FIELDS
        .iter()
        .filter(|f| place(f) == Show::Line)
        .filter_map(|f| (f.get)(record).filter(|v| !v.is_empty()).map(|v| (f.label, v)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The recipe's pointers: a field is named once, and each place that shows it says so.
    #[test]
    fn every_field_is_declared_once_with_a_label() {
        let mut seen = std::collections::BTreeSet::new();
        for f in &LEAD_FIELDS {
            assert!(
                seen.insert(f.column),
                "{}: declared twice in LEAD_FIELDS (server/src/store/lead_fields.rs)",
                f.column
            );
            assert!(
                BOOKKEEPING.iter().all(|(c, _)| *c != f.column),
                "{}: both a field and bookkeeping",
                f.column
            );
            assert!(!f.label.is_empty(), "{}: no label", f.column);
            assert!(
                matches!(f.sql_type, "TEXT" | "TEXT NOT NULL"),
                "{}: the store reads and writes fields as text; {} needs its own reading",
                f.column,
                f.sql_type
            );
            if f.sql_type == "TEXT" {
                assert!(
                    f.erase != Erase::Emptied,
                    "{}: a NULL-able column is cleared to NULL (Erase::Cleared), not emptied",
                    f.column
                );
            }
        }
    }

    /// A field's `new`, `set` and `get` name the same value: what a new lead holds comes
    /// back from a stored one.
    #[test]
    fn every_field_comes_back_as_it_was_stored() {
        let mut record = LeadRecord::default();
        for (n, f) in LEAD_FIELDS.iter().enumerate() {
            (f.set)(&mut record, Some(format!("value {n}")));
        }
        for (n, f) in LEAD_FIELDS.iter().enumerate() {
            assert_eq!(
                (f.get)(&record),
                Some(format!("value {n}").as_str()),
                "{}: its `set` and `get` in LEAD_FIELDS (server/src/store/lead_fields.rs) name different members of LeadRecord",
                f.column
            );
        }
    }

    #[test]
    fn a_place_shows_its_lines_in_order_and_only_with_a_value() {
        let record = LeadRecord {
            zip_code: Some("15213".into()),
            full_name: "Dana".into(),
            ..LeadRecord::default()
        };
        let place = |f: &LeadField| match f.column {
            "zip_code" | "full_name" | "referrer" => Show::Line,
            _ => Show::No,
        };
        assert_eq!(lines(&record, place), [("Name", "Dana"), ("ZIP", "15213")]);
        let erased = LeadRecord::default();
        assert!(lines(&erased, place).is_empty(), "an emptied name is no line");
    }

    /// A field the visitor sends is in the API's description and in the body the page's
    /// script sends.
    #[test]
    fn every_field_the_visitor_sends_is_in_the_api_description_and_the_client() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let read = |path: &str| std::fs::read_to_string(root.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
        let openapi = read("openapi.yaml");
        let schema = openapi
            .split("    LeadRequest:")
            .nth(1)
            .and_then(|rest| rest.split("\n    LeadAccepted:").next())
            .unwrap_or_default();
        let client = read("client/features/callback/CallbackForm.tsx");
        let emptied = client.lines().find(|l| l.contains("for (const name of [")).unwrap_or_default();
        for f in &LEAD_FIELDS {
            let Some(key) = f.sent.key() else { continue };
            assert!(
                schema.contains(&format!("        {key}:")),
                "{}: its key {key:?} is not in openapi.yaml (the LeadRequest schema)",
                f.column
            );
            assert!(
                client.contains(&format!("{key}:")) || client.contains(&format!("{key},")),
                "{}: its key {key:?} is not in the body client/features/callback/CallbackForm.tsx sends",
                f.column
            );
            if let Sent::Typed(key) = f.sent {
                assert!(
                    client.contains(&format!("name=\"{key}\"")),
                    "{}: client/features/callback/CallbackForm.tsx has no input name=\"{key}\" (the form posted without JavaScript)",
                    f.column
                );
                // The service is a hidden input, kept; what the visitor typed is emptied.
                assert!(
                    key == "serviceSlug" || emptied.contains(&format!("\"{key}\"")),
                    "{}: {key:?} is not in the list of fields client/features/callback/CallbackForm.tsx empties once a \
                     request is accepted (`for (const name of [...])`)",
                    f.column
                );
            }
        }
    }
}
