//! The outbox worker: delivers each lead's notifications (e-mail, webhook) and the e-mails
//! about other submissions (account requests, campaign applications), retrying with
//! exponential back-off and jitter, the wait capped (10 minutes by default), until
//! delivered. Only a notification still undelivered `notify.give_up_after_hours` (72 or
//! more) after its delivery effort began is marked failed: logged, counted, shown in
//! /metrics, and sent again by `site outbox retry` (docs/decisions/009-notification-retries.md).
//!
//! Several servers may deliver from one PostgreSQL database: a claim's lease is the
//! database's clock's, and an outcome is recorded only under the claim that sent it
//! (docs/decisions/019); every e-mail and webhook names its notification (`delivery_key`), so
//! a receiver can drop the repeat a crash between sending and recording makes. On
//! PostgreSQL the worker is woken by LISTEN/NOTIFY when any server queues a notification,
//! and otherwise looks every `notify.poll_interval_ms` (docs/decisions/021).

pub mod email;
pub mod webhook;

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{Notify, watch};
use tokio::task::JoinSet;

use crate::catalogue::Catalogue;
use crate::config::NotifyConfig;
use crate::metrics::Metrics;
use crate::store::{Channel, Notice, Outbox, OutboxItem, Store, StoreError, now_ms};
use email::EmailSender;
use webhook::WebhookSender;

