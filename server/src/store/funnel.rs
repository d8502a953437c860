//! The console's funnel: leads per local day by service and by source, the counts that
//! follow each lead (delivered, delivered within a minute, suppressed, erased), and the
//! slowest deliveries of a period. The daily counts live in `lead_days`, kept by triggers in
//! the same transaction as every change of a lead (migrations 0007 and 0013,
//! docs/decisions/012), so a 90-day screen reads a few thousand rows whatever the number of
//! leads. On PostgreSQL the writer's INSERT of a group's new leads counts them itself, in
//! the same statement, and the insert trigger does not fire for it (migration 0017,
//! docs/decisions/034-the-writer-counts-its-leads.md). Days are the business's: the
//! triggers read the zone's UTC offsets from `business_zone`, which only the recount writes
//! ([`Funnel::recount_funnel`](super::backend::Funnel::recount_funnel)), run by the server
//! running the scheduled jobs when the zone it is set to differs or a recount is due; a
//! console view only reads, and says so when the zone stored is not its own.
//!
//! The recount never holds lead intake for its length. It writes the zone, then makes a cut:
//! in one short step it empties `lead_days`, and a snapshot of the database as of that
//! moment is taken. The counts of the leads in that snapshot are made from it, for as long
//! as that takes, while every change after the cut is counted by the triggers into the
//! emptied table (a new lead adds to its day; a delivery or an erasure of an older lead adds
//! its difference, to a row made for it if need be); then the snapshot's counts are added in
//! short steps. Each change is counted once: before the cut it is in the snapshot, after it
//! the triggers count it.

/// The business's time zone as the database keeps it: from each `from_ms` on, local time is
/// UTC plus `offset_ms`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZoneOffsets {
    /// The IANA name, e.g. "America/New_York".
    pub zone: String,
    /// (from_ms, offset_ms), in order; the first from 0 (1970).
    pub offsets: Vec<(i64, i64)>,
}

/// A point where a recount can be held: after it has counted the leads of its snapshot,
/// before it adds those counts (step 4 of [`Funnel::recount_funnel`](super::backend::Funnel::recount_funnel)).
/// The scheduled job passes [`RecountHold::none`]; the tests that change leads while a recount
/// is under way hold it there, so that their changes fall between its cut and its end
/// however fast the machine counts.
#[derive(Debug, Default)]
pub struct RecountHold(Option<(tokio::sync::oneshot::Sender<()>, tokio::sync::oneshot::Receiver<()>)>);

/// The other end of a [`RecountHold`]: says when the recount is held, and lets it go on.
#[derive(Debug)]
pub struct RecountHeld {
    held: tokio::sync::oneshot::Receiver<()>,
    go: tokio::sync::oneshot::Sender<()>,
}

impl RecountHold {
    /// No hold: the recount goes straight on.
    pub fn none() -> Self {
        Self(None)
    }

    /// A hold, and its other end.
    pub fn new() -> (Self, RecountHeld) {
        let (held_tx, held) = tokio::sync::oneshot::channel();
        let (go, go_rx) = tokio::sync::oneshot::channel();
        (Self(Some((held_tx, go_rx))), RecountHeld { held, go })
    }

    /// Waits here until let go (or the other end is dropped), if this is a hold.
    pub(crate) async fn reached(self) {
        if let Some((held, go)) = self.0 {
            let _ = held.send(());
            let _ = go.await;
        }
    }
}

impl RecountHeld {
    /// Resolves once the recount is held; false when it ended (or failed) before it got there.
    pub async fn reached(&mut self) -> bool {
        (&mut self.held).await.is_ok()
    }

    /// Lets the recount go on.
    pub fn release(self) {
        let _ = self.go.send(());
    }
}

/// What the database's daily counts are made by, as it says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunnelState {
    /// The zone `business_zone` holds (no offsets and no name before the first recount: the
    /// triggers count UTC's days then).
    pub zone: ZoneOffsets,
    /// Why a recount is due or under way (`funnel_recount`); None: the counts are whole.
    pub recount: Option<String>,
}

