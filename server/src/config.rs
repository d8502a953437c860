//! Site configuration: the defaults in `catalogue/site.toml`, overlaid by an optional
//! file and then by environment variables. A bad value stops the server with a message
//! naming the key.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::Path;

use serde::Deserialize;
use thiserror::Error;

const DEFAULTS: &str = include_str!("../../catalogue/site.toml");

/// Environment variables that override configuration keys, and the key each sets.
pub const ENV_OVERRIDES: &[(&str, &str)] = &[
    ("LISTEN", "server.listen"),
    ("DATABASE_URL", "server.database_url"),
    ("PUBLIC_URL", "site.public_url"),
    ("RENDER_POOL_SIZE", "render.pool_size"),
    ("RENDER_QUEUE_SIZE", "render.queue_size"),
    ("RENDER_TIMEOUT_MS", "render.timeout_ms"),
    ("RENDER_MEMORY_LIMIT_MB", "render.memory_limit_mb"),
    ("NOSCRIPT_VARIANTS", "render.noscript_variants"),
    ("TRUSTEDFORM_ENABLED", "tracking.trustedform"),
    ("RATE_LIMIT_PER_MINUTE", "api.rate_limit_per_minute"),
    ("SMTP_URL", "notify.smtp_url"),
    ("NOTIFY_FROM", "notify.from"),
    ("NOTIFY_RECIPIENTS", "notify.recipients"),
    ("WEBHOOK_URL", "notify.webhook_url"),
    ("WEBHOOK_SECRET", "notify.webhook_secret"),
    ("NOTIFY_MAX_ATTEMPTS", "notify.max_attempts"),
    ("NOTIFY_RETRY_BASE_MS", "notify.retry_base_ms"),
    ("PIXEL_ENABLED", "tracking.pixel"),
    ("PIXEL_ID", "tracking.pixel_id"),
];

