//! PostgreSQL, for several app servers sharing one database. As with SQLite, one writer
//! task per process commits request writes in groups; notifications are leased with
//! FOR UPDATE SKIP LOCKED so servers never deliver the same one twice at once.

use std::sync::{Arc, Mutex};

use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;
use tokio_postgres::{Client, NoTls, Row, Statement, Transaction};

use super::{Channel, DUPLICATE_WINDOW_MS, LeadRecord, MAX_BATCH, OutboxCounts, OutboxItem, StoreError, Submitted, new_lead_id};
use crate::leads::{NewLead, TokenRecord};

const MIGRATIONS: [(i64, &str); 1] = [(1, include_str!("../../migrations/postgres/0001_leads.sql"))];
/// Key of the advisory lock that serialises migrations across servers.
const MIGRATION_LOCK: i64 = 0x5249_4e47;

enum Op {
    Lead {
        lead: Box<NewLead>,
        channels: Vec<Channel>,
        now_ms: i64,
        reply: oneshot::Sender<Result<Submitted, StoreError>>,
    },
    Token {
        record: TokenRecord,
        now_ms: i64,
        reply: oneshot::Sender<Result<(), StoreError>>,
    },
}

pub struct PgStore {
    writer: Mutex<Option<mpsc::Sender<Op>>>,
    task: Mutex<Option<JoinHandle<()>>>,
    /// Reads and outbox updates (the writer has its own connection); replaced when lost.
    reader: tokio::sync::Mutex<Arc<Client>>,
    url: String,
    schema: Option<String>,
}

async fn connect_one(url: &str, schema: Option<&str>) -> Result<Client, StoreError> {
    let (client, connection) = tokio_postgres::connect(url, NoTls).await?;
    tokio::spawn(async move {
        if let Err(e) = connection.await {
            tracing::error!(error = %e, "postgres connection closed");
        }
    });
    // Named so operators (and tests) can tell our sessions apart in pg_stat_activity.
    let name = match schema {
        Some(schema) => format!("site-server:{schema}"),
        None => "site-server".to_string(),
    };
    client.batch_execute(&format!("SET application_name = '{name}'")).await?;
    if let Some(schema) = schema {
        client
            .batch_execute(&format!(
                "CREATE SCHEMA IF NOT EXISTS \"{schema}\"; SET search_path TO \"{schema}\""
            ))
            .await?;
    }
    Ok(client)
}

