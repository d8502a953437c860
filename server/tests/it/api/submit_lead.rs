//! The lead capture API over real HTTP: the shared validation vectors, every answer the
//! OpenAPI description documents, the no-JavaScript form path, and hostile input.

use crate::common;

use reqwest::StatusCode;
use reqwest::header::{CONTENT_TYPE, LOCATION};
use serde_json::{Value, json};

const SUBMIT: &str = "/.netlify/functions/submit-lead";
const TOKEN: &str = "/.netlify/functions/record-token";
const ACCOUNTS: &str = "/api/account-requests";

fn open_limit() -> site_server::config::Config {
    common::config(&[("RATE_LIMIT_PER_MINUTE", "100000")])
}

async fn post_json(s: &common::TestServer, path: &str, body: &Value) -> reqwest::Response {
    s.client.post(s.url(path)).json(body).send().await.expect("post")
}

async fn error_of(r: reqwest::Response) -> (StatusCode, String) {
    let status = r.status();
    assert!(
        r.headers()[CONTENT_TYPE].to_str().expect("type").starts_with("application/json"),
        "{status} must be JSON"
    );
    let body: Value = r.json().await.expect("json body");
    (status, body["error"].as_str().expect("error field").to_string())
}

#[tokio::test]
async fn the_shared_validation_vectors() {
    let s = common::start_with(open_limit(), site_server::assets::SSR_BUNDLE).await;
    let file: Value =
        serde_json::from_str(include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../catalogue/cases/leads.json"))).expect("cases");
    let consent = common::consent_text();
    let cases = file["cases"].as_array().expect("cases");
    assert!(cases.len() >= 30);
    for case in cases {
        let name = case["name"].as_str().expect("name");
        let mut body = case["body"].clone();
        if let Some(text) = body.get("tcpa_text").and_then(Value::as_str) {
            let replaced = text.replace("$CONSENT", &consent);
            body["tcpa_text"] = Value::String(replaced);
        }
        let r = post_json(&s, SUBMIT, &body).await;
        match case["error"].as_str() {
            Some(expected) => {
                let (status, message) = error_of(r).await;
                assert_eq!(status, StatusCode::BAD_REQUEST, "{name}");
                assert_eq!(message, expected, "{name}");
            }
            None => {
                let status = r.status();
                assert_eq!(status, StatusCode::CREATED, "{name}");
                let answer: Value = r.json().await.expect("json");
                let id = answer["id"].as_str().expect("id");
                // A vector that repeats an earlier one's phone and service is stored once.
                if let Some(stored) = s.state.store.lead(id).await.expect("read") {
                    assert_eq!(Some(stored.phone.as_str()), case["phone"].as_str(), "{name}");
                }
            }
        }
    }
}

#[tokio::test]
async fn a_repeat_is_stored_once_and_answered_exactly_like_a_new_lead() {
    let s = common::start_with(open_limit(), site_server::assets::SSR_BUNDLE).await;
    let body = common::lead_body("plumbing", &common::phone(1));
    let first = post_json(&s, SUBMIT, &body).await;
    assert_eq!(first.status(), StatusCode::CREATED);
    assert_eq!(first.headers()["cache-control"], "no-store");
    let first: Value = first.json().await.expect("json");
    let again = post_json(&s, SUBMIT, &body).await;
    assert_eq!(again.status(), StatusCode::CREATED, "a repeat is not told apart");
    assert_eq!(again.headers()["cache-control"], "no-store");
    let again: Value = again.json().await.expect("json");
    let keys = |v: &Value| v.as_object().map(|o| o.keys().cloned().collect::<Vec<_>>());
    assert_eq!(keys(&first), keys(&again), "the same fields");
    assert_eq!(keys(&again), Some(vec!["id".to_string()]));
    assert_ne!(again["id"], first["id"], "the earlier lead's id (and its time) is not given away");
    assert_eq!(s.state.store.count_leads().await.expect("count"), 1, "stored once");
    let metrics = s.metrics().await;
    assert!(
        metrics.contains("site_leads_accepted_total 1\n") && metrics.contains("site_leads_duplicate_total 1\n"),
        "{metrics}"
    );
}

#[tokio::test]
async fn the_consent_record_is_kept_with_the_lead() {
    let s = common::start_with(open_limit(), site_server::assets::SSR_BUNDLE).await;
    let mut body = common::lead_body("roofing", &common::phone(2));
    body["trustedform_token"] = json!("9f8e7d6c");
    body["trustedform_ping"] = json!("https://ping.trustedform.com/9f8e7d6c");
    body["trustedform_cert_url"] = json!("https://cert.trustedform.com/9f8e7d6c");
    body["pageUrl"] = json!("https://www.ringready.example/roofing?utm_source=google&utm_medium=cpc&utm_campaign=storm");
    body["referrer"] = json!("https://www.google.com/");
    let r = s
        .client
        .post(s.url(SUBMIT))
        .header("user-agent", "Mozilla/5.0 (iPhone)")
        .json(&body)
        .send()
        .await
        .expect("post");
    assert_eq!(r.status(), StatusCode::CREATED);
    let id = r.json::<Value>().await.expect("json")["id"].as_str().expect("id").to_string();
    let lead = s.state.store.lead(&id).await.expect("read").expect("stored");
    assert_eq!(lead.cert_url.as_deref(), Some("https://cert.trustedform.com/9f8e7d6c"));
    assert_eq!(lead.cert_token.as_deref(), Some("9f8e7d6c"));
    assert_eq!(lead.cert_ping_url.as_deref(), Some("https://ping.trustedform.com/9f8e7d6c"));
    assert_eq!(lead.consent_text, common::consent_text());
    assert_eq!(lead.ip.as_deref(), Some("127.0.0.1"));
    assert_eq!(lead.user_agent.as_deref(), Some("Mozilla/5.0 (iPhone)"));
    assert_eq!(
        (lead.utm_source.as_deref(), lead.utm_medium.as_deref(), lead.utm_campaign.as_deref()),
        (Some("google"), Some("cpc"), Some("storm"))
    );
    assert_eq!(lead.referrer.as_deref(), Some("https://www.google.com/"));
    assert_eq!(lead.zip_code.as_deref(), Some("15213"));
}

/// The consent wording sent with a lead is the wording shown once white space is folded
/// (`leads::consent`: any run of Unicode white space is one space, the ends trimmed), and
/// nothing else: a changed word, letter case, punctuation, a look-alike letter, an invisible
/// character that is not white space, or a word added or taken away is refused as a page
/// out of date, and no lead is stored. Accepted, the lead keeps the wording as shown and its
/// SHA-256, whatever white space it came with. On both stores.
#[tokio::test]
async fn the_consent_wording_matches_after_folding_white_space_and_nothing_else() {
    let shown = common::consent_text();
    let at = |pattern: &'static str| {
        assert!(shown.contains(pattern), "the wording has {pattern:?}: {shown}");
        pattern
    };
    let spaces = |with: &[&str]| {
        let mut out = String::new();
        for (i, word) in shown.split(' ').enumerate() {
            if i > 0 {
                out.push_str(with[i % with.len()]);
            }
            out.push_str(word);
        }
        out
    };
    let matched: Vec<(&str, String)> = vec![
        ("as shown", shown.clone()),
        ("spaces around it", format!("  \t{shown}\n ")),
        ("runs of spaces", spaces(&["   "])),
        ("tabs", spaces(&["\t"])),
        ("line feeds and CR LF", spaces(&["\n", "\r\n", " \n\n "])),
        ("vertical tab and form feed", spaces(&["\u{b}", "\u{c}"])),
        ("no-break spaces", spaces(&["\u{a0}", "\u{202f}"])),
        ("other Unicode spaces", spaces(&["\u{2003}", "\u{3000}", "\u{2009}", "\u{1680}"])),
        ("Unicode line breaks", spaces(&["\u{2028}", "\u{2029}", "\u{85}"])),
    ];
    let refused: Vec<(&str, String)> = vec![
        ("a changed word", shown.replacen(at("call and text"), "call and email", 1)),
        ("a word taken away", shown.replacen(at("is not a condition"), "is a condition", 1)),
        ("a word added", shown.replacen(at("my prior"), "my own prior", 1)),
        ("a sentence added", format!("{shown} I also agree to marketing.")),
        ("the wording twice", format!("{shown} {shown}")),
        ("two words joined", shown.replacen(at("Consent is"), "Consentis", 1)),
        ("a letter's case", shown.replacen(at("By checking"), "by checking", 1)),
        ("all in capitals", shown.to_uppercase()),
        ("the last full stop", shown.trim_end_matches('.').to_string()),
        ("a comma for a semicolon", shown.replacen(at("apply;"), "apply,", 1)),
        ("an added comma", shown.replacen(at("this box and"), "this box, and", 1)),
        ("a Cyrillic a", shown.replacen(at("agree"), "\u{430}gree", 1)),
        ("a Greek omicron", shown.replacen(at("phone"), "ph\u{3bf}ne", 1)),
        ("a full-width letter", shown.replacen(at("STOP"), "\u{ff33}TOP", 1)),
        (
            "a zero-width space for a space",
            shown.replacen(at("my prior"), "my\u{200b}prior", 1),
        ),
        ("a zero-width space in a word", shown.replacen(at("consent"), "con\u{200b}sent", 1)),
        ("a soft hyphen in a word", shown.replacen(at("independent"), "inde\u{ad}pendent", 1)),
        ("a byte order mark first", format!("\u{feff}{shown}")),
        ("another dash", shown.replacen(at("prerecorded"), "pre-recorded", 1)),
        ("empty", String::new()),
        ("white space only", " \t\n ".into()),
    ];
    for (name, store) in common::stores::stores().await {
        let s = common::start_with_store(open_limit(), site_server::assets::SSR_BUNDLE, store).await;
        let mut n = 9000;
        for (case, text) in &matched {
            n += 1;
            let mut body = common::lead_body("hvac", &common::phone(n));
            body["tcpa_text"] = json!(text);
            let r = post_json(&s, SUBMIT, &body).await;
            assert_eq!(r.status(), StatusCode::CREATED, "{name}, {case}: {text:?}");
            let id = r.json::<Value>().await.expect("json")["id"].as_str().expect("id").to_string();
            let lead = s.state.store.lead(&id).await.expect("read").expect("stored");
            assert_eq!(lead.consent_text, shown, "{name}, {case}: kept as shown");
            assert_eq!(
                lead.consent_sha256,
                site_server::leads::consent::sha256_hex(&shown),
                "{name}, {case}"
            );
        }
        let stored = s.state.store.count_leads().await.expect("count");
        assert_eq!(stored, matched.len() as i64, "{name}");
        for (case, text) in &refused {
            n += 1;
            let mut body = common::lead_body("hvac", &common::phone(n));
            body["tcpa_text"] = json!(text);
            let (status, message) = error_of(post_json(&s, SUBMIT, &body).await).await;
            assert_eq!(
                (status, message.as_str()),
                (StatusCode::BAD_REQUEST, site_server::leads::validate::MSG_CONSENT_TEXT),
                "{name}, {case}: {text:?}"
            );
        }
        let after = s.state.store.count_leads().await.expect("count");
        assert_eq!(after, stored, "{name}: no refused lead is stored");
    }
}

