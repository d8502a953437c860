//! PostgreSQL's one writer per process (docs/decisions/002): it takes every write queued
//! (up to `MAX_BATCH`), commits them in one transaction and answers each waiter only after
//! the commit. The leads of a group go in set-based statements, whatever the group's size:
//! one query finds earlier leads for every phone and service, then one multi-row INSERT
//! each for the consent wordings, the leads (with the funnel's counts of them) and their
//! outbox rows, pipelined: BEGIN with the check, then the INSERTs with the COMMIT. A group
//! of leads costs two round trips, whatever its size, instead of four per lead.

use std::collections::{BTreeMap, HashMap};

use async_trait::async_trait;
use sha2::{Digest, Sha256};
use tokio::sync::{mpsc, oneshot};
use tokio_postgres::{Client, Statement};

use super::queue::{Op, Queued};
use super::tls::PgTarget;
use super::{PgStore, connect_one};
use crate::leads::NewLead;
use crate::store::backend::Writer;
use crate::store::lead_fields::LEAD_FIELDS;
use crate::store::sql::{self, statements};
use crate::store::{Channel, DUPLICATE_WINDOW_MS, MAX_BATCH, StoreError, Submitted, new_lead_id, new_lead_source_key};

#[async_trait]
impl Writer for PgStore {
    fn backend(&self) -> &'static str {
        "postgres"
    }

    /// Whether the writer still takes writes: its thread ended (and dropped its queue) if not.
    fn writer_alive(&self) -> bool {
        self.writer
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .as_ref()
            .is_some_and(|s| !s.is_closed())
    }

    async fn ping(&self) -> Result<(), StoreError> {
        let (reply, answer) = oneshot::channel();
        self.queue(Queued::Ping(reply)).await?;
        answer.await.map_err(|_| StoreError::WriterStopped)
    }

    async fn close(&self) {
        drop(self.writer.lock().unwrap_or_else(|p| p.into_inner()).take());
        let stopped = self.stopped.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let Some(stopped) = stopped {
            let _ = stopped.await;
        }
        // The shared limits' worker ends with the store: the server is stopping.
        self.limits.stop().await;
    }
}

statements! {
    /// For each (phone `$1`, service `$2`, since `$3`) of the group, in order: the earliest
    /// lead since then. Only `leads_list_phone` can answer it: the service's test is written
    /// `IS TRUE` so that no index can take it (docs/decisions/033-the-repeat-check-plan.md).
    EARLIER_LEADS = "SELECT (SELECT l.id FROM leads l WHERE l.phone_e164 = k.phone AND (l.service_slug = k.slug) IS TRUE \
         AND l.received_at_ms >= k.since ORDER BY l.received_at_ms LIMIT 1) \
         FROM unnest($1::text[], $2::text[], $3::int8[]) WITH ORDINALITY AS k(phone, slug, since, n) ORDER BY k.n";
    /// The group's consent wordings (hashes `$1`, texts `$2`, first seen `$3`), each once.
    INSERT_CONSENTS = "INSERT INTO consent_texts (sha256, text, first_seen_ms) \
         SELECT * FROM unnest($1::text[], $2::text[], $3::int8[]) ON CONFLICT (sha256) DO NOTHING";
    /// The group's notifications (leads `$1`, channels `$2`, due at `$3`).
    INSERT_NOTIFICATIONS = "INSERT INTO outbox (lead_id, channel, status, attempts, next_attempt_ms, created_ms) \
         SELECT lead, channel, 'pending', 0, at, at FROM unnest($1::text[], $2::text[], $3::int8[]) AS o(lead, channel, at)";
}

/// The group's transaction begins by telling the funnel's insert trigger (migration 0017) to
/// leave its leads: the leads' INSERT counts them itself, in the same statement
/// (docs/decisions/034-the-writer-counts-its-leads.md). `SET LOCAL` ends with the transaction.
const BEGIN_COUNTED: &str = "BEGIN; SET LOCAL site.funnel_counted TO 'on'";

/// The writer's connection with its statements prepared once (each saves a round trip per use).
struct Prepared {
    client: Client,
    statements: Statements,
}