impl PgStore {
    /// Connects, applies migrations and starts the writer. `schema` isolates tests.
    pub async fn connect(url: &str, schema: Option<&str>) -> Result<Self, StoreError> {
        if let Some(s) = schema
            && !s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            return Err(StoreError::Url(format!("schema name {s:?}")));
        }
        let mut writer_client = connect_one(url, schema).await?;
        migrate(&mut writer_client).await?;
        let client = connect_one(url, schema).await?;
        let (tx, rx) = mpsc::channel::<Op>(8192);
        let task = tokio::spawn(writer_loop(writer_client, url.to_string(), schema.map(str::to_string), rx));
        Ok(Self {
            writer: Mutex::new(Some(tx)),
            task: Mutex::new(Some(task)),
            reader: tokio::sync::Mutex::new(Arc::new(client)),
            url: url.to_string(),
            schema: schema.map(str::to_string),
        })
    }

    /// The reader connection, reconnected first if the database dropped it.
    async fn client(&self) -> Result<Arc<Client>, StoreError> {
        let mut reader = self.reader.lock().await;
        if reader.is_closed() {
            *reader = Arc::new(connect_one(&self.url, self.schema.as_deref()).await?);
        }
        Ok(Arc::clone(&reader))
    }

    async fn send(&self, op: Op) -> Result<(), StoreError> {
        let sender = self
            .writer
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
            .ok_or(StoreError::WriterStopped)?;
        sender.send(op).await.map_err(|_| StoreError::WriterStopped)
    }

    pub async fn submit_lead(&self, lead: NewLead, channels: Vec<Channel>, now_ms: i64) -> Result<Submitted, StoreError> {
        let (reply, answer) = oneshot::channel();
        self.send(Op::Lead {
            lead: Box::new(lead),
            channels,
            now_ms,
            reply,
        })
        .await?;
        answer.await.map_err(|_| StoreError::WriterStopped)?
    }

    pub async fn record_token(&self, record: TokenRecord, now_ms: i64) -> Result<(), StoreError> {
        let (reply, answer) = oneshot::channel();
        self.send(Op::Token { record, now_ms, reply }).await?;
        answer.await.map_err(|_| StoreError::WriterStopped)?
    }

    pub async fn claim_due(&self, now_ms: i64, lease_ms: i64, limit: usize) -> Result<Vec<OutboxItem>, StoreError> {
        let rows = self.client().await?
            .query(
                "UPDATE outbox SET locked_until_ms = $1 WHERE id IN (SELECT id FROM outbox WHERE status = 'pending' AND next_attempt_ms <= $2 \
                 AND locked_until_ms <= $2 ORDER BY next_attempt_ms, id LIMIT $3 FOR UPDATE SKIP LOCKED) RETURNING id, lead_id, channel, attempts",
                &[&(now_ms + lease_ms), &now_ms, &(limit as i64)],
            )
            .await?;
        let mut items = Vec::with_capacity(rows.len());
        for row in rows {
            let lead_id: String = row.get(1);
            let channel: String = row.get(2);
            let Some(channel) = Channel::parse(&channel) else { continue };
            if let Some(lead) = self.lead(&lead_id).await? {
                items.push(OutboxItem {
                    id: row.get(0),
                    channel,
                    attempts: row.get::<_, i64>(3) as u32,
                    lead,
                });
            }
        }
        Ok(items)
    }

    pub async fn finish(
        &self,
        id: i64,
        status: &'static str,
        attempts: u32,
        delivered_ms: Option<i64>,
        next_ms: i64,
        error: Option<String>,
    ) -> Result<(), StoreError> {
        self.client().await?
            .execute(
                "UPDATE outbox SET status = $2, attempts = $3, delivered_ms = $4, next_attempt_ms = CASE WHEN $2 = 'pending' THEN $5 ELSE next_attempt_ms END, \
                 locked_until_ms = 0, last_error = $6 WHERE id = $1",
                &[&id, &status, &i64::from(attempts), &delivered_ms, &next_ms, &error],
            )
            .await?;
        Ok(())
    }

    pub async fn outbox_counts(&self) -> Result<OutboxCounts, StoreError> {
        let mut counts = OutboxCounts::default();
        for row in self
            .client()
            .await?
            .query("SELECT status, COUNT(*) FROM outbox GROUP BY status", &[])
            .await?
        {
            counts.set(row.get::<_, &str>(0), row.get(1));
        }
        Ok(counts)
    }

    pub async fn next_due_ms(&self) -> Result<Option<i64>, StoreError> {
        let row = self
            .client()
            .await?
            .query_one(
                "SELECT MIN(GREATEST(next_attempt_ms, locked_until_ms)) FROM outbox WHERE status = 'pending'",
                &[],
            )
            .await?;
        Ok(row.get(0))
    }

    pub async fn purge_before(&self, cutoff_ms: i64) -> Result<(u64, u64), StoreError> {
        self.client()
            .await?
            .execute(
                "DELETE FROM outbox WHERE lead_id IN (SELECT id FROM leads WHERE received_at_ms < $1)",
                &[&cutoff_ms],
            )
            .await?;
        let leads = self
            .client()
            .await?
            .execute("DELETE FROM leads WHERE received_at_ms < $1", &[&cutoff_ms])
            .await?;
        let certs = self
            .client()
            .await?
            .execute("DELETE FROM certificates WHERE recorded_at_ms < $1", &[&cutoff_ms])
            .await?;
        self.client()
            .await?
            .execute(
                "DELETE FROM consent_texts c WHERE NOT EXISTS (SELECT 1 FROM leads l WHERE l.consent_sha256 = c.sha256)",
                &[],
            )
            .await?;
        Ok((leads, certs))
    }

    pub async fn lead(&self, id: &str) -> Result<Option<LeadRecord>, StoreError> {
        let row = self
            .client()
            .await?
            .query_opt(
                &format!("SELECT {LEAD_COLUMNS} FROM leads l JOIN consent_texts c ON c.sha256 = l.consent_sha256 WHERE l.id = $1"),
                &[&id],
            )
            .await?;
        Ok(row.as_ref().map(lead_from_row))
    }

    pub async fn count_leads(&self) -> Result<i64, StoreError> {
        Ok(self.client().await?.query_one("SELECT COUNT(*) FROM leads", &[]).await?.get(0))
    }

    pub async fn token(&self, token: &str) -> Result<Option<TokenRecord>, StoreError> {
        let row = self
            .client()
            .await?
            .query_opt(
                "SELECT token, ping_url, service_slug, cert_url FROM certificates WHERE token = $1",
                &[&token],
            )
            .await?;
        Ok(row.map(|r| TokenRecord {
            token: r.get(0),
            ping_url: r.get(1),
            service_slug: r.get(2),
            cert_url: r.get(3),
        }))
    }

    pub async fn close(&self) {
        drop(self.writer.lock().unwrap_or_else(|p| p.into_inner()).take());
        let task = self.task.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let Some(task) = task {
            let _ = task.await;
        }
    }
}

