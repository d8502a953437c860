//! Site configuration: the defaults in `catalogue/site.toml`, overlaid by an optional
//! file, then by environment variables, then by flags (docs/decisions/005). This module
//! keeps the typed struct and the validation; the settings a variable or a flag may set are
//! declared once, for clap, in `settings.rs`, and the keys that are set in a file only are
//! listed there with their reasons. A bad value stops the server with a message naming the
//! key and where it came from.
//!
//! `config/layers.rs` merges the layers and reads them as the typed struct;
//! `config/overrides.rs` turns the variables, flags and secrets' files into layers;
//! `config/report.rs` gives every value with its layer, secrets hidden.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::Path;

use serde::Deserialize;
use thiserror::Error;

use crate::forms;
use crate::phone::UsPhone;
pub use layers::{Layers, Source};
pub use overrides::{Origin, Overrides, SECRET_KEYS};
pub use report::{Shown, shown_settings};
pub use settings::{FILE_ONLY, SETTINGS, Secrecy, Setting, Settings};

const DEFAULTS: &str = include_str!("../../catalogue/site.toml");
/// The shortest time a notification is retried before it may be marked failed.
pub const MIN_GIVE_UP_HOURS: u32 = 72;
/// Engines reserved for staff renders at most (each is a thread with its own heap).
const MAX_STAFF_ENGINES: usize = 16;
/// The longest wait between two attempts an operator may configure.
const MAX_RETRY_CAP_MS: u64 = 3_600_000;
/// The most connections `server.database_pool_size` may ask for.
pub const MAX_DATABASE_POOL: usize = 64;
/// The most proxies `server.trusted_proxy_hops` may name.
const MAX_PROXY_HOPS: usize = 10;