#[tokio::test]
async fn bodies_types_and_rates_the_api_refuses() {
    let s = common::start_with(common::config(&[("RATE_LIMIT_PER_MINUTE", "5")]), site_server::assets::SSR_BUNDLE).await;
    // 415: neither JSON nor a form.
    let r = s
        .client
        .post(s.url(SUBMIT))
        .header(CONTENT_TYPE, "text/plain")
        .body("hello")
        .send()
        .await
        .expect("post");
    assert_eq!(
        error_of(r).await,
        (StatusCode::UNSUPPORTED_MEDIA_TYPE, site_server::api::MSG_MEDIA_TYPE.to_string())
    );
    // 413: over 16 KB.
    let mut big = common::lead_body("hvac", &common::phone(3));
    big["fullName"] = json!("x".repeat(17_000));
    let (status, _) = error_of(post_json(&s, SUBMIT, &big).await).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    // 400: not JSON at all.
    let r = s
        .client
        .post(s.url(SUBMIT))
        .header(CONTENT_TYPE, "application/json")
        .body("{\"serviceSlug\": ")
        .send()
        .await
        .expect("post");
    assert_eq!(
        error_of(r).await,
        (StatusCode::BAD_REQUEST, site_server::api::MSG_UNREADABLE.to_string())
    );
    // 204 then 429 for record-token, which shares the per-IP limit (5 a minute).
    let token = json!({ "token": "abc123", "ping": "https://ping.trustedform.com/abc123", "serviceSlug": "hvac", "certUrl": "https://cert.trustedform.com/abc123" });
    let r = post_json(&s, TOKEN, &token).await;
    assert_eq!(r.status(), StatusCode::NO_CONTENT);
    let stored = s.state.store.token("abc123").await.expect("read").expect("stored");
    assert_eq!(stored.cert_url.as_deref(), Some("https://cert.trustedform.com/abc123"));
    let (status, message) = error_of(post_json(&s, TOKEN, &json!({ "token": "", "serviceSlug": "hvac" })).await).await;
    assert_eq!(
        (status, message.as_str()),
        (StatusCode::BAD_REQUEST, site_server::leads::validate::MSG_TOKEN)
    );
    let r = post_json(&s, TOKEN, &token).await;
    assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS);
    let wait: u64 = r.headers()["retry-after"].to_str().expect("ascii").parse().expect("seconds");
    assert!((1..=60).contains(&wait));
    assert_eq!(error_of(r).await.1, site_server::api::MSG_RATE_LIMITED);
}

