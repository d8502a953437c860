//! The callback request's pages without JavaScript: GET /callback-requested?service=…, where
//! an accepted request lands (one page per service, with its number and a link back, and one
//! for the site), and the form again for a refused post, with the visitor's values and the
//! error (or, when the post named no service we have, the error and a way home). Kept out
//! of search results.

use std::collections::HashMap;
use std::sync::Arc;

use axum::http::StatusCode;

use super::props::{CallbackRequestProps, CallbackRequestedProps, IconSet, PageProps, ServiceLink};
use super::{PageMaker, PreparedPage, Refused, Unlisted};
use crate::catalogue::Catalogue;
use crate::config::Config;
use crate::leads::consent::ConsentWordings;

/// Where an accepted no-JavaScript post lands (post/redirect/get, so a reload does not post again).
pub const CALLBACK_REQUESTED_PATH: &str = "/callback-requested";
/// The thank-you page's query parameter: the service's slug.
pub const SERVICE_PARAM: &str = "service";
/// The callback form's field that names the service.
pub const SERVICE_FIELD: &str = "serviceSlug";

/// The callback's pages, kept to render the refused posts' answers.
#[derive(Debug)]
pub struct CallbackPages {
    maker: PageMaker,
    /// Every service with the number to call about it (ten digits), by slug.
    services: HashMap<String, (ServiceLink, String)>,
    /// The support line's ten digits: the number when no service is named.
    support_phone: String,
    /// The consent wording the form shows and sends.
    consent_text: String,
}

impl CallbackPages {
    pub fn new(maker: PageMaker, config: &Config, catalogue: &Catalogue, consent: &ConsentWordings) -> Self {
        let services = catalogue
            .services
            .iter()
            .map(|s| {
                let link = ServiceLink {
                    name: s.name.clone(),
                    slug: s.slug.clone(),
                    icon: s.icon.clone(),
                };
                (s.slug.clone(), (link, config.phone_for(&s.slug).national().to_string()))
            })
            .collect();
        Self {
            maker,
            services,
            support_phone: config.site.support_phone.national().to_string(),
            consent_text: consent.current().to_string(),
        }
    }

    /// /callback-requested: one page per service and one for none (or one we do not have).
    pub fn requested(&self) -> Result<Unlisted, serde_json::Error> {
        let mut by_value = HashMap::new();
        for slug in self.services.keys() {
            by_value.insert(slug.clone(), Arc::new(self.requested_page(Some(slug))?));
        }
        Ok(Unlisted {
            param: Some(SERVICE_PARAM),
            by_value,
            otherwise: Arc::new(self.requested_page(None)?),
        })
    }

    /// The form again for a refused post, for the service it named.
    pub fn answer(&self, refused: Refused) -> Result<PreparedPage, serde_json::Error> {
        let service = refused.values.text.get(SERVICE_FIELD).and_then(|s| self.services.get(s.trim()));
        self.maker.page(
            &PageProps::CallbackRequest(Box::new(CallbackRequestProps {
                site: self.maker.site.clone(),
                icons: IconSet::new(),
                service: service.map(|(link, _)| link.clone()),
                phone: service.map_or(&self.support_phone, |(_, phone)| phone).clone(),
                consent_text: self.consent_text.clone(),
                values: refused.values,
                error: refused.error,
            })),
            self.maker.head(
                "Please check your request",
                "Your callback request needs one more look before we can call you back.".to_string(),
                CALLBACK_REQUESTED_PATH,
                false,
            ),
            refused.status,
        )
    }

    fn requested_page(&self, slug: Option<&str>) -> Result<PreparedPage, serde_json::Error> {
        let service = slug.and_then(|s| self.services.get(s));
        let path = match service {
            Some((link, _)) => format!("{CALLBACK_REQUESTED_PATH}?{SERVICE_PARAM}={}", link.slug),
            None => CALLBACK_REQUESTED_PATH.to_string(),
        };
        self.maker.page(
            &PageProps::CallbackRequested(CallbackRequestedProps {
                site: self.maker.site.clone(),
                icons: IconSet::new(),
                service: service.map(|(link, _)| link.clone()),
                phone: service.map_or(&self.support_phone, |(_, phone)| phone).clone(),
            }),
            self.maker.head(
                "Request received",
                "Thanks! We received your request and will call you shortly.".to_string(),
                &path,
                false,
            ),
            StatusCode::OK,
        )
    }
}
