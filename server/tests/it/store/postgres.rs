//! PostgreSQL only (TEST_DATABASE_URL): two app servers writing the same repeats at once
//! store each lead once, and `sslmode` is honoured with rustls, certificate checks included.

use crate::common;

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use site_server::store::postgres::PgStore;
use site_server::store::postgres::tls::PgTarget;
use site_server::store::{Channel, Outbox, Store, now_ms};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

fn database_url() -> Option<String> {
    let url = std::env::var("TEST_DATABASE_URL").ok();
    if url.is_none() {
        eprintln!("TEST_DATABASE_URL is not set: this PostgreSQL test did not run");
    }
    url
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_storing_the_same_repeats_at_once_keep_one_lead_each() {
    let Some(url) = database_url() else { return };
    let schema = format!("store_test_{}_{}_twowriters", now_ms(), std::process::id());
    // Two stores on one database: two app servers, each with its own writer.
    let a = Arc::new(Store::Postgres(PgStore::connect(&url, Some(&schema)).await.expect("server a")));
    let b = Arc::new(Store::Postgres(PgStore::connect(&url, Some(&schema)).await.expect("server b")));
    let phones = 150;
    for round in 0..3 {
        let now = now_ms() + round * 1000;
        let mut tasks = Vec::new();
        for i in 0..phones {
            for store in [&a, &b] {
                let store = Arc::clone(store);
                let phone = format!("+1412556{:04}", i);
                tasks.push(tokio::spawn(async move {
                    store.submit_lead(common::new_lead(&phone, "hvac"), vec![Channel::Email], now).await
                }));
            }
        }
        for t in tasks {
            t.await.expect("task").expect("stored or recognised as a repeat");
        }
    }
    assert_eq!(a.count_leads().await.expect("count"), phones as i64, "one lead per phone");
    assert_eq!(
        a.outbox_counts(Outbox::Leads).await.expect("counts").pending,
        phones as i64,
        "one notification per lead"
    );
    a.close().await;
    b.close().await;
}

/// A lead whose transaction PostgreSQL aborts to break a deadlock is tried again and stored,
/// never answered "write failed" (nor lost). Another session holds the funnel's daily rows
/// (as an erasure or a listing does, in its own order) and then waits for the consent
/// wording the writer's group has just inserted: a circle, which the writer's backend finds
/// first (the other session waits 30 s before it looks) and breaks by aborting the group.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lead_whose_transaction_is_aborted_for_a_deadlock_is_stored_on_a_later_try() {
    let Some((store, raw)) = common::stores::postgres_store().await else {
        eprintln!("TEST_DATABASE_URL is not set: this PostgreSQL test did not run");
        return;
    };
    let other = common::stores::pg_client(&raw).await;
    other
        .batch_execute("SET deadlock_timeout = '30s'; BEGIN; LOCK TABLE lead_days IN SHARE ROW EXCLUSIVE MODE")
        .await
        .expect("hold the funnel's rows");
    let lead = common::new_lead("+14125550911", "hvac");
    let sha = lead.consent_sha256.clone();
    let submitted = tokio::spawn({
        let store = Arc::clone(&store);
        async move { store.submit_lead(lead, vec![Channel::Webhook], now_ms()).await }
    });
    // The writer's group waits for the funnel's rows, its consent wording inserted.
    let began = std::time::Instant::now();
    loop {
        let waiting: i64 = other
            .query_one(
                "SELECT count(*) FROM pg_locks WHERE NOT granted AND relation = 'lead_days'::regclass",
                &[],
            )
            .await
            .expect("locks")
            .get(0);
        if waiting > 0 {
            break;
        }
        assert!(began.elapsed() < std::time::Duration::from_secs(30), "the writer never waited");
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    // Now this session waits for the writer's transaction: the database aborts the writer's.
    other
        .execute(
            "INSERT INTO consent_texts (sha256, text, first_seen_ms) VALUES ($1, 'held', 0) ON CONFLICT DO NOTHING",
            &[&sha],
        )
        .await
        .expect("the other session's insert goes on once the group is aborted");
    other.batch_execute("COMMIT").await.expect("commit");
    let stored = submitted.await.expect("task").expect("the lead is stored on a later try");
    assert!(!stored.duplicate);
    let counts = common::stores::texts(
        &raw,
        &format!(
            "SELECT (SELECT count(*) FROM leads WHERE id = '{id}') || ' ' || \
                    (SELECT count(*) FROM outbox WHERE lead_id = '{id}') || ' ' || \
                    (SELECT COALESCE(SUM(leads), 0) FROM lead_days WHERE kind = 'service' AND key = 'hvac')",
            id = stored.id
        ),
    )
    .await;
    assert_eq!(
        counts,
        [Some("1 1 1".to_string())],
        "the lead, its notification and its count, once each"
    );
}

/// A group's INSERT of leads locks the funnel's daily rows in one order, by (day, kind, key)
/// (migration 0015), so that two servers' groups sharing rows wait for each other in turn,
/// never in a circle (docs/decisions/002-group-commit.md, "Two servers' groups never wait on each other in a circle").
/// One session holds the row of the service that sorts last; a group of leads for every
/// service then waits on it, and by then it must hold every other service's row.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_group_locks_the_funnels_rows_in_one_order() {
    let Some((store, twin, raw)) = common::stores::postgres_twins().await else {
        eprintln!("TEST_DATABASE_URL is not set: this PostgreSQL test did not run");
        return;
    };
    let services: Vec<String> = (0..20).map(|i| format!("service-{i:02}")).collect();
    let now = now_ms();
    for (i, slug) in services.iter().enumerate() {
        let phone = format!("+1412557{i:04}");
        store
            .submit_lead(common::new_lead(&phone, slug), vec![], now)
            .await
            .expect("stored");
    }
    let last = services.last().expect("services");
    let holder = common::stores::pg_client(&raw).await;
    holder
        .batch_execute(&format!(
            "BEGIN; SELECT 1 FROM lead_days WHERE kind = 'service' AND key = '{last}' FOR UPDATE"
        ))
        .await
        .expect("lock the last row");

    // Every lead again under a new id, in one INSERT: one group's worth for the trigger.
    let group = common::stores::pg_client(&raw).await;
    let group_pid: i32 = group.query_one("SELECT pg_backend_pid()", &[]).await.expect("pid").get(0);
    let insert = tokio::spawn(async move {
        group
            .batch_execute(
                "CREATE TEMP TABLE again AS SELECT * FROM leads; UPDATE again SET id = id || '-again'; \
                 INSERT INTO leads SELECT * FROM again",
            )
            .await
    });
    let watcher = common::stores::pg_client(&raw).await;
    common::eventually(10, "the group waits on the held row", async || {
        let row = watcher
            .query_one("SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1", &[&group_pid])
            .await
            .expect("activity");
        row.get::<_, Option<String>>(0).as_deref() == Some("Lock")
    })
    .await;
    let free: Vec<String> = watcher
        .query(
            "SELECT key FROM lead_days WHERE kind = 'service' ORDER BY key FOR UPDATE SKIP LOCKED",
            &[],
        )
        .await
        .expect("free rows")
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(
        free,
        Vec::<String>::new(),
        "rows the waiting group had not locked before the last one"
    );

    holder.batch_execute("COMMIT").await.expect("release");
    insert.await.expect("task").expect("the group is stored once the row is free");
    let counts = watcher
        .query("SELECT leads FROM lead_days WHERE kind = 'service' ORDER BY key", &[])
        .await
        .expect("counts");
    let counts: Vec<i64> = counts.iter().map(|r| r.get(0)).collect();
    assert_eq!(counts, vec![2; services.len()], "each service counted twice");
    store.close().await;
    twin.close().await;
}

