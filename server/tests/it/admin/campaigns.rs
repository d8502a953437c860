//! The campaigns screen over real HTTP, on both stores: a change saved in the console is on
//! the public pages in the answer's wake (the portal, its data file, the apply page), a
//! paused or ended campaign leaves them and its apply link says so, every refusal names its
//! field and saves nothing, every change is audited and in the campaign's history, and a
//! form without its CSRF token changes nothing.

use crate::common;

use reqwest::StatusCode;
use site_server::assets;

use common::admin::{add_staff, page, post, sign_in};
use common::stores::stores;
use common::{TestServer, config, start_with_store, unescape_html};

const FIRST: &str = "Appliance Repair Inbound Calls";

/// The form's fields for the stored campaign `id` with `changes` applied.
fn form_of(server: &TestServer, id: i64, csrf: &str, changes: &[(&str, &str)]) -> Vec<(String, String)> {
    let _ = server;
    let mut fields: Vec<(String, String)> = vec![
        ("csrf".into(), csrf.into()),
        ("id".into(), id.to_string()),
        ("name".into(), FIRST.into()),
        ("status".into(), "LIVE".into()),
        ("payouts".into(), "$28".into()),
        ("payment_terms".into(), "Weekly Net 7".into()),
        ("geos".into(), "Nationwide".into()),
        ("promo_allowed".into(), "Inbound only".into()),
        ("cap".into(), "50/day".into()),
        ("inbound".into(), "yes".into()),
        ("seconds".into(), "120".into()),
        ("hours".into(), "HOVER TO SEE".into()),
        (
            "notes".into(),
            "Homeowners and renters OK. Caller must have a broken major appliance needing in-home service.".into(),
        ),
    ];
    for (k, v) in changes {
        match fields.iter_mut().find(|(name, _)| name == k) {
            Some(field) => field.1 = v.to_string(),
            None => fields.push((k.to_string(), v.to_string())),
        }
    }
    fields
}

async fn send(server: &TestServer, session: &str, path: &str, fields: &[(String, String)]) -> reqwest::Response {
    let pairs: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    post(server, session, path, &pairs).await
}

async fn public(server: &TestServer, path: &str) -> (StatusCode, String) {
    let r = server.client.get(server.url(path)).send().await.expect("get");
    let status = r.status();
    (status, unescape_html(&r.text().await.expect("body")))
}

/// The data file the home page names, and its text.
async fn campaigns_json(server: &TestServer) -> String {
    let (_, home) = public(server, "/").await;
    let at = home.find("/assets/campaigns-").expect("the home page names the campaigns file");
    let path = home[at..].split('"').next().expect("path").to_string();
    public(server, &path).await.1
}

