//! The campaigns screen over real HTTP, on both stores: a change saved in the console is on
//! the public pages in the answer's wake (the portal, its data file, the apply page), a
//! paused or ended campaign leaves them and its apply link says so, every refusal names its
//! field and saves nothing, every change is audited and in the campaign's history, and a
//! form without its CSRF token changes nothing; a server started again shows the store's
//! campaigns from its first page.

use crate::common;

use reqwest::StatusCode;
use site_server::assets;

use common::admin::{add_staff, page, post, sign_in};
use common::stores::stores;
use common::{TestServer, config, start_with_store, unescape_html};

const FIRST: &str = "Appliance Repair Inbound Calls";

/// The form's fields for the stored campaign `id` with `changes` applied.
fn form_of(id: i64, csrf: &str, changes: &[(&str, &str)]) -> Vec<(String, String)> {
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

/// Pauses, resumes or ends the campaign `id` as its list's buttons do.
async fn set_status(server: &TestServer, session: &str, csrf: &str, id: i64, status: &str) -> reqwest::Response {
    post(
        server,
        session,
        "/admin/campaigns/status",
        &[("csrf", csrf), ("id", &id.to_string()), ("status", status)],
    )
    .await
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
        let r = send(&server, &session, "/admin/campaigns", &form_of(id, &csrf, &[("payouts", "$97")])).await;
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
        let r = set_status(&server, &session, &csrf, id, "paused").await;
        assert_eq!(r.status(), StatusCode::SEE_OTHER, "{name}");
        let (_, portal) = public(&server, "/campaigns").await;
        assert!(!portal.contains(FIRST), "{name}: a paused campaign leaves the portal");
        assert!(!campaigns_json(&server).await.contains(FIRST), "{name}: and the modal");
        let (status, apply) = public(&server, &format!("/campaigns/apply?campaign={}", FIRST.replace(' ', "%20"))).await;
        assert_eq!(status, StatusCode::OK, "{name}: not a 404");
        assert!(apply.contains("is no longer accepting applications"), "{name}");

        // Resumed, then ended.
        for (status, shown) in [("LIVE", true), ("ended", false)] {
            let r = set_status(&server, &session, &csrf, id, status).await;
            assert_eq!(r.status(), StatusCode::SEE_OTHER, "{name}: {status}");
            assert_eq!(public(&server, "/campaigns").await.1.contains(FIRST), shown, "{name}: {status}");
        }
        // An ended campaign stays ended.
        let r = set_status(&server, &session, &csrf, id, "LIVE").await;
        assert_eq!(r.status(), StatusCode::BAD_REQUEST, "{name}");

        // A new one, with the ended one's name: its name is free again.
        let mut add = form_of(id, &csrf, &[("payouts", "$40-$60")]);
        add.retain(|(k, _)| k != "id");
        let r = send(&server, &session, "/admin/campaigns", &add).await;
        assert_eq!(r.status(), StatusCode::SEE_OTHER, "{name}");
        assert!(public(&server, "/campaigns").await.1.contains("$40-$60"), "{name}");

        // A server started on this store (a restart) shows the store's campaigns from its
        // first page: the console's changes, not the catalogue's list.
        let again = start_with_store(config(&[]), assets::SSR_BUNDLE, std::sync::Arc::clone(&server.state.store)).await;
        assert!(public(&again, "/campaigns").await.1.contains("$40-$60"), "{name}: after a restart");
        assert!(
            campaigns_json(&again).await.contains("\"payouts\":\"$40-$60\""),
            "{name}: and the modal's data after a restart"
        );
        assert_eq!(
            again.state.store.campaigns().await.expect("campaigns").len(),
            56,
            "{name}: imported once only"
        );
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
            let r = send(&server, &session, "/admin/campaigns", &form_of(stored[0].id, &csrf, &changes)).await;
            assert_eq!(r.status(), StatusCode::BAD_REQUEST, "{name}: {changes:?}");
            let html = unescape_html(&r.text().await.expect("body"));
            assert!(html.contains(message), "{name}: {changes:?} says {message:?}");
        }
        // Without the CSRF token.
        let mut forged = form_of(stored[0].id, &csrf, &[("payouts", "$99")]);
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

#[tokio::test]
async fn a_csv_import_is_previewed_then_saved_whole_and_a_bad_line_saves_nothing() {
    for (name, store) in stores().await {
        let server = start_with_store(config(&[]), assets::SSR_BUNDLE, store).await;
        add_staff(&server, "noa@ringready.example").await;
        let session = sign_in(&server, "noa@ringready.example").await;
        let (_, csrf) = page(&server, &session, "/admin/campaigns").await;
        let r = common::admin::get(&server, &session, "/admin/campaigns.csv").await;
        assert_eq!(r.status(), StatusCode::OK, "{name}");
        assert!(r.headers()["content-type"].to_str().unwrap_or("").starts_with("text/csv"), "{name}");
        let exported = r.text().await.expect("csv");
        let lines: Vec<&str> = exported.split("\r\n").filter(|l| !l.is_empty()).collect();
        assert_eq!(lines.len(), 56, "{name}: the header and 55 campaigns");
        assert!(lines[0].starts_with("id,name,status,payout"), "{name}");
        let stored = server.state.store.campaigns().await.expect("campaigns");

        // Line 2's payout raised, a campaign added at the end.
        let changed = lines[1].replacen(",$28,", ",$31,", 1);
        assert_ne!(changed, lines[1], "{name}: the first campaign pays $28");
        let added = ",CSV Added Campaign,LIVE,RTB,Monthly Net 30,\"TX, FL\",,Ask Rep,no,yes,120,HOVER TO SEE,Transfers only.";
        let csv = format!("{}\r\n{changed}\r\n{added}\r\n", lines[0]);
        let preview = send(
            &server,
            &session,
            "/admin/campaigns/import",
            &[("csrf".into(), csrf.clone()), ("csv".into(), csv.clone())],
        )
        .await;
        assert_eq!(preview.status(), StatusCode::OK, "{name}");
        let html = unescape_html(&preview.text().await.expect("body"));
        assert!(
            html.contains("Changed: payouts") && html.contains("Added"),
            "{name}: the preview says what each line does"
        );
        assert_eq!(
            server.state.store.campaigns().await.expect("campaigns"),
            stored,
            "{name}: nothing saved before the confirmation"
        );

        // A bad line refuses the whole import with its number.
        let bad = format!("{}\r\n{changed}\r\n{}\r\n", lines[0], added.replace(",RTB,", ",call us,"));
        let refused = send(
            &server,
            &session,
            "/admin/campaigns/import",
            &[("csrf".into(), csrf.clone()), ("csv".into(), bad), ("confirm".into(), "yes".into())],
        )
        .await;
        assert_eq!(refused.status(), StatusCode::BAD_REQUEST, "{name}");
        assert!(
            unescape_html(&refused.text().await.expect("body")).contains("Line 3: Payout"),
            "{name}"
        );
        assert_eq!(
            server.state.store.campaigns().await.expect("campaigns"),
            stored,
            "{name}: nothing half-applied"
        );

        let saved = send(
            &server,
            &session,
            "/admin/campaigns/import",
            &[("csrf".into(), csrf.clone()), ("csv".into(), csv), ("confirm".into(), "yes".into())],
        )
        .await;
        assert_eq!(saved.status(), StatusCode::SEE_OTHER, "{name}");
        let after = server.state.store.campaigns().await.expect("campaigns");
        assert_eq!(after.len(), 56, "{name}");
        assert_eq!(after[0].fields.payouts, "$31", "{name}");
        let portal = public(&server, "/campaigns").await.1;
        assert!(
            portal.contains("CSV Added Campaign") && portal.contains("$31"),
            "{name}: on the public page"
        );
        let log = server.state.store.audit_log(None, 10).await.expect("audit");
        assert_eq!(log.iter().filter(|l| l.action == "campaign-import").count(), 2, "{name}");
    }
}

#[tokio::test]
async fn an_application_keeps_its_campaigns_through_a_rename() {
    for (name, store) in stores().await {
        let server = start_with_store(config(&[]), assets::SSR_BUNDLE, store).await;
        add_staff(&server, "noa@ringready.example").await;
        let session = sign_in(&server, "noa@ringready.example").await;
        let body = serde_json::json!({
            "firstName": "Jane", "lastName": "Okafor", "email": "jane@leadflow.example", "phone": "(412) 555-0188",
            "company": "LeadFlow Media", "website": "leadflow.example", "experience": "experienced",
            "monthlyVolume": "100-500", "selectedCampaigns": [FIRST], "additionalInfo": "", "hp_website": "",
        });
        let r = server
            .client
            .post(server.url("/api/campaign-applications"))
            .json(&body)
            .send()
            .await
            .expect("post");
        assert_eq!(r.status(), StatusCode::CREATED, "{name}");
        let id = r.json::<serde_json::Value>().await.expect("json")["id"]
            .as_str()
            .expect("id")
            .to_string();
        let stored = server.state.store.campaigns().await.expect("campaigns");
        let record = server.state.store.submission(&id).await.expect("read").expect("stored");
        assert_eq!(
            record.data["selectedCampaignIds"],
            serde_json::json!([stored[0].id]),
            "{name}: by id too"
        );

        let (_, csrf) = page(&server, &session, "/admin/campaigns").await;
        let renamed = send(
            &server,
            &session,
            "/admin/campaigns",
            &form_of(stored[0].id, &csrf, &[("name", "Appliance Repair Calls")]),
        )
        .await;
        assert_eq!(renamed.status(), StatusCode::SEE_OTHER, "{name}");
        let (html, _) = page(&server, &session, &format!("/admin/submissions/{id}")).await;
        let html = unescape_html(&html);
        assert!(html.contains(FIRST), "{name}: the name at the time");
        assert!(
            html.contains("Appliance Repair Calls (LIVE; applied for as \u{201c}Appliance Repair Inbound Calls\u{201d})"),
            "{name}: and the campaign today"
        );
    }
}