/// The writer's repeat check finds each lead's repeat through `leads_list_phone` whatever `leads`
/// holds and whatever the planner knows of it. A plan made while the table had few rows of
/// one service and no statistics (a tie between the two indexes) walked every lead of that
/// service in the window through `leads_list_service`, and the writer kept it, at every
/// group, until the table was analyzed: a fresh database's intake fell from about 10,000 to
/// 1,070–1,480 leads/s in seconds, in about one `bench/compare.py` run of three. The tie comes and goes; the
/// last case is statistics that make the wrong index the better guess
/// (docs/decisions/033-the-repeat-check-plan.md).
#[tokio::test]
async fn the_repeat_check_reads_the_phone_index_whatever_the_planner_knows() {
    let Some((store, raw)) = common::stores::postgres_store().await else {
        eprintln!("TEST_DATABASE_URL is not set: this PostgreSQL test did not run");
        return;
    };
    let client = common::stores::pg_client(&raw).await;
    let check_sql = site_server::store::postgres::statements()
        .find(|(name, _)| *name == "EARLIER_LEADS")
        .map(|(_, sql)| sql())
        .expect("the writer's repeat check");
    client
        .batch_execute(&format!(
            "ALTER TABLE leads SET (autovacuum_enabled = off); \
             INSERT INTO consent_texts (sha256, text, first_seen_ms) VALUES ('plan', 'I agree.', 0); \
             PREPARE check_plan AS {check_sql}"
        ))
        .await
        .expect("prepare the check");
    let explain = "EXPLAIN EXECUTE check_plan('{+14125550100}', '{hvac}', '{0}')";
    let now = now_ms();
    // Leads `from..=to`, each of the service and phone the SQL expressions of `g` give.
    let add_leads = async |from: i64, to: i64, service: &str, phone: &str| {
        client
            .batch_execute(&format!(
                "INSERT INTO leads (id, received_at_ms, consent, service_slug, full_name, phone_e164, consent_sha256) \
                 SELECT 'plan-' || {service} || '-' || g, {now} + g, TRUE, {service}, 'Pat Doe', {phone}, 'plan' \
                 FROM generate_series({from}, {to}) g"
            ))
            .await
            .expect("more leads");
    };
    let check = async |when: &str| {
        let plan: Vec<String> = client
            .query(explain, &[])
            .await
            .expect("explain")
            .iter()
            .map(|r| r.get(0))
            .collect();
        let scans: Vec<&String> = plan.iter().filter(|line| line.contains(" on leads l")).collect();
        assert!(
            scans.len() == 1 && scans[0].contains("using leads_list_phone on leads l"),
            "{when}: the repeat check must read leads_list_phone alone:\n{}",
            plan.join("\n")
        );
    };
    // Never analyzed (autovacuum is off for the table): the planner guesses from its size.
    let mut stored: i64 = 0;
    for size in [0, 1, 10, 30, 100, 300, 1000, 5000] {
        if size > stored {
            add_leads(stored + 1, size, "'hvac'", "'+1412' || lpad(g::text, 7, '0')").await;
            stored = size;
        }
        check(&format!("{size} leads, never analyzed")).await;
    }
    client.batch_execute("ANALYZE leads").await.expect("analyze");
    check("5000 leads of one service, analyzed").await;
    // And when the statistics make a service look rarer than a phone (a few numbers that
    // asked about many services): the check still reads the phone's leads.
    add_leads(1, 20000, "'service-' || g", "'+1412555000' || (g % 10)").await;
    client.batch_execute("ANALYZE leads").await.expect("analyze");
    check("a few phones asking about many services, analyzed").await;
    store.close().await;
}

