//! PostgreSQL, for several app servers sharing one database. As with SQLite, one writer per
//! process, on a thread of its own, commits request writes in groups (`postgres_writer`);
//! notifications are leased with FOR UPDATE SKIP LOCKED so servers never deliver the same one
//! twice at once. Duplicate checks take transaction-scoped advisory locks first, so two
//! servers cannot both store the same repeat. TLS follows the URL's `sslmode` (`pg_tls`).

use std::sync::{Arc, Mutex};

use tokio::sync::{mpsc, oneshot};
use tokio_postgres::{Client, Row};

use super::pg_tls::PgTarget;
use super::{Channel, LeadRecord, Mail, NewSubmission, StoreError, Submitted};
use crate::leads::{NewLead, TokenRecord};

const MIGRATIONS: [(i64, &str); 5] = [
    (1, include_str!("../../migrations/postgres/0001_leads.sql")),
    (2, include_str!("../../migrations/postgres/0002_intake.sql")),
    (3, include_str!("../../migrations/postgres/0003_hardening.sql")),
    (4, include_str!("../../migrations/postgres/0004_staff.sql")),
    (5, include_str!("../../migrations/postgres/0005_console_health.sql")),
];
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
     l.cert_url, l.cert_token, l.cert_ping_url, l.ip, l.user_agent, l.page_url, l.referrer, l.utm_source, l.utm_medium, l.utm_campaign, l.utm_term, l.utm_content, l.seen_referer";

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
        seen_referer: r.get(21),
    }
}
