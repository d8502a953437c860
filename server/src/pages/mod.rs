//! The page layer: every canonical route with the props, head and structured data its
//! render needs (a pure function of catalogue, campaigns, config and icons, built at start
//! and again, whole, when a campaign changes: `state.rs`), the
//! renderer that turns them into documents through the render cache, and the error pages.
//!
//! `props.rs` holds `PageProps`, whose types (and every type they reach) and page map are
//! generated into the client by `typescript.rs` (`make types`). `admin/` holds the console's props, one file per screen named
//! as its handler in `server/src/admin/`, with the frame, the message page and `Labeled` in
//! `admin/mod.rs`. `renderer.rs` renders through the cache (or, for one visitor's answer,
//! without it); `errors.rs` the error pages; `legal.rs` the legal texts; `sign_in.rs` the
//! sign-in page, rendered once and filled in per visit. The public forms' pages, each with
//! its thank-you page and its answer to a refused post (`Refused`): `register.rs`,
//! `campaign_apply.rs`, `callback.rs`, made with `maker.rs`'s `PageMaker`. The thank-you
//! pages and the apply page are `Unlisted`: out of the sitemap and of search results, chosen
//! by one query parameter.

pub mod admin;
pub mod callback;
pub mod campaign_apply;
pub mod errors;
pub mod legal;
mod maker;
pub mod props;
pub mod register;
pub mod renderer;
pub mod sign_in;
pub mod sprite;
#[cfg(test)]
mod typescript;

use std::collections::HashMap;
use std::sync::Arc;

use axum::http::StatusCode;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::assets::Icons;
use crate::catalogue::{CampaignList, Catalogue, Service};
use crate::config::Config;
use crate::encoding::Encoded;
use crate::leads::consent::ConsentWordings;
use crate::phone::UsPhone;
use crate::render::cache::CacheKey;
use crate::render::document::Head;
pub use maker::{PageMaker, Refused, Unlisted};

use callback::CallbackPages;
use campaign_apply::ApplyPages;
use legal::LegalTexts;
use props::{
    CampaignsProps, HomeProps, IconSet, LegalDocument, LegalPageProps, NotFoundProps, PageProps, ServiceLink, ServiceProps, SiteInfo,
    SocialLink, Tracking,
};
use register::RegisterPages;

/// The pages kept out of the sitemap and of search results, each at its own route
/// (`routes.rs`): the thank-you pages and the apply page.
pub const UNLISTED_PATHS: [&str; 4] = [
    callback::CALLBACK_REQUESTED_PATH,
    campaign_apply::APPLY_PATH,
    campaign_apply::APPLIED_PATH,
    register::REGISTERED_PATH,
];

/// Icons the home page carries inline: those its first screen and header controls show
/// (client/sections/home/HomeHero.tsx, LeadCallCard.tsx and client/features/header/HomeHeader.tsx).
const HOME_ICONS: [&str; 9] = [
    "check",
    "chevron-down",
    "file-text",
    "mail",
    "menu",
    "message-square-text",
    "mic",
    "phone",
    "x",
];

/// Icons of the home page's sections below the first screen (client/pages/homeContent.ts,
/// client/sections/home/), served in the sprite file with the services' own icons.
const HOME_SPRITE_ICONS: [&str; 15] = [
    "bell-ring",
    "calendar-check",
    "check",
    "circle-check",
    "file-text",
    "headset",
    "mail",
    "message-square-text",
    "mic",
    "phone",
    "phone-missed",
    "send",
    "trending-down",
    "user-check",
    "voicemail",
];

/// Everything needed to render one page and to recognise it in the cache.
#[derive(Debug)]
pub struct PreparedPage {
    /// Component name the SSR bundle dispatches on ("home", "service", …).
    pub page: &'static str,
    pub props_json: String,
    pub head: Head,
    pub json_ld: Option<String>,
    pub status: StatusCode,
    pub key: CacheKey,
}

impl PreparedPage {
    /// Its Cache-Control: a page in search results may be kept and revalidated; one kept out
    /// of them (a thank-you page, a form's page) is a step of one visitor's errand, never
    /// stored by a browser or a proxy.
    pub fn cache_control(&self) -> &'static str {
        if self.head.indexed { "no-cache" } else { "no-store" }
    }
}

/// Canonical routes and the not-found page.
#[derive(Debug)]
pub struct PageTable {
    pub routes: HashMap<String, Arc<PreparedPage>>,
    pub not_found: Arc<PreparedPage>,
    /// Canonical paths in sitemap order.
    pub canonical_paths: Vec<String>,
    /// The legal texts as the modals fetch them, by path (/legal/privacy.html, …).
    pub legal_fragments: HashMap<String, Arc<Encoded>>,
    /// The home page's icon sprite file (the services' icons and those of its sections below
    /// the first screen) and the content-hashed URL it is served at.
    pub icon_sprite: (String, Arc<Encoded>),
    /// The unlisted pages by path (`UNLISTED_PATHS`).
    pub unlisted: HashMap<&'static str, Unlisted>,
    /// The registration request form's pages, kept to render its error answers.
    pub register: RegisterPages,
    /// The campaign application's pages, kept to render its error answers.
    pub apply: ApplyPages,
    /// The callback request's pages, kept to render its error answers.
    pub callback: CallbackPages,
    /// The live campaigns as JSON, for the affiliate dashboard's campaigns modal, and the
    /// content-hashed URL it is served at.
    pub campaigns_json: (String, Arc<Encoded>),
    /// The campaigns the pages were made with: the application's rules read the same.
    pub campaigns: Arc<CampaignList>,
}

