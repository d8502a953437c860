//! The settings an operator may give as a flag or an environment variable, declared once:
//! each field names its flag, its variable and, as its clap id, the configuration key it
//! sets. `site --help` lists them from here, `SETTINGS` (what the configuration layers and
//! their error messages need) is read from here, and nothing else reads these variables.
//! The values stay text: the configuration reads them with the key's type (`layers.rs`)
//! and checks them, so a bad one is refused with its key and variable named, as any other.
//! `FILE_ONLY` lists the keys of `catalogue/site.toml` no variable sets, each with why (a
//! test checks every key is one or the other); `Secrecy` says, by a key's name, whether its
//! value may be printed.

use std::sync::LazyLock;

use clap::{Args, Command};

/// Every setting, by section (each section is a heading in `site --help`).
#[derive(Debug, Clone, Default, Args)]
pub struct Settings {
    #[command(flatten)]
    pub server: ServerSettings,
    #[command(flatten)]
    pub notify: NotifySettings,
    #[command(flatten)]
    pub limits: LimitSettings,
    #[command(flatten)]
    pub render: RenderSettings,
    #[command(flatten)]
    pub tracking: TrackingSettings,
    #[command(flatten)]
    pub backup: BackupSettings,
}

#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = "Server")]
pub struct ServerSettings {
    /// Where the site listens (server.listen).
    #[arg(long, env = "LISTEN", id = "server.listen", value_name = "ADDR")]
    pub listen: Option<String>,
    /// The site's canonical origin, for links, the sitemap and Open Graph (site.public_url).
    #[arg(long, env = "PUBLIC_URL", id = "site.public_url", value_name = "URL")]
    pub public_url: Option<String>,
    /// sqlite:PATH, or postgres://user:pass@host/db?sslmode=verify-full (server.database_url). It
    /// may hold a password: prefer the variable, a flag is visible in the process list.
    #[arg(long, env = "DATABASE_URL", id = "server.database_url", value_name = "URL")]
    pub database_url: Option<String>,
    /// PostgreSQL: connections for reads, outbox claims, session checks and the shared limits,
    /// 1 to 64 (server.database_pool_size).
    #[arg(long, env = "DATABASE_POOL_SIZE", id = "server.database_pool_size", value_name = "N")]
    pub database_pool_size: Option<String>,
    /// Take the visitor's address from X-Forwarded-For: only behind your own proxy
    /// (server.trust_forwarded_for).
    #[arg(long, env = "TRUST_FORWARDED_FOR", id = "server.trust_forwarded_for", value_name = "BOOL")]
    pub trust_forwarded_for: Option<String>,
    /// How many proxies of yours append to X-Forwarded-For (server.trusted_proxy_hops).
    #[arg(long, env = "TRUSTED_PROXY_HOPS", id = "server.trusted_proxy_hops", value_name = "N")]
    pub trusted_proxy_hops: Option<String>,
    /// Where /metrics is served, apart from the site; empty: nowhere (server.metrics_listen).
    #[arg(long, env = "METRICS_LISTEN", id = "server.metrics_listen", value_name = "ADDR")]
    pub metrics_listen: Option<String>,
    /// Also serve /metrics on the site's listener to this bearer token, 16+ characters
    /// (server.metrics_token). Prefer the variable: a flag is visible in the process list.
    #[arg(long, env = "METRICS_TOKEN", id = "server.metrics_token", value_name = "TOKEN")]
    pub metrics_token: Option<String>,
    /// A client must send its request head within this (server.header_timeout_ms).
    #[arg(long, env = "HEADER_TIMEOUT_MS", id = "server.header_timeout_ms", value_name = "MS")]
    pub header_timeout_ms: Option<String>,
    /// A request body must arrive in full within this (server.body_timeout_ms).
    #[arg(long, env = "BODY_TIMEOUT_MS", id = "server.body_timeout_ms", value_name = "MS")]
    pub body_timeout_ms: Option<String>,
    /// Any request is answered within this (server.request_timeout_ms).
    #[arg(long, env = "REQUEST_TIMEOUT_MS", id = "server.request_timeout_ms", value_name = "MS")]
    pub request_timeout_ms: Option<String>,
    /// On SIGTERM, requests in flight get this long (server.shutdown_grace_ms).
    #[arg(long, env = "SHUTDOWN_GRACE_MS", id = "server.shutdown_grace_ms", value_name = "MS")]
    pub shutdown_grace_ms: Option<String>,
    /// On SIGTERM, first keep serving this long while /healthz answers 503, so a load
    /// balancer stops sending requests before the listener closes (server.shutdown_drain_ms).
    #[arg(long, env = "SHUTDOWN_DRAIN_MS", id = "server.shutdown_drain_ms", value_name = "MS")]
    pub shutdown_drain_ms: Option<String>,
    /// Several servers on one database: the scheduled jobs' lease, renewed every third of it;
    /// another server takes over within about 1.3 times this (server.leader_lease_ms).
    #[arg(long, env = "LEADER_LEASE_MS", id = "server.leader_lease_ms", value_name = "MS")]
    pub leader_lease_ms: Option<String>,
}

