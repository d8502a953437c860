//! The console's funnel: leads per local day by service and by source, the counts that
//! follow each lead (delivered, delivered within a minute, suppressed, erased), and the
//! slowest deliveries of a period. The daily counts live in `lead_days`, kept by triggers in
//! the same transaction as every change of a lead (migration 0007, docs/decisions/012), so
//! a 90-day screen reads a few thousand rows whatever the number of leads. Days are the
//! business's: the triggers read the zone's UTC offsets from `business_zone`, which the
//! server writes from `site.time_zone` ([`Funnel::ensure_business_zone`](super::backend::Funnel::ensure_business_zone)).

/// The business's time zone as the database keeps it: from each `from_ms` on, local time is
/// UTC plus `offset_ms`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZoneOffsets {
    /// The IANA name, e.g. "America/New_York".
    pub zone: String,
    /// (from_ms, offset_ms), in order; the first from 0 (1970).
    pub offsets: Vec<(i64, i64)>,
}

/// What the rows of `lead_days` count by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FunnelKind {
    /// Keyed by the service's slug; carries every count.
    Service,
    /// Keyed by the lead's source (UTM source, referring host, "direct" or "erased"); carries
    /// the number of leads only.
    Source,
}

impl FunnelKind {
    pub(super) fn parse(s: &str) -> Option<Self> {
        match s {
            "service" => Some(Self::Service),
            "source" => Some(Self::Source),
            _ => None,
        }
    }
}

/// One row of `lead_days`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunnelRow {
    /// Days since 1970-01-01 in the business's time zone.
    pub day: i64,
    pub kind: FunnelKind,
    pub key: String,
    pub leads: i64,
    pub delivered: i64,
    /// Delivered, the last notification at most a minute after the lead arrived.
    pub fast: i64,
    pub suppressed: i64,
    pub erased: i64,
}

/// One delivered notification, with how long it took.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SlowDelivery {
    pub lead_id: String,
    pub service_slug: String,
    pub channel: String,
    pub received_at_ms: i64,
    /// From the notification's creation (the lead's arrival) to its delivery.
    pub took_ms: i64,
}

/// A lead counts as delivered within a minute when its last notification was delivered at
/// most this long after it arrived.
pub const FAST_MS: i64 = 60_000;

pub(super) const SLOWEST_COLUMNS: &str = "o.lead_id, l.service_slug, o.channel, l.received_at_ms, o.delivered_ms - o.created_ms";
