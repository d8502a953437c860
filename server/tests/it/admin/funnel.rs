//! The console's funnel (its first screen, GET /admin), on both stores: the daily counts the
//! database keeps by trigger (leads per local day by service and by source, delivered within
//! a minute, suppressed, erased) against leads seeded with known times, sources and
//! deliveries; the same counts made anew from the leads when the time zone changes; the
//! slowest deliveries; and the screen itself over real HTTP, where a source a visitor chose
//! is only ever text.

use crate::common;

use std::sync::Arc;

use reqwest::StatusCode;
use site_server::admin::zone::Zone;
use site_server::assets;
use site_server::leads::RequestContext;
use site_server::store::{Channel, FunnelKind, FunnelRow, NewAudit, Outbox, Person, RecountHold, SeedPlan, Store};

use common::admin::{add_staff, get, page, sign_in};
use common::stores::{Raw, execute, stores, texts, twin_stores};
use common::{config, new_lead, start_with_store, start_without_workers, unescape_html};

const NY: &str = "America/New_York";
const HOUR: i64 = 3_600_000;

fn audit(action: &'static str) -> NewAudit {
    NewAudit {
        staff_id: None,
        action,
        target: None,
        ip: None,
        detail: None,
    }
}

/// A lead seeded as the intake stores it, received at `at_ms`, with two notifications.
struct Seed {
    phone: &'static str,
    slug: &'static str,
    at_ms: i64,
    utm_source: Option<&'static str>,
    referrer: Option<&'static str>,
    /// When each notification (e-mail, webhook) is delivered, after arrival; None: not.
    delivered_after_ms: [Option<i64>; 2],
}

async fn seed(store: &Store, s: &Seed) -> String {
    let mut lead = new_lead(s.phone, s.slug);
    lead.context = RequestContext {
        page_url: Some(format!("https://www.ringready.example/{}?x=1", s.slug)),
        referrer: s.referrer.map(str::to_string),
        ..Default::default()
    };
    lead.context.utm.source = s.utm_source.map(str::to_string);
    let id = store
        .submit_lead(lead, vec![Channel::Email, Channel::Webhook], s.at_ms)
        .await
        .expect("lead")
        .id;
    let detail = store.lead_detail(&id).await.expect("read").expect("lead");
    // Never claimed: its claim token is still 0.
    for (delivery, after) in detail.deliveries.iter().zip(s.delivered_after_ms) {
        if let Some(after) = after {
            store
                .mark_delivered(Outbox::Leads, delivery.id, 0, 1, s.at_ms + after)
                .await
                .expect("delivered");
        }
    }
    id
}

/// `rows` as (day offset from `day0`, kind, key) → (leads, delivered, fast, suppressed, erased).
fn table(rows: &[FunnelRow], day0: i64) -> Vec<(i64, &'static str, String, [i64; 5])> {
    rows.iter()
        .map(|r| {
            let kind = match r.kind {
                FunnelKind::Service => "service",
                FunnelKind::Source => "source",
            };
            (
                r.day - day0,
                kind,
                r.key.clone(),
                [r.leads, r.delivered, r.fast, r.suppressed, r.erased],
            )
        })
        .collect()
}

