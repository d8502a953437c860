//! The health page (`/admin/health`): the figures `/metrics` exposes.

use serde::Serialize;
#[cfg(test)]
use ts_rs::TS;

use super::AdminFrame;

/// One figure of the health page.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct HealthFigure {
    pub label: String,
    pub value: String,
    /// Marks a figure that wants attention (failed notifications, an old backlog).
    pub alert: bool,
}

/// A group of figures (an outbox, the last day's deliveries, …), shown as one table.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct HealthGroup {
    pub title: String,
    /// Where the figures come from, in a sentence.
    pub note: String,
    pub figures: Vec<HealthFigure>,
}

/// The health page: the notification figures /metrics exposes, in groups.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct AdminHealthProps {
    pub frame: AdminFrame,
    pub groups: Vec<HealthGroup>,
    /// When the figures were read ("2026-11-22 13:45 UTC").
    pub read_at: String,
}
