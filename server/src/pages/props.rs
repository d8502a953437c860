//! The props each page component receives: the one contract between the server and the
//! React pages. `PageProps` names every page's props type: the public pages' are here, the
//! console's in `pages/admin/`, one file per screen (re-exported here). The TypeScript side,
//! `client/lib/props.gen.ts`, is generated (ts-rs, in a unit test below) from `PageProps` and
//! every type it reaches, so there is no list of types to keep; `make test` fails when the file
//! is stale: after changing a props type, run `make types`.

use std::collections::BTreeMap;

use serde::Serialize;
#[cfg(test)]
use ts_rs::TS;

pub use super::admin::AdminMessageProps;
pub use super::admin::audit::AdminAuditProps;
pub use super::admin::data_requests::AdminDataRequestsProps;
pub use super::admin::funnel::AdminFunnelProps;
pub use super::admin::health::AdminHealthProps;
pub use super::admin::leads::{AdminLeadProps, AdminLeadsProps};
pub use super::admin::login::AdminLoginProps;
pub use super::admin::submissions::{AdminSubmissionProps, AdminSubmissionsProps};
pub use super::admin::suppressions::AdminSuppressionsProps;
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

/// One page's props, tagged with the page component that renders them (`page`).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
#[serde(tag = "page", rename_all = "kebab-case")]
pub enum PageProps {
    Home(HomeProps),
    Campaigns(CampaignsProps),
    Service(Box<ServiceProps>),
    Legal(LegalPageProps),
    Register(RegisterProps),
    RegisterThanks(RegisterThanksProps),
    CampaignApply(CampaignApplyProps),
    CampaignApplied(CampaignAppliedProps),
    CallbackRequest(Box<CallbackRequestProps>),
    CallbackRequested(CallbackRequestedProps),
    NotFound(NotFoundProps),
    AdminLogin(AdminLoginProps),
    AdminMessage(AdminMessageProps),
    AdminAudit(AdminAuditProps),
    AdminLeads(AdminLeadsProps),
    AdminLead(Box<AdminLeadProps>),
    AdminSuppressions(AdminSuppressionsProps),
    AdminSubmissions(AdminSubmissionsProps),
    AdminSubmission(Box<AdminSubmissionProps>),
    AdminDataRequests(AdminDataRequestsProps),
    AdminHealth(AdminHealthProps),
    AdminFunnel(AdminFunnelProps),
}

impl PageProps {
    /// The component name the SSR bundle dispatches on: the value of `page`.
    pub fn component(&self) -> &'static str {
        match self {
            PageProps::Home(_) => "home",
            PageProps::Campaigns(_) => "campaigns",
            PageProps::Service(_) => "service",
            PageProps::Legal(_) => "legal",
            PageProps::Register(_) => "register",
            PageProps::RegisterThanks(_) => "register-thanks",
            PageProps::CampaignApply(_) => "campaign-apply",
            PageProps::CampaignApplied(_) => "campaign-applied",
            PageProps::CallbackRequest(_) => "callback-request",
            PageProps::CallbackRequested(_) => "callback-requested",
            PageProps::NotFound(_) => "not-found",
            PageProps::AdminLogin(_) => "admin-login",
            PageProps::AdminMessage(_) => "admin-message",
            PageProps::AdminAudit(_) => "admin-audit",
            PageProps::AdminLeads(_) => "admin-leads",
            PageProps::AdminLead(_) => "admin-lead",
            PageProps::AdminSuppressions(_) => "admin-suppressions",
            PageProps::AdminSubmissions(_) => "admin-submissions",
            PageProps::AdminSubmission(_) => "admin-submission",
            PageProps::AdminDataRequests(_) => "admin-data-requests",
            PageProps::AdminHealth(_) => "admin-health",
            PageProps::AdminFunnel(_) => "admin-funnel",
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};

    use ts_rs::{Config, TypeVisitor};

    use super::*;

    const GENERATED: &str = "client/lib/props.gen.ts";

    /// A type the pages' props reach: its declaration and the types it names.
    #[derive(Default)]
    struct Declared {
        decl: String,
        names: BTreeSet<String>,
    }

    /// Collects the types a type names directly (those with a declaration of their own, not
    /// `String` or `Vec`), and declares each of them in turn.
    struct Reach<'a> {
        cfg: &'a Config,
        found: &'a mut BTreeMap<String, Declared>,
        names: BTreeSet<String>,
    }

    impl TypeVisitor for Reach<'_> {
        fn visit<T: TS + 'static + ?Sized>(&mut self) {
            if T::output_path().is_some() {
                self.names.insert(T::ident(self.cfg));
                declare::<T>(self.cfg, self.found);
            }
        }
    }

    /// `T` and every type it reaches, into `found` by name.
    fn declare<T: TS + 'static + ?Sized>(cfg: &Config, found: &mut BTreeMap<String, Declared>) {
        let name = T::ident(cfg);
        if found.contains_key(&name) {
            return;
        }
        found.insert(name.clone(), Declared::default());
        let mut reach = Reach {
            cfg,
            found,
            names: BTreeSet::new(),
        };
        T::visit_dependencies(&mut reach);
        let names = reach.names;
        found.insert(name, Declared { decl: T::decl(cfg), names });
    }

    /// The declarations from `name` down, each after the types it names (taken by name, so
    /// the order is the same on every build), each once.
    fn in_order(name: &str, found: &BTreeMap<String, Declared>, done: &mut BTreeSet<String>, out: &mut Vec<String>) {
        if !done.insert(name.to_string()) {
            return;
        }
        let Some(declared) = found.get(name) else { return };
        for dependency in &declared.names {
            in_order(dependency, found, done, out);
        }
        out.push(declared.decl.clone());
    }

    /// The TypeScript file: `PageProps` and every type it reaches, nothing listed by hand.
    fn typescript() -> String {
        let cfg = Config::new();
        let mut found = BTreeMap::new();
        declare::<PageProps>(&cfg, &mut found);
        let mut decls = Vec::new();
        in_order(&PageProps::ident(&cfg), &found, &mut BTreeSet::new(), &mut decls);
        let mut out = String::from(
            "// Generated from server/src/pages/props.rs by `make types`: do not edit.\n\
             // The props the server renders each page with (and the catalogue types inside them).\n\n\
             /** A lucide icon as data: a list of [tag, attributes] SVG children. */\n\
             export type IconNode = ReadonlyArray<readonly [string, Readonly<Record<string, string | number>>]>;\n",
        );
        for decl in decls {
            out.push('\n');
            out.push_str("export ");
            out.push_str(&decl);
            out.push('\n');
        }
        out
    }

    #[test]
    fn the_generated_typescript_is_current() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(GENERATED);
        let fresh = typescript();
        if std::env::var_os("UPDATE_TYPES").is_some() {
            std::fs::write(&path, &fresh).expect("write the generated types");
            return;
        }
        let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            checked_in == fresh,
            "{GENERATED} is stale: the page props changed in server/src/pages/props.rs. Run `make types` and commit the result."
        );
    }

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
