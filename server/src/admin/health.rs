//! GET /admin/health: the figures /metrics exposes (outbox depth by status, oldest
//! undelivered notification, the last 24 hours' deliveries by outcome, the last scheduled
//! backup). The page asks
//! the worker to read them afresh (`Notifier::refresh_summary`, the code that feeds
//! /metrics) and shows `Metrics::health`, so the two never disagree. Then the funnel's time
//! zone: the one the database counts days in against this server's (`site_funnel_zone_mismatch`).

use std::sync::Arc;

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::response::Response;
use axum::routing::get;

use super::error::{ConsoleError, Doing};
use super::page;
use super::screen::Routes;
use super::session::StaffSession;
use super::zone::{Zone, ZoneAgreement};
use crate::metrics::Health;
use crate::pages::admin::AdminSection;
use crate::pages::admin::health::{AdminHealthProps, HealthFigure, HealthGroup};
use crate::pages::props::PageProps;
use crate::state::AppState;
use crate::store::FunnelState;

/// This screen's routes (`admin/mod.rs` puts them behind the session check).
pub fn routes() -> Routes {
    vec![(Method::GET, "/admin/health", get(page))]
}

/// A backlog older than this is shown as wanting attention (decision 009's alert).
const OLD_BACKLOG_MS: i64 = 15 * 60_000;

pub async fn page(State(state): State<Arc<AppState>>, staff: StaffSession) -> Result<Response, ConsoleError> {
    state.notifier.refresh_summary().await;
    let now = crate::store::now_ms();
    let mut groups = groups(&state.metrics.health(), now);
    let own = Zone::new(&state.config.site.time_zone);
    let counted = state.store.funnel_state().await.doing("read the funnel's time zone")?;
    let agreement = ZoneAgreement::of(&own, &counted);
    state.metrics.set_funnel_zone_mismatch(agreement.differs());
    groups.push(funnel_group(&own.name, &counted, agreement));
    let props = PageProps::AdminHealth(AdminHealthProps {
        frame: staff.frame(&state, AdminSection::Health),
        groups,
        read_at: crate::time::human_utc(now),
    });
    page::render(&state, StatusCode::OK, props, "Health").await
}

fn figure(label: impl Into<String>, value: impl Into<String>, alert: bool) -> HealthFigure {
    HealthFigure {
        label: label.into(),
        value: value.into(),
        alert,
    }
}

/// The page's groups of figures: one per outbox, the last day's deliveries, and the scheduled
/// backups when `backup.dir` is set.
pub fn groups(health: &Health, now_ms: i64) -> Vec<HealthGroup> {
    let mut groups: Vec<HealthGroup> = health
        .outboxes
        .iter()
        .map(|(name, o)| {
            let (title, note) = match *name {
                "leads" => (
                    "Lead notifications",
                    "E-mails and webhooks about new leads. A failed one is sent again from its lead's page, or with site outbox retry (/metrics: outbox=\"leads\").",
                ),
                "mail" => (
                    "Account request and application e-mails",
                    "E-mails to staff about account requests and campaign applications. A failed one is sent again with site outbox retry (/metrics: outbox=\"mail\").",
                ),
                other => (other, ""),
            };
            let oldest = match o.oldest_undelivered_ms {
                Some(t) => {
                    let age = (now_ms - t).max(0);
                    figure(
                        "Oldest undelivered",
                        format!("{} ago ({})", age_text(age), crate::time::human_utc(t)),
                        age > OLD_BACKLOG_MS,
                    )
                }
                None => figure("Oldest undelivered", "none", false),
            };
            HealthGroup {
                title: title.to_string(),
                note: note.to_string(),
                figures: vec![
                    figure("Pending (being retried)", o.pending.to_string(), false),
                    figure(
                        "Failed (given up after days of retries)",
                        o.failed.to_string(),
                        o.failed > 0,
                    ),
                    oldest,
                ],
            }
        })
        .collect();
    let deliveries = if health.deliveries_24h.is_empty() {
        vec![figure("Attempts", "none", false)]
    } else {
        health
            .deliveries_24h
            .iter()
            .map(|d| figure(format!("{}: {}", d.channel, d.outcome), d.count.to_string(), d.outcome == "failed"))
            .collect()
    };
    groups.push(HealthGroup {
        title: "Deliveries in the last 24 hours".to_string(),
        note: "Lead notification attempts by channel and outcome (/metrics: site_notification_deliveries_24h).".to_string(),
        figures: deliveries,
    });
    if let Some(b) = health.backups {
        let when = |ms: i64| {
            if ms == 0 {
                "none yet".to_string()
            } else {
                format!("{} ago ({})", age_text((now_ms - ms).max(0)), crate::time::human_utc(ms))
            }
        };
        let outcome = match (b.last_attempt_ms, b.last_ok) {
            (0, _) => "none yet",
            (_, true) => "written and checked",
            (_, false) => "failed (see the server log)",
        };
        groups.push(HealthGroup {
            title: "Backups".to_string(),
            note: "The server's scheduled copies of its SQLite database (docs/operations.md; /metrics: backup_*).".to_string(),
            figures: vec![
                figure("Last attempt", outcome, b.last_attempt_ms != 0 && !b.last_ok),
                figure(
                    "Last good backup",
                    when(b.last_success_ms),
                    b.last_attempt_ms != 0 && b.last_success_ms == 0,
                ),
                figure("Failed backups", b.failures.to_string(), b.failures > 0),
            ],
        });
    }
    groups
}

