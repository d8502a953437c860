//! Data requests in the staff console, on both stores: every record of a person found by a
//! phone number typed in any format or by e-mail; deleted on request, leads erased down to
//! their consent record (kept, as the law requires), submissions deleted, each one audited;
//! other people's records untouched.

mod common;

use reqwest::StatusCode;
use reqwest::header::LOCATION;
use serde_json::json;
use site_server::assets;
use site_server::leads::RequestContext;
use site_server::store::{NewSubmission, SubmissionKind};

use common::admin::{add_staff, page, post, sign_in};
use common::stores::stores;
use common::{TestServer, config, lead_body, start_with_store, unescape_html};

fn submission(kind: SubmissionKind, email: &str, phone: &str) -> NewSubmission {
    NewSubmission {
        kind,
        dedupe_key: format!("{}|{email}", kind.as_str()),
        email: email.into(),
        phone: Some(phone.into()),
        data: json!({ "businessName": "Whitfield Heating" }),
        context: RequestContext {
            ip: Some("203.0.113.7".into()),
            ..Default::default()
        },
    }
}

async fn submit_lead(server: &TestServer, phone: &str) -> String {
    let r = server
        .client
        .post(server.url("/.netlify/functions/submit-lead"))
        .header("referer", "https://www.ringready.example/hvac?utm_source=google")
        .json(&lead_body("hvac", phone))
        .send()
        .await
        .expect("post");
    assert_eq!(r.status(), StatusCode::CREATED);
    r.json::<serde_json::Value>().await.expect("json")["id"]
        .as_str()
        .expect("id")
        .to_string()
}

#[tokio::test]
async fn a_persons_records_are_found_and_deleted_keeping_the_consent_record() {
    for (name, store) in stores().await {
        let server = start_with_store(config(&[]), assets::SSR_BUNDLE, store).await;
        add_staff(&server, "cy@ringready.example").await;
        let session = sign_in(&server, "cy@ringready.example").await;
        let store = &server.state.store;
        let now = site_server::store::now_ms();
        let lead = submit_lead(&server, "(412) 555-0134").await;
        let other_lead = submit_lead(&server, "(412) 555-0199").await;
        let request = store
            .submit_form(
                submission(SubmissionKind::AccountRequest, "dana@example.com", "+14125550134"),
                None,
                now,
            )
            .await
            .expect("stored")
            .id;
        let by_email = store
            .submit_form(
                submission(SubmissionKind::CampaignApplication, "dana@example.com", "+14125550100"),
                None,
                now,
            )
            .await
            .expect("stored")
            .id;
        let other = store
            .submit_form(
                submission(SubmissionKind::AccountRequest, "lee@example.com", "+14125550199"),
                None,
                now,
            )
            .await
            .expect("stored")
            .id;
        let before = store.lead_detail(&lead).await.expect("read").expect("lead").lead;

        let (html, csrf) = page(&server, &session, "/admin/data-requests?q=412.555.0134").await;
        assert!(
            html.contains(&format!("/admin/leads/{lead}")) && html.contains(&format!("/admin/submissions/{request}")),
            "{name}"
        );
        assert!(
            !html.contains(&other_lead) && !html.contains(&by_email) && !html.contains(&other),
            "{name}: only this number's"
        );
        let (html, _) = page(&server, &session, "/admin/data-requests?q=Dana%40Example.com").await;
        assert!(
            html.contains(&request) && html.contains(&by_email) && !html.contains(&lead),
            "{name}: by e-mail"
        );
        let (html, _) = page(&server, &session, "/admin/data-requests?q=555-01").await;
        assert!(
            unescape_html(&html).contains("neither a US phone number nor an e-mail address"),
            "{name}"
        );

        let r = post(&server, &session, "/admin/data-requests/erase", &[("q", "412.555.0134")]).await;
        assert_eq!(r.status(), StatusCode::FORBIDDEN, "{name}: no CSRF token");
        assert!(store.submission(&request).await.expect("read").is_some(), "{name}");

        let r = post(
            &server,
            &session,
            "/admin/data-requests/erase",
            &[("csrf", &csrf), ("q", "+1 412 555 0134")],
        )
        .await;
        assert_eq!(r.status(), StatusCode::SEE_OTHER, "{name}");
        assert!(r.headers()[LOCATION].to_str().expect("location").ends_with("&done=1.1"), "{name}");

        let after = store.lead_detail(&lead).await.expect("read").expect("the consent record is kept");
        assert!(after.erased_ms.is_some(), "{name}");
        let l = after.lead;
        assert_eq!(
            (
                &l.consent_text,
                &l.consent_sha256,
                &l.cert_url,
                &l.cert_token,
                &l.ip,
                l.received_at_ms,
                &l.phone
            ),
            (
                &before.consent_text,
                &before.consent_sha256,
                &before.cert_url,
                &before.cert_token,
                &before.ip,
                before.received_at_ms,
                &before.phone
            ),
            "{name}: the consent record"
        );
        assert!(
            before.ip.is_some() && before.utm_source.is_some(),
            "{name}: there was something to erase"
        );
        assert_eq!(l.full_name, "", "{name}");
        assert_eq!(
            (&l.zip_code, &l.user_agent, &l.page_url, &l.referrer, &l.utm_source),
            (&None, &None, &None, &None, &None),
            "{name}"
        );
        assert!(store.submission(&request).await.expect("read").is_none(), "{name}: deleted");
        assert!(store.submission(&by_email).await.expect("read").is_some(), "{name}: another number");
        assert!(store.submission(&other).await.expect("read").is_some(), "{name}");
        let untouched = store.lead_detail(&other_lead).await.expect("read").expect("lead");
        assert!(
            untouched.erased_ms.is_none() && untouched.lead.full_name == "Maria Gonzalez",
            "{name}"
        );

        let log = store.audit_log(None, 10).await.expect("audit");
        let targets: Vec<(&str, &str)> = log.iter().map(|e| (e.action.as_str(), e.target.as_deref().unwrap_or(""))).collect();
        assert!(targets.contains(&("erase", format!("lead:{lead}").as_str())), "{name}: {targets:?}");
        assert!(
            targets.contains(&("delete", format!("submission:{request}").as_str())),
            "{name}: {targets:?}"
        );

        let (html, _) = page(&server, &session, "/admin/data-requests?q=%2B14125550134&done=1.1").await;
        assert!(
            html.contains("consent record kept") && !html.contains("Delete these records"),
            "{name}: nothing left to delete"
        );

        let r = post(
            &server,
            &session,
            "/admin/data-requests/erase",
            &[("csrf", &csrf), ("q", "DANA@example.com")],
        )
        .await;
        assert!(r.headers()[LOCATION].to_str().expect("location").ends_with("&done=0.1"), "{name}");
        assert!(store.submission(&by_email).await.expect("read").is_none(), "{name}");
        assert!(store.submission(&other).await.expect("read").is_some(), "{name}");
    }
}