#[tokio::test]
async fn a_filled_honeypot_is_accepted_and_discarded() {
    let s = common::start_with(open_limit(), site_server::assets::SSR_BUNDLE).await;
    let mut body = common::lead_body("hvac", &common::phone(4));
    body["hp_website"] = json!("http://spam.example");
    let r = post_json(&s, SUBMIT, &body).await;
    assert_eq!(r.status(), StatusCode::CREATED);
    let id = r.json::<Value>().await.expect("json")["id"].as_str().expect("id").to_string();
    assert!(s.state.store.lead(&id).await.expect("read").is_none());
    assert_eq!(s.state.store.count_leads().await.expect("count"), 0);
}

#[tokio::test]
async fn the_no_javascript_form_post_path() {
    let s = common::start_with(open_limit(), site_server::assets::SSR_BUNDLE).await;
    let consent = common::consent_text();
    let phone = common::phone(5);
    let form = [
        ("serviceSlug", "hvac"),
        ("fullName", "Omar Haddad"),
        ("phone", phone.as_str()),
        ("zipCode", ""),
        ("consent", "on"),
        ("tcpa_text", consent.as_str()),
        ("hp_website", ""),
    ];
    let r = s.client.post(s.url(SUBMIT)).form(&form).send().await.expect("post");
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    let location = r.headers()[LOCATION].to_str().expect("ascii").to_string();
    assert_eq!(location, "/callback-requested?service=hvac");
    let thanks = s.get(&location).await;
    assert_eq!(thanks.status(), StatusCode::OK);
    assert_eq!(thanks.headers()["cache-control"], "no-store");
    let html = thanks.text().await.expect("html");
    assert!(html.contains("Thanks! We received your request and will call you shortly.") && html.contains("(800) 555-0142"));
    assert!(html.contains("<meta name=\"robots\" content=\"noindex\">") && html.contains("href=\"/hvac\""));
    assert_eq!(s.state.store.count_leads().await.expect("count"), 1);

    // Without the consent box ticked: the form again, values kept, the error above it.
    let form = [
        ("serviceSlug", "hvac"),
        ("fullName", "Omar <b>Haddad</b>"),
        ("phone", "412-555-0199"),
        ("tcpa_text", consent.as_str()),
    ];
    let r = s.client.post(s.url(SUBMIT)).form(&form).send().await.expect("post");
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    assert!(r.headers()[CONTENT_TYPE].to_str().expect("type").starts_with("text/html"));
    let html = r.text().await.expect("html");
    assert!(html.contains("Please check the box to agree to be contacted."));
    assert!(
        html.contains("value=\"Omar &lt;b&gt;Haddad&lt;/b&gt;\""),
        "values are kept, escaped"
    );
    assert!(!html.contains("<b>Haddad"), "never unescaped");
    assert!(html.contains("data-tf-element-role=\"consent-language\""));
    assert_eq!(s.state.store.count_leads().await.expect("count"), 1);
}