impl PageTable {
    /// `shell_version` names everything outside the props that the document depends on
    /// (CSS and script hashes), so a new build can never be served from an old entry.
    pub fn build(
        config: &Config,
        catalogue: &Catalogue,
        campaigns: Arc<CampaignList>,
        icons: &Icons,
        consent: &ConsentWordings,
        shell_version: &str,
    ) -> Result<Self, serde_json::Error> {
        let site = site_info(config);
        let base = &config.site.public_url;
        let brand = &config.site.brand;
        let legal = LegalTexts::new(config);
        let mut routes = HashMap::new();
        let mut canonical_paths = Vec::new();
        let mut add = |path: String, page: PreparedPage| {
            canonical_paths.push(path.clone());
            routes.insert(path, Arc::new(page));
        };

        let mut sprite_icons: Vec<&str> = catalogue.services.iter().map(|s| s.icon.as_str()).collect();
        sprite_icons.extend(HOME_SPRITE_ICONS);
        let icon_sprite_svg = sprite::sprite_svg(&icons.subset(&sprite_icons));
        let icon_sprite = (sprite::sprite_path(&icon_sprite_svg), Encoded::shared(icon_sprite_svg.into_bytes()));
        let campaigns_text = serde_json::to_string(&campaigns.live)?;
        let campaigns_hash = crate::hex::hex(&Sha256::digest(campaigns_text.as_bytes())[..6]);
        let campaigns_json = (
            format!("/assets/campaigns-{campaigns_hash}.json"),
            Encoded::shared(campaigns_text.into_bytes()),
        );
        let services: Vec<ServiceLink> = catalogue
            .services
            .iter()
            .map(|s| ServiceLink {
                name: s.name.clone(),
                slug: s.slug.clone(),
                icon: s.icon.clone(),
            })
            .collect();
        add(
            "/".into(),
            prepare(
                &PageProps::Home(HomeProps {
                    site: site.clone(),
                    icons: icons.subset(&HOME_ICONS),
                    sprite_url: icon_sprite.0.clone(),
                    services: services.clone(),
                    service_phones: config.site.service_phones.iter().map(|(slug, phone)| (slug.clone(), phone.national().to_string())).collect(),
                    consent_text: consent.current().to_string(),
                    certification: config.tracking.trustedform,
                    campaigns_url: campaigns_json.0.clone(),
                }),
                Head {
                    title: format!("{brand} | Live Call Answering and Lead Delivery for Contractors"),
                    description: "Live agents answer 100% of your calls in 3 rings or less, qualify every lead and deliver recordings, transcripts, SMS and e-mail within seconds. Live in 24 hours.".into(),
                    canonical: format!("{base}/"),
                    indexed: true,
                },
                Some(organization(config)),
                StatusCode::OK,
                shell_version,
            )?,
        );
        add(
            "/campaigns".into(),
            prepare(
                &PageProps::Campaigns(CampaignsProps {
                    site: site.clone(),
                    icons: IconSet::new(),
                    campaigns: campaigns.live.clone(),
                    services,
                }),
                Head {
                    title: format!("Affiliate Campaigns: Apply Without an Account | {brand}"),
                    description: "Browse live home-service pay-per-call campaigns paying $28-$175+ per qualified lead with weekly payments, and apply in minutes. No account required.".into(),
                    canonical: format!("{base}/campaigns"),
                    indexed: true,
                },
                None,
                StatusCode::OK,
                shell_version,
            )?,
        );
        let tracking = Tracking {
            trustedform: config.tracking.trustedform,
            pixel_id: config.tracking.pixel.then(|| config.tracking.pixel_id.clone()),
        };
        for service in &catalogue.services {
            let phone = config.phone_for(&service.slug);
            let mut needed = vec![service.icon.as_str()];
            needed.extend(service.features.iter().map(|f| f.icon.as_str()));
            let path = format!("/{}", service.slug);
            add(
                path.clone(),
                prepare(
                    &PageProps::Service(Box::new(ServiceProps {
                        site: site.clone(),
                        icons: icons.subset(&needed),
                        service: service.clone(),
                        phone: phone.national().to_string(),
                        consent_text: consent.current().to_string(),
                        tracking: tracking.clone(),
                    })),
                    Head {
                        title: format!("{} | {brand}", service.title),
                        description: service.description.clone(),
                        canonical: format!("{base}{path}"),
                        indexed: true,
                    },
                    Some(service_ld(config, service, phone)),
                    StatusCode::OK,
                    shell_version,
                )?,
            );
        }
        for document in LegalDocument::ALL {
            let (title, description) = match document {
                LegalDocument::Privacy => (
                    "Privacy Policy",
                    format!(
                        "How {brand} collects, uses, shares and protects the personal information of homeowners, contractors and partners, and the choices you have."
                    ),
                ),
                LegalDocument::Terms => (
                    "Terms of Service",
                    format!(
                        "The terms for using {brand}'s website, phone lines and callback requests: what we do, what we don't, fees, call recording and disputes."
                    ),
                ),
            };
            let path = format!("/{}", document.slug());
            add(
                path.clone(),
                prepare(
                    &PageProps::Legal(LegalPageProps {
                        site: site.clone(),
                        icons: IconSet::new(),
                        document,
                        html: legal.page_html(document).to_string(),
                    }),
                    Head {
                        title: format!("{title} | {brand}"),
                        description,
                        canonical: format!("{base}{path}"),
                        indexed: true,
                    },
                    None,
                    StatusCode::OK,
                    shell_version,
                )?,
            );
        }
        let maker = PageMaker::new(site.clone(), base, brand, shell_version);
        let register = RegisterPages::new(maker.clone());
        for (path, page) in register.canonical()? {
            add(path, page);
        }
        let apply = ApplyPages::new(maker.clone(), &campaigns);
        let callback = CallbackPages::new(maker, config, catalogue, consent);
        let unlisted = HashMap::from([
            (callback::CALLBACK_REQUESTED_PATH, callback.requested()?),
            (campaign_apply::APPLY_PATH, apply.apply()?),
            (campaign_apply::APPLIED_PATH, apply.applied()?),
            (register::REGISTERED_PATH, register.thanks()?),
        ]);
        let not_found = Arc::new(prepare(
            &PageProps::NotFound(NotFoundProps {
                site,
                icons: IconSet::new(),
            }),
            Head {
                title: format!("Service not found | {brand}"),
                description: format!("The page you asked for is not on {brand}."),
                canonical: format!("{base}/"),
                indexed: true,
            },
            None,
            StatusCode::NOT_FOUND,
            shell_version,
        )?);
        let legal_fragments = LegalDocument::ALL
            .into_iter()
            .map(|d| (legal_fragment_path(d), Encoded::shared(legal.dialog_html(d).as_bytes().to_vec())))
            .collect();
        Ok(Self {
            routes,
            not_found,
            canonical_paths,
            legal_fragments,
            icon_sprite,
            unlisted,
            register,
            apply,
            callback,
            campaigns_json,
            campaigns,
        })
    }
}

