//! The staff console's account requests and campaign applications, on both stores: each
//! kind listed apart, newest first, by keyset pages and by status; a detail page with every
//! field stored; status and note set by a CSRF-protected form, audited.

use crate::common;

use reqwest::StatusCode;
use reqwest::header::LOCATION;
use serde_json::json;
use site_server::assets;
use site_server::leads::RequestContext;
use site_server::store::{NewSubmission, SubmissionKind};

use common::admin::{add_staff, get, page, post, sign_in};
use common::stores::stores;
use common::{TestServer, config, start_with_store, unescape_html};

fn submission(kind: SubmissionKind, n: usize) -> NewSubmission {
    let email = format!("person{n}@example.com");
    NewSubmission {
        kind,
        email,
        phone: Some("+14125550134".into()),
        data: json!({ "businessName": format!("Business {n}"), "accountType": "contractor", "hp_website": "" }),
        context: RequestContext {
            ip: Some("203.0.113.7".into()),
            user_agent: Some("Mozilla/5.0 (test)".into()),
            page_url: Some("https://www.ringready.example/accounts".into()),
            ..Default::default()
        },
    }
}

/// The ids of the submissions a list page links to, in order.
fn listed(html: &str) -> Vec<String> {
    html.split("href=\"/admin/submissions/")
        .skip(1)
        .filter_map(|s| s.split('"').next())
        .map(str::to_string)
        .collect()
}

async fn servers() -> Vec<(&'static str, TestServer)> {
    let mut out = Vec::new();
    for (name, store) in stores().await {
        out.push((name, start_with_store(config(&[]), assets::SSR_BUNDLE, store).await));
    }
    out
}

#[tokio::test]
async fn each_kind_is_listed_newest_first_by_keyset_pages_and_by_status() {
    for (name, server) in servers().await {
        add_staff(&server, "ivy@ringready.example").await;
        let session = sign_in(&server, "ivy@ringready.example").await;
        let store = &server.state.store;
        let base = 1_700_000_000_000_i64;
        let mut requests = Vec::new();
        for n in 0..53 {
            let s = store
                .submit_form(submission(SubmissionKind::AccountRequest, n), None, base + n as i64 * 1000)
                .await
                .expect("stored");
            requests.push(s.id);
        }
        let application = store
            .submit_form(submission(SubmissionKind::CampaignApplication, 99), None, base + 500_000)
            .await
            .expect("stored")
            .id;
        requests.reverse();

        let (html, _) = page(&server, &session, "/admin/account-requests").await;
        assert_eq!(listed(&html), requests[..50], "{name}: the 50 newest");
        assert!(
            html.contains("Business 52") && html.contains("person52@example.com") && html.contains("(412) 555-0134"),
            "{name}"
        );
        let html = unescape_html(&html);
        let next = html
            .split("href=\"")
            .find(|s| s.starts_with("/admin/account-requests?before="))
            .expect("older link");
        let next = next.split('"').next().expect("href");
        let (older, _) = page(&server, &session, next).await;
        assert_eq!(listed(&older), requests[50..], "{name}: the rest");

        let (html, _) = page(&server, &session, "/admin/applications").await;
        assert_eq!(listed(&html), std::slice::from_ref(&application), "{name}: applications apart");

        let r = get(&server, &session, "/admin/account-requests?status=lost").await;
        assert_eq!(r.status(), StatusCode::OK);
        let html = unescape_html(&r.text().await.expect("body"));
        assert!(listed(&html).is_empty() && html.contains("There is no such status."), "{name}");
        let (html, _) = page(&server, &session, "/admin/account-requests?status=approved").await;
        assert!(listed(&html).is_empty(), "{name}: none approved yet");
    }
}

