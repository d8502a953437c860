//! Catalogue validation: the real catalogue passes; a broken copy names entry and field,
//! both through the library and by stopping the real binary at start.

use std::process::Command;

use serde_json::Value;
use site_server::catalogue::{CAMPAIGNS_JSON, Catalogue, EMERGENCY_SLUGS, SERVICES_JSON, SLUGS};

fn icons(name: &str) -> bool {
    static ICONS: std::sync::OnceLock<site_server::assets::Icons> = std::sync::OnceLock::new();
    ICONS
        .get_or_init(|| site_server::assets::Icons::load().expect("icons"))
        .contains(name)
}

fn services() -> Vec<Value> {
    serde_json::from_str(SERVICES_JSON).expect("services")
}

fn campaigns() -> Vec<Value> {
    serde_json::from_str(CAMPAIGNS_JSON).expect("campaigns")
}

fn error_for(services: &[Value], campaigns: &[Value]) -> String {
    let s = serde_json::to_string(services).expect("json");
    let c = serde_json::to_string(campaigns).expect("json");
    Catalogue::parse(&s, &c, &icons).expect_err("must be refused").to_string()
}

#[test]
fn the_real_catalogue_is_complete() {
    let c = Catalogue::embedded(&icons).expect("valid");
    assert_eq!(c.services.len(), 42);
    for slug in SLUGS {
        let s = c.service(slug).expect("present");
        assert_eq!(s.emergency_available, EMERGENCY_SLUGS.contains(&slug), "{slug}");
    }
    for (slug, years) in [
        ("solar", 25),
        ("foundation-repair", 25),
        ("gutter-protection", 20),
        ("waterproofing", 20),
        ("roofing", 15),
    ] {
        assert_eq!(c.service(slug).expect("present").warranty_years, years);
    }
    assert!((50..=60).contains(&c.campaigns.len()));
    // Each service has an icon of its own (the menus and the picker tell them apart by it).
    let icons: std::collections::HashSet<&str> = c.services.iter().map(|s| s.icon.as_str()).collect();
    assert_eq!(icons.len(), 42);
}

#[test]
fn broken_entries_are_named_with_their_field() {
    type Breakage = Box<dyn Fn(&mut Vec<Value>)>;
    let cases: Vec<(Breakage, &str)> = vec![
        (
            Box::new(|s| s[3]["warrantyYears"] = 26.into()),
            "entry 4 (slug \"electrician\"): warrantyYears: 26 is outside 0-25",
        ),
        (
            Box::new(|s| s[3]["warrantyYears"] = "ten".into()),
            "entry 4 (slug \"electrician\"): warrantyYears: invalid type",
        ),
        (
            Box::new(|s| s[0]["sampleProject"]["urgency"] = Value::Null),
            "entry 1 (slug \"hvac\"): sampleProject.urgency",
        ),
        (
            Box::new(|s| s[1]["warrantyYears"] = 10.into()),
            "entry 2 (slug \"roofing\"): warrantyYears: must be 15",
        ),
        (
            Box::new(|s| s[5]["emergencyAvailable"] = true.into()),
            "entry 6 (slug \"siding\"): emergencyAvailable",
        ),
        (
            Box::new(|s| {
                s[0]["urgentScenarios"].as_array_mut().expect("list").pop();
            }),
            "entry 1 (slug \"hvac\"): urgentScenarios",
        ),
        (
            Box::new(|s| {
                s[2]["features"].as_array_mut().expect("list").pop();
            }),
            "entry 3 (slug \"plumbing\"): features",
        ),
        (
            Box::new(|s| s[7]["icon"] = "no-such-icon".into()),
            "entry 8 (slug \"water-damage\"): icon",
        ),
        (
            Box::new(|s| s[7]["features"][1]["icon"] = "nope".into()),
            "entry 8 (slug \"water-damage\"): features[1].icon",
        ),
        (
            Box::new(|s| {
                s[9].as_object_mut().expect("obj").remove("title");
            }),
            "entry 10 (slug \"bathroom-remodeling\"): title",
        ),
        (
            Box::new(|s| s[4]["slug"] = "pest-patrol".into()),
            "entry 5 (slug \"pest-patrol\"): slug",
        ),
        (
            Box::new(|s| {
                s.pop();
            }),
            "service \"car-donation\" is missing",
        ),
        (Box::new(|s| s[0]["color"] = "blue".into()), "entry 1 (slug \"hvac\"): color"),
        (
            Box::new(|s| s[26]["icon"] = s[10]["icon"].clone()),
            "entry 27 (slug \"window-cleaning\"): icon: \"grid-2x2\" is already the icon of \"window-replacement\"",
        ),
    ];
    for (break_it, expected) in cases {
        let mut s = services();
        break_it(&mut s);
        let message = error_for(&s, &campaigns());
        assert!(message.contains(expected), "expected {expected:?} in {message:?}");
        assert!(message.starts_with("services.json: "), "{message}");
    }
}

#[test]
fn broken_campaigns_are_named_with_their_field() {
    let cases: Vec<(&str, Value, &str)> = vec![
        ("status", "PAUSED".into(), "status"),
        ("seconds", 90.into(), "seconds"),
        ("paymentTerms", "Net 60".into(), "paymentTerms"),
        ("inbound", "yes".into(), "inbound"),
        ("campaign", "R".repeat(151).into(), "campaign"),
        ("campaign", " Roofing Calls".into(), "campaign"),
    ];
    for (field, value, expected) in cases {
        let mut c = campaigns();
        c[2][field] = value;
        let message = error_for(&services(), &c);
        let name = c[2]["campaign"].as_str().expect("name");
        assert!(message.starts_with("campaigns.json: entry 3 (campaign "), "{message}");
        assert!(message.contains(name) && message.contains(&format!(": {expected}: ")), "{message}");
    }
}

#[test]
fn the_server_refuses_to_start_on_a_broken_catalogue() {
    let dir = crate::common::temp_dir("catalogue");
    let mut s = services();
    s[13]["warrantyYears"] = 30.into();
    std::fs::write(dir.join("services.json"), serde_json::to_string(&s).expect("json")).expect("write");
    std::fs::write(dir.join("campaigns.json"), CAMPAIGNS_JSON).expect("write");
    let out = Command::new(env!("CARGO_BIN_EXE_site"))
        .arg("--catalogue")
        .arg(&dir)
        .env("LISTEN", "127.0.0.1:0")
        // Its default SQLite file, were it made, lands in the scratch directory.
        .current_dir(&dir)
        .output()
        .expect("run site");
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("services.json: entry 14 (slug \"solar\"): warrantyYears"),
        "{stderr}"
    );
}

#[test]
fn the_server_refuses_to_start_on_bad_config() {
    let dir = crate::common::temp_dir("config");
    let out = Command::new(env!("CARGO_BIN_EXE_site"))
        .env("RENDER_QUEUE_SIZE", "0")
        .current_dir(&dir)
        .output()
        .expect("run site");
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("render.queue_size"), "{stderr}");
}
