//! Campaigns between the store and the pages (docs/product.md, "Campaigns in the console"):
//! the catalogue's campaigns as the first start's import, the stored ones as the public
//! pages show them (LIVE only), and the rules every change passes, with their messages.

use std::collections::{HashMap, HashSet};

use crate::catalogue::{Campaign, CampaignList, Catalogue, PAYMENT_TERMS};
use crate::store::{CAMPAIGN_STATUSES, CampaignFields, CampaignRecord};

/// The longest name: it travels in links, forms and staff e-mails.
pub const NAME_MAX: usize = 150;
/// The longest of the card's short texts (payout, GEOs, cap, hours, promotion note).
pub const SHORT_MAX: usize = 200;
/// The longest notes.
pub const NOTES_MAX: usize = 1000;

/// The catalogue's campaigns as the store keeps them (the first start's import).
pub fn seed(catalogue: &Catalogue) -> Vec<CampaignFields> {
    catalogue.campaigns.iter().map(fields_of).collect()
}

/// A catalogue entry's fields.
pub fn fields_of(c: &Campaign) -> CampaignFields {
    CampaignFields {
        name: c.campaign.clone(),
        status: c.status.clone(),
        payouts: c.payouts.clone(),
        payment_terms: c.payment_terms.clone(),
        geos: c.geos.clone(),
        promo_allowed: c.promo_allowed.clone(),
        cap: c.cap.clone(),
        inbound: c.inbound,
        transfer: c.transfer,
        seconds: i64::from(c.seconds),
        hours: c.hours.clone(),
        notes: c.notes.clone(),
    }
}

/// The public card of stored fields.
pub fn card(f: &CampaignFields) -> Campaign {
    Campaign {
        campaign: f.name.clone(),
        payouts: f.payouts.clone(),
        status: f.status.clone(),
        notes: f.notes.clone(),
        cap: f.cap.clone(),
        inbound: f.inbound,
        transfer: f.transfer,
        seconds: u32::try_from(f.seconds).unwrap_or(0),
        hours: f.hours.clone(),
        geos: f.geos.clone(),
        payment_terms: f.payment_terms.clone(),
        promo_allowed: f.promo_allowed.clone(),
    }
}

/// What the public pages show of the stored campaigns: the LIVE ones, in order, with their
/// ids; the names of the others (an ended one's only while no open one has its name).
pub fn public(records: &[CampaignRecord]) -> CampaignList {
    let live: Vec<&CampaignRecord> = records.iter().filter(|r| r.fields.status == "LIVE").collect();
    let open: HashSet<&str> = live.iter().map(|r| r.fields.name.as_str()).collect();
    let mut closed = Vec::new();
    for r in records.iter().filter(|r| r.fields.status != "LIVE") {
        if !open.contains(r.fields.name.as_str()) && !closed.contains(&r.fields.name) {
            closed.push(r.fields.name.clone());
        }
    }
    CampaignList {
        live: live.iter().map(|r| card(&r.fields)).collect(),
        closed,
        ids: live.iter().map(|r| (r.fields.name.clone(), r.id)).collect::<HashMap<_, _>>(),
    }
}

/// A rule a campaign broke: the field (its form's name) and the message staff read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub field: &'static str,
    pub message: String,
}

fn problem(field: &'static str, message: impl Into<String>) -> Problem {
    Problem {
        field,
        message: message.into(),
    }
}

/// Whether the portal's payout filters understand `text`: 'Fixed Payout' keeps a payout with
/// a `$`, 'RTB Campaigns' one with `RTB` (client/features/campaigns/campaigns.ts). So a `$`
/// and a digit ("$28", "$20-$40", "up to $50", "$25 CPL"), or RTB.
pub fn is_payout(text: &str) -> bool {
    text.contains("RTB") || text.split('$').skip(1).any(|after| after.starts_with(|c: char| c.is_ascii_digit()))
}

fn one_line(field: &'static str, label: &str, text: &str, max: usize, required: bool) -> Result<(), Problem> {
    if required && text.is_empty() {
        return Err(problem(field, format!("{label}: enter it.")));
    }
    if text.chars().count() > max {
        return Err(problem(field, format!("{label}: at most {max} characters.")));
    }
    if text.chars().any(char::is_control) {
        return Err(problem(field, format!("{label}: one line of text, without control characters.")));
    }
    Ok(())
}