/// How long a claimed notification stays ours (by the database's clock) before another
/// worker may take it: at least twice the longest a send may take
/// ([`MAX_SEND_TIMEOUT_MS`](crate::config::MAX_SEND_TIMEOUT_MS)), so a claim is never taken
/// over while its send is still under way.
pub const LEASE_MS: i64 = 120_000;
const _: () = assert!(LEASE_MS as u64 >= 2 * crate::config::MAX_SEND_TIMEOUT_MS);
/// Notifications in flight at once: a free place is filled as soon as one send ends, so a
/// send that hangs (until its deadline) holds one place, never the others.
const IN_FLIGHT: usize = 32;
/// Longest sleep between looks at the outbox on SQLite, whose server is woken by its own
/// requests only: `site outbox retry`, another process, cannot wake it.
const SQLITE_POLL: Duration = Duration::from_secs(2);

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
        let (email, webhook) = Self::senders(config)?;
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

    /// The configured channels' senders (made without connecting anywhere): what
    /// `site config check` builds to check them.
    pub fn senders(config: &NotifyConfig) -> Result<(Option<EmailSender>, Option<WebhookSender>), String> {
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
        Ok((email, webhook))
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

    /// Reads each outbox's pending and failed counts, its oldest undelivered notification and
    /// the last 24 hours' delivery attempts into the metrics (a scrape never reads the
    /// database): every two seconds on the server that runs the scheduled jobs (the only one
    /// that exports them, `background.rs`), and whenever the console's health page is
    /// opened, which then shows the metrics' figures.
    pub async fn refresh_summary(&self) {
        for outbox in Outbox::ALL {
            match self.store.outbox_summary(outbox).await {
                Ok(summary) => self.metrics.set_outbox(outbox.name(), summary),
                Err(e) => tracing::error!(error = %e, outbox = outbox.name(), "cannot summarise the outbox"),
            }
        }
        match self.store.deliveries_since(now_ms() - crate::metrics::DELIVERIES_WINDOW_MS).await {
            Ok(counts) => self.metrics.set_deliveries_24h(counts),
            Err(e) => tracing::error!(error = %e, "cannot count the last day's deliveries"),
        }
    }

    /// Whether a new submission gets an e-mail row: e-mail is set up and someone receives it.
    pub fn mail_enabled(&self) -> bool {
        self.email.is_some() && !self.config.intake_recipients().is_empty()
    }

    /// How long a failing notification is retried before it is marked failed.
    fn give_up_ms(&self) -> i64 {
        i64::from(self.config.give_up_after_hours) * 3_600_000
    }

    /// Runs until `stop` turns true, then lets the sends under way end (each is bounded by
    /// `notify.send_timeout_ms`; `Background::shutdown` bounds the whole). Woken by this
    /// server's requests and, on PostgreSQL, by any server's (LISTEN/NOTIFY); otherwise it
    /// looks when the next retry is due, and at the latest every poll interval. Up to
    /// [`IN_FLIGHT`] notifications are sent at once, and a place is refilled as soon as its
    /// send ends: one slow or silent peer never holds the others back.
    pub async fn run(self: Arc<Self>, mut stop: watch::Receiver<bool>) {
        let listener = self.store.watch_queue(Arc::clone(&self.wake), stop.clone());
        let poll = match listener {
            Some(_) => Duration::from_millis(self.config.poll_interval_ms),
            None => SQLITE_POLL,
        };
        let mut in_flight = JoinSet::new();
        loop {
            if *stop.borrow() {
                break;
            }
            // Sends that ended still count in `len()` until joined.
            while in_flight.try_join_next().is_some() {}
            let mut claimed = 0;
            for outbox in Outbox::ALL {
                let free = IN_FLIGHT - in_flight.len();
                if free == 0 {
                    break;
                }
                match self.store.claim_due(outbox, now_ms(), LEASE_MS, free).await {
                    Ok(items) => {
                        claimed += items.len();
                        for item in items {
                            let me = Arc::clone(&self);
                            in_flight.spawn(async move { me.deliver(item).await });
                        }
                    }
                    Err(e) => unclaimed(outbox, &e),
                }
            }
            if claimed > 0 && in_flight.len() < IN_FLIGHT {
                // More may be due: look again before waiting.
                continue;
            }
            let wait = if in_flight.len() >= IN_FLIGHT {
                poll
            } else {
                match self.store.next_due_in_ms(now_ms()).await {
                    Ok(Some(due_in)) => Duration::from_millis(due_in.clamp(0, poll.as_millis() as i64) as u64),
                    _ => poll,
                }
            };
            tokio::select! {
                () = self.wake.notified(), if in_flight.len() < IN_FLIGHT => {}
                Some(_) = in_flight.join_next(), if !in_flight.is_empty() => {}
                () = tokio::time::sleep(wait) => {}
                _ = stop.changed() => {}
            }
        }
        while in_flight.join_next().await.is_some() {}
        if let Some(listener) = listener {
            let _ = listener.await;
        }
        tracing::info!("notification worker stopped");
    }

    /// Sends one notification (a lead's, on its channel, or a submission's e-mail) and
    /// records the outcome in its outbox, unless the claim was lost meanwhile: then the
    /// outcome of the claim that took it over counts, and this one is logged and dropped.
    async fn deliver(&self, item: OutboxItem) {
        let attempt = item.attempts + 1;
        let outbox = item.outbox();
        let deadline = Duration::from_millis(self.config.send_timeout_ms);
        let result = match tokio::time::timeout(deadline, self.send(&item, attempt)).await {
            Ok(result) => result,
            Err(_) => Err(format!(
                "no answer within {} ms (notify.send_timeout_ms): the peer accepted the connection and went silent",
                self.config.send_timeout_ms
            )),
        };
        let now = now_ms();
        let outcome = match result {
            Ok(()) => {
                if let Some(lead) = item.lead() {
                    self.metrics.delivered_after(now - lead.received_at_ms);
                }
                delivered(&item, attempt);
                self.store
                    .mark_delivered(outbox, item.id, item.claim, attempt, now)
                    .await
                    .map(|kept| kept.then_some("delivered"))
            }
            Err(error) if now - item.since_ms >= self.give_up_ms() => {
                let error = redact(&error);
                failed(&item, attempt, self.config.give_up_after_hours, &error);
                self.store
                    .mark_failed(outbox, item.id, item.claim, attempt, &error)
                    .await
                    .map(|kept| kept.then_some("failed"))
            }
            Err(error) => {
                let error = redact(&error);
                let delay = backoff_ms(
                    attempt,
                    self.config.retry_base_ms,
                    self.config.retry_max_ms,
                    jitter_seed(item.id, attempt),
                );
                retried(&item, attempt, delay, &error);
                self.store
                    .mark_retry(outbox, item.id, item.claim, attempt, now + delay as i64, &error)
                    .await
                    .map(|kept| kept.then_some("retry"))
            }
        };
        match outcome {
            Ok(Some(outcome)) => self.metrics.delivery(metric_channel(&item), outcome),
            Ok(None) => {
                self.metrics.outcome_dropped(metric_channel(&item));
                dropped(&item, attempt);
            }
            // The lease runs out and the notification is tried again: late, never lost.
            Err(e) => unrecorded(&item, &e),
        }
    }

    /// One attempt at sending `item`.
    async fn send(&self, item: &OutboxItem, attempt: u32) -> Result<(), String> {
        let key = delivery_key(&item.notice);
        match &item.notice {
            Notice::Lead {
                channel: Channel::Email,
                lead,
            } => match &self.email {
                Some(sender) => {
                    let name = self
                        .catalogue
                        .service(&lead.service_slug)
                        .map(|s| s.name.as_str())
                        .unwrap_or(&lead.service_slug);
                    sender.send(lead, name, &key).await
                }
                None => Err("e-mail is not configured on this server".into()),
            },
            Notice::Lead {
                channel: Channel::Webhook,
                lead,
            } => match &self.webhook {
                Some(sender) => sender.send(lead, attempt, &key).await,
                None => Err("the webhook is not configured on this server".into()),
            },
            Notice::Mail { mail, .. } => match &self.email {
                Some(sender) => sender.send_mail(&key, mail, &self.config.intake_recipients()).await,
                None => Err("e-mail is not configured on this server".into()),
            },
        }
    }
}

