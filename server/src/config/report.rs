//! Every configured value with the layer it came from, for `site config check`: secrets
//! hidden, URLs without their credentials (`urls::redact`).

use toml::{Table, Value};

use super::ConfigError;
use super::layers::Layers;
use super::settings::Secrecy;

/// One value as `site config check` prints it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown {
    /// The dotted key: "server.listen", "site.service_phones.hvac", "site.social[0].url".
    pub key: String,
    /// The value as it may be printed.
    pub value: String,
    /// Where it came from: "default", "file /etc/site/site.toml", "environment LISTEN",
    /// "flag --listen", "file PATH (WEBHOOK_SECRET_FILE)", "file PATH (credential)".
    pub from: String,
}

/// Every value the layers hold, in key order, or why the layers cannot be read (a file
/// that is missing or not TOML, a secret's file).
pub fn shown_settings(layers: &Layers) -> Result<Vec<Shown>, ConfigError> {
    if let Some(problem) = layers.unreadable() {
        return Err(problem.clone());
    }
    let mut rows = Vec::new();
    walk(layers, layers.values(), "", &mut rows);
    rows.sort_by(|a, b| a.key.cmp(&b.key));
    Ok(rows)
}

fn walk(layers: &Layers, table: &Table, prefix: &str, rows: &mut Vec<Shown>) {
    for (name, value) in table {
        let key = if prefix.is_empty() {
            name.clone()
        } else {
            format!("{prefix}.{name}")
        };
        match value {
            // A secret given as a table is still a secret: one row, hidden.
            _ if Secrecy::of(&key) != Secrecy::Public => rows.push(row(layers, key, value)),
            Value::Table(inner) => walk(layers, inner, &key, rows),
            Value::Array(items) if items.iter().any(Value::is_table) => {
                for (i, item) in items.iter().enumerate() {
                    let key = format!("{key}[{i}]");
                    match item {
                        Value::Table(inner) => walk(layers, inner, &key, rows),
                        other => rows.push(row(layers, key, other)),
                    }
                }
            }
            other => rows.push(row(layers, key, other)),
        }
    }
}

fn row(layers: &Layers, key: String, value: &Value) -> Shown {
    Shown {
        value: shown(&key, value),
        from: layers.source_of(&key).shown(),
        key,
    }
}

/// The value as it may be printed: a secret only as set or empty, a `*_url` without its
/// credentials (and not at all when it is not text), a list as its items.
fn shown(key: &str, value: &Value) -> String {
    let text = |v: &Value| match v {
        Value::String(s) => s.clone(),
        other => serde_json::to_string(other).unwrap_or_default(),
    };
    match (Secrecy::of(key), value) {
        (_, Value::String(s)) if s.is_empty() => "(empty)".into(),
        (Secrecy::Hidden, _) => "(set, hidden)".into(),
        // A URL that may carry a password (database, SMTP, webhook); a public one as it is.
        (Secrecy::Url, Value::String(s)) => crate::urls::redact(s),
        (Secrecy::Url, _) => "(set, hidden: not text)".into(),
        (Secrecy::Public, Value::Array(items)) => format!("[{}]", items.iter().map(text).collect::<Vec<_>>().join(", ")),
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
}
