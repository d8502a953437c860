//! The configuration's layers, merged by hand (docs/decisions/005-configuration-layers.md):
//! the defaults (`catalogue/site.toml`), the `--config` file, the secrets' files, the
//! environment, the flags, each above the one before. A table merges key by key; any other
//! value (a list included) replaces the one below. Every value keeps the layer it came from,
//! so an error and `site config check` can say where to look.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use toml::{Table, Value};

use super::settings::{Secrecy, Setting};
use super::{Config, ConfigError};

/// The layer a value came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// `catalogue/site.toml`, built into the binary.
    Default,
    /// A table given in code (`Config::build`).
    Given,
    /// The `--config` file.
    File(PathBuf),
    /// A secret's own file; `via` is the variable that named it (`WEBHOOK_SECRET_FILE`) or
    /// `credential` (systemd's `$CREDENTIALS_DIRECTORY`).
    SecretFile {
        path: PathBuf,
        via: String,
    },
    Environment(&'static Setting),
    Flag(&'static Setting),
}

impl Source {
    /// As `site config check` names it: "default", "file PATH", "environment VAR", "flag --name".
    pub fn shown(&self) -> String {
        match self {
            Source::Default => "default".into(),
            Source::Given => "given".into(),
            Source::File(path) => format!("file {}", path.display()),
            Source::SecretFile { path, via } => format!("file {} ({via})", path.display()),
            Source::Environment(s) => format!("environment {}", s.var),
            Source::Flag(s) => format!("flag --{}", s.flag),
        }
    }

    /// What an error about a value from here adds: where to look.
    fn suffix(&self) -> String {
        match self {
            Source::Default | Source::Given => String::new(),
            Source::File(path) | Source::SecretFile { path, .. } => format!(" (in {})", path.display()),
            Source::Environment(s) => format!(" (from {})", s.var),
            Source::Flag(s) => format!(" (from --{})", s.flag),
        }
    }
}

/// The layers merged so far: the values, where each came from (by dotted key; a key not
/// listed has its nearest listed parent's layer), and what could not be read.
#[derive(Debug, Clone)]
pub struct Layers {
    defaults: Table,
    values: Table,
    sources: BTreeMap<String, Source>,
    unreadable: Vec<ConfigError>,
}

impl Layers {
    /// The built-in defaults alone.
    pub(super) fn defaults() -> Self {
        let (defaults, unreadable) = match super::DEFAULTS.parse::<Table>() {
            Ok(table) => (table, Vec::new()),
            Err(e) => (Table::new(), vec![ConfigError::Invalid(format!("the built-in defaults: {e}"))]),
        };
        Self {
            values: defaults.clone(),
            defaults,
            sources: BTreeMap::new(),
            unreadable,
        }
    }

    /// `table` merged on top, every value of it from `source`.
    pub(super) fn merge(&mut self, table: Table, source: &Source) {
        merge(&mut self.values, table, "", source, &mut self.sources);
    }

    /// The TOML file at `path` merged on top, or why it cannot be (missing, not TOML).
    pub(super) fn merge_file(&mut self, path: &Path) {
        let problem = |message: String| ConfigError::File {
            path: path.display().to_string(),
            message,
        };
        match std::fs::read_to_string(path) {
            Ok(text) => match text.parse::<Table>() {
                Ok(table) => self.merge(table, &Source::File(path.to_path_buf())),
                Err(e) => self.unreadable.push(problem(unquoted(&e.to_string()))),
            },
            Err(e) => self.unreadable.push(problem(e.to_string())),
        }
    }

    /// One value at its dotted `key` (`server.listen`), from `source`.
    pub(super) fn set(&mut self, key: &str, value: Value, source: Source) {
        let mut table = Table::new();
        let mut path: Vec<&str> = key.split('.').collect();
        let last = path.pop().unwrap_or(key);
        table.insert(last.to_string(), value);
        for name in path.into_iter().rev() {
            let mut outer = Table::new();
            outer.insert(name.to_string(), Value::Table(table));
            table = outer;
        }
        self.merge(table, &source);
    }

    /// A layer that could not be read (a secret's file): reported, and the load fails.
    pub(super) fn refuse(&mut self, problem: ConfigError) {
        self.unreadable.push(problem);
    }

    /// The merged values, as the layers gave them (environment values still text).
    pub fn values(&self) -> &Table {
        &self.values
    }

    /// The first layer that could not be read, if any.
    pub fn unreadable(&self) -> Option<&ConfigError> {
        self.unreadable.first()
    }

    /// Where the value at `key` came from: its own layer, or its nearest parent's.
    pub fn source_of(&self, key: &str) -> &Source {
        let mut key = key;
        loop {
            if let Some(source) = self.sources.get(key) {
                return source;
            }
            match key.rfind(['.', '[']) {
                Some(i) => key = &key[..i],
                None => return &Source::Default,
            }
        }
    }

    /// The typed `Config`, or every layer that could not be read, or the first value that
    /// does not have its key's type. Text is read as the number or the switch the key's
    /// default is ("4", "on"): environment values and flags are all text.
    pub(super) fn extract(&self) -> Result<Config, Vec<ConfigError>> {
        if !self.unreadable.is_empty() {
            return Err(self.unreadable.clone());
        }
        let mut typed = self.values.clone();
        coerce(&mut typed, &self.defaults);
        serde_path_to_error::deserialize(Value::Table(typed.clone())).map_err(|e| {
            let path = e.path().to_string();
            let message = e.into_inner().message().trim().replace('\n', " ");
            vec![self.type_error(&typed, &path, message)]
        })
    }

    /// A serde error at `path` as ours: the key in full (an unknown key named, not only its
    /// table), a secret's value never quoted, and the layer it came from.
    fn type_error(&self, typed: &Table, path: &str, message: String) -> ConfigError {
        let unknown = message.strip_prefix("unknown field `").and_then(|rest| rest.split('`').next());
        let key = match (path, unknown) {
            (".", Some(name)) => name.to_string(),
            (_, Some(name)) if path != name && !path.ends_with(&format!(".{name}")) => format!("{path}.{name}"),
            (".", None) => return ConfigError::Invalid(message),
            _ => path.to_string(),
        };
        let message = match (Secrecy::of(&key), value_at(typed, &key)) {
            (Secrecy::Public, _) | (_, None) => message,
            (_, Some(value)) => format!("invalid type: found {}, expected text", kind(value)),
        };
        let suffix = self.source_of(&key).suffix();
        ConfigError::Key {
            key,
            message: format!("{message}{suffix}"),
        }
    }
}

/// `from` merged into `into` (at `prefix`): tables key by key, anything else replacing.
fn merge(into: &mut Table, from: Table, prefix: &str, source: &Source, sources: &mut BTreeMap<String, Source>) {
    for (name, value) in from {
        let key = if prefix.is_empty() {
            name.clone()
        } else {
            format!("{prefix}.{name}")
        };
        match (into.get_mut(&name), value) {
            (Some(Value::Table(inner)), Value::Table(table)) => merge(inner, table, &key, source, sources),
            (_, value) => {
                // What it replaces, and its layers, are gone.
                sources.retain(|k, _| !(k == &key || k.strip_prefix(key.as_str()).is_some_and(|rest| rest.starts_with(['.', '[']))));
                sources.insert(key, source.clone());
                into.insert(name, value);
            }
        }
    }
}

/// Text where the default is a number or a switch, read as one when it reads as one
/// (otherwise left as text, for serde to refuse with the key named).
fn coerce(values: &mut Table, defaults: &Table) {
    for (name, value) in values.iter_mut() {
        let replacement = match (&mut *value, defaults.get(name)) {
            (Value::Table(inner), Some(Value::Table(d))) => {
                coerce(inner, d);
                None
            }
            (Value::String(s), Some(Value::Integer(_))) => s.trim().parse::<i64>().ok().map(Value::Integer),
            (Value::String(s), Some(Value::Boolean(_))) => switch(s.trim()).map(Value::Boolean),
            _ => None,
        };
        if let Some(v) = replacement {
            *value = v;
        }
    }
}

/// "true", "yes", "on", "1" and their opposites, in any case.
fn switch(text: &str) -> Option<bool> {
    let is = |words: [&str; 4]| words.iter().any(|w| text.eq_ignore_ascii_case(w));
    if is(["true", "yes", "on", "1"]) {
        Some(true)
    } else if is(["false", "no", "off", "0"]) {
        Some(false)
    } else {
        None
    }
}

/// The value at a dotted key (`site.social[0].url`), if there is one.
fn value_at<'a>(table: &'a Table, key: &str) -> Option<&'a Value> {
    let mut parts = key.split('.');
    let mut value = table.get(parts.next()?.split('[').next()?)?;
    let mut first = key.split('.').next()?;
    loop {
        // Indices after the name: social[0][1].
        for index in first.split('[').skip(1) {
            let i: usize = index.trim_end_matches(']').parse().ok()?;
            value = value.as_array()?.get(i)?;
        }
        let Some(part) = parts.next() else { return Some(value) };
        value = value.as_table()?.get(part.split('[').next()?)?;
        first = part;
    }
}

