//! POST /api/account-requests over real HTTP, on SQLite and (with TEST_DATABASE_URL) on
//! PostgreSQL: the shared vectors, repeats, the staff e-mail in the real SMTP server, the
//! lead API's limits, hostile bodies, the no-JavaScript form path and the /register pages.

use crate::common;

use std::collections::BTreeSet;
use std::sync::Arc;

use reqwest::StatusCode;
use reqwest::header::{CONTENT_TYPE, LOCATION};
use serde_json::{Value, json};
use site_server::store::{Outbox, Store};

use common::stores::stores;

const PATH: &str = "/api/account-requests";

/// A server on `store` whose e-mail goes to `smtp`, with the rate limit out of the way.
async fn server(store: Arc<Store>, smtp: Option<&common::SmtpServer>, env: &[(&str, &str)]) -> common::TestServer {
    let mut vars = vec![("RATE_LIMIT_PER_MINUTE", "100000"), ("NOTIFY_RETRY_BASE_MS", "100")];
    let url = smtp.map(common::SmtpServer::url);
    if let Some(url) = &url {
        vars.push(("SMTP_URL", url.as_str()));
        vars.push(("NOTIFY_RECIPIENTS", "sales@ringready.example"));
    }
    vars.extend_from_slice(env);
    common::start_with_store(common::config(&vars), site_server::assets::SSR_BUNDLE, store).await
}

async fn post(s: &common::TestServer, body: &Value) -> reqwest::Response {
    s.client.post(s.url(PATH)).json(body).send().await.expect("post")
}

fn vectors() -> Vec<Value> {
    let file: Value = serde_json::from_str(include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../catalogue/cases/account-requests.json"
    )))
    .expect("vectors");
    file["cases"].as_array().expect("cases").clone()
}

/// What JavaScript's trim() leaves.
fn trim(s: &str) -> &str {
    site_server::forms::js_trim(s)
}

#[tokio::test]
async fn the_shared_vectors_on_both_stores_with_their_e_mails() {
    let cases = vectors();
    assert!(cases.len() >= 100, "{} vectors", cases.len());
    for (db, store) in stores().await {
        let smtp = common::SmtpServer::start().await;
        let s = server(Arc::clone(&store), Some(&smtp), &[]).await;
        let mut subjects = BTreeSet::new();
        for case in &cases {
            let name = format!("{db}: {}", case["name"].as_str().expect("name"));
            let body = &case["body"];
            let r = post(&s, body).await;
            let status = r.status();
            assert_eq!(r.headers()["cache-control"], "no-store", "{name}");
            let answer: Value = r.json().await.expect("json");
            match case["error"].as_str() {
                Some(expected) => {
                    assert_eq!(status, StatusCode::BAD_REQUEST, "{name}");
                    assert_eq!(answer, json!({ "error": expected }), "{name}");
                }
                None => {
                    assert_eq!(status, StatusCode::CREATED, "{name}: {answer}");
                    let id = answer["id"].as_str().expect("id");
                    let stored = store.submission(id).await.expect("read").expect("stored");
                    let email = trim(body["email"].as_str().expect("email"));
                    assert_eq!(stored.email, email.to_lowercase(), "{name}");
                    assert_eq!(stored.data["source"], body["source"], "{name}");
                    assert_eq!(stored.data["accountType"], body["accountType"], "{name}");
                    for (field, value) in stored.data.as_object().expect("object") {
                        if field != "source" && field != "accountType" {
                            assert_eq!(
                                Some(value.as_str().expect("text")),
                                body[field].as_str().map(trim),
                                "{name}: {field}"
                            );
                        }
                    }
                    for absent in ["password", "confirmPassword", "hp_website", "favoriteColor"] {
                        assert!(stored.data.get(absent).is_none(), "{name}: {absent} is not kept");
                    }
                    subjects.insert(case["subject"].as_str().expect("subject").to_string());
                }
            }
        }
        // Every accepted request's e-mail reached the real SMTP server, with the draft's subject.
        let accepted = cases.iter().filter(|c| c["error"].is_null()).count();
        let messages = smtp.wait_for(accepted, 30).await;
        let received: BTreeSet<String> = messages.iter().filter_map(|m| subject_of(m)).collect();
        assert_eq!(received, subjects, "{db}");
        assert_eq!(store.outbox_counts(Outbox::Mail).await.expect("counts").failed, 0, "{db}");
    }
}