struct Statements {
    /// Takes the advisory lock of each duplicate key, sorted (two servers' groups always take
    /// theirs in the same order: no deadlock), until the transaction ends.
    lock_keys: Statement,
    /// For each (phone, service, since) of the group, in order: the earliest lead since then.
    earlier: Statement,
    consent: Statement,
    /// The leads' INSERT with the funnel's counts of them (the trigger stands aside).
    leads: Statement,
    outbox: Statement,
    token: Statement,
}

impl Prepared {
    async fn new(client: Client) -> Result<Self, StoreError> {
        let statements = Statements {
            lock_keys: client.prepare(super::LOCK_KEYS).await?,
            earlier: client.prepare(EARLIER_LEADS).await?,
            consent: client.prepare(INSERT_CONSENTS).await?,
            leads: client.prepare(sql::built::postgres_insert_and_count_leads()).await?,
            outbox: client.prepare(INSERT_NOTIFICATIONS).await?,
            token: client.prepare(sql::RECORD_TOKEN.pg).await?,
        };
        Ok(Self { client, statements })
    }
}

/// Starts the writer on a thread of its own, with a single-threaded runtime that also drives
/// its connection, and waits until it is connected with its statements prepared. Its round
/// trips never wait behind request tasks for a turn on the server's runtime (under load that
/// wait, six times a group, cost more than the database's own work). The receiver answers
/// once the writer has stopped (its queue closed and the last group committed).
pub(super) async fn start(
    target: PgTarget,
    schema: Option<&str>,
    ops: mpsc::Receiver<Queued>,
) -> Result<oneshot::Receiver<()>, StoreError> {
    let (ready_tx, ready) = oneshot::channel::<Result<(), StoreError>>();
    let (done_tx, done) = oneshot::channel::<()>();
    let schema = schema.map(str::to_string);
    std::thread::Builder::new()
        .name("postgres-writer".into())
        .spawn(move || {
            let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
                Ok(rt) => rt,
                Err(e) => {
                    let _ = ready_tx.send(Err(StoreError::Database(format!("writer runtime: {e}"))));
                    return;
                }
            };
            runtime.block_on(async move {
                let prepared = match connect_one(&target, schema.as_deref()).await {
                    Ok(client) => Prepared::new(client).await,
                    Err(e) => Err(e),
                };
                match prepared {
                    Ok(conn) => {
                        let _ = ready_tx.send(Ok(()));
                        writer_loop(Some(conn), target, schema, ops).await;
                    }
                    Err(e) => {
                        let _ = ready_tx.send(Err(e));
                    }
                }
            });
            drop(runtime);
            drop(done_tx);
        })
        .map_err(|e| StoreError::Database(format!("writer thread: {e}")))?;
    ready.await.map_err(|_| StoreError::WriterStopped)??;
    Ok(done)
}

async fn writer_loop(mut conn: Option<Prepared>, target: PgTarget, schema: Option<String>, mut ops: mpsc::Receiver<Queued>) {
    while let Some(first) = ops.recv().await {
        let mut batch = Vec::new();
        let mut pings = Vec::new();
        let mut next = Some(first);
        while let Some(op) = next {
            match op {
                Queued::Write(op) => batch.push(op),
                Queued::Ping(reply) => pings.push(reply),
            }
            next = if batch.len() < MAX_BATCH { ops.try_recv().ok() } else { None };
        }
        // A ping proves the loop turns, not that the database answers: a database that is
        // down makes writes fail (and /healthz stays up), it is no reason to restart.
        if batch.is_empty() {
            for ping in pings {
                let _ = ping.send(());
            }
            continue;
        }
        // A lost connection (database restart, failover) is replaced before the next group.
        if conn.as_ref().is_none_or(|c| c.client.is_closed()) {
            conn = match connect_one(&target, schema.as_deref()).await {
                Ok(client) => Prepared::new(client).await.ok(),
                Err(e) => {
                    tracing::error!(error = %e, "cannot reconnect the writer");
                    None
                }
            };
        }
        match conn.as_ref() {
            Some(c) => commit_batch(c, batch).await,
            None => drop(batch), // dropping the replies tells every waiter it failed
        }
        for ping in pings {
            let _ = ping.send(());
        }
    }
}

/// The answer an operation gets once its transaction committed.
enum Outcome {
    Lead(Submitted),
    Token,
    Form(Submitted),
}

