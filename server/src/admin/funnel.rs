//! GET /admin: the console's first screen, the business's funnel over the last 30 or 90 days
//! (`?days=90`): leads per day by service and by source, the share delivered within a
//! minute, suppressed and erased counts, and the slowest deliveries. Read from the daily
//! counts the database keeps (`store::funnel`, docs/decisions/012), never from the leads
//! themselves, so it costs the same with a million leads as with ten.
//!
//! A view only reads. The counts are made in the zone `business_zone` holds, which only the
//! server running the scheduled jobs writes (it counts anew when its zone differs, once). A
//! server set to another zone (another `site.time_zone`, or another time zone database
//! during an upgrade) shows the days as the database counts them, says which zone that is
//! and that its own differs, and logs it; it never counts anew itself.

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{Query, State};
use axum::http::{Method, StatusCode};
use axum::response::Response;
use axum::routing::get;
use serde::Deserialize;

use super::error::{ConsoleError, Doing};
use super::page;
use super::screen::Routes;
use super::session::StaffSession;
use super::zone::{Zone, ZoneAgreement};
use crate::pages::admin::AdminSection;
use crate::pages::admin::funnel::{AdminFunnelProps, FunnelDay, FunnelPeriod, FunnelSeries, SlowDeliveryRow};
use crate::pages::props::PageProps;
use crate::state::AppState;
use crate::store::{FunnelKind, FunnelRow, FunnelState, SlowDelivery, Source};

/// This screen's routes (`admin/mod.rs` puts them behind the session check).
pub fn routes() -> Routes {
    vec![(Method::GET, "/admin", get(page))]
}

/// The periods offered, in days; the first is the default.
pub const PERIODS: [u32; 2] = [30, 90];
/// Services or sources drawn one by one; the rest are added up as "Other".
pub const SERIES: usize = 5;
/// Slowest deliveries listed.
pub const SLOWEST: usize = 10;

#[derive(Debug, Default, Deserialize)]
pub struct FunnelQuery {
    days: Option<String>,
}

pub async fn page(State(state): State<Arc<AppState>>, staff: StaffSession, Query(q): Query<FunnelQuery>) -> Result<Response, ConsoleError> {
    let days = match q.days.as_deref().map(str::trim) {
        None | Some("") => PERIODS[0],
        Some(typed) => match PERIODS.iter().find(|p| p.to_string() == typed) {
            Some(p) => *p,
            None => {
                return Err(ConsoleError::bad_request(
                    "No such period",
                    "The funnel shows the last 30 or the last 90 days: use the links at the top of its page.",
                ));
            }
        },
    };
    let own = Zone::new(&state.config.site.time_zone);
    let counted = state.store.funnel_state().await.doing("read the funnel")?;
    let agreement = ZoneAgreement::of(&own, &counted);
    state.metrics.set_funnel_zone_mismatch(agreement.differs());
    if agreement.differs() {
        tracing::warn!(
            database_zone = %counted.zone.zone,
            server_zone = %own.name,
            "funnel: this server's time zone differs from the one the database counts days in; \
             shown as counted (only the server running the scheduled jobs counts anew)"
        );
    }
    // The days as the database counts them.
    let zone = match &agreement {
        ZoneAgreement::Differs => Zone::new(&counted.zone.zone),
        ZoneAgreement::Agrees | ZoneAgreement::NotYetWritten => own,
    };
    let today = zone.day_of(state.staff.clock.now_ms());
    let first = today - i64::from(days) + 1;
    let since_ms = zone.day_number_start_ms(first).unwrap_or(0);
    let read = async {
        let rows = state.store.funnel_rows(first, today).await?;
        let slowest = state.store.slowest_deliveries(since_ms, SLOWEST).await?;
        Ok::<_, crate::store::StoreError>((rows, slowest))
    };
    let (rows, slowest) = read.await.doing("read the funnel")?;
    let mut props = funnel_props(&state, &staff, &zone, days, (first, today), &rows, slowest);
    props.time_zone = zone_note(&state.config.site.time_zone, &counted, &agreement);
    page::render(&state, StatusCode::OK, PageProps::AdminFunnel(props), "Funnel").await
}

