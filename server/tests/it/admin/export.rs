//! The console's CSV exports on both stores: the list's filter, RFC 4180 quoting, formulas
//! neutralised, audited; and 100 000 leads streamed over real HTTP to a slow reader while
//! the process's heap stays flat (a body built or read ahead in memory would grow it by
//! more than the 10 MB of CSV). That test counts every allocation of its process, so it
//! runs alone in a child process of its own (`common::run_alone`).

use crate::common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering};

use reqwest::StatusCode;
use reqwest::header::{CACHE_CONTROL, CONTENT_DISPOSITION, CONTENT_TYPE};
use site_server::assets;
use site_server::leads::{NewLead, RequestContext};
use site_server::store::{NewSubmission, SeedPlan, SubmissionKind};

use common::admin::{add_staff, get, page, sign_in};
use common::stores::stores;
use common::{config, start_with_store, unescape_html};

/// Cells of a CSV text, parsed as RFC 4180 says (quoted cells may hold `,`, `"` and line breaks).
fn parse_csv(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut cell = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                cell.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => cell.push(c),
            (false, '"') if cell.is_empty() => quoted = true,
            (false, ',') => row.push(std::mem::take(&mut cell)),
            (false, '\r') if chars.peek() == Some(&'\n') => {
                chars.next();
                row.push(std::mem::take(&mut cell));
                rows.push(std::mem::take(&mut row));
            }
            (false, c) => {
                assert!(c != '\n' && c != '"', "a bare line feed or quote outside quotes: {text:?}");
                cell.push(c);
            }
        }
    }
    assert!(!quoted && cell.is_empty() && row.is_empty(), "the text ends with CRLF: {text:?}");
    rows
}

fn lead(name: &str, phone: &str) -> NewLead {
    NewLead {
        service_slug: "hvac".into(),
        full_name: name.into(),
        phone: phone.into(),
        zip_code: Some("15213".into()),
        consent_text: "I agree.".into(),
        consent_sha256: "ab".repeat(32),
        ..Default::default()
    }
}

