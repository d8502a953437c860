//! PostgreSQL: the limits every server on the database shares (docs/decisions/022-shared-limits.md).
//!
//! Rate limits: fixed windows of `LIMIT_WINDOW_MS` by the database's clock, one row per key
//! and window in `rate_windows`. A request's charge goes to a worker of its own (a task on
//! the server's runtime, with a connection of its own) that takes every charge queued, adds
//! them up per key and counts them in one statement (`INSERT … ON CONFLICT DO UPDATE …
//! RETURNING`): a key's requests of one group learn their places in the window from the
//! count it returns. The same worker deletes expired windows and attempts about once a
//! minute, and stops when the store closes.
//!
//! A stalled database must not hold requests (decision 022): the worker's connection has a
//! `statement_timeout` of [`CHARGE_STATEMENT_TIMEOUT_MS`], so a charge that waits on a lock
//! (or on anything else) is cancelled by the database itself, counts nothing (the statement
//! is its own transaction, rolled back) and leaves the connection ready for the next group.
//! The request itself waits less than its caller's deadline (`security::rate_limit`), and a
//! charge whose caller has stopped waiting is dropped unsent: the caller counted it on its
//! own server instead, and counting it here as well would charge the client twice.
//!
//! The sign-in throttle: one row per attempt in `login_attempts`, reserved in a
//! transaction that first takes the advisory locks of the account and the client, so two
//! servers cannot both take the last place. Sign-ins are rare and each costs a password
//! hash: they take a connection of the pool.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use async_trait::async_trait;
use tokio::sync::{mpsc, oneshot, watch};
use tokio::task::JoinHandle;
use tokio::time::Instant;
use tokio_postgres::{Client, Statement};

use super::tls::PgTarget;
use super::{PgStore, connect_one};
use crate::store::backend::Limits;
use crate::store::sql::statements;
use crate::store::{LIMIT_WINDOW_MS, LimitKey, LoginRules, MAX_BATCH, Reserved, StoreError, Verdict};

/// How often each server deletes what has expired.
const PURGE_EVERY: Duration = Duration::from_secs(60);
/// The longest one group's charge may run in the database (its `statement_timeout`): a
/// charge takes a millisecond or two, so this only ends one that waits on a lock or a
/// stalled database. Under half the callers' deadline
/// (`security::rate_limit::SHARED_CHARGE_DEADLINE`), so that a charge queued behind a group
/// that is cancelled is still answered in time.
pub const CHARGE_STATEMENT_TIMEOUT_MS: u64 = 200;

/// Advisory lock keys of the throttle: the first 8 bytes of a key's digest with this mixed in,
/// apart from the writer's duplicate keys.
const LOCK_SPACE: i64 = 0x4c49_4d49_5453_0000;

/// One request's charge, with where to send the verdict.
pub(super) struct Charge {
    key: LimitKey,
    limit: u32,
    reply: oneshot::Sender<Result<Verdict, StoreError>>,
}

