//! Every configured value with the layer it came from, for `site config check`: secrets
//! hidden, URLs without their credentials (`urls::redact`).

use figment::value::{Dict, Value};
use figment::{Figment, Profile, Provider};

use super::settings;
use super::{ConfigError, Origin};

/// One value as `site config check` prints it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown {
    /// The dotted key: "server.listen", "site.service_phones.hvac", "site.social[0].url".
    pub key: String,
    /// The value as it may be printed.
    pub value: String,
    /// Where it came from: "default", "file /etc/site/site.toml", "environment LISTEN",
    /// "flag --listen".
    pub from: String,
}

/// Every value the layers hold, in key order, or why the layers cannot be read (a file
/// that is missing or not TOML).
pub fn shown_settings(layers: &Figment) -> Result<Vec<Shown>, ConfigError> {
    let data = layers.data().map_err(ConfigError::from)?;
    let mut rows = Vec::new();
    if let Some(root) = data.get(&Profile::Default) {
        walk(layers, root, "", &mut rows);
    }
    Ok(rows)
}

fn walk(layers: &Figment, dict: &Dict, prefix: &str, rows: &mut Vec<Shown>) {
    for (name, value) in dict {
        let key = if prefix.is_empty() {
            name.clone()
        } else {
            format!("{prefix}.{name}")
        };
        match value {
            // A secret given as a table is still a secret: one row, hidden.
            _ if Secrecy::of(&key) != Secrecy::Public => rows.push(row(layers, key, value)),
            Value::Dict(_, inner) => walk(layers, inner, &key, rows),
            Value::Array(_, items) if items.iter().any(|v| matches!(v, Value::Dict(..))) => {
                for (i, item) in items.iter().enumerate() {
                    let key = format!("{key}[{i}]");
                    match item {
                        Value::Dict(_, inner) => walk(layers, inner, &key, rows),
                        other => rows.push(row(layers, key, other)),
                    }
                }
            }
            other => rows.push(row(layers, key, other)),
        }
    }
}

fn row(layers: &Figment, key: String, value: &Value) -> Shown {
    let from = match layers.get_metadata(value.tag()) {
        Some(m) => match (m.source.as_ref().and_then(|s| s.file_path()), settings::by_key(&key)) {
            // A secret's own file: which variable named it, or that it is a credential.
            (Some(path), _) if super::overrides::is_secret_file_layer(&m.name) => {
                format!("file {} ({})", path.display(), m.name)
            }
            (Some(path), _) => format!("file {}", path.display()),
            (None, Some(setting)) if m.name == Origin::Environment.layer() => {
                format!("environment {}", Origin::Environment.name(setting))
            }
            (None, Some(setting)) if m.name == Origin::Flag.layer() => format!("flag {}", Origin::Flag.name(setting)),
            _ => "default".to_string(),
        },
        None => "default".to_string(),
    };
    Shown {
        value: shown(&key, value),
        key,
        from,
    }
}

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

/// The value as it may be printed: a secret only as set or empty, a `*_url` without its
/// credentials (and not at all when it is not text), a list as its items.
fn shown(key: &str, value: &Value) -> String {
    let text = |v: &Value| match v {
        Value::String(_, s) => s.clone(),
        other => serde_json::to_string(other).unwrap_or_default(),
    };
    match (Secrecy::of(key), value) {
        (_, Value::String(_, s)) if s.is_empty() => "(empty)".into(),
        (Secrecy::Hidden, _) => "(set, hidden)".into(),
        // A URL that may carry a password (database, SMTP, webhook); a public one as it is.
        (Secrecy::Url, Value::String(_, s)) => crate::urls::redact(s),
        (Secrecy::Url, _) => "(set, hidden: not text)".into(),
        (Secrecy::Public, Value::Array(_, items)) => format!("[{}]", items.iter().map(text).collect::<Vec<_>>().join(", ")),
        (Secrecy::Public, other) => text(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Config, Overrides};

    #[test]
    fn values_show_their_layer_and_never_a_secret() {
        let env = |pairs: &[(&str, &str)]| -> Vec<(String, String)> { pairs.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect() };
        let overrides = Overrides::from_env_pairs(&env(&[
            ("WEBHOOK_SECRET", "0123456789abcdef-secret"),
            ("DATABASE_URL", "postgres://site:hunter2@db.internal/site?sslmode=require"),
            ("NOTIFY_RECIPIENTS", "a@x.example, b@x.example"),
        ]));
        let rows = shown_settings(&Config::layers(None, &overrides)).expect("layers");
        let get = |key: &str| rows.iter().find(|r| r.key == key).unwrap_or_else(|| panic!("{key} in {rows:?}"));
        assert_eq!(get("notify.webhook_secret").value, "(set, hidden)");
        assert_eq!(get("notify.webhook_secret").from, "environment WEBHOOK_SECRET");
        assert_eq!(
            get("server.database_url").value,
            "postgres://site:…@db.internal/site?sslmode=require"
        );
        assert_eq!(get("notify.recipients").value, "[a@x.example, b@x.example]");
        assert_eq!(get("server.metrics_token").value, "(empty)");
        assert_eq!(get("server.listen").from, "default");
        assert_eq!(get("site.service_phones.hvac").value, "8005550142");
        assert_eq!(get("site.social[0].name").value, "Facebook");
        assert_eq!(get("render.pool_size").value, "0");
        assert!(!format!("{rows:?}").contains("hunter2") && !format!("{rows:?}").contains("abcdef-secret"));
    }

    #[test]
    fn secrecy_goes_by_the_keys_name() {
        assert_eq!(Secrecy::of("notify.webhook_secret"), Secrecy::Hidden);
        assert_eq!(Secrecy::of("server.metrics_token"), Secrecy::Hidden);
        assert_eq!(Secrecy::of("server.database_url"), Secrecy::Url);
        assert_eq!(Secrecy::of("site.social[0].url"), Secrecy::Public);
        assert_eq!(Secrecy::of("site.brand"), Secrecy::Public);
    }
}
