//! The campaigns in the store (migration 0014), on SQLite and, with TEST_DATABASE_URL, on
//! PostgreSQL: the first start's import, a save's history and audit line, the refusals that
//! save nothing, and the notification another server hears.

use std::sync::Arc;
use std::time::Duration;

use crate::common;
use common::stores::{stores, twin_stores};
use site_server::store::{CampaignEdit, CampaignFields, CampaignSaved, NewAudit, now_ms};

fn fields(name: &str) -> CampaignFields {
    CampaignFields {
        name: name.into(),
        status: "LIVE".into(),
        payouts: "$28".into(),
        payment_terms: "Weekly Net 7".into(),
        geos: "Nationwide".into(),
        promo_allowed: None,
        cap: "50/day".into(),
        inbound: true,
        transfer: false,
        seconds: 120,
        hours: "HOVER TO SEE".into(),
        notes: "Homeowners only.".into(),
    }
}

fn audit(staff: i64, action: &'static str, target: Option<i64>) -> NewAudit {
    NewAudit {
        staff_id: Some(staff),
        action,
        target: target.map(|t| t.to_string()),
        ip: Some("203.0.113.9".into()),
        detail: None,
    }
}

#[tokio::test]
async fn the_first_start_imports_once_and_saves_keep_their_history() {
    for (name, store) in stores().await {
        let now = now_ms();
        let seed = vec![fields("Roofing Inbound"), fields("HVAC Transfers")];
        assert!(store.import_campaigns(&seed, now).await.expect("import"), "{name}: empty, imported");
        assert!(!store.import_campaigns(&seed, now).await.expect("import"), "{name}: imported once");
        let stored = store.campaigns().await.expect("campaigns");
        assert_eq!(
            stored.iter().map(|c| c.fields.name.as_str()).collect::<Vec<_>>(),
            ["Roofing Inbound", "HVAC Transfers"],
            "{name}"
        );
        assert_eq!(stored[0].created_by, None, "{name}: imported, by nobody");

        let staff = store
            .add_staff("ops@ringready.example", "x", now)
            .await
            .expect("staff")
            .expect("new");
        let mut changed = stored[0].fields.clone();
        changed.payouts = "$35".into();
        let saved = store
            .save_campaigns(
                &[CampaignEdit {
                    id: Some(stored[0].id),
                    fields: changed.clone(),
                }],
                staff,
                vec![audit(staff, "campaign-change", Some(stored[0].id))],
                now + 1,
            )
            .await
            .expect("save");
        assert_eq!(saved, CampaignSaved::Saved(vec![stored[0].id]), "{name}");
        let after = store.campaigns().await.expect("campaigns");
        assert_eq!(after[0].fields, changed, "{name}");
        assert_eq!(after[0].id, stored[0].id, "{name}: the id is stable");
        assert_eq!(after[0].changed_by.as_deref(), Some("ops@ringready.example"), "{name}");
        assert_eq!(after[0].changed_ms, now + 1, "{name}");
        let history = store.campaign_changes(stored[0].id).await.expect("history");
        assert_eq!(history.len(), 1, "{name}: {history:?}");
        assert_eq!(
            (
                history[0].field.as_str(),
                history[0].old_value.as_deref(),
                history[0].new_value.as_deref()
            ),
            ("payouts", Some("$28"), Some("$35")),
            "{name}"
        );
        assert_eq!(history[0].staff_email.as_deref(), Some("ops@ringready.example"), "{name}");
        let log = store.audit_log(None, 10).await.expect("audit");
        assert!(
            log.iter()
                .any(|l| l.action == "campaign-change" && l.target.as_deref() == Some(&*stored[0].id.to_string())),
            "{name}: {log:?}"
        );

        // A new one goes last; its audit line names its id.
        let saved = store
            .save_campaigns(
                &[CampaignEdit {
                    id: None,
                    fields: fields("Solar Calls"),
                }],
                staff,
                vec![audit(staff, "campaign-add", None)],
                now + 2,
            )
            .await
            .expect("add");
        let CampaignSaved::Saved(ids) = saved else {
            panic!("{name}: {saved:?}")
        };
        let all = store.campaigns().await.expect("campaigns");
        assert_eq!(all.last().map(|c| c.id), Some(ids[0]), "{name}: last");
        assert_eq!(
            store.campaign_changes(ids[0]).await.expect("history").len(),
            11,
            "{name}: every field, from nothing"
        );
    }
}

#[tokio::test]
async fn a_refused_save_saves_nothing() {
    for (name, store) in stores().await {
        let now = now_ms();
        store
            .import_campaigns(&[fields("Roofing Inbound"), fields("HVAC Transfers")], now)
            .await
            .expect("import");
        let staff = store
            .add_staff("ops@ringready.example", "x", now)
            .await
            .expect("staff")
            .expect("new");
        let stored = store.campaigns().await.expect("campaigns");
        let mut renamed = stored[1].fields.clone();
        renamed.name = "Roofing Inbound".into();
        let mut first = stored[0].fields.clone();
        first.payouts = "$99".into();
        let edits = [
            CampaignEdit {
                id: Some(stored[0].id),
                fields: first.clone(),
            },
            CampaignEdit {
                id: Some(stored[1].id),
                fields: renamed,
            },
        ];
        let saved = store.save_campaigns(&edits, staff, vec![], now).await.expect("save");
        assert_eq!(saved, CampaignSaved::NameTaken("Roofing Inbound".into()), "{name}");
        let unknown = store
            .save_campaigns(
                &[CampaignEdit {
                    id: Some(999_999),
                    fields: first.clone(),
                }],
                staff,
                vec![],
                now,
            )
            .await
            .expect("save");
        assert_eq!(unknown, CampaignSaved::Unknown(999_999), "{name}");
        assert_eq!(store.campaigns().await.expect("campaigns"), stored, "{name}: nothing half-applied");
        assert!(store.campaign_changes(stored[0].id).await.expect("history").is_empty(), "{name}");

        // An ended campaign's name is free again.
        let mut ended = stored[0].fields.clone();
        ended.status = "ended".into();
        store
            .save_campaigns(
                &[CampaignEdit {
                    id: Some(stored[0].id),
                    fields: ended,
                }],
                staff,
                vec![],
                now,
            )
            .await
            .expect("end");
        let again = store
            .save_campaigns(
                &[CampaignEdit {
                    id: None,
                    fields: fields("Roofing Inbound"),
                }],
                staff,
                vec![],
                now,
            )
            .await
            .expect("add");
        assert!(matches!(again, CampaignSaved::Saved(_)), "{name}: {again:?}");
    }
}

#[tokio::test]
async fn another_server_hears_a_change_on_postgres() {
    for (name, a, b, _) in twin_stores().await {
        let wake = Arc::new(tokio::sync::Notify::new());
        let (stop, stopping) = tokio::sync::watch::channel(false);
        let Some(listener) = b.watch_campaigns(Arc::clone(&wake), stopping) else {
            assert_eq!(name, "sqlite", "only SQLite has no listener");
            continue;
        };
        // The listener rings once when it connects: wait for that first.
        tokio::time::timeout(Duration::from_secs(30), wake.notified())
            .await
            .expect("connected");
        a.import_campaigns(&[fields("Roofing Inbound")], now_ms()).await.expect("import");
        tokio::time::timeout(Duration::from_secs(30), wake.notified())
            .await
            .expect("B heard A's change");
        let _ = stop.send(true);
        let _ = listener.await;
    }
}