/// The zone the page's days are in, as the screen names it ("(…)" after the dates), with
/// what the reader must know of it: another zone than this server's, or counts being made.
pub fn zone_note(own: &str, counted: &FunnelState, agreement: &ZoneAgreement) -> String {
    let counting = counted
        .recount
        .as_ref()
        .map(|reason| format!("; the figures are being counted anew ({reason}), some are missing until that is done"))
        .unwrap_or_default();
    match agreement {
        ZoneAgreement::Agrees => format!("{own}{counting}"),
        ZoneAgreement::NotYetWritten => format!("{own}; the days are counted in it from the next round of the scheduled jobs"),
        ZoneAgreement::Differs => {
            let database = &counted.zone.zone;
            let how = if database == own {
                format!("this server has other rules for {own} (another time zone database)")
            } else {
                format!("this server is set to {own}")
            };
            format!("{database}, the zone the database counts days in; {how}, so its days may not match: see Health{counting}")
        }
    }
}

fn count(n: i64) -> u32 {
    u32::try_from(n.max(0)).unwrap_or(u32::MAX)
}

/// The busiest keys of `kind` over the period (at most `SERIES`, then "Other" for the rest),
/// and each key's place among them.
fn series(rows: &[FunnelRow], kind: FunnelKind, label: impl Fn(&str) -> String) -> (Vec<FunnelSeries>, HashMap<String, usize>) {
    let mut totals: HashMap<&str, i64> = HashMap::new();
    for r in rows.iter().filter(|r| r.kind == kind) {
        *totals.entry(r.key.as_str()).or_default() += r.leads;
    }
    let mut ranked: Vec<(&str, i64)> = totals.into_iter().filter(|(_, n)| *n > 0).collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    // "Other" only when it stands for two or more: a single key is drawn as itself.
    let shown = if ranked.len() <= SERIES + 1 { ranked.len() } else { SERIES };
    let mut out: Vec<FunnelSeries> = ranked[..shown]
        .iter()
        .map(|(k, n)| FunnelSeries {
            label: label(k),
            total: count(*n),
        })
        .collect();
    let place: HashMap<String, usize> = ranked.iter().enumerate().map(|(i, (k, _))| (k.to_string(), i.min(shown))).collect();
    if ranked.len() > shown {
        out.push(FunnelSeries {
            label: "Other".into(),
            total: count(ranked[shown..].iter().map(|(_, n)| n).sum()),
        });
    }
    (out, place)
}

/// A source as the screen names it: the funnel's own kinds in words, a visitor's source as
/// it was sent (lower case, rendered as text). The two cannot be mistaken: a visitor's has
/// its ASCII letters in lower case, so it is never "Direct …", "Erased …" or "Other".
pub fn source_label(key: &str) -> String {
    match Source::of_key(key) {
        Source::Direct => "Direct (no referrer)".into(),
        Source::Erased => "Erased (source removed)".into(),
        Source::Visitor(text) => text.to_string(),
    }
}

fn funnel_props(
    state: &AppState,
    staff: &StaffSession,
    zone: &Zone,
    days: u32,
    (first, last): (i64, i64),
    rows: &[FunnelRow],
    slowest: Vec<SlowDelivery>,
) -> AdminFunnelProps {
    let service_name = |slug: &str| {
        state
            .catalogue
            .service(slug)
            .map(|s| s.name.clone())
            .unwrap_or_else(|| slug.to_string())
    };
    let (services, service_place) = series(rows, FunnelKind::Service, service_name);
    let (sources, source_place) = series(rows, FunnelKind::Source, source_label);
    let date = |day: i64| Zone::date_of(day).map(|d| d.to_string()).unwrap_or_default();
    let mut by_day: Vec<FunnelDay> = (first..=last)
        .map(|day| FunnelDay {
            date: date(day),
            by_service: vec![0; services.len()],
            by_source: vec![0; sources.len()],
            leads: 0,
            fast: 0,
            suppressed: 0,
            erased: 0,
        })
        .collect();
    for r in rows {
        let Some(d) = usize::try_from(r.day - first).ok().and_then(|i| by_day.get_mut(i)) else {
            continue;
        };
        match r.kind {
            FunnelKind::Service => {
                if let Some(n) = service_place.get(&r.key).and_then(|i| d.by_service.get_mut(*i)) {
                    *n += count(r.leads);
                }
                d.leads += count(r.leads);
                d.fast += count(r.fast);
                d.suppressed += count(r.suppressed);
                d.erased += count(r.erased);
            }
            FunnelKind::Source => {
                if let Some(n) = source_place.get(&r.key).and_then(|i| d.by_source.get_mut(*i)) {
                    *n += count(r.leads);
                }
            }
        }
    }
    let total = |f: fn(&FunnelRow) -> i64| count(rows.iter().filter(|r| r.kind == FunnelKind::Service).map(f).sum());
    let (leads, fast) = (total(|r| r.leads), total(|r| r.fast));
    AdminFunnelProps {
        frame: staff.frame(state, AdminSection::Funnel),
        periods: PERIODS
            .iter()
            .map(|p| FunnelPeriod {
                days: *p,
                href: if *p == PERIODS[0] {
                    "/admin".into()
                } else {
                    format!("/admin?days={p}")
                },
                current: *p == days,
            })
            .collect(),
        days,
        from: date(first),
        to: date(last),
        time_zone: zone.name.clone(),
        leads,
        delivered: total(|r| r.delivered),
        fast,
        fast_share: share(fast, leads),
        suppressed: total(|r| r.suppressed),
        erased: total(|r| r.erased),
        services,
        sources,
        rows: std::mem::take(&mut by_day),
        slowest: slowest
            .into_iter()
            .map(|s| SlowDeliveryRow {
                href: format!("/admin/leads/{}", s.lead_id),
                service: service_name(&s.service_slug),
                channel: s.channel,
                received: zone.local(s.received_at_ms),
                took: took_text(s.took_ms),
            })
            .collect(),
    }
}

