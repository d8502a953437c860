//! The cached page's own HTTP/1.1 path (`site_server::wire`), over real connections: its
//! answers are the router's byte for byte but for the date, the requests it does not answer
//! reach hyper in order with every byte, and the head's deadline, the drain and the counts
//! hold on it as under hyper.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use hyper::body::Incoming;
use site_server::AppState;
use site_server::app::{Answer, Site, app, router};
use site_server::serve::{ForPeer, ServeOptions, Workers, serve};
use site_server::wire::{Answers, Get, Wire};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tower::Service;

use crate::common;

/// The site, counting the answers given off the connection's bytes.
#[derive(Clone)]
struct Counted {
    site: Site,
    answered: Arc<AtomicUsize>,
}

impl ForPeer for Counted {
    type Service = Counted;
    fn for_peer(&self, peer: SocketAddr) -> Counted {
        Counted {
            site: self.site.for_peer(peer),
            answered: Arc::clone(&self.answered),
        }
    }
}

impl Service<hyper::Request<Incoming>> for Counted {
    type Response = axum::response::Response;
    type Error = Infallible;
    type Future = Answer;
    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Service::<hyper::Request<Incoming>>::poll_ready(&mut self.site, cx)
    }
    fn call(&mut self, request: hyper::Request<Incoming>) -> Answer {
        self.site.call(request)
    }
}

impl Answers for Counted {
    fn cached(&mut self, get: &Get<'_>) -> Option<Wire> {
        let wire = self.site.cached(get);
        if wire.is_some() {
            self.answered.fetch_add(1, Ordering::SeqCst);
        }
        wire
    }
}

struct Served {
    site: SocketAddr,
    router: SocketAddr,
    answered: Arc<AtomicUsize>,
    state: Arc<AppState>,
}

/// A warmed state with `env`, served twice: as the site (counted) and as the router alone
/// (every request hyper's).
async fn served(env: &[(&str, &str)]) -> Served {
    let state = common::state_in_process(common::config(env)).await;
    assert_eq!(state.warm().await.failed, 0);
    let options = ServeOptions::from_config(&state.config.server);
    let workers = Workers::start(2).expect("connection threads");
    let answered = Arc::new(AtomicUsize::new(0));
    let site = Counted {
        site: app(Arc::clone(&state)),
        answered: Arc::clone(&answered),
    };
    let (a, b) = (bind().await, bind().await);
    let (site_addr, router_addr) = (a.local_addr().expect("addr"), b.local_addr().expect("addr"));
    let draining = Arc::clone(&state.draining);
    tokio::spawn(serve(a, site, options, std::future::pending(), draining, Arc::clone(&workers)));
    let routed = router(Arc::clone(&state));
    tokio::spawn(serve(
        b,
        routed,
        options,
        std::future::pending(),
        Arc::new(AtomicBool::new(false)),
        workers,
    ));
    Served {
        site: site_addr,
        router: router_addr,
        answered,
        state,
    }
}

async fn bind() -> tokio::net::TcpListener {
    tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind")
}

/// Reads `n` answers off `stream` (within ten seconds).
async fn answers(stream: &mut TcpStream, n: usize) -> Vec<(String, Vec<u8>)> {
    let (mut buf, mut got, mut chunk) = (Vec::new(), Vec::new(), vec![0u8; 64 * 1024]);
    let read = async {
        while got.len() < n {
            while let Some(answer) = common::take_answer(&mut buf) {
                got.push(answer);
            }
            if got.len() == n {
                break;
            }
            let r = stream.read(&mut chunk).await.expect("read");
            assert!(r > 0, "closed after {} answers of {n}", got.len());
            buf.extend_from_slice(&chunk[..r]);
        }
    };
    tokio::time::timeout(Duration::from_secs(10), read).await.expect("answers in time");
    assert!(buf.is_empty(), "bytes after the answers");
    got
}

/// The head without its date line (the one thing two answers a second apart may differ in).
fn without_date(head: &str) -> String {
    head.lines().filter(|l| !l.starts_with("date: ")).collect::<Vec<_>>().join("\n")
}

fn get(path: &str, extra: &str) -> String {
    format!("GET {path} HTTP/1.1\r\nHost: example.test\r\nUser-Agent: test\r\n{extra}\r\n")
}