/// A body that breaks at least one rule: bad syntax, a bad top-level value, or a valid
/// request with one field made invalid, plus random noise (extra fields, unicode).
fn hostile_body(rng: &mut common::Rng, n: u32) -> (String, String, String) {
    let valid = common::lead_body("hvac", &common::phone(n));
    let weird: Vec<Value> = vec![
        Value::Null,
        json!(0),
        json!(-1.5e300),
        json!(true),
        json!([]),
        json!({}),
        json!(["hvac"]),
        json!({"$ne": null}),
        json!(""),
        json!("\u{0000}\u{0007}\u{001b}[31m"),
        json!("' OR 1=1 --"),
        json!("<script>alert(1)</script>"),
        json!("\u{202e}\u{200b}👩‍🔧🏠"),
        json!("x".repeat(5000)),
        json!("9".repeat(40)),
    ];
    let invalidating: Vec<(&str, Value)> = vec![
        ("serviceSlug", json!("../../etc/passwd")),
        ("serviceSlug", json!("HVAC ")),
        ("fullName", json!("")),
        ("fullName", json!("名".repeat(101))),
        ("fullName", json!("Bob\u{0000}")),
        ("phone", json!("+1 (000) 000-0000")),
        ("phone", json!("📞")),
        ("zipCode", json!("1234567")),
        ("consent", json!("on")),
        ("consent", json!(1)),
        ("tcpa_text", json!("I agree")),
        ("trustedform_cert_url", json!("javascript:alert(1)")),
    ];
    let kind = rng.next() % 6;
    let content_type = "application/json".to_string();
    let mut note = format!("kind {kind}");
    let (body, content_type) = match kind {
        0 => {
            // Broken JSON: a valid body cut short or with a stray byte.
            let text = valid.to_string();
            let cut = (rng.next() as usize) % text.len().max(1);
            let broken = if rng.next().is_multiple_of(2) {
                text[..cut].to_string()
            } else {
                format!("{}\u{1}{}", &text[..cut], &text[cut..])
            };
            (if broken.is_empty() { "{".into() } else { broken }, content_type)
        }
        1 => (rng.pick(&weird).to_string(), content_type),
        2 | 3 => {
            // One required field gets a value of a wrong type or null, or goes missing.
            let mut body = valid.clone();
            let field = *rng.pick(&["serviceSlug", "fullName", "phone", "consent", "tcpa_text"]);
            let value = rng.pick(&weird).clone();
            note = format!("kind {kind} field {field} value {value:.80}");
            if rng.next().is_multiple_of(4) {
                body.as_object_mut().map(|o| o.remove(field));
            } else if field == "fullName"
                && value
                    .as_str()
                    .is_some_and(|s| s.chars().any(char::is_alphabetic) && s.chars().count() <= 100 && !s.chars().any(char::is_control))
            {
                body[field] = Value::Null;
            } else {
                body[field] = value;
            }
            if field == "consent" && body[field] == json!(true) {
                body[field] = json!(false);
            }
            if field == "phone"
                && body[field]
                    .as_str()
                    .is_some_and(|p| p.chars().filter(char::is_ascii_digit).count() == 10)
            {
                body[field] = json!("0");
            }
            (body.to_string(), content_type)
        }
        4 => {
            let mut body = valid.clone();
            let (field, value) = rng.pick(&invalidating).clone();
            body[field] = value;
            for i in 0..(rng.next() % 5) {
                body[format!("extra{i}")] = rng.pick(&weird).clone();
            }
            (body.to_string(), content_type)
        }
        _ => {
            let types = [
                "text/plain",
                "application/xml",
                "multipart/form-data; boundary=x",
                "application/json-patch+json",
                "",
            ];
            (valid.to_string(), rng.pick(&types).to_string())
        }
    };
    (body, content_type, note)
}

