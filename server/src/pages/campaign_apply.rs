//! The campaign application as pages of its own, the no-JavaScript path of the portal's
//! 'Apply Now' links: GET /campaigns/apply?campaign=…, the form with that campaign chosen (an
//! unknown name chooses none); the same page again for a refused form post, with the
//! visitor's values and the error; and GET /campaigns/applied, where an accepted one lands.
//! Kept out of search results.

use std::collections::HashMap;
use std::sync::Arc;

use axum::http::StatusCode;

use super::props::{CampaignAppliedProps, CampaignApplyProps, FormError, FormValues, IconSet, PageProps};
use super::{PageMaker, PreparedPage, Refused, Unlisted};
use crate::catalogue::CampaignList;

/// The application form as a page of its own (the 'Apply Now' links' target).
pub const APPLY_PATH: &str = "/campaigns/apply";
/// Where a successful no-JavaScript post lands (post/redirect/get).
pub const APPLIED_PATH: &str = "/campaigns/applied";
/// The apply page's query parameter: the name of the campaign to choose.
pub const CAMPAIGN_PARAM: &str = "campaign";
/// The application's field of several texts: the campaigns chosen.
pub const CAMPAIGNS_FIELD: &str = "selectedCampaigns";

/// The application's pages, kept to render its error answers.
#[derive(Debug)]
pub struct ApplyPages {
    maker: PageMaker,
    /// The live campaigns' names, in the portal's order.
    campaigns: Vec<String>,
    /// The paused and ended campaigns' names.
    closed: Vec<String>,
}

impl ApplyPages {
    pub fn new(maker: PageMaker, list: &CampaignList) -> Self {
        let campaigns = list
            .live
            .iter()
            .filter(|c| c.status == "LIVE")
            .map(|c| c.campaign.clone())
            .collect();
        Self {
            maker,
            campaigns,
            closed: list.closed.clone(),
        }
    }

    /// /campaigns/apply: one page per live campaign, chosen, one per paused or ended one,
    /// saying it no longer accepts applications, and one with none.
    pub fn apply(&self) -> Result<Unlisted, serde_json::Error> {
        let mut by_value = HashMap::new();
        for name in &self.closed {
            by_value.insert(
                name.clone(),
                Arc::new(self.page_for(FormValues::default(), None, StatusCode::OK, Some(name.clone()))?),
            );
        }
        for name in &self.campaigns {
            let mut values = FormValues::default();
            values.lists.insert(CAMPAIGNS_FIELD.to_string(), vec![name.clone()]);
            by_value.insert(name.clone(), Arc::new(self.page(values, None, StatusCode::OK)?));
        }
        Ok(Unlisted {
            param: Some(CAMPAIGN_PARAM),
            by_value,
            otherwise: Arc::new(self.page(FormValues::default(), None, StatusCode::OK)?),
        })
    }

    /// The apply page again for a form post that broke a rule.
    pub fn answer(&self, refused: Refused) -> Result<PreparedPage, serde_json::Error> {
        self.page(refused.values, Some(refused.error), refused.status)
    }

    /// /campaigns/applied.
    pub fn applied(&self) -> Result<Unlisted, serde_json::Error> {
        let page = self.maker.page(
            &PageProps::CampaignApplied(CampaignAppliedProps {
                site: self.maker.site.clone(),
                icons: IconSet::new(),
            }),
            self.maker.head(
                "Application Submitted",
                "Your campaign application is in: our affiliate team reviews it within 24-48 hours.".to_string(),
                APPLIED_PATH,
                false,
            ),
            StatusCode::OK,
        )?;
        Ok(Unlisted::single(page))
    }

    fn page(&self, values: FormValues, error: Option<FormError>, status: StatusCode) -> Result<PreparedPage, serde_json::Error> {
        self.page_for(values, error, status, None)
    }

    fn page_for(
        &self,
        values: FormValues,
        error: Option<FormError>,
        status: StatusCode,
        closed: Option<String>,
    ) -> Result<PreparedPage, serde_json::Error> {
        let title = if error.is_some() {
            "Please check your application"
        } else {
            "Apply for Affiliate Campaigns"
        };
        self.maker.page(
            &PageProps::CampaignApply(CampaignApplyProps {
                site: self.maker.site.clone(),
                icons: IconSet::new(),
                campaigns: self.campaigns.clone(),
                values,
                error,
                closed,
            }),
            self.maker.head(
                title,
                "Apply for live home-service pay-per-call campaigns, no account required: our affiliate team reviews every application within 24-48 hours.".to_string(),
                APPLY_PATH,
                false,
            ),
            status,
        )
    }
}