/// The writer's connection with its statements prepared once (each saves a round trip per use).
struct Prepared {
    client: Client,
    statements: Statements,
}

struct Statements {
    duplicate: Statement,
    consent: Statement,
    lead: Statement,
    outbox: Statement,
    token: Statement,
}

impl Prepared {
    async fn new(client: Client) -> Result<Self, StoreError> {
        let statements = Statements {
            duplicate: client
                .prepare(
                    "SELECT id FROM leads WHERE phone_e164 = $1 AND service_slug = $2 AND received_at_ms >= $3 ORDER BY received_at_ms LIMIT 1",
                )
                .await?,
            consent: client
                .prepare("INSERT INTO consent_texts (sha256, text, first_seen_ms) VALUES ($1, $2, $3) ON CONFLICT (sha256) DO NOTHING")
                .await?,
            lead: client
                .prepare(
                    "INSERT INTO leads (id, received_at_ms, service_slug, full_name, phone_e164, zip_code, consent, consent_sha256, \
                     cert_url, cert_token, cert_ping_url, ip, user_agent, page_url, referrer, utm_source, utm_medium, utm_campaign, utm_term, utm_content) \
                     VALUES ($1, $2, $3, $4, $5, $6, TRUE, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)",
                )
                .await?,
            outbox: client
                .prepare(
                    "INSERT INTO outbox (lead_id, channel, status, attempts, next_attempt_ms, created_ms) VALUES ($1, $2, 'pending', 0, $3, $3)",
                )
                .await?,
            token: client
                .prepare(
                    "INSERT INTO certificates (token, ping_url, cert_url, service_slug, recorded_at_ms, updated_at_ms) VALUES ($1, $2, $3, $4, $5, $5) \
                     ON CONFLICT (token) DO UPDATE SET ping_url = COALESCE(excluded.ping_url, certificates.ping_url), \
                     cert_url = COALESCE(excluded.cert_url, certificates.cert_url), service_slug = excluded.service_slug, \
                     updated_at_ms = excluded.updated_at_ms",
                )
                .await?,
        };
        Ok(Self { client, statements })
    }
}

async fn writer_loop(client: Client, url: String, schema: Option<String>, mut ops: mpsc::Receiver<Op>) {
    let mut conn = match Prepared::new(client).await {
        Ok(p) => Some(p),
        Err(e) => {
            tracing::error!(error = %e, "cannot prepare the writer's statements");
            None
        }
    };
    while let Some(first) = ops.recv().await {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match ops.try_recv() {
                Ok(op) => batch.push(op),
                Err(_) => break,
            }
        }
        // A lost connection (database restart, failover) is replaced before the next group.
        if conn.as_ref().is_none_or(|c| c.client.is_closed()) {
            conn = match connect_one(&url, schema.as_deref()).await {
                Ok(client) => Prepared::new(client).await.ok(),
                Err(e) => {
                    tracing::error!(error = %e, "cannot reconnect the writer");
                    None
                }
            };
        }
        match conn.as_mut() {
            Some(c) => commit_batch(c, batch).await,
            None => drop(batch), // dropping the replies tells every waiter it failed
        }
    }
}

/// The answer an operation gets once its transaction committed.
enum Outcome {
    Lead(Submitted),
    Token,
}

/// Commits the group in one transaction. If anything in it fails, the group is rolled back
/// and each operation is retried in a transaction of its own, so one bad operation fails
/// alone and nobody is told "yes" for a write that was not committed.
async fn commit_batch(conn: &mut Prepared, batch: Vec<Op>) {
    let Prepared { client, statements } = conn;
    let grouped = async {
        let tx = client.transaction().await?;
        let mut outcomes = Vec::with_capacity(batch.len());
        for op in &batch {
            outcomes.push(apply(&tx, statements, op).await?);
        }
        tx.commit().await?;
        Ok::<_, StoreError>(outcomes)
    }
    .await;
    match grouped {
        Ok(outcomes) => {
            for (op, outcome) in batch.into_iter().zip(outcomes) {
                reply(op, Ok(outcome));
            }
        }
        Err(e) if batch.len() == 1 => {
            tracing::error!(error = %e, "write failed");
            for op in batch {
                reply(op, Err(StoreError::Database("write failed".into())));
            }
        }
        Err(e) => {
            tracing::warn!(error = %e, size = batch.len(), "group commit failed; retrying its writes one by one");
            for op in batch {
                let alone = async {
                    let tx = client.transaction().await?;
                    let outcome = apply(&tx, statements, &op).await?;
                    tx.commit().await?;
                    Ok::<_, StoreError>(outcome)
                }
                .await;
                reply(op, alone);
            }
        }
    }
}