/// Whether the session of `target` runs over TLS, as the server sees it.
async fn session_is_encrypted(target: &PgTarget) -> Result<bool, String> {
    let (client, connection) = target.connect().await.map_err(|e| e.to_string())?;
    tokio::spawn(connection);
    let row = client
        .query_one("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()", &[])
        .await
        .map_err(|e| e.to_string())?;
    Ok(row.get(0))
}

fn with_params(url: &str, params: &str) -> String {
    let joiner = if url.contains('?') { '&' } else { '?' };
    format!("{url}{joiner}{params}")
}

#[tokio::test]
async fn sslmode_is_honoured() {
    let Some(url) = database_url() else { return };
    let parse = |params: &str| PgTarget::parse(&with_params(&url, params)).expect("url");
    assert!(!session_is_encrypted(&parse("sslmode=disable")).await.expect("plain"));
    assert!(
        session_is_encrypted(&parse("sslmode=require")).await.expect("tls"),
        "require encrypts"
    );
    // The local server's own certificate is not signed by a public CA: verification fails
    // instead of connecting anyway.
    assert!(session_is_encrypted(&parse("sslmode=verify-full")).await.is_err());
    assert!(session_is_encrypted(&parse("sslmode=verify-ca")).await.is_err());
    assert!(PgTarget::parse(&with_params(&url, "sslmode=allow-anything")).is_err());
    // The whole store works over TLS.
    let schema = format!("store_test_{}_{}_tls", now_ms(), std::process::id());
    let store = Store::Postgres(
        PgStore::connect(&with_params(&url, "sslmode=require"), Some(&schema))
            .await
            .expect("store over TLS"),
    );
    store
        .submit_lead(common::new_lead("+14125550190", "hvac"), vec![], now_ms())
        .await
        .expect("stored");
    store.close().await;
}

