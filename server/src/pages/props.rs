//! The props each page component receives: the one contract between the server and the
//! React pages. `PageProps` names every page's props type and the React page that draws
//! it: the public pages' props are here, the console's in `pages/admin/`, one file per
//! screen (re-exported here). The TypeScript side is generated (ts-rs, `pages/typescript.rs`)
//! from `PageProps` and every type it reaches: `client/lib/props.gen.ts` (the types) and
//! `client/pages/pages.gen.ts` (the page map), so there is no list of types or pages to
//! keep in the client; `make test` fails when either is stale: run `make types`.

use std::collections::BTreeMap;

use serde::Serialize;
#[cfg(test)]
use ts_rs::TS;

use super::admin;
use crate::accounts::AccountType;
pub use crate::assets::IconSet;
use crate::catalogue::{Campaign, Service};

/// What every page shows of the site itself.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct SiteInfo {
    pub brand: String,
    /// Ten-digit North American number, digits only.
    pub support_phone: String,
    pub info_email: String,
    pub copyright_year: u16,
    /// The brand's social profiles, in footer order.
    pub social: Vec<SocialLink>,
}

/// A link to one of the brand's social profiles.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
pub struct SocialLink {
    pub name: String,
    pub url: String,
}

/// A service in a menu or directory.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
pub struct ServiceLink {
    pub name: String,
    pub slug: String,
    pub icon: String,
}

/// The third-party scripts configuration switched on.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct Tracking {
    /// The TrustedForm consent certificate script runs on the page.
    pub trustedform: bool,
    /// The ad pixel's id when the pixel is on.
    pub pixel_id: Option<String>,
}

/// Which legal text.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "lowercase")]
pub enum LegalDocument {
    Privacy,
    Terms,
}

impl LegalDocument {
    pub const ALL: [LegalDocument; 2] = [LegalDocument::Privacy, LegalDocument::Terms];

