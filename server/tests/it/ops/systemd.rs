//! The real binary under a real notification socket, as systemd runs it with `Type=notify`
//! and `WatchdogSec=` (deploy/site.service): READY=1 once it answers, watchdog pings while
//! it runs, STOPPING=1 when SIGTERM starts the drain.

use crate::common;

use std::os::unix::net::UnixDatagram;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The messages of one datagram (`READY=1\nSTATUS=…`), or None when none came within `wait`.
fn receive(socket: &UnixDatagram, wait: Duration) -> Option<Vec<String>> {
    socket.set_read_timeout(Some(wait)).expect("timeout");
    let mut buf = [0u8; 4096];
    let n = socket.recv(&mut buf).ok()?;
    Some(String::from_utf8_lossy(&buf[..n]).lines().map(str::to_string).collect())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn systemd_hears_ready_after_the_bind_watchdog_pings_and_stopping_on_sigterm() {
    let dir = common::temp_dir("systemd");
    let path = dir.join("notify.sock");
    let systemd = UnixDatagram::bind(&path).expect("bind the notification socket");
    let (port, metrics_port) = (common::free_port(), common::free_port());
    let mut child = Command::new(env!("CARGO_BIN_EXE_site"))
        .env("LISTEN", format!("127.0.0.1:{port}"))
        .env("DATABASE_URL", format!("sqlite:{}", dir.join("site.db").display()))
        .env("RENDER_POOL_SIZE", "1")
        .env("METRICS_LISTEN", format!("127.0.0.1:{metrics_port}"))
        .env("NOTIFY_SOCKET", &path)
        // Pings every 0.3 s.
        .env("WATCHDOG_USEC", "600000")
        // A drain, so the process is still running when STOPPING=1 arrives.
        .env("SHUTDOWN_DRAIN_MS", "1500")
        .env("NO_COLOR", "1")
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start site");
    let client = common::client();
    let healthz = async || {
        client
            .get(format!("http://127.0.0.1:{port}/healthz"))
            .send()
            .await
            .map(|r| r.status().as_u16())
    };

    // The first message is READY=1, and by then the server answers (the cache warm-up on a
    // busy machine takes long: wait as common::wait_healthy does).
    let started = Instant::now();
    let first = loop {
        if let Some(lines) = receive(&systemd, Duration::from_millis(200)) {
            break lines;
        }
        assert!(child.try_wait().expect("wait").is_none(), "site exited before it was ready");
        assert!(started.elapsed() < Duration::from_secs(300), "no READY=1 within 5 minutes");
    };
    assert!(first.iter().any(|l| l == "READY=1"), "the first notification is READY=1: {first:?}");
    assert!(
        first.iter().any(|l| l == &format!("STATUS=serving on http://127.0.0.1:{port}")),
        "{first:?}"
    );
    assert_eq!(healthz().await.ok(), Some(200), "READY=1 came before /healthz answered 200");
    let metrics = client.get(format!("http://127.0.0.1:{metrics_port}/metrics")).send().await;
    assert!(
        metrics.is_ok_and(|r| r.status().is_success()),
        "READY=1 came before /metrics was served"
    );

    // Watchdog pings while it runs, and nothing else.
    for _ in 0..3 {
        let lines = receive(&systemd, Duration::from_secs(5)).expect("a watchdog ping within 5 s");
        assert_eq!(lines, ["WATCHDOG=1"]);
    }

    // SIGTERM: STOPPING=1 comes while the server still runs (draining), then it exits cleanly.
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(killed.success());
    let stopping = loop {
        let lines = receive(&systemd, Duration::from_secs(5)).expect("STOPPING=1 within 5 s of SIGTERM");
        if lines != ["WATCHDOG=1"] {
            break lines;
        }
    };
    assert_eq!(stopping.first().map(String::as_str), Some("STOPPING=1"), "{stopping:?}");
    assert!(child.try_wait().expect("wait").is_none(), "STOPPING=1 came before the exit");
    let mut status = None;
    for _ in 0..150 {
        if let Some(s) = child.try_wait().expect("wait") {
            status = Some(s);
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let status = status.expect("stopped within 15 s of SIGTERM");
    assert!(status.success(), "clean exit: {status}");
}
