//! Site configuration: the defaults in `catalogue/site.toml`, overlaid by an optional
//! file and then by environment variables, merged by `figment` (docs/decisions/005). This
//! module keeps the typed struct, the environment variable names and the validation. A bad
//! value stops the server with a message naming the key.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::Path;

use figment::providers::{Format, Serialized, Toml};
use figment::value::{Dict, Map, Value};
use figment::{Figment, Metadata, Profile, Provider};
use serde::Deserialize;
use thiserror::Error;

use crate::phone::UsPhone;

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
    pub support_phone: UsPhone,
    pub copyright_year: u16,
    #[serde(default)]
    pub service_phones: BTreeMap<String, UsPhone>,
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
        Self::load_with(file, EnvOverrides::from_process())
    }

    fn load_with(file: Option<&Path>, env: EnvOverrides) -> Result<Self, ConfigError> {
        let mut layers = Figment::from(Toml::string(DEFAULTS));
        if let Some(path) = file {
            layers = layers.merge(Toml::file_exact(path));
        }
        Self::extract(layers.merge(env))
    }

    /// Defaults, then an overlay table, then `(ENV_VAR, value)` pairs.
    pub fn build(overlay: Option<toml::Table>, env: &[(String, String)]) -> Result<Self, ConfigError> {
        let mut layers = Figment::from(Toml::string(DEFAULTS));
        if let Some(overlay) = overlay {
            layers = layers.merge(Serialized::defaults(overlay));
        }
        Self::extract(layers.merge(EnvOverrides::from_pairs(env)))
    }

    /// The merged layers as a checked `Config`. Lossy extraction reads text as a number or
    /// a switch ("4", "on") where the key wants one: environment values are all text.
    fn extract(layers: Figment) -> Result<Self, ConfigError> {
        let config: Config = layers.extract_lossy().map_err(ConfigError::from)?;
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
        // site.support_phone and site.service_phones.* are UsPhone: checked as they deserialize.
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
    pub fn phone_for(&self, slug: &str) -> &UsPhone {
        self.site.service_phones.get(slug).unwrap_or(&self.site.support_phone)
    }
}