/// A client that goes on sending an oversized body after the server's 413 (as a browser
/// does: it sends the whole form before it reads the answer) can send all of it: the server
/// reads and discards the rest instead of resetting the connection under the client's
/// writes, so the client then reads the 413. Closed at once, the second write below fails
/// (the server's kernel answers the first one's bytes with a reset).
#[tokio::test]
async fn a_client_still_sending_a_refused_body_gets_to_read_the_answer() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let s = common::start_with(open_limit(), site_server::assets::SSR_BUNDLE).await;
    let addr = s.base.trim_start_matches("http://").to_string();
    let mut stream = tokio::net::TcpStream::connect(&addr).await.expect("connect");
    let size = 2_000_000;
    let head = format!("POST {SUBMIT} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {size}\r\n\r\n");
    stream.write_all(head.as_bytes()).await.expect("head");
    // The answer comes before any of the body (the declared length is over the limit).
    let mut answer = Vec::new();
    let mut buf = [0u8; 4096];
    while !answer.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = tokio::time::timeout(std::time::Duration::from_secs(10), stream.read(&mut buf))
            .await
            .expect("the 413 in time")
            .expect("read");
        assert!(n > 0, "closed before answering");
        answer.extend_from_slice(&buf[..n]);
    }
    assert!(answer.starts_with(b"HTTP/1.1 413"), "{}", String::from_utf8_lossy(&answer));
    // The whole body, in pieces, with a pause between them for a reset to arrive.
    let piece = vec![b'['; 100_000];
    for n in 0..size / piece.len() {
        stream
            .write_all(&piece)
            .await
            .unwrap_or_else(|e| panic!("piece {n} of the refused body: {e}"));
        if n < 2 {
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    }
    // And nothing is stored, and the server still takes leads.
    assert_eq!(s.state.store.count_leads().await.expect("count"), 0);
    assert_eq!(
        post_json(&s, SUBMIT, &common::lead_body("hvac", &common::phone(3))).await.status(),
        StatusCode::CREATED
    );
}