#[tokio::test]
async fn the_daily_counts_follow_each_lead_on_both_stores() {
    let zone = Zone::new(NY);
    // 2025-03-08 12:00 EST; 2025-03-09 is the day clocks move to EDT.
    let day0_ms = 1_741_453_200_000;
    let day0 = zone.day_of(day0_ms);
    for (name, store) in stores().await {
        assert!(
            store.ensure_business_zone(&zone.offsets()).await.expect("zone"),
            "{name}: counted anew on first use"
        );
        assert!(
            !store.ensure_business_zone(&zone.offsets()).await.expect("zone"),
            "{name}: nothing to do the second time"
        );
        store
            .suppress("+14125550166", "asked", audit("suppress"), day0_ms)
            .await
            .expect("suppress");
        let seeds = [
            // Day 0: hvac from Google (UTM), delivered in 5 s and 20 s: within a minute.
            Seed {
                phone: "+14125550101",
                slug: "hvac",
                at_ms: day0_ms,
                utm_source: Some(" Google "),
                referrer: None,
                delivered_after_ms: [Some(5_000), Some(20_000)],
            },
            // Day 0: hvac referred by Facebook, e-mail in 2 s but the webhook in 5 min: slow.
            Seed {
                phone: "+14125550102",
                slug: "hvac",
                at_ms: day0_ms + HOUR,
                utm_source: None,
                referrer: Some("https://www.Facebook.com:443/groups/x?y=1"),
                delivered_after_ms: [Some(2_000), Some(300_000)],
            },
            // Day 0: roofing, referred from our own site: direct; webhook still pending.
            Seed {
                phone: "+14125550103",
                slug: "roofing",
                at_ms: day0_ms + 2 * HOUR,
                utm_source: None,
                referrer: Some("https://ringready.example/"),
                delivered_after_ms: [Some(1_000), None],
            },
            // Day 1 at 23:30 EDT (03:30 UTC the next day): still day 1 here. From Google.
            Seed {
                phone: "+14125550104",
                slug: "plumbing",
                at_ms: 1_741_577_400_000,
                utm_source: Some("google"),
                referrer: Some("https://bing.com/"),
                delivered_after_ms: [Some(59_000), Some(60_000)],
            },
            // Day 1: a number on the do-not-call list: suppressed, never delivered.
            Seed {
                phone: "+14125550166",
                slug: "hvac",
                at_ms: day0_ms + 24 * HOUR,
                utm_source: None,
                referrer: None,
                delivered_after_ms: [None, None],
            },
            // Day 1: erased afterwards; its source (bing.com) gives way to "erased".
            Seed {
                phone: "+14125550177",
                slug: "roofing",
                at_ms: day0_ms + 25 * HOUR,
                utm_source: None,
                referrer: Some("https://bing.com/search"),
                delivered_after_ms: [Some(90_000), Some(1_000)],
            },
        ];
        let mut ids = Vec::new();
        for s in &seeds {
            ids.push(seed(&store, s).await);
        }
        assert_eq!(zone.day_of(seeds[3].at_ms), day0 + 1, "23:30 EDT is the same local day");
        let erased = store
            .erase_person(&Person::PhoneE164("+14125550177".into()), audit("erase"), day0_ms + 30 * HOUR)
            .await
            .expect("erase");
        assert_eq!(erased.leads, 1);

        let kept = store.funnel_rows(day0 - 5, day0 + 5).await.expect("rows");
        let s = |day, kind, key: &str, counts| (day, kind, key.to_string(), counts);
        let expected = vec![
            s(0, "service", "hvac", [2, 2, 1, 0, 0]),
            s(0, "service", "roofing", [1, 0, 0, 0, 0]),
            s(0, "source", "direct", [1, 0, 0, 0, 0]),
            s(0, "source", "src:facebook.com", [1, 0, 0, 0, 0]),
            s(0, "source", "src:google", [1, 0, 0, 0, 0]),
            s(1, "service", "hvac", [1, 0, 0, 1, 0]),
            s(1, "service", "plumbing", [1, 1, 1, 0, 0]),
            s(1, "service", "roofing", [1, 1, 0, 0, 1]),
            s(1, "source", "direct", [1, 0, 0, 0, 0]),
            s(1, "source", "erased", [1, 0, 0, 0, 0]),
            s(1, "source", "src:google", [1, 0, 0, 0, 0]),
        ];
        assert_eq!(table(&kept, day0), expected, "{name}: kept by the triggers");
        assert_eq!(
            store.funnel_rows(day0 + 1, day0 + 1).await.expect("rows").len(),
            6,
            "{name}: a range of days"
        );

        // Another zone: counted anew from the leads (UTC: the 23:30 EDT lead is on day 2);
        // back to New York: the counts made anew are the ones the triggers kept.
        let utc = Zone::new("UTC");
        assert!(store.ensure_business_zone(&utc.offsets()).await.expect("zone"));
        let in_utc = table(&store.funnel_rows(day0 - 5, day0 + 5).await.expect("rows"), day0);
        assert!(in_utc.contains(&s(2, "service", "plumbing", [1, 1, 1, 0, 0])), "{name}: {in_utc:?}");
        assert!(store.ensure_business_zone(&zone.offsets()).await.expect("zone"));
        let recounted = store.funnel_rows(day0 - 5, day0 + 5).await.expect("rows");
        assert_eq!(table(&recounted, day0), expected, "{name}: counted anew from the leads");

        // The slowest deliveries since day 0, slowest first; since day 1, only day 1's.
        let slowest = store.slowest_deliveries(day0_ms - 12 * HOUR, 3).await.expect("slowest");
        let got: Vec<(String, String, i64)> = slowest.iter().map(|d| (d.lead_id.clone(), d.channel.clone(), d.took_ms)).collect();
        assert_eq!(
            got,
            vec![
                (ids[1].clone(), "webhook".into(), 300_000),
                (ids[5].clone(), "email".into(), 90_000),
                (ids[3].clone(), "webhook".into(), 60_000),
            ],
            "{name}"
        );
        assert_eq!(
            (slowest[0].service_slug.as_str(), slowest[0].received_at_ms),
            ("hvac", day0_ms + HOUR)
        );
        let later = store.slowest_deliveries(day0_ms + 20 * HOUR, 10).await.expect("slowest");
        assert_eq!(later.len(), 4, "{name}: the plumbing and the erased lead's notifications");
        assert!(later.iter().all(|d| d.received_at_ms >= day0_ms + 20 * HOUR));
    }
}

/// A referrer's source (its host, lower case, without user, port or a leading "www.", at most
/// 60 characters; "direct" for our own site or no host) is the same on both stores, as the
/// intake's trigger counts it and as a recount from the leads does: SQLite computes it in a
/// view, PostgreSQL in functions the planner inlines (migration 0012).
#[tokio::test]
async fn a_referrers_source_is_the_same_on_both_stores_however_odd_its_address() {
    let zone = Zone::new(NY);
    let day0_ms = 1_741_453_200_000;
    let day0 = zone.day_of(day0_ms);
    let long_host = format!("{}.example.com", "a".repeat(70));
    let cases: Vec<(Option<String>, &str)> = vec![
        (Some("https://user:pw@WWW.Example.COM:8443/a/b?c=d#e".into()), "example.com"),
        (Some("http://news.example.org?utm=1".into()), "news.example.org"),
        (Some("https://blog.example.net#top".into()), "blog.example.net"),
        (Some("https://a@b@c.example.com/".into()), "b@c.example.com"),
        (Some("https://[2001:db8::1]:8080/x".into()), "[2001"),
        (Some("https://wwwexample.com/".into()), "wwwexample.com"),
        (Some("https://www.www.example.com".into()), "www.example.com"),
        (Some(format!("https://{long_host}/")), &long_host[..60]),
        // Our own site (the page's host), no host at all, an empty referrer and none: direct.
        (Some("https://www.ringready.example/other".into()), "direct"),
        (Some("https:///nohost".into()), "direct"),
        (Some(String::new()), "direct"),
        (None, "direct"),
    ];
    let mut expected: Vec<(String, i64)> = Vec::new();
    for (_, source) in &cases {
        // A referring host is a visitor's source; "direct" is the funnel's own.
        let source = if *source == "direct" {
            source.to_string()
        } else {
            format!("src:{source}")
        };
        match expected.iter_mut().find(|(k, _)| *k == source) {
            Some((_, n)) => *n += 1,
            None => expected.push((source, 1)),
        }
    }
    expected.sort();
    for (name, store) in stores().await {
        store.ensure_business_zone(&zone.offsets()).await.expect("zone");
        for (i, (referrer, _)) in cases.iter().enumerate() {
            let mut lead = new_lead(&format!("+1412555{:04}", 200 + i), "hvac");
            lead.context = RequestContext {
                page_url: Some("https://www.ringready.example/hvac?x=1".into()),
                referrer: referrer.clone(),
                ..Default::default()
            };
            store.submit_lead(lead, vec![], day0_ms + i as i64).await.expect("lead");
        }
        let sources = |rows: Vec<FunnelRow>| {
            let mut got: Vec<(String, i64)> = rows
                .into_iter()
                .filter(|r| matches!(r.kind, FunnelKind::Source))
                .map(|r| (r.key, r.leads))
                .collect();
            got.sort();
            got
        };
        let counted = sources(store.funnel_rows(day0, day0).await.expect("rows"));
        assert_eq!(counted, expected, "{name}: as each lead was stored");
        assert!(store.ensure_business_zone(&Zone::new("UTC").offsets()).await.expect("zone"));
        assert!(store.ensure_business_zone(&zone.offsets()).await.expect("zone"));
        let recounted = sources(store.funnel_rows(day0, day0).await.expect("rows"));
        assert_eq!(recounted, expected, "{name}: counted anew from the leads");
    }
}