#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = "Notifications")]
pub struct NotifySettings {
    /// smtp://user:pass@host:587 (STARTTLS), smtps://… (TLS) or smtp://127.0.0.1:2525
    /// (loopback only); empty: no e-mail (notify.smtp_url). Prefer the variable: a flag is
    /// visible in the process list.
    #[arg(long, env = "SMTP_URL", id = "notify.smtp_url", value_name = "URL")]
    pub smtp_url: Option<String>,
    /// Allow plain SMTP to a non-loopback host (notify.smtp_allow_plaintext).
    #[arg(long, env = "SMTP_ALLOW_PLAINTEXT", id = "notify.smtp_allow_plaintext", value_name = "BOOL")]
    pub smtp_allow_plaintext: Option<String>,
    /// The sender, "Name <address>" or an address (notify.from).
    #[arg(long, env = "NOTIFY_FROM", id = "notify.from", value_name = "ADDRESS")]
    pub notify_from: Option<String>,
    /// Who gets every lead: comma-separated addresses (notify.recipients).
    #[arg(long, env = "NOTIFY_RECIPIENTS", id = "notify.recipients", value_name = "ADDRESSES")]
    pub notify_recipients: Option<String>,
    /// The webhook each lead is POSTed to (https, or http to a loopback host); empty: none
    /// (notify.webhook_url).
    #[arg(long, env = "WEBHOOK_URL", id = "notify.webhook_url", value_name = "URL")]
    pub webhook_url: Option<String>,
    /// The webhook's HMAC key, 16+ characters (notify.webhook_secret). Prefer the variable: a
    /// flag is visible in the process list.
    #[arg(long, env = "WEBHOOK_SECRET", id = "notify.webhook_secret", value_name = "SECRET")]
    pub webhook_secret: Option<String>,
    /// How long a notification is retried before it is marked failed, at least 72
    /// (notify.give_up_after_hours).
    #[arg(long, env = "NOTIFY_GIVE_UP_AFTER_HOURS", id = "notify.give_up_after_hours", value_name = "HOURS")]
    pub notify_give_up_after_hours: Option<String>,
    /// The first wait before a retry (notify.retry_base_ms).
    #[arg(long, env = "NOTIFY_RETRY_BASE_MS", id = "notify.retry_base_ms", value_name = "MS")]
    pub notify_retry_base_ms: Option<String>,
    /// The longest wait between two retries (notify.retry_max_ms).
    #[arg(long, env = "NOTIFY_RETRY_MAX_MS", id = "notify.retry_max_ms", value_name = "MS")]
    pub notify_retry_max_ms: Option<String>,
    /// On PostgreSQL, the longest wait between looks at the outbox when no wake-up
    /// (LISTEN/NOTIFY) comes (notify.poll_interval_ms).
    #[arg(long, env = "NOTIFY_POLL_INTERVAL_MS", id = "notify.poll_interval_ms", value_name = "MS")]
    pub notify_poll_interval_ms: Option<String>,
    /// The longest one e-mail or webhook send may take before it is abandoned and retried,
    /// 100 to 60000 (notify.send_timeout_ms).
    #[arg(long, env = "NOTIFY_SEND_TIMEOUT_MS", id = "notify.send_timeout_ms", value_name = "MS")]
    pub notify_send_timeout_ms: Option<String>,
}