impl FunnelState {
    /// Why the counts must be made anew for a server set to `zone`; None: they need not be.
    pub fn recount_reason(&self, zone: &ZoneOffsets) -> Option<String> {
        if let Some(reason) = &self.recount {
            return Some(reason.clone());
        }
        if self.zone == *zone {
            None
        } else if self.zone.offsets.is_empty() {
            Some(format!("no time zone was written yet: counting in {}", zone.zone))
        } else if self.zone.zone == zone.zone {
            Some(format!("the rules of {} differ (another time zone database)", zone.zone))
        } else {
            Some(format!("the time zone changed from {} to {}", self.zone.zone, zone.zone))
        }
    }
}

/// What the rows of `lead_days` count by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FunnelKind {
    /// Keyed by the service's slug; carries every count.
    Service,
    /// Keyed by the lead's source (see [`Source`]); carries the number of leads only.
    Source,
}

/// The key of a source row: one of the funnel's own kinds, or the source a visitor's request
/// named. The two never share a key (migration 0013): a visitor's is kept with
/// [`VISITOR_SOURCE_PREFIX`], so `?utm_source=erased` is the source "erased", never the count
/// of erased leads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source<'a> {
    /// No UTM source, and no referrer or our own site's.
    Direct,
    /// Erased on a data request: its attribution is gone.
    Erased,
    /// The UTM source, else the referring host: lower case (ASCII letters, the same on both
    /// databases), at most 60 characters.
    Visitor(&'a str),
}

/// What a visitor's source is kept behind in `lead_days.key`.
pub const VISITOR_SOURCE_PREFIX: &str = "src:";

impl<'a> Source<'a> {
    pub fn of_key(key: &'a str) -> Self {
        match key {
            "direct" => Source::Direct,
            "erased" => Source::Erased,
            other => Source::Visitor(other.strip_prefix(VISITOR_SOURCE_PREFIX).unwrap_or(other)),
        }
    }

    /// The key `lead_days` keeps it under.
    pub fn key(&self) -> String {
        match self {
            Source::Direct => "direct".into(),
            Source::Erased => "erased".into(),
            Source::Visitor(text) => format!("{VISITOR_SOURCE_PREFIX}{text}"),
        }
    }
}

/// The `lead_days` key of a new lead's source: what PostgreSQL's `lead_source` (migration
/// 0013) gives for a lead not erased, made here so that the writer can count a group's leads
/// without the database working it out lead by lead
/// (docs/decisions/034-the-writer-counts-its-leads.md). The UTM source, trimmed of spaces, if
/// any; else the referrer's host if it has one and it is not the page's own; else direct. A
/// test holds it to the database's function, odd addresses included.
pub fn new_lead_source_key(utm_source: Option<&str>, referrer: Option<&str>, page_url: Option<&str>) -> String {
    let visitor = |text: &str| format!("{VISITOR_SOURCE_PREFIX}{}", text.chars().take(60).collect::<String>());
    if let Some(utm) = utm_source.map(|u| u.trim_matches(' ')).filter(|u| !u.is_empty()) {
        return visitor(&utm.to_ascii_lowercase());
    }
    match referrer.map(url_host) {
        Some(host) if !host.is_empty() && Some(&host) != page_url.map(url_host).as_ref() => visitor(&host),
        _ => Source::Direct.key(),
    }
}

/// A URL's host as the databases' `url_host` reads it: what follows the first `://` (without
/// one, what follows the first two characters), up to the first `/`, `?` or `#`, past the
/// first `@`, up to the first `:`, without a leading `www.`; ASCII letters in lower case.
fn url_host(url: &str) -> String {
    let rest: &str = match url.find("://") {
        Some(at) => &url[at + 3..],
        None => url.char_indices().nth(2).map_or("", |(at, _)| &url[at..]),
    };
    let rest = rest.to_ascii_lowercase();
    let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = host.split_once('@').map_or(host, |(_, after)| after);
    let host = host.split(':').next().unwrap_or_default();
    host.strip_prefix("www.").unwrap_or(host).to_string()
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
