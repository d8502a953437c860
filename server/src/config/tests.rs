//! The configuration's layering, validation and error messages.

use super::*;

fn env(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
}

#[test]
fn defaults_load() {
    let c = Config::defaults().expect("defaults");
    assert_eq!(c.site.brand, "RingReady");
    assert_eq!(c.phone_for("hvac").national(), "8005550142");
    assert_eq!(c.phone_for("bathroom-remodeling").national(), "8005550177");
    assert_eq!(c.phone_for("roofing").national(), "8005550100");
    assert!(!c.tracking.trustedform && !c.tracking.pixel);
    assert!(!c.site.social.is_empty(), "the footer has social links by default");
}

#[test]
fn overlay_and_env_override_defaults() {
    let overlay: toml::Table = "[site]\nbrand = \"CallDesk\"\n[render]\nqueue_size = 3".parse().expect("toml");
    let c = Config::build(Some(overlay), &env(&[("LISTEN", "0.0.0.0:9000"), ("RENDER_POOL_SIZE", "3")])).expect("config");
    assert_eq!(c.site.brand, "CallDesk");
    assert_eq!(c.render.queue_size, 3);
    assert_eq!(c.render.pool_size, 3);
    assert_eq!(c.server.listen.port(), 9000);
    assert_eq!(c.site.support_phone.national(), "8005550100");
    let c = Config::build(
        None,
        &env(&[
            ("SMTP_URL", "smtp://127.0.0.1:2525"),
            ("NOTIFY_RECIPIENTS", "a@x.example, b@x.example"),
        ]),
    )
    .expect("config");
    assert_eq!(
        c.notify.recipients_for("hvac"),
        ["a@x.example".to_string(), "b@x.example".to_string()]
    );
}

#[test]
fn bad_values_name_their_key() {
    let bad = |toml_text: &str| {
        let t: toml::Table = toml_text.parse().expect("toml");
        Config::build(Some(t), &[]).expect_err("must fail").to_string()
    };
    assert!(bad("[site.service_phones]\nhvac = \"555\"").contains("site.service_phones.hvac"));
    assert!(bad("[render]\npool_size = \"many\"").contains("render.pool_size"));
    let e = bad("[render]\ncolour = 1");
    assert!(e.starts_with("config key render.colour: unknown field `colour`"), "{e}");
    let e = bad("[tracing]\nlevel = 1");
    assert!(e.starts_with("config key tracing: unknown field `tracing`"), "{e}");
    // A secret of the wrong type is refused without its value.
    let e = bad("[notify]\nwebhook_secret = 987654321");
    assert_eq!(
        e,
        "config key notify.webhook_secret: invalid type: found an integer (put the value in quotes), expected text"
    );
    assert!(bad("[site]\ninfo_email = \"nobody\"").contains("site.info_email"));
    assert!(bad("[site]\nsocial = [{ name = \"Facebook\", url = \"http://x.example\" }]").contains("site.social[0].url"));
    assert!(bad("[site]\nsocial = [{ name = \" \", url = \"https://x.example\" }]").contains("site.social[0].name"));
    assert!(bad("[notify]\nsmtp_url = \"smtp://127.0.0.1:25\"").contains("notify.recipients"));
    assert!(bad("[notify]\nwebhook_url = \"https://x.example/hook\"").contains("notify.webhook_secret"));
    let secret = "webhook_secret = \"0123456789abcdef\"";
    assert!(bad(&format!("[notify]\nwebhook_url = 'http://203.0.113.9\\@127.0.0.1/hook'\n{secret}")).contains("notify.webhook_url"));
    // The forms' rules for an address and a web address hold here too (crate::forms).
    assert!(bad("[site]\npublic_url = \"https://www example\"").contains("site.public_url"));
    assert!(bad("[site]\npublic_url = \"https://\"").contains("site.public_url"));
    assert!(bad("[site]\ninfo_email = \"info@ringready.example\\u0085\"").contains("site.info_email"));
    assert!(bad("[notify]\nrecipients = [\"a@x.example\\u0007\"]").contains("notify.recipients[0]"));
    assert!(bad("[site]\nsocial = [{ name = \"Facebook\", url = \"https://x.example/\\\"><b>\" }]").contains("site.social[0].url"));
    assert!(bad("[server]\ntrusted_proxy_hops = 0").contains("server.trusted_proxy_hops"));
    assert!(bad("[server]\ntrusted_proxy_hops = 11").contains("server.trusted_proxy_hops"));
    let e = Config::build(None, &env(&[("LISTEN", "not an address")]))
        .expect_err("must fail")
        .to_string();
    assert!(e.contains("server.listen"), "{e}");
}

