//! PostgreSQL: staff accounts, sessions and the audit log. Each write is one statement
//! (several tables at once through data-modifying WITH clauses), so it commits whole.

use async_trait::async_trait;
use tokio_postgres::Row;

use super::PgStore;
use crate::store::StoreError;
use crate::store::backend::Staff;
use crate::store::sql::{self, AUDIT_INSERT_INTO, statements};
use crate::store::staff::{AuditEntry, NewAudit, NewSession, SessionRecord, StaffAccount, StaffLogin, UNLOCK_ACTION};

statements! {
    /// A staff member (`$1` e-mail, `$2` password hash), active, added at `$3`, unless the
    /// address has one: its id.
    ADD_STAFF = "INSERT INTO staff (email, password_hash, active, created_ms) VALUES ($1, $2, TRUE, $3) ON CONFLICT (email) DO NOTHING RETURNING id";
    /// The staff member of the e-mail `$1` disabled (at `$2`, unless earlier) and their
    /// sessions ended.
    DISABLE_STAFF = "WITH a AS (UPDATE staff SET active = FALSE, disabled_ms = COALESCE(disabled_ms, $2) WHERE email = $1 RETURNING id), \
         s AS (DELETE FROM staff_sessions WHERE staff_id IN (SELECT id FROM a)) SELECT COUNT(*) FROM a";
    /// A session (`$1` its id's hash) of staff member `$2`, begun at `$3`, from `$4` with
    /// `$5`, and its audit line (staff `$6`, action `$7`, target `$8`, address `$9`, detail `$10`).
    CREATE_SESSION = built format!(
        "WITH s AS (INSERT INTO staff_sessions (id_hash, staff_id, created_ms, last_seen_ms, ip, user_agent) \
         VALUES ($1, $2, $3, $3, $4, $5)) {AUDIT_INSERT_INTO} VALUES ($3, $6, $7, $8, $9, $10)"
    );
    /// The session `$1` of an active staff member.
    SESSION = "SELECT s.staff_id, a.email, s.created_ms, s.last_seen_ms FROM staff_sessions s JOIN staff a ON a.id = s.staff_id \
         WHERE s.id_hash = $1 AND a.active";
    /// The session `$1` seen at `$2`.
    TOUCH_SESSION = "UPDATE staff_sessions SET last_seen_ms = GREATEST(last_seen_ms, $2) WHERE id_hash = $1";
    /// The session `$1` ended, with its audit line at `$2` (staff `$3`, action `$4`, target
    /// `$5`, address `$6`, detail `$7`).
    END_SESSION_AUDITED = built format!(
        "WITH s AS (DELETE FROM staff_sessions WHERE id_hash = $1) {AUDIT_INSERT_INTO} VALUES ($2, $3, $4, $5, $6, $7)"
    );
}

#[async_trait]
impl Staff for PgStore {
    async fn add_staff(&self, email: &str, password_hash: &str, now_ms: i64) -> Result<Option<i64>, StoreError> {
        let row = self
            .client()
            .await?
            .query_opt(ADD_STAFF, &[&email.to_lowercase(), &password_hash, &now_ms])
            .await?;
        Ok(row.map(|r| r.get(0)))
    }

    async fn disable_staff(&self, email: &str, now_ms: i64) -> Result<bool, StoreError> {
        let row = self
            .client()
            .await?
            .query_one(DISABLE_STAFF, &[&email.to_lowercase(), &now_ms])
            .await?;
        Ok(row.get::<_, i64>(0) > 0)
    }

    async fn list_staff(&self) -> Result<Vec<StaffAccount>, StoreError> {
        let rows = self.client().await?.query(sql::LIST_STAFF.pg, &[]).await?;
        Ok(rows
            .iter()
            .map(|r| StaffAccount {
                id: r.get(0),
                email: r.get(1),
                active: r.get(2),
                created_ms: r.get(3),
                disabled_ms: r.get(4),
            })
            .collect())
    }

    async fn staff_login(&self, email: &str) -> Result<Option<StaffLogin>, StoreError> {
        let row = self
            .client()
            .await?
            .query_opt(sql::STAFF_LOGIN.pg, &[&email.to_lowercase()])
            .await?;
        Ok(row.map(|r| StaffLogin {
            id: r.get(0),
            email: r.get(1),
            password_hash: r.get(2),
            active: r.get(3),
        }))
    }

    async fn create_session(&self, session: NewSession, audit: NewAudit, now_ms: i64) -> Result<(), StoreError> {
        self.client()
            .await?
            .execute(
                CREATE_SESSION.as_str(),
                &[
                    &session.id_hash,
                    &session.staff_id,
                    &now_ms,
                    &session.ip,
                    &session.user_agent,
                    &audit.staff_id,
                    &audit.action,
                    &audit.target,
                    &audit.ip,
                    &audit.detail,
                ],
            )
            .await?;
        Ok(())
    }

    async fn session(&self, id_hash: &str) -> Result<Option<SessionRecord>, StoreError> {
        let row = self.client().await?.query_opt(SESSION, &[&id_hash]).await?;
        Ok(row.map(|r| SessionRecord {
            staff_id: r.get(0),
            email: r.get(1),
            created_ms: r.get(2),
            last_seen_ms: r.get(3),
        }))
    }

    async fn touch_session(&self, id_hash: &str, now_ms: i64) -> Result<(), StoreError> {
        self.client().await?.execute(TOUCH_SESSION, &[&id_hash, &now_ms]).await?;
        Ok(())
    }

    async fn end_session(&self, id_hash: &str, audit: Option<NewAudit>, now_ms: i64) -> Result<(), StoreError> {
        let client = self.client().await?;
        match audit {
            Some(a) => {
                client
                    .execute(
                        END_SESSION_AUDITED.as_str(),
                        &[&id_hash, &now_ms, &a.staff_id, &a.action, &a.target, &a.ip, &a.detail],
                    )
                    .await?
            }
            None => client.execute(sql::END_SESSION.pg, &[&id_hash]).await?,
        };
        Ok(())
    }

    async fn audit(&self, a: NewAudit, now_ms: i64) -> Result<(), StoreError> {
        self.client()
            .await?
            .execute(
                sql::INSERT_AUDIT.pg,
                &[&now_ms, &a.staff_id, &a.action, &a.target, &a.ip, &a.detail],
            )
            .await?;
        Ok(())
    }

    async fn staff_unlocked_since(&self, staff_id: i64, since_ms: i64) -> Result<Option<i64>, StoreError> {
        let row = self
            .client()
            .await?
            .query_one(
                sql::STAFF_UNLOCKED_SINCE.pg,
                &[&since_ms, &UNLOCK_ACTION, &format!("staff:{staff_id}")],
            )
            .await?;
        Ok(row.get(0))
    }

    async fn audit_log(&self, before: Option<i64>, limit: usize) -> Result<Vec<AuditEntry>, StoreError> {
        let rows = self
            .client()
            .await?
            .query(sql::AUDIT_LOG.pg, &[&before.unwrap_or(i64::MAX), &(limit as i64)])
            .await?;
        Ok(rows.iter().map(audit_from_row).collect())
    }
}

fn audit_from_row(r: &Row) -> AuditEntry {
    AuditEntry {
        id: r.get(0),
        at_ms: r.get(1),
        staff_email: r.get(2),
        action: r.get(3),
        target: r.get(4),
        ip: r.get(5),
        detail: r.get(6),
    }
}