/// The notification's name, the same on every attempt and every server: `lead-ID.email`,
/// `lead-ID.webhook` or `submission-ID.email`. An e-mail's `Message-ID` and a webhook's
/// `Idempotency-Key` carry it, so a receiver can drop a repeat.
pub fn delivery_key(notice: &Notice) -> String {
    match notice {
        Notice::Lead { channel, lead } => format!("lead-{}.{}", lead.id, channel.as_str()),
        Notice::Mail { submission_id, .. } => format!("submission-{submission_id}.email"),
    }
}

/// The channel a delivery is counted under in /metrics: a lead's notification by its
/// channel, every submission e-mail as `submission_email`.
fn metric_channel(item: &OutboxItem) -> &'static str {
    match &item.notice {
        Notice::Lead { channel, .. } => channel.as_str(),
        Notice::Mail { .. } => "submission_email",
    }
}

// The worker's log lines, one per outcome: a lead's notification names its lead and channel,
// a submission's e-mail its submission.

fn unclaimed(outbox: Outbox, e: &StoreError) {
    match outbox {
        Outbox::Leads => tracing::error!(error = %e, "cannot read the outbox"),
        Outbox::Mail => tracing::error!(error = %e, "cannot read the submission e-mail outbox"),
    }
}

fn delivered(item: &OutboxItem, attempt: u32) {
    match &item.notice {
        Notice::Lead { channel, lead } => {
            tracing::info!(lead = %lead.id, channel = channel.as_str(), attempt, "notification delivered");
        }
        Notice::Mail { submission_id, .. } => {
            tracing::info!(submission = %submission_id, attempt, "submission e-mail delivered");
        }
    }
}

fn failed(item: &OutboxItem, attempt: u32, hours: u32, error: &str) {
    match &item.notice {
        Notice::Lead { channel, lead } => tracing::error!(
            lead = %lead.id, outbox = item.id, channel = channel.as_str(), attempt, hours, error = %error,
            "notification failed for good; `site outbox retry {}` sends it again", item.id
        ),
        Notice::Mail { submission_id, .. } => tracing::error!(
            submission = %submission_id, outbox = item.id, attempt, hours, error = %error,
            "submission e-mail failed for good; `site outbox retry mail:{}` sends it again", item.id
        ),
    }
}

fn retried(item: &OutboxItem, attempt: u32, delay: u64, error: &str) {
    match &item.notice {
        Notice::Lead { channel, lead } => tracing::warn!(
            lead = %lead.id, channel = channel.as_str(), attempt, retry_in_ms = delay, error = %error,
            "notification will be retried"
        ),
        Notice::Mail { submission_id, .. } => tracing::warn!(
            submission = %submission_id, attempt, retry_in_ms = delay, error = %error,
            "submission e-mail will be retried"
        ),
    }
}

fn dropped(item: &OutboxItem, attempt: u32) {
    let why = "outcome not recorded: the claim was lost (its lease ran out and another claim took the notification over)";
    match &item.notice {
        Notice::Lead { channel, lead } => {
            tracing::warn!(lead = %lead.id, outbox = item.id, channel = channel.as_str(), attempt, "{why}");
        }
        Notice::Mail { submission_id, .. } => {
            tracing::warn!(submission = %submission_id, outbox = item.id, attempt, "{why}");
        }
    }
}

fn unrecorded(item: &OutboxItem, e: &StoreError) {
    match &item.notice {
        Notice::Lead { channel, lead } => {
            tracing::error!(lead = %lead.id, channel = channel.as_str(), error = %e, "cannot record the delivery outcome");
        }
        Notice::Mail { submission_id, .. } => {
            tracing::error!(submission = %submission_id, error = %e, "cannot record the delivery outcome");
        }
    }
}

/// Exponential back-off with "equal jitter": half the step fixed, half random; the step
/// doubles from `base_ms` and stops growing at `max_ms`, so a long outage is retried every
/// `max_ms / 2` to `max_ms` for as long as it lasts.
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
    fn the_defaults_retry_for_three_days_with_waits_of_at_most_ten_minutes() {
        let config = crate::config::Config::defaults().expect("defaults").notify;
        assert_eq!(config.retry_max_ms, 600_000);
        assert!(config.give_up_after_hours >= 72);
        // The longest the schedule can leave between attempts, and how many attempts three
        // days hold even when every wait is the longest.
        let mut elapsed = 0u64;
        let mut attempts = 0u32;
        while elapsed < 72 * 3_600_000 {
            attempts += 1;
            let wait = backoff_ms(attempts, config.retry_base_ms, config.retry_max_ms, u64::MAX);
            assert!(wait <= 600_000, "attempt {attempts}: {wait} ms");
            elapsed += wait;
        }
        assert!(attempts > 400, "{attempts} attempts in three days");
    }

    #[test]
    fn redaction_hides_addresses() {
        assert_eq!(redact("550 mailbox bob@example.com unknown"), "550 mailbox <address> unknown");
    }
}