#[tokio::test]
async fn a_thousand_hostile_bodies_get_a_4xx_with_a_json_error() {
    let s = common::start_with(open_limit(), site_server::assets::SSR_BUNDLE).await;
    let mut rng = common::Rng(0x5EED_CAFE_F00D_1234);
    let mut statuses = std::collections::BTreeMap::new();
    for n in 0..1200u32 {
        let (body, content_type, note) = hostile_body(&mut rng, n + 100);
        let mut request = s.client.post(s.url(SUBMIT)).body(body.clone());
        if !content_type.is_empty() {
            request = request.header(CONTENT_TYPE, content_type.clone());
        }
        let r = request.send().await.expect("post");
        let status = r.status();
        assert!(
            status.is_client_error(),
            "#{n} {note} {content_type} …{} answered {status}",
            &body[body.len().saturating_sub(400)..]
        );
        let answer: Value = r.json().await.unwrap_or_else(|e| panic!("#{n} not JSON: {e}"));
        assert!(answer["error"].as_str().is_some_and(|m| m.ends_with('.')), "#{n}: {answer}");
        *statuses.entry(status.as_u16()).or_insert(0) += 1;
    }
    // Oversized bodies, which the generator above keeps under the limit.
    for size in [16_385, 100_000, 2_000_000] {
        let r = s
            .client
            .post(s.url(SUBMIT))
            .header(CONTENT_TYPE, "application/json")
            .body(vec![b'['; size])
            .send()
            .await
            .expect("post");
        assert_eq!(r.status(), StatusCode::PAYLOAD_TOO_LARGE, "{size}");
        *statuses.entry(413).or_insert(0) += 1;
    }
    assert!(
        statuses.contains_key(&400) && statuses.contains_key(&415) && statuses.contains_key(&413),
        "{statuses:?}"
    );
    assert_eq!(s.state.store.count_leads().await.expect("count"), 0, "nothing hostile was stored");
    // Still healthy and still taking real leads.
    assert_eq!(s.get("/healthz").await.status(), StatusCode::OK);
    assert_eq!(
        post_json(&s, SUBMIT, &common::lead_body("hvac", &common::phone(9))).await.status(),
        StatusCode::CREATED
    );
}

