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
    assert!(bad("[render]\ncolour = 1").contains("colour"));
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
    assert!(e.contains("render.pool_size") && e.contains("RENDER_POOL_SIZE"), "{e}");
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
