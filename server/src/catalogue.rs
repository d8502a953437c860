//! The service and campaign catalogues (docs/product.md, "A service page"): types, loading and validation.
//! A catalogue that breaks a rule stops the server with a message naming entry and field.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use serde::{Deserialize, Serialize};
use thiserror::Error;

pub const SERVICES_JSON: &str = include_str!("../../catalogue/services.json");
pub const CAMPAIGNS_JSON: &str = include_str!("../../catalogue/campaigns.json");

/// The 42 service slugs, in the catalogue's order (catalogue/services.json).
pub const SLUGS: [&str; 42] = [
    "hvac",
    "roofing",
    "plumbing",
    "electrician",
    "pest-control",
    "siding",
    "flooring",
    "water-damage",
    "appliance-repair",
    "bathroom-remodeling",
    "window-replacement",
    "garage-door",
    "painting",
    "solar",
    "gutters",
    "gutter-protection",
    "handyman",
    "pressure-washing",
    "decks",
    "fences",
    "lawncare",
    "tree-services",
    "junk-removal",
    "movers",
    "carpet-cleaning",
    "house-cleaning",
    "window-cleaning",
    "mold-removal",
    "fire-damage",
    "biohazard",
    "foundation-repair",
    "waterproofing",
    "insulation",
    "home-warranty",
    "stairlifts",
    "sunrooms",
    "basements",
    "closets",
    "blinds",
    "awnings",
    "cabinet-refacing",
    "car-donation",
];

/// Services with emergencyAvailable = true (docs/product.md, "A service page"); all others are false.
pub const EMERGENCY_SLUGS: [&str; 13] = [
    "hvac",
    "roofing",
    "plumbing",
    "electrician",
    "pest-control",
    "water-damage",
    "appliance-repair",
    "garage-door",
    "tree-services",
    "junk-removal",
    "mold-removal",
    "fire-damage",
    "biohazard",
];

/// warrantyYears the spec fixes.
pub const FIXED_WARRANTY: [(&str, u8); 5] = [
    ("solar", 25),
    ("foundation-repair", 25),
    ("gutter-protection", 20),
    ("waterproofing", 20),
    ("roofing", 15),
];

pub const PAYMENT_TERMS: [&str; 6] = [
    "Weekly Net 7",
    "Monthly Net 30",
    "Monthly net 15",
    "Monthly Net21",
    "Bi Monthly",
    "Weekly net 14",
];

#[derive(Debug, Clone, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Service {
    pub name: String,
    pub slug: String,
    pub title: String,
    pub subtitle: String,
    pub description: String,
    pub problem_title: String,
    pub problem_description: String,
    pub solution_title: String,
    pub solution_description: String,
    pub urgent_message: String,
    pub icon: String,
    pub color: String,
    pub image_url: String,
    pub emergency_available: bool,
    pub warranty_years: u8,
    pub urgent_scenarios: Vec<String>,
    pub features: Vec<Feature>,
    pub sample_project: SampleProject,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct Feature {
    pub title: String,
    pub description: String,
    pub icon: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct SampleProject {
    pub issue: String,
    pub location: String,
    pub urgency: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Campaign {
    pub campaign: String,
    pub payouts: String,
    pub status: String,
    pub notes: String,
    pub cap: String,
    pub inbound: bool,
    pub transfer: bool,
    pub seconds: u32,
    pub hours: String,
    pub geos: String,
    pub payment_terms: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub promo_allowed: Option<String>,
}

/// The campaigns as the public pages show them: the LIVE ones in the portal's order, the
/// names of those paused or ended (their apply link says they no longer take applications),
/// and each live one's id in the store (none for the catalogue's seed before the import).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CampaignList {
    pub live: Vec<Campaign>,
    pub closed: Vec<String>,
    pub ids: HashMap<String, i64>,
}

impl CampaignList {
    /// The catalogue's campaigns, every one LIVE (`validate_campaigns`), without ids.
    pub fn seed(catalogue: &Catalogue) -> Self {
        Self {
            live: catalogue.campaigns.clone(),
            closed: Vec::new(),
            ids: HashMap::new(),
        }
    }
}

#[derive(Debug, Error, PartialEq)]
#[error("{file}: {entry}: {field}: {message}")]
pub struct CatalogueError {
    pub file: &'static str,
    /// "entry 3 (slug \"siding\")" or "the file".
    pub entry: String,
    pub field: String,
    pub message: String,
}

#[derive(Debug, Clone)]
pub struct Catalogue {
    pub services: Vec<Service>,
    pub campaigns: Vec<Campaign>,
    by_slug: HashMap<String, usize>,
}

impl Catalogue {
    /// The catalogues built into the binary.
    pub fn embedded(icons: &dyn Fn(&str) -> bool) -> Result<Self, CatalogueError> {
        Self::parse(SERVICES_JSON, CAMPAIGNS_JSON, icons)
    }

    /// `services.json` and `campaigns.json` from a folder (an operator's own copy).
    pub fn from_dir(dir: &Path, icons: &dyn Fn(&str) -> bool) -> Result<Self, CatalogueError> {
        let read = |file: &'static str| {
            std::fs::read_to_string(dir.join(file)).map_err(|e| CatalogueError {
                file,
                entry: "the file".into(),
                field: "-".into(),
                message: format!("cannot read {}: {e}", dir.join(file).display()),
            })
        };
        Self::parse(&read("services.json")?, &read("campaigns.json")?, icons)
    }

    /// Parses and validates both catalogues. `icon_exists` says whether an icon name is in our icon set.
    pub fn parse(services: &str, campaigns: &str, icon_exists: &dyn Fn(&str) -> bool) -> Result<Self, CatalogueError> {
        let services: Vec<Service> = parse_entries("services.json", services, |v| {
            v.get("slug").and_then(|s| s.as_str()).map(|s| format!("slug {s:?}"))
        })?;
        let campaigns: Vec<Campaign> = parse_entries("campaigns.json", campaigns, |v| {
            v.get("campaign").and_then(|s| s.as_str()).map(|s| format!("campaign {s:?}"))
        })?;
        validate_services(&services, icon_exists)?;
        validate_campaigns(&campaigns)?;
        let by_slug = services.iter().enumerate().map(|(i, s)| (s.slug.clone(), i)).collect();
        Ok(Self {
            services,
            campaigns,
            by_slug,
        })
    }

    pub fn service(&self, slug: &str) -> Option<&Service> {
        self.by_slug.get(slug).map(|&i| &self.services[i])
    }
}

