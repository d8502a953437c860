//! POST /api/campaign-applications over real HTTP, on SQLite and (with TEST_DATABASE_URL) on
//! PostgreSQL: the shared vectors, repeats, the staff e-mail through the real SMTP server,
//! the lead API's limits and the no-JavaScript apply page. Hostile bodies: in
//! campaign_applications_hostile.rs beside this file.

use crate::common;

use std::sync::Arc;

use reqwest::StatusCode;
use reqwest::header::{CACHE_CONTROL, CONTENT_TYPE, LOCATION, RETRY_AFTER};
use serde_json::{Value, json};
use site_server::applications::validate::{MSG_CAMPAIGN_UNAVAILABLE, MSG_CAMPAIGNS, MSG_LAST_NAME};
use site_server::store::{Outbox, Store, SubmissionKind};

use common::stores::stores;

const PATH: &str = "/api/campaign-applications";

fn open_limit() -> site_server::config::Config {
    common::config(&[("RATE_LIMIT_PER_MINUTE", "100000")])
}

async fn server_on(store: Arc<Store>, config: site_server::config::Config) -> common::TestServer {
    common::start_with_store(config, site_server::assets::SSR_BUNDLE, store).await
}

fn valid(email: &str) -> Value {
    json!({
        "firstName": "Jane",
        "lastName": "Okafor",
        "email": email,
        "phone": "(412) 555-0188",
        "company": "LeadFlow Media",
        "website": "leadflow.example",
        "experience": "experienced",
        "monthlyVolume": "100-500",
        "selectedCampaigns": ["HVAC Repair Transfers", "Roofing Inbound Calls"],
        "additionalInfo": "Search and native traffic.",
        "hp_website": "",
    })
}

async fn post(s: &common::TestServer, body: &Value) -> reqwest::Response {
    s.client.post(s.url(PATH)).json(body).send().await.expect("post")
}

async fn error_of(r: reqwest::Response) -> (StatusCode, String) {
    let status = r.status();
    assert!(
        r.headers()[CONTENT_TYPE].to_str().expect("type").starts_with("application/json"),
        "{status} must be JSON"
    );
    assert_eq!(r.headers()[CACHE_CONTROL], "no-store");
    let body: Value = r.json().await.expect("json body");
    (status, body["error"].as_str().expect("error field").to_string())
}

async fn id_of(r: reqwest::Response) -> (StatusCode, String) {
    let status = r.status();
    let body: Value = r.json().await.expect("json body");
    (status, body["id"].as_str().expect("id").to_string())
}

/// How many applications the server accepted, by its metrics.
async fn accepted(s: &common::TestServer) -> u64 {
    let text = s.metrics().await;
    text.lines()
        .find_map(|l| l.strip_prefix("site_submissions_total{kind=\"campaign_application\",outcome=\"accepted\"} "))
        .map_or(0, |n| n.parse().expect("count"))
}

#[tokio::test]
async fn the_shared_validation_vectors() {
    let s = common::start_with(open_limit(), site_server::assets::SSR_BUNDLE).await;
    let file: Value = serde_json::from_str(include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../catalogue/cases/campaign-applications.json"
    )))
    .expect("cases");
    let cases = file["cases"].as_array().expect("cases");
    assert!(cases.len() >= 40);
    for (n, case) in cases.iter().enumerate() {
        let name = case["name"].as_str().expect("name");
        let mut body = case["body"].clone();
        // Each its own person, so no valid vector is a repeat of another.
        if case["error"].is_null() {
            body["email"] = json!(format!("vector{n}@leadflow.example"));
        }
        let r = post(&s, &body).await;
        match case["error"].as_str() {
            Some(expected) => {
                let (status, message) = error_of(r).await;
                assert_eq!((status, message.as_str()), (StatusCode::BAD_REQUEST, expected), "{name}");
            }
            None => {
                let (status, id) = id_of(r).await;
                assert_eq!(status, StatusCode::CREATED, "{name}");
                let stored = s.state.store.submission(&id).await.expect("read").expect("stored");
                assert_eq!(stored.kind, SubmissionKind::CampaignApplication, "{name}");
                let want = &case["application"];
                for field in [
                    "firstName",
                    "lastName",
                    "phone",
                    "company",
                    "experience",
                    "monthlyVolume",
                    "selectedCampaigns",
                ] {
                    assert_eq!(stored.data[field], want[field], "{name}: {field}");
                }
                let or_null = |v: &Value| if v == "" { Value::Null } else { v.clone() };
                assert_eq!(stored.data["website"], or_null(&want["website"]), "{name}: website");
                assert_eq!(
                    stored.data["additionalInfo"],
                    or_null(&want["additionalInfo"]),
                    "{name}: additionalInfo"
                );
                assert_eq!(stored.email, format!("vector{n}@leadflow.example"), "{name}");
            }
        }
    }
}