#[tokio::test]
async fn the_first_screen_shows_the_funnel_over_real_http() {
    let zone = Zone::new(NY);
    for (name, store) in stores().await {
        // The zone as the server running the scheduled jobs writes it (this one, at start).
        store.ensure_business_zone(&zone.offsets()).await.expect("zone");
        let now = site_server::store::now_ms();
        // Two leads five days ago, one 40 days ago (only in the 90-day view), their
        // notifications delivered before the server (and its outbox worker) starts.
        let five_days = now - 5 * 24 * HOUR;
        seed(
            &store,
            &Seed {
                phone: "+14125550201",
                slug: "hvac",
                at_ms: five_days,
                utm_source: Some("newsletter"),
                referrer: None,
                delivered_after_ms: [Some(3_000), Some(4_000)],
            },
        )
        .await;
        seed(
            &store,
            &Seed {
                phone: "+14125550202",
                slug: "roofing",
                at_ms: five_days + 1,
                utm_source: None,
                referrer: Some("https://yelp.com/biz/x"),
                delivered_after_ms: [Some(1_000), Some(185_000)],
            },
        )
        .await;
        seed(
            &store,
            &Seed {
                phone: "+14125550203",
                slug: "plumbing",
                at_ms: now - 40 * 24 * HOUR,
                utm_source: None,
                referrer: None,
                delivered_after_ms: [Some(1_000), Some(1_000)],
            },
        )
        .await;
        let server = start_with_store(config(&[]), assets::SSR_BUNDLE, Arc::clone(&store)).await;
        add_staff(&server, "fay@ringready.example").await;
        let session = sign_in(&server, "fay@ringready.example").await;

        // /admin is the funnel (no longer a redirect); /admin/ goes there.
        let (html, _) = page(&server, &session, "/admin").await;
        let text = unescape_html(&html);
        assert!(
            text.contains("<h1") && text.contains(">Funnel</h1>"),
            "{name}: the funnel's heading"
        );
        assert!(
            text.contains("aria-current=\"page\" href=\"/admin\"") || text.contains("href=\"/admin\" aria-current=\"page\""),
            "{name}: its place in the navigation"
        );
        for figure in [
            ">2</dd>",
            ">50%</dd>",
            "1 of 2",
            "Leads per day by service",
            "Leads per day by source",
            "HVAC",
            "Roofing",
            "newsletter",
            "yelp.com",
            "3 min",
            "Figures per day",
        ] {
            assert!(text.contains(figure), "{name}: {figure}");
        }
        assert!(!text.contains("Plumbing"), "{name}: the 40-day-old lead is not in the last 30 days");
        assert_eq!(html.matches("role=\"img\"").count(), 2, "{name}: two charts, each one named image");
        assert!(html.contains("<caption"), "{name}: their tables");
        // Every day of the period is a row of each table, the days of the business's zone.
        let today = Zone::date_of(zone.day_of(now)).expect("today").to_string();
        assert!(
            html.contains(&format!("<th scope=\"row\">{today}</th>")),
            "{name}: today is the last row"
        );
        assert_eq!(html.matches("<th scope=\"row\"").count(), 2 * 30, "{name}");

        let (html, _) = page(&server, &session, "/admin?days=90").await;
        let text = unescape_html(&html);
        assert!(text.contains(">3</dd>") && text.contains("Plumbing"), "{name}: 90 days");
        assert_eq!(html.matches("<th scope=\"row\"").count(), 2 * 90, "{name}");

        for bad in ["7", "90abc", "%3Cscript%3E", "-30", "999999999999999999999"] {
            let r = get(&server, &session, &format!("/admin?days={bad}")).await;
            assert_eq!(r.status(), StatusCode::BAD_REQUEST, "{name}: {bad}");
            assert!(r.text().await.expect("body").contains("30 or the last 90 days"), "{name}: {bad}");
        }
        let r = get(&server, &session, "/admin/").await;
        assert_eq!(
            (r.status(), r.headers()["location"].to_str().ok()),
            (StatusCode::SEE_OTHER, Some("/admin")),
            "{name}"
        );
        // The leads list is where it was.
        let (html, _) = page(&server, &session, "/admin/leads").await;
        assert!(html.contains(">Leads</h1>"), "{name}");
        // Without a session: the login page, coming back here.
        let r = server.client.get(server.url("/admin")).send().await.expect("get");
        assert_eq!(r.status(), StatusCode::SEE_OTHER);
        assert_eq!(r.headers()["location"], "/admin/login?next=/admin");
    }
}

