//! Campaigns as the store keeps them (migration 0014): the fields the portal's card and the
//! application show, a stable id, who created and last changed each and when, and each
//! campaign's history, one row per field a save changed. Written for both databases by
//! `sqlite/campaigns.rs` and `postgres/campaigns.rs`.

/// The states a campaign is in: LIVE is shown and open to applications; paused and ended
/// are hidden (ended for good, kept for history and the applications that name it).
pub const CAMPAIGN_STATUSES: [&str; 3] = ["LIVE", "paused", "ended"];

/// What a campaign is, as staff edit it (the public card's fields).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CampaignFields {
    pub name: String,
    pub status: String,
    pub payouts: String,
    pub payment_terms: String,
    pub geos: String,
    /// The promotion note; None: the card shows none.
    pub promo_allowed: Option<String>,
    pub cap: String,
    pub inbound: bool,
    pub transfer: bool,
    /// The call length, in seconds.
    pub seconds: i64,
    pub hours: String,
    pub notes: String,
}

/// A stored campaign.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CampaignRecord {
    pub id: i64,
    pub fields: CampaignFields,
    pub created_ms: i64,
    /// None: imported from the catalogue at the first start.
    pub created_by: Option<String>,
    pub changed_ms: i64,
    pub changed_by: Option<String>,
}

/// One field a save changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CampaignChange {
    pub at_ms: i64,
    pub staff_email: Option<String>,
    pub field: String,
    /// None: the campaign was added.
    pub old_value: Option<String>,
    pub new_value: Option<String>,
}

/// One campaign to save: a new one (`id` None) or new values for a stored one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CampaignEdit {
    pub id: Option<i64>,
    pub fields: CampaignFields,
}

/// What a save did: the id of each campaign in the order given, or the first it could not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CampaignSaved {
    Saved(Vec<i64>),
    /// A campaign of that id is not stored: nothing was saved.
    Unknown(i64),
    /// The name is another campaign's that has not ended: nothing was saved.
    NameTaken(String),
}

/// The fields a history row names, with their values as text, in the card's order.
pub fn field_values(f: &CampaignFields) -> [(&'static str, Option<String>); 12] {
    let flag = |b: bool| Some(if b { "yes" } else { "no" }.to_string());
    [
        ("name", Some(f.name.clone())),
        ("status", Some(f.status.clone())),
        ("payouts", Some(f.payouts.clone())),
        ("payment_terms", Some(f.payment_terms.clone())),
        ("geos", Some(f.geos.clone())),
        ("promo_allowed", f.promo_allowed.clone()),
        ("cap", Some(f.cap.clone())),
        ("inbound", flag(f.inbound)),
        ("transfer", flag(f.transfer)),
        ("seconds", Some(f.seconds.to_string())),
        ("hours", Some(f.hours.clone())),
        ("notes", Some(f.notes.clone())),
    ]
}

/// The fields that differ between `old` and `new`: (field, from, to). A new campaign
/// (`old` None) names every field it has a value for, from nothing.
pub fn changes(old: Option<&CampaignFields>, new: &CampaignFields) -> Vec<(&'static str, Option<String>, Option<String>)> {
    let after = field_values(new);
    match old {
        None => after
            .into_iter()
            .filter(|(_, v)| v.is_some())
            .map(|(field, v)| (field, None, v))
            .collect(),
        Some(old) => field_values(old)
            .into_iter()
            .zip(after)
            .filter(|((_, a), (_, b))| a != b)
            .map(|((field, a), (_, b))| (field, a, b))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(name: &str) -> CampaignFields {
        CampaignFields {
            name: name.into(),
            status: "LIVE".into(),
            payouts: "$28".into(),
            payment_terms: "Weekly Net 7".into(),
            geos: "Nationwide".into(),
            promo_allowed: None,
            cap: "50/day".into(),
            inbound: true,
            transfer: false,
            seconds: 120,
            hours: "HOVER TO SEE".into(),
            notes: "n".into(),
        }
    }

    #[test]
    fn a_change_names_only_the_fields_that_differ() {
        let old = fields("A");
        let mut new = fields("A");
        new.payouts = "$35".into();
        new.promo_allowed = Some("Search OK".into());
        assert_eq!(
            changes(Some(&old), &new),
            vec![
                ("payouts", Some("$28".into()), Some("$35".into())),
                ("promo_allowed", None, Some("Search OK".into())),
            ]
        );
        assert!(changes(Some(&old), &old).is_empty());
        assert_eq!(changes(None, &old).len(), 11, "every field but the missing promotion note");
    }
}
