//! Synthetic leads for the benchmarks and the tests (`site seed`, `Seed::seed_leads`): many
//! leads written straight into the tables in a few set-based statements, the same on both
//! databases. The rows go through the tables' own triggers (the name index, the funnel's daily
//! counts, the leads' delivery status), so they look to the console as leads the intake took.
//! This is the one place that writes such rows: a migration that changes the tables changes
//! this file, and the benches and the tests follow.

use super::console::Dialect;

/// The consent wording every seeded lead agreed to, and its hash (a fixed value, not the
/// wording's real SHA-256: nothing checks it, and it tells seeded leads apart).
pub const SEED_CONSENT_TEXT: &str = "I agree.";
pub const SEED_CONSENT_SHA256: &str = "5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed";

/// The most leads one plan may add: each lead's phone is +1412 and seven digits from 2000000.
pub const SEED_MAX_LEADS: i64 = 7_999_999;

/// First names, then last names: lead `i` is `FIRST[i % 20]` and `LAST[(i / 20) % 50]`, so a
/// first name matches one lead in 20 and a last name one in 50.
pub const SEED_FIRST_NAMES: [&str; 20] = [
    "Maria", "James", "Ana", "Robert", "Linda", "Michael", "Sofia", "David", "Emily", "Daniel", "Grace", "Luis", "Olivia", "Noah", "Chloe",
    "Ethan", "Mia", "Lucas", "Zoe", "Henry",
];
pub const SEED_LAST_NAMES: [&str; 50] = [
    "Garcia",
    "Smith",
    "Johnson",
    "Brown",
    "Jones",
    "Miller",
    "Davis",
    "Rodriguez",
    "Martinez",
    "Wilson",
    "Anderson",
    "Taylor",
    "Thomas",
    "Moore",
    "Jackson",
    "Martin",
    "Lee",
    "Thompson",
    "White",
    "Harris",
    "Clark",
    "Lewis",
    "Robinson",
    "Walker",
    "Young",
    "Allen",
    "King",
    "Wright",
    "Scott",
    "Torres",
    "Nguyen",
    "Hill",
    "Flores",
    "Green",
    "Adams",
    "Nelson",
    "Baker",
    "Hall",
    "Rivera",
    "Campbell",
    "Mitchell",
    "Carter",
    "Roberts",
    "Gomez",
    "Phillips",
    "Evans",
    "Turner",
    "Diaz",
    "Parker",
    "Cruz",
];

/// Every this many leads, one is on the do-not-call list (`suppressed`).
pub const SEED_SUPPRESSED_EVERY: i64 = 1009;
/// With notifications: every this many leads, one whose e-mail was given up (`failed`)…
pub const SEED_FAILED_EVERY: i64 = 997;
/// …and one whose e-mail is still to be sent (`pending`).
pub const SEED_PENDING_EVERY: i64 = 499;

/// What [`Seed::seed_leads`](super::backend::Seed::seed_leads) adds.
///
/// Lead `i` (from 0) has the id `<id_prefix>-<i, 8 digits>`, arrived `newest_ms - i *
/// spacing_ms` (lead 0 is the newest), asks about `services[i % n]`, is named as
/// [`SEED_FIRST_NAMES`] and [`SEED_LAST_NAMES`] say, has the phone `+1412` followed by
/// `2000000 + i`, the ZIP code 15213, and came from Google (every third lead), Facebook
/// (every seventh of the rest), one of 40 newsletters (every eleventh of the rest) or nowhere
/// known. Every [`SEED_SUPPRESSED_EVERY`]th lead is suppressed. With `notifications`, every
/// other lead gets an e-mail notification, delivered 1-21 s after it arrived (every tenth,
/// 1-11 min) with its delivery attempt, except every [`SEED_FAILED_EVERY`]th (failed, an
/// attempt that failed) and every [`SEED_PENDING_EVERY`]th (pending, no notification row).
#[derive(Debug, Clone)]
pub struct SeedPlan {
    pub leads: i64,
    pub newest_ms: i64,
    pub spacing_ms: i64,
    pub id_prefix: String,
    pub services: Vec<String>,
    pub notifications: bool,
}

/// What a plan added.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seeded {
    pub leads: i64,
    pub notifications: i64,
}

impl SeedPlan {
    /// Why the plan cannot be seeded, if it cannot.
    pub fn problem(&self) -> Option<String> {
        if !(1..=SEED_MAX_LEADS).contains(&self.leads) {
            return Some(format!("the number of leads must be from 1 to {SEED_MAX_LEADS}"));
        }
        if self.spacing_ms < 0 || self.newest_ms - (self.leads - 1).saturating_mul(self.spacing_ms) < 0 {
            return Some("the leads would have arrived before 1970".into());
        }
        if self.services.is_empty() {
            return Some("no service to ask about".into());
        }
        let plain = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
        if let Some(bad) = self.services.iter().chain([&self.id_prefix]).find(|s| !plain(s)) {
            return Some(format!("{bad:?}: a service slug or id prefix is letters, digits and '-'"));
        }
        None
    }