/// A page's `<script` elements: each one's text, up to its end tag.
fn script_texts(html: &str) -> Vec<String> {
    let lower = html.to_ascii_lowercase();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = lower[from..].find("<script") {
        let start = from + at;
        let end = lower[start..].find("</script").map_or(html.len(), |e| start + e);
        out.push(html[start..end].to_string());
        from = end.max(start + 1);
    }
    out
}

/// Sources a visitor chose (UTM sources and referrers holding markup, or too long) reach the
/// funnel's page only as text: escaped in the HTML and in every island's props, never a tag,
/// never inside or out of a script element. Read from the page alone (how a source is keyed
/// may change), with the leads sent over HTTP as a visitor's page sends them. Both stores.
#[tokio::test]
async fn a_visitors_markup_in_a_source_is_only_text_on_the_funnel_page() {
    let long = format!("<b>{}</b>", "w".repeat(1500));
    let utm_sources = [
        "<script>alert(1)</script>",
        "\"><img src=x onerror=alert(1)>",
        "</script><script>alert(2)</script><!--",
        "'><svg onload=alert(3)>\u{2028}&amp;",
        long.as_str(),
    ];
    let referrers = [
        "https://evil.example/\"><img src=x onerror=alert(4)>",
        "https://evil.example/?q=</script><script>alert(5)</script>",
        "javascript:alert(6)",
    ];
    let encode = |s: &str| -> String {
        s.bytes()
            .map(|b| match b {
                b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'.' | b'_' => (b as char).to_string(),
                _ => format!("%{b:02X}"),
            })
            .collect()
    };
    for (name, store) in stores().await {
        let server = start_with_store(config(&[("RATE_LIMIT_PER_MINUTE", "100000")]), assets::SSR_BUNDLE, store).await;
        add_staff(&server, "gus@ringready.example").await;
        let session = sign_in(&server, "gus@ringready.example").await;
        let (before, _) = page(&server, &session, "/admin").await;
        let mut n = 0;
        let mut send = async |page_url: String, referrer: Option<&str>| {
            n += 1;
            let mut body = common::lead_body("hvac", &common::phone(8000 + n));
            body["pageUrl"] = serde_json::json!(page_url);
            if let Some(referrer) = referrer {
                body["referrer"] = serde_json::json!(referrer);
            }
            common::accepted_lead(&server, &body, referrer.unwrap_or("")).await;
        };
        for source in utm_sources {
            let url = format!("https://www.ringready.example/hvac?utm_source={}", encode(source));
            send(url, Some("https://www.google.com/")).await;
        }
        for referrer in referrers {
            send("https://www.ringready.example/hvac".into(), Some(referrer)).await;
        }

        let r = get(&server, &session, "/admin").await;
        assert_eq!(r.status(), StatusCode::OK, "{name}");
        let html = r.text().await.expect("body");
        let text = unescape_html(&html);
        // The sources are on the page, as text (each UTM source, in lower case, at least
        // the start of it).
        for shown in [
            "<script>alert(1)</script>",
            "\"><img src=x onerror=alert(1)>",
            "'><svg onload=alert(3)>",
        ] {
            assert!(text.contains(shown), "{name}: {shown} is shown as text");
        }
        assert!(text.contains("<b>wwwww"), "{name}: the long source, or its start");
        // Never as markup: no tag, no script element more than the page always has, and no
        // visitor's text inside one.
        let lower = html.to_ascii_lowercase();
        let before_lower = before.to_ascii_lowercase();
        // (The charts draw an `<svg` for every series in their legends, which the leads add:
        // the visitor's own `<svg` is counted by its attribute.)
        for tag in ["<img", "<svg onload", "<b>", "<!--"] {
            assert_eq!(
                lower.matches(tag).count(),
                before_lower.matches(tag).count(),
                "{name}: no {tag:?} more than the page had without the leads"
            );
        }
        assert_eq!(script_texts(&html), script_texts(&before), "{name}: the same script elements");
        assert_eq!(
            lower.matches("</script").count(),
            before_lower.matches("</script").count(),
            "{name}: no script element closed early"
        );
        assert!(!lower.contains("javascript:"), "{name}: no javascript: link");
        // Every island's props are an attribute of well-formed JSON holding no raw markup.
        for props in html.split("data-props=\"").skip(1) {
            let value = props.split('"').next().unwrap_or("");
            assert!(!value.contains('<') && !value.contains('>'), "{name}: {value}");
            let parsed: Result<serde_json::Value, _> = serde_json::from_str(&unescape_html(value));
            assert!(parsed.is_ok(), "{name}: props that parse: {value}");
        }
    }
}

/// The source rows of `rows`, as (key, leads), sorted.
fn source_rows(rows: &[FunnelRow]) -> Vec<(String, i64)> {
    let mut got: Vec<(String, i64)> = rows
        .iter()
        .filter(|r| r.kind == FunnelKind::Source)
        .map(|r| (r.key.clone(), r.leads))
        .collect();
    got.sort();
    got
}