/// "87%", "99.5%" (one decimal under 100 when it is not whole), "none" of nothing.
pub fn share(part: u32, whole: u32) -> String {
    if whole == 0 {
        return "none".into();
    }
    let tenths = (u64::from(part) * 1000 + u64::from(whole) / 2) / u64::from(whole);
    if tenths % 10 == 0 || tenths > 1000 {
        format!("{}%", tenths / 10)
    } else {
        format!("{}.{}%", tenths / 10, tenths % 10)
    }
}

/// "12.5 s" under a minute, else as the health page says ages ("4 min", "3 h 5 min").
pub fn took_text(ms: i64) -> String {
    if ms < 60_000 {
        format!("{:.1} s", ms.max(0) as f64 / 1000.0)
    } else {
        super::health::age_text(ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(day: i64, kind: FunnelKind, key: &str, leads: i64) -> FunnelRow {
        FunnelRow {
            day,
            kind,
            key: key.into(),
            leads,
            delivered: 0,
            fast: 0,
            suppressed: 0,
            erased: 0,
        }
    }

    #[test]
    fn the_busiest_are_drawn_and_the_rest_are_other() {
        let rows: Vec<FunnelRow> = (0..8)
            .map(|i| row(1, FunnelKind::Source, &format!("src:s{i}"), 10 - i))
            .chain([row(2, FunnelKind::Source, "src:s7", 1), row(2, FunnelKind::Service, "hvac", 50)])
            .collect();
        let (series, place) = series(&rows, FunnelKind::Source, source_label);
        let labels: Vec<(&str, u32)> = series.iter().map(|s| (s.label.as_str(), s.total)).collect();
        assert_eq!(
            labels,
            [("s0", 10), ("s1", 9), ("s2", 8), ("s3", 7), ("s4", 6), ("Other", 5 + 4 + 4)]
        );
        assert_eq!((place["src:s0"], place["src:s5"], place["src:s7"]), (0, SERIES, SERIES));
        // Six keys: all six drawn, no "Other" of one.
        let six: Vec<FunnelRow> = rows.iter().filter(|r| r.kind == FunnelKind::Source).take(6).cloned().collect();
        let (series, _) = super::series(&six, FunnelKind::Source, source_label);
        assert_eq!(series.len(), 6);
        assert!(series.iter().all(|s| s.label != "Other"));
        assert_eq!(source_label("direct"), "Direct (no referrer)");
    }

    #[test]
    fn a_visitors_source_is_named_as_sent_never_as_the_funnels_own() {
        assert_eq!(source_label("direct"), "Direct (no referrer)");
        assert_eq!(source_label("erased"), "Erased (source removed)");
        for sent in ["direct", "erased", "other", "direct (no referrer)", "<b>google</b>"] {
            let key = Source::Visitor(sent).key();
            assert_eq!(key, format!("src:{sent}"));
            assert_eq!(source_label(&key), sent, "shown as sent");
            assert_eq!(Source::of_key(&key), Source::Visitor(sent));
        }
    }

    #[test]
    fn shares_and_durations_read_plainly() {
        assert_eq!(share(0, 0), "none");
        assert_eq!(share(87, 100), "87%");
        assert_eq!(share(2, 3), "66.7%");
        assert_eq!(share(199, 200), "99.5%");
        assert_eq!(share(3, 3), "100%");
        assert_eq!(took_text(12_480), "12.5 s");
        assert_eq!(took_text(240_000), "4 min");
    }
}