/// A message's Subject header, unfolded, its RFC 2047 encoded words (base64, as lettre
/// writes non-ASCII text) decoded.
fn subject_of(message: &str) -> Option<String> {
    let head = message.split("\r\n\r\n").next().unwrap_or(message).replace("\r\n", "\n");
    let unfolded = head.replace("\n ", " ").replace("\n\t", " ");
    let raw = unfolded.lines().find_map(|l| l.strip_prefix("Subject: "))?;
    let mut out = String::new();
    let mut last_was_word = false;
    for part in raw.split(' ') {
        let word = part.strip_prefix("=?utf-8?b?").and_then(|w| w.strip_suffix("?="));
        match word {
            Some(b64) => {
                // White space between two encoded words is not part of the text.
                if !out.is_empty() && !last_was_word {
                    out.push(' ');
                }
                out.push_str(&String::from_utf8_lossy(&base64_decode(b64)));
                last_was_word = true;
            }
            None => {
                if !out.is_empty() {
                    out.push(' ');
                }
                out.push_str(part);
                last_was_word = false;
            }
        }
    }
    Some(out)
}

fn base64_decode(text: &str) -> Vec<u8> {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut bits = 0u32;
    let mut count = 0;
    let mut out = Vec::new();
    for c in text.bytes().filter(|&c| c != b'=') {
        let Some(v) = ALPHABET.iter().position(|&a| a == c) else { continue };
        bits = (bits << 6) | v as u32;
        count += 6;
        if count >= 8 {
            count -= 8;
            out.push((bits >> count) as u8);
        }
    }
    out
}

#[test]
fn subjects_are_read_as_mail_programs_show_them() {
    let m = "To: a@b\r\nSubject: New Account Registration - Homeowner - =?utf-8?b?Sm9zw6kg5ZCN?=\r\n =?utf-8?b?5YmN?=\r\n\r\nbody";
    assert_eq!(subject_of(m).as_deref(), Some("New Account Registration - Homeowner - José 名前"));
    let folded = "Subject: New Account Registration - Homeowner -\r\n aaaa Whitfield\r\n\r\n";
    assert_eq!(
        subject_of(folded).as_deref(),
        Some("New Account Registration - Homeowner - aaaa Whitfield")
    );
}

/// Status, headers that matter and body shape of an answer, and its id.
async fn answer_of(r: reqwest::Response) -> ((StatusCode, String, Vec<String>), String) {
    let status = r.status();
    let cache = r.headers()["cache-control"].to_str().expect("ascii").to_string();
    let body: Value = r.json().await.expect("json");
    let keys = body.as_object().expect("object").keys().cloned().collect();
    let id = body["id"].as_str().expect("id").to_string();
    ((status, cache, keys), id)
}

/// The header modal's website is held to the one rule for a web address a visitor sends
/// (`forms::is_web_url`): http(s), a host, no white space, quotes or angle brackets.
#[tokio::test]
async fn the_registration_website_follows_the_one_web_address_rule() {
    let (_, store) = stores().await.remove(0);
    let s = server(store, None, &[]).await;
    let case = vectors()
        .into_iter()
        .find(|c| c["name"] == "registration: an http website")
        .expect("the vector");
    for (website, error) in [
        ("http://summitleads.example/partners", None),
        ("HTTPS://summitleads.example", None),
        (
            "https://summitleads.example/\"><img src=x>",
            Some(site_server::accounts::validate::MSG_WEBSITE),
        ),
        (
            "https://summitleads.example/a\\b",
            Some(site_server::accounts::validate::MSG_WEBSITE),
        ),
        ("https://?partners", Some(site_server::accounts::validate::MSG_WEBSITE)),
    ] {
        let mut body = case["body"].clone();
        body["website"] = json!(website);
        let r = post(&s, &body).await;
        let status = r.status();
        let answer: Value = r.json().await.expect("json");
        match error {
            None => assert_eq!(status, StatusCode::CREATED, "{website}: {answer}"),
            Some(message) => assert_eq!(
                (status, answer["error"].as_str()),
                (StatusCode::BAD_REQUEST, Some(message)),
                "{website}"
            ),
        }
    }
}