/// Parses a JSON array entry by entry so an error can name the entry it is in.
fn parse_entries<T: for<'de> Deserialize<'de>>(
    file: &'static str,
    text: &str,
    label: impl Fn(&serde_json::Value) -> Option<String>,
) -> Result<Vec<T>, CatalogueError> {
    let whole = |message: String| CatalogueError {
        file,
        entry: "the file".into(),
        field: "-".into(),
        message,
    };
    let values: Vec<serde_json::Value> = serde_json::from_str(text).map_err(|e| whole(format!("not a JSON array of entries: {e}")))?;
    values
        .into_iter()
        .enumerate()
        .map(|(i, value)| {
            let entry = entry_name(i, label(&value));
            serde_path_to_error::deserialize(value).map_err(|e| {
                let path = e.path().to_string();
                let message = e.into_inner().to_string();
                let field = if path == "." { field_in(&message) } else { path };
                CatalogueError {
                    file,
                    entry,
                    field,
                    message,
                }
            })
        })
        .collect()
}

fn entry_name(index: usize, label: Option<String>) -> String {
    match label {
        Some(l) => format!("entry {} ({l})", index + 1),
        None => format!("entry {}", index + 1),
    }
}

/// serde names the field in backticks ("missing field `title`"); pull it out.
fn field_in(message: &str) -> String {
    message.split('`').nth(1).unwrap_or("-").to_string()
}