#[derive(Debug, Clone, Error)]
pub enum ConfigError {
    #[error("config file {path}: {message}")]
    File { path: String, message: String },
    #[error("config: {0}")]
    Invalid(String),
    #[error("config key {key}: {message}")]
    Key { key: String, message: String },
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    pub site: SiteConfig,
    pub server: ServerConfig,
    pub api: ApiConfig,
    pub admin: AdminConfig,
    pub leads: LeadsConfig,
    pub notify: NotifyConfig,
    pub render: RenderConfig,
    pub tracking: TrackingConfig,
    pub backup: BackupConfig,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SiteConfig {
    pub brand: String,
    pub public_url: String,
    pub info_email: String,
    pub support_phone: UsPhone,
    pub copyright_year: u16,
    #[serde(default)]
    pub service_phones: BTreeMap<String, UsPhone>,
    /// The brand's social profiles, in the order the footer lists them.
    #[serde(default)]
    pub social: Vec<SocialProfile>,
    /// The business's time zone (IANA name): the staff console shows times in it.
    #[serde(default = "default_time_zone")]
    pub time_zone: String,
}

fn default_time_zone() -> String {
    "America/New_York".into()
}

/// A social profile the footer links to.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SocialProfile {
    /// What the link says: "Facebook", "LinkedIn"…
    pub name: String,
    /// The profile's https URL.
    pub url: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerConfig {
    pub listen: SocketAddr,
    pub database_url: String,
    /// PostgreSQL only: the pool of connections for reads, outbox claims, session checks and
    /// the shared limits (the writer has its own).
    pub database_pool_size: usize,
    pub trust_forwarded_for: bool,
    /// How many proxies of ours each append an X-Forwarded-For entry (Caddy alone: 1; a
    /// load balancer, then Caddy: 2): the visitor is that many entries from the right.
    pub trusted_proxy_hops: usize,
    /// Where /metrics is served, apart from the site; empty: nowhere but behind the token.
    pub metrics_listen: String,
    /// When set, /metrics is also served on the site's listener to `Authorization: Bearer <token>`.
    pub metrics_token: String,
    /// A client must send its whole request head within this.
    pub header_timeout_ms: u64,
    /// A request body must have arrived in full within this.
    pub body_timeout_ms: u64,
    /// Any request must be answered within this.
    pub request_timeout_ms: u64,
    /// On SIGTERM, requests in flight get this long to finish.
    pub shutdown_grace_ms: u64,
    /// On SIGTERM, before that: this long still serving, /healthz answering 503 and every
    /// answer closing its connection, so a load balancer takes the server out first. 0: none.
    pub shutdown_drain_ms: u64,
    /// How long a server's lease on the scheduled jobs lasts unless renewed (by the
    /// database's clock; renewed every third of it).
    pub leader_lease_ms: u64,
}

impl ServerConfig {
    /// The metrics listener's address, when one is configured.
    pub fn metrics_addr(&self) -> Option<SocketAddr> {
        self.metrics_listen.parse().ok()
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ApiConfig {
    pub rate_limit_per_minute: u32,
    pub max_body_bytes: usize,
}

/// The staff console's own limits, apart from the visitors' (`api.rate_limit_per_minute`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdminConfig {
    /// Console requests without a signed-in session (the sign-in page, its form, redirects
    /// to it), per visitor address per minute.
    pub sign_in_rate_limit_per_minute: u32,
    /// Form posts (changes) one signed-in staff session may make per minute.
    pub staff_rate_limit_per_minute: u32,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeadsConfig {
    pub retention_days: u32,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NotifyConfig {
    pub smtp_url: String,
    pub from: String,
    pub recipients: Vec<String>,
    #[serde(default)]
    pub service_recipients: BTreeMap<String, Vec<String>>,
    pub webhook_url: String,
    pub webhook_secret: String,
    /// Send e-mail to a non-loopback SMTP host without TLS (an explicit opt-out).
    pub smtp_allow_plaintext: bool,
    /// A notification is retried (back-off capped at `retry_max_ms`) for this long, then marked failed.
    pub give_up_after_hours: u32,
    pub retry_base_ms: u64,
    pub retry_max_ms: u64,
    /// On PostgreSQL, the longest the worker waits between looks at the outbox when no
    /// wake-up comes (LISTEN/NOTIFY wakes it when a notification is queued).
    pub poll_interval_ms: u64,
    /// The longest one send (an SMTP conversation or a webhook request) may take; past it the
    /// send is abandoned and retried. At most [`MAX_SEND_TIMEOUT_MS`].
    pub send_timeout_ms: u64,
}

/// The most `notify.send_timeout_ms` may be: half the outbox claim's lease
/// (`notify::LEASE_MS`), so no other worker takes a notification over while a send of it is
/// still under way.
pub const MAX_SEND_TIMEOUT_MS: u64 = 60_000;

impl NotifyConfig {
    /// Who gets a lead for `slug`: the service's own list, else the default list.
    pub fn recipients_for(&self, slug: &str) -> &[String] {
        match self.service_recipients.get(slug) {
            Some(list) if !list.is_empty() => list,
            _ => &self.recipients,
        }
    }

    /// Who hears of account requests and campaign applications: the general recipients,
    /// or, when only per-service ones are set, all of those.
    pub fn intake_recipients(&self) -> Vec<String> {
        if !self.recipients.is_empty() {
            return self.recipients.clone();
        }
        let mut all: Vec<String> = self.service_recipients.values().flatten().cloned().collect();
        all.sort();
        all.dedup();
        all
    }

    pub fn email_enabled(&self) -> bool {
        !self.smtp_url.is_empty()
    }

    pub fn webhook_enabled(&self) -> bool {
        !self.webhook_url.is_empty()
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RenderConfig {
    pub pool_size: usize,
    /// Engines only signed-in staff renders may use, besides the pool (0: none reserved;
    /// staff renders still go first in the queue).
    pub staff_engines: usize,
    pub queue_size: usize,
    pub timeout_ms: u64,
    pub memory_limit_mb: usize,
    /// Also serve every page without its scripts under /_noscript/… (for `make bench`).
    pub noscript_variants: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrackingConfig {
    pub trustedform: bool,
    pub pixel: bool,
    pub pixel_id: String,
}

/// The server's own backups of the SQLite database.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BackupConfig {
    /// Where they go; empty: no scheduled backups (and none before migrations).
    pub dir: String,
    /// How often: "30m", "6h", "1d" (see `parse_interval`).
    pub interval: String,
    /// How many scheduled backups to keep (the oldest are deleted).
    pub keep: usize,
    /// Litestream's control socket, asked where the replica is; empty: not asked.
    pub litestream_socket: String,
}

impl BackupConfig {
    /// The folder, when backups are on.
    pub fn dir(&self) -> Option<&Path> {
        (!self.dir.trim().is_empty()).then(|| Path::new(self.dir.trim()))
    }

    /// Litestream's control socket, when the replica's lag is watched.
    pub fn litestream_socket(&self) -> Option<&Path> {
        (!self.litestream_socket.trim().is_empty()).then(|| Path::new(self.litestream_socket.trim()))
    }

    /// The interval (checked at load, so never None in a loaded config).
    pub fn interval(&self) -> Option<std::time::Duration> {
        parse_interval(&self.interval)
    }
}

/// "90s", "30m", "6h", "1d" (or a bare number of seconds) as a duration of at least one minute.
pub fn parse_interval(text: &str) -> Option<std::time::Duration> {
    let text = text.trim();
    let (number, unit) = match text.find(|c: char| !c.is_ascii_digit()) {
        Some(i) => text.split_at(i),
        None => (text, "s"),
    };
    let n: u64 = number.parse().ok()?;
    let seconds = match unit.trim() {
        "s" => n,
        "m" => n.checked_mul(60)?,
        "h" => n.checked_mul(3600)?,
        "d" => n.checked_mul(86_400)?,
        _ => return None,
    };
    (seconds >= 60).then(|| std::time::Duration::from_secs(seconds))
}

impl Config {
    /// The built-in defaults alone.
    pub fn defaults() -> Result<Self, ConfigError> {
        Self::build(None, &[])
    }

    /// Defaults, then `file` (if any), then the settings given as variables and flags (what
    /// the command line parsed: `Overrides::from_matches`).
    pub fn load(file: Option<&Path>, overrides: &Overrides) -> Result<Self, ConfigError> {
        Self::extract(Self::layers(file, overrides))
    }

    /// The layers `load` merges, unread: `site config check` shows every value with the
    /// layer it came from, then checks them (`check`).
    pub fn layers(file: Option<&Path>, overrides: &Overrides) -> Layers {
        let mut layers = Layers::defaults();
        if let Some(path) = file {
            layers.merge_file(path);
        }
        overrides.apply(&mut layers);
        layers
    }

    /// Defaults, then an overlay table, then `(VARIABLE, value)` pairs as the environment.
    pub fn build(overlay: Option<toml::Table>, env: &[(String, String)]) -> Result<Self, ConfigError> {
        let mut layers = Layers::defaults();
        if let Some(overlay) = overlay {
            layers.merge(overlay, &Source::Given);
        }
        Overrides::from_env_pairs(env).apply(&mut layers);
        Self::extract(layers)
    }

    /// The merged layers as a checked `Config`, or the first problem.
    fn extract(layers: Layers) -> Result<Self, ConfigError> {
        Self::check(&layers).map_err(|problems| {
            let first = problems.into_iter().next();
            first.unwrap_or_else(|| ConfigError::Invalid("the configuration cannot be read".into()))
        })
    }

    /// The merged layers as a checked `Config`, or every problem found (never none): every
    /// layer that cannot be read, else the first value not of its key's type, else every
    /// value out of bounds or of the wrong shape.
    pub fn check(layers: &Layers) -> Result<Self, Vec<ConfigError>> {
        let config = layers.extract()?;
        let problems = config.problems();
        if problems.is_empty() { Ok(config) } else { Err(problems) }
    }

    /// What the types cannot say: every value out of bounds or of the wrong shape.
    fn problems(&self) -> Vec<ConfigError> {
        let mut problems = Vec::new();
        let mut key = |key: &str, message: &str| {
            problems.push(ConfigError::Key {
                key: key.into(),
                message: message.into(),
            })
        };
        let s = &self.site;
        if s.brand.trim().is_empty() {
            key("site.brand", "must not be empty");
        }
        if !forms::is_web_url(&s.public_url) || s.public_url.ends_with('/') {
            key("site.public_url", "must be an absolute http(s) URL without a trailing slash");
        }
        if !forms::is_email(&s.info_email) {
            key("site.info_email", "must be an e-mail address");
        }
        if jiff::tz::TimeZone::get(&s.time_zone).is_err() {
            key("site.time_zone", "must be an IANA time zone name such as America/New_York");
        }
        // site.support_phone and site.service_phones.* are UsPhone: checked as they deserialize.
        for (i, profile) in s.social.iter().enumerate() {
            if profile.name.trim().is_empty() {
                key(&format!("site.social[{i}].name"), "must not be empty");
            }
            if !forms::is_https_url(&profile.url) {
                key(&format!("site.social[{i}].url"), "must be an https URL");
            }
        }
        let pixel_id = &self.tracking.pixel_id;
        if self.tracking.pixel && (pixel_id.is_empty() || !pixel_id.bytes().all(|b| b.is_ascii_digit())) {
            key("tracking.pixel_id", "must be the pixel's numeric id when tracking.pixel is on");
        }
        let n = &self.notify;
        if n.email_enabled() {
            if !(n.smtp_url.starts_with("smtp://") || n.smtp_url.starts_with("smtps://")) {
                key("notify.smtp_url", "must start with smtp:// or smtps://");
            }
            if n.recipients.is_empty() && n.service_recipients.values().all(Vec::is_empty) {
                key("notify.recipients", "must name at least one address when notify.smtp_url is set");
            }
        }
        let from_address = n.from.rsplit_once('<').map(|(_, a)| a.trim_end_matches('>')).unwrap_or(&n.from);
        if !forms::is_email(from_address.trim()) {
            key("notify.from", "must be an address, optionally as Name <address>");
        }
        for (i, r) in n.recipients.iter().enumerate() {
            if !forms::is_email(r) {
                key(&format!("notify.recipients[{i}]"), "must be an e-mail address");
            }
        }
        for (slug, list) in &n.service_recipients {
            if let Some(bad) = list.iter().position(|r| !forms::is_email(r)) {
                key(&format!("notify.service_recipients.{slug}[{bad}]"), "must be an e-mail address");
            }
        }
        if n.webhook_enabled() {
            // Judged on the host the HTTP client will connect to, by the parser it uses.
            if !crate::urls::webhook_allowed(&n.webhook_url) {
                key("notify.webhook_url", "must be an https URL (http only to a loopback host)");
            }
            if n.webhook_secret.len() < 16 {
                key(
                    "notify.webhook_secret",
                    "must be at least 16 characters when notify.webhook_url is set",
                );
            }
        }
        if n.give_up_after_hours < MIN_GIVE_UP_HOURS {
            key("notify.give_up_after_hours", "must be at least 72 (three days)");
        }
        if n.retry_base_ms == 0 || n.retry_max_ms < n.retry_base_ms {
            key("notify.retry_base_ms", "must be at least 1 and at most notify.retry_max_ms");
        }
        if n.retry_max_ms > MAX_RETRY_CAP_MS {
            key("notify.retry_max_ms", "must be at most 3600000 (one hour)");
        }
        if !(100..=3_600_000).contains(&n.poll_interval_ms) {
            key("notify.poll_interval_ms", "must be between 100 and 3600000 (one hour)");
        }
        if !(100..=MAX_SEND_TIMEOUT_MS).contains(&n.send_timeout_ms) {
            key("notify.send_timeout_ms", "must be between 100 and 60000 (one minute)");
        }
        let sv = &self.server;
        if !sv.metrics_listen.is_empty() && sv.metrics_addr().is_none() {
            key("server.metrics_listen", "must be an address such as 127.0.0.1:8079, or empty");
        }
        if !sv.metrics_token.is_empty() && sv.metrics_token.len() < 16 {
            key("server.metrics_token", "must be at least 16 characters, or empty");
        }
        for (name, ms) in [
            ("server.header_timeout_ms", sv.header_timeout_ms),
            ("server.body_timeout_ms", sv.body_timeout_ms),
            ("server.request_timeout_ms", sv.request_timeout_ms),
            ("server.shutdown_grace_ms", sv.shutdown_grace_ms),
        ] {
            if ms == 0 {
                key(name, "must be at least 1");
            }
        }
        if !(1000..=600_000).contains(&sv.leader_lease_ms) {
            key("server.leader_lease_ms", "must be between 1000 and 600000 (ten minutes)");
        }
        if !(1..=MAX_DATABASE_POOL).contains(&sv.database_pool_size) {
            key("server.database_pool_size", "must be between 1 and 64");
        }
        if !(1..=MAX_PROXY_HOPS).contains(&sv.trusted_proxy_hops) {
            key("server.trusted_proxy_hops", "must be between 1 and 10");
        }
        if self.api.rate_limit_per_minute == 0 {
            key("api.rate_limit_per_minute", "must be at least 1");
        }
        if self.admin.sign_in_rate_limit_per_minute == 0 {
            key("admin.sign_in_rate_limit_per_minute", "must be at least 1");
        }
        if self.admin.staff_rate_limit_per_minute == 0 {
            key("admin.staff_rate_limit_per_minute", "must be at least 1");
        }
        if self.api.max_body_bytes < 1024 {
            key("api.max_body_bytes", "must be at least 1024");
        }
        if self.leads.retention_days == 0 {
            key("leads.retention_days", "must be at least 1");
        }
        let r = &self.render;
        if r.queue_size == 0 {
            key("render.queue_size", "must be at least 1");
        }
        if r.staff_engines > MAX_STAFF_ENGINES {
            key("render.staff_engines", "must be at most 16");
        }
        if r.timeout_ms == 0 {
            key("render.timeout_ms", "must be at least 1");
        }
        if r.memory_limit_mb < 8 {
            key("render.memory_limit_mb", "must be at least 8");
        }
        if self.backup.interval().is_none() {
            key(
                "backup.interval",
                "must be a number and a unit (s, m, h or d), at least one minute, such as 6h",
            );
        }
        if self.backup.keep == 0 {
            key("backup.keep", "must be at least 1");
        }
        let db = &self.server.database_url;
        if !(db.starts_with("sqlite:") || db.starts_with("postgres://") || db.starts_with("postgresql://")) {
            key("server.database_url", "must start with sqlite:, postgres:// or postgresql://");
        }
        problems
    }

    /// Engines in the render pool: the configured number, or one per core.
    pub fn render_pool_size(&self) -> usize {
        match self.render.pool_size {
            0 => std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2),
            n => n,
        }
    }

    /// The number to call for a service: its own if configured, else the support line.
    pub fn phone_for(&self, slug: &str) -> &UsPhone {
        self.site.service_phones.get(slug).unwrap_or(&self.site.support_phone)
    }
}

mod layers;
mod overrides;
mod report;
pub mod settings;
#[cfg(test)]
mod tests;
