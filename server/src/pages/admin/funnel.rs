//! The console's first screen (`/admin`): the funnel of the last 30 or 90 days.

use serde::Serialize;
#[cfg(test)]
use ts_rs::TS;

use super::AdminFrame;

/// One series of the funnel's charts (a service or a source, or "Other"), with its total
/// over the period.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
pub struct FunnelSeries {
    pub label: String,
    pub total: u32,
}

/// One local day of the funnel.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct FunnelDay {
    /// YYYY-MM-DD, in the business's time zone.
    pub date: String,
    /// Leads of each of `services` (same order), then of `sources`.
    pub by_service: Vec<u32>,
    pub by_source: Vec<u32>,
    pub leads: u32,
    /// Delivered, the last notification within a minute of arrival.
    pub fast: u32,
    pub suppressed: u32,
    pub erased: u32,
}

/// One of the slowest deliveries of the period.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct SlowDeliveryRow {
    pub href: String,
    pub service: String,
    pub channel: String,
    /// In the business's time zone.
    pub received: String,
    /// "4 min", "12.5 s".
    pub took: String,
}

/// A period the funnel can show.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
pub struct FunnelPeriod {
    pub days: u32,
    pub href: String,
    pub current: bool,
}

/// The console's first screen: the business's leads of the last 30 or 90 days.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct AdminFunnelProps {
    pub frame: AdminFrame,
    pub periods: Vec<FunnelPeriod>,
    pub days: u32,
    /// The first and last day shown, YYYY-MM-DD.
    pub from: String,
    pub to: String,
    pub time_zone: String,
    pub leads: u32,
    pub delivered: u32,
    pub fast: u32,
    /// `fast` of `leads`, "87%" ("none" without leads).
    pub fast_share: String,
    pub suppressed: u32,
    pub erased: u32,
    /// The busiest services, then "Other" when there are more.
    pub services: Vec<FunnelSeries>,
    /// The busiest sources, then "Other" when there are more.
    pub sources: Vec<FunnelSeries>,
    /// Every day of the period, oldest first.
    pub rows: Vec<FunnelDay>,
    pub slowest: Vec<SlowDeliveryRow>,
}
