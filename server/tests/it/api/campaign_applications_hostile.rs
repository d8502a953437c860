//! Generated hostile bodies for POST /api/campaign-applications, on SQLite and (with
//! TEST_DATABASE_URL) on PostgreSQL: every one is refused with a 4xx (JSON, or the apply page
//! for a form post), none is kept, and the server goes on taking real applications.

use crate::common;

use reqwest::StatusCode;
use reqwest::header::CONTENT_TYPE;
use serde_json::{Value, json};

use common::stores::stores;

const PATH: &str = "/api/campaign-applications";

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

/// How many applications the server accepted, by its metrics.
async fn accepted(s: &common::TestServer) -> u64 {
    let text = s.metrics().await;
    text.lines()
        .find_map(|l| l.strip_prefix("site_submissions_total{kind=\"campaign_application\",outcome=\"accepted\"} "))
        .map_or(0, |n| n.parse().expect("count"))
}

/// A body that breaks at least one rule, with noise: (body, content type, note).
fn hostile_body(rng: &mut common::Rng, n: u32) -> (String, String, String) {
    let valid = valid(&format!("hostile{n}@leadflow.example"));
    // Values no required field takes.
    let never_valid: Vec<Value> = vec![
        Value::Null,
        json!(0),
        json!(-1.5e300),
        json!(true),
        json!({}),
        json!({"$ne": null}),
        json!(""),
        json!(" \t\u{3000} "),
        json!([1, 2]),
        json!([null]),
        json!("\u{0000}\u{0007}\u{001b}[31m"),
        json!("x".repeat(5000)),
    ];
    let invalidating: Vec<(&str, Value)> = vec![
        ("email", json!("jane@leadflow")),
        ("email", json!("jane doe@leadflow.example")),
        ("email", json!(format!("{}@x.example", "j".repeat(300)))),
        ("firstName", json!("名".repeat(101))),
        ("lastName", json!("Oka\u{0000}for")),
        ("company", json!("\u{001b}[2J")),
        ("phone", json!("9".repeat(31))),
        ("website", json!("javascript:alert(1)")),
        ("website", json!("ftp://files.example")),
        ("website", json!("https://localhost")),
        ("experience", json!("' OR 1=1 --")),
        ("monthlyVolume", json!("1000000")),
        ("selectedCampaigns", json!(["../../etc/passwd"])),
        ("selectedCampaigns", json!(["<script>alert(1)</script>"])),
        ("selectedCampaigns", json!("Roofing Inbound Calls\u{0000}")),
        ("additionalInfo", json!("y".repeat(2001))),
        ("additionalInfo", json!("bell\u{0007}")),
    ];
    let noise: Vec<Value> = vec![
        json!("\u{202e}\u{200b}👩‍🔧🏠"),
        json!([]),
        json!({"a": [1, {"b": null}]}),
        json!(1e308),
        json!("'; DROP TABLE submissions; --"),
    ];
    let kind = rng.next() % 7;
    let json_type = "application/json".to_string();
    let mut note = format!("kind {kind}");
    let result = match kind {
        0 => {
            let text = valid.to_string();
            let cut = (rng.next() as usize) % text.len();
            let broken = if rng.next().is_multiple_of(2) {
                text[..cut].to_string()
            } else {
                format!("{}\u{1}{}", &text[..cut], &text[cut..])
            };
            (if broken.is_empty() { "{".into() } else { broken }, json_type)
        }
        1 => {
            let top = [json!(null), json!([]), json!("apply"), json!(42), json!([valid.clone()])];
            (rng.pick(&top).to_string(), json_type)
        }
        2 | 3 => {
            let mut body = valid.clone();
            let field = *rng.pick(&REQUIRED);
            let value = rng.pick(&never_valid).clone();
            note = format!("kind {kind} field {field} value {value:.60}");
            if rng.next().is_multiple_of(4) {
                body.as_object_mut().map(|o| o.remove(field));
            } else {
                body[field] = value;
            }
            (body.to_string(), json_type)
        }
        4 => {
            let mut body = valid.clone();
            let (field, value) = rng.pick(&invalidating).clone();
            note = format!("kind 4 field {field}");
            body[field] = value;
            for i in 0..(rng.next() % 4) {
                body[format!("extra{i}")] = rng.pick(&noise).clone();
            }
            (body.to_string(), json_type)
        }
        5 => {
            let types = [
                "text/plain",
                "application/xml",
                "multipart/form-data; boundary=x",
                "application/json-patch+json",
                "",
            ];
            (valid.to_string(), rng.pick(&types).to_string())
        }
        _ => {
            // A form post missing a required field or carrying a bad value, with bad escapes.
            let field = *rng.pick(&REQUIRED);
            let mut pairs: Vec<String> = vec![
                "firstName=Jane".into(),
                "lastName=Okafor".into(),
                format!("email=hostile{n}%40leadflow.example"),
                "phone=412-555-0188".into(),
                "company=LeadFlow".into(),
                "experience=expert".into(),
                "monthlyVolume=1-50".into(),
                "selectedCampaigns=Roofing+Inbound+Calls".into(),
            ];
            pairs.retain(|p| !p.starts_with(&format!("{field}=")));
            if rng.next().is_multiple_of(2) {
                // Values no required field takes, however decoded.
                let bad = *rng.pick(&["%00", "+++", "%07", "%0A%0D", "%C2%85"]);
                pairs.push(format!("{field}={bad}"));
            }
            pairs.push(format!("junk%{}=1", rng.next() % 100));
            note = format!("kind 6 field {field}");
            (pairs.join("&"), "application/x-www-form-urlencoded".into())
        }
    };
    (result.0, result.1, note)
}

