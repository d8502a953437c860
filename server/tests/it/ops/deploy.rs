//! deploy/: the example environment file names every variable the server reads with its
//! default (so it cannot drift from the configuration), the systemd unit passes
//! `systemd-analyze verify` and the Caddy file `caddy validate` when those tools are
//! installed (Debian: systemd, caddy), and the three agree with each other.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;

use site_server::admin::links::{LOGIN_PATH, LOGOUT_PATH};
use site_server::api::account_requests::ACCOUNT_REQUESTS_PATH;
use site_server::api::campaign_applications::APPLICATIONS_PATH;
use site_server::api::record_token::RECORD_TOKEN_PATH;
use site_server::api::submit_lead::SUBMIT_LEAD_PATH;
use site_server::cli::VARIABLES;
use site_server::config::Config;

fn deploy(file: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../deploy").join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `# NAME (key), default: VALUE. more` lines: NAME → VALUE.
fn documented_defaults(env: &str) -> BTreeMap<String, String> {
    env.lines()
        .filter_map(|l| l.strip_prefix("# "))
        .filter_map(|l| {
            let (head, rest) = l.split_once("default: ")?;
            let name = head.split([' ', ',']).next()?;
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_uppercase() || c == '_') {
                return None;
            }
            let value = rest.split(". ").next().unwrap_or(rest).trim_end_matches('.');
            let value = if value.starts_with("(empty") {
                ""
            } else {
                value.split(" (").next().unwrap_or(value)
            };
            Some((name.to_string(), value.to_string()))
        })
        .collect()
}

/// `NAME=value` and `#NAME=value` lines: (NAME, value, active).
fn assignments(env: &str) -> Vec<(String, String, bool)> {
    env.lines()
        .filter_map(|l| {
            let (active, l) = match l.strip_prefix('#') {
                Some(rest) => (false, rest),
                None => (true, l),
            };
            let (name, value) = l.split_once('=')?;
            (!name.is_empty() && name.chars().all(|c| c.is_ascii_uppercase() || c == '_'))
                .then(|| (name.to_string(), value.to_string(), active))
        })
        .collect()
}

/// The built-in default of a dotted key, as text.
fn toml_default(key: &str) -> String {
    let defaults: toml::Table = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../catalogue/site.toml"))
        .parse()
        .expect("site.toml");
    let mut value = toml::Value::Table(defaults);
    for part in key.split('.') {
        value = value.get(part).unwrap_or_else(|| panic!("{key} in site.toml")).clone();
    }
    match value {
        toml::Value::String(s) => s,
        toml::Value::Array(a) => a.iter().map(|v| v.as_str().unwrap_or("").to_string()).collect::<Vec<_>>().join(","),
        other => other.to_string(),
    }
}

#[test]
fn the_example_environment_names_every_variable_with_its_default() {
    let env = deploy("site.env");
    let documented = documented_defaults(&env);
    let assigned = assignments(&env);
    // Every variable `site` reads (`site --help` lists the same), with its key if it has one.
    for (var, key) in VARIABLES.iter() {
        let default = documented
            .get(var)
            .unwrap_or_else(|| panic!("deploy/site.env does not document {var}"));
        if let Some(key) = key {
            assert_eq!(default, &toml_default(key), "the default deploy/site.env gives for {var}");
            assert!(env.contains(&format!("# {var} ({key}), default: ")), "{var} names its key {key}");
        }
        assert!(assigned.iter().any(|(n, _, _)| n == var), "deploy/site.env has no {var}= line");
    }
    for (name, _, _) in &assigned {
        assert!(
            VARIABLES.iter().any(|(v, _)| v == name),
            "deploy/site.env sets {name}, which the server does not read"
        );
    }
    for name in documented.keys() {
        assert!(assigned.iter().any(|(n, _, _)| n == name), "{name} is documented without a line");
    }
    // What it sets is a valid configuration.
    let active: Vec<(String, String)> = assigned
        .iter()
        .filter(|(n, _, active)| *active && VARIABLES.iter().any(|(v, key)| v == n && key.is_some()))
        .map(|(n, v, _)| (n.clone(), v.clone()))
        .collect();
    let config = Config::build(None, &active).expect("deploy/site.env is a valid configuration");
    assert!(config.server.trust_forwarded_for, "behind Caddy, the forwarded address is trusted");
    assert_eq!(config.backup.dir(), Some(std::path::Path::new("/var/lib/site/backups")));
}