    /// What the plan added, from the rows each of [`SeedPlan::statements`] changed, in order:
    /// the leads' insert is the second, the notifications' the third.
    pub(super) fn seeded(&self, changed: &[u64]) -> Seeded {
        let count = |i: usize| changed.get(i).map_or(0, |&n| n as i64);
        Seeded {
            leads: count(1),
            notifications: if self.notifications { count(2) } else { 0 },
        }
    }

    /// The statements that add the plan's rows, in order, for one transaction. The values
    /// are written into the text: numbers, and names [`SeedPlan::problem`] has checked.
    pub(super) fn statements(&self, dialect: Dialect) -> Vec<String> {
        let pg = dialect == Dialect::Postgres;
        let (n, newest, spacing, prefix) = (self.leads, self.newest_ms, self.spacing_ms, &self.id_prefix);
        let case = |of: &str, names: &[&str]| {
            let arms: String = names.iter().enumerate().map(|(k, s)| format!(" WHEN {k} THEN '{s}'")).collect();
            format!("CASE {of}{arms} END")
        };
        let services: Vec<&str> = self.services.iter().map(String::as_str).collect();
        let service = case(&format!("i % {}", services.len()), &services);
        let name = format!(
            "{} || ' ' || {}",
            case("i % 20", &SEED_FIRST_NAMES),
            case("(i / 20) % 50", &SEED_LAST_NAMES)
        );
        let text = |e: &str| if pg { format!("({e})::text") } else { format!("({e})") };
        let (id, rows, consent) = if pg {
            (
                format!("'{prefix}-' || lpad(i::text, 8, '0')"),
                format!("FROM generate_series(0::BIGINT, {}) AS i", n - 1),
                "TRUE",
            )
        } else {
            (format!("printf('{prefix}-%08d', i)"), "FROM k".to_string(), "1")
        };
        let with = if pg {
            String::new()
        } else {
            format!("WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i + 1 < {n}) ")
        };
        let source = format!(
            "CASE WHEN i % 3 = 0 THEN 'google' WHEN i % 7 = 0 THEN 'facebook' WHEN i % 11 = 0 THEN 'newsletter-' || {} END",
            text("i % 40")
        );
        let mut statements = vec![
            format!(
                "INSERT INTO consent_texts (sha256, text, first_seen_ms) VALUES ('{SEED_CONSENT_SHA256}', '{SEED_CONSENT_TEXT}', 0) \
                 ON CONFLICT DO NOTHING"
            ),
            format!(
                "{with}INSERT INTO leads (id, received_at_ms, service_slug, full_name, phone_e164, zip_code, consent, consent_sha256, \
                 delivery_status, utm_source) \
                 SELECT {id}, {newest} - i * {spacing}, {service}, {name}, '+1412' || {phone}, '15213', {consent}, \
                 '{SEED_CONSENT_SHA256}', CASE WHEN i % {SEED_SUPPRESSED_EVERY} = 0 THEN 'suppressed' ELSE 'pending' END, {source} {rows}",
                phone = text("2000000 + i"),
            ),
        ];
        if self.notifications {
            // The lead's number, from its arrival (the id's digits would need a dialect each).
            let i = format!("(({newest} - received_at_ms) / {})", spacing.max(1));
            let took = format!("CASE WHEN {i} % 10 = 0 THEN 60000 + ({i} * 7919) % 600000 ELSE 1000 + ({i} * 7919) % 20000 END");
            let failed = format!("{i} % {SEED_FAILED_EVERY} = 0");
            // Written done rather than pending-then-delivered: the outbox's status trigger
            // looks the lead's rows up by status, and a million pending rows at once make that
            // walk them all for each row.
            let chosen =
                format!("id LIKE '{prefix}-%' AND delivery_status = 'pending' AND NOT ({i} % {SEED_PENDING_EVERY} = 0 AND NOT {failed})");
            statements.push(format!(
                "INSERT INTO outbox (lead_id, channel, status, attempts, next_attempt_ms, created_ms, delivered_ms, last_error) \
                 SELECT id, 'email', CASE WHEN {failed} THEN 'failed' ELSE 'delivered' END, 1, received_at_ms, received_at_ms, \
                 CASE WHEN {failed} THEN NULL ELSE received_at_ms + {took} END, \
                 CASE WHEN {failed} THEN 'connection refused' END FROM leads WHERE {chosen}"
            ));
            statements.push(format!(
                "INSERT INTO delivery_attempts (outbox_id, lead_id, channel, at_ms, outcome, error) \
                 SELECT id, lead_id, channel, COALESCE(delivered_ms, created_ms + 1000), \
                 CASE status WHEN 'failed' THEN 'failed' ELSE 'delivered' END, last_error \
                 FROM outbox WHERE lead_id LIKE '{prefix}-%' AND channel = 'email' AND status IN ('delivered', 'failed')"
            ));
            statements.push(format!(
                "UPDATE leads SET delivery_status = CASE WHEN {failed} THEN 'failed' ELSE 'delivered' END WHERE {chosen}"
            ));
        }
        statements
    }
}