#[tokio::test]
async fn a_cached_page_is_answered_off_the_connection_as_the_router_answers_it() {
    let s = served(&[]).await;
    let mut paths: Vec<String> = s.state.pages.get().routes.keys().cloned().collect();
    paths.sort();
    let mut site = TcpStream::connect(s.site).await.expect("connect");
    let mut routed = TcpStream::connect(s.router).await.expect("connect");
    let mut asked = 0;
    for path in &paths {
        let landing = format!("{path}?utm_source=ads&gclid=a1");
        for (target, accept) in [
            (path.as_str(), ""),
            (path, "Accept-Encoding: gzip\r\n"),
            (path, "Accept-Encoding: gzip, deflate, br\r\n"),
            (path, "accept-encoding: br;q=0\r\nAccept-Encoding: gzip;q=0.5, identity;q=0.4\r\n"),
            // An advertisement's landing: the page is the path before the query.
            (&landing, "Accept-Encoding: br\r\n"),
        ] {
            let request = get(target, accept);
            site.write_all(request.as_bytes()).await.expect("write");
            routed.write_all(request.as_bytes()).await.expect("write");
            let (ours, theirs) = (answers(&mut site, 1).await.remove(0), answers(&mut routed, 1).await.remove(0));
            assert_eq!(without_date(&ours.0), without_date(&theirs.0), "{target} {accept:?}");
            assert!(
                ours.0.contains("\r\ndate: ") && ours.0.starts_with("HTTP/1.1 200 OK\r\n"),
                "{}",
                ours.0
            );
            assert!(ours.1 == theirs.1 && !ours.1.is_empty(), "{target} {accept:?}: the same body");
            asked += 1;
        }
    }
    assert!(asked > 100, "every canonical page in four codings and with a query");
    assert_eq!(s.answered.load(Ordering::SeqCst), asked, "each was answered off the connection");
    // Counted as pages, by status class and in the cache's hits, as the router's are.
    let m = s.state.metrics.render(Default::default(), site_server::store::now_ms());
    let count = m
        .lines()
        .find_map(|l| l.strip_prefix("site_http_request_duration_seconds_count{route=\"(page)\"} "))
        .and_then(|v| v.parse::<usize>().ok());
    assert_eq!(count, Some(2 * asked), "{m}");
    assert!(s.state.renderer.cache.hits() as usize >= 2 * asked);
}

