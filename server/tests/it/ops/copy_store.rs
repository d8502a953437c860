//! `site copy-store` from a filled SQLite database into the real PostgreSQL
//! (TEST_DATABASE_URL; each test in a scratch database of its own): every table copied,
//! counts and hashes equal, the site on the copy shows the same leads; a second run and a
//! non-empty database refused; the table list kept complete against both schemas.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Arc;

use rusqlite::{Connection, params};
use site_server::ops::tables::{self, TABLES};
use site_server::store::{Channel, NewSubmission, Store, SubmissionKind, now_ms};

const SITE: &str = env!("CARGO_BIN_EXE_site");

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// A scratch PostgreSQL database, dropped when the test ends (and by later runs if not).
struct Scratch {
    admin: String,
    name: String,
    url: String,
}

impl Scratch {
    async fn create() -> Option<Scratch> {
        let Ok(admin) = std::env::var("TEST_DATABASE_URL") else {
            eprintln!("TEST_DATABASE_URL is not set: skipping the PostgreSQL part of this test");
            return None;
        };
        let (client, connection) = tokio_postgres::connect(&admin, tokio_postgres::NoTls).await.expect("connect");
        tokio::spawn(connection);
        let hour_ago = now_ms() - 3_600_000;
        for row in client
            .query("SELECT datname::text FROM pg_database WHERE datname LIKE 'copy_store_%'", &[])
            .await
            .expect("list")
        {
            let name: String = row.get(0);
            if name.split('_').nth(2).and_then(|t| t.parse::<i64>().ok()).unwrap_or(0) < hour_ago {
                let _ = client
                    .batch_execute(&format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"))
                    .await;
            }
        }
        static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let name = format!(
            "copy_store_{}_{}_{}",
            now_ms(),
            std::process::id(),
            N.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        );
        client
            .batch_execute(&format!("CREATE DATABASE \"{name}\""))
            .await
            .expect("create database");
        let (base, query) = match admin.split_once('?') {
            Some((b, q)) => (b.to_string(), format!("?{q}")),
            None => (admin.clone(), String::new()),
        };
        let root = &base[..base.rfind('/').expect("a database in TEST_DATABASE_URL")];
        Some(Scratch {
            url: format!("{root}/{name}{query}"),
            admin,
            name,
        })
    }

    async fn client(&self) -> tokio_postgres::Client {
        let (client, connection) = tokio_postgres::connect(&self.url, tokio_postgres::NoTls).await.expect("connect");
        tokio::spawn(connection);
        client
    }

    async fn drop_it(self) {
        let (client, connection) = tokio_postgres::connect(&self.admin, tokio_postgres::NoTls).await.expect("connect");
        tokio::spawn(connection);
        let _ = client
            .batch_execute(&format!("DROP DATABASE IF EXISTS \"{}\" WITH (FORCE)", self.name))
            .await;
    }
}

const LEADS: u32 = 3000;

/// A SQLite site database with `LEADS` leads and every other table filled, as the site
/// writes them (the store for leads and submissions; the rest as the console's SQL does).
async fn filled_sqlite() -> (PathBuf, Vec<String>) {
    let db = common::temp_dir("copy-store").join("site.db");
    let store = Arc::new(Store::open(&format!("sqlite:{}", db.display())).await.expect("store"));
    let start = now_ms() - 86_400_000;
    let mut tasks = Vec::new();
    for n in 0..LEADS {
        let store = Arc::clone(&store);
        tasks.push(tokio::spawn(async move {
            let mut lead = common::new_lead(
                &format!("+1412{:07}", 2_000_000 + n),
                ["hvac", "roofing", "plumbing"][n as usize % 3],
            );
            lead.full_name = ["Dana Whitfield", "José Núñez", "Zoë O'Brien", "李 小龙"][n as usize % 4].to_string();
            if n % 5 == 0 {
                lead.zip_code = None;
            }
            if n % 7 == 0 {
                lead.certificate.token = Some(format!("tok{n}"));
                lead.certificate.cert_url = Some(format!("https://cert.trustedform.com/{n:040}"));
            }
            lead.context.ip = Some(format!("203.0.113.{}", n % 250));
            lead.context.utm.source = (n % 3 == 0).then(|| "google".to_string());
            let channels = if n % 10 == 0 {
                vec![]
            } else {
                vec![Channel::Email, Channel::Webhook]
            };
            store
                .submit_lead(lead, channels, start + i64::from(n) * 1000)
                .await
                .expect("lead")
                .id
        }));
    }
    let mut ids = Vec::new();
    for t in tasks {
        ids.push(t.await.expect("task"));
    }
    for n in 0..40u32 {
        let sub = NewSubmission {
            kind: if n % 2 == 0 {
                SubmissionKind::AccountRequest
            } else {
                SubmissionKind::CampaignApplication
            },
            email: format!("person{n}@example.com"),
            phone: (n % 3 != 0).then(|| format!("+1412555{n:04}")),
            data: serde_json::json!({ "n": n, "company": "Núñez & Sons" }),
            context: Default::default(),
        };
        let mail = site_server::store::Mail {
            subject: format!("Request {n}"),
            body: "A body\nwith lines".into(),
        };
        store.submit_form(sub, Some(mail), start + i64::from(n)).await.expect("submission");
    }
    let hash = site_server::staff::password::hash_password(common::admin::PASSWORD).expect("hash");
    store
        .add_staff("lead@ringready.example", &hash, start)
        .await
        .expect("staff")
        .expect("new");
    store
        .add_staff("gone@ringready.example", &hash, start)
        .await
        .expect("staff")
        .expect("new");
    // Campaigns: the first start's import, then one changed by staff (its history row).
    let campaign = |name: &str| site_server::store::CampaignFields {
        name: name.into(),
        status: "LIVE".into(),
        payouts: "$28".into(),
        payment_terms: "Weekly Net 7".into(),
        geos: "Nationwide".into(),
        promo_allowed: Some("Inbound only".into()),
        cap: "50/day".into(),
        inbound: true,
        transfer: false,
        seconds: 120,
        hours: "HOVER TO SEE".into(),
        notes: "Homeowners only; ünïcode kept.".into(),
    };
    store
        .import_campaigns(&[campaign("Roofing Inbound"), campaign("HVAC Transfers")], start)
        .await
        .expect("campaigns");
    let first = store.campaigns().await.expect("campaigns")[0].clone();
    let mut paused = first.fields.clone();
    paused.status = "paused".into();
    store
        .save_campaigns(
            &[site_server::store::CampaignEdit {
                id: Some(first.id),
                fields: paused,
            }],
            1,
            vec![],
            start + 1,
        )
        .await
        .expect("campaign saved");
    // The funnel's time zone (business_zone) and the daily counts made from it (lead_days).
    let zone = site_server::admin::zone::Zone::new("America/New_York");
    store.ensure_business_zone(&zone.offsets()).await.expect("business zone");
    store.close().await;

    let conn = Connection::open(&db).expect("open");
    conn.execute_batch(
        "UPDATE staff SET active = 0, disabled_ms = created_ms + 5 WHERE email = 'gone@ringready.example';
         INSERT INTO staff_sessions (id_hash, staff_id, created_ms, last_seen_ms, ip, user_agent) VALUES
           ('aa11', 1, 1, 2, '198.51.100.7', 'Firefox'), ('bb22', 1, 3, 4, NULL, NULL);",
    )
    .expect("sessions");
    for n in 0..60i64 {
        conn.execute(
            "INSERT INTO staff_audit (at_ms, staff_id, action, target, ip, detail) VALUES (?1, ?2, ?3, ?4, '198.51.100.7', ?5)",
            params![
                start + n,
                if n % 4 == 0 { None } else { Some(1) },
                "view_consent",
                ids[n as usize],
                (n % 2 == 0).then_some("détail")
            ],
        )
        .expect("audit");
    }
    // A gap in the audit ids: PostgreSQL's sequence must go past the one SQLite handed out.
    conn.execute("DELETE FROM staff_audit WHERE id = (SELECT MAX(id) FROM staff_audit)", [])
        .expect("gap");
    for n in 0..150i64 {
        conn.execute(
            "INSERT INTO certificates (token, ping_url, cert_url, service_slug, recorded_at_ms, updated_at_ms) VALUES (?1, ?2, NULL, 'hvac', ?3, ?3)",
            params![format!("cert{n}"), format!("https://ping.trustedform.com/{n}"), start + n],
        )
        .expect("certificate");
    }
    // Deliveries: some delivered, some retried, some failed (the triggers write the attempts
    // and the leads' status).
    conn.execute_batch(
        "UPDATE outbox SET status = 'delivered', attempts = 1, delivered_ms = created_ms + 70 WHERE id % 3 = 0;
         UPDATE outbox SET attempts = 2, last_error = 'connection refused', next_attempt_ms = next_attempt_ms + 5000 WHERE id % 3 = 1;
         UPDATE outbox SET status = 'failed', attempts = 9, last_error = '550 mailbox unavailable' WHERE id % 97 = 0;
         UPDATE mail_outbox SET status = 'delivered', attempts = 1, delivered_ms = created_ms + 10 WHERE id % 2 = 0;",
    )
    .expect("deliveries");
    // A number on the do-not-call list whose earlier leads have notifications: PostgreSQL's
    // insert trigger must not turn them into suppressed ones, nor drop their outbox rows.
    let phone: String = conn
        .query_row(
            "SELECT phone_e164 FROM leads WHERE delivery_status IN ('pending', 'delivered') LIMIT 1",
            [],
            |r| r.get(0),
        )
        .expect("a lead with notifications");
    conn.execute(
        "INSERT INTO suppressions (phone_e164, reason, added_ms, staff_id) VALUES (?1, 'asked by phone', ?2, 1), ('+14125550000', 'complaint', ?2, NULL)",
        params![phone, start],
    )
    .expect("suppressions");
    for table in TABLES {
        let n: i64 = conn
            .query_row(&format!("SELECT COUNT(*) FROM {}", table.name), [], |r| r.get(0))
            .expect("count");
        assert!(n > 0, "the fill leaves no table empty: {} is", table.name);
    }
    (db, ids)
}

fn copy_store(db: &Path, to: &str) -> Output {
    Command::new(SITE)
        .args(["copy-store", "--from", &format!("sqlite://{}", db.display()), "--to", to])
        .env("DATABASE_URL", "sqlite://unused.db")
        .output()
        .expect("run copy-store")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn copy_store_copies_every_table_equal_and_the_site_on_the_copy_shows_the_same_leads() {
    let Some(pg) = Scratch::create().await else { return };
    let (db, ids) = filled_sqlite().await;

    let out = copy_store(&db, &pg.url);
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    // Every table's line: equal counts and hashes, as printed.
    for table in TABLES {
        let line = said
            .lines()
            .find(|l| l.split_whitespace().next() == Some(table.name) && l.ends_with("equal"))
            .unwrap_or_else(|| panic!("no equal line for {}:\n{said}", table.name));
        let cells: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(cells[1], cells[2], "{line}");
        assert_eq!(cells[3], cells[4], "{line}");
    }
    assert!(said.contains("every table is equal on both sides"), "{said}");

    // Counted independently on both sides.
    let client = pg.client().await;
    let conn = Connection::open(&db).expect("open");
    for table in TABLES {
        let sqlite: i64 = conn
            .query_row(&format!("SELECT COUNT(*) FROM {}", table.name), [], |r| r.get(0))
            .expect("count");
        let postgres: i64 = client
            .query_one(&format!("SELECT COUNT(*) FROM {}", table.name), &[])
            .await
            .expect("count")
            .get(0);
        assert_eq!(sqlite, postgres, "{}", table.name);
    }
    // Every copied table has the planner's statistics before the funnel's recount queries it
    // (without them the recount read every delivered notification for each lead).
    for table in TABLES {
        let analyzed: i64 = client
            .query_one(
                "SELECT COUNT(*) FROM pg_stat_user_tables WHERE relid = $1::text::regclass AND analyze_count > 0",
                &[&table.name],
            )
            .await
            .expect("statistics")
            .get(0);
        assert_eq!(analyzed, 1, "{} analyzed", table.name);
    }
    // The statuses the triggers would have rewritten arrived as they were.
    let suppressed: i64 = client
        .query_one("SELECT COUNT(*) FROM leads WHERE delivery_status = 'suppressed'", &[])
        .await
        .expect("count")
        .get(0);
    assert_eq!(suppressed, 0);
    // The sequences go past every id SQLite handed out.
    let high_water: i64 = conn
        .query_row("SELECT seq FROM sqlite_sequence WHERE name = 'staff_audit'", [], |r| r.get(0))
        .expect("seq");
    let next: i64 = client
        .query_one("INSERT INTO staff_audit (at_ms, action) VALUES (0, 'probe') RETURNING id", &[])
        .await
        .expect("insert")
        .get(0);
    assert_eq!(next, high_water + 1);
    client
        .batch_execute("DELETE FROM staff_audit WHERE action = 'probe'")
        .await
        .expect("clean");

    // Running it again, into what is now a non-empty database, is refused.
    let again = copy_store(&db, &pg.url);
    assert!(!again.status.success());
    assert!(
        text(&again).contains("the PostgreSQL database is not empty (table consent_texts has rows)"),
        "{}",
        text(&again)
    );

    // The site on the copy: the store reads every lead as it was, and the console shows them.
    let on_copy = Arc::new(Store::open(&pg.url).await.expect("store on the copy"));
    let on_sqlite = Arc::new(Store::open(&format!("sqlite:{}", db.display())).await.expect("store on SQLite"));
    assert_eq!(on_copy.count_leads().await.expect("count"), i64::from(LEADS));
    for id in &ids {
        let a = on_sqlite.lead(id).await.expect("sqlite lead");
        let b = on_copy.lead(id).await.expect("postgres lead");
        assert!(a.is_some());
        assert_eq!(a, b, "lead {id}");
    }
    let server = common::start_with_store(common::config(&[]), site_server::assets::SSR_BUNDLE, Arc::clone(&on_copy)).await;
    let session = common::admin::sign_in(&server, "lead@ringready.example").await;
    let (list, _) = common::admin::page(&server, &session, "/admin/leads").await;
    let sqlite_server = common::start_with_store(common::config(&[]), site_server::assets::SSR_BUNDLE, on_sqlite).await;
    let sqlite_session = common::admin::sign_in(&sqlite_server, "lead@ringready.example").await;
    let (sqlite_list, _) = common::admin::page(&sqlite_server, &sqlite_session, "/admin/leads").await;
    let linked = |html: &str| -> Vec<String> {
        html.match_indices("/admin/leads/")
            .map(|(i, m)| html[i + m.len()..].chars().take(36).collect())
            .filter(|id: &String| id.len() == 36 && id.chars().all(|c| c.is_ascii_hexdigit() || c == '-'))
            .collect()
    };
    let shown = linked(&list);
    assert!(shown.len() >= 20, "the console on the copy lists leads:\n{list}");
    assert_eq!(shown, linked(&sqlite_list), "the same leads, in the same order");
    // The funnel on the copy reads the copied daily counts: the same screen.
    let main = |html: &str| {
        html.split("<main")
            .nth(1)
            .unwrap_or("")
            .split("</main>")
            .next()
            .unwrap_or("")
            .to_string()
    };
    let (funnel, _) = common::admin::page(&server, &session, "/admin?days=90").await;
    let (sqlite_funnel, _) = common::admin::page(&sqlite_server, &sqlite_session, "/admin?days=90").await;
    let every = format!(">{},{:03}</dd>", LEADS / 1000, LEADS % 1000);
    assert!(funnel.contains(&every), "the funnel on the copy counts every lead ({every})");
    assert_eq!(main(&funnel), main(&sqlite_funnel), "the same funnel");
    let newest = &ids.iter().max().expect("ids");
    let (detail, _) = common::admin::page(&server, &session, &format!("/admin/leads/{newest}")).await;
    let lead = on_copy.lead(newest).await.expect("lead").expect("present");
    assert!(detail.contains(&lead.consent_sha256) && detail.contains(&lead.id), "{detail}");
    pg.drop_it().await;
}

/// The funnel's daily counts on the copy are what PostgreSQL makes of the copied leads (not
/// SQLite's rows as they were): a source with capitals beyond ASCII ("Élodie-dupont", which
/// PostgreSQL's lower() folded and SQLite's did not) has the same key on both, so erasing
/// the person on the copy leaves no row naming her, and the copy's counts equal a recount.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_copy_store_erasing_a_person_on_postgres_leaves_no_source_naming_her() {
    use site_server::admin::zone::Zone;
    use site_server::leads::RequestContext;
    use site_server::store::{FunnelRow, NewAudit, Person};

    let Some(pg) = Scratch::create().await else { return };
    let db = common::temp_dir("copy-funnel").join("site.db");
    let zone = Zone::new("America/New_York");
    let store = Store::open(&format!("sqlite:{}", db.display())).await.expect("store");
    store.ensure_business_zone(&zone.offsets()).await.expect("zone");
    let at = now_ms() - 3_600_000;
    for (i, (phone, source)) in [
        ("+14125550701", Some("Élodie-dupont")),
        ("+14125550702", Some("Google")),
        ("+14125550703", Some("ÉCOLE")),
        ("+14125550704", None),
    ]
    .into_iter()
    .enumerate()
    {
        let mut lead = common::new_lead(phone, "hvac");
        lead.context = RequestContext {
            page_url: Some("https://www.ringready.example/hvac".into()),
            ..Default::default()
        };
        lead.context.utm.source = source.map(str::to_string);
        store.submit_lead(lead, vec![], at + i as i64).await.expect("lead");
    }
    store.close().await;

    let out = copy_store(&db, &pg.url);
    assert!(out.status.success(), "{}", text(&out));
    let copy = Store::open(&pg.url).await.expect("store on the copy");
    let rows = |rows: Vec<FunnelRow>| -> Vec<(i64, String, String, [i64; 5])> {
        rows.into_iter()
            .map(|r| {
                (
                    r.day,
                    format!("{:?}", r.kind),
                    r.key,
                    [r.leads, r.delivered, r.fast, r.suppressed, r.erased],
                )
            })
            .collect()
    };
    let audit = NewAudit {
        staff_id: None,
        action: "erase",
        target: None,
        ip: None,
        detail: None,
    };
    let erased = copy
        .erase_person(&Person::PhoneE164("+14125550701".into()), audit, now_ms())
        .await
        .expect("erase");
    assert_eq!(erased.leads, 1);
    let client = pg.client().await;
    let naming: i64 = client
        .query_one("SELECT COUNT(*) FROM lead_days WHERE key ILIKE '%lodie%'", &[])
        .await
        .expect("count")
        .get(0);
    assert_eq!(naming, 0, "no source row names the erased person on the copy");
    let kept = rows(copy.funnel_rows(0, i64::MAX / 2).await.expect("rows"));
    // ASCII letters folded, others kept as sent.
    assert!(kept.iter().any(|r| r.2 == "src:École"), "{kept:?}");
    // Counted anew on the copy (another zone, then the copied one again): the same rows.
    assert!(copy.ensure_business_zone(&Zone::new("UTC").offsets()).await.expect("zone"));
    assert!(copy.ensure_business_zone(&zone.offsets()).await.expect("zone"));
    assert_eq!(
        rows(copy.funnel_rows(0, i64::MAX / 2).await.expect("rows")),
        kept,
        "the copy's counts are a recount's"
    );
    assert!(
        text(&out)
            .lines()
            .any(|l| l.starts_with("counted lead_days") && l.contains(" 5 rows anew from the copied leads")),
        "copy-store says so: {}",
        text(&out)
    );
    copy.close().await;
    pg.drop_it().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_nul_an_older_release_stored_is_removed_on_the_way_counted_and_reported() {
    let Some(pg) = Scratch::create().await else { return };
    let db = common::temp_dir("copy-nul").join("site.db");
    let store = Store::open(&format!("sqlite:{}", db.display())).await.expect("store");
    let mut lead = common::new_lead("+14125550177", "hvac");
    lead.context.page_url = Some("https://www.ringready.example/hvac?utm_source=goo%00gle".into());
    let id = store
        .submit_lead(lead, vec![Channel::Email, Channel::Webhook], now_ms())
        .await
        .expect("lead")
        .id;
    let clean = store
        .submit_lead(common::new_lead("+14125550178", "hvac"), vec![], now_ms())
        .await
        .expect("lead")
        .id;
    let sub = NewSubmission {
        kind: SubmissionKind::AccountRequest,
        email: "dana@example.com".into(),
        phone: None,
        data: serde_json::json!({ "firstName": "Dana" }),
        context: Default::default(),
    };
    let submission = store.submit_form(sub, None, now_ms()).await.expect("submission").id;
    store.close().await;
    // What an older release stored from a link with %00 in it: the decoded NUL, as it was.
    let conn = Connection::open(&db).expect("open");
    conn.execute(
        "UPDATE leads SET utm_source = ?1, utm_campaign = ?2, user_agent = ?3 WHERE id = ?4",
        params!["goo\0gle", "spring\0\0promo", "Mozilla/5.0\0", id],
    )
    .expect("old row");
    conn.execute(
        "UPDATE submissions SET user_agent = ?1 WHERE id = ?2",
        params!["\0Mozilla/5.0", submission],
    )
    .expect("old row");
    let held: String = conn
        .query_row("SELECT utm_campaign FROM leads WHERE id = ?1", [&id], |r| r.get(0))
        .expect("read");
    assert_eq!(held, "spring\0\0promo", "SQLite holds the NULs");
    drop(conn);

    let out = copy_store(&db, &pg.url);
    let said = text(&out);
    assert!(out.status.success(), "the move does not stop on the row:\n{said}");
    for column in [
        "leads.utm_source",
        "leads.utm_campaign",
        "leads.user_agent",
        "submissions.user_agent",
    ] {
        assert!(
            said.contains(&format!("cleaned {column}: 1 value(s) held a NUL character")),
            "{column} reported:\n{said}"
        );
    }
    assert!(said.contains("4 value(s) arrived without the NUL characters"), "{said}");
    assert_eq!(said.matches("cleaned ").count(), 4, "nothing else was changed:\n{said}");
    assert!(said.contains("every table is equal on both sides"), "{said}");

    // The rows arrived cleaned, everything else as it was; the site on the copy reads them.
    let client = pg.client().await;
    let row = client
        .query_one(
            "SELECT utm_source, utm_campaign, user_agent, page_url FROM leads WHERE id = $1",
            &[&id],
        )
        .await
        .expect("lead");
    let values: [Option<String>; 4] = [row.get(0), row.get(1), row.get(2), row.get(3)];
    assert_eq!(
        values.each_ref().map(Option::as_deref),
        [
            Some("google"),
            Some("springpromo"),
            Some("Mozilla/5.0"),
            Some("https://www.ringready.example/hvac?utm_source=goo%00gle")
        ]
    );
    let agent: Option<String> = client
        .query_one("SELECT user_agent FROM submissions WHERE id = $1", &[&submission])
        .await
        .expect("submission")
        .get(0);
    assert_eq!(agent.as_deref(), Some("Mozilla/5.0"));
    let on_copy = Store::open(&pg.url).await.expect("store on the copy");
    let lead = on_copy.lead(&id).await.expect("read").expect("copied");
    assert_eq!(lead.utm_source.as_deref(), Some("google"));
    assert!(on_copy.lead(&clean).await.expect("read").is_some());
    on_copy.close().await;
    pg.drop_it().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn copy_store_refuses_a_non_empty_database_a_running_server_and_an_unlisted_table() {
    let Some(pg) = Scratch::create().await else { return };
    let dir = common::temp_dir("copy-refusals");
    let db = dir.join("site.db");
    let store = Store::open(&format!("sqlite:{}", db.display())).await.expect("store");
    store
        .submit_lead(common::new_lead("+14125550199", "hvac"), vec![], now_ms())
        .await
        .expect("lead");
    store.close().await;

    // A server holds the SQLite file: no copy (a lead could arrive after it).
    {
        let _held = site_server::ops::lock::DatabaseLock::acquire(&db).expect("lock");
        let out = copy_store(&db, &pg.url);
        assert!(!out.status.success() && text(&out).contains("stop it first"), "{}", text(&out));
    }
    // A table the list does not know stops the copy before anything is written.
    Connection::open(&db)
        .expect("open")
        .execute_batch("CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
        .expect("table");
    let out = copy_store(&db, &pg.url);
    assert!(
        !out.status.success() && text(&out).contains("tables copy-store does not know: invoices"),
        "{}",
        text(&out)
    );
    Connection::open(&db)
        .expect("open")
        .execute_batch("DROP TABLE invoices")
        .expect("drop");
    // A database that already holds rows is refused.
    let client = pg.client().await;
    let _ = Store::open(&pg.url).await.expect("migrated").close().await;
    client
        .batch_execute("INSERT INTO staff (email, password_hash, created_ms) VALUES ('x@ringready.example', 'h', 0)")
        .await
        .expect("row");
    let out = copy_store(&db, &pg.url);
    assert!(
        !out.status.success() && text(&out).contains("(table staff has rows)"),
        "{}",
        text(&out)
    );
    let leads: i64 = client.query_one("SELECT COUNT(*) FROM leads", &[]).await.expect("count").get(0);
    assert_eq!(leads, 0, "nothing was copied");
    pg.drop_it().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_table_list_names_every_table_of_both_schemas() {
    let dir = common::temp_dir("tables");
    let db = dir.join("site.db");
    Store::open(&format!("sqlite:{}", db.display())).await.expect("store").close().await;
    let present = site_server::ops::copy_store::sqlite_tables(&db).expect("tables");
    assert_eq!(
        tables::unlisted(&present),
        Vec::<&str>::new(),
        "SQLite tables missing from server/src/ops/tables.rs (add them, in dependency order)"
    );
    for t in TABLES {
        assert!(
            present.iter().any(|p| p == t.name),
            "{} is listed but SQLite has no such table",
            t.name
        );
    }
    let Some(pg) = Scratch::create().await else { return };
    let client = site_server::store::postgres::connect_migrated(&pg.url, None)
        .await
        .expect("migrated");
    let present = site_server::ops::copy_store::postgres_tables(&client).await.expect("tables");
    assert_eq!(
        tables::unlisted(&present),
        Vec::<&str>::new(),
        "PostgreSQL tables missing from server/src/ops/tables.rs"
    );
    drop(client);
    pg.drop_it().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgres_database_from_a_newer_binary_is_refused_before_anything_is_written() {
    let Some(pg) = Scratch::create().await else { return };
    Store::open(&pg.url).await.expect("store").close().await;
    let client = pg.client().await;
    let next = site_server::store::migrations::POSTGRES.last().map_or(0, |m| m.version) + 1;
    let future = format!("{next:04}_future");
    client
        .execute(
            "INSERT INTO schema_migrations (version, applied_ms, name, checksum, applied_by) VALUES ($1, 0, $2, 'x', 'site 9.9.9')",
            &[&i64::from(next), &future],
        )
        .await
        .expect("insert");
    let before = migrations_rows(&client).await;
    let e = Store::open(&pg.url).await.err().expect("refused");
    assert!(
        e.to_string()
            .contains(&format!("schema version {next} ({future}, applied by site 9.9.9)")),
        "{e}"
    );
    assert_eq!(migrations_rows(&client).await, before);
    pg.drop_it().await;
}

async fn migrations_rows(c: &tokio_postgres::Client) -> Vec<String> {
    c.query(
        "SELECT version, applied_ms, name, applied_by FROM schema_migrations ORDER BY version",
        &[],
    )
    .await
    .expect("rows")
    .iter()
    .map(|r| {
        format!(
            "{:?}",
            (
                r.get::<_, i64>(0),
                r.get::<_, i64>(1),
                r.get::<_, Option<String>>(2),
                r.get::<_, Option<String>>(3)
            )
        )
    })
    .collect()
}
