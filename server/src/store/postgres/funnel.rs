//! PostgreSQL: the console's funnel (see `store/funnel.rs`).

use async_trait::async_trait;
use tokio_postgres::{Client, IsolationLevel};

use super::PgStore;
use crate::store::StoreError;
use crate::store::backend::Funnel;
use crate::store::funnel::{FunnelKind, FunnelRow, FunnelState, RecountHold, SlowDelivery, ZoneOffsets};
use crate::store::sql::{self, SLOWEST_COLUMNS, statements};

statements! {
    /// The counts of every lead, service rows then source rows, with each lead's day in the
    /// `business_zone` the statement sees: what a recount adds from its snapshot, and what
    /// `site copy-store` writes on the copy (the same steps as the triggers, migration 0013).
    COUNT_LEADS = "WITH l AS (
            SELECT (l.received_at_ms + COALESCE(z.offset_ms, 0)) / 86400000 AS day, l.id, l.received_at_ms, l.service_slug,
                   l.delivery_status, l.erased_ms, lead_source(l.utm_source, l.referrer, l.page_url, l.erased_ms) AS source
            FROM leads l LEFT JOIN LATERAL (
                SELECT offset_ms FROM business_zone WHERE from_ms <= l.received_at_ms ORDER BY from_ms DESC LIMIT 1) z ON TRUE)
         SELECT day, 'service', service_slug, COUNT(*), COUNT(*) FILTER (WHERE delivery_status = 'delivered'),
                COUNT(*) FILTER (WHERE delivery_status = 'delivered' AND lead_is_fast(id, received_at_ms)),
                COUNT(*) FILTER (WHERE delivery_status = 'suppressed'), COUNT(erased_ms)
         FROM l GROUP BY day, service_slug
         UNION ALL
         SELECT day, 'source', source, COUNT(*), 0, 0, 0, 0 FROM l GROUP BY day, source";
    /// `COUNT_LEADS` written into `lead_days` (`count_lead_days`).
    WRITE_LEAD_DAYS = built format!("INSERT INTO lead_days (day, kind, key, leads, delivered, fast, suppressed, erased) {COUNT_LEADS}");
    /// Every recount due or under way, gone.
    CLEAR_RECOUNT = "DELETE FROM funnel_recount";
    /// The statement that may write `business_zone` (migration 0013).
    AS_RECOUNT = "SET LOCAL site.funnel_recount = 'on'";
    /// The zone `$3` with its offsets from each of `$1` (`$2`).
    INSERT_ZONE = "INSERT INTO business_zone (from_ms, offset_ms, zone) SELECT f, o, $3 FROM unnest($1::BIGINT[], $2::BIGINT[]) AS z(f, o)";
    /// A recount due for the reason `$1`, its token cleared (a recount under way elsewhere
    /// adds nothing).
    RECOUNT_DUE = concat!(
        "INSERT INTO funnel_recount (id, reason, asked_ms) VALUES (1, $1, ",
        db_now_ms!(),
        ") ON CONFLICT (id) DO UPDATE SET reason = excluded.reason, token = NULL"
    );
    /// How long a step of the recount that locks `lead_days` waits for the lock before giving
    /// up (and the recount with it, to be done again at the jobs' next round): a lead's insert
    /// that comes meanwhile waits behind that step, so never long. Then the lock.
    LOCK_COUNTS = "SET LOCAL lock_timeout = '500ms'; LOCK TABLE lead_days, funnel_recount IN EXCLUSIVE MODE";
    /// The recount taken by the token `$1`, if none has it.
    TAKE_RECOUNT = "UPDATE funnel_recount SET token = $1 WHERE id = 1 AND token IS NULL";
    /// Adds a recount's counts, one array per column.
    ADD_COUNTS = "INSERT INTO lead_days AS d (day, kind, key, leads, delivered, fast, suppressed, erased) \
         SELECT * FROM unnest($1::BIGINT[], $2::TEXT[], $3::TEXT[], $4::BIGINT[], $5::BIGINT[], $6::BIGINT[], $7::BIGINT[], $8::BIGINT[]) \
         ON CONFLICT (day, kind, key) DO UPDATE SET leads = d.leads + excluded.leads, delivered = d.delivered + excluded.delivered, \
         fast = d.fast + excluded.fast, suppressed = d.suppressed + excluded.suppressed, erased = d.erased + excluded.erased";
    /// The slowest `$2` deliveries of notifications created since `$1`: walks the index of
    /// delivery times from the slowest down, skipping older rows.
    SLOWEST = built format!(
        "SELECT {SLOWEST_COLUMNS} FROM outbox o JOIN leads l ON l.id = o.lead_id \
         WHERE o.status = 'delivered' AND o.created_ms >= $1 \
         ORDER BY o.delivered_ms - o.created_ms DESC, o.id DESC LIMIT $2"
    );
}