/// Commits the group in one transaction. If anything in it fails, the group is rolled back
/// and each operation is retried in a transaction of its own, so one bad operation fails
/// alone and nobody is told "yes" for a write that was not committed.
async fn commit_batch(conn: &Prepared, batch: Vec<Op>) {
    let failed = match commit_group(conn, &batch).await {
        Ok(outcomes) => {
            for (op, outcome) in batch.into_iter().zip(outcomes) {
                reply(op, Ok(outcome));
            }
            return;
        }
        Err(e) => e,
    };
    if batch.len() == 1 && !matches!(failed, StoreError::Contention(_)) {
        tracing::error!(error = %failed, "write failed");
        for op in batch {
            reply(op, Err(StoreError::Database("write failed".into())));
        }
        return;
    }
    tracing::warn!(error = %failed, size = batch.len(), "group commit failed; retrying its writes one by one");
    for op in batch {
        let outcome = commit_alone(conn, &op).await;
        reply(op, outcome);
    }
}

/// `op` in a transaction of its own: its outcome once it committed, tried again while the
/// database aborts it for a deadlock with another transaction (an erasure or a listing
/// changing the funnel's daily rows in another order; `retried_on_contention`).
async fn commit_alone(conn: &Prepared, op: &Op) -> Result<Outcome, StoreError> {
    let alone = super::retried_on_contention("write", || commit_group(conn, std::slice::from_ref(op))).await;
    alone
        .and_then(|mut outcomes| outcomes.pop().ok_or_else(|| StoreError::Database("no outcome".into())))
        .inspect_err(|e| tracing::error!(error = %e, "write failed"))
}

/// One transaction for `ops`: their outcomes, in order, once it committed. Whatever fails,
/// nothing of the group stays: a COMMIT that follows a failed statement rolls back, and the
/// ROLLBACK here ends whatever is left open.
async fn commit_group(conn: &Prepared, ops: &[Op]) -> Result<Vec<Outcome>, StoreError> {
    let Prepared { client, statements } = conn;
    let started = std::time::Instant::now();
    let result = run_group(client, statements, ops).await;
    if result.is_err() {
        let _ = client.batch_execute("ROLLBACK").await;
    }
    tracing::debug!(
        size = ops.len(),
        us = started.elapsed().as_micros() as u64,
        ok = result.is_ok(),
        "postgres group"
    );
    result
}

