//! `site`'s command line, parsed by clap: the commands, their arguments, and every
//! environment variable the binary reads, each of them a flag too (the configuration's own
//! are declared in `config/settings.rs`). `site --help` and `site COMMAND --help` are
//! written from here; `main.rs` dispatches on what `parse` returns. A usage error exits 2.
//!
//! `VARIABLES` lists every variable `site` reads, with the key each sets; the settings are
//! accepted after any command. `staff` brings its subcommands, `store` the
//! `Outbox` that `site outbox retry` names.

use std::path::PathBuf;
use std::sync::LazyLock;

use clap::parser::ValueSource;
use clap::{ArgMatches, Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

use crate::config::{Overrides, Secrecy, Settings, settings};
use crate::staff::cli::StaffCommand;
use crate::store::Outbox;

const AFTER_HELP: &str = "\
Every setting is also an environment variable: `site --help` lists them, `site config check`
prints their values and where each came from.";

const AFTER_LONG_HELP: &str = "\
Each setting is read from, in order, the built-in defaults (catalogue/site.toml), the file of
--config, the environment, then the flags: the last one given wins. `site config check`
prints every value and where it came from. Keys without a variable (the business's details
and phone numbers, per-service recipients, social profiles, retention) are set in the file.

Exit status: 0 done; 1 the command failed; 2 a usage error, or an invalid configuration
found by `site config check`.";

/// The RingReady website: serves the site (the default), or runs an operator's command.
#[derive(Debug, Parser)]
#[command(name = "site", disable_version_flag = true, after_help = AFTER_HELP, after_long_help = AFTER_LONG_HELP)]
pub struct Cli {
    /// Print the version, the git commit, the schema versions and the SHA-256 of the
    /// embedded bundles.
    #[arg(short = 'V', long)]
    pub version: bool,
    #[command(flatten)]
    pub sources: Sources,
    #[command(flatten)]
    pub settings: Settings,
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// What the binary reads besides the configuration's keys.
#[derive(Debug, Clone, Args)]
pub struct Sources {
    /// A TOML file holding the configuration keys you change (the rest keep their defaults).
    #[arg(long, env = "SITE_CONFIG", value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Read the catalogue from DIR instead of the one built into the binary.
    #[arg(long, env = "CATALOGUE_DIR", value_name = "DIR")]
    pub catalogue: Option<PathBuf>,
    /// Where `config` came from, for `site config check`: "environment SITE_CONFIG" or
    /// "flag --config".
    #[arg(skip)]
    pub config_from: Option<String>,
    /// Where `catalogue` came from.
    #[arg(skip)]
    pub catalogue_from: Option<String>,
    /// The log's filter, such as info or info,site_server=debug (default: info, with the
    /// HTTP, SMTP and database clients at warn).
    #[arg(long = "log", env = "RUST_LOG", value_name = "FILTER")]
    pub log: Option<String>,
    /// text, or json: one JSON object a line, for log collectors.
    #[arg(long, env = "LOG_FORMAT", value_name = "FORMAT", value_enum, ignore_case = true, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    Text,
    Json,
}

#[derive(Debug, Clone, Subcommand)]
pub enum Command {
    /// Serve the site (what `site` does without a command).
    Serve,
    /// Check the configuration.
    #[command(subcommand)]
    Config(ConfigCommand),
    /// Copy the SQLite database to FILE while the site runs.
    ///
    /// The copy is checked (integrity_check), its rows counted per table and printed, and
    /// renamed to FILE only when complete. PostgreSQL is backed up with pg_dump.
    Backup {
        /// Where the copy goes; an existing file is never overwritten.
        file: PathBuf,
    },
    /// Put a backup in place of the SQLite database (the site stopped).
    ///
    /// Refused while a server holds the database. The backup is checked first; the database
    /// it replaces is kept beside it (site.db.replaced-<UTC time>).
    Restore {
        /// The backup to restore; it is checked before anything is replaced.
        file: PathBuf,
    },
    /// Copy the site from SQLite into an empty PostgreSQL database (the site stopped).
    ///
    /// Every table is copied, then its row count and content hash are compared on both
    /// sides; any difference is an error.
    CopyStore {
        /// The SQLite database (default: the one DATABASE_URL names).
        #[arg(long, value_name = "sqlite://PATH")]
        from: Option<String>,
        /// The PostgreSQL database to fill; it must hold no rows.
        #[arg(long, value_name = "postgres://…")]
        to: String,
    },
    /// Notifications that were given up (marked failed): list them, send them again.
    #[command(subcommand)]
    Outbox(OutboxCommand),
    /// The staff console's accounts (made on the command line only).
    #[command(subcommand)]
    Staff(StaffCommand),
    /// Add synthetic leads to the database: for the benchmarks (bench/), never a real site.
    ///
    /// Lead i (from 0) is `<id-prefix>-<i, 8 digits>`, arrived `newest-ms - i * spacing-ms`,
    /// asks about one of the catalogue's services in turn, with a generated name and the phone
    /// +1412 followed by 2000000 + i (the shape is in server/src/store/seed.rs). One transaction,
    /// through the tables' triggers; prints how many leads and notifications were added.
    #[command(hide = true)]
    Seed {
        /// How many leads (1 to 7,999,999).
        #[arg(long, value_name = "N")]
        leads: i64,
        /// When the newest lead arrived, in ms since 1970 (default: now).
        #[arg(long, value_name = "MS")]
        newest_ms: Option<i64>,
        /// Between one lead and the next older one, in ms.
        #[arg(long, value_name = "MS", default_value_t = 30_000)]
        spacing_ms: i64,
        /// The start of every lead's id.
        #[arg(long, value_name = "PREFIX", default_value = "seed")]
        id_prefix: String,
        /// Also an e-mail notification for most leads, delivered or given up, with its
        /// delivery attempt (the leads' delivery status to match).
        #[arg(long)]
        notifications: bool,
    },
}

#[derive(Debug, Clone, Subcommand)]
pub enum ConfigCommand {
    /// Check the whole configuration as `site serve` would, and print every setting.
    ///
    /// Reads the defaults, the file, the environment and the flags, checks every value, then
    /// builds the catalogue, the pages and the notification channels' senders; it listens
    /// nowhere and opens no database. Prints each setting, its value (secrets hidden, URLs
    /// without credentials) and where it came from. Exits 0 when the configuration is
    /// valid, 2 with every problem found when it is not.
    Check,
}

#[derive(Debug, Clone, Subcommand)]
pub enum OutboxCommand {
    /// List the failed notifications, or (with --all or an id) send them again.
    ///
    /// Sending again makes them pending: a running server sends them within seconds.
    Retry {
        /// Every failed notification, of both outboxes.
        #[arg(long, conflicts_with = "id")]
        all: bool,
        /// One notification: an id of the leads' outbox, or mail:ID of the submission
        /// e-mails' (as the list shows them).
        #[arg(value_name = "ID", value_parser = outbox_id)]
        id: Option<OutboxId>,
    },
}

/// One row of an outbox, as `site outbox retry` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutboxId {
    pub outbox: Outbox,
    pub id: i64,
}

fn outbox_id(text: &str) -> Result<OutboxId, String> {
    let (outbox, number) = match text.strip_prefix("mail:") {
        Some(n) => (Outbox::Mail, n),
        None => (Outbox::Leads, text),
    };
    let id = number.parse().map_err(|_| "not an outbox id (ID, or mail:ID)".to_string())?;
    Ok(OutboxId { outbox, id })
}

/// The command line as clap reads it: every argument's environment value hidden from the
/// help (it may be a secret), and the configuration and settings accepted after any
/// command too (`site backup --database-url … FILE`), listed by `--help` but not by `-h`.
/// A setting that is or may carry a secret takes the next word as its value whatever it
/// starts with: `--webhook-secret --x…` is the secret, not an unknown option that clap's
/// error would print.
pub fn command() -> clap::Command {
    Cli::command().mut_args(|arg| {
        let shared = settings::by_key(arg.get_id().as_str()).is_some();
        let source = arg.get_env().is_some();
        let secret = shared && Secrecy::of(arg.get_id().as_str()) != Secrecy::Public;
        arg.hide_env_values(true)
            .global(source)
            .hide_short_help(shared)
            .allow_hyphen_values(secret)
    })
}

/// The command line parsed, with the settings it gave (flags and environment). On a usage
/// error, prints it and exits 2; on --help, prints the help and exits 0.
pub fn parse() -> (Cli, Overrides) {
    match parse_from(std::env::args_os()) {
        Ok(parsed) => parsed,
        Err(e) => e.exit(),
    }
}

/// `parse` over given arguments (the first is the program's name); the error is clap's.
pub fn parse_from<I, T>(args: I) -> Result<(Cli, Overrides), clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let matches: ArgMatches = command().try_get_matches_from(args)?;
    let mut cli = Cli::from_arg_matches(&matches).map_err(|e| e.format(&mut command()))?;
    let declared = command();
    let from = |id: &str| {
        let arg = declared.get_arguments().find(|a| a.get_id() == id)?;
        match matches.value_source(id)? {
            ValueSource::CommandLine => Some(format!("flag --{}", arg.get_long()?)),
            ValueSource::EnvVariable => Some(format!("environment {}", arg.get_env()?.to_string_lossy())),
            _ => None,
        }
    };
    cli.sources.config_from = from("config");
    cli.sources.catalogue_from = from("catalogue");
    // The secrets kept in files (`<VAR>_FILE`, systemd's credentials) are read from the real
    // environment: clap knows only the variables themselves.
    let overrides = Overrides::from_matches(&matches).with_secret_files(|name| std::env::var(name).ok());
    Ok((cli, overrides))
}

/// Every environment variable `site` reads, with the configuration key it sets (None for
/// `SITE_CONFIG`, `CATALOGUE_DIR`, `RUST_LOG` and `LOG_FORMAT`).
pub static VARIABLES: LazyLock<Vec<(String, Option<&'static str>)>> = LazyLock::new(|| {
    command()
        .get_arguments()
        .filter_map(|arg| {
            let var = arg.get_env()?.to_string_lossy().into_owned();
            Some((var.clone(), settings::by_var(&var).map(|s| s.key)))
        })
        .collect()
});
