//! The campaign application's rules, in order: the first that fails is the visitor's message
//! (the nine of docs/product.md, then ours). The browser's twin is
//! client/features/campaigns/campaignApplication.ts; both pass catalogue/cases/campaign-applications.json.

use super::{Application, EXPERIENCE, MONTHLY_VOLUME};
use crate::catalogue::Campaign;
use crate::forms::{Field, Fields, Invalid, has_control, has_line_break, is_email, is_js_space};

pub const MSG_FIRST_NAME: &str = "First name is required";
pub const MSG_LAST_NAME: &str = "Last name is required";
pub const MSG_EMAIL: &str = "Email is required";
pub const MSG_EMAIL_INVALID: &str = "Please enter a valid email address";
pub const MSG_PHONE: &str = "Phone number is required";
pub const MSG_COMPANY: &str = "Company name is required";
pub const MSG_EXPERIENCE: &str = "Please select your experience level";
pub const MSG_VOLUME: &str = "Please select your expected monthly volume";
pub const MSG_CAMPAIGNS: &str = "Please select at least one campaign";
pub const MSG_WEBSITE: &str = "Please enter a valid website address, such as https://example.com";
pub const MSG_CAMPAIGN_UNAVAILABLE: &str =
    "A campaign you selected is no longer accepting applications. Please reload the page and choose again.";

/// The free-text fields with their label (for the length and character messages) and limit.
#[derive(Debug, Clone, Copy)]
struct TextField {
    name: &'static str,
    max: usize,
    required: &'static str,
    too_long: &'static str,
    bad_characters: &'static str,
    reason: &'static str,
}

const FIRST_NAME: TextField = TextField {
    name: "firstName",
    max: 100,
    required: MSG_FIRST_NAME,
    too_long: "First name must be 100 characters or fewer",
    bad_characters: "First name contains characters we cannot accept",
    reason: "first_name",
};
const LAST_NAME: TextField = TextField {
    name: "lastName",
    max: 100,
    required: MSG_LAST_NAME,
    too_long: "Last name must be 100 characters or fewer",
    bad_characters: "Last name contains characters we cannot accept",
    reason: "last_name",
};
const PHONE: TextField = TextField {
    name: "phone",
    max: 30,
    required: MSG_PHONE,
    too_long: "Phone number must be 30 characters or fewer",
    bad_characters: "Phone number contains characters we cannot accept",
    reason: "phone",
};
const COMPANY: TextField = TextField {
    name: "company",
    max: 200,
    required: MSG_COMPANY,
    too_long: "Company name must be 200 characters or fewer",
    bad_characters: "Company name contains characters we cannot accept",
    reason: "company",
};
pub const MAX_EMAIL: usize = 254;
pub const MAX_WEBSITE: usize = 500;
pub const MAX_ADDITIONAL_INFO: usize = 2000;
pub const MSG_ADDITIONAL_INFO_LONG: &str = "Additional information must be 2000 characters or fewer";
pub const MSG_ADDITIONAL_INFO_CHARACTERS: &str = "Additional information contains characters we cannot accept";

fn invalid(reason: &'static str, message: &'static str) -> Invalid {
    Invalid { reason, message }
}

/// Control characters (Unicode Cc) other than tab, and line breaks unless `multiline`.
fn bad_characters(s: &str, multiline: bool) -> bool {
    has_control(s) || (!multiline && has_line_break(s))
}

/// A website as stored: http(s) with a host name; a bare "example.com" gets "https://".
/// None when it cannot be one (see the browser's `normaliseWebsite`).
pub fn normalise_website(text: &str) -> Option<String> {
    if text.chars().any(|c| is_js_space(c) || c.is_control()) {
        return None;
    }
    let scheme = text.split_once(':').map(|(s, _)| s).filter(|s| {
        let mut chars = s.chars();
        chars.next().is_some_and(|c| c.is_ascii_alphabetic()) && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '.' | '-'))
    });
    let url = match scheme {
        Some(name) => {
            let lower = name.to_ascii_lowercase();
            if (lower != "http" && lower != "https") || !text[name.len() + 1..].starts_with("//") {
                return None;
            }
            text.to_string()
        }
        None => format!("https://{text}"),
    };
    let after = &url[url.find("//").map_or(0, |i| i + 2)..];
    let authority = after.split(['/', '?', '#']).next().unwrap_or("");
    let host = match authority.rsplit_once(':') {
        Some((host, port)) if !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) => host,
        _ => authority,
    };
    let label = |part: &str| !part.is_empty() && part.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || !c.is_ascii());
    let labels: Vec<&str> = host.split('.').collect();
    (labels.len() >= 2 && labels.iter().all(|p| label(p))).then_some(url)
}

/// A required one-line text: present, not blank, within its limit, no control characters.
fn required(fields: &Fields, f: TextField) -> Result<String, Invalid> {
    let text = match fields.get(f.name) {
        Field::Text(s) if !s.trim().is_empty() => s.trim(),
        _ => return Err(invalid(f.reason, f.required)),
    };
    if text.chars().count() > f.max {
        return Err(invalid(f.reason, f.too_long));
    }
    if bad_characters(text, false) {
        return Err(invalid(f.reason, f.bad_characters));
    }
    Ok(text.to_string())
}