/// The variables of `ENV_OVERRIDES` that are set, as a figment layer. Every value is text,
/// except `NOTIFY_RECIPIENTS`: a comma-separated list.
struct EnvOverrides(Vec<(&'static str, String)>);

impl EnvOverrides {
    fn from_process() -> Self {
        Self(
            ENV_OVERRIDES
                .iter()
                .filter_map(|(var, key)| std::env::var(var).ok().map(|v| (*key, v)))
                .collect(),
        )
    }

    fn from_pairs(pairs: &[(String, String)]) -> Self {
        Self(
            pairs
                .iter()
                .filter_map(|(var, value)| {
                    let (_, key) = ENV_OVERRIDES.iter().find(|(name, _)| name == var)?;
                    Some((*key, value.clone()))
                })
                .collect(),
        )
    }
}

/// The name figment gives this layer in errors.
const ENV_LAYER: &str = "environment variable";

impl Provider for EnvOverrides {
    fn metadata(&self) -> Metadata {
        // Errors name the variable, not the key path.
        Metadata::named(ENV_LAYER).interpolater(|_: &Profile, path: &[&str]| {
            let key = path.join(".");
            match ENV_OVERRIDES.iter().find(|(_, k)| *k == key) {
                Some((var, _)) => (*var).to_string(),
                None => key,
            }
        })
    }

    fn data(&self) -> Result<Map<Profile, Dict>, figment::Error> {
        let mut dict = Dict::new();
        for (key, raw) in &self.0 {
            let value = if *key == "notify.recipients" {
                Value::from(
                    raw.split(',')
                        .map(str::trim)
                        .filter(|s| !s.is_empty())
                        .map(String::from)
                        .collect::<Vec<_>>(),
                )
            } else {
                Value::from(raw.clone())
            };
            insert(&mut dict, key, value);
        }
        Ok(Profile::Default.collect(dict))
    }
}

/// Puts `value` at the dotted `key`, making the tables on the way.
fn insert(dict: &mut Dict, key: &str, value: Value) {
    match key.split_once('.') {
        Some((head, rest)) => {
            let entry = dict.entry(head.to_string()).or_insert_with(|| Value::from(Dict::new()));
            if let Value::Dict(_, inner) = entry {
                insert(inner, rest, value);
            }
        }
        None => {
            dict.insert(key.to_string(), value);
        }
    }
}

/// A figment error as ours: the key and where its value came from, or the file that could
/// not be read or parsed.
impl From<figment::Error> for ConfigError {
    fn from(e: figment::Error) -> Self {
        let file = e.metadata.as_ref().and_then(|m| m.source.as_ref()).and_then(|s| s.file_path());
        let message = e.kind.to_string().trim().replace('\n', " ");
        if e.path.is_empty() {
            return match file {
                Some(path) => ConfigError::File {
                    path: path.display().to_string(),
                    message,
                },
                None => ConfigError::Invalid(message),
            };
        }
        let key = e.path.join(".");
        let origin = match (&e.metadata, file) {
            (Some(m), _) if m.name == ENV_LAYER => format!(" (from {})", m.interpolate(&Profile::Default, &e.path)),
            (_, Some(path)) => format!(" (in {})", path.display()),
            _ => String::new(),
        };
        ConfigError::Key {
            key,
            message: format!("{message}{origin}"),
        }
    }
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
        assert_eq!(c.phone_for("hvac").national(), "8005550142");
        assert_eq!(c.phone_for("bathroom-remodeling").national(), "8005550177");
        assert_eq!(c.phone_for("roofing").national(), "8005550100");
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
        assert_eq!(c.site.support_phone.national(), "8005550100");
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

    #[test]
    fn a_bad_phone_number_names_its_key_in_full() {
        let bad = |toml_text: &str| {
            let t: toml::Table = toml_text.parse().expect("toml");
            Config::build(Some(t), &[]).expect_err("must fail").to_string()
        };
        assert_eq!(
            bad("[site]\nsupport_phone = \"(800) 555-0100\""),
            "config key site.support_phone: must be a ten-digit North American number, digits only"
        );
        assert_eq!(
            bad("[site.service_phones]\nhvac = \"555\""),
            "config key site.service_phones.hvac: must be a ten-digit North American number, digits only"
        );
        let e = bad("[site]\nsupport_phone = 8005550100");
        assert!(e.starts_with("config key site.support_phone: "), "{e}");
    }

    #[test]
    fn environment_values_take_the_type_their_key_wants() {
        let c = Config::build(
            None,
            &env(&[
                ("PIXEL_ID", "1234567890"),
                ("PIXEL_ENABLED", "on"),
                ("NOSCRIPT_VARIANTS", "true"),
                ("RENDER_TIMEOUT_MS", "150"),
                ("WEBHOOK_SECRET", "0123456789012345"),
                ("WEBHOOK_URL", "https://hooks.example/lead"),
                ("UNRELATED", "ignored"),
            ]),
        )
        .expect("config");
        assert_eq!(c.tracking.pixel_id, "1234567890", "digits stay text where the key is text");
        assert!(c.tracking.pixel && c.render.noscript_variants);
        assert_eq!(c.render.timeout_ms, 150);
        assert_eq!(c.notify.webhook_secret, "0123456789012345");
        let e = Config::build(None, &env(&[("RENDER_POOL_SIZE", "many")]))
            .expect_err("must fail")
            .to_string();
        assert!(e.contains("render.pool_size") && e.contains("RENDER_POOL_SIZE"), "{e}");
    }

    #[test]
    fn the_file_sits_between_the_defaults_and_the_environment() {
        let dir = std::env::temp_dir().join(format!("site-config-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let file = dir.join("site.toml");
        std::fs::write(&file, "[site]\nbrand = \"CallDesk\"\n[render]\nqueue_size = 3\ntimeout_ms = 900\n").expect("write");
        let only = |pairs: &[(&str, &str)]| EnvOverrides::from_pairs(&env(pairs));
        let c = Config::load_with(Some(&file), only(&[("RENDER_TIMEOUT_MS", "700")])).expect("config");
        assert_eq!(
            (c.site.brand.as_str(), c.render.queue_size, c.render.timeout_ms),
            ("CallDesk", 3, 700)
        );
        assert_eq!(c.site.support_phone.national(), "8005550100", "the rest stays default");

        std::fs::write(&file, "[render]\nqueue_size = true\n").expect("write");
        let e = Config::load_with(Some(&file), only(&[])).expect_err("must fail").to_string();
        assert!(e.contains("render.queue_size") && e.contains("site.toml"), "{e}");
        std::fs::write(&file, "[render\n").expect("write");
        let e = Config::load_with(Some(&file), only(&[])).expect_err("must fail").to_string();
        assert!(e.starts_with("config file ") && e.contains("site.toml"), "{e}");
        let missing = dir.join("missing.toml");
        let e = Config::load_with(Some(&missing), only(&[])).expect_err("must fail").to_string();
        assert!(e.starts_with("config file ") && e.contains("missing.toml"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
