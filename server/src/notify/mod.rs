//! The outbox worker: delivers each lead's notifications (e-mail, webhook), retrying with
//! exponential back-off and jitter until delivered or, after the configured number of
//! attempts, marked failed (logged and counted: never dropped silently).

pub mod email;
pub mod webhook;

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{Notify, watch};

use crate::catalogue::Catalogue;
use crate::config::NotifyConfig;
use crate::metrics::Metrics;
use crate::store::{Channel, OutboxItem, Store, now_ms};
use email::EmailSender;
use webhook::WebhookSender;

/// How long a claimed notification stays ours before another worker may take it.
const LEASE_MS: i64 = 120_000;
/// Notifications delivered concurrently.
const BATCH: usize = 32;
/// Longest sleep between looks at the outbox when nothing wakes the worker.
const IDLE_POLL: Duration = Duration::from_secs(2);

pub struct Notifier {
    store: Arc<Store>,
    catalogue: Arc<Catalogue>,
    metrics: Arc<Metrics>,
    config: NotifyConfig,
    email: Option<EmailSender>,
    webhook: Option<WebhookSender>,
    /// Rung by the API after a lead commits, so delivery starts at once.
    pub wake: Arc<Notify>,
}

impl Notifier {
    pub fn new(config: &NotifyConfig, store: Arc<Store>, catalogue: Arc<Catalogue>, metrics: Arc<Metrics>) -> Result<Self, String> {
        let email = if config.email_enabled() {
            Some(EmailSender::new(config)?)
        } else {
            None
        };
        let webhook = if config.webhook_enabled() {
            Some(WebhookSender::new(&config.webhook_url, &config.webhook_secret)?)
        } else {
            None
        };
        Ok(Self {
            store,
            catalogue,
            metrics,
            config: config.clone(),
            email,
            webhook,
            wake: Arc::new(Notify::new()),
        })
    }

    /// The channels a new lead for `slug` gets outbox rows for.
    pub fn channels_for(&self, slug: &str) -> Vec<Channel> {
        let mut channels = Vec::new();
        if self.email.is_some() && !self.config.recipients_for(slug).is_empty() {
            channels.push(Channel::Email);
        }
        if self.webhook.is_some() {
            channels.push(Channel::Webhook);
        }
        channels
    }

    /// Runs until `stop` turns true; the batch in progress is finished first.
    pub async fn run(self: Arc<Self>, mut stop: watch::Receiver<bool>) {
        loop {
            if *stop.borrow() {
                break;
            }
            let items = match self.store.claim_due(now_ms(), LEASE_MS, BATCH).await {
                Ok(items) => items,
                Err(e) => {
                    tracing::error!(error = %e, "cannot read the outbox");
                    Vec::new()
                }
            };
            if items.is_empty() {
                let wait = match self.store.next_due_ms().await {
                    Ok(Some(due)) => Duration::from_millis((due - now_ms()).clamp(0, IDLE_POLL.as_millis() as i64) as u64),
                    _ => IDLE_POLL,
                };
                tokio::select! {
                    () = self.wake.notified() => {}
                    () = tokio::time::sleep(wait) => {}
                    _ = stop.changed() => {}
                }
                continue;
            }
            let deliveries = items.into_iter().map(|item| {
                let me = Arc::clone(&self);
                tokio::spawn(async move { me.deliver(item).await })
            });
            for d in deliveries.collect::<Vec<_>>() {
                let _ = d.await;
            }
        }
        tracing::info!("notification worker stopped");
    }

    async fn deliver(&self, item: OutboxItem) {
        let attempt = item.attempts + 1;
        let channel = item.channel.as_str();
        let result = match item.channel {
            Channel::Email => match &self.email {
                Some(sender) => {
                    let name = self
                        .catalogue
                        .service(&item.lead.service_slug)
                        .map(|s| s.name.as_str())
                        .unwrap_or(&item.lead.service_slug);
                    sender.send(&item.lead, name).await
                }
                None => Err("e-mail is not configured on this server".into()),
            },
            Channel::Webhook => match &self.webhook {
                Some(sender) => sender.send(&item.lead, attempt).await,
                None => Err("the webhook is not configured on this server".into()),
            },
        };
        let now = now_ms();
        let outcome = match result {
            Ok(()) => {
                self.metrics.delivered_after(now - item.lead.received_at_ms);
                tracing::info!(lead = %item.lead.id, channel, attempt, "notification delivered");
                self.store.mark_delivered(item.id, attempt, now).await.map(|()| "delivered")
            }
            Err(error) if attempt >= self.config.max_attempts => {
                tracing::error!(lead = %item.lead.id, channel, attempt, error = %redact(&error), "notification failed for good");
                self.store.mark_failed(item.id, attempt, &redact(&error)).await.map(|()| "failed")
            }
            Err(error) => {
                let delay = backoff_ms(
                    attempt,
                    self.config.retry_base_ms,
                    self.config.retry_max_ms,
                    jitter_seed(item.id, attempt),
                );
                tracing::warn!(lead = %item.lead.id, channel, attempt, retry_in_ms = delay, error = %redact(&error), "notification will be retried");
                self.store
                    .mark_retry(item.id, attempt, now + delay as i64, &redact(&error))
                    .await
                    .map(|()| "retry")
            }
        };
        match outcome {
            Ok(outcome) => self.metrics.delivery(channel, outcome),
            // The lease runs out and the notification is tried again: late, never lost.
            Err(e) => tracing::error!(lead = %item.lead.id, channel, error = %e, "cannot record the delivery outcome"),
        }
    }
}

/// Exponential back-off with "equal jitter": half the step fixed, half random.
pub fn backoff_ms(attempt: u32, base_ms: u64, max_ms: u64, seed: u64) -> u64 {
    let step = base_ms.saturating_mul(1u64 << (attempt.saturating_sub(1)).min(32)).min(max_ms);
    step / 2 + seed % (step / 2 + 1)
}

fn jitter_seed(id: i64, attempt: u32) -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    // SplitMix64 of the mix: cheap and well spread.
    let mut z = (id as u64) ^ (u64::from(attempt) << 32) ^ u64::from(nanos);
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Errors from mail servers can echo addresses: keep logs free of them.
fn redact(error: &str) -> String {
    error
        .split_whitespace()
        .map(|w| if w.contains('@') { "<address>" } else { w })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_grows_exponentially_within_bounds() {
        for attempt in 1..=20 {
            let step = (1000u64 << (attempt - 1).min(32)).min(60_000);
            for seed in [0, 1, 12345, u64::MAX] {
                let d = backoff_ms(attempt, 1000, 60_000, seed);
                assert!(d >= step / 2 && d <= step, "attempt {attempt}: {d} outside {}..={step}", step / 2);
            }
        }
    }

    #[test]
    fn redaction_hides_addresses() {
        assert_eq!(redact("550 mailbox bob@example.com unknown"), "550 mailbox <address> unknown");
    }
}