statements! {
    /// The purge deletes a minute's windows (one row per client), which may take longer than a
    /// charge; it may not wait on a lock longer than a charge does, since charges wait behind it.
    PURGE_SETTINGS = "SET LOCAL statement_timeout = '30s'; SET LOCAL lock_timeout = '200ms'";
    /// Counts a group's requests per key in the current window; answers each key's count after
    /// them and the time left in the window.
    CHARGE = concat!(
        "WITH t AS (SELECT ",
        db_now_ms!(),
        " AS ms), \
         up AS (INSERT INTO rate_windows AS w (key, window_end_ms, hits) \
         SELECT k.key, t.ms - t.ms % $3 + $3, k.n FROM unnest($1::BYTEA[], $2::INT4[]) AS k(key, n), t \
         ON CONFLICT (key, window_end_ms) DO UPDATE SET hits = w.hits + excluded.hits \
         RETURNING w.key, w.hits, w.window_end_ms) \
         SELECT up.key, up.hits, up.window_end_ms - t.ms FROM up, t"
    );
    /// Deletes the expired windows and attempts; answers how many.
    PURGE = concat!(
        "WITH t AS (SELECT ",
        db_now_ms!(),
        " AS ms), \
         w AS (DELETE FROM rate_windows WHERE window_end_ms <= (SELECT ms FROM t) RETURNING 1), \
         a AS (DELETE FROM login_attempts WHERE expires_ms <= (SELECT ms FROM t) RETURNING 1) \
         SELECT (SELECT COUNT(*) FROM w) + (SELECT COUNT(*) FROM a)"
    );
    /// Under the locks: the attempt that makes the account's (`$5`-th newest) and the client's
    /// (`$6`-th newest) count full, if any, and the new attempt when neither is.
    RESERVE = "WITH p AS (SELECT $1::BYTEA AS account, $2::BYTEA AS client, $3::BIGINT AS now, $4::BIGINT AS window), \
         acc AS (SELECT a.at_ms FROM login_attempts a, p WHERE a.account = p.account AND NOT a.forgiven AND a.at_ms > p.now - p.window \
         ORDER BY a.at_ms DESC OFFSET $5::BIGINT LIMIT 1), \
         cli AS (SELECT a.at_ms FROM login_attempts a, p WHERE a.client = p.client AND a.at_ms > p.now - p.window \
         ORDER BY a.at_ms DESC OFFSET $6::BIGINT LIMIT 1), \
         ins AS (INSERT INTO login_attempts (account, client, at_ms, expires_ms) SELECT p.account, p.client, p.now, p.now + p.window FROM p \
         WHERE NOT EXISTS (SELECT 1 FROM acc) AND NOT EXISTS (SELECT 1 FROM cli) RETURNING id) \
         SELECT (SELECT id FROM ins), (SELECT at_ms FROM acc), (SELECT at_ms FROM cli)";
    /// The connection's limit on a statement's time.
    CHARGE_TIMEOUT = built format!("SET statement_timeout = {CHARGE_STATEMENT_TIMEOUT_MS}");
    /// A successful sign-in `$1`: its attempt deleted, the account `$2`'s failed ones forgiven.
    SIGNED_IN = "WITH mine AS (DELETE FROM login_attempts WHERE id = $1) \
         UPDATE login_attempts SET forgiven = TRUE WHERE account = $2 AND failed AND id <> $1";
    /// The attempt `$1` failed.
    FAILED = "UPDATE login_attempts SET failed = TRUE WHERE id = $1";
    /// The attempts on the account `$1` until `$2` forgiven (staff unlocked it).
    UNLOCK = "UPDATE login_attempts SET forgiven = TRUE WHERE account = $1 AND at_ms <= $2";
}

/// The worker of one store: where its charges go, and how it is stopped.
pub(super) struct Worker {
    charges: mpsc::Sender<Charge>,
    stop: watch::Sender<bool>,
    task: Mutex<Option<JoinHandle<()>>>,
}

impl Worker {
    /// Starts the worker as a task on the caller's runtime, which also drives its connection
    /// (opened when the worker starts, replaced when lost), as it drives the pool's. It ends
    /// when [`Worker::stop`] is called or the store is dropped; a charge then fails, and the
    /// servers' own limits take over.
    pub(super) fn start(target: PgTarget, schema: Option<String>) -> Self {
        let (charges, queue) = mpsc::channel::<Charge>(8192);
        let (stop, stopped) = watch::channel(false);
        let task = tokio::spawn(worker(target, schema, queue, stopped));
        Self {
            charges,
            stop,
            task: Mutex::new(Some(task)),
        }
    }

    /// Stops the worker (the store closes) and waits until it has ended: a group being
    /// counted is finished, charges still queued fail.
    pub(super) async fn stop(&self) {
        self.stop.send_replace(true);
        let task = self.task.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let Some(task) = task {
            let _ = task.await;
        }
    }
}

/// The worker's connection with its statement prepared.
struct Conn {
    client: Client,
    charge: Statement,
}