/// The funnel's time zone: the one the database counts days in against this server's, and a
/// recount due or under way (docs/operations.md, "The funnel's time zone").
pub fn funnel_group(own: &str, counted: &FunnelState, agreement: ZoneAgreement) -> HealthGroup {
    let database = match agreement {
        ZoneAgreement::NotYetWritten => "none yet (UTC's days until the scheduled jobs write it)".to_string(),
        _ => counted.zone.zone.clone(),
    };
    let this = match agreement {
        ZoneAgreement::Differs if counted.zone.zone == own => format!("{own}, with other rules (another time zone database)"),
        ZoneAgreement::Differs => format!("{own}: differs"),
        _ => own.to_string(),
    };
    HealthGroup {
        title: "Funnel's time zone".to_string(),
        note: "The funnel's days are counted in the zone the database holds, written by the server running the scheduled \
               jobs. A server set to another zone shows them as counted and says so here (/metrics: site_funnel_zone_mismatch); \
               give every server the same site.time_zone and release."
            .to_string(),
        figures: vec![
            figure("Days counted in", database, false),
            figure("This server's zone", this, agreement.differs()),
            figure("Counting anew", counted.recount.clone().unwrap_or_else(|| "no".to_string()), false),
        ],
    }
}

/// "45 s", "12 min", "3 h 5 min", "2 days 4 h".
pub(super) fn age_text(ms: i64) -> String {
    let s = ms / 1000;
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min", s / 60),
        3600..86_400 => format!("{} h {} min", s / 3600, s % 3600 / 60),
        _ => {
            let days = s / 86_400;
            format!("{days} day{} {} h", if days == 1 { "" } else { "s" }, s % 86_400 / 3600)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{DeliveryCount, OutboxSummary};

    #[test]
    fn the_figures_are_the_metrics_figures() {
        let health = Health {
            outboxes: vec![(
                "leads",
                OutboxSummary {
                    pending: 3,
                    failed: 1,
                    oldest_undelivered_ms: Some(1_000),
                },
            )],
            deliveries_24h: vec![DeliveryCount {
                channel: "email".into(),
                outcome: "delivered".into(),
                count: 7,
            }],
            backups: None,
        };
        let g = groups(&health, 1_000 + 20 * 60_000);
        assert_eq!(g.len(), 2);
        let values: Vec<(&str, bool)> = g[0].figures.iter().map(|f| (f.value.as_str(), f.alert)).collect();
        assert_eq!(values[0], ("3", false));
        assert_eq!(values[1], ("1", true));
        assert!(values[2].0.starts_with("20 min ago") && values[2].1, "{values:?}");
        assert_eq!(
            (g[1].figures[0].label.as_str(), g[1].figures[0].value.as_str()),
            ("email: delivered", "7")
        );
        assert_eq!(age_text(90_061_000), "1 day 1 h");

        let with_backups = Health {
            backups: Some(crate::metrics::BackupFigures {
                last_attempt_ms: 2_000,
                last_success_ms: 1_000,
                last_ok: false,
                failures: 1,
                ..Default::default()
            }),
            ..health
        };
        let g = groups(&with_backups, 1_000 + 20 * 60_000);
        assert_eq!(g.len(), 3);
        let backups: Vec<(&str, &str, bool)> = g[2].figures.iter().map(|f| (f.label.as_str(), f.value.as_str(), f.alert)).collect();
        assert_eq!(backups[0], ("Last attempt", "failed (see the server log)", true));
        assert!(backups[1].1.starts_with("20 min ago") && !backups[1].2, "{backups:?}");
        assert_eq!(backups[2], ("Failed backups", "1", true));
    }
}
