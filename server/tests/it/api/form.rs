//! A refused form post comes back one way for every public form (`api::form`): the form's
//! page rendered by React for that answer alone, with the refusal's status, the error, and
//! the values the visitor sent back in their fields, as text only (markup in a value never
//! comes back as markup), never stored by a browser or kept in the server's cache, and never
//! listed by a search engine. The thank-you pages and the apply page are pages like the
//! others: rendered once, then served from the cache, kept out of search results.

use crate::common;

use reqwest::StatusCode;
use reqwest::header::{CACHE_CONTROL, CONTENT_TYPE};

/// A value in every kept field: it closes a quoted attribute, a textarea and the element it
/// is in, then starts a script.
const HOSTILE: &str = "\"'></textarea></p><script>alert(1)</script><img src=x onerror=alert(2)>";

/// What `HOSTILE` is once React has escaped it, in an attribute or as text.
const ESCAPED: &str = "&quot;&#x27;&gt;&lt;/textarea&gt;&lt;/p&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;";

/// A form post refused: its endpoint, its fields, the message it gets.
type RefusedPost = (&'static str, Vec<(&'static str, String)>, &'static str);

/// The three forms, each posted without JavaScript with a rule broken and `HOSTILE` in the
/// fields it keeps.
fn refused_posts() -> Vec<RefusedPost> {
    let hostile = HOSTILE.to_string();
    vec![
        (
            site_server::api::SUBMIT_LEAD_PATH,
            vec![
                ("serviceSlug", "hvac".to_string()),
                ("fullName", hostile.clone()),
                ("phone", "412-555-0199".to_string()),
                ("zipCode", hostile.clone()),
                ("tcpa_text", common::consent_text()),
                ("hp_website", String::new()),
            ],
            site_server::leads::validate::MSG_ZIP_INVALID,
        ),
        (
            site_server::api::APPLICATIONS_PATH,
            vec![
                ("firstName", hostile.clone()),
                ("lastName", " ".to_string()),
                ("email", "omar@leadflow.example".to_string()),
                ("additionalInfo", hostile.clone()),
                ("selectedCampaigns", "Roofing Inbound Calls".to_string()),
                ("hp_website", String::new()),
            ],
            "Last name is required",
        ),
        (
            site_server::api::ACCOUNT_REQUESTS_PATH,
            vec![
                ("source", "request".to_string()),
                ("accountType", "call-buyer".to_string()),
                ("firstName", hostile.clone()),
                ("lastName", "Ortega".to_string()),
                ("email", "luis@ortegaroofing.example".to_string()),
                ("phone", "0".to_string()),
                ("serviceAreas", hostile.clone()),
                ("hp_website", String::new()),
            ],
            "Please enter a valid phone number",
        ),
    ]
}

fn open_limit() -> site_server::config::Config {
    common::config(&[("RATE_LIMIT_PER_MINUTE", "100000")])
}

#[tokio::test]
async fn every_form_refused_comes_back_as_its_page_with_the_values_as_text() {
    let s = common::start_with(open_limit(), site_server::assets::SSR_BUNDLE).await;
    for (path, form, message) in refused_posts() {
        let r = s.client.post(s.url(path)).form(&form).send().await.expect("post");
        assert_eq!(r.status(), StatusCode::BAD_REQUEST, "{path}");
        assert!(r.headers()[CONTENT_TYPE].to_str().expect("type").starts_with("text/html"), "{path}");
        assert_eq!(r.headers()[CACHE_CONTROL], "no-store", "{path}");
        let html = r.text().await.expect("html");
        assert!(html.starts_with("<!doctype html>"), "{path}: the document shell");
        assert!(html.contains("<meta name=\"robots\" content=\"noindex\">"), "{path}");
        assert!(html.contains(message), "{path}: the message");
        assert!(html.contains(" method=\"post\">"), "{path}: the form, to send again");
        assert!(html.contains("name=\"hp_website\""), "{path}: the one honeypot");
        // Every kept field came back, as text: in a value attribute, inside a textarea, or
        // in an island's props (an attribute too).
        assert!(html.matches(ESCAPED).count() >= 2, "{path}: the values come back escaped\n{html}");
        for raw in ["<script>alert", "<img src=x", "</textarea></p>"] {
            assert!(!html.contains(raw), "{path}: {raw:?} came back as markup");
        }
    }
    assert_eq!(s.state.store.count_leads().await.expect("count"), 0);
}