#[tokio::test]
async fn only_an_identical_request_is_a_repeat_and_it_is_answered_exactly_like_a_new_one() {
    for (db, store) in stores().await {
        let smtp = common::SmtpServer::start().await;
        let s = server(Arc::clone(&store), Some(&smtp), &[]).await;
        let mine = vectors()[0]["body"].clone();
        // Someone else uses the address first, with another name: stored, and mailed.
        let mut strangers = mine.clone();
        strangers["firstName"] = json!("Mallory");
        let (new_answer, stranger_id) = answer_of(post(&s, &strangers).await).await;
        assert_eq!(new_answer.0, StatusCode::CREATED, "{db}");
        // The owner's own request is not swallowed by it: stored, mailed, an id of its own.
        let (answer, id) = answer_of(post(&s, &mine).await).await;
        assert_eq!(answer, new_answer, "{db}");
        assert_ne!(id, stranger_id, "{db}");
        let stored = store.submission(&id).await.expect("read").expect("the owner's request is stored");
        assert_eq!(stored.data["firstName"], "Dana", "{db}");
        // The same request again (the address in another case): answered exactly as a new
        // one, with an id of its own, and neither stored nor mailed again.
        let mut again = mine.clone();
        again["email"] = json!(mine["email"].as_str().expect("email").to_uppercase());
        let (answer, repeat_id) = answer_of(post(&s, &again).await).await;
        assert_eq!(answer, new_answer, "{db}: a repeat is not told apart");
        assert_ne!(repeat_id, id, "{db}: not the first request's id (it carries its time)");
        assert!(store.submission(&repeat_id).await.expect("read").is_none(), "{db}: not stored");
        // Another type is another request.
        let mut affiliate = mine.clone();
        affiliate["accountType"] = json!("affiliate");
        affiliate["companyName"] = json!("Whitfield Media");
        affiliate["website"] = json!("whitfield.example");
        let (answer, _) = answer_of(post(&s, &affiliate).await).await;
        assert_eq!(answer.0, StatusCode::CREATED, "{db}");
        let messages = smtp.wait_for(3, 20).await;
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        assert_eq!(
            smtp.messages().len(),
            3,
            "{db}: the stranger's, the owner's, the affiliate's; none for the repeat"
        );
        let text = common::unfold_qp(&messages.concat());
        assert!(text.contains("To: sales@ringready.example"), "{db}");
        for subject in [
            "Subject: New Account Registration - Homeowner - Mallory Whitfield",
            "Subject: New Account Registration - Homeowner - Dana Whitfield",
            "Subject: New Account Registration - Affiliate - Dana Whitfield",
        ] {
            assert!(text.contains(subject), "{db}: {subject} in {text}");
        }
        assert!(text.contains("Company name: Whitfield Media"), "{db}");
        assert!(text.contains("within 24 hours"), "{db}");
    }
}

#[tokio::test]
async fn identical_requests_in_parallel_are_stored_once_and_different_ones_each() {
    for (db, store) in stores().await {
        let smtp = common::SmtpServer::start().await;
        let s = server(Arc::clone(&store), Some(&smtp), &[]).await;
        let mut body = vectors()[0]["body"].clone();
        body["email"] = json!(format!("parallel-{db}@example.com"));
        let mut ids = BTreeSet::new();
        for r in post_all(&s, vec![body.clone(); 16]).await {
            let ((status, _, _), id) = answer_of(r).await;
            assert_eq!(status, StatusCode::CREATED, "{db}");
            ids.insert(id);
        }
        assert_eq!(ids.len(), 16, "{db}: every answer has an id of its own");
        let stored: Vec<_> = {
            let mut found = Vec::new();
            for id in &ids {
                if store.submission(id).await.expect("read").is_some() {
                    found.push(id.clone());
                }
            }
            found
        };
        assert_eq!(stored.len(), 1, "{db}: stored once");
        // The same address with sixteen different names: sixteen requests.
        let different: Vec<_> = (0..16)
            .map(|n| {
                let mut b = body.clone();
                b["lastName"] = json!(format!("Whitfield {n}"));
                b
            })
            .collect();
        let mut stored = 0;
        for r in post_all(&s, different).await {
            let ((status, _, _), id) = answer_of(r).await;
            assert_eq!(status, StatusCode::CREATED, "{db}");
            stored += usize::from(store.submission(&id).await.expect("read").is_some());
        }
        assert_eq!(stored, 16, "{db}");
        smtp.wait_for(17, 30).await;
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        assert_eq!(smtp.messages().len(), 17, "{db}: one e-mail per stored request");
    }
}