async fn worker(target: PgTarget, schema: Option<String>, mut charges: mpsc::Receiver<Charge>, mut stop: watch::Receiver<bool>) {
    // Opened at once, not at the first charge: a server's first requests after a start must
    // not spend their deadline on connecting (they would fall back to this server's count).
    let mut conn: Option<Conn> = match connect(&target, schema.as_deref()).await {
        Ok(c) => Some(c),
        Err(e) => {
            tracing::warn!(error = %e, "shared limits: cannot connect; each server counts alone meanwhile");
            None
        }
    };
    let mut next_purge = Instant::now() + PURGE_EVERY;
    // A stalled database fails every group: said once a minute, not per group.
    let mut warned: Option<Instant> = None;
    loop {
        let first = tokio::select! {
            charge = charges.recv() => match charge {
                Some(charge) => Some(charge),
                None => break,
            },
            () = tokio::time::sleep_until(next_purge) => None,
            // Told to stop, or the store is gone.
            _ = stop.wait_for(|stopped| *stopped) => break,
        };
        if conn.as_ref().is_none_or(|c| c.client.is_closed()) {
            conn = match connect(&target, schema.as_deref()).await {
                Ok(c) => Some(c),
                Err(e) => {
                    tracing::warn!(error = %e, "shared limits: cannot connect; each server counts alone meanwhile");
                    None
                }
            };
        }
        let Some(first) = first else {
            next_purge = Instant::now() + PURGE_EVERY;
            if let Some(c) = &mut conn
                && let Err(e) = purge_on_worker(&mut c.client).await
            {
                tracing::warn!(error = %e, "shared limits: purge failed");
            }
            continue;
        };
        let mut group = vec![first];
        while group.len() < MAX_BATCH {
            match charges.try_recv() {
                Ok(charge) => group.push(charge),
                Err(_) => break,
            }
        }
        // A caller that stopped waiting counted its request on its own server.
        group.retain(|charge| !charge.reply.is_closed());
        if group.is_empty() {
            continue;
        }
        match &conn {
            Some(c) => {
                let size = group.len();
                if let Err(e) = charge_group(c, group).await
                    && warned.is_none_or(|at| at.elapsed() >= PURGE_EVERY)
                {
                    warned = Some(Instant::now());
                    tracing::warn!(error = %e, size, "shared limits: counting a group failed (said once a minute)");
                }
            }
            None => {
                for charge in group {
                    let _ = charge
                        .reply
                        .send(Err(StoreError::Database("no connection for the shared limits".into())));
                }
            }
        }
    }
}

async fn connect(target: &PgTarget, schema: Option<&str>) -> Result<Conn, StoreError> {
    let client = connect_one(target, schema).await?;
    client.batch_execute(&CHARGE_TIMEOUT).await?;
    let charge = client.prepare(CHARGE).await?;
    Ok(Conn { client, charge })
}

/// Counts a group in one statement and answers each charge: the requests of one key are
/// placed in the window in the order they arrived. The database's error when it could not.
async fn charge_group(conn: &Conn, group: Vec<Charge>) -> Result<(), String> {
    let mut by_key: HashMap<&[u8], Vec<usize>> = HashMap::new();
    for (i, charge) in group.iter().enumerate() {
        by_key.entry(charge.key.as_bytes()).or_default().push(i);
    }
    let keys: Vec<&[u8]> = by_key.keys().copied().collect();
    let counts: Vec<i32> = keys.iter().map(|k| by_key[k].len() as i32).collect();
    let rows = conn
        .client
        .query(&conn.charge, &[&keys, &counts, &LIMIT_WINDOW_MS])
        .await
        .map_err(StoreError::from);
    let mut verdicts: Vec<Option<Result<Verdict, StoreError>>> = (0..group.len()).map(|_| None).collect();
    let mut failed = None;
    match rows {
        Ok(rows) => {
            for row in rows {
                let key: &[u8] = row.get(0);
                let hits: i32 = row.get(1);
                let left_ms: i64 = row.get(2);
                let Some(mine) = by_key.get(key) else { continue };
                let before = i64::from(hits) - mine.len() as i64;
                for (place, &i) in mine.iter().enumerate() {
                    let position = before + place as i64 + 1;
                    verdicts[i] = Some(Ok(if position <= i64::from(group[i].limit) {
                        Verdict::Allowed
                    } else {
                        Verdict::Refused {
                            retry_after_ms: left_ms.max(1),
                        }
                    }));
                }
            }
        }
        Err(e) => {
            failed = Some(e.to_string());
            let message = e.to_string();
            for v in &mut verdicts {
                *v = Some(Err(StoreError::Database(message.clone())));
            }
        }
    }
    for (charge, verdict) in group.into_iter().zip(verdicts) {
        let verdict = verdict.unwrap_or_else(|| Err(StoreError::Database("no count for a key".into())));
        let _ = charge.reply.send(verdict);
    }
    failed.map_or(Ok(()), Err)
}

