//! `site staff add EMAIL | disable EMAIL | unlock EMAIL | list`: staff accounts are made on
//! the command line only. The password is read from standard input (one line), never from an
//! argument, so it stays out of the shell history and the process list. `unlock` lifts a
//! sign-in lockout: it writes an audit line that every server reads at the account's next
//! refused attempt (the throttle forgets the attempts made before it).

use std::io::{BufRead, Write};

use clap::Subcommand;

use super::password::{MIN_PASSWORD_CHARS, hash_password};
use crate::store::{NewAudit, Store, UNLOCK_ACTION};

/// `site staff …`, as the command line parses it (in `cli.rs`).
#[derive(Debug, Clone, PartialEq, Eq, Subcommand)]
pub enum StaffCommand {
    /// Add an account; its password is read from standard input.
    ///
    /// The password (12 characters or more) is one line of standard input, never an
    /// argument: `site staff add EMAIL < password.txt`, or type it and press Enter.
    Add {
        /// The account's e-mail address (its sign-in name).
        email: String,
    },
    /// Disable an account; its sessions end at once.
    Disable {
        /// The account's e-mail address.
        email: String,
    },
    /// Lift an account's sign-in lockout, on every server.
    ///
    /// Failed sign-ins before now no longer count (a server applies it at the account's
    /// next attempt).
    Unlock {
        /// The account's e-mail address.
        email: String,
    },
    /// List the accounts: address, active or disabled, since when.
    List,
}

/// Runs one staff command against `store`. `input` gives the password for `add`; what the
/// command reports goes to `out`. The error is the message to print.
pub async fn run(command: &StaffCommand, store: &Store, input: &mut dyn BufRead, out: &mut dyn Write, now_ms: i64) -> Result<(), String> {
    match command {
        StaffCommand::Add { email } => {
            let email = checked_email(email)?;
            let mut line = String::new();
            input
                .read_line(&mut line)
                .map_err(|e| format!("cannot read the password from standard input: {e}"))?;
            let password = line.trim_end_matches(['\n', '\r']);
            if password.is_empty() {
                return Err(format!(
                    "give the password (at least {MIN_PASSWORD_CHARS} characters) on standard input, e.g. `site staff add {email} < password.txt`"
                ));
            }
            let hash = hash_password(password).map_err(|e| e.to_string())?;
            let id = store
                .add_staff(&email, &hash, now_ms)
                .await
                .map_err(|e| e.to_string())?
                .ok_or_else(|| format!("{email} already has a staff account"))?;
            let audit = NewAudit {
                staff_id: Some(id),
                action: "staff_add",
                target: Some(format!("staff:{id}")),
                ip: None,
                detail: Some("command line".into()),
            };
            store.audit(audit, now_ms).await.map_err(|e| e.to_string())?;
            writeln!(out, "added staff account {email} (id {id})").map_err(|e| e.to_string())
        }
        StaffCommand::Disable { email } => {
            let (email, id) = account(store, email).await?;
            if !store.disable_staff(&email, now_ms).await.map_err(|e| e.to_string())? {
                return Err(format!("{email} has no staff account"));
            }
            store
                .audit(command_line("staff_disable", id), now_ms)
                .await
                .map_err(|e| e.to_string())?;
            writeln!(out, "disabled {email}; its sessions have ended").map_err(|e| e.to_string())
        }
        StaffCommand::Unlock { email } => {
            let (email, id) = account(store, email).await?;
            store
                .audit(command_line(UNLOCK_ACTION, id), now_ms)
                .await
                .map_err(|e| e.to_string())?;
            writeln!(
                out,
                "unlocked {email}: failed sign-ins before now no longer count (a running server applies it at the next attempt)"
            )
            .map_err(|e| e.to_string())
        }
        StaffCommand::List => {
            let accounts = store.list_staff().await.map_err(|e| e.to_string())?;
            if accounts.is_empty() {
                writeln!(out, "no staff accounts yet: add one with `site staff add EMAIL`").map_err(|e| e.to_string())?;
            }
            for a in accounts {
                let state = if a.active { "active" } else { "disabled" };
                writeln!(out, "{}\t{state}\tsince {}", a.email, crate::time::human_utc(a.created_ms)).map_err(|e| e.to_string())?;
            }
            Ok(())
        }
    }
}

/// The address in lower case and the id of its staff account.
async fn account(store: &Store, email: &str) -> Result<(String, i64), String> {
    let email = checked_email(email)?;
    match store.staff_login(&email).await.map_err(|e| e.to_string())? {
        Some(account) => Ok((email, account.id)),
        None => Err(format!("{email} has no staff account")),
    }
}

/// The audit line of a command run on staff account `id`.
fn command_line(action: &'static str, id: i64) -> NewAudit {
    NewAudit {
        staff_id: None,
        action,
        target: Some(format!("staff:{id}")),
        ip: None,
        detail: Some("command line".into()),
    }
}

/// The address in lower case, when it looks like one.
fn checked_email(email: &str) -> Result<String, String> {
    let email = email.trim().to_lowercase();
    let ok = email.len() <= 254
        && !email.chars().any(|c| c.is_whitespace() || c.is_control())
        && email
            .split_once('@')
            .is_some_and(|(local, domain)| !local.is_empty() && !domain.contains('@') && domain.contains('.') && !domain.ends_with('.'));
    if ok {
        Ok(email)
    } else {
        Err(format!("{email:?} is not an e-mail address"))
    }
}