/// A lead whose page named a UTM source, received at `at_ms`.
async fn lead_from(store: &Store, phone: &str, utm_source: Option<&str>, at_ms: i64) -> String {
    let mut lead = new_lead(phone, "hvac");
    lead.context = RequestContext {
        page_url: Some(match utm_source {
            Some(s) => format!("https://www.ringready.example/hvac?utm_source={s}"),
            None => "https://www.ringready.example/hvac".into(),
        }),
        ..Default::default()
    };
    lead.context.utm.source = utm_source.map(str::to_string);
    store.submit_lead(lead, vec![], at_ms).await.expect("lead").id
}

/// Forces the counts to be made anew from the leads (another zone, then `zone` again).
async fn recount(store: &Store, zone: &Zone) {
    assert!(store.ensure_business_zone(&Zone::new("UTC").offsets()).await.expect("zone"));
    assert!(store.ensure_business_zone(&zone.offsets()).await.expect("zone"));
}

/// On PostgreSQL the writer counts its own leads' sources (docs/decisions/034): its key for
/// a source is the database's `lead_source` for every mix of UTM source, referrer and page,
/// odd ones included (spaces, capitals beyond ASCII, no scheme, a user, a port, `www.`,
/// more than 60 characters of several bytes each).
#[tokio::test]
async fn the_writers_key_for_a_source_is_the_databases_for_any_address() {
    let Some((_store, raw)) = common::stores::postgres_store().await else {
        eprintln!("TEST_DATABASE_URL is not set: this PostgreSQL test did not run");
        return;
    };
    let long = "é".repeat(70);
    let utms: Vec<Option<String>> = vec![
        None,
        Some(String::new()),
        Some("   ".into()),
        Some("\tMail\t".into()),
        Some("  News Letter  ".into()),
        Some("ÉLODIE-Dupont".into()),
        Some(long.clone()),
    ];
    let addresses: Vec<Option<String>> = vec![
        None,
        Some(String::new()),
        Some("ab".into()),
        Some("abcdef.example/x".into()),
        Some("://".into()),
        Some("https://user:pw@WWW.Example.COM:8443/a/b?c=d#e".into()),
        Some("http://news.example.org?utm=1".into()),
        Some("https://a@b@c.example.com/".into()),
        Some("https://[2001:db8::1]:8080/x".into()),
        Some("https://www.www.example.com".into()),
        Some("https://wwwexample.com/".into()),
        Some("HTTPS://WWW.RINGREADY.EXAMPLE/hvac".into()),
        Some("https://www.ringready.example/other".into()),
        Some(format!("https://{long}.example/")),
        Some("https:///nohost".into()),
        Some("https://ÉCOLE.example.com/".into()),
    ];
    let pages: Vec<Option<String>> = vec![
        None,
        Some("https://www.ringready.example/hvac?x=1".into()),
        Some("ringready.example".into()),
    ];
    let client = common::stores::pg_client(&raw).await;
    let asked = client.prepare("SELECT lead_source($1, $2, $3, NULL)").await.expect("prepare");
    let mut checked = 0;
    for utm in &utms {
        for referrer in &addresses {
            for page in &pages {
                let theirs: String = client.query_one(&asked, &[utm, referrer, page]).await.expect("lead_source").get(0);
                let ours = site_server::store::new_lead_source_key(utm.as_deref(), referrer.as_deref(), page.as_deref());
                assert_eq!(ours, theirs, "utm {utm:?}, referrer {referrer:?}, page {page:?}");
                checked += 1;
            }
        }
    }
    assert_eq!(checked, utms.len() * addresses.len() * pages.len());
}

/// On PostgreSQL the writer's INSERT counts its leads and the insert trigger stands aside
/// for them (migration 0017): a group of leads stored at once, one from a number on the
/// do-not-call list, and a lead written by another path (a hand-written INSERT, as an older
/// server's) are each counted once, by day, service and source, as a recount from the leads
/// counts them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_writers_leads_and_a_lead_from_another_path_are_each_counted_once() {
    let Some((store, raw)) = common::stores::postgres_store().await else {
        eprintln!("TEST_DATABASE_URL is not set: this PostgreSQL test did not run");
        return;
    };
    let zone = Zone::new(NY);
    store.ensure_business_zone(&zone.offsets()).await.expect("zone");
    // 23:59 in New York on 8 March 2025 (midnight is 05:00 UTC), then a minute later: two
    // business days.
    let day0_ms = 1_741_410_000_000 + 23 * HOUR + 59 * 60_000;
    let day0 = zone.day_of(day0_ms);
    store
        .suppress("+14125550799", "asked", audit("suppress"), day0_ms - HOUR)
        .await
        .expect("suppress");
    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..40i64 {
        let store = Arc::clone(&store);
        tasks.spawn(async move {
            let utm = if i % 2 == 0 { "Mail" } else { "print" };
            lead_from(&store, &format!("+1412555{:04}", 700 + i), Some(utm), day0_ms + (i % 2) * 60_000).await
        });
    }
    let suppressed = Arc::clone(&store);
    tasks.spawn(async move { lead_from(&suppressed, "+14125550799", None, day0_ms).await });
    let ids = tasks.join_all().await;
    assert_eq!(ids.len(), 41);
    // A copy of the first lead (+14125550700, 23:59), written by hand.
    execute(
        &raw,
        "CREATE TEMP TABLE other AS SELECT * FROM leads WHERE phone_e164 = '+14125550700'; \
         UPDATE other SET id = 'another-path', phone_e164 = '+14125550798', utm_source = 'print', delivery_status = 'pending'; \
         INSERT INTO leads SELECT * FROM other",
    )
    .await;
    let counted = table(&store.funnel_rows(day0, day0 + 1).await.expect("rows"), day0);
    let row = |day: i64, kind: &str, key: &str| {
        counted
            .iter()
            .find(|r| r.0 == day && r.1 == kind && r.2 == key)
            .map(|r| r.3)
            .unwrap_or_default()
    };
    // Even leads came at 23:59 and are all "Mail"; odd ones a minute later, "print"; the
    // hand-written copy of the first came at 23:59 too, as "print"; the suppressed one at 23:59.
    assert_eq!(row(0, "service", "hvac"), [22, 0, 0, 1, 0], "{counted:?}");
    assert_eq!(row(1, "service", "hvac"), [20, 0, 0, 0, 0], "{counted:?}");
    assert_eq!(row(0, "source", "src:mail"), [20, 0, 0, 0, 0], "{counted:?}");
    assert_eq!(row(0, "source", "src:print"), [1, 0, 0, 0, 0], "{counted:?}");
    assert_eq!(row(1, "source", "src:print"), [20, 0, 0, 0, 0], "{counted:?}");
    assert_eq!(row(0, "source", "direct"), [1, 0, 0, 0, 0], "{counted:?}");
    assert_eq!(counted.len(), 6, "{counted:?}");
    recount(&store, &zone).await;
    let recounted = table(&store.funnel_rows(day0, day0 + 1).await.expect("rows"), day0);
    assert_eq!(recounted, counted, "a recount from the leads finds the same counts");
}