/// The page address the modal sends is kept only when it is a web address by the one rule
/// of every form (`forms::is_web_url`): otherwise the Referer the server saw stands.
#[tokio::test]
async fn a_page_address_that_is_not_a_clean_web_address_is_not_kept() {
    for (name, store) in stores().await {
        let s = server_on(Arc::clone(&store), open_limit()).await;
        let referer = "https://www.ringready.example/campaigns";
        for (n, page) in [
            "https://www.ringready.example/campaigns\"><b>x</b>",
            "https://www.ringready.example/\u{202e}lmth",
            "javascript:alert(1)",
        ]
        .into_iter()
        .enumerate()
        {
            let mut body = valid(&format!("page{n}@leadflow.example"));
            body["pageUrl"] = json!(page);
            let r = s
                .client
                .post(s.url(PATH))
                .header("referer", referer)
                .json(&body)
                .send()
                .await
                .expect("post");
            let (status, id) = id_of(r).await;
            assert_eq!(status, StatusCode::CREATED, "{name}: {page}");
            let stored = store.submission(&id).await.expect("read").expect("stored");
            assert_eq!(stored.page_url.as_deref(), Some(referer), "{name}: {page}");
        }
    }
}

#[tokio::test]
async fn applications_are_stored_on_both_stores_and_only_an_identical_one_is_a_repeat() {
    for (name, store) in stores().await {
        let s = server_on(Arc::clone(&store), open_limit()).await;
        let mut body = valid("Jane@LeadFlow.example");
        body["pageUrl"] = json!("https://www.ringready.example/campaigns?utm_source=x");
        let (status, id) = id_of(post(&s, &body).await).await;
        assert_eq!(status, StatusCode::CREATED, "{name}");
        let stored = store.submission(&id).await.expect("read").expect("stored");
        assert_eq!(stored.kind, SubmissionKind::CampaignApplication, "{name}");
        assert_eq!(stored.email, "jane@leadflow.example", "{name}");
        assert_eq!(stored.phone.as_deref(), Some("+14125550188"), "{name}");
        assert_eq!(
            stored.page_url.as_deref(),
            Some("https://www.ringready.example/campaigns?utm_source=x"),
            "{name}"
        );
        assert_eq!(stored.data["website"], "https://leadflow.example", "{name}");
        assert_eq!(
            stored.data["selectedCampaigns"],
            json!(["Roofing Inbound Calls", "HVAC Repair Transfers"]),
            "{name}: catalogue order"
        );
        assert_eq!(stored.data["source"], "Campaign Portal Application", "{name}");

        // The same application again within 10 minutes (the address in another case, the
        // campaigns in another order): answered exactly like a new one, with an id of its
        // own, and not stored again.
        let mut again = valid("jane@leadflow.EXAMPLE");
        again["selectedCampaigns"] = json!(["Roofing Inbound Calls", "HVAC Repair Transfers"]);
        let (status, repeat) = id_of(post(&s, &again).await).await;
        assert_eq!(status, StatusCode::CREATED, "{name}");
        assert_ne!(repeat, id, "{name}");
        assert!(store.submission(&repeat).await.expect("read").is_none(), "{name}: not stored");
        // Someone else with the same address and campaigns is not a repeat of it.
        again["firstName"] = json!("Mallory");
        let (status, other) = id_of(post(&s, &again).await).await;
        assert_eq!(status, StatusCode::CREATED, "{name}");
        assert!(store.submission(&other).await.expect("read").is_some(), "{name}: stored");
        // Another campaign set is another application.
        again["selectedCampaigns"] = json!(["Roofing Inbound Calls"]);
        let (status, other) = id_of(post(&s, &again).await).await;
        assert_eq!(status, StatusCode::CREATED, "{name}");
        assert_ne!(other, id, "{name}");
        assert_eq!(accepted(&s).await, 3, "{name}");
    }
}