/// Channel binding against the local server. The data offered is the hash of the
/// certificate the server really presents (a TLS session opened by hand, as tokio-postgres
/// opens it); a URL that requires binding connects only if the server did bind (SCRAM-SHA-256-PLUS):
/// refused, with the reason, by a server that authenticates otherwise (trust, on our machines);
/// and the default (prefer) connects over TLS whatever the server's method.
#[tokio::test]
async fn channel_binding_is_offered_and_required_when_asked() {
    use tokio_postgres::tls::{MakeTlsConnect, TlsConnect};
    let Some(url) = database_url() else { return };
    let target = PgTarget::parse(&with_params(&url, "sslmode=require")).expect("url");
    let (host, port) = match (target.config.get_hosts().first(), target.config.get_ports().first()) {
        (Some(tokio_postgres::config::Host::Tcp(host)), port) => (host.clone(), port.copied().unwrap_or(5432)),
        _ => {
            eprintln!("TEST_DATABASE_URL names no TCP host: channel binding was not tested");
            return;
        }
    };
    let mut tcp = tokio::net::TcpStream::connect((host.as_str(), port)).await.expect("connect");
    // SSLRequest: length 8, code 80877103; 'S' means the server will speak TLS.
    tcp.write_all(&[0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f]).await.expect("SSLRequest");
    let mut answer = [0u8; 1];
    tcp.read_exact(&mut answer).await.expect("answer");
    if answer[0] != b'S' {
        eprintln!("the PostgreSQL at {host}:{port} has TLS off: channel binding was not tested");
        return;
    }
    let mut make = target.tls.clone().expect("TLS connector");
    let connector = make.make_tls_connect(&host).expect("connector");
    let stream = connector.connect(tcp).await.expect("TLS handshake");
    let offered = stream.server_end_point().expect("a certificate signed with a SHA-2 hash binds");
    drop(stream);
    // The certificate the server is configured with, read through the server itself
    // (pg_read_file: the test's role is a superuser on our machines).
    let (client, connection) = target.connect().await.expect("connect");
    tokio::spawn(connection);
    let pem: String = match client.query_one("SELECT pg_read_file(current_setting('ssl_cert_file'))", &[]).await {
        Ok(row) => row.get(0),
        Err(e) => {
            eprintln!("could not read the server's certificate ({e}): only the refusals were tested");
            String::new()
        }
    };
    if !pem.is_empty() {
        let certificate = CertificateDer::from_pem_slice(pem.as_bytes()).expect("PEM");
        let expected = site_server::store::postgres::tls::server_end_point(&certificate).expect("end point");
        assert_eq!(offered, expected, "the hash of the certificate the server presents");
    }
    assert!(offered.len() >= 32, "a SHA-2 digest");

    assert!(
        session_is_encrypted(&PgTarget::parse(&with_params(&url, "sslmode=require&channel_binding=prefer")).expect("url"))
            .await
            .expect("prefer connects")
    );
    // Does the server check passwords? Trust (our machines) takes a wrong one; SCRAM does not.
    let mut wrong = PgTarget::parse(&with_params(&url, "sslmode=require&channel_binding=disable")).expect("url");
    wrong.config.password("not-the-password-of-this-test");
    let trusts = session_is_encrypted(&wrong).await.is_ok();
    let required = PgTarget::parse(&with_params(&url, "sslmode=require&channel_binding=require")).expect("url");
    match (trusts, session_is_encrypted(&required).await) {
        (true, Err(e)) => {
            assert!(e.contains("server did not use channel binding"), "refused for the reason: {e}");
            eprintln!("channel binding: this server authenticates without SCRAM; require was refused, as it must be");
        }
        (true, Ok(_)) => panic!("channel_binding=require connected to a server that did not authenticate by SCRAM"),
        // SCRAM over TLS: the server offers SCRAM-SHA-256-PLUS and must take the bound proof.
        (false, Ok(encrypted)) => {
            assert!(encrypted);
            eprintln!("channel binding: SCRAM-SHA-256-PLUS accepted by the server");
        }
        (false, Err(e)) => panic!("channel_binding=require refused by a server that checks passwords: {e}"),
    }
    // And never in plain.
    let err = PgTarget::parse(&with_params(&url, "sslmode=disable&channel_binding=require")).expect_err("plain");
    assert!(err.to_string().contains("needs TLS"), "{err}");
}

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/it/fixtures/pg-tls");