/// A source carrying a person's name with capitals beyond ASCII ("Élodie-dupont") is counted
/// under one key however it is reached: the insert's trigger, the erasure's and a recount
/// agree on both stores (ASCII letters folded, the same on both), so erasing her leaves no
/// row naming her. (After `site copy-store`, see copy_store.rs.)
#[tokio::test]
async fn erasing_a_person_whose_source_has_capitals_beyond_ascii_leaves_no_row_naming_her() {
    let zone = Zone::new(NY);
    let day0_ms = 1_741_453_200_000;
    let day0 = zone.day_of(day0_ms);
    for (name, store, raw) in common::stores::raw_stores().await {
        store.ensure_business_zone(&zone.offsets()).await.expect("zone");
        lead_from(&store, "+14125550301", Some("Élodie-dupont"), day0_ms).await;
        lead_from(&store, "+14125550302", Some("Google"), day0_ms + 1).await;
        lead_from(&store, "+14125550303", Some("google"), day0_ms + 2).await;
        let kept = source_rows(&store.funnel_rows(day0, day0).await.expect("rows"));
        assert_eq!(
            kept,
            [("src:google".to_string(), 2), ("src:Élodie-dupont".to_string(), 1)],
            "{name}: ASCII capitals folded, others kept, on both stores"
        );
        recount(&store, &zone).await;
        assert_eq!(
            source_rows(&store.funnel_rows(day0, day0).await.expect("rows")),
            kept,
            "{name}: a recount makes the same keys"
        );
        let erased = store
            .erase_person(&Person::PhoneE164("+14125550301".into()), audit("erase"), day0_ms + HOUR)
            .await
            .expect("erase");
        assert_eq!(erased.leads, 1);
        assert_eq!(
            texts(
                &raw,
                "SELECT COUNT(*) FROM lead_days WHERE key LIKE '%lodie%' OR key LIKE '%LODIE%'"
            )
            .await,
            [Some("0".to_string())],
            "{name}: no row names her"
        );
        assert_eq!(
            source_rows(&store.funnel_rows(day0, day0).await.expect("rows")),
            [("erased".to_string(), 1), ("src:google".to_string(), 2)],
            "{name}"
        );
    }
}

/// `?utm_source=Erased` and `?utm_source=direct` are a visitor's words: counted as the
/// sources "erased" and "direct", never as erased leads or direct visits, in the rows and on
/// the screen (where the funnel's own are "Direct (no referrer)" and "Erased (source
/// removed)"), on both stores.
#[tokio::test]
async fn a_visitors_source_named_like_the_funnels_own_kinds_stays_the_visitors() {
    let zone = Zone::new(NY);
    for (name, store) in stores().await {
        store.ensure_business_zone(&zone.offsets()).await.expect("zone");
        let now = site_server::store::now_ms();
        let day = zone.day_of(now - 2 * HOUR);
        lead_from(&store, "+14125550401", Some("Erased"), now - 2 * HOUR).await;
        lead_from(&store, "+14125550402", Some("direct"), now - 2 * HOUR).await;
        lead_from(&store, "+14125550403", Some(" DIRECT "), now - 2 * HOUR).await;
        lead_from(&store, "+14125550404", Some("<b>Erased</b>"), now - 2 * HOUR).await;
        lead_from(&store, "+14125550405", None, now - 2 * HOUR).await;
        let rows = store.funnel_rows(day, day).await.expect("rows");
        let mut shown: Vec<(String, i64)> = source_rows(&rows)
            .into_iter()
            .map(|(key, n)| (site_server::admin::funnel::source_label(&key), n))
            .collect();
        shown.sort();
        assert_eq!(
            shown,
            [
                ("<b>erased</b>".to_string(), 1),
                ("Direct (no referrer)".to_string(), 1),
                ("direct".to_string(), 2),
                ("erased".to_string(), 1),
            ],
            "{name}: the visitor's words are theirs"
        );
        let erased: i64 = rows.iter().map(|r| r.erased).sum();
        assert_eq!(erased, 0, "{name}: nobody was erased");
        // Counted anew from the leads: the same.
        recount(&store, &zone).await;
        let again = store.funnel_rows(day, day).await.expect("rows");
        assert_eq!(source_rows(&again), source_rows(&rows), "{name}: a recount agrees");

        // On the screen: the visitor's text, escaped, beside the funnel's own label.
        let server = start_with_store(config(&[]), assets::SSR_BUNDLE, Arc::clone(&store)).await;
        add_staff(&server, "fay@ringready.example").await;
        let session = sign_in(&server, "fay@ringready.example").await;
        let (html, _) = page(&server, &session, "/admin").await;
        assert!(html.contains("&lt;b&gt;erased&lt;/b&gt;"), "{name}: escaped text");
        assert!(!html.contains("<b>erased</b>"), "{name}: never markup");
        let text = unescape_html(&html);
        assert!(text.contains("Direct (no referrer)"), "{name}: the one direct visit");
        assert!(!text.contains("Erased (source removed)"), "{name}: no erased lead");
        for label in [">direct<", ">erased<"] {
            assert!(text.contains(label), "{name}: {label} as the visitor's source");
        }
    }
}