/// The group in two round trips when it holds only leads: BEGIN with the duplicate keys'
/// advisory locks and the duplicate check,
/// then every INSERT with the COMMIT, each pair of messages pipelined (sent together, in
/// order, and answered in order). Tokens and other submissions are rare and go one statement
/// at a time between the two.
async fn run_group(client: &Client, st: &Statements, ops: &[Op]) -> Result<Vec<Outcome>, StoreError> {
    let leads: Vec<LeadWrite<'_>> = ops
        .iter()
        .filter_map(|op| match op {
            Op::Lead {
                lead, channels, now_ms, ..
            } => Some(LeadWrite {
                lead,
                channels,
                now_ms: *now_ms,
            }),
            _ => None,
        })
        .collect();
    let phones: Vec<&str> = leads.iter().map(|w| w.lead.phone.as_str()).collect();
    let slugs: Vec<&str> = leads.iter().map(|w| w.lead.service_slug.as_str()).collect();
    let since: Vec<i64> = leads.iter().map(|w| w.now_ms - DUPLICATE_WINDOW_MS).collect();
    let keys: [&(dyn tokio_postgres::types::ToSql + Sync); 3] = [&phones, &slugs, &since];
    // Another server's repeat of a lead here waits on its lock, then its duplicate check
    // sees this one committed.
    let locks: Vec<i64> = ops
        .iter()
        .filter_map(|op| match op {
            Op::Lead { lead, .. } => Some(duplicate_key(&lead.phone, &lead.service_slug)),
            Op::Form { dedupe_key, .. } => Some(duplicate_key("form", dedupe_key)),
            Op::Token { .. } => None,
        })
        .collect();
    let lock_params: [&(dyn tokio_postgres::types::ToSql + Sync); 1] = [&locks];
    let ((), _, earlier) = tokio::try_join!(
        biased;
        client.batch_execute(BEGIN_COUNTED),
        client.query(&st.lock_keys, &lock_params),
        client.query(&st.earlier, &keys),
    )?;
    let earlier: Vec<Option<String>> = earlier.iter().map(|row| row.get(0)).collect();
    let (lead_outcomes, rows) = sort_leads(&leads, &earlier)?;

    let mut lead_outcomes = lead_outcomes.into_iter();
    let mut outcomes = Vec::with_capacity(ops.len());
    for op in ops {
        outcomes.push(match op {
            Op::Lead { .. } => Outcome::Lead(
                lead_outcomes
                    .next()
                    .ok_or_else(|| StoreError::Database("lead outcome missing".into()))?,
            ),
            Op::Token { record: r, now_ms, .. } => {
                client
                    .execute(&st.token, &[&r.token, &r.ping_url, &r.cert_url, &r.service_slug, now_ms])
                    .await?;
                Outcome::Token
            }
            Op::Form {
                submission,
                dedupe_key,
                mail,
                now_ms,
                ..
            } => Outcome::Form(super::submissions::insert_submission(client, submission, dedupe_key, mail.as_ref(), *now_ms).await?),
        });
    }

    // Async blocks send nothing until polled; `biased` polls them in this order.
    let c = &rows;
    let any = !c.ids.is_empty();
    let consent = async {
        if any {
            client.execute(&st.consent, &[&c.shas, &c.texts, &c.seen]).await?;
        }
        Ok::<_, tokio_postgres::Error>(())
    };
    let leads = async {
        if any {
            let mut columns: Vec<&(dyn tokio_postgres::types::ToSql + Sync)> = vec![&c.ids, &c.at];
            columns.extend(c.fields.iter().map(|f| f as &(dyn tokio_postgres::types::ToSql + Sync)));
            let f = &c.counted;
            let counts: [&(dyn tokio_postgres::types::ToSql + Sync); 4] = [&f.at, &f.kinds, &f.keys, &f.leads];
            columns.extend(counts);
            client.execute(&st.leads, &columns).await?;
        }
        Ok(())
    };
    let outbox = async {
        if !c.outbox_leads.is_empty() {
            client
                .execute(&st.outbox, &[&c.outbox_leads, &c.outbox_channels, &c.outbox_due])
                .await?;
        }
        Ok(())
    };
    tokio::try_join!(biased; consent, leads, outbox, client.batch_execute("COMMIT"))?;
    Ok(outcomes)
}

fn reply(op: Op, outcome: Result<Outcome, StoreError>) {
    match op {
        Op::Lead { reply, .. } | Op::Form { reply, .. } => {
            let _ = reply.send(outcome.and_then(|o| match o {
                Outcome::Lead(s) | Outcome::Form(s) => Ok(s),
                Outcome::Token => Err(StoreError::Database("mismatched outcome".into())),
            }));
        }
        Op::Token { reply, .. } => {
            let _ = reply.send(outcome.map(|_| ()));
        }
    }
}

/// The advisory lock key of a phone and service (or of a form's dedupe key): 64 bits of a
/// SHA-256 (a collision only makes two unrelated writes wait for each other).
pub fn duplicate_key(phone: &str, slug: &str) -> i64 {
    let digest = Sha256::digest(format!("lead-duplicate|{phone}|{slug}").as_bytes());
    let mut bytes = [0u8; 8];
    bytes.copy_from_slice(&digest[..8]);
    i64::from_be_bytes(bytes)
}

/// A lead of the group with what its write needs.
struct LeadWrite<'a> {
    lead: &'a NewLead,
    channels: &'a [Channel],
    now_ms: i64,
}