    /// The path of its page, without the leading slash.
    pub fn slug(self) -> &'static str {
        match self {
            LegalDocument::Privacy => "privacy",
            LegalDocument::Terms => "terms",
        }
    }
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct HomeProps {
    pub site: SiteInfo,
    /// Icons this page draws inline, by lucide name.
    #[cfg_attr(test, ts(type = "Record<string, IconNode>"))]
    pub icons: IconSet,
    /// The SVG sprite file (an immutable asset) with the services' icons and the icons of the
    /// sections below the first screen: symbols `i-<icon>` for `<use>`, views `v-<icon>` for `<img>`.
    pub sprite_url: String,
    pub services: Vec<ServiceLink>,
    /// Services with their own number (slug to ten digits); the rest use the support phone.
    #[cfg_attr(test, ts(type = "Record<string, string>"))]
    pub service_phones: BTreeMap<String, String>,
    /// The TCPA consent wording beside the service request modal's callback form.
    pub consent_text: String,
    /// The TrustedForm consent certificate script runs for that form (once it is shown).
    pub certification: bool,
    /// The campaign catalogue as JSON (an immutable asset), for the affiliate dashboard's
    /// Available Campaigns modal.
    pub campaigns_url: String,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
pub struct CampaignsProps {
    pub site: SiteInfo,
    #[cfg_attr(test, ts(type = "Record<string, IconNode>"))]
    pub icons: IconSet,
    pub campaigns: Vec<Campaign>,
    /// The service catalogue's names and slugs, for the footer's service links.
    pub services: Vec<ServiceLink>,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct ServiceProps {
    pub site: SiteInfo,
    #[cfg_attr(test, ts(type = "Record<string, IconNode>"))]
    pub icons: IconSet,
    pub service: Service,
    /// The number to call for this service: ten digits.
    pub phone: String,
    /// The TCPA consent wording beside the callback form's checkbox.
    pub consent_text: String,
    pub tracking: Tracking,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
pub struct LegalPageProps {
    pub site: SiteInfo,
    #[cfg_attr(test, ts(type = "Record<string, IconNode>"))]
    pub icons: IconSet,
    pub document: LegalDocument,
    /// The text as HTML, rendered from its content file (sections as h2).
    pub html: String,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
pub struct NotFoundProps {
    pub site: SiteInfo,
    #[cfg_attr(test, ts(type = "Record<string, IconNode>"))]
    pub icons: IconSet,
}

/// The registration request form's pages: /register (the type choice) and
/// /register/{homeowner,contractor,affiliate} (that type's form).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct RegisterProps {
    pub site: SiteInfo,
    #[cfg_attr(test, ts(type = "Record<string, IconNode>"))]
    pub icons: IconSet,
    /// The type whose form the page shows; none on /register, which shows the choice.
    pub account_type: Option<AccountType>,
    /// What the visitor typed, when a form post without JavaScript is answered with an error
    /// (empty on the pages themselves).
    pub values: FormValues,
    /// That answer's error.
    pub error: Option<FormError>,
}

/// /register/thanks?type=…: where a registration request sent without JavaScript lands.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct RegisterThanksProps {
    pub site: SiteInfo,
    #[cfg_attr(test, ts(type = "Record<string, IconNode>"))]
    pub icons: IconSet,
    /// The type asked for; none when the address names no type.
    pub account_type: Option<AccountType>,
}

/// /campaigns/apply: the campaign application as a page of its own (the portal's 'Apply
/// Now' without JavaScript), and the same page again for a refused form post.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
pub struct CampaignApplyProps {
    pub site: SiteInfo,
    #[cfg_attr(test, ts(type = "Record<string, IconNode>"))]
    pub icons: IconSet,
    /// The live campaigns' names, in catalogue order.
    pub campaigns: Vec<String>,
    /// What the form holds: the campaign the address names, or what a refused post sent.
    pub values: FormValues,
    /// A refused post's error.
    pub error: Option<FormError>,
    /// The campaign the address names when it is paused or ended: no longer accepting
    /// applications.
    pub closed: Option<String>,
}

/// /campaigns/applied: where an application sent without JavaScript lands.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
pub struct CampaignAppliedProps {
    pub site: SiteInfo,
    #[cfg_attr(test, ts(type = "Record<string, IconNode>"))]
    pub icons: IconSet,
}

/// The callback form again, for a post made without JavaScript that broke a rule.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct CallbackRequestProps {
    pub site: SiteInfo,
    #[cfg_attr(test, ts(type = "Record<string, IconNode>"))]
    pub icons: IconSet,
    /// The service the post named; none when it named none we have (the page then offers
    /// no form, only the way home).
    pub service: Option<ServiceLink>,
    /// The number to call about it: ten digits.
    pub phone: String,
    /// The TCPA consent wording beside the form's checkbox.
    pub consent_text: String,
    /// What the visitor had typed.
    pub values: FormValues,
    pub error: FormError,
}

/// /callback-requested?service=…: where a callback request sent without JavaScript lands.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
pub struct CallbackRequestedProps {
    pub site: SiteInfo,
    #[cfg_attr(test, ts(type = "Record<string, IconNode>"))]
    pub icons: IconSet,
    /// The service asked about; none when the address names none we have.
    pub service: Option<ServiceLink>,
    /// The number to call about it: ten digits.
    pub phone: String,
}

/// What a visitor had put in a form, kept when its post is refused so that the page comes
/// back as they left it (empty on the pages themselves). Made the same way for every form
/// (`api::form`).
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
#[cfg_attr(test, derive(TS))]
pub struct FormValues {
    /// Each field of one text, by name.
    #[cfg_attr(test, ts(type = "Record<string, string>"))]
    pub text: BTreeMap<String, String>,
    /// Each field of several texts (checkboxes sharing a name), by name.
    #[cfg_attr(test, ts(type = "Record<string, string[]>"))]
    pub lists: BTreeMap<String, Vec<String>>,
}

/// The first rule a form post broke: the field (empty when it is not one field's) and the
/// visitor's message.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[cfg_attr(test, derive(TS))]
pub struct FormError {
    pub field: String,
    pub message: String,
}

/// Declares `PageProps` from one list: each page's variant, its props type and the name of
/// the React page that draws it (its props' `page` in the JSON, and what `component()`
/// answers). `make types` writes the client's page map from the same list
/// (`pages/typescript.rs`), so a page is added here and nowhere else by hand.
macro_rules! page_props {
    ($($variant:ident($props:ty) = $name:tt,)*) => {
        /// One page's props, tagged with the page component that renders them (`page`).
        #[derive(Debug, Clone, Serialize)]
        #[cfg_attr(test, derive(TS))]
        #[serde(tag = "page")]
        pub enum PageProps {
            $(#[serde(rename = $name)] $variant($props),)*
        }

        impl PageProps {
            /// Every page's name, in the order declared.
            pub const NAMES: &[&str] = &[$($name),*];

            /// The component name the SSR bundle dispatches on: the value of `page`.
            pub fn component(&self) -> &'static str {
                match self {
                    $(PageProps::$variant(_) => $name,)*
                }
            }
        }
    };
}

page_props! {
    Home(HomeProps) = "home",
    Campaigns(CampaignsProps) = "campaigns",
    Service(Box<ServiceProps>) = "service",
    Legal(LegalPageProps) = "legal",
    Register(RegisterProps) = "register",
    RegisterThanks(RegisterThanksProps) = "register-thanks",
    CampaignApply(CampaignApplyProps) = "campaign-apply",
    CampaignApplied(CampaignAppliedProps) = "campaign-applied",
    CallbackRequest(Box<CallbackRequestProps>) = "callback-request",
    CallbackRequested(CallbackRequestedProps) = "callback-requested",
    NotFound(NotFoundProps) = "not-found",
    AdminLogin(admin::login::AdminLoginProps) = "admin-login",
    AdminMessage(admin::AdminMessageProps) = "admin-message",
    AdminAudit(admin::audit::AdminAuditProps) = "admin-audit",
    AdminLeads(admin::leads::AdminLeadsProps) = "admin-leads",
    AdminLead(Box<admin::leads::AdminLeadProps>) = "admin-lead",
    AdminSuppressions(admin::suppressions::AdminSuppressionsProps) = "admin-suppressions",
    AdminCampaigns(Box<admin::campaigns::AdminCampaignsProps>) = "admin-campaigns",
    AdminSubmissions(admin::submissions::AdminSubmissionsProps) = "admin-submissions",
    AdminSubmission(Box<admin::submissions::AdminSubmissionProps>) = "admin-submission",
    AdminDataRequests(admin::data_requests::AdminDataRequestsProps) = "admin-data-requests",
    AdminHealth(admin::health::AdminHealthProps) = "admin-health",
    AdminFunnel(admin::funnel::AdminFunnelProps) = "admin-funnel",
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn props_carry_their_page_name() {
        let site = SiteInfo {
            brand: "B".into(),
            support_phone: "8005550100".into(),
            info_email: "i@b.example".into(),
            copyright_year: 2025,
            social: Vec::new(),
        };
        let props = PageProps::NotFound(NotFoundProps {
            site,
            icons: IconSet::new(),
        });
        let json = serde_json::to_value(&props).expect("serialize");
        assert_eq!(json["page"], props.component());
        assert_eq!(json["site"]["supportPhone"], "8005550100");
    }
}