/// The zone's name as `business_zone` holds it (one row per offset, one name).
async fn stored_zone(raw: &Raw) -> Vec<Option<String>> {
    texts(raw, "SELECT DISTINCT zone FROM business_zone").await
}

/// Two servers on one database, set to different zones: the one that does not run the
/// scheduled jobs shows the funnel as the database counts it and says its own zone differs
/// (the page, the health page, /metrics), and never rewrites the zone nor counts anew (which
/// took the counts' lock for the length of a recount on PostgreSQL, holding up lead intake).
#[tokio::test]
async fn a_server_set_to_another_zone_reports_it_and_never_rewrites_the_counts() {
    let ny = Zone::new(NY);
    for (name, store, other_store, raw) in twin_stores().await {
        store.ensure_business_zone(&ny.offsets()).await.expect("zone");
        let now = site_server::store::now_ms();
        lead_from(&store, "+14125550501", Some("newsletter"), now - 3 * HOUR).await;
        let before = store.funnel_rows(0, i64::MAX / 2).await.expect("rows");

        let mut paris = config(&[]);
        paris.site.time_zone = "Europe/Paris".into();
        let server = start_without_workers(paris, Arc::clone(&other_store)).await;
        add_staff(&server, "fay@ringready.example").await;
        let session = sign_in(&server, "fay@ringready.example").await;
        for path in ["/admin", "/admin?days=90", "/admin"] {
            let (html, _) = page(&server, &session, path).await;
            assert_eq!(stored_zone(&raw).await, [Some(NY.to_string())], "{name}: the zone is not rewritten");
            let text = unescape_html(&html);
            assert!(
                text.contains("America/New_York, the zone the database counts days in; this server is set to Europe/Paris"),
                "{name}: the page says which zone the days are in: {text}"
            );
            assert!(text.contains("newsletter"), "{name}: the counts as they are");
        }
        assert_eq!(
            store.funnel_rows(0, i64::MAX / 2).await.expect("rows"),
            before,
            "{name}: nor the counts"
        );
        let (health, _) = page(&server, &session, "/admin/health").await;
        let health = unescape_html(&health);
        assert!(
            health.contains("Funnel's time zone") && health.contains("Europe/Paris: differs"),
            "{name}: the health page says so"
        );
        assert!(
            server.metrics().await.contains("\nsite_funnel_zone_mismatch 1"),
            "{name}: and /metrics"
        );
        // The same zone on a server: no difference to report.
        let same = start_without_workers(config(&[]), Arc::clone(&other_store)).await;
        let session = sign_in(&same, "fay@ringready.example").await;
        let (html, _) = page(&same, &session, "/admin").await;
        assert!(!unescape_html(&html).contains("the zone the database counts days in"), "{name}");
        let _ = page(&same, &session, "/admin/health").await;
        assert!(same.metrics().await.contains("\nsite_funnel_zone_mismatch 0"), "{name}");
    }
}