/// The group's leads in arrival order: a phone that asked about the same service within the
/// window (earlier in the database, or earlier in this group) gets the first lead's id back
/// and nothing is written for it; the others get new ids and go into the rows to insert.
fn sort_leads<'a>(leads: &'a [LeadWrite<'a>], earlier: &[Option<String>]) -> Result<(Vec<Submitted>, LeadRows<'a>), StoreError> {
    if earlier.len() != leads.len() {
        return Err(StoreError::Database("duplicate check answered a different count".into()));
    }
    let mut outcomes = Vec::with_capacity(leads.len());
    let mut new: Vec<(&LeadWrite<'_>, String)> = Vec::with_capacity(leads.len());
    let mut in_group: HashMap<(&str, &str), String> = HashMap::new();
    for (w, found) in leads.iter().zip(earlier) {
        let key = (w.lead.phone.as_str(), w.lead.service_slug.as_str());
        if let Some(id) = found.clone().or_else(|| in_group.get(&key).cloned()) {
            outcomes.push(Submitted { id, duplicate: true });
            continue;
        }
        let id = new_lead_id();
        in_group.insert(key, id.clone());
        new.push((w, id.clone()));
        outcomes.push(Submitted { id, duplicate: false });
    }
    Ok((outcomes, LeadRows::new(&new)))
}

/// The new leads of a group as columns, for the multi-row INSERTs (`unnest` of arrays).
struct LeadRows<'a> {
    shas: Vec<&'a str>,
    texts: Vec<&'a str>,
    seen: Vec<i64>,
    ids: Vec<String>,
    at: Vec<i64>,
    /// Each field's values (`LEAD_FIELDS`' order), one per new lead.
    fields: Vec<Vec<Option<&'a str>>>,
    outbox_leads: Vec<String>,
    outbox_channels: Vec<&'static str>,
    outbox_due: Vec<i64>,
    counted: FunnelCounts,
}

/// The funnel's counts of a group's new leads, as columns: how many arrived at each instant
/// for each service and each source. The leads' INSERT adds them to `lead_days`
/// (`postgres_insert_and_count_leads`, docs/decisions/034-the-writer-counts-its-leads.md).
#[derive(Default)]
struct FunnelCounts {
    at: Vec<i64>,
    kinds: Vec<&'static str>,
    keys: Vec<String>,
    leads: Vec<i64>,
}

impl FunnelCounts {
    fn new(new: &[(&LeadWrite<'_>, String)]) -> Self {
        let mut counts: BTreeMap<(i64, &'static str, String), i64> = BTreeMap::new();
        for (w, _) in new {
            let context = &w.lead.context;
            let source = new_lead_source_key(
                context.utm.source.as_deref(),
                context.referrer.as_deref(),
                context.page_url.as_deref(),
            );
            *counts.entry((w.now_ms, "service", w.lead.service_slug.clone())).or_default() += 1;
            *counts.entry((w.now_ms, "source", source)).or_default() += 1;
        }
        let mut columns = Self::default();
        for ((at, kind, key), leads) in counts {
            columns.at.push(at);
            columns.kinds.push(kind);
            columns.keys.push(key);
            columns.leads.push(leads);
        }
        columns
    }
}

impl<'a> LeadRows<'a> {
    fn new(new: &[(&LeadWrite<'a>, String)]) -> Self {
        // Each wording once (they are few); ON CONFLICT keeps the first time it was seen.
        let mut wordings: Vec<(&'a str, &'a str, i64)> = Vec::new();
        for (w, _) in new {
            if !wordings.iter().any(|(sha, _, _)| *sha == w.lead.consent_sha256) {
                wordings.push((&w.lead.consent_sha256, &w.lead.consent_text, w.now_ms));
            }
        }
        // In one order on every server: two groups storing the same new wordings wait for
        // each other's in turn, never in a circle (docs/decisions/002-group-commit.md,
        // "Two servers' groups never wait on each other in a circle").
        wordings.sort_unstable_by_key(|w| w.0);
        let mut rows = Self {
            shas: wordings.iter().map(|w| w.0).collect(),
            texts: wordings.iter().map(|w| w.1).collect(),
            seen: wordings.iter().map(|w| w.2).collect(),
            ids: new.iter().map(|(_, id)| id.clone()).collect(),
            at: new.iter().map(|(w, _)| w.now_ms).collect(),
            fields: LEAD_FIELDS
                .iter()
                .map(|f| new.iter().map(|(w, _)| (f.new)(w.lead)).collect())
                .collect(),
            outbox_leads: Vec::new(),
            outbox_channels: Vec::new(),
            outbox_due: Vec::new(),
            counted: FunnelCounts::new(new),
        };
        for (w, id) in new {
            for channel in w.channels {
                rows.outbox_leads.push(id.clone());
                rows.outbox_channels.push(channel.as_str());
                rows.outbox_due.push(w.now_ms);
            }
        }
        rows
    }
}
