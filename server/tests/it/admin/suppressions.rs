//! The do-not-call page over real HTTP, on both stores: the whole list, newest first, a page
//! at a time (numbers added in the same millisecond included, none skipped or shown twice);
//! one number found however a person types it; hostile cursors and searches refused calmly.

use crate::common;

use reqwest::StatusCode;
use site_server::assets;
use site_server::store::now_ms;

use common::admin::{add_staff, audit, get, page, sign_in};
use common::stores::stores;
use common::{config, start_with_store, unescape_html};

/// The numbers a page lists, in order (each row's Remove form names its number in E.164;
/// the add and search fields hold what was typed).
fn numbers(html: &str) -> Vec<String> {
    html.split("name=\"phone\" value=\"")
        .skip(1)
        .filter_map(|s| s.split('"').next())
        .filter(|v| v.len() == 12 && v.starts_with("+1") && v[1..].bytes().all(|b| b.is_ascii_digit()))
        .map(str::to_string)
        .collect()
}

/// The link to the next (older) page, if any.
fn older(html: &str) -> Option<String> {
    let at = html.find("href=\"/admin/suppressions?before=")? + "href=\"".len();
    html[at..].split('"').next().map(|h| h.replace("&amp;", "&"))
}

#[tokio::test]
async fn the_list_pages_newest_first_and_finds_a_number_typed_any_way() {
    for (name, store) in stores().await {
        let server = start_with_store(config(&[]), assets::SSR_BUNDLE, store).await;
        add_staff(&server, "noa@ringready.example").await;
        let session = sign_in(&server, "noa@ringready.example").await;
        // 130 numbers, three at a time in the same millisecond.
        let base = now_ms() - 1_000_000;
        let mut added: Vec<(i64, String)> = Vec::new();
        for i in 0..130 {
            let phone = format!("+1412555{:04}", 2000 + i);
            let at = base + (i / 3) as i64;
            let listed = server
                .state
                .store
                .suppress(&phone, &format!("Replied STOP {i}"), audit("suppress"), at)
                .await
                .expect("suppress");
            assert!(listed.added, "{name}");
            added.push((at, phone));
        }
        added.sort_by(|a, b| b.cmp(a));
        let expected: Vec<String> = added.into_iter().map(|(_, p)| p).collect();

        let mut shown: Vec<String> = Vec::new();
        let mut path = "/admin/suppressions".to_string();
        let mut pages = 0;
        loop {
            let (html, _) = page(&server, &session, &path).await;
            let on_page = numbers(&html);
            assert!(on_page.len() <= 50, "{name}: {} on a page", on_page.len());
            assert_eq!(pages > 0, html.contains(">Newest</a>"), "{name}: a way back to the first page");
            shown.extend(on_page);
            pages += 1;
            match older(&html) {
                Some(next) => path = next,
                None => break,
            }
        }
        assert_eq!(pages, 3, "{name}");
        assert_eq!(shown, expected, "{name}: every number once, newest first");

        // One number, typed the ways people type it.
        for typed in [
            "(412) 555-2077",
            "412.555.2077",
            "+1 412 555 2077",
            "1-412-555-2077",
            "4125552077",
            " +1 (412) 555 2077 ",
        ] {
            let (html, _) = page(&server, &session, &format!("/admin/suppressions?phone={}", urlencode(typed))).await;
            assert_eq!(numbers(&html), ["+14125552077"], "{name}: {typed}");
            assert!(html.contains("Replied STOP 77") && older(&html).is_none(), "{name}");
        }
        let (html, _) = page(&server, &session, "/admin/suppressions?phone=(412)%20555-9999").await;
        assert!(
            numbers(&html).is_empty() && html.contains("That number is not on the list."),
            "{name}"
        );
        let (html, _) = page(&server, &session, "/admin/suppressions?phone=555-01").await;
        assert!(
            numbers(&html).is_empty() && unescape_html(&html).contains("is not a US phone number"),
            "{name}"
        );

        // A cursor nobody made: the first page, or an empty one; never an error.
        let long = "9".repeat(5000);
        for before in [
            "abc",
            "12.",
            ".+14125552077",
            "-1.%27%3B--",
            "99999999999999999999.x",
            long.as_str(),
        ] {
            let r = get(&server, &session, &format!("/admin/suppressions?before={before}")).await;
            assert_eq!(r.status(), StatusCode::OK, "{name}: {before}");
        }
    }
}

fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}