/// Counting anew (a new time zone) with many leads stored: leads keep arriving while it
/// counts (each stored well within the 2 s a request may take, and before the recount is
/// done), and each change during it is counted once: new leads, a delivery status moving
/// (a number put on the do-not-call list), an older lead erased. The result equals a count
/// made afresh from the leads, on both stores.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leads_are_stored_while_the_funnel_is_counted_anew_and_each_is_counted_once() {
    const N: i64 = 60_000;
    const WAITING: i64 = 2;
    let ny = Zone::new(NY);
    let chicago = Zone::new("America/Chicago");
    for (name, store, raw) in common::stores::raw_stores().await {
        store.ensure_business_zone(&ny.offsets()).await.expect("zone");
        let now = site_server::store::now_ms();
        // Many leads, the last 41 days' (one a minute); and two whose notifications wait.
        let plan = SeedPlan {
            leads: N,
            newest_ms: now - HOUR,
            spacing_ms: 60_000,
            id_prefix: "r".into(),
            services: vec!["hvac".into(), "roofing".into(), "solar".into()],
            notifications: false,
        };
        store.seed_leads(&plan).await.expect("seed");
        let waiting = |phone| Seed {
            phone,
            slug: "roofing",
            at_ms: now - 2 * HOUR,
            utm_source: None,
            referrer: Some("https://yelp.com/biz/x"),
            delivered_after_ms: [None, None],
        };
        let to_deliver = seed(&store, &waiting("+14125550611")).await;
        let to_suppress = seed(&store, &waiting("+14125550612")).await;
        let all = |rows: &[FunnelRow], kind: FunnelKind| -> i64 { rows.iter().filter(|r| r.kind == kind).map(|r| r.leads).sum() };
        let before = store.funnel_rows(0, i64::MAX / 2).await.expect("rows");
        assert_eq!(all(&before, FunnelKind::Service), N + WAITING, "{name}");

        // The recount is held once it has counted its snapshot, so the changes below fall
        // between its cut and its end however fast this machine counts.
        let (hold, mut held) = RecountHold::new();
        let counting = {
            let store = Arc::clone(&store);
            let chicago = chicago.offsets();
            let reason = store
                .funnel_state()
                .await
                .expect("state")
                .recount_reason(&chicago)
                .expect("a new zone");
            tokio::spawn(async move { store.recount_funnel(&chicago, &reason, hold).await })
        };
        // The recount has begun once the new zone is written: two leads while it cuts or counts.
        while stored_zone(&raw).await != [Some("America/Chicago".to_string())] && !counting.is_finished() {
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
        let started = std::time::Instant::now();
        lead_from(&store, "+14125550601", Some("during"), now).await;
        lead_from(&store, "+14125550602", None, now).await;
        assert!(held.reached().await, "{name}: the recount counted its snapshot");
        // A lead's notifications delivered within the minute (its status and the counts of
        // delivered and fast follow), another's number put on the do-not-call list (its
        // status becomes suppressed), and an older lead erased.
        let status = async |id: &str| texts(&raw, &format!("SELECT delivery_status FROM leads WHERE id = '{id}'")).await;
        let detail = store.lead_detail(&to_deliver).await.expect("read").expect("lead");
        for delivery in &detail.deliveries {
            store
                .mark_delivered(Outbox::Leads, delivery.id, 0, 1, now - 2 * HOUR + 30_000)
                .await
                .expect("delivered");
        }
        store
            .suppress("+14125550612", "asked", audit("suppress"), now)
            .await
            .expect("suppress");
        let older = store.lead("r-00001000").await.expect("read").expect("lead");
        let erased = store
            .erase_person(&Person::PhoneE164(older.phone.clone()), audit("erase"), now)
            .await
            .expect("erase");
        assert_eq!(erased.leads, 1);
        let took = started.elapsed();
        assert!(
            !counting.is_finished(),
            "{name}: two leads, a suppression and an erasure went in while the recount was still counting"
        );
        assert!(
            took < std::time::Duration::from_secs(2),
            "{name}: well within a request's 2 s ({took:?})"
        );
        held.release();
        counting.await.expect("task").expect("recount");
        assert_eq!(status(&to_deliver).await, [Some("delivered".to_string())], "{name}");
        assert_eq!(status(&to_suppress).await, [Some("suppressed".to_string())], "{name}");

        let kept = store.funnel_rows(0, i64::MAX / 2).await.expect("rows");
        assert_eq!(all(&kept, FunnelKind::Service), N + WAITING + 2, "{name}: each lead once");
        assert_eq!(all(&kept, FunnelKind::Source), N + WAITING + 2, "{name}: each lead's source once");
        assert_eq!(kept.iter().map(|r| r.erased).sum::<i64>(), 1, "{name}: the erasure once");
        assert!(
            kept.iter()
                .any(|r| r.kind == FunnelKind::Source && r.key == "src:during" && r.leads == 1),
            "{name}: the lead that came during the recount"
        );
        let sum = |f: fn(&FunnelRow) -> i64| kept.iter().map(f).sum::<i64>();
        assert_eq!(
            (sum(|r| r.delivered), sum(|r| r.fast), sum(|r| r.suppressed)),
            (1, 1, 1 + N / 1009 + 1),
            "{name}: the delivery and the suppression once (and the seed's suppressed leads)"
        );
        assert!(
            kept.iter().all(|r| r.leads >= 0 && r.delivered >= 0 && r.suppressed >= 0),
            "{name}: no row below 0"
        );
        recount(&store, &chicago).await;
        let afresh = store.funnel_rows(0, i64::MAX / 2).await.expect("rows");
        assert_eq!(
            table(&kept, 0),
            table(&afresh, 0),
            "{name}: what a count afresh from the leads makes"
        );
    }
}

/// Two servers on one database with their workers, set to different zones: the one running
/// the scheduled jobs writes its zone and counts anew, once; the other reports that its zone
/// differs (/metrics) and neither rewrites the zone nor counts anew.
#[tokio::test]
async fn only_the_server_running_the_jobs_counts_anew_and_once() {
    for (name, store, other_store, raw) in twin_stores().await {
        let now = site_server::store::now_ms();
        lead_from(&store, "+14125550801", Some("newsletter"), now - 3 * HOUR).await;
        let recounts = "site_scheduled_job_runs_total{job=\"funnel_recount\"}";
        let (first, _first_workers) = common::start_with_background(config(&[]), assets::SSR_BUNDLE, Arc::clone(&store)).await;
        common::eventually(30, "the first server runs the jobs and counts in its zone", async || {
            let m = first.metrics().await;
            common::sample(&m, "site_jobs_leader") == Some(1.0) && common::sample(&m, recounts) == Some(1.0)
        })
        .await;
        assert_eq!(stored_zone(&raw).await, [Some(NY.to_string())], "{name}");

        let mut paris = config(&[]);
        paris.site.time_zone = "Europe/Paris".into();
        let (second, _second_workers) = common::start_with_background(paris, assets::SSR_BUNDLE, Arc::clone(&other_store)).await;
        common::eventually(30, "the second server reports its zone differs", async || {
            common::sample(&second.metrics().await, "site_funnel_zone_mismatch") == Some(1.0)
        })
        .await;
        let m = second.metrics().await;
        assert_eq!(common::sample(&m, "site_jobs_leader"), Some(0.0), "{name}");
        assert_eq!(common::sample(&m, recounts), None, "{name}: the second server never counts anew");
        assert_eq!(stored_zone(&raw).await, [Some(NY.to_string())], "{name}: nor writes its zone");
        let m = first.metrics().await;
        assert_eq!(common::sample(&m, recounts), Some(1.0), "{name}: counted once");
        assert_eq!(common::sample(&m, "site_funnel_zone_mismatch"), Some(0.0), "{name}");
    }
}