fn reply(op: Op, outcome: Result<Outcome, StoreError>) {
    match op {
        Op::Lead { reply, .. } => {
            let _ = reply.send(outcome.and_then(|o| match o {
                Outcome::Lead(s) => Ok(s),
                Outcome::Token => Err(StoreError::Database("mismatched outcome".into())),
            }));
        }
        Op::Token { reply, .. } => {
            let _ = reply.send(outcome.map(|_| ()));
        }
    }
}

async fn apply(tx: &Transaction<'_>, st: &Statements, op: &Op) -> Result<Outcome, StoreError> {
    match op {
        Op::Lead {
            lead, channels, now_ms, ..
        } => insert_lead(tx, st, lead, channels, *now_ms).await.map(Outcome::Lead),
        Op::Token { record, now_ms, .. } => {
            let r = record;
            tx.execute(&st.token, &[&r.token, &r.ping_url, &r.cert_url, &r.service_slug, now_ms])
                .await?;
            Ok(Outcome::Token)
        }
    }
}

async fn insert_lead(
    tx: &Transaction<'_>,
    st: &Statements,
    lead: &NewLead,
    channels: &[Channel],
    now_ms: i64,
) -> Result<Submitted, StoreError> {
    let earlier = tx
        .query_opt(&st.duplicate, &[&lead.phone, &lead.service_slug, &(now_ms - DUPLICATE_WINDOW_MS)])
        .await?;
    if let Some(row) = earlier {
        return Ok(Submitted {
            id: row.get(0),
            duplicate: true,
        });
    }
    tx.execute(&st.consent, &[&lead.consent_sha256, &lead.consent_text, &now_ms])
        .await?;
    let id = new_lead_id();
    let c = &lead.context;
    let cert = &lead.certificate;
    tx.execute(
        &st.lead,
        &[
            &id,
            &now_ms,
            &lead.service_slug,
            &lead.full_name,
            &lead.phone,
            &lead.zip_code,
            &lead.consent_sha256,
            &cert.cert_url,
            &cert.token,
            &cert.ping_url,
            &c.ip,
            &c.user_agent,
            &c.page_url,
            &c.referrer,
            &c.utm.source,
            &c.utm.medium,
            &c.utm.campaign,
            &c.utm.term,
            &c.utm.content,
        ],
    )
    .await?;
    for channel in channels {
        tx.execute(&st.outbox, &[&id, &channel.as_str(), &now_ms]).await?;
    }
    Ok(Submitted { id, duplicate: false })
}

async fn migrate(client: &mut Client) -> Result<(), StoreError> {
    client.execute("SELECT pg_advisory_lock($1)", &[&MIGRATION_LOCK]).await?;
    let result = apply_migrations(client).await;
    let _ = client.execute("SELECT pg_advisory_unlock($1)", &[&MIGRATION_LOCK]).await;
    result
}

async fn apply_migrations(client: &mut Client) -> Result<(), StoreError> {
    client
        .batch_execute("CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, applied_ms BIGINT NOT NULL)")
        .await?;
    for (version, sql) in MIGRATIONS {
        let done: bool = client
            .query_one("SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE version = $1)", &[&version])
            .await?
            .get(0);
        if done {
            continue;
        }
        let tx = client.transaction().await?;
        tx.batch_execute(sql).await.map_err(|e| StoreError::Migration {
            version: version as u32,
            message: e.to_string(),
        })?;
        tx.execute(
            "INSERT INTO schema_migrations (version, applied_ms) VALUES ($1, $2)",
            &[&version, &super::now_ms()],
        )
        .await?;
        tx.commit().await?;
    }
    Ok(())
}

const LEAD_COLUMNS: &str = "l.id, l.received_at_ms, l.service_slug, l.full_name, l.phone_e164, l.zip_code, l.consent, c.text, l.consent_sha256, \
     l.cert_url, l.cert_token, l.cert_ping_url, l.ip, l.user_agent, l.page_url, l.referrer, l.utm_source, l.utm_medium, l.utm_campaign, l.utm_term, l.utm_content";

fn lead_from_row(r: &Row) -> LeadRecord {
    LeadRecord {
        id: r.get(0),
        received_at_ms: r.get(1),
        service_slug: r.get(2),
        full_name: r.get(3),
        phone: r.get(4),
        zip_code: r.get(5),
        consent: r.get(6),
        consent_text: r.get(7),
        consent_sha256: r.get(8),
        cert_url: r.get(9),
        cert_token: r.get(10),
        cert_ping_url: r.get(11),
        ip: r.get(12),
        user_agent: r.get(13),
        page_url: r.get(14),
        referrer: r.get(15),
        utm_source: r.get(16),
        utm_medium: r.get(17),
        utm_campaign: r.get(18),
        utm_term: r.get(19),
        utm_content: r.get(20),
    }
}