#[tokio::test]
async fn exports_quote_every_cell_and_neutralise_formulas() {
    for (name, store) in stores().await {
        let server = start_with_store(config(&[]), assets::SSR_BUNDLE, std::sync::Arc::clone(&store)).await;
        add_staff(&server, "eve@ringready.example").await;
        let session = sign_in(&server, "eve@ringready.example").await;
        let hostile = [
            "=HYPERLINK(\"http://evil.example\",\"x\")",
            "Smith, Jo \"JJ\"",
            "+1 cmd",
            "@SUM(1)",
            "-2+3",
            "Line\nbreak",
            "Plain Name",
        ];
        let base = 1_736_942_400_000i64;
        for (i, n) in hostile.iter().enumerate() {
            store
                .submit_lead(lead(n, &format!("+1412555010{i}")), vec![], base + i as i64 * 1000)
                .await
                .expect("lead");
        }

        let (html, _) = page(&server, &session, "/admin/leads?service=hvac").await;
        assert!(
            html.contains("href=\"/admin/leads.csv?service=hvac\""),
            "{name}: the list links its export"
        );
        let r = get(&server, &session, "/admin/leads.csv?service=hvac").await;
        assert_eq!(r.status(), StatusCode::OK, "{name}");
        assert_eq!(r.headers()[CONTENT_TYPE], "text/csv; charset=utf-8", "{name}");
        assert_eq!(r.headers()[CONTENT_DISPOSITION], "attachment; filename=\"leads.csv\"", "{name}");
        assert_eq!(r.headers()[CACHE_CONTROL], "no-store", "{name}");
        let text = r.text().await.expect("body");
        assert!(
            text.contains("\"'=HYPERLINK(\"\"http://evil.example\"\",\"\"x\"\")\""),
            "{name}: quoted, quotes doubled, neutralised: {text}"
        );
        let rows = parse_csv(&text);
        assert_eq!(
            rows[0],
            [
                "Lead id",
                "Received (UTC)",
                "Received (America/New_York)",
                "Service",
                "Name",
                "Phone",
                "ZIP",
                "Delivery status"
            ],
            "{name}"
        );
        assert_eq!(rows.len(), hostile.len() + 1, "{name}");
        // Newest first: the last one stored is the first row.
        let names: Vec<&str> = rows[1..].iter().map(|r| r[4].as_str()).collect();
        assert_eq!(
            names,
            [
                "Plain Name",
                "Line\nbreak",
                "'-2+3",
                "'@SUM(1)",
                "'+1 cmd",
                "Smith, Jo \"JJ\"",
                "'=HYPERLINK(\"http://evil.example\",\"x\")"
            ],
            "{name}"
        );
        assert_eq!(
            rows[1][5], "'+14125550106",
            "{name}: an E.164 number starts with +, so it is kept as text"
        );
        assert_eq!(rows[1][1], "2025-01-15T12:00:06.000Z", "{name}");
        assert_eq!(
            (rows[1][3].as_str(), rows[1][6].as_str(), rows[1][7].as_str()),
            ("hvac", "15213", "none"),
            "{name}"
        );

        // The list's filters apply: a name, a phone typed in another format.
        let rows = parse_csv(
            &get(&server, &session, "/admin/leads.csv?name=smith")
                .await
                .text()
                .await
                .expect("body"),
        );
        assert_eq!(rows.len(), 2, "{name}");
        assert_eq!(rows[1][4], "Smith, Jo \"JJ\"", "{name}");
        let rows = parse_csv(
            &get(&server, &session, "/admin/leads.csv?phone=(412)%20555-0103")
                .await
                .text()
                .await
                .expect("body"),
        );
        assert_eq!(rows.len(), 2, "{name}");
        assert_eq!(rows[1][4], "'@SUM(1)", "{name}");
        let log = server.state.store.audit_log(None, 1).await.expect("audit");
        assert_eq!(
            (log[0].action.as_str(), log[0].target.as_deref(), log[0].detail.as_deref()),
            ("export", Some("export:leads"), Some("phone:+1412***0103")),
            "{name}: audited, without the whole number"
        );
        let r = get(&server, &session, "/admin/leads.csv?phone=555-01").await;
        assert_eq!(r.status(), StatusCode::BAD_REQUEST, "{name}");
        assert!(
            unescape_html(&r.text().await.expect("body")).contains("is not a US phone number"),
            "{name}"
        );
        let r = get(&server, &session, "/admin/leads.csv?status=lost&service=%3Cscript%3E").await;
        assert_eq!(r.status(), StatusCode::BAD_REQUEST, "{name}");

        // Account requests and applications.
        store
            .submit_form(
                NewSubmission {
                    kind: SubmissionKind::AccountRequest,
                    email: "owner@acme.example".into(),
                    phone: Some("+14125550199".into()),
                    data: serde_json::json!({ "firstName": "Dana", "lastName": "Whitfield", "businessName": "=cmd|' /C calc'!A0", "hp_website": "spam", "seats": 3 }),
                    context: RequestContext::default(),
                },
                None,
                base,
            )
            .await
            .expect("submission");
        let (html, _) = page(&server, &session, "/admin/account-requests").await;
        assert!(
            html.contains("href=\"/admin/account-requests.csv\""),
            "{name}: the list links its export"
        );
        let r = get(&server, &session, "/admin/account-requests.csv").await;
        assert_eq!(
            r.headers()[CONTENT_DISPOSITION],
            "attachment; filename=\"account-requests.csv\"",
            "{name}"
        );
        let rows = parse_csv(&r.text().await.expect("body"));
        assert_eq!(
            rows[0],
            [
                "Id",
                "Received (UTC)",
                "Status",
                "Name",
                "Company",
                "Email",
                "Phone",
                "Note",
                "Fields (JSON)"
            ],
            "{name}"
        );
        assert_eq!(rows.len(), 2, "{name}");
        assert_eq!(
            (
                rows[1][2].as_str(),
                rows[1][3].as_str(),
                rows[1][4].as_str(),
                rows[1][5].as_str(),
                rows[1][6].as_str()
            ),
            (
                "new",
                "Dana Whitfield",
                "'=cmd|' /C calc'!A0",
                "owner@acme.example",
                "'+14125550199"
            ),
            "{name}"
        );
        let fields: serde_json::Value = serde_json::from_str(&rows[1][8]).expect("JSON");
        assert_eq!(
            fields,
            serde_json::json!({ "firstName": "Dana", "lastName": "Whitfield", "businessName": "=cmd|' /C calc'!A0", "seats": 3 }),
            "{name}: no honeypot"
        );
        let rows = parse_csv(
            &get(&server, &session, "/admin/account-requests.csv?status=approved")
                .await
                .text()
                .await
                .expect("body"),
        );
        assert_eq!(rows.len(), 1, "{name}: the header only");
        let rows = parse_csv(&get(&server, &session, "/admin/applications.csv").await.text().await.expect("body"));
        assert_eq!(rows.len(), 1, "{name}: no applications");
        let r = get(&server, &session, "/admin/applications.csv?status=lost").await;
        assert_eq!(r.status(), StatusCode::BAD_REQUEST, "{name}");
        let log = server.state.store.audit_log(None, 1).await.expect("audit");
        assert_eq!(
            (log[0].action.as_str(), log[0].target.as_deref()),
            ("export", Some("export:applications")),
            "{name}"
        );
    }
}

/// The test process's allocator. Once [`Heap::count`] is called it counts the bytes
/// allocated less the bytes freed (the server runs in this process), and the most that
/// count has been since [`Heap::reset_peak`]: only differences between two moments after
/// the call mean anything (a block allocated before it and freed after counts as freed).
/// Resident memory would not do: memory freed earlier stays resident and hides new
/// allocations. Until then, as in every process but the memory test's, it only passes
/// each call on.
struct Heap;