#[tokio::test]
async fn the_staff_e_mail_reaches_the_real_smtp_server_from_both_stores() {
    let smtp = common::SmtpServer::start().await;
    let mut delivered = 0;
    for (name, store) in stores().await {
        let overlay: toml::Table = format!(
            "[notify]\nsmtp_url = \"{}\"\nrecipients = [\"partners@ringready.example\"]\n[api]\nrate_limit_per_minute = 100000",
            smtp.url()
        )
        .parse()
        .expect("toml");
        let config = site_server::config::Config::build(Some(overlay), &[]).expect("config");
        let s = server_on(Arc::clone(&store), config).await;
        let mut body = valid(&format!("{name}@leadflow.example"));
        body["firstName"] = json!(format!("Jane-{name}"));
        body["website"] = json!("");
        body["additionalInfo"] = json!("");
        let (status, id) = id_of(post(&s, &body).await).await;
        assert_eq!(status, StatusCode::CREATED, "{name}");
        delivered += 1;
        let messages = smtp.wait_for(delivered, 15).await;
        let text = messages
            .iter()
            .map(|m| common::unfold_qp(m))
            .find(|m| m.contains(&id))
            .unwrap_or_else(|| panic!("{name}: no message names {id}"));
        for line in [
            "To: partners@ringready.example".to_string(),
            format!("Subject: New Campaign Application - Jane-{name} Okafor"),
            format!("Email: {name}@leadflow.example"),
            "Website: Not provided".into(),
            "Experience: Experienced (2+ years)".into(),
            "Expected monthly volume: 100-500 leads".into(),
            "- Roofing Inbound Calls".into(),
            "- HVAC Repair Transfers".into(),
            "None provided".into(),
            "Source: Campaign Portal Application".into(),
        ] {
            assert!(text.contains(&line), "{name}: {line:?} in\n{text}");
        }
        assert!(text.contains("Application date: 20"), "{name}: {text}");
        // A repeat is answered like a new application and sends nothing more.
        let (status, repeat) = id_of(post(&s, &body).await).await;
        assert_eq!(status, StatusCode::CREATED, "{name}");
        assert_ne!(repeat, id, "{name}");
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        let counts = store.outbox_counts(Outbox::Mail).await.expect("counts");
        assert_eq!((counts.pending, counts.delivered), (0, 1), "{name}");
    }
}

#[tokio::test]
async fn unknown_campaigns_are_refused_and_nothing_is_kept() {
    let s = common::start_with(open_limit(), site_server::assets::SSR_BUNDLE).await;
    for campaigns in [
        json!(["Timeshare Exit Transfers"]),
        json!(["Roofing Inbound Calls", "roofing inbound calls"]),
        json!([""]),
    ] {
        let mut body = valid("unknown@leadflow.example");
        body["selectedCampaigns"] = campaigns.clone();
        assert_eq!(
            error_of(post(&s, &body).await).await,
            (StatusCode::BAD_REQUEST, MSG_CAMPAIGN_UNAVAILABLE.to_string()),
            "{campaigns}"
        );
    }
    let mut body = valid("none@leadflow.example");
    body["selectedCampaigns"] = json!([]);
    assert_eq!(
        error_of(post(&s, &body).await).await,
        (StatusCode::BAD_REQUEST, MSG_CAMPAIGNS.to_string())
    );
    assert_eq!(accepted(&s).await, 0);
}

#[tokio::test]
async fn the_lead_api_limits_apply() {
    let s = common::start_with(common::config(&[("RATE_LIMIT_PER_MINUTE", "4")]), site_server::assets::SSR_BUNDLE).await;
    // 413: over 16 KB.
    let mut big = valid("big@leadflow.example");
    big["additionalInfo"] = json!("x".repeat(17_000));
    assert_eq!(error_of(post(&s, &big).await).await.0, StatusCode::PAYLOAD_TOO_LARGE);
    // 415: neither JSON nor a form.
    let r = s
        .client
        .post(s.url(PATH))
        .header(CONTENT_TYPE, "text/plain")
        .body("hi")
        .send()
        .await
        .expect("post");
    assert_eq!(
        error_of(r).await,
        (StatusCode::UNSUPPORTED_MEDIA_TYPE, site_server::api::MSG_MEDIA_TYPE.to_string())
    );
    // The honeypot: told it worked, nothing kept.
    let mut bot = valid("bot@leadflow.example");
    bot["hp_website"] = json!("https://spam.example");
    let (status, id) = id_of(post(&s, &bot).await).await;
    assert_eq!(status, StatusCode::CREATED);
    assert!(s.state.store.submission(&id).await.expect("read").is_none());
    assert_eq!(accepted(&s).await, 0);
    // 429 with Retry-After once the IP's 4 a minute are spent (the three above and this one).
    assert_eq!(post(&s, &valid("fourth@leadflow.example")).await.status(), StatusCode::CREATED);
    let r = post(&s, &valid("fifth@leadflow.example")).await;
    let wait: u64 = r.headers()[RETRY_AFTER].to_str().expect("ascii").parse().expect("seconds");
    assert!((1..=60).contains(&wait));
    assert_eq!(
        error_of(r).await,
        (StatusCode::TOO_MANY_REQUESTS, site_server::api::MSG_RATE_LIMITED.to_string())
    );
}

