//! The settings given as environment variables and as flags (`settings.rs`), as the last two
//! layers (flags above the environment), whose errors name the variable or the flag; below
//! them, the secrets read from files (`<VAR>_FILE`, and systemd's credentials:
//! docs/decisions/005-configuration-layers.md).

use std::path::{Path, PathBuf};

use clap::ArgMatches;
use clap::parser::ValueSource;
use toml::Value;

use super::ConfigError;
use super::layers::{Layers, Source};
use super::settings::{self, SETTINGS, Setting};

/// Where an override came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    Environment,
    Flag,
}

/// The settings that may hold a secret (a password in a URL, a token, a signing key). Each
/// is also read from the file its variable's `_FILE` twin names (`DATABASE_URL_FILE`), and
/// from the systemd credential named as its variable in lower case (`database_url` in
/// `$CREDENTIALS_DIRECTORY`, which `LoadCredential=` fills).
pub const SECRET_KEYS: [&str; 5] = [
    "server.database_url",
    "server.metrics_token",
    "notify.smtp_url",
    "notify.webhook_url",
    "notify.webhook_secret",
];

/// The most a secret file may hold: a secret is a line, not a file someone named by mistake.
const MAX_SECRET_BYTES: u64 = 64 * 1024;

/// How a secret file was named.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileVia {
    /// By `<VAR>_FILE`.
    Variable,
    /// By its name in systemd's credentials directory (`$CREDENTIALS_DIRECTORY`).
    Credential,
}

/// A secret read from a file, or why it could not be (the message names the variable and
/// the path, never any of the content).
#[derive(Debug, Clone)]
struct SecretFile {
    setting: &'static Setting,
    via: FileVia,
    path: PathBuf,
    read: Result<String, String>,
}

/// The settings given, each with its origin, and the secrets read from files. Empty: the
/// defaults and the file alone.
#[derive(Debug, Clone, Default)]
pub struct Overrides(Vec<(Origin, &'static Setting, String)>, Vec<SecretFile>);

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
            Vec::new(),
        )
    }

    /// `(VARIABLE, value)` pairs as if they were the environment (tests, and the example
    /// environment file's check), `<VAR>_FILE` and `CREDENTIALS_DIRECTORY` included; a name
    /// that is no setting's variable is ignored.
    pub fn from_env_pairs(pairs: &[(String, String)]) -> Self {
        Self(
            pairs
                .iter()
                .filter_map(|(var, value)| Some((Origin::Environment, settings::by_var(var)?, value.clone())))
                .collect(),
            Vec::new(),
        )
        .with_secret_files(|name| pairs.iter().find(|(var, _)| var == name).map(|(_, v)| v.clone()))
    }

    /// Reads the secrets kept in files: for each of [`SECRET_KEYS`], the file `<VAR>_FILE`
    /// names (`var` reads the environment), and the credential of its name in
    /// `CREDENTIALS_DIRECTORY` when there is one. A variable set beside its `_FILE` twin is
    /// a problem (which one was meant?), as is a file that cannot be read; both surface when
    /// the configuration is read.
    pub fn with_secret_files(mut self, var: impl Fn(&str) -> Option<String>) -> Self {
        let credentials = var("CREDENTIALS_DIRECTORY").filter(|d| !d.is_empty()).map(PathBuf::from);
        for key in SECRET_KEYS {
            let Some(setting) = settings::by_key(key) else { continue };
            let file_var = format!("{}_FILE", setting.var);
            if let Some(path) = var(&file_var).filter(|p| !p.is_empty()) {
                let in_env = self.0.iter().any(|(o, s, _)| *o == Origin::Environment && s.key == key);
                let read = if in_env {
                    Err(format!("{} and {file_var} are both set: set one of them", setting.var))
                } else {
                    read_secret(Path::new(&path)).map_err(|e| format!("{file_var}={path}: cannot read it: {e}"))
                };
                self.1.push(SecretFile {
                    setting,
                    via: FileVia::Variable,
                    path: path.into(),
                    read,
                });
            }
            if let Some(dir) = &credentials {
                let path = dir.join(setting.var.to_ascii_lowercase());
                if std::fs::symlink_metadata(&path).is_ok() {
                    let read = read_secret(&path).map_err(|e| format!("credential {}: cannot read it: {e}", path.display()));
                    self.1.push(SecretFile {
                        setting,
                        via: FileVia::Credential,
                        path,
                        read,
                    });
                }
            }
        }
        self
    }

    /// The secrets' files (systemd's credentials, then `<VAR>_FILE`), the environment, then
    /// the flags, merged on top of `layers`: each later one wins.
    pub(super) fn apply(&self, layers: &mut Layers) {
        for via in [FileVia::Credential, FileVia::Variable] {
            for file in self.1.iter().filter(|f| f.via == via) {
                match &file.read {
                    Ok(value) => {
                        let via = match file.via {
                            FileVia::Variable => format!("{}_FILE", file.setting.var),
                            FileVia::Credential => "credential".to_string(),
                        };
                        let source = Source::SecretFile {
                            path: file.path.clone(),
                            via,
                        };
                        layers.set(file.setting.key, Value::String(value.clone()), source);
                    }
                    Err(message) => layers.refuse(ConfigError::Invalid(message.clone())),
                }
            }
        }
        for origin in [Origin::Environment, Origin::Flag] {
            for (_, setting, raw) in self.0.iter().filter(|(o, _, _)| *o == origin) {
                let source = match origin {
                    Origin::Environment => Source::Environment(setting),
                    Origin::Flag => Source::Flag(setting),
                };
                layers.set(setting.key, value_of(setting, raw), source);
            }
        }
    }
}

/// A variable's or a flag's value: text (read as its key's type when the layers are
/// extracted), except `notify.recipients`, a comma-separated list.
fn value_of(setting: &Setting, raw: &str) -> Value {
    if setting.key == "notify.recipients" {
        Value::Array(
            raw.split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(|s| Value::String(s.to_string()))
                .collect(),
        )
    } else {
        Value::String(raw.to_string())
    }
}

/// A secret file's content, without its trailing line breaks: at most
/// [`MAX_SECRET_BYTES`], UTF-8. The error never quotes the content.
fn read_secret(path: &Path) -> Result<String, String> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let mut bytes = Vec::new();
    file.take(MAX_SECRET_BYTES + 1).read_to_end(&mut bytes).map_err(|e| e.to_string())?;
    if bytes.len() as u64 > MAX_SECRET_BYTES {
        return Err(format!("it holds more than {MAX_SECRET_BYTES} bytes, more than a secret"));
    }
    let text = String::from_utf8(bytes).map_err(|_| "it is not UTF-8 text".to_string())?;
    Ok(text.trim_end_matches(['\n', '\r']).to_string())
}