#[derive(Debug, Error)]
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
    pub leads: LeadsConfig,
    pub notify: NotifyConfig,
    pub render: RenderConfig,
    pub tracking: TrackingConfig,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SiteConfig {
    pub brand: String,
    pub public_url: String,
    pub info_email: String,
    pub support_phone: String,
    pub copyright_year: u16,
    #[serde(default)]
    pub service_phones: BTreeMap<String, String>,
    /// The brand's social profiles, in the order the footer lists them.
    #[serde(default)]
    pub social: Vec<SocialProfile>,
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
    pub trust_forwarded_for: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ApiConfig {
    pub rate_limit_per_minute: u32,
    pub max_body_bytes: usize,
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
    pub max_attempts: u32,
    pub retry_base_ms: u64,
    pub retry_max_ms: u64,
}

impl NotifyConfig {
    /// Who gets a lead for `slug`: the service's own list, else the default list.
    pub fn recipients_for(&self, slug: &str) -> &[String] {
        match self.service_recipients.get(slug) {
            Some(list) if !list.is_empty() => list,
            _ => &self.recipients,
        }
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

impl Config {
    /// The built-in defaults alone.
    pub fn defaults() -> Result<Self, ConfigError> {
        Self::build(None, &[])
    }

    /// Defaults, then `file` (if any), then the process environment.
    pub fn load(file: Option<&Path>) -> Result<Self, ConfigError> {
        let overlay = match file {
            Some(path) => Some(read_file(path)?),
            None => None,
        };
        let env: Vec<(String, String)> = ENV_OVERRIDES
            .iter()
            .filter_map(|(var, _)| std::env::var(var).ok().map(|v| ((*var).to_string(), v)))
            .collect();
        Self::build(overlay, &env)
    }

    /// Defaults, then an overlay table, then `(ENV_VAR, value)` pairs.
    pub fn build(overlay: Option<toml::Table>, env: &[(String, String)]) -> Result<Self, ConfigError> {
        let mut table: toml::Table = DEFAULTS
            .parse()
            .map_err(|e: toml::de::Error| ConfigError::Invalid(format!("built-in defaults: {e}")))?;
        if let Some(overlay) = overlay {
            merge(&mut table, overlay, "")?;
        }
        for (var, raw) in env {
            let Some((_, key)) = ENV_OVERRIDES.iter().find(|(name, _)| name == var) else {
                continue;
            };
            let value = if *key == "notify.recipients" {
                toml::Value::Array(
                    raw.split(',')
                        .map(str::trim)
                        .filter(|s| !s.is_empty())
                        .map(|s| toml::Value::String(s.into()))
                        .collect(),
                )
            } else {
                env_value(raw, lookup(&table, key))
            };
            set_key(&mut table, key, value)?;
        }
        let config: Config =
            Config::deserialize(toml::Value::Table(table)).map_err(|e| ConfigError::Invalid(e.to_string().trim().replace('\n', " ")))?;
        config.validate()?;
        Ok(config)
    }

    fn validate(&self) -> Result<(), ConfigError> {
        let key = |key: &str, message: &str| ConfigError::Key {
            key: key.into(),
            message: message.into(),
        };
        let s = &self.site;
        if s.brand.trim().is_empty() {
            return Err(key("site.brand", "must not be empty"));
        }
        if !(s.public_url.starts_with("https://") || s.public_url.starts_with("http://")) || s.public_url.ends_with('/') {
            return Err(key("site.public_url", "must be an absolute http(s) URL without a trailing slash"));
        }
        if !is_email(&s.info_email) {
            return Err(key("site.info_email", "must be an e-mail address"));
        }
        if !is_nanp_digits(&s.support_phone) {
            return Err(key("site.support_phone", "must be a ten-digit North American number, digits only"));
        }
        for (slug, phone) in &s.service_phones {
            if !is_nanp_digits(phone) {
                return Err(key(
                    &format!("site.service_phones.{slug}"),
                    "must be a ten-digit North American number, digits only",
                ));
            }
        }
        for (i, profile) in s.social.iter().enumerate() {
            if profile.name.trim().is_empty() {
                return Err(key(&format!("site.social[{i}].name"), "must not be empty"));
            }
            if !is_https_url(&profile.url) {
                return Err(key(&format!("site.social[{i}].url"), "must be an https URL"));
            }
        }
        let pixel_id = &self.tracking.pixel_id;
        if self.tracking.pixel && (pixel_id.is_empty() || !pixel_id.bytes().all(|b| b.is_ascii_digit())) {
            return Err(key("tracking.pixel_id", "must be the pixel's numeric id when tracking.pixel is on"));
        }
        let n = &self.notify;
        if n.email_enabled() {
            if !(n.smtp_url.starts_with("smtp://") || n.smtp_url.starts_with("smtps://")) {
                return Err(key("notify.smtp_url", "must start with smtp:// or smtps://"));
            }
            if n.recipients.is_empty() && n.service_recipients.values().all(Vec::is_empty) {
                return Err(key(
                    "notify.recipients",
                    "must name at least one address when notify.smtp_url is set",
                ));
            }
        }
        let from_address = n.from.rsplit_once('<').map(|(_, a)| a.trim_end_matches('>')).unwrap_or(&n.from);
        if !is_email(from_address.trim()) {
            return Err(key("notify.from", "must be an address, optionally as Name <address>"));
        }
        for (i, r) in n.recipients.iter().enumerate() {
            if !is_email(r) {
                return Err(key(&format!("notify.recipients[{i}]"), "must be an e-mail address"));
            }
        }
        for (slug, list) in &n.service_recipients {
            if let Some(bad) = list.iter().position(|r| !is_email(r)) {
                return Err(key(
                    &format!("notify.service_recipients.{slug}[{bad}]"),
                    "must be an e-mail address",
                ));
            }
        }
        if n.webhook_enabled() {
            if !(n.webhook_url.starts_with("https://") || n.webhook_url.starts_with("http://")) {
                return Err(key("notify.webhook_url", "must be an http(s) URL"));
            }
            if n.webhook_secret.len() < 16 {
                return Err(key(
                    "notify.webhook_secret",
                    "must be at least 16 characters when notify.webhook_url is set",
                ));
            }
        }
        if n.max_attempts == 0 {
            return Err(key("notify.max_attempts", "must be at least 1"));
        }
        if n.retry_base_ms == 0 || n.retry_max_ms < n.retry_base_ms {
            return Err(key("notify.retry_base_ms", "must be at least 1 and at most notify.retry_max_ms"));
        }
        if self.api.rate_limit_per_minute == 0 {
            return Err(key("api.rate_limit_per_minute", "must be at least 1"));
        }
        if self.api.max_body_bytes < 1024 {
            return Err(key("api.max_body_bytes", "must be at least 1024"));
        }
        if self.leads.retention_days == 0 {
            return Err(key("leads.retention_days", "must be at least 1"));
        }
        let r = &self.render;
        if r.queue_size == 0 {
            return Err(key("render.queue_size", "must be at least 1"));
        }
        if r.timeout_ms == 0 {
            return Err(key("render.timeout_ms", "must be at least 1"));
        }
        if r.memory_limit_mb < 8 {
            return Err(key("render.memory_limit_mb", "must be at least 8"));
        }
        let db = &self.server.database_url;
        if !(db.starts_with("sqlite:") || db.starts_with("postgres://") || db.starts_with("postgresql://")) {
            return Err(key("server.database_url", "must start with sqlite:, postgres:// or postgresql://"));
        }
        Ok(())
    }

    /// Engines in the render pool: the configured number, or one per core.
    pub fn render_pool_size(&self) -> usize {
        match self.render.pool_size {
            0 => std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2),
            n => n,
        }
    }

    /// The number to call for a service: its own if configured, else the support line.
    pub fn phone_for(&self, slug: &str) -> &str {
        self.site.service_phones.get(slug).unwrap_or(&self.site.support_phone)
    }
}

fn read_file(path: &Path) -> Result<toml::Table, ConfigError> {
    let file_error = |message: String| ConfigError::File {
        path: path.display().to_string(),
        message,
    };
    let text = std::fs::read_to_string(path).map_err(|e| file_error(e.to_string()))?;
    text.parse()
        .map_err(|e: toml::de::Error| file_error(e.to_string().trim().replace('\n', " ")))
}

/// An environment value takes the type of the default it replaces: "4" is a number where the
/// default is a number and text where the default is text (a pixel id, a password…).
fn env_value(raw: &str, default: Option<&toml::Value>) -> toml::Value {
    let text = || toml::Value::String(raw.to_string());
    match default {
        Some(toml::Value::Integer(_)) => raw.trim().parse::<i64>().map(toml::Value::Integer).unwrap_or_else(|_| text()),
        Some(toml::Value::Boolean(_)) => match raw.trim() {
            "true" | "1" | "yes" | "on" => toml::Value::Boolean(true),
            "false" | "0" | "no" | "off" => toml::Value::Boolean(false),
            _ => text(),
        },
        _ => text(),
    }
}

/// The value at a dotted key, if the table has one.
fn lookup<'a>(table: &'a toml::Table, key: &str) -> Option<&'a toml::Value> {
    let mut parts = key.split('.');
    let mut value = table.get(parts.next()?)?;
    for part in parts {
        value = value.as_table()?.get(part)?;
    }
    Some(value)
}