#[test]
fn a_bad_phone_number_names_its_key_in_full() {
    let bad = |toml_text: &str| {
        let t: toml::Table = toml_text.parse().expect("toml");
        Config::build(Some(t), &[]).expect_err("must fail").to_string()
    };
    assert_eq!(
        bad("[site]\nsupport_phone = \"(800) 555-0100\""),
        "config key site.support_phone: must be a ten-digit North American number, digits only"
    );
    assert_eq!(
        bad("[site.service_phones]\nhvac = \"555\""),
        "config key site.service_phones.hvac: must be a ten-digit North American number, digits only"
    );
    let e = bad("[site]\nsupport_phone = 8005550100");
    assert!(e.starts_with("config key site.support_phone: "), "{e}");
}

#[test]
fn environment_values_take_the_type_their_key_wants() {
    let c = Config::build(
        None,
        &env(&[
            ("PIXEL_ID", "1234567890"),
            ("PIXEL_ENABLED", "on"),
            ("NOSCRIPT_VARIANTS", "true"),
            ("RENDER_TIMEOUT_MS", "150"),
            ("WEBHOOK_SECRET", "0123456789012345"),
            ("WEBHOOK_URL", "https://hooks.example/lead"),
            ("UNRELATED", "ignored"),
        ]),
    )
    .expect("config");
    assert_eq!(c.tracking.pixel_id, "1234567890", "digits stay text where the key is text");
    assert!(c.tracking.pixel && c.render.noscript_variants);
    assert_eq!(c.render.timeout_ms, 150);
    assert_eq!(c.notify.webhook_secret, "0123456789012345");
    let e = Config::build(None, &env(&[("RENDER_POOL_SIZE", "many")]))
        .expect_err("must fail")
        .to_string();
    assert_eq!(
        e,
        "config key render.pool_size: invalid type: string \"many\", expected usize (from RENDER_POOL_SIZE)"
    );
}