#[tokio::test]
async fn staff_set_a_status_and_a_note_with_the_form_and_it_is_audited() {
    for (name, server) in servers().await {
        add_staff(&server, "ivy@ringready.example").await;
        let session = sign_in(&server, "ivy@ringready.example").await;
        let store = &server.state.store;
        let id = store
            .submit_form(
                submission(SubmissionKind::CampaignApplication, 1),
                None,
                site_server::store::now_ms(),
            )
            .await
            .expect("stored")
            .id;
        let path = format!("/admin/submissions/{id}");
        let (html, csrf) = page(&server, &session, &path).await;
        let text = unescape_html(&html);
        for expected in [
            "Campaign application",
            "Business name",
            "Business 1",
            "Account type",
            "person1@example.com",
            "203.0.113.7",
            "(412) 555-0134",
        ] {
            assert!(text.contains(expected), "{name}: {expected}");
        }
        assert!(!text.contains("Hp website"), "{name}: the honeypot is not a field");

        let r = post(&server, &session, &path, &[("status", "approved"), ("note", "Called back")]).await;
        assert_eq!(r.status(), StatusCode::FORBIDDEN, "{name}: no CSRF token");
        assert_eq!(store.submission(&id).await.expect("read").expect("found").status, "new", "{name}");

        let r = post(&server, &session, &path, &[("csrf", &csrf), ("status", "done"), ("note", "x")]).await;
        assert_eq!(r.status(), StatusCode::BAD_REQUEST, "{name}");
        assert!(
            unescape_html(&r.text().await.expect("body")).contains("Choose one of the statuses"),
            "{name}"
        );

        let r = post(
            &server,
            &session,
            &path,
            &[("csrf", &csrf), ("status", "contacted"), ("note", "  Called back, wants a demo \n")],
        )
        .await;
        assert_eq!(r.status(), StatusCode::SEE_OTHER, "{name}");
        assert_eq!(r.headers()[LOCATION], format!("{path}?done=saved"));
        let stored = store.submission(&id).await.expect("read").expect("found");
        assert_eq!(
            (stored.status.as_str(), stored.note.as_deref()),
            ("contacted", Some("Called back, wants a demo")),
            "{name}"
        );
        let log = store.audit_log(None, 1).await.expect("audit");
        assert_eq!(log[0].action, "review", "{name}");
        assert_eq!(log[0].target.as_deref(), Some(format!("submission:{id}").as_str()), "{name}");
        assert_eq!(log[0].staff_email.as_deref(), Some("ivy@ringready.example"), "{name}");

        let (html, _) = page(&server, &session, &format!("{path}?done=saved")).await;
        assert!(html.contains("Saved.") && html.contains("Called back, wants a demo"), "{name}");
        let (html, _) = page(&server, &session, "/admin/applications?status=contacted").await;
        assert_eq!(listed(&html), std::slice::from_ref(&id), "{name}");

        let r = get(&server, &session, "/admin/submissions/nope").await;
        assert_eq!(r.status(), StatusCode::NOT_FOUND, "{name}");
        let r = post(
            &server,
            &session,
            "/admin/submissions/nope",
            &[("csrf", &csrf), ("status", "contacted")],
        )
        .await;
        assert_eq!(r.status(), StatusCode::NOT_FOUND, "{name}");
    }
}

/// Posts a form's JSON and returns the stored id.
async fn send(server: &TestServer, path: &str, body: serde_json::Value) -> String {
    let r = server.client.post(server.url(path)).json(&body).send().await.expect("post");
    assert_eq!(r.status(), StatusCode::CREATED, "{path}");
    r.json::<serde_json::Value>().await.expect("json")["id"]
        .as_str()
        .expect("id")
        .to_string()
}

/// The text of the list row that links to `id`.
fn row_text(html: &str, id: &str) -> String {
    let at = html.find(&format!("href=\"/admin/submissions/{id}\"")).expect("row");
    let start = html[..at].rfind("<tr").expect("row start");
    let end = at + html[at..].find("</tr>").expect("row end");
    let mut text = String::new();
    let mut in_tag = false;
    for c in html[start..end].chars() {
        match c {
            '<' => in_tag = true,
            '>' => {
                in_tag = false;
                text.push(' ');
            }
            _ if !in_tag => text.push(c),
            _ => {}
        }
    }
    unescape_html(&text.split_whitespace().collect::<Vec<_>>().join(" "))
}

#[tokio::test]
async fn the_lists_name_the_person_and_their_company_beside_it_when_there_is_one() {
    for (name, server) in servers().await {
        add_staff(&server, "ivy@ringready.example").await;
        let session = sign_in(&server, "ivy@ringready.example").await;
        let homeowner = send(
            &server,
            "/api/account-requests",
            json!({
                "source": "registration", "accountType": "homeowner", "firstName": "Dana", "lastName": "Whitfield",
                "email": "dana@example.com", "phone": "(412) 555-0134", "address": "118 Maple Street, Erie, PA 16501",
                "propertyType": "single-family", "serviceNeeds": "Roof leak over the kitchen.", "hp_website": ""
            }),
        )
        .await;
        let contractor = send(
            &server,
            "/api/account-requests",
            json!({
                "source": "request", "accountType": "call-buyer", "firstName": "Luis", "lastName": "Ortega",
                "email": "luis@ortegaroofing.example", "phone": "814-555-0177", "companyName": "Ortega Roofing LLC",
                "businessType": "roofing", "monthlyBudget": "2500-5000", "serviceAreas": "Erie County, PA", "hp_website": ""
            }),
        )
        .await;
        let application = send(
            &server,
            "/api/campaign-applications",
            json!({
                "firstName": "Jane", "lastName": "Okafor", "email": "jane@leadflow.example", "phone": "(412) 555-0188",
                "company": "LeadFlow Media", "website": "leadflow.example", "experience": "experienced",
                "monthlyVolume": "100-500", "selectedCampaigns": ["HVAC Repair Transfers"], "additionalInfo": "", "hp_website": ""
            }),
        )
        .await;
        let (html, _) = page(&server, &session, "/admin/account-requests").await;
        let row = row_text(&html, &homeowner);
        assert!(row.contains(" Dana Whitfield dana@example.com "), "{name}: {row}");
        let row = row_text(&html, &contractor);
        assert!(
            row.contains(" Luis Ortega (Ortega Roofing LLC) luis@ortegaroofing.example "),
            "{name}: {row}"
        );
        let (html, _) = page(&server, &session, "/admin/applications").await;
        let row = row_text(&html, &application);
        assert!(
            row.contains(" Jane Okafor (LeadFlow Media) jane@leadflow.example "),
            "{name}: {row}"
        );
    }
}
