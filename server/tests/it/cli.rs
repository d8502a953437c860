//! The command line, through the real binary: every command's help (with the environment
//! variables it reads), usage errors (exit 2, nothing written), `site config check` on good
//! and bad configurations, and which of file, environment and flag wins.

use std::path::Path;
use std::process::{Command, Output};

use site_server::cli::VARIABLES;

use crate::common;

const SITE: &str = env!("CARGO_BIN_EXE_site");

/// Runs `site ARGS` in `dir` with only the variables in `env` among those it reads.
fn site(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(SITE);
    for (var, _) in VARIABLES.iter() {
        cmd.env_remove(var);
    }
    cmd.current_dir(dir)
        .args(args)
        .envs(env.iter().copied())
        .output()
        .expect("run site")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The files in `dir` (a command that only printed left none).
fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The `config check` line of `key`: (value, where it came from).
fn checked(report: &str, key: &str) -> (String, String) {
    let line = report
        .lines()
        .find(|l| l.split_whitespace().next() == Some(key))
        .unwrap_or_else(|| panic!("no {key} in:\n{report}"));
    let rest = line[key.len()..].trim();
    let (value, from) = rest.rsplit_once("  ").unwrap_or_else(|| panic!("value and origin in {line:?}"));
    (value.trim().to_string(), from.trim().to_string())
}

#[test]
fn help_lists_every_command_and_every_variable_and_hides_their_values() {
    let dir = common::temp_dir("cli-help");
    let secret = "a-webhook-secret-nobody-may-read";
    let out = site(&dir, &["--help"], &[("WEBHOOK_SECRET", secret)]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let help = stdout(&out);
    for command in ["serve", "config", "backup", "restore", "copy-store", "outbox", "staff"] {
        assert!(help.lines().any(|l| l.trim_start().starts_with(command)), "{command} in:\n{help}");
    }
    for (var, key) in VARIABLES.iter() {
        assert!(help.contains(&format!("[env: {var}]")), "{var} in:\n{help}");
        if let Some(key) = key {
            assert!(help.contains(&format!("({key})")), "{var} names its key {key}");
        }
    }
    assert!(VARIABLES.len() >= 39, "every setting and the four others: {}", VARIABLES.len());
    assert!(!help.contains(secret), "help never prints a variable's value");

    // -h is the summary: the commands and the binary's own options, not every setting.
    let short = stdout(&site(&dir, &["-h"], &[]));
    assert!(short.contains("backup") && short.contains("[env: SITE_CONFIG]"), "{short}");
    assert!(!short.contains("--listen") && short.contains("site --help"), "{short}");
    assert_eq!(files(&dir), Vec::<String>::new());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_command_has_its_help_and_writes_nothing() {
    let dir = common::temp_dir("cli-command-help");
    let commands: &[(&[&str], &str)] = &[
        (&["serve"], "Serve the site"),
        (&["config", "check"], "Check the whole configuration"),
        (&["backup"], "Copy the SQLite database to FILE"),
        (&["restore"], "Put a backup in place"),
        (&["copy-store"], "into an empty PostgreSQL database"),
        (&["outbox", "retry"], "List the failed notifications"),
        (&["staff", "add"], "read from standard input"),
        (&["staff", "disable"], "Disable an account"),
        (&["staff", "unlock"], "Lift an account's sign-in lockout"),
        (&["staff", "list"], "List the accounts"),
    ];
    for (command, says) in commands {
        for flag in ["--help", "-h"] {
            let args: Vec<&str> = command.iter().copied().chain([flag]).collect();
            let out = site(&dir, &args, &[("DATABASE_URL", "sqlite:site.db")]);
            let help = stdout(&out);
            assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
            assert!(help.contains(says), "{args:?} says {says:?}:\n{help}");
            assert!(help.contains(&format!("Usage: site {}", command.join(" "))), "{args:?}:\n{help}");
            assert!(help.contains("[env: SITE_CONFIG]"), "{args:?}:\n{help}");
            // The long help lists the settings the command reads, the database's among them.
            assert_eq!(help.contains("[env: DATABASE_URL]"), flag == "--help", "{args:?}:\n{help}");
        }
    }
    // `site backup --help` once wrote a backup named "--help": now nothing at all.
    assert_eq!(files(&dir), Vec::<String>::new());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_usage_error_exits_2_says_why_and_touches_nothing() {
    let dir = common::temp_dir("cli-usage");
    let env = [("DATABASE_URL", "sqlite:site.db")];
    let cases: &[(&[&str], &str)] = &[
        (&["--bogus"], "unexpected argument '--bogus'"),
        (&["frobnicate"], "unrecognized subcommand 'frobnicate'"),
        (&["backup"], "<FILE>"),
        (&["backup", "a.db", "b.db"], "unexpected argument 'b.db'"),
        (&["staff"], "Usage: site staff"),
        (&["staff", "remove", "x@ringready.example"], "unrecognized subcommand 'remove'"),
        (
            &["staff", "add", "x@ringready.example", "a-password"],
            "unexpected argument 'a-password'",
        ),
        (&["staff", "list", "--all"], "unexpected argument '--all'"),
        (&["copy-store", "--from", "sqlite:site.db"], "--to"),
        (
            &["copy-store", "--to", "postgres://db.invalid/x", "--bogus"],
            "unexpected argument '--bogus'",
        ),
        (&["outbox"], "Usage: site outbox"),
        (&["outbox", "retry", "twelve"], "not an outbox id"),
        (&["outbox", "retry", "--all", "12"], "cannot be used with"),
        (&["config"], "Usage: site config"),
        (&["--listen"], "a value is required for '--listen <ADDR>'"),
    ];
    for (args, says) in cases {
        let out = site(&dir, args, &env);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.starts_with("error: ") && err.contains(says), "{args:?} says {says:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}: {}", stdout(&out));
    }
    let bad_format = site(&dir, &["staff", "list"], &[("LOG_FORMAT", "xml"), env[0]]);
    assert_eq!(bad_format.status.code(), Some(2), "{}", stderr(&bad_format));
    assert!(
        stderr(&bad_format).contains("possible values: text, json"),
        "{}",
        stderr(&bad_format)
    );
    assert_eq!(
        files(&dir),
        Vec::<String>::new(),
        "no database, no backup, no file named after an argument"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn config_check_prints_every_setting_and_where_it_came_from() {
    let dir = common::temp_dir("cli-check");
    let out = site(&dir, &["config", "check"], &[]);
    let report = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{report}{}", stderr(&out));
    assert!(report.contains("the configuration is valid"), "{report}");
    assert!(report.contains("database     not opened"), "{report}");
    assert_eq!(checked(&report, "server.listen"), ("127.0.0.1:8080".into(), "default".into()));
    assert_eq!(
        checked(&report, "site.service_phones.hvac"),
        ("8005550142".into(), "default".into())
    );
    assert_eq!(checked(&report, "notify.webhook_secret"), ("(empty)".into(), "default".into()));
    assert_eq!(files(&dir), Vec::<String>::new(), "no database opened or made");

    // File over defaults, environment over file, flag over environment, whichever side of
    // the command the flag is on.
    std::fs::write(
        dir.join("site.toml"),
        "[site]\nbrand = \"CallDesk\"\n[render]\nqueue_size = 3\ntimeout_ms = 900\n[server]\nlisten = \"127.0.0.1:7000\"\n",
    )
    .expect("write");
    let env = [
        ("SITE_CONFIG", "site.toml"),
        ("RENDER_TIMEOUT_MS", "700"),
        ("LISTEN", "127.0.0.1:7001"),
        ("WEBHOOK_URL", "https://hooks.example/lead"),
        ("WEBHOOK_SECRET", "0123456789abcdef-hidden"),
        ("DATABASE_URL", "postgres://site:hunter2@db.example/site?sslmode=verify-full"),
    ];
    for args in [
        &["config", "check", "--listen", "127.0.0.1:7002"][..],
        &["--listen", "127.0.0.1:7002", "config", "check"][..],
    ] {
        let out = site(&dir, args, &env);
        let report = stdout(&out);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {report}{}", stderr(&out));
        assert!(report.contains("config file  site.toml (environment SITE_CONFIG)"), "{report}");
        assert_eq!(checked(&report, "site.brand"), ("CallDesk".into(), "file site.toml".into()));
        assert_eq!(checked(&report, "render.queue_size"), ("3".into(), "file site.toml".into()));
        assert_eq!(
            checked(&report, "render.timeout_ms"),
            ("700".into(), "environment RENDER_TIMEOUT_MS".into())
        );
        assert_eq!(checked(&report, "server.listen"), ("127.0.0.1:7002".into(), "flag --listen".into()));
        assert_eq!(checked(&report, "render.pool_size"), ("0".into(), "default".into()));
        assert_eq!(
            checked(&report, "notify.webhook_secret"),
            ("(set, hidden)".into(), "environment WEBHOOK_SECRET".into())
        );
        assert_eq!(
            checked(&report, "server.database_url").0,
            "postgres://site:…@db.example/site?sslmode=verify-full"
        );
        assert!(
            !report.contains("hunter2") && !report.contains("-hidden"),
            "no secret printed:\n{report}"
        );
    }
    let out = site(&dir, &["config", "check", "--config", "site.toml"], &[]);
    assert!(stdout(&out).contains("config file  site.toml (flag --config)"), "{}", stdout(&out));
    assert_eq!(
        checked(&stdout(&out), "server.listen"),
        ("127.0.0.1:7000".into(), "file site.toml".into())
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn config_check_exits_2_with_every_problem() {
    let dir = common::temp_dir("cli-check-bad");
    let out = site(
        &dir,
        &[
            "config",
            "check",
            "--public-url",
            "ftp://ringready.example",
            "--trusted-proxy-hops",
            "0",
        ],
        &[("SMTP_URL", "smtp://mail.example:587"), ("BACKUP_INTERVAL", "30s")],
    );
    let (report, err) = (stdout(&out), stderr(&out));
    assert_eq!(out.status.code(), Some(2), "{report}{err}");
    assert!(report.contains("the configuration is not valid: 4 problem(s)"), "{report}");
    for key in [
        "site.public_url",
        "server.trusted_proxy_hops",
        "notify.recipients",
        "backup.interval",
    ] {
        assert!(err.contains(&format!("error: config key {key}: ")), "{key} in:\n{err}");
    }
    // The values are still shown, with their origin, so the wrong one can be found.
    assert_eq!(
        checked(&report, "server.trusted_proxy_hops"),
        ("0".into(), "flag --trusted-proxy-hops".into())
    );

    // A value that is not of its key's type names the variable or the flag it came from.
    let out = site(
        &dir,
        &["config", "check", "--render-queue-size", "lots"],
        &[("RENDER_POOL_SIZE", "many")],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("render.pool_size") && stderr(&out).contains("(from RENDER_POOL_SIZE)"),
        "{}",
        stderr(&out)
    );
    let out = site(&dir, &["config", "check", "--render-queue-size", "lots"], &[]);
    assert!(
        stderr(&out).contains("render.queue_size") && stderr(&out).contains("(from --render-queue-size)"),
        "{}",
        stderr(&out)
    );

    // A file that is missing or not TOML; a catalogue folder without a catalogue.
    let out = site(&dir, &["config", "check", "--config", "missing.toml"], &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("error: config file missing.toml"), "{}", stderr(&out));
    std::fs::write(dir.join("broken.toml"), "[render\n").expect("write");
    let out = site(&dir, &["config", "check"], &[("SITE_CONFIG", "broken.toml")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("error: config file broken.toml"), "{}", stderr(&out));
    let out = site(&dir, &["config", "check", "--catalogue", "."], &[]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(stderr(&out).contains("error: catalogue"), "{}", stderr(&out));
    // Serving with the same configuration stops at start (exit 1, as before), naming the key.
    let out = site(&dir, &["--trusted-proxy-hops", "0"], &[]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("config key server.trusted_proxy_hops"), "{}", stderr(&out));
    assert_eq!(files(&dir), vec!["broken.toml".to_string()], "nothing opened or made");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_command_reads_its_database_from_the_flag_over_the_environment() {
    let dir = common::temp_dir("cli-precedence");
    let out = site(
        &dir,
        &["staff", "list", "--database-url", "sqlite:from-flag.db"],
        &[("DATABASE_URL", "sqlite:from-env.db")],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("no staff accounts yet"), "{}", stdout(&out));
    let made = files(&dir);
    assert!(
        made.contains(&"from-flag.db".to_string()) && !made.iter().any(|f| f.starts_with("from-env")),
        "{made:?}"
    );
    let out = site(&dir, &["staff", "list"], &[("DATABASE_URL", "sqlite:from-env.db")]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(files(&dir).contains(&"from-env.db".to_string()));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn seed_adds_the_benches_leads_is_hidden_and_refuses_a_plan_it_cannot_seed() {
    let dir = common::temp_dir("cli-seed");
    let env = [("DATABASE_URL", "sqlite:site.db")];
    let help = site(&dir, &["--help"], &[]);
    assert!(
        !stdout(&help).lines().any(|l| l.trim_start().starts_with("seed")),
        "not among the operator's commands:\n{}",
        stdout(&help)
    );
    let own = site(&dir, &["seed", "--help"], &env);
    assert_eq!(own.status.code(), Some(0), "{}", stderr(&own));
    assert!(stdout(&own).contains("Add synthetic leads"), "{}", stdout(&own));
    for bad in [
        &["seed", "--leads", "0"][..],
        &["seed", "--leads", "5", "--id-prefix", "a'b"],
        &["seed"],
    ] {
        let out = site(&dir, bad, &env);
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {}", stderr(&out));
        assert!(!stderr(&out).is_empty(), "{bad:?} says why");
    }
    assert_eq!(files(&dir), Vec::<String>::new(), "a refused plan opens no database");

    let out = site(
        &dir,
        &["seed", "--leads", "2500", "--notifications", "--newest-ms", "1800000000000"],
        &env,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out).lines().last(), Some("seeded 2500 leads, 2492 notifications"));
    let conn = rusqlite::Connection::open(dir.join("site.db")).expect("open");
    let (count, newest): (i64, i64) = conn
        .query_row("SELECT COUNT(*), MAX(received_at_ms) FROM leads WHERE id LIKE 'seed-%'", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .expect("count");
    assert_eq!((count, newest), (2500, 1_800_000_000_000));
    let _ = std::fs::remove_dir_all(&dir);
}

/// No secret is printed, whatever its type and however the configuration is wrong: a numeric
/// `webhook_secret` or `metrics_token` in the file (shown in the settings table and refused
/// as the wrong type), an unquoted `database_url` (a TOML parse error, which quotes the line),
/// and the same from the environment and flags; by `config check` and at start.
#[test]
fn no_secret_is_echoed_whatever_its_type_or_the_error() {
    let dir = common::temp_dir("cli-secrets");
    let numeric = "[notify]\nwebhook_url = \"https://hooks.example/lead\"\nwebhook_secret = 98765432109876543210\n[server]\nmetrics_token = 1234567890123456789\n";
    let unquoted = "[server]\ndatabase_url = postgres://site:hunter2@db.example/site\n";
    let unquoted_smtp = "[notify]\nsmtp_url = smtp://mailer:swordfish@mail.example:587\n";
    let float = "[notify]\nwebhook_secret = 31415.926535897932\n";
    let table = "[server]\nmetrics_token = { value = \"inline-table-token-sesame\" }\n";
    let secrets = [
        "98765432109876543210",
        "1234567890123456789",
        "hunter2",
        "swordfish",
        "31415",
        "926535",
        "sesame",
    ];
    for (name, text) in [
        ("numeric.toml", numeric),
        ("unquoted.toml", unquoted),
        ("unquoted-smtp.toml", unquoted_smtp),
        ("float.toml", float),
        ("table.toml", table),
    ] {
        std::fs::write(dir.join(name), text).expect("write");
        for args in [&["config", "check"][..], &[][..]] {
            let out = site(&dir, args, &[("SITE_CONFIG", name), ("LISTEN", "127.0.0.1:1")]);
            let all = format!("{}{}", stdout(&out), stderr(&out));
            assert_ne!(out.status.code(), Some(0), "{name} {args:?} is refused: {all}");
            for secret in secrets {
                assert!(!all.contains(secret), "{name} {args:?} printed {secret}:\n{all}");
            }
            assert!(
                all.contains(name),
                "{name} {args:?}: the file is still named so the operator can find it:\n{all}"
            );
        }
    }
    // From the environment and from a flag, a number where text is due.
    let env = [
        ("WEBHOOK_URL", "https://hooks.example/lead"),
        ("WEBHOOK_SECRET", "55555555555555555555"),
        ("METRICS_TOKEN", "44444444444444444444"),
    ];
    let out = site(&dir, &["config", "check"], &env);
    let all = format!("{}{}", stdout(&out), stderr(&out));
    for secret in ["55555555555555555555", "44444444444444444444"] {
        assert!(!all.contains(secret), "printed {secret}:\n{all}");
    }
    assert_eq!(
        checked(&stdout(&out), "notify.webhook_secret"),
        ("(set, hidden)".into(), "environment WEBHOOK_SECRET".into())
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Secrets kept in files: `<VAR>_FILE` and systemd's credentials (`$CREDENTIALS_DIRECTORY`,
/// which `LoadCredential=` fills). `config check` says which file each came from without
/// printing it; the server uses them (the database the credential names, the metrics token a
/// `_FILE` holds); a file it cannot read stops it with the variable and the path named.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn secrets_are_read_from_files_and_credentials_and_never_printed() {
    let dir = common::temp_dir("cli-secret-files");
    let creds = dir.join("credentials");
    std::fs::create_dir_all(&creds).expect("credentials dir");
    let db = dir.join("from-the-credential.db");
    std::fs::write(creds.join("database_url"), format!("sqlite:{}\n", db.display())).expect("write");
    std::fs::write(creds.join("smtp_url"), "smtp://mailer:swordfish-credential@127.0.0.1:2525\n").expect("write");
    let token = "token-from-a-file-7f3a9c2e51";
    std::fs::write(dir.join("metrics_token"), format!("{token}\n")).expect("write");
    let hook_secret = "hook-secret-from-a-file-0b8d";
    std::fs::write(dir.join("hook"), format!("{hook_secret}\n")).expect("write");
    let creds_dir = creds.display().to_string();
    let token_file = dir.join("metrics_token").display().to_string();
    let hook_file = dir.join("hook").display().to_string();
    let env = [
        ("CREDENTIALS_DIRECTORY", creds_dir.as_str()),
        ("METRICS_TOKEN_FILE", token_file.as_str()),
        ("WEBHOOK_URL", "https://hooks.example/lead"),
        ("WEBHOOK_SECRET_FILE", hook_file.as_str()),
        ("NOTIFY_RECIPIENTS", "dispatch@ringready.example"),
    ];
    let out = site(&dir, &["config", "check"], &env);
    let report = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{report}{}", stderr(&out));
    for secret in [token, hook_secret, "swordfish"] {
        assert!(!format!("{report}{}", stderr(&out)).contains(secret), "printed {secret}:\n{report}");
    }
    let credential = |name: &str| format!("file {} (credential)", creds.join(name).display());
    assert_eq!(
        checked(&report, "server.database_url"),
        (format!("sqlite:{}", db.display()), credential("database_url"))
    );
    assert_eq!(checked(&report, "notify.smtp_url").1, credential("smtp_url"));
    assert_eq!(
        checked(&report, "server.metrics_token"),
        ("(set, hidden)".into(), format!("file {token_file} (METRICS_TOKEN_FILE)"))
    );
    assert_eq!(
        checked(&report, "notify.webhook_secret"),
        ("(set, hidden)".into(), format!("file {hook_file} (WEBHOOK_SECRET_FILE)"))
    );

    // A file that cannot be read, and a variable beside its _FILE twin: refused at start,
    // naming the variable and the path, printing nothing of the other secrets.
    let missing = dir.join("missing").display().to_string();
    for (bad, said) in [
        (
            [("WEBHOOK_SECRET_FILE", missing.as_str()), ("LISTEN", "127.0.0.1:1")],
            format!("WEBHOOK_SECRET_FILE={missing}: cannot read it"),
        ),
        (
            [
                ("METRICS_TOKEN_FILE", token_file.as_str()),
                ("METRICS_TOKEN", "a-variable-token-0123456"),
            ],
            "METRICS_TOKEN and METRICS_TOKEN_FILE are both set".to_string(),
        ),
    ] {
        let mut env = env.to_vec();
        env.retain(|(k, _)| !bad.iter().any(|(b, _)| b == k));
        env.extend(bad);
        let out = site(&dir, &[], &env);
        let all = format!("{}{}", stdout(&out), stderr(&out));
        assert_eq!(out.status.code(), Some(1), "{all}");
        assert!(all.contains(&said), "{all}");
        assert!(!all.contains(token) && !all.contains("swordfish"), "{all}");
    }

    // The server uses them: its database is the credential's, /metrics on the site's port
    // takes the token from the file.
    let port = common::free_port();
    let listen = format!("127.0.0.1:{port}");
    let mut env = env.to_vec();
    env.extend([("LISTEN", listen.as_str()), ("METRICS_LISTEN", ""), ("RENDER_POOL_SIZE", "1")]);
    let mut cmd = Command::new(SITE);
    for (var, _) in VARIABLES.iter() {
        cmd.env_remove(var);
    }
    let child = cmd
        .current_dir(&dir)
        .envs(env.iter().copied())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start site");
    let client = common::client();
    common::wait_healthy(&client, port).await;
    assert!(db.exists(), "the database the credential names was opened");
    let metrics = |bearer: Option<&str>| {
        let mut r = client.get(format!("http://{listen}/metrics"));
        if let Some(b) = bearer {
            r = r.bearer_auth(b);
        }
        r.send()
    };
    assert_eq!(metrics(None).await.expect("metrics").status(), reqwest::StatusCode::UNAUTHORIZED);
    let r = metrics(Some(token)).await.expect("metrics");
    assert_eq!(r.status(), reqwest::StatusCode::OK);
    assert!(r.text().await.expect("text").contains("site_build_info"));
    let _ = Command::new("kill").args(["-TERM", &child.id().to_string()]).status();
    let output = tokio::task::spawn_blocking(move || child.wait_with_output())
        .await
        .expect("join")
        .expect("wait");
    let logs = format!("{}{}", stdout(&output), stderr(&output));
    for secret in [token, hook_secret, "swordfish"] {
        assert!(!logs.contains(secret), "the log holds {secret}:\n{logs}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// One secret setting: its variable, its flag, a value that is (or carries) the secret, and
/// the secret itself, which must never be printed.
struct Secret {
    var: &'static str,
    flag: &'static str,
    value: &'static str,
    secret: &'static str,
    /// What else a valid configuration needs beside it.
    needs: &'static [(&'static str, &'static str)],
}

/// Environment variables and their values.
type Variables = [(&'static str, &'static str)];

const SECRETS: [Secret; 4] = [
    Secret {
        var: "DATABASE_URL",
        flag: "--database-url",
        value: "postgres://site:DbPassword-Secret1@127.0.0.1:1/site?sslmode=disable",
        secret: "DbPassword-Secret1",
        needs: &[],
    },
    Secret {
        var: "SMTP_URL",
        flag: "--smtp-url",
        value: "smtp://mailer:SmtpPassword-Secret2@127.0.0.1:2525",
        secret: "SmtpPassword-Secret2",
        needs: &[("NOTIFY_RECIPIENTS", "dispatch@ringready.example")],
    },
    Secret {
        var: "WEBHOOK_SECRET",
        flag: "--webhook-secret",
        value: "WebhookKey-Secret3-long-enough",
        secret: "WebhookKey-Secret3",
        needs: &[("WEBHOOK_URL", "https://hooks.example/lead")],
    },
    Secret {
        var: "METRICS_TOKEN",
        flag: "--metrics-token",
        value: "MetricsToken-Secret4-long-enough",
        secret: "MetricsToken-Secret4",
        needs: &[],
    },
];

/// The configuration key a variable sets.
fn settings_key(var: &str) -> &'static str {
    VARIABLES
        .iter()
        .find(|(v, _)| v == var)
        .and_then(|(_, key)| *key)
        .unwrap_or_else(|| panic!("{var} sets a key"))
}

/// `site ARGS` with `secret` given by its variable (`by_flag` false) or by its flag, before
/// the arguments, and the variables `env`: how it ended and everything it printed.
fn with_secret(dir: &Path, secret: &Secret, value: &str, by_flag: bool, args: &[&str], env: &[(&str, &str)]) -> (Output, String) {
    // What the test gives wins over what the secret needs.
    let mut env: Vec<(&str, &str)> = [secret.needs, env].concat();
    let mut line: Vec<&str> = Vec::new();
    if by_flag {
        line.extend([secret.flag, value]);
    } else {
        env.push((secret.var, value));
    }
    line.extend_from_slice(args);
    let out = site(dir, &line, &env);
    let all = format!("{}{}", stdout(&out), stderr(&out));
    (out, all)
}

/// No secret given by variable or by flag is printed: by `site --help` and `-h`, by every
/// command's `--help`, by `site config check`, by a start that is refused (an invalid
/// configuration, a secret too short, a database that does not answer, an SMTP URL that
/// cannot be read) or by a usage error, even one about the secret's own flag (a secret that
/// starts with `-` is the flag's value, not an unknown option repeated in the error).
#[test]
fn no_secret_given_by_environment_or_flag_is_printed() {
    let dir = common::temp_dir("cli-secret-sources");
    let db = [("DATABASE_URL", "sqlite:site.db")];
    let commands: &[&[&str]] = &[
        &["--help"],
        &["-h"],
        &["serve", "--help"],
        &["config", "check", "--help"],
        &["config", "check"],
        &["backup", "--help"],
        &["restore", "--help"],
        &["copy-store", "--help"],
        &["outbox", "retry", "--help"],
        &["staff", "add", "--help"],
        &["staff", "disable", "--help"],
        &["staff", "unlock", "--help"],
        &["staff", "list", "--help"],
        &["seed", "--help"],
        // Refused starts: the configuration, then a usage error.
        &["--trusted-proxy-hops", "0"],
        &["--bogus"],
        &["frobnicate"],
    ];
    for secret in &SECRETS {
        // The database's URL is the database: the others run with a SQLite file that is
        // never opened.
        let env: &[(&str, &str)] = if secret.var == "DATABASE_URL" { &[] } else { &db };
        for by_flag in [false, true] {
            let how = if by_flag { secret.flag } else { secret.var };
            for args in commands {
                let (out, all) = with_secret(&dir, secret, secret.value, by_flag, args, env);
                assert!(!all.contains(secret.secret), "{how} {args:?} printed the secret:\n{all}");
                assert!(!all.is_empty(), "{how} {args:?} said something");
                if args.last() == Some(&"--help") || *args == ["config", "check"] {
                    assert_eq!(out.status.code(), Some(0), "{how} {args:?}:\n{all}");
                }
            }
            // Flags after the command, as `site backup --database-url … FILE` takes them.
            if by_flag {
                let line = ["config", "check", secret.flag, secret.value];
                let out = site(&dir, &line, &[env, secret.needs].concat());
                let all = format!("{}{}", stdout(&out), stderr(&out));
                assert_eq!(out.status.code(), Some(0), "{line:?}:\n{all}");
                assert!(!all.contains(secret.secret), "{line:?} printed the secret:\n{all}");
            }
            // A secret that starts with a hyphen or two is still the flag's value (a
            // variable's value never was anything else).
            let hyphens = if by_flag {
                vec![format!("-{}", secret.value), format!("--{}", secret.value)]
            } else {
                Vec::new()
            };
            for value in hyphens {
                let (out, all) = with_secret(&dir, secret, &value, by_flag, &["config", "check"], env);
                assert!(!all.contains(secret.secret), "{how} printed a secret that starts with '-':\n{all}");
                if !secret.var.ends_with("_URL") {
                    assert_eq!(out.status.code(), Some(0), "{how} {value}:\n{all}");
                    let key = settings_key(secret.var);
                    assert_eq!(checked(&stdout(&out), key).0, "(set, hidden)", "{how} {value}");
                }
            }
        }
    }
    assert_eq!(files(&dir), Vec::<String>::new(), "nothing opened or made");
    // Starts refused because of the secret itself, by variable and by flag: (secret, its
    // value, other variables, what the error says, what must not be printed).
    let refused: [(&Secret, &str, &Variables, &str, &str); 5] = [
        (&SECRETS[0], SECRETS[0].value, &[], "database postgres://site:", SECRETS[0].secret),
        (
            &SECRETS[1],
            SECRETS[1].value,
            &[("NOTIFY_RECIPIENTS", "")],
            "notify.recipients",
            SECRETS[1].secret,
        ),
        (
            &SECRETS[1],
            "smtp://mailer:SmtpPassword-Secret2@127.0.0.1:99999",
            &[],
            "notify.smtp_url",
            SECRETS[1].secret,
        ),
        // Too short to be used, and still a secret.
        (&SECRETS[2], "WhKey-Secret5", &[], "notify.webhook_secret", "WhKey-Secret5"),
        (&SECRETS[3], "MtTok-Secret6", &[], "server.metrics_token", "MtTok-Secret6"),
    ];
    // An address this machine does not have: a start that got that far fails there.
    let listen = ("LISTEN", "192.0.2.1:80");
    for (secret, value, extra, says, hidden) in refused {
        let env: Vec<(&str, &str)> = if secret.var == "DATABASE_URL" {
            vec![listen]
        } else {
            vec![db[0], listen]
        };
        for by_flag in [false, true] {
            let (out, all) = with_secret(&dir, secret, value, by_flag, &[], &[&env[..], extra].concat());
            assert_eq!(out.status.code(), Some(1), "{} {value}: refused:\n{all}", secret.var);
            assert!(all.contains(says), "{} says {says}:\n{all}", secret.var);
            assert!(!all.contains(hidden), "{} printed the secret:\n{all}", secret.var);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