static COUNTING: AtomicBool = AtomicBool::new(false);
static LIVE: AtomicIsize = AtomicIsize::new(0);
static PEAK: AtomicIsize = AtomicIsize::new(0);

impl Heap {
    fn count() {
        COUNTING.store(true, Ordering::SeqCst);
    }

    fn grew(by: usize) {
        if COUNTING.load(Ordering::Relaxed) {
            let by = by as isize;
            let now = LIVE.fetch_add(by, Ordering::Relaxed) + by;
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
    }

    fn shrank(by: usize) {
        if COUNTING.load(Ordering::Relaxed) {
            LIVE.fetch_sub(by as isize, Ordering::Relaxed);
        }
    }

    /// The count now; the peak starts again from here.
    fn reset_peak() -> isize {
        let now = LIVE.load(Ordering::Relaxed);
        PEAK.store(now, Ordering::Relaxed);
        now
    }

    fn peak() -> isize {
        PEAK.load(Ordering::Relaxed)
    }
}

// SAFETY: every call is passed to the system allocator unchanged; only counters are added.
unsafe impl GlobalAlloc for Heap {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            Heap::grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            Heap::grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(ptr, layout) };
        Heap::shrank(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            Heap::shrank(layout.size());
            Heap::grew(new_size);
        }
        p
    }
}

#[global_allocator]
static HEAP: Heap = Heap;

/// Runs alone in a child process, where no other test allocates meanwhile.
#[test]
fn a_100k_row_export_streams_in_constant_memory() {
    common::run_alone(
        module_path!(),
        "a_100k_row_export_streams_in_constant_memory",
        stream_in_constant_memory,
    );
}

async fn stream_in_constant_memory() {
    Heap::count();
    const ROWS: i64 = 100_000;
    /// What the heap may grow by while streaming. Holding the rows (or the CSV text) in
    /// memory would take over 10 MB (the CSV text alone); a batch of 1000 rows, well under 1 MB.
    const ALLOWED_GROWTH: isize = 4 * 1024 * 1024;
    for (name, store) in stores().await {
        let server = start_with_store(config(&[]), assets::SSR_BUNDLE, std::sync::Arc::clone(&store)).await;
        add_staff(&server, "max@ringready.example").await;
        let session = sign_in(&server, "max@ringready.example").await;
        // Lead i is bulk-<i>, 1 s older than lead i - 1, with the phone +1 412 2000000 + i.
        let plan = SeedPlan {
            leads: ROWS,
            newest_ms: 1_700_000_000_000,
            spacing_ms: 1000,
            id_prefix: "bulk".into(),
            services: vec!["hvac".into(), "roofing".into()],
            notifications: false,
        };
        let seeded = store.seed_leads(&plan).await.expect("seed");
        assert_eq!(seeded.leads, ROWS, "{name}");
        // A small export first, so that what any export allocates once is allocated.
        let warm = get(&server, &session, "/admin/leads.csv?phone=4122000001")
            .await
            .text()
            .await
            .expect("body");
        assert_eq!(parse_csv(&warm).len(), 2, "{name}: one lead has that number");

        let before = Heap::reset_peak();
        let mut r = get(&server, &session, "/admin/leads.csv").await;
        assert_eq!(r.status(), StatusCode::OK, "{name}");
        let (mut bytes, mut lines, mut chunks) = (0usize, 0usize, 0usize);
        let mut first_row = String::new();
        let mut tail = String::new();
        while let Some(chunk) = r.chunk().await.expect("chunk") {
            bytes += chunk.len();
            lines += chunk.iter().filter(|b| **b == b'\n').count();
            chunks += 1;
            let text = String::from_utf8_lossy(&chunk);
            if first_row.len() < 400 {
                first_row.push_str(&text[..text.len().min(400)]);
            }
            tail = format!("{}{}", &tail[tail.len().saturating_sub(200)..], text);
            if chunks == 1 {
                // A slow reader: a server that read ahead of what the connection takes would
                // now hold the rest of the export in memory.
                tokio::time::sleep(std::time::Duration::from_secs(3)).await;
            }
        }
        let growth = Heap::peak().saturating_sub(before);
        eprintln!(
            "{name}: {ROWS} rows, {bytes} bytes in {chunks} chunks; the heap grew by {} KiB at most",
            growth / 1024
        );
        assert_eq!(lines as i64, ROWS + 1, "{name}: a header and every row");
        let first_row = first_row.split("\r\n").nth(1).unwrap_or("");
        assert!(first_row.starts_with("bulk-00000000,"), "{name}: newest first: {first_row}");
        assert!(
            tail.ends_with("pending\r\n") && tail.contains("bulk-00099999,"),
            "{name}: the oldest last: {tail}"
        );
        assert!(bytes > 8_000_000, "{name}: {bytes} bytes");
        assert!(
            growth < ALLOWED_GROWTH,
            "{name}: streaming {bytes} bytes grew the heap by {growth} bytes: the export is buffered somewhere"
        );
    }
}
