//! Synthetic leads for the benchmarks and the tests (`site seed`, `Seed::seed_leads`): many
//! leads written straight into the tables in a few set-based statements, the same on both
//! databases. The rows go through the tables' own triggers (the name index, the funnel's daily
//! counts, the leads' delivery status), so they look to the console as leads the intake took.
//! This file and the statements `sql/built.rs` makes of a plan (`seed`) are the one place
//! that writes such rows: a migration that changes the tables changes them, and the benches
//! and the tests follow.

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

    /// What the plan added, from the rows each of its statements (`sql::built::seed`) changed, in order:
    /// the leads' insert is the second, the notifications' the third.
    pub(super) fn seeded(&self, changed: &[u64]) -> Seeded {
        let count = |i: usize| changed.get(i).map_or(0, |&n| n as i64);
        Seeded {
            leads: count(1),
            notifications: if self.notifications { count(2) } else { 0 },
        }
    }
}