fn merge(base: &mut toml::Table, overlay: toml::Table, prefix: &str) -> Result<(), ConfigError> {
    for (k, v) in overlay {
        let path = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
        match (base.get_mut(&k), v) {
            (Some(toml::Value::Table(b)), toml::Value::Table(o)) => merge(b, o, &path)?,
            (Some(toml::Value::Table(_)), _) => {
                return Err(ConfigError::Key {
                    key: path,
                    message: "must be a table".into(),
                });
            }
            (_, v) => {
                base.insert(k, v);
            }
        }
    }
    Ok(())
}

fn set_key(table: &mut toml::Table, key: &str, value: toml::Value) -> Result<(), ConfigError> {
    let mut parts: Vec<&str> = key.split('.').collect();
    let Some(last) = parts.pop() else {
        return Err(ConfigError::Invalid(format!("empty key for {key}")));
    };
    let mut current = table;
    for part in parts {
        current = match current.entry(part).or_insert_with(|| toml::Value::Table(toml::Table::new())) {
            toml::Value::Table(t) => t,
            _ => {
                return Err(ConfigError::Key {
                    key: key.into(),
                    message: "is not a table".into(),
                });
            }
        };
    }
    current.insert(last.to_string(), value);
    Ok(())
}

fn is_email(s: &str) -> bool {
    let Some((local, domain)) = s.split_once('@') else { return false };
    !local.is_empty()
        && !s.chars().any(char::is_whitespace)
        && !domain.contains('@')
        && domain.split_once('.').is_some_and(|(a, b)| !a.is_empty() && !b.is_empty())
}