#[tokio::test]
async fn the_apply_page_works_without_javascript() {
    let s = common::start_with(open_limit(), site_server::assets::SSR_BUNDLE).await;
    let r = s.get("/campaigns/apply?campaign=Windows%20%26%20Doors%20Transfers").await;
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(r.headers()[CACHE_CONTROL], "no-store");
    let html = r.text().await.expect("html");
    assert!(html.contains("<form method=\"post\" action=\"/api/campaign-applications\""));
    assert!(
        html.contains("Applying for: <strong>Windows &#38; Doors Transfers</strong>"),
        "{html}"
    );
    assert_eq!(html.matches(" checked ").count(), 1, "one campaign chosen");
    assert_eq!(
        html.matches("name=\"selectedCampaigns\"").count(),
        s.state.catalogue.campaigns.len()
    );
    for option in ["Beginner (0-6 months)", "Expert (5+ years)", "1-50 leads", "1000+ leads"] {
        assert!(html.contains(option), "{option}");
    }
    // An unknown or malformed name chooses nothing; the page still answers.
    for query in ["?campaign=No%20Such", "?campaign=%ZZ%", "?campaign", ""] {
        let r = s.get(&format!("/campaigns/apply{query}")).await;
        assert_eq!(r.status(), StatusCode::OK, "{query}");
        assert!(!r.text().await.expect("html").contains(" checked "), "{query}");
    }

    // A form post with two campaigns (the key repeated), answered with a redirect.
    let form = "firstName=Omar&lastName=Haddad&email=omar%40leadflow.example&phone=412-555-0199&company=Haddad+Media\
        &website=&experience=beginner&monthlyVolume=1-50&selectedCampaigns=Windows+%26+Doors+Transfers\
        &selectedCampaigns=Roofing+Inbound+Calls&additionalInfo=&hp_website=";
    let r = s
        .client
        .post(s.url(PATH))
        .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(form)
        .send()
        .await
        .expect("post");
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    assert_eq!(r.headers()[LOCATION], "/campaigns/applied");
    let done = s.get("/campaigns/applied").await;
    assert_eq!(done.status(), StatusCode::OK);
    assert!(done.text().await.expect("html").contains("Application Submitted!"));
    assert_eq!(accepted(&s).await, 1);

    // A refused post: the page again, values kept and escaped, the first rule's message.
    let form = "firstName=%3Cb%3EOmar%3C%2Fb%3E&lastName=+&email=omar%40leadflow.example&selectedCampaigns=Roofing+Inbound+Calls&experience=expert";
    let r = s
        .client
        .post(s.url(PATH))
        .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(form)
        .send()
        .await
        .expect("post");
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    assert!(r.headers()[CONTENT_TYPE].to_str().expect("type").starts_with("text/html"));
    let html = r.text().await.expect("html");
    assert!(html.contains("Application Error") && html.contains(MSG_LAST_NAME), "{html}");
    assert!(html.contains("value=\"&#60;b&#62;Omar&#60;/b&#62;\""), "values kept, escaped");
    assert!(html.contains("<option value=\"expert\" selected>"));
    assert_eq!(html.matches(" checked ").count(), 1);
    assert_eq!(accepted(&s).await, 1);
}

const REQUIRED: [&str; 8] = [
    "firstName",
    "lastName",
    "email",
    "phone",
    "company",
    "experience",
    "monthlyVolume",
    "selectedCampaigns",
];

#[test]
fn openapi_yaml_documents_every_field() {
    let doc: Value =
        serde_saphyr::from_str(include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../openapi.yaml"))).expect("openapi.yaml parses");
    let schema = &doc["components"]["schemas"]["CampaignApplication"];
    for field in REQUIRED.iter().chain(&["website", "additionalInfo", "pageUrl", "hp_website"]) {
        assert!(schema["properties"].get(*field).is_some(), "CampaignApplication documents {field}");
    }
    assert_eq!(schema["required"], json!(REQUIRED));
    let options = |name: &str| -> Vec<String> {
        schema["properties"][name]["enum"]
            .as_array()
            .expect("enum")
            .iter()
            .map(|v| v.as_str().expect("text").to_string())
            .collect()
    };
    let values = |table: &[(&str, &str)]| -> Vec<String> { table.iter().map(|(v, _)| v.to_string()).collect() };
    assert_eq!(options("experience"), values(&site_server::applications::EXPERIENCE));
    assert_eq!(options("monthlyVolume"), values(&site_server::applications::MONTHLY_VOLUME));
}
