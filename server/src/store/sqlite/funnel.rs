//! SQLite: the console's funnel (see `store/funnel.rs`).

use async_trait::async_trait;
use rusqlite::{Connection, OptionalExtension, params};

use super::SqliteStore;
use crate::store::StoreError;
use crate::store::backend::Funnel;
use crate::store::funnel::{FunnelKind, FunnelRow, FunnelState, RecountHold, SlowDelivery, ZoneOffsets};
use crate::store::sql::{self, SLOWEST_COLUMNS, statements};

statements! {
    /// The counts of every lead as the connection's snapshot sees them: service rows, then
    /// source rows, each lead's day in the `business_zone` of that snapshot.
    COUNT_LEADS = "SELECT d.day, 'service', l.service_slug, COUNT(*), SUM(l.delivery_status = 'delivered'), SUM(f.fast),
                SUM(l.delivery_status = 'suppressed'), SUM(l.erased_ms IS NOT NULL)
         FROM leads l JOIN lead_local_days d ON d.id = l.id JOIN lead_fast f ON f.id = l.id
         GROUP BY d.day, l.service_slug
         UNION ALL
         SELECT d.day, 'source', s.source, COUNT(*), 0, 0, 0, 0 FROM lead_local_days d JOIN lead_sources s ON s.id = d.id
         GROUP BY d.day, s.source";
    /// Adds a day's counts (`?1` day, `?2` kind, `?3` key, then the five counts).
    ADD_COUNTS = "INSERT INTO lead_days (day, kind, key, leads, delivered, fast, suppressed, erased) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
         ON CONFLICT (day, kind, key) DO UPDATE SET leads = leads + excluded.leads, delivered = delivered + excluded.delivered,
             fast = fast + excluded.fast, suppressed = suppressed + excluded.suppressed, erased = erased + excluded.erased";
    /// One offset `?2` of the zone `?3`, from `?1`.
    INSERT_ZONE_OFFSET = "INSERT INTO business_zone (from_ms, offset_ms, zone) VALUES (?1, ?2, ?3)";
    /// A recount due for the reason `?1`, asked at `?2`, under the token `?3`.
    RECOUNT_DUE = "INSERT INTO funnel_recount (id, reason, asked_ms, token) VALUES (1, ?1, ?2, ?3)
         ON CONFLICT (id) DO UPDATE SET reason = excluded.reason, token = excluded.token";
    /// The slowest `?2` deliveries of notifications created since `?1`: walks the index of
    /// delivery times from the slowest down, skipping older rows.
    SLOWEST = built format!(
        "SELECT {SLOWEST_COLUMNS} FROM outbox o INDEXED BY outbox_slowest JOIN leads l ON l.id = o.lead_id \
         WHERE o.status = 'delivered' AND o.created_ms >= ?1 \
         ORDER BY o.delivered_ms - o.created_ms DESC, o.id DESC LIMIT ?2"
    );
}

fn stored_zone(conn: &Connection) -> rusqlite::Result<ZoneOffsets> {
    let mut zone = ZoneOffsets {
        zone: String::new(),
        offsets: Vec::new(),
    };
    let mut stmt = conn.prepare_cached(sql::BUSINESS_ZONE.sqlite)?;
    let mut rows = stmt.query([])?;
    while let Some(r) = rows.next()? {
        zone.offsets.push((r.get(0)?, r.get(1)?));
        zone.zone = r.get(2)?;
    }
    Ok(zone)
}

/// Why a recount is due (`funnel_recount`), if it is.
fn recount_due(conn: &Connection) -> rusqlite::Result<Option<String>> {
    conn.query_row(sql::FUNNEL_RECOUNT_DUE.sqlite, [], |r| r.get(0)).optional()
}

/// The counts of every lead as `conn`'s snapshot sees them: service rows, then source rows,
/// each lead's day in the `business_zone` of that snapshot.
fn count_leads(conn: &Connection) -> rusqlite::Result<Vec<FunnelRow>> {
    let mut stmt = conn.prepare(COUNT_LEADS)?;
    let rows = stmt.query_map([], |r| {
        let kind: String = r.get(1)?;
        Ok(FunnelRow {
            day: r.get(0)?,
            kind: FunnelKind::parse(&kind).unwrap_or(FunnelKind::Source),
            key: r.get(2)?,
            leads: r.get(3)?,
            delivered: r.get(4)?,
            fast: r.get(5)?,
            suppressed: r.get(6)?,
            erased: r.get(7)?,
        })
    })?;
    rows.collect()
}

/// Adds `rows` (a recount's counts) to `lead_days` if the recount under way is still
/// `token`'s; with `last`, drops the rows left at nothing and marks the recount done.
fn add_counts(conn: &Connection, token: &str, rows: &[FunnelRow], last: bool) -> rusqlite::Result<bool> {
    let ours = conn
        .query_row(sql::FUNNEL_RECOUNT_OURS.sqlite, [token], |_| Ok(()))
        .optional()?
        .is_some();
    if !ours {
        return Ok(false);
    }
    let mut add = conn.prepare_cached(ADD_COUNTS)?;
    for r in rows {
        let kind = match r.kind {
            FunnelKind::Service => "service",
            FunnelKind::Source => "source",
        };
        add.execute(params![r.day, kind, r.key, r.leads, r.delivered, r.fast, r.suppressed, r.erased])?;
    }
    if last {
        conn.execute(sql::DROP_EMPTY_LEAD_DAYS.sqlite, [])?;
        conn.execute(sql::FUNNEL_RECOUNT_DONE.sqlite, [token])?;
    }
    Ok(true)
}

