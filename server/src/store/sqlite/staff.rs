//! SQLite: staff accounts, sessions and the audit log.

use async_trait::async_trait;
use rusqlite::{Connection, OptionalExtension, params};

use super::SqliteStore;
use crate::store::StoreError;
use crate::store::backend::Staff;
use crate::store::sql::{self, statements};
use crate::store::staff::{AuditEntry, NewAudit, NewSession, SessionRecord, StaffAccount, StaffLogin, UNLOCK_ACTION};

statements! {
    /// A staff member (`?1` e-mail, `?2` password hash), active, added at `?3`, unless the
    /// address has one.
    ADD_STAFF = "INSERT INTO staff (email, password_hash, active, created_ms) VALUES (?1, ?2, 1, ?3) ON CONFLICT (email) DO NOTHING";
    STAFF_ID = "SELECT id FROM staff WHERE email = ?1";
    /// Staff member `?1` disabled (at `?2`, unless earlier).
    DISABLE_STAFF = "UPDATE staff SET active = 0, disabled_ms = COALESCE(disabled_ms, ?2) WHERE id = ?1";
    END_SESSIONS_OF = "DELETE FROM staff_sessions WHERE staff_id = ?1";
    /// A session (`?1` its id's hash) of staff member `?2`, begun at `?3`, from `?4` with `?5`.
    CREATE_SESSION = "INSERT INTO staff_sessions (id_hash, staff_id, created_ms, last_seen_ms, ip, user_agent) VALUES (?1, ?2, ?3, ?3, ?4, ?5)";
    /// The session `?1` of an active staff member.
    SESSION = "SELECT s.staff_id, a.email, s.created_ms, s.last_seen_ms FROM staff_sessions s JOIN staff a ON a.id = s.staff_id \
         WHERE s.id_hash = ?1 AND a.active = 1";
    /// The session `?1` seen at `?2`.
    TOUCH_SESSION = "UPDATE staff_sessions SET last_seen_ms = MAX(last_seen_ms, ?2) WHERE id_hash = ?1";
}

pub(super) fn insert_audit(conn: &Connection, entry: &NewAudit, now_ms: i64) -> rusqlite::Result<()> {
    conn.prepare_cached(sql::INSERT_AUDIT.sqlite)?.execute(params![
        now_ms,
        entry.staff_id,
        entry.action,
        entry.target,
        entry.ip,
        entry.detail
    ])?;
    Ok(())
}

#[async_trait]
impl Staff for SqliteStore {
    async fn add_staff(&self, email: &str, password_hash: &str, now_ms: i64) -> Result<Option<i64>, StoreError> {
        let (email, hash) = (email.to_lowercase(), password_hash.to_string());
        self.write(move |conn| {
            let inserted = conn.prepare_cached(ADD_STAFF)?.execute(params![email, hash, now_ms])?;
            Ok((inserted == 1).then(|| conn.last_insert_rowid()))
        })
        .await
    }

    async fn disable_staff(&self, email: &str, now_ms: i64) -> Result<bool, StoreError> {
        let email = email.to_lowercase();
        self.write(move |conn| {
            let id: Option<i64> = conn.query_row(STAFF_ID, params![email], |r| r.get(0)).optional()?;
            let Some(id) = id else { return Ok(false) };
            conn.execute(DISABLE_STAFF, params![id, now_ms])?;
            conn.execute(END_SESSIONS_OF, params![id])?;
            Ok(true)
        })
        .await
    }

    async fn list_staff(&self) -> Result<Vec<StaffAccount>, StoreError> {
        self.read(|conn| {
            let mut stmt = conn.prepare_cached(sql::LIST_STAFF.sqlite)?;
            let rows = stmt.query_map([], |r| {
                Ok(StaffAccount {
                    id: r.get(0)?,
                    email: r.get(1)?,
                    active: r.get(2)?,
                    created_ms: r.get(3)?,
                    disabled_ms: r.get(4)?,
                })
            })?;
            rows.collect()
        })
        .await
    }

    async fn staff_login(&self, email: &str) -> Result<Option<StaffLogin>, StoreError> {
        let email = email.to_lowercase();
        self.read(move |conn| {
            conn.prepare_cached(sql::STAFF_LOGIN.sqlite)?
                .query_row(params![email], |r| {
                    Ok(StaffLogin {
                        id: r.get(0)?,
                        email: r.get(1)?,
                        password_hash: r.get(2)?,
                        active: r.get(3)?,
                    })
                })
                .optional()
        })
        .await
    }

    async fn create_session(&self, session: NewSession, audit: NewAudit, now_ms: i64) -> Result<(), StoreError> {
        self.write(move |conn| {
            conn.prepare_cached(CREATE_SESSION)?.execute(params![
                session.id_hash,
                session.staff_id,
                now_ms,
                session.ip,
                session.user_agent
            ])?;
            insert_audit(conn, &audit, now_ms)
        })
        .await
    }

    async fn session(&self, id_hash: &str) -> Result<Option<SessionRecord>, StoreError> {
        let id_hash = id_hash.to_string();
        self.read(move |conn| {
            conn.prepare_cached(SESSION)?
                .query_row(params![id_hash], |r| {
                    Ok(SessionRecord {
                        staff_id: r.get(0)?,
                        email: r.get(1)?,
                        created_ms: r.get(2)?,
                        last_seen_ms: r.get(3)?,
                    })
                })
                .optional()
        })
        .await
    }

    async fn touch_session(&self, id_hash: &str, now_ms: i64) -> Result<(), StoreError> {
        let id_hash = id_hash.to_string();
        self.write(move |conn| {
            conn.prepare_cached(TOUCH_SESSION)?.execute(params![id_hash, now_ms])?;
            Ok(())
        })
        .await
    }

    async fn end_session(&self, id_hash: &str, audit: Option<NewAudit>, now_ms: i64) -> Result<(), StoreError> {
        let id_hash = id_hash.to_string();
        self.write(move |conn| {
            conn.prepare_cached(sql::END_SESSION.sqlite)?.execute(params![id_hash])?;
            match audit {
                Some(entry) => insert_audit(conn, &entry, now_ms),
                None => Ok(()),
            }
        })
        .await
    }

    async fn audit(&self, entry: NewAudit, now_ms: i64) -> Result<(), StoreError> {
        self.write(move |conn| insert_audit(conn, &entry, now_ms)).await
    }

    async fn staff_unlocked_since(&self, staff_id: i64, since_ms: i64) -> Result<Option<i64>, StoreError> {
        self.read(move |conn| {
            conn.prepare_cached(sql::STAFF_UNLOCKED_SINCE.sqlite)?
                .query_row(params![since_ms, UNLOCK_ACTION, format!("staff:{staff_id}")], |r| r.get(0))
        })
        .await
    }

    async fn audit_log(&self, before: Option<i64>, limit: usize) -> Result<Vec<AuditEntry>, StoreError> {
        self.read(move |conn| {
            let mut stmt = conn.prepare_cached(sql::AUDIT_LOG.sqlite)?;
            let rows = stmt.query_map(params![before.unwrap_or(i64::MAX), limit as i64], |r| {
                Ok(AuditEntry {
                    id: r.get(0)?,
                    at_ms: r.get(1)?,
                    staff_email: r.get(2)?,
                    action: r.get(3)?,
                    target: r.get(4)?,
                    ip: r.get(5)?,
                    detail: r.get(6)?,
                })
            })?;
            rows.collect()
        })
        .await
    }
}
