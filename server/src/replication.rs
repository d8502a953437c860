//! How far Litestream's replica of the SQLite database is behind, for /metrics
//! (`site_replica_lag_seconds`, `site_replica_up`; docs/decisions/028-continuous-replication.md
//! and docs/operations.md, "Continuous replication").
//!
//! Litestream has no lag figure of its own, but its control socket (`socket:` in
//! `deploy/litestream.yml`) answers `POST /sync` with the position it has read the WAL to
//! (`txid`, after reading what is new) and the position the replica holds
//! (`replicated_txid`). Every [`POLL_EVERY`] the server asks, and remembers when it asked
//! and what `txid` came back: every commit acknowledged before it asked is at or below
//! that `txid`, so once `replicated_txid` reaches it, everything committed before that
//! moment is in the replica. The lag is how long ago the newest such moment was; it grows
//! while Litestream does not answer (stopped, stuck on a lock, its uploads hanging), which
//! is what the alert is for. The request itself makes Litestream read the WAL at once
//! instead of at its next tick: one more small file to upload at most per poll while leads
//! arrive, none while the site is idle.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde::Deserialize;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::UnixStream;
use tokio::sync::watch;
use tokio::time::Instant;

use crate::metrics::Metrics;

/// How often the server asks Litestream where the replica is.
pub const POLL_EVERY: Duration = Duration::from_millis(250);
/// How long an answer may take before Litestream counts as not answering.
const ANSWER_WITHIN: Duration = Duration::from_secs(1);
/// The most of an answer read (Litestream's is under 200 bytes).
const MAX_ANSWER: u64 = 16 * 1024;
/// How often a Litestream that keeps failing to answer is logged.
const WARN_EVERY: Duration = Duration::from_secs(60);

/// Litestream's answer to `POST /sync`.
#[derive(Debug, Deserialize)]
struct Positions {
    txid: u64,
    replicated_txid: u64,
}

/// What the server knows of the replica: the moments it asked and the positions it got.
#[derive(Debug)]
pub struct Lag {
    /// Moments not yet known replicated, oldest first, with the position read then.
    pending: VecDeque<(Instant, u64)>,
    /// The newest moment everything committed before is known to be in the replica.
    covered: Instant,
}

impl Lag {
    pub fn new(now: Instant) -> Self {
        Self {
            pending: VecDeque::new(),
            covered: now,
        }
    }

    /// Litestream answered a request sent at `asked`: it had read the WAL to `txid`, and
    /// the replica holds `replicated`.
    pub fn answered(&mut self, asked: Instant, txid: u64, replicated: u64) {
        if self.pending.back().is_some_and(|&(_, last)| txid < last) {
            // A position lower than one already seen: a new lineage (Litestream's state
            // was removed, or the database restored). What was pending is not comparable.
            self.pending.clear();
        }
        self.pending.push_back((asked, txid));
        while let Some(&(at, position)) = self.pending.front() {
            if position > replicated {
                break;
            }
            self.covered = self.covered.max(at);
            self.pending.pop_front();
        }
    }

    /// How long ago the newest moment was whose commits are all in the replica.
    pub fn behind(&self, now: Instant) -> Duration {
        now.saturating_duration_since(self.covered)
    }
}

/// Asks Litestream every [`POLL_EVERY`] until `stop`, recording the lag in `metrics`.
pub async fn watch(socket: PathBuf, database: PathBuf, metrics: Arc<Metrics>, mut stop: watch::Receiver<bool>) {
    let body = serde_json::json!({ "path": database.to_string_lossy() }).to_string();
    let mut lag = Lag::new(Instant::now());
    let mut last_warning: Option<Instant> = None;
    metrics.set_replica(false, Duration::ZERO);
    loop {
        let asked = Instant::now();
        let answer = match tokio::time::timeout(ANSWER_WITHIN, ask(&socket, &body)).await {
            Ok(answer) => answer,
            Err(_) => Err(format!("no answer within {} ms", ANSWER_WITHIN.as_millis())),
        };
        let up = match answer {
            Ok(p) => {
                lag.answered(asked, p.txid, p.replicated_txid);
                true
            }
            Err(error) => {
                if last_warning.is_none_or(|at| at.elapsed() >= WARN_EVERY) {
                    tracing::warn!(
                        socket = %socket.display(),
                        database = %database.display(),
                        error = %error,
                        "Litestream's control socket does not answer: the replica's lag is unknown and growing (docs/operations.md, \"Continuous replication\")"
                    );
                    last_warning = Some(Instant::now());
                }
                false
            }
        };
        metrics.set_replica(up, lag.behind(Instant::now()));
        tokio::select! {
            _ = tokio::time::sleep_until(asked + POLL_EVERY) => {}
            _ = stop.changed() => return,
        }
    }
}