#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = "Rate limits")]
pub struct LimitSettings {
    /// Callback and token requests per visitor address per minute (api.rate_limit_per_minute).
    #[arg(long, env = "RATE_LIMIT_PER_MINUTE", id = "api.rate_limit_per_minute", value_name = "N")]
    pub rate_limit_per_minute: Option<String>,
    /// The largest request body accepted, at least 1024 (api.max_body_bytes).
    #[arg(long, env = "MAX_BODY_BYTES", id = "api.max_body_bytes", value_name = "BYTES")]
    pub max_body_bytes: Option<String>,
    /// Console requests without a signed-in session, per visitor address per minute
    /// (admin.sign_in_rate_limit_per_minute).
    #[arg(
        long,
        env = "ADMIN_SIGN_IN_RATE_LIMIT_PER_MINUTE",
        id = "admin.sign_in_rate_limit_per_minute",
        value_name = "N"
    )]
    pub admin_sign_in_rate_limit_per_minute: Option<String>,
    /// Form posts per signed-in staff session per minute (admin.staff_rate_limit_per_minute).
    #[arg(
        long,
        env = "ADMIN_STAFF_RATE_LIMIT_PER_MINUTE",
        id = "admin.staff_rate_limit_per_minute",
        value_name = "N"
    )]
    pub admin_staff_rate_limit_per_minute: Option<String>,
}

#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = "Rendering")]
pub struct RenderSettings {
    /// QuickJS engines, each on its own thread; 0: one per core (render.pool_size).
    #[arg(long, env = "RENDER_POOL_SIZE", id = "render.pool_size", value_name = "N")]
    pub render_pool_size: Option<String>,
    /// Engines only signed-in staff renders use, on top of the pool (render.staff_engines).
    #[arg(long, env = "RENDER_STAFF_ENGINES", id = "render.staff_engines", value_name = "N")]
    pub render_staff_engines: Option<String>,
    /// Renders that may wait for an engine; past it: 503 (render.queue_size).
    #[arg(long, env = "RENDER_QUEUE_SIZE", id = "render.queue_size", value_name = "N")]
    pub render_queue_size: Option<String>,
    /// A render running longer is interrupted (render.timeout_ms).
    #[arg(long, env = "RENDER_TIMEOUT_MS", id = "render.timeout_ms", value_name = "MS")]
    pub render_timeout_ms: Option<String>,
    /// Heap limit of one engine (render.memory_limit_mb).
    #[arg(long, env = "RENDER_MEMORY_LIMIT_MB", id = "render.memory_limit_mb", value_name = "MB")]
    pub render_memory_limit_mb: Option<String>,
    /// Also serve every page without its scripts under /_noscript/, for `make bench`
    /// (render.noscript_variants).
    #[arg(long, env = "NOSCRIPT_VARIANTS", id = "render.noscript_variants", value_name = "BOOL")]
    pub noscript_variants: Option<String>,
}

#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = "Tracking")]
pub struct TrackingSettings {
    /// Load TrustedForm's script (tracking.trustedform).
    #[arg(long, env = "TRUSTEDFORM_ENABLED", id = "tracking.trustedform", value_name = "BOOL")]
    pub trustedform_enabled: Option<String>,
    /// Load the Meta pixel (tracking.pixel).
    #[arg(long, env = "PIXEL_ENABLED", id = "tracking.pixel", value_name = "BOOL")]
    pub pixel_enabled: Option<String>,
    /// The Meta pixel's numeric id (tracking.pixel_id).
    #[arg(long, env = "PIXEL_ID", id = "tracking.pixel_id", value_name = "ID")]
    pub pixel_id: Option<String>,
}

#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = "Backups (SQLite)")]
pub struct BackupSettings {
    /// Where scheduled backups go; empty: none, and none before migrations (backup.dir).
    #[arg(long, env = "BACKUP_DIR", id = "backup.dir", value_name = "DIR")]
    pub backup_dir: Option<String>,
    /// How often: a number and s, m, h or d, at least a minute (backup.interval).
    #[arg(long, env = "BACKUP_INTERVAL", id = "backup.interval", value_name = "INTERVAL")]
    pub backup_interval: Option<String>,
    /// Scheduled backups kept; the oldest are deleted (backup.keep).
    #[arg(long, env = "BACKUP_KEEP", id = "backup.keep", value_name = "N")]
    pub backup_keep: Option<String>,
    /// Litestream's control socket, to export the replica's lag; empty: not asked
    /// (backup.litestream_socket).
    #[arg(long, env = "LITESTREAM_SOCKET", id = "backup.litestream_socket", value_name = "PATH")]
    pub litestream_socket: Option<String>,
}