/// What a value is, without the value: a secret's error must not quote it.
fn kind(value: &Value) -> &'static str {
    match value {
        Value::Boolean(_) => "a boolean",
        Value::Integer(_) => "an integer (put the value in quotes)",
        Value::Float(_) => "a number (put the value in quotes)",
        Value::String(_) | Value::Datetime(_) => "text",
        Value::Array(_) => "a list",
        Value::Table(_) => "a table",
    }
}

/// A file's parse error without what it quotes from the file, the lines and any value in
/// backticks (an unquoted `database_url`, a secret too large for an integer): either may be
/// a secret, and the line and column numbers say where it is. Punctuation the parser
/// expected (`` `]` ``) stays.
fn unquoted(message: &str) -> String {
    let lines = message
        .lines()
        .map(str::trim)
        .filter(|line| {
            let after_number = line.trim_start_matches(|c: char| c.is_ascii_digit()).trim_start();
            !line.is_empty() && !after_number.starts_with('|')
        })
        .collect::<Vec<_>>()
        .join(" ");
    lines
        .split('`')
        .enumerate()
        .map(|(i, part)| {
            if i % 2 == 0 {
                part.to_string()
            } else if part.chars().any(char::is_alphanumeric) {
                "`…`".to_string()
            } else {
                format!("`{part}`")
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_merge_key_by_key_and_lists_replace() {
        let mut layers = Layers::defaults();
        let file: Table = "[site]\nbrand = \"CallDesk\"\nsocial = []\n[site.service_phones]\nroofing = \"8005550199\""
            .parse()
            .expect("toml");
        layers.merge(file, &Source::File("site.toml".into()));
        let site = layers.values()["site"].as_table().expect("site");
        assert_eq!(site["brand"].as_str(), Some("CallDesk"));
        assert_eq!(site["info_email"].as_str(), Some("info@ringready.example"), "the rest stays");
        assert_eq!(site["social"].as_array().map(Vec::len), Some(0), "a list is replaced");
        let phones = site["service_phones"].as_table().expect("phones");
        assert!(phones.contains_key("hvac") && phones.contains_key("roofing"), "{phones:?}");
        assert_eq!(layers.source_of("site.brand"), &Source::File("site.toml".into()));
        assert_eq!(layers.source_of("site.service_phones.hvac"), &Source::Default);
        assert_eq!(layers.source_of("site.service_phones.roofing"), &Source::File("site.toml".into()));
        assert_eq!(layers.source_of("site.social[0].url"), &Source::File("site.toml".into()));
        assert_eq!(layers.source_of("server.listen"), &Source::Default);
    }

    #[test]
    fn text_is_read_as_the_defaults_type_only_when_it_reads_as_one() {
        let mut values: Table = "[render]\npool_size = \" 4\"\nnoscript_variants = \"ON\"\n[tracking]\npixel_id = \"123\"\n[server]\ntrust_forwarded_for = \"maybe\""
            .parse()
            .expect("toml");
        let defaults: Table = super::super::DEFAULTS.parse().expect("defaults");
        coerce(&mut values, &defaults);
        assert_eq!(values["render"]["pool_size"].as_integer(), Some(4));
        assert_eq!(values["render"]["noscript_variants"].as_bool(), Some(true));
        assert_eq!(values["tracking"]["pixel_id"].as_str(), Some("123"), "text stays text");
        assert_eq!(values["server"]["trust_forwarded_for"].as_str(), Some("maybe"));
    }

    #[test]
    fn a_files_parse_error_quotes_nothing_from_it() {
        let e = "[server]\nmetrics_token = 98765432109876543210\n"
            .parse::<Table>()
            .expect_err("too large");
        let message = unquoted(&e.to_string());
        assert!(message.contains("line 2") && !message.contains("98765"), "{message}");
        let e = "[render\n".parse::<Table>().expect_err("not TOML");
        let message = unquoted(&e.to_string());
        assert!(message.contains("line 1") && !message.contains("[render"), "{message}");
    }

    #[test]
    fn a_value_is_found_by_its_dotted_key() {
        let values: Table = super::super::DEFAULTS.parse().expect("defaults");
        assert_eq!(value_at(&values, "site.social[1].name").and_then(Value::as_str), Some("LinkedIn"));
        assert_eq!(value_at(&values, "server.listen").and_then(Value::as_str), Some("127.0.0.1:8080"));
        assert!(value_at(&values, "site.social[9].name").is_none());
        assert!(value_at(&values, "nothing.here").is_none());
    }
}
