//! PostgreSQL, for several app servers sharing one database. As with SQLite, one writer per
//! process, on a thread of its own, commits request writes in groups (`postgres_writer`);
//! notifications are leased with FOR UPDATE SKIP LOCKED so servers never deliver the same one
//! twice at once. Duplicate checks take transaction-scoped advisory locks first, so two
//! servers cannot both store the same repeat. TLS follows the URL's `sslmode` (`pg_tls`).

use std::sync::{Arc, Mutex};

use tokio::sync::{mpsc, oneshot};
use tokio_postgres::{Client, Row};

use super::migrations::{self, Applied};
use super::pg_tls::PgTarget;
use super::{Channel, LeadRecord, Mail, NewSubmission, StoreError, Submitted};
use crate::leads::{NewLead, TokenRecord};

/// Key of the advisory lock that serialises migrations across servers.
const MIGRATION_LOCK: i64 = 0x5249_4e47;

pub(super) enum Op {
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
    Form {
        submission: Box<NewSubmission>,
        mail: Option<Mail>,
        now_ms: i64,
        reply: oneshot::Sender<Result<Submitted, StoreError>>,
    },
}

pub struct PgStore {
    writer: Mutex<Option<mpsc::Sender<Op>>>,
    /// Answers once the writer thread has finished its last group.
    stopped: Mutex<Option<oneshot::Receiver<()>>>,
    /// Reads and outbox updates (the writer has its own connection); replaced when lost.
    reader: tokio::sync::Mutex<Arc<Client>>,
    target: PgTarget,
    schema: Option<String>,
}

pub(super) async fn connect_one(target: &PgTarget, schema: Option<&str>) -> Result<Client, StoreError> {
    let (client, connection) = target.connect().await?;
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
        let target = PgTarget::parse(url)?;
        let mut client = connect_one(&target, schema).await?;
        migrate(&mut client).await?;
        let (tx, rx) = mpsc::channel::<Op>(8192);
        let stopped = super::postgres_writer::start(target.clone(), schema, rx).await?;
        Ok(Self {
            writer: Mutex::new(Some(tx)),
            stopped: Mutex::new(Some(stopped)),
            reader: tokio::sync::Mutex::new(Arc::new(client)),
            target,
            schema: schema.map(str::to_string),
        })
    }

    /// The reader connection, reconnected first if the database dropped it.
    pub(super) async fn client(&self) -> Result<Arc<Client>, StoreError> {
        let mut reader = self.reader.lock().await;
        if reader.is_closed() {
            *reader = Arc::new(connect_one(&self.target, self.schema.as_deref()).await?);
        }
        Ok(Arc::clone(&reader))
    }

    pub(super) async fn send(&self, op: Op) -> Result<(), StoreError> {
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

    /// Whether the writer still takes writes: its thread ended (and dropped its queue) if not.
    pub fn writer_alive(&self) -> bool {
        self.writer
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .as_ref()
            .is_some_and(|s| !s.is_closed())
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
        // Their e-mails go with them (ON DELETE CASCADE).
        self.client()
            .await?
            .execute("DELETE FROM submissions WHERE received_at_ms < $1", &[&cutoff_ms])
            .await?;
        // An audit line is written after the record it names was received, so the same
        // cutoff never drops it before that record.
        self.client()
            .await?
            .execute("DELETE FROM staff_audit WHERE at_ms < $1", &[&cutoff_ms])
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
        let stopped = self.stopped.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let Some(stopped) = stopped {
            let _ = stopped.await;
        }
    }
}

async fn migrate(client: &mut Client) -> Result<(), StoreError> {
    client.execute("SELECT pg_advisory_lock($1)", &[&MIGRATION_LOCK]).await?;
    let result = apply_migrations(client).await;
    let _ = client.execute("SELECT pg_advisory_unlock($1)", &[&MIGRATION_LOCK]).await;
    result
}

/// Connects to the database `url` names (in `schema`, when given) and applies the missing
/// migrations, without starting a writer: for `site copy-store`.
pub async fn connect_migrated(url: &str, schema: Option<&str>) -> Result<Client, StoreError> {
    let target = PgTarget::parse(url)?;
    let mut client = connect_one(&target, schema).await?;
    migrate(&mut client).await?;
    Ok(client)
}

/// The rows of `schema_migrations` in the current schema (none before the first start).
async fn applied_migrations(client: &Client) -> Result<Vec<Applied>, StoreError> {
    let columns: Vec<String> = client
        .query(
            "SELECT column_name::text FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'schema_migrations'",
            &[],
        )
        .await?
        .iter()
        .map(|r| r.get(0))
        .collect();
    if columns.is_empty() {
        return Ok(Vec::new());
    }
    let column = |name: &str| {
        if columns.iter().any(|c| c == name) {
            name.to_string()
        } else {
            "NULL::text".to_string()
        }
    };
    let rows = client
        .query(
            &format!(
                "SELECT version, {}, {}, {} FROM schema_migrations ORDER BY version",
                column("name"),
                column("checksum"),
                column("applied_by")
            ),
            &[],
        )
        .await?;
    Ok(rows
        .iter()
        .map(|r| Applied {
            version: r.get(0),
            name: r.get(1),
            checksum: r.get(2),
            applied_by: r.get(3),
        })
        .collect())
}

/// Under the advisory lock: refuses a database this binary must not touch before writing
/// anything, then applies each missing migration in its own transaction.
async fn apply_migrations(client: &mut Client) -> Result<(), StoreError> {
    let applied = applied_migrations(client).await?;
    let pending = migrations::pending(migrations::POSTGRES, &applied)?;
    client.batch_execute(migrations::POSTGRES_TABLE).await?;
    for column in migrations::ADDED_COLUMNS {
        client
            .batch_execute(&format!("ALTER TABLE schema_migrations ADD COLUMN IF NOT EXISTS {column} TEXT"))
            .await?;
    }
    if applied.iter().any(|a| a.checksum.is_none()) {
        // Rows from before checksums were kept: record what this binary has.
        for m in migrations::POSTGRES {
            client
                .execute(
                    "UPDATE schema_migrations SET name = $2, checksum = $3 WHERE version = $1 AND checksum IS NULL",
                    &[&i64::from(m.version), &m.name, &m.checksum()],
                )
                .await?;
        }
    }
    for m in pending {
        let tx = client.transaction().await?;
        tx.batch_execute(m.sql).await.map_err(|e| StoreError::Migration {
            version: m.version,
            message: StoreError::from(e).to_string(),
        })?;
        tx.execute(
            "INSERT INTO schema_migrations (version, applied_ms, name, checksum, applied_by) VALUES ($1, $2, $3, $4, $5)",
            &[
                &i64::from(m.version),
                &super::now_ms(),
                &m.name,
                &m.checksum(),
                &migrations::applied_by(),
            ],
        )
        .await?;
        tx.commit().await?;
        tracing::info!(version = m.version, name = m.name, "migration applied");
    }
    Ok(())
}

/// How many columns `LEAD_COLUMNS` selects.
pub(super) const LEAD_COLUMN_COUNT: usize = 22;
pub(super) const LEAD_COLUMNS: &str = "l.id, l.received_at_ms, l.service_slug, l.full_name, l.phone_e164, l.zip_code, l.consent, c.text, l.consent_sha256, \
     l.cert_url, l.cert_token, l.cert_ping_url, l.ip, l.user_agent, l.page_url, l.referrer, l.utm_source, l.utm_medium, l.utm_campaign, l.utm_term, l.utm_content, l.seen_referer";

pub(super) fn lead_from_row(r: &Row) -> LeadRecord {
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
        seen_referer: r.get(21),
    }
}
