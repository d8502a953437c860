//! SQLite: the console's funnel (see `store/funnel.rs`).

use async_trait::async_trait;
use rusqlite::{Connection, params};

use super::SqliteStore;
use crate::store::backend::Funnel;
use crate::store::funnel::{FunnelKind, FunnelRow, SLOWEST_COLUMNS, SlowDelivery, ZoneOffsets};
use crate::store::{StoreError, sql};

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

#[async_trait]
impl Funnel for SqliteStore {
    async fn ensure_business_zone(&self, zone: &ZoneOffsets) -> Result<bool, StoreError> {
        if self.read(stored_zone).await? == *zone {
            return Ok(false);
        }
        let zone = zone.clone();
        self.write(move |conn| {
            if stored_zone(conn)? == zone {
                return Ok(false);
            }
            conn.execute("DELETE FROM business_zone", [])?;
            let mut insert = conn.prepare_cached("INSERT INTO business_zone (from_ms, offset_ms, zone) VALUES (?1, ?2, ?3)")?;
            for (from_ms, offset_ms) in &zone.offsets {
                insert.execute(params![from_ms, offset_ms, zone.zone])?;
            }
            conn.execute_batch(
                "DELETE FROM lead_days;
                 INSERT INTO lead_days (day, kind, key, leads, delivered, fast, suppressed, erased)
                 SELECT d.day, 'service', l.service_slug, COUNT(*), SUM(l.delivery_status = 'delivered'), SUM(f.fast),
                        SUM(l.delivery_status = 'suppressed'), SUM(l.erased_ms IS NOT NULL)
                 FROM leads l JOIN lead_local_days d ON d.id = l.id JOIN lead_fast f ON f.id = l.id
                 GROUP BY d.day, l.service_slug;
                 INSERT INTO lead_days (day, kind, key, leads)
                 SELECT d.day, 'source', s.source, COUNT(*) FROM lead_local_days d JOIN lead_sources s ON s.id = d.id
                 GROUP BY d.day, s.source;",
            )?;
            Ok(true)
        })
        .await
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
            // Walks the index of delivery times from the slowest down, skipping older rows.
            let mut stmt = conn.prepare_cached(&format!(
                "SELECT {SLOWEST_COLUMNS} FROM outbox o INDEXED BY outbox_slowest JOIN leads l ON l.id = o.lead_id \
                 WHERE o.status = 'delivered' AND o.created_ms >= ?1 \
                 ORDER BY o.delivered_ms - o.created_ms DESC, o.id DESC LIMIT ?2"
            ))?;
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