/// Posts every body at once; the answers in order.
async fn post_all(s: &common::TestServer, bodies: Vec<Value>) -> Vec<reqwest::Response> {
    let handles: Vec<_> = bodies
        .into_iter()
        .map(|body| {
            let (client, url) = (s.client.clone(), s.url(PATH));
            tokio::spawn(async move { client.post(url).json(&body).send().await.expect("post") })
        })
        .collect();
    let mut out = Vec::with_capacity(handles.len());
    for h in handles {
        out.push(h.await.expect("task"));
    }
    out
}

#[tokio::test]
async fn the_lead_api_s_limits_apply() {
    let (_, store) = stores().await.remove(0);
    let s = server(store, None, &[("RATE_LIMIT_PER_MINUTE", "4")]).await;
    let valid = vectors()[0]["body"].clone();
    // 415, 413 and 400 (not JSON) before the limit runs out.
    let r = s
        .client
        .post(s.url(PATH))
        .header(CONTENT_TYPE, "text/plain")
        .body("hi")
        .send()
        .await
        .expect("post");
    assert_eq!(r.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert_eq!(r.json::<Value>().await.expect("json")["error"], site_server::api::MSG_MEDIA_TYPE);
    let mut big = valid.clone();
    big["serviceNeeds"] = json!("x".repeat(17_000));
    assert_eq!(post(&s, &big).await.status(), StatusCode::PAYLOAD_TOO_LARGE);
    // A filled honeypot is told it worked and nothing is kept.
    let mut bot = valid.clone();
    bot["hp_website"] = json!("http://spam.example");
    let r = post(&s, &bot).await;
    assert_eq!(r.status(), StatusCode::CREATED);
    let id = r.json::<Value>().await.expect("json")["id"].as_str().expect("id").to_string();
    assert!(s.state.store.submission(&id).await.expect("read").is_none());
    assert_eq!(post(&s, &valid).await.status(), StatusCode::CREATED);
    // The fifth request in the minute.
    let r = post(&s, &valid).await;
    assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(r.headers().contains_key("retry-after"));
    assert_eq!(r.json::<Value>().await.expect("json")["error"], site_server::api::MSG_RATE_LIMITED);
}

/// A body that breaks at least one rule, with noise: broken JSON, a value of the wrong type
/// or missing, a field too long or holding control characters, a bad source or type, a
/// password, extra fields with unicode, another content type.
fn hostile(rng: &mut common::Rng, valid: &[Value]) -> (String, &'static str, String) {
    let base = rng.pick(valid).clone();
    let fields: Vec<String> = base
        .as_object()
        .expect("object")
        .keys()
        .filter(|k| *k != "hp_website")
        .cloned()
        .collect();
    let breaking: Vec<Value> = vec![
        Value::Null,
        json!(0),
        json!(-1.5e300),
        json!(true),
        json!([]),
        json!({}),
        json!(["homeowner"]),
        json!({"$ne": null}),
        json!(""),
        json!(" \t\u{3000}\u{feff} "),
        json!("Dana\u{0000}"),
        json!("\u{001b}[31mred"),
        json!(format!("👩‍🔧{}", "名".repeat(2001))),
        json!(format!("{}\u{0007}", "' OR 1=1 --")),
    ];
    let noise: Vec<Value> = vec![
        json!("<script>alert(1)</script>"),
        json!("\u{202e}\u{200b}👩‍🔧🏠"),
        json!({"nested": [1, 2, 3]}),
        json!("x".repeat(3000)),
    ];
    let kind = rng.next() % 7;
    let mut body = base.clone();
    let note;
    match kind {
        0 => {
            let text = base.to_string();
            let cut = (rng.next() as usize) % text.len();
            let cut = (0..=cut).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
            return (
                format!("{}\u{1}", &text[..cut]),
                "application/json",
                format!("broken JSON at {cut}"),
            );
        }
        1 => {
            let top = [json!(null), json!(7), json!("request"), json!([base.clone()]), json!(true)];
            return (rng.pick(&top).to_string(), "application/json", "not an object".into());
        }
        2 => {
            let field = rng.pick(&fields).clone();
            body[&field] = rng.pick(&breaking).clone();
            note = format!("{field} broken");
        }
        3 => {
            let field = rng.pick(&fields).clone();
            body.as_object_mut().map(|o| o.remove(&field));
            note = format!("{field} missing");
        }
        4 => {
            let (field, value) = rng
                .pick(&[
                    ("source", json!("admin")),
                    ("source", json!("SIGNUP")),
                    ("accountType", json!("contractor")),
                    ("accountType", json!("Homeowner ")),
                    ("password", json!("hunter22hunter22")),
                    ("confirmPassword", json!("")),
                ])
                .clone();
            body[field] = value;
            note = format!("{field} refused");
        }
        5 => {
            let types = [
                "text/plain",
                "application/xml",
                "multipart/form-data; boundary=x",
                "application/jsonx",
                "",
            ];
            return (base.to_string(), *rng.pick(&types), "content type".into());
        }
        _ => {
            let field = rng.pick(&fields).clone();
            let value = body[&field].as_str().unwrap_or("").to_string();
            body[&field] = json!(format!("{value}\u{0000}{}", "é".repeat((rng.next() % 3000) as usize)));
            note = format!("{field} with a NUL");
        }
    }
    for i in 0..(rng.next() % 4) {
        body[format!("extra{i}")] = rng.pick(&noise).clone();
    }
    (body.to_string(), "application/json", note)
}

#[tokio::test]
async fn six_hundred_hostile_bodies_on_each_store_get_a_4xx_with_a_json_error() {
    // The complete requests of each source and type, where every field is required.
    let valid: Vec<Value> = vectors()
        .into_iter()
        .filter(|c| c["name"].as_str().is_some_and(|n| n.contains(": a complete ")))
        .map(|c| c["body"].clone())
        .collect();
    for (db, store) in stores().await {
        let s = server(Arc::clone(&store), None, &[]).await;
        let mut rng = common::Rng(0xACC0_0017_5EED_0042);
        let mut statuses = std::collections::BTreeMap::new();
        for n in 0..600 {
            let (body, content_type, note) = hostile(&mut rng, &valid);
            let mut request = s.client.post(s.url(PATH)).body(body.clone());
            if !content_type.is_empty() {
                request = request.header(CONTENT_TYPE, content_type);
            }
            let r = request.send().await.expect("post");
            let status = r.status();
            assert!(status.is_client_error(), "{db} #{n} ({note}): {status} for {body:.300}");
            let answer: Value = r.json().await.unwrap_or_else(|e| panic!("{db} #{n} ({note}): not JSON: {e}"));
            assert!(answer["error"].as_str().is_some_and(|m| !m.is_empty()), "{db} #{n}: {answer}");
            *statuses.entry(status.as_u16()).or_insert(0) += 1;
        }
        assert_eq!(valid.len(), 9);
        assert!(statuses.contains_key(&400) && statuses.contains_key(&415), "{db}: {statuses:?}");
        assert_eq!(
            store.outbox_counts(Outbox::Mail).await.expect("counts").pending,
            0,
            "{db}: nothing hostile was kept"
        );
        assert_eq!(
            post(&s, &valid[0]).await.status(),
            StatusCode::CREATED,
            "{db}: still taking requests"
        );
    }
}

#[tokio::test]
async fn without_javascript_register_posts_a_form_and_gets_html_answers() {
    let (_, store) = stores().await.remove(0);
    let s = server(Arc::clone(&store), None, &[]).await;
    let form = |phone: &str, first: &str| {
        vec![
            ("source", "request".to_string()),
            ("accountType", "call-buyer".to_string()),
            ("hp_website", String::new()),
            ("firstName", first.to_string()),
            ("lastName", "Ortega".to_string()),
            ("email", "luis@ortegaroofing.example".to_string()),
            ("phone", phone.to_string()),
            ("companyName", "Ortega Roofing LLC".to_string()),
            ("businessType", "roofing".to_string()),
            ("monthlyBudget", "2500-5000".to_string()),
            ("serviceAreas", "Erie County, PA".to_string()),
        ]
    };
    // A broken rule: the same page, the values kept (escaped), the message and field marked.
    let r = s
        .client
        .post(s.url(PATH))
        .form(&form("412.555.0134", "Luis <b>"))
        .send()
        .await
        .expect("post");
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    assert_eq!(r.headers()["cache-control"], "no-store");
    assert!(r.headers()[CONTENT_TYPE].to_str().expect("type").starts_with("text/html"));
    let html = r.text().await.expect("html");
    assert!(html.contains("Please enter a valid phone number"), "the spec's message");
    assert!(html.contains("<link rel=\"canonical\" href=\"https://www.ringready.example/register/contractor\">"));
    assert!(html.contains("value=\"Luis &lt;b&gt;\""), "values kept, escaped");
    assert!(!html.contains("Luis <b>"), "never unescaped");
    assert!(html.contains("value=\"412.555.0134\""));
    assert!(html.contains("aria-invalid=\"true\""));
    assert!(html.contains("id=\"request-phone\""));
    assert_eq!(store.outbox_counts(Outbox::Mail).await.expect("counts").pending, 0);
    // An unknown type: the choice again, with the message.
    let r = s
        .client
        .post(s.url(PATH))
        .form(&[("source", "request"), ("accountType", "pilot")])
        .send()
        .await
        .expect("post");
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    let html = r.text().await.expect("html");
    assert!(html.contains("Please choose an account type.") && html.contains("href=\"/register/homeowner\""));
    // Accepted: stored, then sent on to the thank-you page (post/redirect/get).
    let r = s
        .client
        .post(s.url(PATH))
        .form(&form("(412) 555-0134", "Luis"))
        .send()
        .await
        .expect("post");
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    let location = r.headers()[LOCATION].to_str().expect("ascii").to_string();
    assert_eq!(location, "/register/thanks?type=contractor");
    let thanks = s.get(&location).await;
    assert_eq!(thanks.status(), StatusCode::OK);
    assert_eq!(thanks.headers()["cache-control"], "no-store");
    let html = thanks.text().await.expect("html");
    for text in [
        "Registration Submitted!",
        "Your account request has been sent to our team.",
        "We'll create your account and send login credentials within 24 hours.",
        "Your Contractor registration",
        "<meta name=\"robots\" content=\"noindex\">",
    ] {
        assert!(html.contains(text), "thank-you page has {text:?}");
    }
    // Form posts that no form makes: a 4xx page, never a 5xx.
    for body in ["%FF%FE=%00", "source=request&source=signup", "a=b&&&=", "\u{1}"] {
        let r = s
            .client
            .post(s.url(PATH))
            .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(body)
            .send()
            .await
            .expect("post");
        assert!(r.status().is_client_error(), "{body:?}: {}", r.status());
    }
}

#[tokio::test]
async fn register_pages_are_indexed_canonical_pages() {
    let s = common::start().await;
    for (path, title, heading) in [
        ("/register", "Request an Account | RingReady", "Choose your account type"),
        (
            "/register/homeowner",
            "Homeowner Registration | RingReady",
            ">Homeowner<!-- --> Registration<",
        ),
        (
            "/register/contractor",
            "Contractor &#38; Call Buyer Registration | RingReady",
            ">Contractors &amp; Call Buyers<!-- --> Registration<",
        ),
        (
            "/register/affiliate",
            "Affiliate Partner Registration | RingReady",
            ">Affiliate Partners<!-- --> Registration<",
        ),
    ] {
        let r = s.get(path).await;
        assert_eq!(r.status(), StatusCode::OK, "{path}");
        let html = r.text().await.expect("html");
        assert!(html.contains(&format!("<title>{title}</title>")), "{path}");
        assert!(
            html.contains(&format!("<link rel=\"canonical\" href=\"https://www.ringready.example{path}\">")),
            "{path}"
        );
        assert!(html.contains(heading), "{path}: {heading}");
        assert!(!html.contains("noindex"), "{path} is indexed");
        if path != "/register" {
            assert!(
                html.contains("action=\"/api/account-requests\"") && html.contains("noValidate"),
                "{path}"
            );
            assert!(html.contains("name=\"source\" value=\"request\""), "{path}");
        }
    }
    let sitemap = s.get("/sitemap.xml").await.text().await.expect("sitemap");
    for path in ["/register", "/register/homeowner", "/register/contractor", "/register/affiliate"] {
        assert!(
            sitemap.contains(&format!("<loc>https://www.ringready.example{path}</loc>")),
            "{path}"
        );
    }
    // Every registration button leads there without JavaScript.
    let home = s.get("/").await.text().await.expect("home");
    assert!(
        home.matches("href=\"/register\"").count() >= 4,
        "Login, Log in, Get Started Today, closing call to action"
    );
}