#[test]
fn the_unit_is_hardened_restarts_and_waits_for_the_drain() {
    let unit = deploy("site.service");
    for line in [
        "User=site",
        "StateDirectory=site",
        "ProtectSystem=strict",
        "NoNewPrivileges=yes",
        "Restart=on-failure",
        "EnvironmentFile=/etc/site/site.env",
        "KillSignal=SIGTERM",
        "Type=notify",
        "NotifyAccess=main",
    ] {
        assert!(unit.lines().any(|l| l == line), "deploy/site.service lacks {line}");
    }
    let stop: u64 = unit
        .lines()
        .find_map(|l| l.strip_prefix("TimeoutStopSec="))
        .and_then(|v| v.trim_end_matches('s').parse().ok())
        .expect("TimeoutStopSec in seconds");
    let server = Config::defaults().expect("defaults").server;
    let (grace_ms, drain_ms) = (server.shutdown_grace_ms, server.shutdown_drain_ms);
    assert!(
        stop * 1000 >= grace_ms + drain_ms + 10_000,
        "TimeoutStopSec={stop} leaves no room after the {drain_ms} ms drain and the {grace_ms} ms grace"
    );
    // Every secret's credential is there to uncomment, named as the server looks for it.
    for key in site_server::config::SECRET_KEYS {
        let name = site_server::config::settings::by_key(key)
            .expect("a setting")
            .var
            .to_ascii_lowercase();
        let line = format!("#LoadCredential={name}:/etc/site/credentials/{name}");
        assert!(unit.lines().any(|l| l == line), "deploy/site.service lacks {line}");
    }
    // The watchdog is pinged every half period (main.rs), and may wait a whole ping period
    // for a busy writer: at least 10 s each.
    let watchdog: u64 = unit
        .lines()
        .find_map(|l| l.strip_prefix("WatchdogSec="))
        .and_then(|v| v.trim_end_matches('s').parse().ok())
        .expect("WatchdogSec in seconds");
    assert!(watchdog >= 20, "WatchdogSec={watchdog} leaves a writer no time to answer");
    // The database lives in the state directory, the one place the unit may write.
    let env = deploy("site.env");
    assert!(env.lines().any(|l| l == "DATABASE_URL=sqlite:///var/lib/site/site.db"));
    assert!(unit.lines().any(|l| l == "WorkingDirectory=/var/lib/site"));

    let Ok(version) = Command::new("systemd-analyze").arg("--version").output() else {
        eprintln!("SKIPPED systemd-analyze verify: systemd-analyze is not installed: run `make deploy-tools` (Debian package systemd)");
        return;
    };
    assert!(version.status.success());
    let dir = crate::common::temp_dir("unit");
    // The unit as installed, but starting the binary this test built (verify checks it exists).
    let local = unit
        .lines()
        .map(|l| {
            if l.starts_with("ExecStart=") {
                format!("ExecStart={}", env!("CARGO_BIN_EXE_site"))
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let path = dir.join("site.service");
    std::fs::write(&path, local).expect("write");
    let out = Command::new("systemd-analyze").arg("verify").arg(&path).output().expect("verify");
    let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success() && said.trim().is_empty(), "systemd-analyze verify:\n{said}");
}

#[test]
fn the_caddy_file_is_valid_and_forwards_the_address_the_server_trusts() {
    let caddy = deploy("Caddyfile");
    let env = deploy("site.env");
    let listen = assignments(&env)
        .into_iter()
        .find(|(n, _, active)| n == "LISTEN" && *active)
        .map(|(_, v, _)| v)
        .expect("LISTEN");
    assert!(
        caddy.contains(&format!("reverse_proxy {{$SITE_UPSTREAMS:{listen}}} {{")),
        "Caddy proxies to LISTEN ({listen}) unless SITE_UPSTREAMS lists several servers"
    );
    // Several servers: health checks on the readiness a draining server fails, and retries.
    for line in ["health_uri /healthz", "lb_try_duration ", "lb_try_interval ", "fail_duration "] {
        assert!(caddy.contains(line), "deploy/Caddyfile lacks {line}");
    }
    // A POST that finds no server up is held like a GET, not refused at once with a 503
    // (Caddy 2.6 retries only the requests `lb_retry_match` lists): every public form's path,
    // whose repeats are answered as the first, and the console's sign-in and sign-out.
    let retried = caddy
        .lines()
        .find(|l| l.trim_start().starts_with("path ") && l.contains(SUBMIT_LEAD_PATH))
        .expect("deploy/Caddyfile: an lb_retry_match with the public forms' paths");
    for path in [
        SUBMIT_LEAD_PATH,
        RECORD_TOKEN_PATH,
        ACCOUNT_REQUESTS_PATH,
        APPLICATIONS_PATH,
        LOGIN_PATH,
        LOGOUT_PATH,
    ] {
        assert!(
            retried.split_whitespace().any(|p| p == path),
            "deploy/Caddyfile's lb_retry_match lacks {path}: a POST there that finds no server up would get a 503"
        );
    }
    assert!(
        caddy.contains("header_up X-Forwarded-For {remote_host}"),
        "Caddy replaces X-Forwarded-For with the address it saw (the server trusts its last entry)"
    );
    let Ok(version) = Command::new("caddy").arg("version").output() else {
        eprintln!("SKIPPED caddy validate: caddy is not installed: run `make deploy-tools` (Debian package caddy)");
        return;
    };
    assert!(version.status.success());
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../deploy/Caddyfile");
    let out = Command::new("caddy")
        .args(["validate", "--adapter", "caddyfile", "--config"])
        .arg(&path)
        .output()
        .expect("caddy validate");
    let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(
        out.status.success() && said.contains("Valid configuration"),
        "caddy validate:\n{said}"
    );
}

#[test]
fn the_admin_wrapper_is_a_valid_shell_script_running_site_as_the_service_does() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../deploy/site-admin");
    let script = deploy("site-admin");
    for part in [
        "--uid=site",
        "EnvironmentFile=/etc/site/site.env",
        "WorkingDirectory=/var/lib/site",
        "/usr/bin/site \"$@\"",
        "LoadCredential=",
    ] {
        assert!(script.contains(part), "deploy/site-admin lacks {part}");
    }
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&path).expect("site-admin").permissions().mode();
    assert!(mode & 0o111 != 0, "deploy/site-admin is executable");
    let out = Command::new("sh").arg("-n").arg(&path).output().expect("sh -n");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}