fn is_https_url(s: &str) -> bool {
    s.strip_prefix("https://")
        .is_some_and(|rest| !rest.is_empty() && !rest.starts_with('/') && !s.chars().any(|c| c.is_whitespace() || c.is_control()))
}

fn is_nanp_digits(s: &str) -> bool {
    s.len() == 10 && s.bytes().all(|b| b.is_ascii_digit()) && !s.starts_with(['0', '1'])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
    }

    #[test]
    fn defaults_load() {
        let c = Config::defaults().expect("defaults");
        assert_eq!(c.site.brand, "RingReady");
        assert_eq!(c.phone_for("hvac"), "8005550142");
        assert_eq!(c.phone_for("bathroom-remodeling"), "8005550177");
        assert_eq!(c.phone_for("roofing"), "8005550100");
        assert!(!c.tracking.trustedform && !c.tracking.pixel);
        assert!(!c.site.social.is_empty(), "the footer has social links by default");
    }

    #[test]
    fn overlay_and_env_override_defaults() {
        let overlay: toml::Table = "[site]\nbrand = \"CallDesk\"\n[render]\nqueue_size = 3".parse().expect("toml");
        let c = Config::build(Some(overlay), &env(&[("LISTEN", "0.0.0.0:9000"), ("RENDER_POOL_SIZE", "3")])).expect("config");
        assert_eq!(c.site.brand, "CallDesk");
        assert_eq!(c.render.queue_size, 3);
        assert_eq!(c.render.pool_size, 3);
        assert_eq!(c.server.listen.port(), 9000);
        assert_eq!(c.site.support_phone, "8005550100");
        let c = Config::build(
            None,
            &env(&[
                ("SMTP_URL", "smtp://127.0.0.1:2525"),
                ("NOTIFY_RECIPIENTS", "a@x.example, b@x.example"),
            ]),
        )
        .expect("config");
        assert_eq!(
            c.notify.recipients_for("hvac"),
            ["a@x.example".to_string(), "b@x.example".to_string()]
        );
    }

    #[test]
    fn bad_values_name_their_key() {
        let bad = |toml_text: &str| {
            let t: toml::Table = toml_text.parse().expect("toml");
            Config::build(Some(t), &[]).expect_err("must fail").to_string()
        };
        assert!(bad("[site.service_phones]\nhvac = \"555\"").contains("site.service_phones.hvac"));
        assert!(bad("[render]\npool_size = \"many\"").contains("render.pool_size"));
        assert!(bad("[render]\ncolour = 1").contains("colour"));
        assert!(bad("[site]\ninfo_email = \"nobody\"").contains("site.info_email"));
        assert!(bad("[site]\nsocial = [{ name = \"Facebook\", url = \"http://x.example\" }]").contains("site.social[0].url"));
        assert!(bad("[site]\nsocial = [{ name = \" \", url = \"https://x.example\" }]").contains("site.social[0].name"));
        assert!(bad("[notify]\nsmtp_url = \"smtp://127.0.0.1:25\"").contains("notify.recipients"));
        assert!(bad("[notify]\nwebhook_url = \"https://x.example/hook\"").contains("notify.webhook_secret"));
        let e = Config::build(None, &env(&[("LISTEN", "not an address")]))
            .expect_err("must fail")
            .to_string();
        assert!(e.contains("server.listen"), "{e}");
    }
}
