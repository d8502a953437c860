//! The registration request form's pages (the spec's second version): /register, where the
//! visitor chooses a type, and /register/{homeowner,contractor,affiliate}, that type's form.
//! Canonical pages in the sitemap, rendered at start like every other. A form post without
//! JavaScript that breaks a rule is answered with the same page, rendered for that answer
//! (never cached) with the visitor's values and the error in place.

use std::collections::BTreeMap;

use axum::http::StatusCode;

use super::props::{FormError, IconSet, PageProps, RegisterProps, SiteInfo};
use super::{PreparedPage, prepare};
use crate::accounts::AccountType;
use crate::render::document::Head;

pub const REGISTER_PATH: &str = "/register";

/// The path of a type's form, or of the choice.
pub fn register_path(account_type: Option<AccountType>) -> String {
    match account_type {
        Some(t) => format!("{REGISTER_PATH}/{}", t.slug()),
        None => REGISTER_PATH.to_string(),
    }
}

/// What the registration pages need beyond their props: built once at start, kept to
/// render the error answers.
#[derive(Debug)]
pub struct RegisterPages {
    site: SiteInfo,
    base: String,
    brand: String,
    shell: String,
}

impl RegisterPages {
    pub fn new(site: SiteInfo, base: &str, brand: &str, shell: &str) -> Self {
        Self {
            site,
            base: base.to_string(),
            brand: brand.to_string(),
            shell: shell.to_string(),
        }
    }

    /// The four canonical pages: the choice, then one per type.
    pub fn canonical(&self) -> Result<Vec<(String, PreparedPage)>, serde_json::Error> {
        let mut pages = vec![(register_path(None), self.page(None, BTreeMap::new(), None, StatusCode::OK)?)];
        for t in AccountType::ALL {
            pages.push((register_path(Some(t)), self.page(Some(t), BTreeMap::new(), None, StatusCode::OK)?));
        }
        Ok(pages)
    }

    /// The page again for a form post that broke a rule: the values kept, the error shown.
    pub fn answer(
        &self,
        account_type: Option<AccountType>,
        values: BTreeMap<String, String>,
        error: FormError,
    ) -> Result<PreparedPage, serde_json::Error> {
        self.page(account_type, values, Some(error), StatusCode::BAD_REQUEST)
    }

    fn page(
        &self,
        account_type: Option<AccountType>,
        values: BTreeMap<String, String>,
        error: Option<FormError>,
        status: StatusCode,
    ) -> Result<PreparedPage, serde_json::Error> {
        let brand = &self.brand;
        let (title, description) = match account_type {
            None => (
                format!("Request an Account | {brand}"),
                format!(
                    "Request a {brand} account as a homeowner, a contractor or call buyer, or an affiliate partner. Our team sets it up and sends your login details within 24 hours."
                ),
            ),
            Some(AccountType::Homeowner) => (
                format!("Homeowner Registration | {brand}"),
                "Register as a homeowner: tell us about your property and what it needs, and we match you with licensed local pros. Your account is ready within 24 hours.".to_string(),
            ),
            Some(AccountType::CallBuyer) => (
                format!("Contractor & Call Buyer Registration | {brand}"),
                "Register your contracting business for live call answering and qualified leads: your trade, budget and service areas. Live in 24 hours, no setup fees.".to_string(),
            ),
            Some(AccountType::Affiliate) => (
                format!("Affiliate Partner Registration | {brand}"),
                "Register as an affiliate partner: your traffic sources and monthly volume. Earn $28-$175+ per qualified lead, paid weekly; your account is ready within 24 hours.".to_string(),
            ),
        };
        prepare(
            &PageProps::Register(RegisterProps {
                site: self.site.clone(),
                icons: IconSet::new(),
                account_type,
                values,
                error,
            }),
            Head {
                title,
                description,
                canonical: format!("{}{}", self.base, register_path(account_type)),
            },
            None,
            status,
            &self.shell,
        )
    }
}
