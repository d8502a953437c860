//! The registration request form's pages (the spec's second version): /register, where the
//! visitor chooses a type, and /register/{homeowner,contractor,affiliate}, that type's form.
//! Canonical pages in the sitemap, rendered at start like every other. A form post without
//! JavaScript that breaks a rule is answered with the same page, rendered for that answer
//! (never cached) with the visitor's values and the error in place; one that is stored lands
//! on /register/thanks?type=…, kept out of search results.

use axum::http::StatusCode;

use super::props::{FormError, FormValues, IconSet, PageProps, RegisterProps, RegisterThanksProps};
use super::{PageMaker, PreparedPage, Refused, Unlisted};
use crate::accounts::AccountType;

pub const REGISTER_PATH: &str = "/register";

/// Where a request sent without JavaScript lands once stored (post/redirect/get).
pub const REGISTERED_PATH: &str = "/register/thanks";

/// The thank-you page's query parameter: the type's slug.
pub const TYPE_PARAM: &str = "type";

/// The path of a type's form, or of the choice.
pub fn register_path(account_type: Option<AccountType>) -> String {
    match account_type {
        Some(t) => format!("{REGISTER_PATH}/{}", t.slug()),
        None => REGISTER_PATH.to_string(),
    }
}

/// The registration pages, kept to render the error answers.
#[derive(Debug)]
pub struct RegisterPages {
    maker: PageMaker,
}

impl RegisterPages {
    pub fn new(maker: PageMaker) -> Self {
        Self { maker }
    }

    /// The four canonical pages: the choice, then one per type.
    pub fn canonical(&self) -> Result<Vec<(String, PreparedPage)>, serde_json::Error> {
        let mut pages = vec![(register_path(None), self.page(None, FormValues::default(), None, StatusCode::OK)?)];
        for t in AccountType::ALL {
            pages.push((
                register_path(Some(t)),
                self.page(Some(t), FormValues::default(), None, StatusCode::OK)?,
            ));
        }
        Ok(pages)
    }

    /// The page again for a form post that broke a rule: the type it named (the choice when
    /// it named none it knows), the values kept, the error shown.
    pub fn answer(&self, refused: Refused) -> Result<PreparedPage, serde_json::Error> {
        let account_type = refused.values.text.get("accountType").and_then(|t| AccountType::parse(t));
        self.page(account_type, refused.values, Some(refused.error), refused.status)
    }

    /// /register/thanks, one page per type and one for an address that names none.
    pub fn thanks(&self) -> Result<Unlisted, serde_json::Error> {
        let mut pages = Unlisted::single(self.thanks_page(None)?);
        pages.param = Some(TYPE_PARAM);
        for t in AccountType::ALL {
            pages.by_value.insert(t.slug().to_string(), self.thanks_page(Some(t))?.into());
        }
        Ok(pages)
    }

    fn thanks_page(&self, account_type: Option<AccountType>) -> Result<PreparedPage, serde_json::Error> {
        let path = match account_type {
            Some(t) => format!("{REGISTERED_PATH}?{TYPE_PARAM}={}", t.slug()),
            None => REGISTERED_PATH.to_string(),
        };
        self.maker.page(
            &PageProps::RegisterThanks(RegisterThanksProps {
                site: self.maker.site.clone(),
                icons: IconSet::new(),
                account_type,
            }),
            self.maker.head(
                "Registration Submitted!",
                "Your account request has been sent to our team: your login credentials arrive within 24 hours.".to_string(),
                &path,
                false,
            ),
            StatusCode::OK,
        )
    }

    fn page(
        &self,
        account_type: Option<AccountType>,
        values: FormValues,
        error: Option<FormError>,
        status: StatusCode,
    ) -> Result<PreparedPage, serde_json::Error> {
        let brand = self.maker.brand();
        let (title, description) = match account_type {
            None => (
                "Request an Account",
                format!(
                    "Request a {brand} account as a homeowner, a contractor or call buyer, or an affiliate partner. Our team sets it up and sends your login details within 24 hours."
                ),
            ),
            Some(AccountType::Homeowner) => (
                "Homeowner Registration",
                "Register as a homeowner: tell us about your property and what it needs, and we match you with licensed local pros. Your account is ready within 24 hours.".to_string(),
            ),
            Some(AccountType::CallBuyer) => (
                "Contractor & Call Buyer Registration",
                "Register your contracting business for live call answering and qualified leads: your trade, budget and service areas. Live in 24 hours, no setup fees.".to_string(),
            ),
            Some(AccountType::Affiliate) => (
                "Affiliate Partner Registration",
                "Register as an affiliate partner: your traffic sources and monthly volume. Earn $28-$175+ per qualified lead, paid weekly; your account is ready within 24 hours.".to_string(),
            ),
        };
        // An answer to one visitor's post is theirs alone: never listed.
        let indexed = error.is_none();
        self.maker.page(
            &PageProps::Register(RegisterProps {
                site: self.maker.site.clone(),
                icons: IconSet::new(),
                account_type,
                values,
                error,
            }),
            self.maker.head(title, description, &register_path(account_type), indexed),
            status,
        )
    }
}