#[tokio::test]
async fn requests_it_does_not_answer_reach_hyper_in_order_with_every_byte() {
    let s = served(&[]).await;
    let mut c = TcpStream::connect(s.site).await.expect("connect");
    // Pipelined in one write: two plain GETs of a page (answered off the connection), then a
    // revalidation, a page with a query, a HEAD, /healthz and a page again: hyper's.
    let first = [get("/hvac", ""), get("/hvac", "Accept-Encoding: gzip\r\n")].concat();
    c.write_all(first.as_bytes()).await.expect("write");
    let got = answers(&mut c, 2).await;
    let etag = got[0].0.lines().find_map(|l| l.strip_prefix("etag: ")).expect("etag").to_string();
    let rest = [
        get("/hvac", &format!("If-None-Match: {etag}\r\n")),
        get("/hvac?utm_source=test", ""),
        get("/healthz", ""),
        get("/hvac", ""),
    ]
    .concat();
    c.write_all(rest.as_bytes()).await.expect("write");
    let more = answers(&mut c, 4).await;
    assert!(more[0].0.starts_with("HTTP/1.1 304") && more[0].1.is_empty(), "{}", more[0].0);
    assert!(more[1].0.starts_with("HTTP/1.1 200") && more[1].1 == got[0].1, "the query's page");
    assert!(
        more[2].0.starts_with("HTTP/1.1 200") && String::from_utf8_lossy(&more[2].1).contains("ok"),
        "{}",
        more[2].0
    );
    assert!(
        more[3].0.starts_with("HTTP/1.1 200") && more[3].1 == got[0].1,
        "the page again, from hyper"
    );
    assert!(got[1].0.contains("content-encoding: gzip"));
    assert_eq!(
        s.answered.load(Ordering::SeqCst),
        2,
        "only the two plain GETs were answered off the connection"
    );

    // A HEAD is hyper's: the head of the page's answer, and no body.
    let mut h = TcpStream::connect(s.site).await.expect("connect");
    h.write_all(b"HEAD /hvac HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .expect("write");
    let mut out = String::new();
    tokio::time::timeout(Duration::from_secs(10), h.read_to_string(&mut out))
        .await
        .expect("closed in time")
        .expect("read");
    assert!(out.starts_with("HTTP/1.1 200") && out.ends_with("\r\n\r\n"), "{out}");
    assert_eq!(s.answered.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn a_head_split_across_writes_is_answered_and_a_long_or_bad_one_is_hypers() {
    let s = served(&[]).await;
    let mut c = TcpStream::connect(s.site).await.expect("connect");
    c.write_all(b"GET /hvac HTTP/1.1\r\nHo").await.expect("write");
    tokio::time::sleep(Duration::from_millis(50)).await;
    c.write_all(b"st: x\r\n\r\n").await.expect("write");
    assert!(answers(&mut c, 1).await[0].0.starts_with("HTTP/1.1 200"));
    assert_eq!(s.answered.load(Ordering::SeqCst), 1);

    // A head over the connection path's limit goes to hyper with every byte read.
    let long = get("/hvac", &format!("X-Long: {}\r\n", "a".repeat(site_server::wire::MAX_HEAD)));
    c.write_all(long.as_bytes()).await.expect("write");
    assert!(answers(&mut c, 1).await[0].0.starts_with("HTTP/1.1 200"));
    assert_eq!(s.answered.load(Ordering::SeqCst), 1, "the long head was hyper's");

    // Bytes that are no HTTP: hyper's 400, and the connection closed.
    let mut bad = TcpStream::connect(s.site).await.expect("connect");
    bad.write_all(b"GET /hvac HTTP/1.1\r\nBad Header: x\r\n\r\n").await.expect("write");
    let mut out = String::new();
    tokio::time::timeout(Duration::from_secs(10), bad.read_to_string(&mut out))
        .await
        .expect("closed in time")
        .expect("read");
    assert!(out.starts_with("HTTP/1.1 400"), "{out}");
}

#[tokio::test]
async fn the_head_deadline_runs_from_each_wait_for_a_head() {
    let s = served(&[("HEADER_TIMEOUT_MS", "400")]).await;
    // Requests one after another for longer than the deadline: each wait is short, so the
    // connection stays open and every one is answered.
    let mut c = TcpStream::connect(s.site).await.expect("connect");
    let began = Instant::now();
    for _ in 0..8 {
        c.write_all(get("/hvac", "").as_bytes()).await.expect("write");
        assert!(answers(&mut c, 1).await[0].0.starts_with("HTTP/1.1 200"));
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
    assert!(began.elapsed() > Duration::from_millis(1000));
    assert_eq!(s.answered.load(Ordering::SeqCst), 8);
    // Then idle: closed once the deadline passes.
    let mut rest = Vec::new();
    let closed = tokio::time::timeout(Duration::from_secs(5), c.read_to_end(&mut rest)).await;
    assert!(closed.is_ok() && rest.is_empty(), "an idle connection was kept open");

    // A head trickled a header at a time: its bytes keep coming, but it is not whole in time.
    let mut t = TcpStream::connect(s.site).await.expect("connect");
    t.write_all(b"GET /hvac HTTP/1.1\r\n").await.expect("write");
    let began = Instant::now();
    let mut cut = false;
    for n in 0..40 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        if t.write_all(format!("X-{n}: y\r\n").as_bytes()).await.is_err() {
            cut = true;
            break;
        }
        let mut probe = [0u8; 1];
        if let Ok(Ok(0)) = tokio::time::timeout(Duration::from_millis(1), t.read(&mut probe)).await {
            cut = true;
            break;
        }
    }
    assert!(cut, "a trickled head kept the connection open");
    assert!(began.elapsed() < Duration::from_secs(3));
}

#[tokio::test]
async fn while_draining_a_page_closes_its_connection() {
    let s = served(&[]).await;
    let mut c = TcpStream::connect(s.site).await.expect("connect");
    c.write_all(get("/hvac", "").as_bytes()).await.expect("write");
    assert!(!answers(&mut c, 1).await[0].0.contains("connection: close"));
    s.state.draining.store(true, Ordering::SeqCst);
    c.write_all(get("/hvac", "").as_bytes()).await.expect("write");
    let mut out = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), c.read_to_end(&mut out))
        .await
        .expect("closed in time")
        .expect("read");
    let (head, body) = common::take_answer(&mut out).expect("an answer");
    assert!(head.starts_with("HTTP/1.1 200") && head.contains("connection: close"), "{head}");
    assert!(!body.is_empty() && out.is_empty());
    assert_eq!(s.answered.load(Ordering::SeqCst), 1, "the drain's answer was hyper's");
    s.state.draining.store(false, Ordering::SeqCst);
}
