//! The settings given as environment variables and as flags (`settings.rs`), as the last two
//! figment layers (flags above the environment), whose errors name the variable or the flag
//! rather than the key.

use clap::ArgMatches;
use clap::parser::ValueSource;
use figment::value::{Dict, Map, Value};
use figment::{Figment, Metadata, Profile, Provider};

use super::settings::{self, SETTINGS, Setting};

/// Where an override came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    Environment,
    Flag,
}

impl Origin {
    /// The name figment gives the layer (in errors, and in `site config check`).
    pub const fn layer(self) -> &'static str {
        match self {
            Origin::Environment => "environment variable",
            Origin::Flag => "command-line flag",
        }
    }

    /// How this origin names a setting: its variable, or its flag.
    pub fn name(self, setting: &Setting) -> String {
        match self {
            Origin::Environment => setting.var.to_string(),
            Origin::Flag => format!("--{}", setting.flag),
        }
    }
}

/// The settings given, each with its origin. Empty: the defaults and the file alone.
#[derive(Debug, Clone, Default)]
pub struct Overrides(Vec<(Origin, &'static Setting, String)>);

impl Overrides {
    /// What the command line parsed: every setting clap found as a flag or in the environment.
    pub fn from_matches(matches: &ArgMatches) -> Self {
        Self(
            SETTINGS
                .iter()
                .filter_map(|s| {
                    let origin = match matches.value_source(s.key)? {
                        ValueSource::CommandLine => Origin::Flag,
                        ValueSource::EnvVariable => Origin::Environment,
                        _ => return None,
                    };
                    let value = matches.get_one::<String>(s.key)?;
                    Some((origin, s, value.clone()))
                })
                .collect(),
        )
    }

    /// `(VARIABLE, value)` pairs as if they were the environment (tests, and the example
    /// environment file's check); a name that is no setting's variable is ignored.
    pub fn from_env_pairs(pairs: &[(String, String)]) -> Self {
        Self(
            pairs
                .iter()
                .filter_map(|(var, value)| Some((Origin::Environment, settings::by_var(var)?, value.clone())))
                .collect(),
        )
    }

    /// `layers` with the environment, then the flags, merged on top.
    pub(super) fn merge_into(&self, layers: Figment) -> Figment {
        layers.merge(self.layer(Origin::Environment)).merge(self.layer(Origin::Flag))
    }

    fn layer(&self, origin: Origin) -> Layer {
        Layer {
            origin,
            values: self
                .0
                .iter()
                .filter(|(o, _, _)| *o == origin)
                .map(|(_, s, v)| (*s, v.clone()))
                .collect(),
        }
    }
}

/// One origin's overrides as a figment provider. Every value is text, except
/// `notify.recipients`: a comma-separated list.
struct Layer {
    origin: Origin,
    values: Vec<(&'static Setting, String)>,
}

impl Provider for Layer {
    fn metadata(&self) -> Metadata {
        let origin = self.origin;
        // Errors name the variable or the flag, not the key path.
        Metadata::named(origin.layer()).interpolater(move |_: &Profile, path: &[&str]| {
            let key = path.join(".");
            match settings::by_key(&key) {
                Some(setting) => origin.name(setting),
                None => key,
            }
        })
    }

    fn data(&self) -> Result<Map<Profile, Dict>, figment::Error> {
        let mut dict = Dict::new();
        for (setting, raw) in &self.values {
            let value = if setting.key == "notify.recipients" {
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
            insert(&mut dict, setting.key, value);
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