/// Deletes the windows and attempts that have expired; how many.
async fn purge(client: &Client) -> Result<u64, StoreError> {
    let row = client.query_one(PURGE, &[]).await?;
    Ok(row.get::<_, i64>(0).max(0) as u64)
}

/// [`purge`] on the worker's connection, with its own timeouts in place of the charges'.
async fn purge_on_worker(client: &mut Client) -> Result<u64, StoreError> {
    let tx = client.transaction().await?;
    tx.batch_execute(PURGE_SETTINGS).await?;
    let row = tx.query_one(PURGE, &[]).await?;
    tx.commit().await?;
    Ok(row.get::<_, i64>(0).max(0) as u64)
}

/// The advisory lock of a throttle key.
fn lock_of(key: &LimitKey) -> i64 {
    let mut first = [0u8; 8];
    first.copy_from_slice(&key.as_bytes()[..8]);
    i64::from_be_bytes(first) ^ LOCK_SPACE
}

#[async_trait]
impl Limits for PgStore {
    async fn charge(&self, key: LimitKey, limit: u32) -> Result<Verdict, StoreError> {
        let (reply, answer) = oneshot::channel();
        self.limits
            .charges
            .send(Charge { key, limit, reply })
            .await
            .map_err(|_| StoreError::Database("the shared limits' worker has stopped".into()))?;
        answer
            .await
            .map_err(|_| StoreError::Database("the shared limits' worker has stopped".into()))?
    }

    async fn reserve_login(
        &self,
        account: &LimitKey,
        client: Option<&LimitKey>,
        rules: LoginRules,
        now_ms: i64,
    ) -> Result<Reserved, StoreError> {
        let mut locks = vec![lock_of(account)];
        locks.extend(client.map(lock_of));
        let mut conn = self.client().await?;
        let tx = conn.transaction().await?;
        tx.execute(super::LOCK_KEYS, &[&locks]).await?;
        let client = client.map(LimitKey::as_bytes);
        let per_account = i64::from(rules.per_account.max(1)) - 1;
        let per_client = i64::from(rules.per_client.max(1)) - 1;
        let row = tx
            .query_one(
                RESERVE,
                &[&account.as_bytes(), &client, &now_ms, &rules.window_ms, &per_account, &per_client],
            )
            .await?;
        tx.commit().await?;
        let id: Option<i64> = row.get(0);
        let account_full: Option<i64> = row.get(1);
        let client_full: Option<i64> = row.get(2);
        Ok(match id {
            Some(id) => Reserved::Attempt(id),
            None => Reserved::Locked {
                retry_after_ms: account_full.into_iter().chain(client_full).max().unwrap_or(now_ms) + rules.window_ms - now_ms,
                account: account_full.is_some(),
            },
        })
    }

    async fn settle_login(&self, id: i64, account: &LimitKey, succeeded: bool) -> Result<(), StoreError> {
        let client = self.client().await?;
        if succeeded {
            client.execute(SIGNED_IN, &[&id, &account.as_bytes()]).await?;
        } else {
            client.execute(FAILED, &[&id]).await?;
        }
        Ok(())
    }

    async fn unlock_login(&self, account: &LimitKey, at_ms: i64) -> Result<(), StoreError> {
        self.client().await?.execute(UNLOCK, &[&account.as_bytes(), &at_ms]).await?;
        Ok(())
    }

    /// The worker purges every [`PURGE_EVERY`] with the same [`purge`], on its own connection
    /// rather than through this: it holds no store (it is the store's), and a connection of
    /// the pool would wait behind the console's reads. This is for whoever else asks (tests).
    async fn purge_limits(&self) -> Result<u64, StoreError> {
        let client = self.client().await?;
        purge(&client).await
    }
}