/// A TLS-terminating proxy in front of the local PostgreSQL, presenting a certificate for
/// `localhost` signed by the test CA. Counts the TLS sessions it completed.
async fn tls_proxy(upstream: String) -> (u16, Arc<AtomicU32>) {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(format!("{FIXTURES}/server.pem"))
        .expect("cert")
        .map(|c| c.expect("pem"))
        .collect();
    let key = PrivateKeyDer::from_pem_file(format!("{FIXTURES}/server.key")).expect("key");
    let config = rustls::ServerConfig::builder()
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .expect("server config");
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let port = listener.local_addr().expect("addr").port();
    let sessions = Arc::new(AtomicU32::new(0));
    let counter = Arc::clone(&sessions);
    tokio::spawn(async move {
        while let Ok((mut client, _)) = listener.accept().await {
            let acceptor = acceptor.clone();
            let upstream = upstream.clone();
            let counter = Arc::clone(&counter);
            tokio::spawn(async move {
                // SSLRequest: length 8, code 80877103; answer 'S' and speak TLS.
                let mut request = [0u8; 8];
                if client.read_exact(&mut request).await.is_err() || request != [0, 0, 0, 8, 4, 210, 22, 47] {
                    return;
                }
                if client.write_all(b"S").await.is_err() {
                    return;
                }
                let Ok(mut tls) = acceptor.accept(client).await else { return };
                counter.fetch_add(1, Ordering::Relaxed);
                let Ok(mut server) = tokio::net::TcpStream::connect(upstream).await else {
                    return;
                };
                let _ = tokio::io::copy_bidirectional(&mut tls, &mut server).await;
            });
        }
    });
    (port, sessions)
}

#[tokio::test]
async fn verify_full_checks_the_chain_and_the_name_and_verify_ca_the_chain() {
    let Some(url) = database_url() else { return };
    let config: tokio_postgres::Config = url.parse().expect("url");
    let (host, port) = match (config.get_hosts().first(), config.get_ports().first()) {
        (Some(tokio_postgres::config::Host::Tcp(h)), Some(p)) => (h.clone(), *p),
        _ => panic!("TEST_DATABASE_URL must name a TCP host"),
    };
    let (proxy, sessions) = tls_proxy(format!("{host}:{port}")).await;
    let user = config.get_user().unwrap_or("postgres");
    let db = config.get_dbname().unwrap_or("postgres");
    let target = |host: &str, params: &str| PgTarget::parse(&format!("postgres://{user}@{host}:{proxy}/{db}?{params}")).expect("url");
    let ca = format!("sslrootcert={FIXTURES}/ca.pem");
    // (The proxy talks to the server in plain, so success here is connecting through it.)
    let connects = async |target: PgTarget| session_is_encrypted(&target).await.is_ok();
    // The right CA and the name in the certificate.
    assert!(
        connects(target("localhost", &format!("sslmode=verify-full&{ca}"))).await,
        "verify-full"
    );
    assert_eq!(sessions.load(Ordering::Relaxed), 1);
    // The right CA, another name: refused by verify-full, taken by verify-ca.
    assert!(!connects(target("127.0.0.1", &format!("sslmode=verify-full&{ca}"))).await);
    assert!(connects(target("127.0.0.1", &format!("sslmode=verify-ca&{ca}"))).await, "verify-ca");
    // The public CAs do not know the test CA.
    assert!(!connects(target("localhost", "sslmode=verify-full")).await);
    assert_eq!(sessions.load(Ordering::Relaxed), 2, "only the verified sessions went through");
}
