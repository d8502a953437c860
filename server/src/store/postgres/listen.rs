//! Wake-ups through PostgreSQL's LISTEN/NOTIFY (docs/decisions/021): one connection per
//! process, of its own (the reader and the writer never wait on it), listening on the channel
//! `site_outbox`, which migration 0008's triggers notify in the transaction that queues a
//! notification or makes a failed one pending again. Each notice for this server's schema
//! rings the worker's `Notify`; a lost connection is made again (with a growing pause) and
//! the worker rung once then, for whatever was queued meanwhile. The worker's slow poll
//! (`notify.poll_interval_ms`) covers the time without a connection.

use std::future::poll_fn;
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::mpsc::error::TrySendError;
use tokio::sync::{Notify, mpsc, watch};
use tokio_postgres::{AsyncMessage, Client, Connection};

use super::tls::PgTarget;
use crate::store::StoreError;
use crate::store::sql::{built, statements};

/// The channel the triggers notify; the payload is the schema of the table written.
pub const CHANNEL: &str = "site_outbox";
/// The channel migration 0014's trigger notifies when a campaign is added or changed.
pub const CAMPAIGNS_CHANNEL: &str = "site_campaigns";

/// What a listener listens to: its channel, and the name its connection shows in
/// `pg_stat_activity` (with the schema after a colon).
#[derive(Debug, Clone, Copy)]
pub struct Channel {
    pub channel: &'static str,
    pub name: &'static str,
}

/// The outbox's wake-ups.
pub const OUTBOX: Channel = Channel {
    channel: CHANNEL,
    name: "site-listener",
};
/// The campaigns' changes.
pub const CAMPAIGNS: Channel = Channel {
    channel: CAMPAIGNS_CHANNEL,
    name: "site-campaigns-listener",
};

statements! {
    /// The schema the listener's connection is in (the payloads name it).
    CURRENT_SCHEMA = "SELECT COALESCE(current_schema()::text, '')";
}

/// The first pause before connecting again, doubled after each failure up to `PAUSE_MAX`.
const PAUSE_MIN: Duration = Duration::from_secs(1);
const PAUSE_MAX: Duration = Duration::from_secs(30);

/// Listens until `stop` turns true, ringing `wake` for every notice about this server's
/// schema (`schema`, or the connection's own when None).
pub(super) async fn wake_on_notify(
    target: PgTarget,
    schema: Option<String>,
    channel: Channel,
    wake: Arc<Notify>,
    mut stop: watch::Receiver<bool>,
) {
    let mut pause = PAUSE_MIN;
    loop {
        if *stop.borrow() {
            return;
        }
        match listen(&target, schema.as_deref(), channel).await {
            Ok((client, mut notices, ours)) => {
                pause = PAUSE_MIN;
                tracing::debug!(channel = channel.channel, "listening for notifications");
                // Whatever was queued while nobody listened.
                wake.notify_one();
                loop {
                    tokio::select! {
                        notice = notices.recv() => match notice {
                            Some(payload) if payload == ours => wake.notify_one(),
                            Some(_) => {}
                            None => break,
                        },
                        _ = stop.changed() => return,
                    }
                }
                drop(client);
                tracing::warn!("the connection listening for queued notifications closed; connecting again");
            }
            Err(e) => tracing::warn!(
                error = %e, retry_in_s = pause.as_secs(),
                "cannot listen for queued notifications; the outbox is polled meanwhile"
            ),
        }
        tokio::select! {
            () = tokio::time::sleep(pause) => {}
            _ = stop.changed() => return,
        }
        pause = (pause * 2).min(PAUSE_MAX);
    }
}

/// Opens the listening connection: its notices' payloads come out of the receiver, which
/// ends when the connection does; the third value is the schema whose notices are ours.
async fn listen(target: &PgTarget, schema: Option<&str>, channel: Channel) -> Result<(Client, mpsc::Receiver<String>, String), StoreError> {
    // A wake-up stands for any number of notices: when the worker is behind, more are dropped.
    let (tx, rx) = mpsc::channel(16);
    let client = match &target.tls {
        None => {
            let (client, connection) = target.config.connect(tokio_postgres::NoTls).await?;
            tokio::spawn(forward(connection, tx));
            client
        }
        Some(tls) => {
            let (client, connection) = target.config.connect(tls.clone()).await?;
            tokio::spawn(forward(connection, tx));
            client
        }
    };
    // Named so operators (and tests) can tell it apart in pg_stat_activity.
    client
        .batch_execute(&built::pg_listener_setup(schema, channel.channel, channel.name))
        .await?;
    let ours = match schema {
        Some(schema) => schema.to_string(),
        None => client.query_one(CURRENT_SCHEMA, &[]).await?.get(0),
    };
    Ok((client, rx, ours))
}

/// Drives the connection, handing each notification's payload on; ends with the connection.
async fn forward<S, T>(mut connection: Connection<S, T>, notices: mpsc::Sender<String>)
where
    S: AsyncRead + AsyncWrite + Unpin,
    T: AsyncRead + AsyncWrite + Unpin,
{
    loop {
        match poll_fn(|cx| connection.poll_message(cx)).await {
            Some(Ok(AsyncMessage::Notification(n))) => match notices.try_send(n.payload().to_string()) {
                Ok(()) | Err(TrySendError::Full(_)) => {}
                Err(TrySendError::Closed(_)) => return,
            },
            Some(Ok(_)) => {}
            Some(Err(e)) => {
                tracing::warn!(error = %e, "the connection listening for queued notifications failed");
                return;
            }
            None => return,
        }
    }
}