#[tokio::test]
async fn a_change_in_the_console_is_on_the_public_pages_at_once() {
    for (name, store) in stores().await {
        let server = start_with_store(config(&[]), assets::SSR_BUNDLE, store).await;
        add_staff(&server, "noa@ringready.example").await;
        let session = sign_in(&server, "noa@ringready.example").await;
        let stored = server.state.store.campaigns().await.expect("campaigns");
        assert_eq!(stored.len(), 55, "{name}: the catalogue's campaigns, imported");
        let id = stored[0].id;
        let (html, csrf) = page(&server, &session, "/admin/campaigns").await;
        assert!(unescape_html(&html).contains(FIRST), "{name}: listed");
        assert!(!public(&server, "/campaigns").await.1.contains("$97"), "{name}");

        // A payout changed.
        let r = send(
            &server,
            &session,
            "/admin/campaigns",
            &form_of(&server, id, &csrf, &[("payouts", "$97")]),
        )
        .await;
        assert_eq!(r.status(), StatusCode::SEE_OTHER, "{name}");
        let (_, portal) = public(&server, "/campaigns").await;
        assert!(portal.contains("$97"), "{name}: the portal shows the new payout");
        assert!(
            campaigns_json(&server).await.contains("\"payouts\":\"$97\""),
            "{name}: and the modal's data"
        );
        let (html, _) = page(&server, &session, &format!("/admin/campaigns?edit={id}")).await;
        let html = unescape_html(&html);
        assert!(
            html.contains("Payout") && html.contains("$28") && html.contains("$97"),
            "{name}: the history says from what to what"
        );
        let log = server.state.store.audit_log(None, 10).await.expect("audit");
        assert!(
            log.iter()
                .any(|l| l.action == "campaign-change" && l.target.as_deref() == Some(&*id.to_string())),
            "{name}"
        );

        // Paused: off the lists, its apply link says so.
        let r = send(
            &server,
            &session,
            "/admin/campaigns/status",
            &[
                ("csrf".into(), csrf.clone()),
                ("id".into(), id.to_string()),
                ("status".into(), "paused".into()),
            ],
        )
        .await;
        assert_eq!(r.status(), StatusCode::SEE_OTHER, "{name}");
        let (_, portal) = public(&server, "/campaigns").await;
        assert!(!portal.contains(FIRST), "{name}: a paused campaign leaves the portal");
        assert!(!campaigns_json(&server).await.contains(FIRST), "{name}: and the modal");
        let (status, apply) = public(&server, &format!("/campaigns/apply?campaign={}", FIRST.replace(' ', "%20"))).await;
        assert_eq!(status, StatusCode::OK, "{name}: not a 404");
        assert!(apply.contains("is no longer accepting applications"), "{name}");

        // Resumed, then ended.
        for (status, shown) in [("LIVE", true), ("ended", false)] {
            let r = send(
                &server,
                &session,
                "/admin/campaigns/status",
                &[
                    ("csrf".into(), csrf.clone()),
                    ("id".into(), id.to_string()),
                    ("status".into(), status.into()),
                ],
            )
            .await;
            assert_eq!(r.status(), StatusCode::SEE_OTHER, "{name}: {status}");
            assert_eq!(public(&server, "/campaigns").await.1.contains(FIRST), shown, "{name}: {status}");
        }
        // An ended campaign stays ended.
        let r = send(
            &server,
            &session,
            "/admin/campaigns/status",
            &[
                ("csrf".into(), csrf.clone()),
                ("id".into(), id.to_string()),
                ("status".into(), "LIVE".into()),
            ],
        )
        .await;
        assert_eq!(r.status(), StatusCode::BAD_REQUEST, "{name}");

        // A new one, with the ended one's name: its name is free again.
        let mut add = form_of(&server, id, &csrf, &[("payouts", "$40-$60")]);
        add.retain(|(k, _)| k != "id");
        let r = send(&server, &session, "/admin/campaigns", &add).await;
        assert_eq!(r.status(), StatusCode::SEE_OTHER, "{name}");
        assert!(public(&server, "/campaigns").await.1.contains("$40-$60"), "{name}");
    }
}

#[tokio::test]
async fn a_refused_change_names_its_field_and_saves_nothing() {
    for (name, store) in stores().await {
        let server = start_with_store(config(&[]), assets::SSR_BUNDLE, store).await;
        add_staff(&server, "noa@ringready.example").await;
        let session = sign_in(&server, "noa@ringready.example").await;
        let stored = server.state.store.campaigns().await.expect("campaigns");
        let (_, csrf) = page(&server, &session, "/admin/campaigns").await;
        let second = stored[1].fields.name.clone();
        for (changes, message) in [
            (vec![("payouts", "call us")], "Payout: write a $ amount"),
            (vec![("name", "")], "Name: enter it."),
            (
                vec![("name", second.as_str())],
                "is already the name of a campaign that has not ended",
            ),
            (vec![("status", "maybe")], "Status: choose LIVE, paused or ended."),
            (vec![("payment_terms", "Whenever")], "Payment terms: choose one of"),
            (vec![("seconds", "ten")], "Call length: a whole number"),
            (vec![("geos", "TX\u{7}")], "GEOs: one line of text"),
        ] {
            let r = send(
                &server,
                &session,
                "/admin/campaigns",
                &form_of(&server, stored[0].id, &csrf, &changes),
            )
            .await;
            assert_eq!(r.status(), StatusCode::BAD_REQUEST, "{name}: {changes:?}");
            let html = unescape_html(&r.text().await.expect("body"));
            assert!(html.contains(message), "{name}: {changes:?} says {message:?}");
        }
        // Without the CSRF token.
        let mut forged = form_of(&server, stored[0].id, &csrf, &[("payouts", "$99")]);
        forged.retain(|(k, _)| k != "csrf");
        let r = send(&server, &session, "/admin/campaigns", &forged).await;
        assert_eq!(r.status(), StatusCode::FORBIDDEN, "{name}");
        assert_eq!(
            server.state.store.campaigns().await.expect("campaigns"),
            stored,
            "{name}: nothing saved"
        );
    }
}