/// The keys of `catalogue/site.toml` no variable or flag sets, each with the reason: they
/// are set in the file (`--config`, `SITE_CONFIG`). Every other key is a setting above (a
/// test walks the defaults).
pub const FILE_ONLY: [(&str, &str); 9] = [
    ("site.brand", IDENTITY),
    ("site.info_email", IDENTITY),
    ("site.support_phone", IDENTITY),
    ("site.service_phones", "a table, a number per service: no one variable can say it"),
    ("site.copyright_year", IDENTITY),
    (
        "site.social",
        "a list of tables (a name and a URL each): no one variable can say it",
    ),
    ("site.time_zone", IDENTITY),
    (
        "notify.service_recipients",
        "a table, a list of addresses per service: no one variable can say it (NOTIFY_RECIPIENTS sets the default list)",
    ),
    (
        "leads.retention_days",
        "leads older than this are deleted: a legal promise kept in the reviewed file, never a per-run override",
    ),
];

/// Why the site's own details are file-only.
const IDENTITY: &str = "what every page says about the business: kept in one reviewed file, so that no \
     server behind the same balancer serves other pages because of its environment";

/// How a key's value may be printed, by the key's name alone (whatever the value's type: a
/// secret written as a number is still a secret).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Secrecy {
    /// A secret or a token: never printed, only whether it is set.
    Hidden,
    /// A URL, which may carry a password: printed without its credentials.
    Url,
    /// Anything else: printed as it is.
    Public,
}

impl Secrecy {
    pub fn of(key: &str) -> Self {
        let name = key.rsplit('.').next().unwrap_or(key);
        let name = name.split('[').next().unwrap_or(name);
        if name.ends_with("secret") || name.ends_with("token") || name.ends_with("password") {
            Self::Hidden
        } else if name.ends_with("_url") {
            Self::Url
        } else {
            Self::Public
        }
    }
}

/// One setting as declared above.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Setting {
    /// The configuration key it sets: "server.listen".
    pub key: &'static str,
    /// Its environment variable: "LISTEN".
    pub var: &'static str,
    /// Its flag, without the dashes: "listen".
    pub flag: &'static str,
}

/// The declarations above as a command, read once (its names live as long as the process).
static DECLARED: LazyLock<Command> = LazyLock::new(|| Settings::augment_args(Command::new("settings")));

/// Every setting, in the order `site --help` lists them.
pub static SETTINGS: LazyLock<Vec<Setting>> = LazyLock::new(|| {
    DECLARED
        .get_arguments()
        .filter_map(|arg| {
            Some(Setting {
                key: arg.get_id().as_str(),
                var: arg.get_env()?.to_str()?,
                flag: arg.get_long()?,
            })
        })
        .collect()
});

/// The setting of a configuration key, if it has one.
pub fn by_key(key: &str) -> Option<&'static Setting> {
    SETTINGS.iter().find(|s| s.key == key)
}