#[tokio::test]
async fn openapi_yaml_documents_what_the_server_answers() {
    let doc: Value =
        serde_saphyr::from_str(include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../openapi.yaml"))).expect("openapi.yaml parses");
    assert_eq!(doc["openapi"], "3.1.0");
    let documented = |path: &str| -> Vec<u16> {
        let responses = doc["paths"][path]["post"]["responses"]
            .as_object()
            .unwrap_or_else(|| panic!("{path} is documented"));
        let mut codes: Vec<u16> = responses.keys().map(|k| k.parse().expect("status code")).collect();
        codes.sort_unstable();
        codes
    };
    assert_eq!(documented(SUBMIT), vec![201, 303, 400, 403, 408, 413, 415, 429, 503]);
    assert_eq!(documented(TOKEN), vec![204, 400, 403, 408, 413, 415, 429, 503]);
    assert_eq!(documented(ACCOUNTS), vec![201, 303, 400, 403, 408, 413, 415, 429, 503]);
    let account = &doc["components"]["schemas"]["AccountRequest"]["properties"];
    for field in [
        "source",
        "accountType",
        "firstName",
        "lastName",
        "email",
        "username",
        "phone",
        "companyName",
        "website",
        "address",
        "serviceAreas",
        "serviceNeeds",
        "trafficSources",
        "propertyType",
        "businessType",
        "monthlyBudget",
        "monthlyVolume",
        "hp_website",
    ] {
        assert!(account.get(field).is_some(), "AccountRequest documents {field}");
    }
    assert!(account.get("password").is_none(), "a password is never sent");
    assert_eq!(
        documented(site_server::api::APPLICATIONS_PATH),
        vec![201, 303, 400, 403, 408, 413, 415, 429, 503]
    );
    let lead = &doc["components"]["schemas"]["LeadRequest"]["properties"];
    for field in [
        "serviceSlug",
        "fullName",
        "phone",
        "zipCode",
        "consent",
        "trustedform_token",
        "trustedform_ping",
        "trustedform_cert_url",
        "tcpa_text",
    ] {
        assert!(lead.get(field).is_some(), "LeadRequest documents {field}");
    }
    let token = &doc["components"]["schemas"]["TokenRequest"]["properties"];
    for field in ["token", "ping", "serviceSlug", "certUrl"] {
        assert!(token.get(field).is_some(), "TokenRequest documents {field}");
    }
    // The paths the router serves are the ones documented.
    let mut paths: Vec<&String> = doc["paths"].as_object().expect("paths").keys().collect();
    paths.sort();
    assert_eq!(paths, vec![TOKEN, SUBMIT, ACCOUNTS, site_server::api::APPLICATIONS_PATH]);
    assert_eq!(site_server::api::ACCOUNT_REQUESTS_PATH, ACCOUNTS);
    assert_eq!(site_server::api::SUBMIT_LEAD_PATH, SUBMIT);
    assert_eq!(site_server::api::RECORD_TOKEN_PATH, TOKEN);
    // Every documented 4xx/2xx code is produced by a request in this file; 503 by the
    // unavailable-store test below.
}

#[test]
fn openapi_yaml_documents_the_one_error_answer_once() {
    let doc: Value =
        serde_saphyr::from_str(include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../openapi.yaml"))).expect("openapi.yaml parses");
    let shared = &doc["components"]["responses"];
    // Every error status of every endpoint refers to a shared response.
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (code, response) in item["post"]["responses"].as_object().expect("responses") {
            if code.starts_with('4') || code.starts_with('5') {
                let target = response["$ref"]
                    .as_str()
                    .unwrap_or_else(|| panic!("{path} {code} refers to a shared response"));
                let name = target.strip_prefix("#/components/responses/").expect("a shared response");
                assert!(shared.get(name).is_some(), "{path} {code}: {name} exists");
            }
        }
    }
    // Each shared response is the Error schema, with the server's own message as example.
    let examples = |name: &str| -> Vec<String> {
        let content = &shared[name]["content"]["application/json"];
        assert_eq!(content["schema"]["$ref"], "#/components/schemas/Error", "{name}");
        let mut out: Vec<String> = content["examples"]
            .as_object()
            .map(|m| {
                m.values()
                    .map(|e| e["value"]["error"].as_str().expect("text").to_string())
                    .collect()
            })
            .unwrap_or_default();
        out.extend(content["example"]["error"].as_str().map(String::from));
        out
    };
    assert_eq!(
        examples("Invalid"),
        vec![site_server::leads::validate::MSG_CONSENT, site_server::api::MSG_UNREADABLE]
    );
    assert_eq!(examples("TooLarge"), vec![site_server::api::MSG_TOO_LARGE]);
    assert_eq!(examples("MediaType"), vec![site_server::api::MSG_MEDIA_TYPE]);
    assert_eq!(examples("RateLimited"), vec![site_server::api::MSG_RATE_LIMITED]);
    assert_eq!(examples("Unavailable"), vec![site_server::api::MSG_UNAVAILABLE]);
    assert_eq!(examples("CrossSite"), vec![site_server::api::MSG_CROSS_SITE]);
    assert_eq!(examples("Timeout"), vec![site_server::api::MSG_TIMEOUT]);
    assert!(shared["RateLimited"]["headers"].get("Retry-After").is_some());
    assert_eq!(doc["components"]["schemas"]["Error"]["required"], json!(["error"]));
}

#[tokio::test]
async fn a_store_that_cannot_write_answers_503_and_keeps_serving_pages() {
    let s = common::start_with(open_limit(), site_server::assets::SSR_BUNDLE).await;
    s.state.store.close().await;
    let (status, message) = error_of(post_json(&s, SUBMIT, &common::lead_body("hvac", &common::phone(10))).await).await;
    assert_eq!(
        (status, message.as_str()),
        (StatusCode::SERVICE_UNAVAILABLE, site_server::api::MSG_UNAVAILABLE)
    );
    assert_eq!(s.get("/hvac").await.status(), StatusCode::OK);
}