fn validate_services(services: &[Service], icon_exists: &dyn Fn(&str) -> bool) -> Result<(), CatalogueError> {
    let err = |entry: String, field: &str, message: String| CatalogueError {
        file: "services.json",
        entry,
        field: field.into(),
        message,
    };
    let mut seen = HashSet::new();
    // Each service's own icon: the menus and the picker tell services apart by it.
    let mut icons: HashMap<&str, &str> = HashMap::new();
    for (i, s) in services.iter().enumerate() {
        let entry = entry_name(i, Some(format!("slug {:?}", s.slug)));
        if !SLUGS.contains(&s.slug.as_str()) {
            return Err(err(entry, "slug", "is not one of the 42 service slugs of the spec".into()));
        }
        if !seen.insert(s.slug.as_str()) {
            return Err(err(entry, "slug", "appears twice".into()));
        }
        let texts = [
            ("name", &s.name),
            ("title", &s.title),
            ("subtitle", &s.subtitle),
            ("description", &s.description),
            ("problemTitle", &s.problem_title),
            ("problemDescription", &s.problem_description),
            ("solutionTitle", &s.solution_title),
            ("solutionDescription", &s.solution_description),
            ("urgentMessage", &s.urgent_message),
            ("sampleProject.issue", &s.sample_project.issue),
            ("sampleProject.location", &s.sample_project.location),
            ("sampleProject.urgency", &s.sample_project.urgency),
        ];
        for (field, text) in texts {
            if text.trim().is_empty() {
                return Err(err(entry, field, "must not be empty".into()));
            }
        }
        if !icon_exists(&s.icon) {
            return Err(err(entry, "icon", format!("{:?} is not an icon of the icon set", s.icon)));
        }
        if let Some(other) = icons.insert(s.icon.as_str(), s.slug.as_str()) {
            return Err(err(entry, "icon", format!("{:?} is already the icon of {other:?}", s.icon)));
        }
        if !is_hex_colour(&s.color) {
            return Err(err(entry, "color", format!("{:?} is not a #rrggbb colour", s.color)));
        }
        if !(s.image_url.is_empty() || s.image_url.starts_with("/assets/")) {
            return Err(err(
                entry,
                "imageUrl",
                "must be empty or an image served by the site (/assets/…)".into(),
            ));
        }
        let emergency = EMERGENCY_SLUGS.contains(&s.slug.as_str());
        if s.emergency_available != emergency {
            return Err(err(entry, "emergencyAvailable", format!("must be {emergency} for this service")));
        }
        if s.warranty_years > 25 {
            return Err(err(entry, "warrantyYears", format!("{} is outside 0-25", s.warranty_years)));
        }
        if let Some((_, years)) = FIXED_WARRANTY.iter().find(|(slug, _)| *slug == s.slug)
            && s.warranty_years != *years
        {
            return Err(err(entry, "warrantyYears", format!("must be {years} for this service")));
        }
        if s.urgent_scenarios.len() != 4 {
            return Err(err(
                entry,
                "urgentScenarios",
                format!("has {} items, needs exactly 4", s.urgent_scenarios.len()),
            ));
        }
        if s.urgent_scenarios.iter().any(|x| x.trim().is_empty()) {
            return Err(err(entry, "urgentScenarios", "has an empty item".into()));
        }
        if s.features.len() != 3 {
            return Err(err(entry, "features", format!("has {} items, needs exactly 3", s.features.len())));
        }
        for (n, f) in s.features.iter().enumerate() {
            if f.title.trim().is_empty() || f.description.trim().is_empty() {
                return Err(err(entry, &format!("features[{n}]"), "needs a title and a description".into()));
            }
            if !icon_exists(&f.icon) {
                return Err(err(
                    entry,
                    &format!("features[{n}].icon"),
                    format!("{:?} is not an icon of the icon set", f.icon),
                ));
            }
        }
    }
    if let Some(missing) = SLUGS.iter().find(|slug| !seen.contains(**slug)) {
        return Err(err("the file".into(), "slug", format!("service {missing:?} is missing")));
    }
    Ok(())
}

fn validate_campaigns(campaigns: &[Campaign]) -> Result<(), CatalogueError> {
    let err = |entry: String, field: &str, message: String| CatalogueError {
        file: "campaigns.json",
        entry,
        field: field.into(),
        message,
    };
    let mut seen = HashSet::new();
    for (i, c) in campaigns.iter().enumerate() {
        let entry = entry_name(i, Some(format!("campaign {:?}", c.campaign)));
        if c.campaign.trim().is_empty() {
            return Err(err(entry, "campaign", "must not be empty".into()));
        }
        // Names travel in links, forms and staff e-mails: one plain line of reasonable length.
        if c.campaign.chars().count() > 150 || c.campaign.chars().any(char::is_control) || c.campaign != c.campaign.trim() {
            return Err(err(
                entry,
                "campaign",
                "must be one line of at most 150 characters, without surrounding spaces".into(),
            ));
        }
        if !seen.insert(c.campaign.as_str()) {
            return Err(err(entry, "campaign", "appears twice".into()));
        }
        if c.payouts.trim().is_empty() {
            return Err(err(entry, "payouts", "must not be empty".into()));
        }
        if c.status != "LIVE" {
            return Err(err(entry, "status", format!("{:?} is not LIVE", c.status)));
        }
        if c.seconds != 120 {
            return Err(err(entry, "seconds", format!("{} is not 120", c.seconds)));
        }
        if !PAYMENT_TERMS.contains(&c.payment_terms.as_str()) {
            return Err(err(
                entry,
                "paymentTerms",
                format!("{:?} is not one of {}", c.payment_terms, PAYMENT_TERMS.join(", ")),
            ));
        }
        if c.hours.trim().is_empty() || c.geos.trim().is_empty() {
            return Err(err(
                entry,
                if c.hours.trim().is_empty() { "hours" } else { "geos" },
                "must not be empty".into(),
            ));
        }
    }
    if campaigns.is_empty() {
        return Err(err("the file".into(), "-", "holds no campaigns".into()));
    }
    Ok(())
}

fn is_hex_colour(s: &str) -> bool {
    s.len() == 7 && s.starts_with('#') && s[1..].bytes().all(|b| b.is_ascii_hexdigit())
}