#[tokio::test]
async fn generated_hostile_bodies_get_a_4xx_on_both_stores() {
    for (name, store) in stores().await {
        let config = common::config(&[("RATE_LIMIT_PER_MINUTE", "100000")]);
        let s = common::start_with_store(config, site_server::assets::SSR_BUNDLE, store).await;
        let mut rng = common::Rng(0xA991_1CA7_1055_0042);
        let mut statuses = std::collections::BTreeMap::new();
        for n in 0..600u32 {
            let (body, content_type, note) = hostile_body(&mut rng, n);
            let mut request = s.client.post(s.url(PATH)).body(body.clone());
            if !content_type.is_empty() {
                request = request.header(CONTENT_TYPE, content_type.clone());
            }
            let r = request.send().await.expect("post");
            let status = r.status();
            let answered_as = r
                .headers()
                .get(CONTENT_TYPE)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("")
                .to_string();
            let text = r.text().await.expect("body");
            assert!(
                status.is_client_error(),
                "{name} #{n} {note} {content_type} …{} answered {status}: {text:.300}",
                &body[body.len().saturating_sub(300)..]
            );
            if content_type == "application/x-www-form-urlencoded" {
                assert!(
                    answered_as.starts_with("text/html") && text.contains("Application Error"),
                    "{name} #{n} {note}"
                );
            } else {
                let answer: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name} #{n} not JSON: {e}"));
                assert!(answer["error"].as_str().is_some_and(|m| !m.is_empty()), "{name} #{n}: {answer}");
            }
            *statuses.entry(status.as_u16()).or_insert(0) += 1;
        }
        for size in [16_385, 2_000_000] {
            let r = s
                .client
                .post(s.url(PATH))
                .header(CONTENT_TYPE, "application/json")
                .body(vec![b'['; size])
                .send()
                .await
                .expect("post");
            assert_eq!(r.status(), StatusCode::PAYLOAD_TOO_LARGE, "{name} {size}");
        }
        assert!(statuses.contains_key(&400) && statuses.contains_key(&415), "{name} {statuses:?}");
        assert_eq!(accepted(&s).await, 0, "{name}: nothing hostile was kept");
        // Still taking real applications.
        let r = s
            .client
            .post(s.url(PATH))
            .json(&valid("after@leadflow.example"))
            .send()
            .await
            .expect("post");
        assert_eq!(r.status(), StatusCode::CREATED, "{name}");
    }
}