/// The rules one campaign's fields pass, in the form's order; the first broken one. Texts
/// arrive trimmed.
pub fn check(f: &CampaignFields) -> Result<(), Problem> {
    one_line("name", "Name", &f.name, NAME_MAX, true)?;
    if !CAMPAIGN_STATUSES.contains(&f.status.as_str()) {
        return Err(problem("status", "Status: choose LIVE, paused or ended."));
    }
    one_line("payouts", "Payout", &f.payouts, SHORT_MAX, true)?;
    if !is_payout(&f.payouts) {
        return Err(problem(
            "payouts",
            "Payout: write a $ amount ($28), a range ($20-$40), a CPL ($25 CPL) or RTB, so the portal's payout filters can sort it.",
        ));
    }
    if !PAYMENT_TERMS.contains(&f.payment_terms.as_str()) {
        return Err(problem(
            "payment_terms",
            format!("Payment terms: choose one of {}.", PAYMENT_TERMS.join(", ")),
        ));
    }
    one_line("geos", "GEOs", &f.geos, SHORT_MAX, true)?;
    one_line(
        "promo_allowed",
        "Promotion note",
        f.promo_allowed.as_deref().unwrap_or(""),
        SHORT_MAX,
        false,
    )?;
    one_line("cap", "Cap", &f.cap, SHORT_MAX, true)?;
    if !(1..=3600).contains(&f.seconds) {
        return Err(problem("seconds", "Call length: a whole number of seconds from 1 to 3600."));
    }
    one_line("hours", "Hours", &f.hours, SHORT_MAX, true)?;
    if f.notes.chars().count() > NOTES_MAX {
        return Err(problem("notes", format!("Notes: at most {NOTES_MAX} characters.")));
    }
    if f.notes.chars().any(|c| c.is_control() && c != '\n') {
        return Err(problem("notes", "Notes: text without control characters."));
    }
    Ok(())
}

/// The name rule over a whole set of campaigns after a change (every one's fields): the
/// first name two open (not ended) campaigns share.
pub fn name_clash<'a>(all: impl IntoIterator<Item = &'a CampaignFields>) -> Option<String> {
    let mut seen = HashSet::new();
    all.into_iter()
        .filter(|f| f.status != "ended")
        .find(|f| !seen.insert(f.name.as_str()))
        .map(|f| f.name.clone())
}

/// The message for a name another open campaign has.
pub fn name_taken(name: &str) -> String {
    format!("Name: \u{201c}{name}\u{201d} is already the name of a campaign that has not ended. Choose another, or end that one first.")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_payouts_the_portal_filters_understand() {
        for good in ["$28", "$20-$40", "up to $50", "$25 CPL", "RTB", "$175+", "RTB ($40 floor)"] {
            assert!(is_payout(good), "{good}");
        }
        for bad in ["", "28", "CPL", "ask", "$", "$ 28", "rtb"] {
            assert!(!is_payout(bad), "{bad}");
        }
    }

    #[test]
    fn every_catalogue_campaign_passes_the_rules() {
        let catalogue = Catalogue::embedded(&|_| true).expect("catalogue");
        for f in seed(&catalogue) {
            assert_eq!(check(&f), Ok(()), "{}", f.name);
        }
        assert_eq!(name_clash(&seed(&catalogue)), None);
    }

    #[test]
    fn a_broken_rule_names_its_field() {
        let catalogue = Catalogue::embedded(&|_| true).expect("catalogue");
        let mut f = seed(&catalogue).remove(0);
        f.payouts = "call us".into();
        assert_eq!(check(&f).map_err(|p| p.field), Err("payouts"));
        f.payouts = "$28".into();
        f.status = "LIVE?".into();
        assert_eq!(check(&f).map_err(|p| p.field), Err("status"));
        f.status = "ended".into();
        f.name = "a\u{7}b".into();
        assert_eq!(check(&f).map_err(|p| p.field), Err("name"));
    }

    #[test]
    fn an_ended_campaign_leaves_its_name_free_and_the_lists() {
        let catalogue = Catalogue::embedded(&|_| true).expect("catalogue");
        let mut fields = seed(&catalogue);
        let mut twin = fields[0].clone();
        assert_eq!(name_clash(fields.iter().chain([&twin])), Some(twin.name.clone()));
        twin.status = "ended".into();
        assert_eq!(name_clash(fields.iter().chain([&twin])), None);
        fields[1].status = "paused".into();
        let records: Vec<CampaignRecord> = fields
            .into_iter()
            .enumerate()
            .map(|(n, fields)| CampaignRecord {
                id: n as i64 + 1,
                fields,
                created_ms: 0,
                created_by: None,
                changed_ms: 0,
                changed_by: None,
            })
            .collect();
        let list = public(&records);
        assert_eq!(list.live.len(), records.len() - 1);
        assert_eq!(list.closed, vec![records[1].fields.name.clone()]);
        assert_eq!(list.ids.get(&records[0].fields.name), Some(&1));
    }
}