#[tokio::test]
async fn a_refusal_is_rendered_for_its_visitor_alone() {
    let s = common::start_with(open_limit(), site_server::assets::SSR_BUNDLE).await;
    // Two visitors break the same rule: each page holds its own visitor's values only, so no
    // answer was served from what was rendered for another.
    for name in ["Ruth Abernathy", "Omar Haddad"] {
        let form = [
            ("serviceSlug", "plumbing"),
            ("fullName", name),
            ("phone", "412-555-0199"),
            ("tcpa_text", "a wording the page never showed"),
        ];
        let r = s
            .client
            .post(s.url(site_server::api::SUBMIT_LEAD_PATH))
            .form(&form)
            .send()
            .await
            .expect("post");
        assert_eq!(r.status(), StatusCode::BAD_REQUEST);
        let html = r.text().await.expect("html");
        assert!(html.contains(&format!("value=\"{name}\"")), "{name}");
        for other in ["Ruth Abernathy", "Omar Haddad"].iter().filter(|o| **o != name) {
            assert!(!html.contains(other), "{name}'s page shows {other}");
        }
    }
    // A body that is not UTF-8: the page still answers, with the message and no value.
    let r = s
        .client
        .post(s.url(site_server::api::APPLICATIONS_PATH))
        .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(b"firstName=\xff\xfe".to_vec())
        .send()
        .await
        .expect("post");
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    let html = r.text().await.expect("html");
    assert!(html.contains(site_server::api::MSG_UNREADABLE) && html.contains("Campaign Application"));
}

#[tokio::test]
async fn the_thank_you_pages_and_the_apply_page_are_unlisted_cached_pages() {
    let s = common::start().await;
    for (path, text) in [
        ("/callback-requested?service=hvac", "Back to HVAC"),
        ("/callback-requested?service=no-such-service", "Back to the home page"),
        ("/callback-requested", "Back to the home page"),
        ("/register/thanks?type=affiliate", "Your Affiliate registration"),
        ("/register/thanks?type=pilot", "Your account registration"),
        ("/campaigns/applied", "Application Submitted!"),
        (
            "/campaigns/apply?campaign=Roofing%20Inbound%20Calls",
            "Applying for: <strong>Roofing Inbound Calls</strong>",
        ),
        (
            "/campaigns/apply?campaign=%3Cscript%3Ealert(1)",
            "Tick every campaign you want to run.",
        ),
    ] {
        let first = s.get(path).await;
        assert_eq!(first.status(), StatusCode::OK, "{path}");
        assert_eq!(first.headers()[CACHE_CONTROL], "no-store", "{path}");
        let etag = first.headers()["etag"].clone();
        let html = first.text().await.expect("html");
        assert!(html.contains("<meta name=\"robots\" content=\"noindex\">"), "{path}");
        assert!(html.contains(text), "{path}: {text}");
        assert!(
            !html.contains("<script>alert"),
            "{path}: nothing of the address comes back as markup"
        );
        // The same bytes again, from the cache.
        let again = s.get(path).await;
        assert_eq!(again.headers()["etag"], etag, "{path}");
    }
    let sitemap = s.get("/sitemap.xml").await.text().await.expect("sitemap");
    for path in ["/callback-requested", "/register/thanks", "/campaigns/apply", "/campaigns/applied"] {
        assert!(!sitemap.contains(path), "{path} is not in the sitemap");
        // A page, not an endpoint: other methods are not allowed.
        let r = s.client.delete(s.url(path)).send().await.expect("delete");
        assert_eq!(r.status(), StatusCode::METHOD_NOT_ALLOWED, "{path}");
    }
}