/// One of a select's values, exactly.
fn choice(
    fields: &Fields,
    name: &str,
    options: &[(&'static str, &'static str)],
    reason: &'static str,
    message: &'static str,
) -> Result<&'static str, Invalid> {
    match fields.get(name) {
        Field::Text(s) => options
            .iter()
            .find(|(v, _)| v == s)
            .map(|(v, _)| *v)
            .ok_or(invalid(reason, message)),
        _ => Err(invalid(reason, message)),
    }
}

/// Checks an application against the rules and the campaign catalogue (every campaign named
/// must exist and be LIVE), and builds what is stored.
pub fn validate_application(fields: &Fields, campaigns: &[Campaign]) -> Result<Application, Invalid> {
    let first_name = required(fields, FIRST_NAME)?;
    let last_name = required(fields, LAST_NAME)?;

    let email = match fields.get("email") {
        Field::Text(s) if !s.trim().is_empty() => s.trim(),
        _ => return Err(invalid("email", MSG_EMAIL)),
    };
    if !is_email(email) || email.chars().count() > MAX_EMAIL {
        return Err(invalid("email", MSG_EMAIL_INVALID));
    }
    let email = email.to_string();

    let phone = required(fields, PHONE)?;
    let company = required(fields, COMPANY)?;

    let experience = choice(fields, "experience", &EXPERIENCE, "experience", MSG_EXPERIENCE)?;
    let monthly_volume = choice(fields, "monthlyVolume", &MONTHLY_VOLUME, "monthly_volume", MSG_VOLUME)?;

    let named: Vec<&str> = match fields.get("selectedCampaigns") {
        Field::List(names) => names.iter().map(String::as_str).collect(),
        Field::Text(name) if !name.trim().is_empty() => vec![name.as_str()],
        _ => Vec::new(),
    };
    if named.is_empty() {
        return Err(invalid("campaigns", MSG_CAMPAIGNS));
    }

    // Ours, after those nine: the optional website, the campaigns still open, the additional
    // information. (A bad website never hides a missing choice above.)
    let website = match fields.get("website") {
        Field::Missing => None,
        Field::Text(s) if s.trim().is_empty() => None,
        Field::Text(s) if s.trim().chars().count() <= MAX_WEBSITE => {
            Some(normalise_website(s.trim()).ok_or(invalid("website", MSG_WEBSITE))?)
        }
        _ => return Err(invalid("website", MSG_WEBSITE)),
    };
    let live = |name: &str| campaigns.iter().any(|c| c.campaign == name && c.status == "LIVE");
    if !named.iter().all(|name| live(name)) {
        return Err(invalid("campaign_unavailable", MSG_CAMPAIGN_UNAVAILABLE));
    }
    let selected_campaigns = campaigns
        .iter()
        .filter(|c| named.contains(&c.campaign.as_str()))
        .map(|c| c.campaign.clone())
        .collect();

    let additional_info = match fields.get("additionalInfo") {
        Field::Missing => String::new(),
        Field::Text(s) => s.trim().to_string(),
        _ => return Err(invalid("additional_info", MSG_ADDITIONAL_INFO_CHARACTERS)),
    };
    if additional_info.chars().count() > MAX_ADDITIONAL_INFO {
        return Err(invalid("additional_info", MSG_ADDITIONAL_INFO_LONG));
    }
    if bad_characters(&additional_info, true) {
        return Err(invalid("additional_info", MSG_ADDITIONAL_INFO_CHARACTERS));
    }

    Ok(Application {
        first_name,
        last_name,
        email,
        phone,
        company,
        website,
        experience,
        monthly_volume,
        selected_campaigns,
        selected_campaign_ids: Vec::new(),
        additional_info: (!additional_info.is_empty()).then_some(additional_info),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn websites() {
        assert_eq!(normalise_website("a.example").as_deref(), Some("https://a.example"));
        assert_eq!(
            normalise_website("HTTP://a.example/x?y#z").as_deref(),
            Some("HTTP://a.example/x?y#z")
        );
        assert_eq!(
            normalise_website("http://a.example:8080/").as_deref(),
            Some("http://a.example:8080/")
        );
        assert_eq!(normalise_website("bücher.example").as_deref(), Some("https://bücher.example"));
        for bad in [
            "",
            "mailto:a@b.example",
            "https://a",
            "a..example",
            "https://a.example:x",
            "a.example\u{2028}",
            "data:text/html,x",
            "a.example:8080",
        ] {
            assert_eq!(normalise_website(bad), None, "{bad}");
        }
    }

    #[test]
    fn non_live_campaigns_are_refused() {
        let mut paused: Campaign = serde_json::from_value(serde_json::json!({
            "campaign": "Paused One", "payouts": "$30", "status": "PAUSED", "notes": "", "cap": "", "inbound": true,
            "transfer": false, "seconds": 120, "hours": "x", "geos": "x", "paymentTerms": "Weekly Net 7"
        }))
        .expect("campaign");
        let body = |name: &str| {
            Fields::from_json(&serde_json::json!({
                "firstName": "J", "lastName": "O", "email": "j@o.example", "phone": "1", "company": "C",
                "experience": "expert", "monthlyVolume": "1-50", "selectedCampaigns": [name]
            }))
            .expect("object")
        };
        let refused = validate_application(&body("Paused One"), std::slice::from_ref(&paused)).expect_err("paused");
        assert_eq!(refused.message, MSG_CAMPAIGN_UNAVAILABLE);
        paused.status = "LIVE".into();
        let taken = validate_application(&body("Paused One"), std::slice::from_ref(&paused)).expect("live");
        assert_eq!(taken.selected_campaigns, vec!["Paused One".to_string()]);
    }
}