/// The setting an environment variable sets, if any.
pub fn by_var(var: &str) -> Option<&'static Setting> {
    SETTINGS.iter().find(|s| s.var == var)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrecy_goes_by_the_keys_name() {
        assert_eq!(Secrecy::of("notify.webhook_secret"), Secrecy::Hidden);
        assert_eq!(Secrecy::of("server.metrics_token"), Secrecy::Hidden);
        assert_eq!(Secrecy::of("server.database_url"), Secrecy::Url);
        assert_eq!(Secrecy::of("site.social[0].url"), Secrecy::Public);
        assert_eq!(Secrecy::of("site.brand"), Secrecy::Public);
    }

    #[test]
    fn every_setting_has_a_flag_a_variable_and_a_key_of_the_configuration() {
        let defaults: toml::Table = super::super::DEFAULTS.parse().expect("site.toml");
        assert_eq!(
            SETTINGS.len(),
            DECLARED.get_arguments().count(),
            "every declared argument is a setting"
        );
        for s in SETTINGS.iter() {
            let (section, name) = s.key.split_once('.').expect("section.name");
            assert!(
                defaults.get(section).and_then(|t| t.get(name)).is_some(),
                "{} sets {}, which catalogue/site.toml does not have",
                s.var,
                s.key
            );
            assert_eq!(
                s.flag,
                s.var.to_lowercase().replace('_', "-"),
                "the flag is the variable in lower case"
            );
        }
        let mut vars: Vec<_> = SETTINGS.iter().map(|s| s.var).collect();
        vars.sort_unstable();
        vars.dedup();
        assert_eq!(vars.len(), SETTINGS.len(), "no variable twice");
        assert_eq!(by_var("LISTEN").map(|s| s.key), Some("server.listen"));
        assert_eq!(by_var("MAX_BODY_BYTES").map(|s| s.key), Some("api.max_body_bytes"));
        assert_eq!(by_key("notify.recipients").map(|s| s.flag), Some("notify-recipients"));
    }

    /// Every key of the defaults, a table's keys one by one except where the whole table is
    /// one setting (`site.service_phones`).
    fn keys_of_the_defaults() -> Vec<String> {
        let defaults: toml::Table = super::super::DEFAULTS.parse().expect("site.toml");
        let mut keys = Vec::new();
        for (section, table) in &defaults {
            let table = table.as_table().expect("each section of site.toml is a table");
            keys.extend(table.keys().map(|name| format!("{section}.{name}")));
        }
        keys
    }

    #[test]
    fn every_key_of_the_defaults_is_a_setting_or_file_only_with_its_reason() {
        let keys = keys_of_the_defaults();
        for key in &keys {
            let setting = by_key(key);
            let file_only = FILE_ONLY.iter().find(|(k, _)| k == key);
            match (setting, file_only) {
                (Some(_), None) => {}
                (None, Some((_, reason))) => assert!(reason.len() > 20, "{key}: say why it is file-only"),
                (Some(s), Some(_)) => panic!("{key} is both {} and listed as file-only", s.var),
                (None, None) => panic!(
                    "catalogue/site.toml has {key}, which no variable or flag sets: declare it in \
                     config/settings.rs, or list it in FILE_ONLY with the reason"
                ),
            }
        }
        for (key, _) in FILE_ONLY {
            assert!(
                keys.iter().any(|k| k == key),
                "FILE_ONLY lists {key}, which site.toml does not have"
            );
        }
        assert_eq!(keys.len(), SETTINGS.len() + FILE_ONLY.len(), "every key once");
    }

    #[test]
    fn every_setting_is_read_from_its_variable_and_from_its_flag() {
        use crate::config::{Config, Overrides, shown_settings};
        let defaults = Config::layers(None, &Overrides::default());
        let default_rows = shown_settings(&defaults).expect("defaults");
        for s in SETTINGS.iter() {
            // The default's own value, given again: valid whatever the key's type.
            let row = default_rows.iter().find(|r| r.key == s.key).expect("a row per setting");
            let value = match s.key {
                "notify.recipients" => "leads@x.example".to_string(),
                _ if row.value == "(empty)" => String::new(),
                _ => defaults.values()[s.key.split('.').next().expect("section")][&s.key[s.key.find('.').expect("dot") + 1..]]
                    .as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| row.value.clone()),
            };
            let from_env = Overrides::from_env_pairs(&[(s.var.to_string(), value.clone())]);
            let flag = format!("--{}", s.flag);
            let matches = Settings::augment_args(Command::new("site").no_binary_name(true))
                .try_get_matches_from([flag.as_str(), value.as_str()])
                .unwrap_or_else(|e| panic!("{flag}: {e}"));
            let from_flag = Overrides::from_matches(&matches);
            for (overrides, from) in [(from_env, format!("environment {}", s.var)), (from_flag, format!("flag {flag}"))] {
                let layers = Config::layers(None, &overrides);
                let rows = shown_settings(&layers).expect("rows");
                let row = rows.iter().find(|r| r.key == s.key).expect("its row");
                assert_eq!(row.from, from, "{}", s.key);
                Config::check(&layers).unwrap_or_else(|e| panic!("{} = {value:?}: {e:?}", s.key));
            }
        }
    }
}