/// The snapshot's counts added to `lead_days` at a time, each in a transaction of its own.
const MERGE_ROWS: usize = 5000;

/// Counts `lead_days` anew on a database nobody else writes to (`site copy-store`'s copy, its
/// triggers on): from its leads, in the zone it holds. The rows written.
pub async fn count_lead_days(client: &mut Client) -> Result<u64, StoreError> {
    let tx = client.transaction().await?;
    tx.execute(sql::CLEAR_LEAD_DAYS.pg, &[]).await?;
    let rows = tx.execute(WRITE_LEAD_DAYS.as_str(), &[]).await?;
    tx.execute(CLEAR_RECOUNT, &[]).await?;
    tx.commit().await?;
    Ok(rows)
}

impl PgStore {
    async fn stored_zone(&self) -> Result<ZoneOffsets, StoreError> {
        let rows = self.client().await?.query(sql::BUSINESS_ZONE.pg, &[]).await?;
        Ok(ZoneOffsets {
            zone: rows.last().map(|r| r.get(2)).unwrap_or_default(),
            offsets: rows.iter().map(|r| (r.get(0), r.get(1))).collect(),
        })
    }

    /// A connection of the recount's own: it holds a snapshot for as long as it counts, which
    /// the pool (maybe one connection) must not be held for.
    async fn own_connection(&self) -> Result<Client, StoreError> {
        super::connect_one(&self.target, self.schema.as_deref()).await
    }
}

fn row(r: &tokio_postgres::Row) -> Option<FunnelRow> {
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
}

fn kind_name(kind: FunnelKind) -> &'static str {
    match kind {
        FunnelKind::Service => "service",
        FunnelKind::Source => "source",
    }
}

#[async_trait]
impl Funnel for PgStore {
    async fn funnel_state(&self) -> Result<FunnelState, StoreError> {
        let zone = self.stored_zone().await?;
        let recount = self
            .client()
            .await?
            .query_opt(sql::FUNNEL_RECOUNT_DUE.pg, &[])
            .await?
            .map(|r| r.get(0));
        Ok(FunnelState { zone, recount })
    }