/// One `POST /sync` on the control socket (HTTP/1.1, one request per connection).
async fn ask(socket: &Path, body: &str) -> Result<Positions, String> {
    let mut stream = UnixStream::connect(socket).await.map_err(|e| format!("connect: {e}"))?;
    let request = format!(
        "POST /sync HTTP/1.1\r\nHost: litestream\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.map_err(|e| format!("write: {e}"))?;
    let mut answer = Vec::new();
    (&mut stream)
        .take(MAX_ANSWER)
        .read_to_end(&mut answer)
        .await
        .map_err(|e| format!("read: {e}"))?;
    parse_answer(&answer)
}

/// The positions in an HTTP answer, or what is wrong with it.
fn parse_answer(answer: &[u8]) -> Result<Positions, String> {
    let text = std::str::from_utf8(answer).map_err(|_| "an answer that is not UTF-8".to_string())?;
    let (head, body) = text.split_once("\r\n\r\n").ok_or("an answer without a body")?;
    let status = head.split(' ').nth(1).unwrap_or_default();
    if status != "200" {
        // Litestream's errors are {"error": "…"}: "database not found" when the path
        // differs from the one in litestream.yml.
        let error = serde_json::from_str::<serde_json::Value>(body.trim())
            .ok()
            .and_then(|v| v.get("error").and_then(|e| e.as_str()).map(str::to_string))
            .unwrap_or_else(|| body.trim().chars().take(200).collect());
        return Err(format!("status {status}: {error}"));
    }
    serde_json::from_str(body.trim()).map_err(|e| format!("an answer that is not Litestream's: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(start: Instant, ms: u64) -> Instant {
        start + Duration::from_millis(ms)
    }

    #[test]
    fn an_idle_database_is_never_behind_by_more_than_the_time_since_it_was_asked() {
        let start = Instant::now();
        let mut lag = Lag::new(start);
        lag.answered(at(start, 0), 7, 7);
        lag.answered(at(start, 250), 7, 7);
        assert_eq!(lag.behind(at(start, 260)), Duration::from_millis(10));
    }

    #[test]
    fn the_lag_is_the_age_of_the_newest_moment_the_replica_has_caught_up_with() {
        let start = Instant::now();
        let mut lag = Lag::new(start);
        lag.answered(at(start, 0), 10, 10);
        lag.answered(at(start, 250), 12, 10);
        lag.answered(at(start, 500), 15, 11);
        // Position 12 (asked at 250 ms) is not replicated yet: covered stays at 0 ms.
        assert_eq!(lag.behind(at(start, 600)), Duration::from_millis(600));
        lag.answered(at(start, 750), 16, 15);
        // 15 is in the replica: everything committed before 500 ms is.
        assert_eq!(lag.behind(at(start, 800)), Duration::from_millis(300));
    }

    #[test]
    fn a_silent_litestream_makes_the_lag_grow() {
        let start = Instant::now();
        let mut lag = Lag::new(start);
        lag.answered(at(start, 0), 3, 3);
        assert_eq!(lag.behind(at(start, 5_000)), Duration::from_secs(5));
    }

    #[test]
    fn a_new_lineage_starts_the_comparison_again() {
        let start = Instant::now();
        let mut lag = Lag::new(start);
        lag.answered(at(start, 0), 900, 800);
        lag.answered(at(start, 250), 2, 2);
        assert_eq!(lag.behind(at(start, 300)), Duration::from_millis(50));
    }

    #[test]
    fn answers_are_read_or_refused_with_what_litestream_said() {
        let ok = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{\"status\":\"no_change\",\"path\":\"/x\",\"txid\":3,\"replicated_txid\":2}\n";
        let p = parse_answer(ok).expect("parsed");
        assert_eq!((p.txid, p.replicated_txid), (3, 2));
        let missing = b"HTTP/1.1 404 Not Found\r\n\r\n{\"error\":\"database not found: /x\"}\n";
        assert_eq!(parse_answer(missing).unwrap_err(), "status 404: database not found: /x");
        assert!(parse_answer(b"HTTP/1.1 200 OK\r\n\r\n{\"txid\":\"x\"}").is_err());
        assert!(parse_answer(b"garbage").is_err());
    }
}
