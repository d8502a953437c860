//! PostgreSQL: the console's funnel (see `store/funnel.rs`).

use async_trait::async_trait;

use super::PgStore;
use crate::store::backend::Funnel;
use crate::store::funnel::{FunnelKind, FunnelRow, SLOWEST_COLUMNS, SlowDelivery, ZoneOffsets};
use crate::store::{StoreError, sql};

impl PgStore {
    async fn stored_zone(&self) -> Result<ZoneOffsets, StoreError> {
        let rows = self.client().await?.query(sql::BUSINESS_ZONE.pg, &[]).await?;
        Ok(ZoneOffsets {
            zone: rows.last().map(|r| r.get(2)).unwrap_or_default(),
            offsets: rows.iter().map(|r| (r.get(0), r.get(1))).collect(),
        })
    }
}

#[async_trait]
impl Funnel for PgStore {
    async fn ensure_business_zone(&self, zone: &ZoneOffsets) -> Result<bool, StoreError> {
        if self.stored_zone().await? == *zone {
            return Ok(false);
        }
        // One statement list, one transaction: the tables locked against a second server
        // doing the same, and against the triggers' counting until the new counts are in;
        // then done only if the zone is still not ours (another server may have just written it).
        let name = zone.zone.replace('\'', "''");
        let rows: Vec<String> = zone.offsets.iter().map(|(f, o)| format!("({f}, {o}, '{name}')")).collect();
        let rows = if rows.is_empty() {
            "(0, 0, 'UTC')".to_string()
        } else {
            rows.join(", ")
        };
        let fingerprint: Vec<String> = zone.offsets.iter().map(|(f, o)| format!("{f}:{o}:{name}")).collect();
        let sql = format!(
            "BEGIN;
             LOCK TABLE business_zone, lead_days IN EXCLUSIVE MODE;
             DO $funnel$ BEGIN
             IF (SELECT COALESCE(string_agg(from_ms || ':' || offset_ms || ':' || zone, ',' ORDER BY from_ms), '') FROM business_zone)
                IS DISTINCT FROM '{}' THEN
                 DELETE FROM business_zone;
                 INSERT INTO business_zone (from_ms, offset_ms, zone) VALUES {rows};
                 DELETE FROM lead_days;
                 INSERT INTO lead_days (day, kind, key, leads, delivered, fast, suppressed, erased)
                 SELECT business_day(received_at_ms), 'service', service_slug, COUNT(*),
                        COUNT(*) FILTER (WHERE delivery_status = 'delivered'),
                        COUNT(*) FILTER (WHERE delivery_status = 'delivered' AND lead_is_fast(id, received_at_ms)),
                        COUNT(*) FILTER (WHERE delivery_status = 'suppressed'), COUNT(erased_ms)
                 FROM leads GROUP BY 1, 3;
                 INSERT INTO lead_days (day, kind, key, leads)
                 SELECT business_day(received_at_ms), 'source', lead_source(utm_source, referrer, page_url, erased_ms), COUNT(*)
                 FROM leads GROUP BY 1, 3;
             END IF;
             END $funnel$;
             COMMIT;",
            fingerprint.join(",")
        );
        let client = self.client().await?;
        if let Err(e) = client.batch_execute(&sql).await {
            let _ = client.batch_execute("ROLLBACK").await;
            return Err(e.into());
        }
        Ok(true)
    }

    async fn funnel_rows(&self, from_day: i64, to_day: i64) -> Result<Vec<FunnelRow>, StoreError> {
        let rows = self.client().await?.query(sql::FUNNEL_ROWS.pg, &[&from_day, &to_day]).await?;
        Ok(rows
            .iter()
            .filter_map(|r| {
                Some(FunnelRow {
                    day: r.get(0),
                    kind: FunnelKind::parse(r.get(1))?,
                    key: r.get(2),
                    leads: r.get(3),
                    delivered: r.get(4),
                    fast: r.get(5),
                    suppressed: r.get(6),
                    erased: r.get(7),
                })
            })
            .collect())
    }

    async fn slowest_deliveries(&self, since_ms: i64, limit: usize) -> Result<Vec<SlowDelivery>, StoreError> {
        // Walks the index of delivery times from the slowest down, skipping older rows.
        let rows = self
            .client()
            .await?
            .query(
                &format!(
                    "SELECT {SLOWEST_COLUMNS} FROM outbox o JOIN leads l ON l.id = o.lead_id \
                     WHERE o.status = 'delivered' AND o.created_ms >= $1 \
                     ORDER BY o.delivered_ms - o.created_ms DESC, o.id DESC LIMIT $2"
                ),
                &[&since_ms, &(limit as i64)],
            )
            .await?;
        Ok(rows
            .iter()
            .map(|r| SlowDelivery {
                lead_id: r.get(0),
                service_slug: r.get(1),
                channel: r.get(2),
                received_at_ms: r.get(3),
                took_ms: r.get(4),
            })
            .collect())
    }
}