    async fn recount_funnel(&self, zone: &ZoneOffsets, reason: &str, hold: RecountHold) -> Result<(), StoreError> {
        let token = uuid::Uuid::now_v7().simple().to_string();
        let mut client = self.own_connection().await?;
        let mut counter = self.own_connection().await?;
        // 1. The zone, and the recount marked due: a stop from here on leaves it to be done
        // again. Only a transaction that says it is the recount may write business_zone
        // (migration 0013). A recount under way elsewhere loses its token: it adds nothing.
        let (from, offset): (Vec<i64>, Vec<i64>) = zone.offsets.iter().copied().unzip();
        let tx = client.transaction().await?;
        tx.batch_execute(AS_RECOUNT).await?;
        tx.execute(sql::CLEAR_BUSINESS_ZONE.pg, &[]).await?;
        tx.execute(INSERT_ZONE, &[&from, &offset, &zone.zone]).await?;
        tx.execute(RECOUNT_DUE, &[&reason]).await?;
        tx.commit().await?;

        // 2. The cut: lead_days emptied while no writer is between its change and its count
        // (the lock waits for those), and the snapshot taken before the lock goes. Every
        // change committed before is in the snapshot; every later one is counted by the
        // triggers into the emptied table, in the zone just written.
        let cut = client.transaction().await?;
        cut.batch_execute(LOCK_COUNTS).await?;
        cut.execute(sql::CLEAR_LEAD_DAYS.pg, &[]).await?;
        if cut.execute(TAKE_RECOUNT, &[&token]).await? == 0 {
            return Err(StoreError::Database(
                "the funnel's recount: another one began meanwhile and does it".into(),
            ));
        }
        let snapshot = counter
            .build_transaction()
            .isolation_level(IsolationLevel::RepeatableRead)
            .read_only(true)
            .start()
            .await?;
        snapshot.query_one(sql::COUNT_BUSINESS_ZONE.pg, &[]).await?;
        cut.commit().await?;

        // 3. The counting, from the snapshot: writers do not wait for it.
        let counted: Vec<FunnelRow> = snapshot.query(COUNT_LEADS, &[]).await?.iter().filter_map(row).collect();
        snapshot.commit().await?;
        drop(counter);
        hold.reached().await;

        // 4. Added to what the triggers counted since the cut, a few thousand rows at a time.
        let chunks: Vec<&[FunnelRow]> = if counted.is_empty() {
            vec![&[]]
        } else {
            counted.chunks(MERGE_ROWS).collect()
        };
        let last = chunks.len() - 1;
        for (i, chunk) in chunks.into_iter().enumerate() {
            let tx = client.transaction().await?;
            tx.batch_execute(LOCK_COUNTS).await?;
            if tx.query_opt(sql::FUNNEL_RECOUNT_OURS.pg, &[&token]).await?.is_none() {
                return Err(StoreError::Database(
                    "the funnel's recount: another one began meanwhile and does it".into(),
                ));
            }
            let day: Vec<i64> = chunk.iter().map(|r| r.day).collect();
            let kind: Vec<&str> = chunk.iter().map(|r| kind_name(r.kind)).collect();
            let key: Vec<&str> = chunk.iter().map(|r| r.key.as_str()).collect();
            let leads: Vec<i64> = chunk.iter().map(|r| r.leads).collect();
            let delivered: Vec<i64> = chunk.iter().map(|r| r.delivered).collect();
            let fast: Vec<i64> = chunk.iter().map(|r| r.fast).collect();
            let suppressed: Vec<i64> = chunk.iter().map(|r| r.suppressed).collect();
            let erased: Vec<i64> = chunk.iter().map(|r| r.erased).collect();
            tx.execute(ADD_COUNTS, &[&day, &kind, &key, &leads, &delivered, &fast, &suppressed, &erased])
                .await?;
            if i == last {
                tx.execute(sql::DROP_EMPTY_LEAD_DAYS.pg, &[]).await?;
                tx.execute(sql::FUNNEL_RECOUNT_DONE.pg, &[&token]).await?;
            }
            tx.commit().await?;
        }
        Ok(())
    }

    async fn funnel_rows(&self, from_day: i64, to_day: i64) -> Result<Vec<FunnelRow>, StoreError> {
        let rows = self.client().await?.query(sql::FUNNEL_ROWS.pg, &[&from_day, &to_day]).await?;
        Ok(rows.iter().filter_map(row).collect())
    }

    async fn slowest_deliveries(&self, since_ms: i64, limit: usize) -> Result<Vec<SlowDelivery>, StoreError> {
        let rows = self.client().await?.query(SLOWEST.as_str(), &[&since_ms, &(limit as i64)]).await?;
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