/// The snapshot's counts added to `lead_days` at a time, each in a write of its own (the
/// writer takes the leads that came meanwhile between two).
const MERGE_ROWS: usize = 2000;

#[async_trait]
impl Funnel for SqliteStore {
    async fn funnel_state(&self) -> Result<FunnelState, StoreError> {
        self.read(|conn| {
            Ok(FunnelState {
                zone: stored_zone(conn)?,
                recount: recount_due(conn)?,
            })
        })
        .await
    }

    async fn recount_funnel(&self, zone: &ZoneOffsets, reason: &str, hold: RecountHold) -> Result<(), StoreError> {
        let token = uuid::Uuid::now_v7().simple().to_string();
        let snapshot = self.open_reader().await?;
        // 1, 2. The zone and the cut, in a transaction of their own: lead_days emptied, the
        // recount marked under way (a stop from here on leaves it to be done again). Right
        // after the commit, before the writer takes anything else, the snapshot begins: every
        // change before the cut is in it, every later one is counted by the triggers into the
        // emptied table, in the zone just written.
        let (zone, reason, ours) = (zone.clone(), reason.to_string(), token.clone());
        let ((), snapshot) = self
            .write_alone(
                move |conn| {
                    conn.execute(sql::CLEAR_BUSINESS_ZONE.sqlite, [])?;
                    let mut insert = conn.prepare_cached(INSERT_ZONE_OFFSET)?;
                    for (from_ms, offset_ms) in &zone.offsets {
                        insert.execute(params![from_ms, offset_ms, zone.zone])?;
                    }
                    conn.execute(sql::CLEAR_LEAD_DAYS.sqlite, [])?;
                    conn.execute(RECOUNT_DUE, params![reason, crate::store::now_ms(), ours])?;
                    Ok(())
                },
                move |()| -> rusqlite::Result<Connection> {
                    snapshot.execute_batch("BEGIN")?;
                    snapshot.query_row(sql::COUNT_BUSINESS_ZONE.sqlite, [], |r| r.get::<_, i64>(0))?;
                    Ok(snapshot)
                },
            )
            .await?;
        let snapshot = snapshot?;
        // 3. The counting, from the snapshot, off the writer: writes go on meanwhile.
        let counted = tokio::task::spawn_blocking(move || {
            let counted = count_leads(&snapshot);
            let _ = snapshot.execute_batch("COMMIT");
            counted
        })
        .await
        .map_err(|e| StoreError::Database(e.to_string()))??;
        hold.reached().await;
        // 4. Added to what the triggers counted since the cut, a few thousand rows a write.
        let mut chunks: Vec<Vec<FunnelRow>> = counted.chunks(MERGE_ROWS).map(<[FunnelRow]>::to_vec).collect();
        if chunks.is_empty() {
            chunks.push(Vec::new());
        }
        let last = chunks.len() - 1;
        for (i, chunk) in chunks.into_iter().enumerate() {
            let token = token.clone();
            if !self.write(move |conn| add_counts(conn, &token, &chunk, i == last)).await? {
                return Err(StoreError::Database(
                    "the funnel's recount: another one began meanwhile and does it".into(),
                ));
            }
        }
        Ok(())
    }

    async fn funnel_rows(&self, from_day: i64, to_day: i64) -> Result<Vec<FunnelRow>, StoreError> {
        self.read(move |conn| {
            let mut stmt = conn.prepare_cached(sql::FUNNEL_ROWS.sqlite)?;
            let rows = stmt.query_map(params![from_day, to_day], |r| {
                let kind: String = r.get(1)?;
                Ok((
                    kind,
                    FunnelRow {
                        day: r.get(0)?,
                        kind: FunnelKind::Service,
                        key: r.get(2)?,
                        leads: r.get(3)?,
                        delivered: r.get(4)?,
                        fast: r.get(5)?,
                        suppressed: r.get(6)?,
                        erased: r.get(7)?,
                    },
                ))
            })?;
            let mut out = Vec::new();
            for row in rows {
                let (kind, mut row) = row?;
                if let Some(kind) = FunnelKind::parse(&kind) {
                    row.kind = kind;
                    out.push(row);
                }
            }
            Ok(out)
        })
        .await
    }

    async fn slowest_deliveries(&self, since_ms: i64, limit: usize) -> Result<Vec<SlowDelivery>, StoreError> {
        self.read(move |conn| {
            let mut stmt = conn.prepare_cached(&SLOWEST)?;
            let rows = stmt.query_map(params![since_ms, limit as i64], |r| {
                Ok(SlowDelivery {
                    lead_id: r.get(0)?,
                    service_slug: r.get(1)?,
                    channel: r.get(2)?,
                    received_at_ms: r.get(3)?,
                    took_ms: r.get(4)?,
                })
            })?;
            rows.collect()
        })
        .await
    }
}
