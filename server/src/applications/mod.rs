//! Campaign applications (docs/product.md, "The campaign application"): what an affiliate's application is,
//! the rules it must pass before we accept it (whatever the browser checked), and the
//! e-mail staff get about it.

pub mod validate;

use serde_json::{Value, json};

use crate::time::human_utc;

/// The experience select: value and label (docs/product.md, "The campaign application").
pub const EXPERIENCE: [(&str, &str); 4] = [
    ("beginner", "Beginner (0-6 months)"),
    ("intermediate", "Intermediate (6 months - 2 years)"),
    ("experienced", "Experienced (2+ years)"),
    ("expert", "Expert (5+ years)"),
];

/// The monthly volume select: value and label. The affiliate's registration forms offer the
/// same list (`MONTHLY_VOLUME_VALUES`); the browser's copy is client/lib/options.ts.
pub const MONTHLY_VOLUME: [(&str, &str); 5] = [
    ("1-50", "1-50 leads"),
    ("50-100", "50-100 leads"),
    ("100-500", "100-500 leads"),
    ("500-1000", "500-1000 leads"),
    ("1000+", "1000+ leads"),
];

/// The values of `MONTHLY_VOLUME` alone.
pub const MONTHLY_VOLUME_VALUES: [&str; 5] = {
    let mut values = [""; 5];
    let mut i = 0;
    while i < values.len() {
        values[i] = MONTHLY_VOLUME[i].0;
        i += 1;
    }
    values
};

/// Where the application came from, as the spec's mail draft says.
pub const SOURCE: &str = "Campaign Portal Application";

/// A valid application: trimmed, its website with a scheme, its campaigns once each in
/// catalogue order.
#[derive(Debug, Clone, PartialEq)]
pub struct Application {
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    /// As typed (the form asks only that it be there).
    pub phone: String,
    pub company: String,
    pub website: Option<String>,
    pub experience: &'static str,
    pub monthly_volume: &'static str,
    pub selected_campaigns: Vec<String>,
    /// The store's id of each campaign of `selected_campaigns`, in the same order (the name
    /// is the one the applicant saw; the id finds the campaign after a rename).
    pub selected_campaign_ids: Vec<i64>,
    pub additional_info: Option<String>,
}

fn label(options: &[(&'static str, &'static str)], value: &str) -> &'static str {
    options.iter().find(|(v, _)| *v == value).map_or("", |(_, l)| *l)
}

impl Application {
    /// The fields as stored (the submission's `data`), with the names the form uses.
    pub fn data(&self) -> Value {
        json!({
            "firstName": self.first_name,
            "lastName": self.last_name,
            "email": self.email,
            "phone": self.phone,
            "company": self.company,
            "website": self.website,
            "experience": self.experience,
            "monthlyVolume": self.monthly_volume,
            "selectedCampaigns": self.selected_campaigns,
            "selectedCampaignIds": self.selected_campaign_ids,
            "additionalInfo": self.additional_info,
            "source": SOURCE,
        })
    }

    /// The draft's subject: 'New Campaign Application - {firstName} {lastName}'.
    pub fn mail_subject(&self) -> String {
        format!("New Campaign Application - {} {}", self.first_name, self.last_name)
    }

    /// The staff e-mail's body: what the visitor's mail draft holds, with the time we
    /// received it.
    pub fn mail_body(&self, received_ms: i64) -> String {
        let mut lines = vec![
            "New campaign application".to_string(),
            String::new(),
            "PERSONAL INFORMATION".into(),
            format!("Name: {} {}", self.first_name, self.last_name),
            format!("Email: {}", self.email),
            format!("Phone: {}", self.phone),
            format!("Company: {}", self.company),
            format!("Website: {}", self.website.as_deref().unwrap_or("Not provided")),
            String::new(),
            "EXPERIENCE AND VOLUME".into(),
            format!("Experience: {}", label(&EXPERIENCE, self.experience)),
            format!("Expected monthly volume: {}", label(&MONTHLY_VOLUME, self.monthly_volume)),
            String::new(),
            format!("SELECTED CAMPAIGNS ({})", self.selected_campaigns.len()),
        ];
        lines.extend(self.selected_campaigns.iter().map(|c| format!("- {c}")));
        lines.extend([
            String::new(),
            "ADDITIONAL INFORMATION".into(),
            self.additional_info.clone().unwrap_or_else(|| "None provided".into()),
            String::new(),
            format!("Application date: {}", human_utc(received_ms)),
            format!("Source: {SOURCE}"),
        ]);
        let mut body = lines.join("\n");
        body.push('\n');
        body
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn application() -> Application {
        Application {
            first_name: "Jane".into(),
            last_name: "Okafor".into(),
            email: "Jane@LeadFlow.example".into(),
            phone: "(412) 555-0188".into(),
            company: "LeadFlow Media".into(),
            website: None,
            experience: "expert",
            monthly_volume: "1000+",
            selected_campaigns: vec!["Roofing Inbound Calls".into(), "HVAC Repair Transfers".into()],
            selected_campaign_ids: vec![4, 9],
            additional_info: None,
        }
    }

    #[test]
    fn the_mail_has_the_spec_subject_and_everything_staff_need() {
        let a = application();
        assert_eq!(a.mail_subject(), "New Campaign Application - Jane Okafor");
        let body = a.mail_body(1_763_820_000_000);
        for line in [
            "Name: Jane Okafor",
            "Website: Not provided",
            "Experience: Expert (5+ years)",
            "Expected monthly volume: 1000+ leads",
            "SELECTED CAMPAIGNS (2)",
            "- HVAC Repair Transfers",
            "None provided",
            "Application date: 2025-11-22 14:00 UTC",
            "Source: Campaign Portal Application",
        ] {
            assert!(body.lines().any(|l| l == line), "{line:?} in\n{body}");
        }
    }
}
