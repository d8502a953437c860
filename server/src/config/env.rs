//! The environment variables of `ENV_OVERRIDES` as a figment layer (the last one), whose
//! errors name the variable rather than the key.

use figment::value::{Dict, Map, Value};
use figment::{Metadata, Profile, Provider};

use super::ENV_OVERRIDES;

/// The variables of `ENV_OVERRIDES` that are set, as a figment layer. Every value is text,
/// except `NOTIFY_RECIPIENTS`: a comma-separated list.
pub(super) struct EnvOverrides(Vec<(&'static str, String)>);

impl EnvOverrides {
    pub(super) fn from_process() -> Self {
        Self(
            ENV_OVERRIDES
                .iter()
                .filter_map(|(var, key)| std::env::var(var).ok().map(|v| (*key, v)))
                .collect(),
        )
    }

    pub(super) fn from_pairs(pairs: &[(String, String)]) -> Self {
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
pub(super) const ENV_LAYER: &str = "environment variable";

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