/// Where the modal fetches a legal text from.
pub fn legal_fragment_path(document: LegalDocument) -> String {
    format!("/legal/{}.html", document.slug())
}

fn site_info(config: &Config) -> SiteInfo {
    SiteInfo {
        brand: config.site.brand.clone(),
        support_phone: config.site.support_phone.national().to_string(),
        info_email: config.site.info_email.clone(),
        copyright_year: config.site.copyright_year,
        social: config
            .site
            .social
            .iter()
            .map(|p| SocialLink {
                name: p.name.clone(),
                url: p.url.clone(),
            })
            .collect(),
    }
}

fn prepare(
    props: &PageProps,
    head: Head,
    json_ld: Option<Value>,
    status: StatusCode,
    shell: &str,
) -> Result<PreparedPage, serde_json::Error> {
    let page = props.component();
    let props_json = serde_json::to_string(props)?;
    let json_ld = json_ld.map(|v| v.to_string());
    let mut hash = Sha256::new();
    for part in [
        page,
        &props_json,
        &head.title,
        &head.description,
        &head.canonical,
        json_ld.as_deref().unwrap_or(""),
        shell,
    ] {
        hash.update((part.len() as u64).to_le_bytes());
        hash.update(part.as_bytes());
    }
    hash.update(status.as_u16().to_le_bytes());
    Ok(PreparedPage {
        page,
        props_json,
        head,
        json_ld,
        status,
        key: hash.finalize().into(),
    })
}

fn organization(config: &Config) -> Value {
    json!({
        "@context": "https://schema.org",
        "@type": "Organization",
        "name": config.site.brand,
        "url": format!("{}/", config.site.public_url),
        "email": config.site.info_email,
        "telephone": config.site.support_phone.e164(),
        "areaServed": { "@type": "Country", "name": "United States" },
    })
}

fn service_ld(config: &Config, service: &Service, phone: &UsPhone) -> Value {
    json!({
        "@context": "https://schema.org",
        "@type": "Service",
        "name": service.title,
        "serviceType": service.name,
        "description": service.description,
        "url": format!("{}/{}", config.site.public_url, service.slug),
        "areaServed": { "@type": "Country", "name": "United States" },
        "provider": {
            "@type": "Organization",
            "name": config.site.brand,
            "url": format!("{}/", config.site.public_url),
            "telephone": phone.e164(),
            "email": config.site.info_email,
        },
    })
}