#[test]
fn the_file_sits_between_the_defaults_and_the_environment() {
    let dir = std::env::temp_dir().join(format!("site-config-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let file = dir.join("site.toml");
    std::fs::write(&file, "[site]\nbrand = \"CallDesk\"\n[render]\nqueue_size = 3\ntimeout_ms = 900\n").expect("write");
    let only = |pairs: &[(&str, &str)]| Overrides::from_env_pairs(&env(pairs));
    let c = Config::load(Some(&file), &only(&[("RENDER_TIMEOUT_MS", "700")])).expect("config");
    assert_eq!(
        (c.site.brand.as_str(), c.render.queue_size, c.render.timeout_ms),
        ("CallDesk", 3, 700)
    );
    assert_eq!(c.site.support_phone.national(), "8005550100", "the rest stays default");

    std::fs::write(&file, "[render]\nqueue_size = true\n").expect("write");
    let e = Config::load(Some(&file), &only(&[])).expect_err("must fail").to_string();
    assert!(e.contains("render.queue_size") && e.contains("site.toml"), "{e}");
    std::fs::write(&file, "[render\n").expect("write");
    let e = Config::load(Some(&file), &only(&[])).expect_err("must fail").to_string();
    assert!(e.starts_with("config file ") && e.contains("site.toml"), "{e}");
    let missing = dir.join("missing.toml");
    let e = Config::load(Some(&missing), &only(&[])).expect_err("must fail").to_string();
    assert!(e.starts_with("config file ") && e.contains("missing.toml"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A temporary folder of this test's own.
fn secrets_dir(label: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("site-secrets-{label}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("credentials")).expect("temp dir");
    dir
}

#[test]
fn secrets_come_from_the_environment_then_their_files_then_credentials_then_the_file() {
    let dir = secrets_dir("precedence");
    let creds = dir.join("credentials");
    std::fs::write(creds.join("metrics_token"), "from-the-credential-0123\n").expect("write");
    std::fs::write(creds.join("webhook_secret"), "credential-signing-key\n").expect("write");
    std::fs::write(dir.join("token"), "from-the-token-file-4567\r\n").expect("write");
    let creds = creds.display().to_string();
    let token_file = dir.join("token").display().to_string();
    let overlay: toml::Table = "[server]\nmetrics_token = \"from-the-config-file-89\"".parse().expect("toml");

    // The credential above the configuration file; its trailing line break is not part of it.
    let c = Config::build(Some(overlay.clone()), &env(&[("CREDENTIALS_DIRECTORY", &creds)])).expect("config");
    assert_eq!(c.server.metrics_token, "from-the-credential-0123");
    assert_eq!(c.notify.webhook_secret, "credential-signing-key");
    // <VAR>_FILE above the credential (CR LF trimmed as well).
    let c = Config::build(
        Some(overlay.clone()),
        &env(&[("CREDENTIALS_DIRECTORY", &creds), ("METRICS_TOKEN_FILE", &token_file)]),
    )
    .expect("config");
    assert_eq!(c.server.metrics_token, "from-the-token-file-4567");
    assert_eq!(
        c.notify.webhook_secret, "credential-signing-key",
        "the other credential still counts"
    );
    // The variable above both.
    let c = Config::build(
        Some(overlay),
        &env(&[("CREDENTIALS_DIRECTORY", &creds), ("METRICS_TOKEN", "from-the-variable-abcd")]),
    )
    .expect("config");
    assert_eq!(c.server.metrics_token, "from-the-variable-abcd");
    // Without any: the defaults (an empty CREDENTIALS_DIRECTORY is none).
    let c = Config::build(None, &env(&[("CREDENTIALS_DIRECTORY", "")])).expect("config");
    assert_eq!(c.server.metrics_token, "");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_secret_file_that_cannot_be_used_is_named_with_its_variable_and_never_quoted() {
    let dir = secrets_dir("refused");
    let token_file = dir.join("token");
    std::fs::write(&token_file, "from-the-token-file-4567\n").expect("write");
    let token_file = token_file.display().to_string();
    // The variable and its _FILE twin: which one was meant?
    let e = Config::build(
        None,
        &env(&[("METRICS_TOKEN", "from-the-variable-abcd"), ("METRICS_TOKEN_FILE", &token_file)]),
    )
    .expect_err("both set")
    .to_string();
    assert!(e.contains("METRICS_TOKEN and METRICS_TOKEN_FILE are both set"), "{e}");
    assert!(!e.contains("from-the-"), "{e}");
    // A file that is not there.
    let missing = dir.join("missing").display().to_string();
    let e = Config::build(None, &env(&[("WEBHOOK_SECRET_FILE", &missing)]))
        .expect_err("missing")
        .to_string();
    assert!(e.contains(&format!("WEBHOOK_SECRET_FILE={missing}: cannot read it")), "{e}");
    // A credential that is not text.
    std::fs::write(dir.join("credentials").join("smtp_url"), [0xff, 0xfe, b'x']).expect("write");
    let creds = dir.join("credentials").display().to_string();
    let e = Config::build(None, &env(&[("CREDENTIALS_DIRECTORY", &creds)]))
        .expect_err("not text")
        .to_string();
    assert!(e.contains("credential") && e.contains("smtp_url") && e.contains("not UTF-8"), "{e}");
    // A secret file's value with the wrong shape is refused without being quoted.
    std::fs::write(dir.join("credentials").join("smtp_url"), "not a url at all, secret-ish\n").expect("write");
    let e = Config::build(None, &env(&[("CREDENTIALS_DIRECTORY", &creds)]))
        .expect_err("bad url")
        .to_string();
    assert!(!e.contains("secret-ish"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn config_check_says_which_file_each_secret_came_from_and_hides_it() {
    let dir = secrets_dir("report");
    let creds = dir.join("credentials");
    std::fs::write(creds.join("database_url"), "postgres://site:hunter22@db.example/site\n").expect("write");
    std::fs::write(dir.join("hook"), "a-signing-key-of-some-length\n").expect("write");
    let hook = dir.join("hook").display().to_string();
    let overrides = Overrides::from_env_pairs(&env(&[
        ("CREDENTIALS_DIRECTORY", &creds.display().to_string()),
        ("WEBHOOK_SECRET_FILE", &hook),
    ]));
    let rows = shown_settings(&Config::layers(None, &overrides)).expect("rows");
    let row = |key: &str| rows.iter().find(|r| r.key == key).cloned().expect("row");
    let db = row("server.database_url");
    assert_eq!(db.from, format!("file {} (credential)", creds.join("database_url").display()));
    assert!(!db.value.contains("hunter22"), "{db:?}");
    let secret = row("notify.webhook_secret");
    assert_eq!(secret.value, "(set, hidden)");
    assert_eq!(secret.from, format!("file {hook} (WEBHOOK_SECRET_FILE)"));
    let _ = std::fs::remove_dir_all(&dir);
}
