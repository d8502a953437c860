//! The page table: every canonical route with the props, head and structured data its
//! render needs. A pure function of (catalogue, config, icons), built once at start.

use std::collections::HashMap;
use std::sync::Arc;

use axum::http::StatusCode;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::assets::Icons;
use crate::catalogue::{Catalogue, Service};
use crate::config::Config;
use crate::leads::consent::ConsentWordings;
use crate::phone::UsPhone;
use crate::render::cache::CacheKey;
use crate::render::document::Head;

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

/// Canonical routes and the not-found page.
#[derive(Debug)]
pub struct PageTable {
    pub routes: HashMap<String, Arc<PreparedPage>>,
    pub not_found: Arc<PreparedPage>,
    /// Canonical paths in sitemap order.
    pub canonical_paths: Vec<String>,
}

impl PageTable {
    /// `shell_version` names everything outside the props that the document depends on
    /// (CSS and script hashes), so a new build can never be served from an old entry.
    pub fn build(config: &Config, catalogue: &Catalogue, icons: &Icons, consent: &ConsentWordings, shell_version: &str) -> Self {
        let site = site_info(config);
        let base = &config.site.public_url;
        let brand = &config.site.brand;
        let mut routes = HashMap::new();
        let mut canonical_paths = Vec::new();
        let mut add = |path: String, page: PreparedPage| {
            canonical_paths.push(path.clone());
            routes.insert(path, Arc::new(page));
        };

        let service_links: Vec<Value> = catalogue
            .services
            .iter()
            .map(|s| json!({ "name": s.name, "slug": s.slug, "icon": s.icon }))
            .collect();
        let home_icons: Vec<&str> = catalogue.services.iter().map(|s| s.icon.as_str()).collect();
        add(
            "/".into(),
            prepare(
                "home",
                json!({ "page": "home", "site": site, "icons": icons.subset(&home_icons), "services": service_links }),
                Head {
                    title: format!("{brand} | Live Call Answering and Lead Delivery for Contractors"),
                    description: "Live agents answer 100% of your calls in 3 rings or less, qualify every lead and deliver recordings, transcripts, SMS and e-mail within seconds. Live in 24 hours.".into(),
                    canonical: format!("{base}/"),
                },
                Some(organization(config)),
                StatusCode::OK,
                shell_version,
            ),
        );
        add(
            "/campaigns".into(),
            prepare(
                "campaigns",
                json!({ "page": "campaigns", "site": site, "icons": {}, "campaigns": catalogue.campaigns }),
                Head {
                    title: format!("Affiliate Campaigns: Apply Without an Account | {brand}"),
                    description: "Browse live home-service pay-per-call campaigns paying $28-$175+ per qualified lead with weekly payments, and apply in minutes. No account required.".into(),
                    canonical: format!("{base}/campaigns"),
                },
                None,
                StatusCode::OK,
                shell_version,
            ),
        );
        let tracking = json!({
            "trustedform": config.tracking.trustedform,
            "pixelId": if config.tracking.pixel { Some(&config.tracking.pixel_id) } else { None },
        });
        for service in &catalogue.services {
            let phone = config.phone_for(&service.slug);
            let mut needed = vec![service.icon.as_str()];
            needed.extend(service.features.iter().map(|f| f.icon.as_str()));
            let path = format!("/{}", service.slug);
            add(
                path.clone(),
                prepare(
                    "service",
                    json!({
                        "page": "service", "site": site, "icons": icons.subset(&needed), "service": service, "phone": phone.national(),
                        "consentText": consent.current(), "tracking": tracking,
                    }),
                    Head {
                        title: format!("{} | {brand}", service.title),
                        description: service.description.clone(),
                        canonical: format!("{base}{path}"),
                    },
                    Some(service_ld(config, service, phone)),
                    StatusCode::OK,
                    shell_version,
                ),
            );
        }
        for (document, title, description) in [
            (
                "privacy",
                "Privacy Policy",
                format!("How {brand} collects, uses, shares and protects the personal information of homeowners, contractors and partners, and the choices you have."),
            ),
            (
                "terms",
                "Terms of Service",
                format!("The terms for using {brand}'s website, phone lines and callback requests: what we do, what we don't, fees, call recording and disputes."),
            ),
        ] {
            let path = format!("/{document}");
            add(
                path.clone(),
                prepare(
                    "legal",
                    json!({ "page": "legal", "site": site, "icons": {}, "document": document }),
                    Head {
                        title: format!("{title} | {brand}"),
                        description,
                        canonical: format!("{base}{path}"),
                    },
                    None,
                    StatusCode::OK,
                    shell_version,
                ),
            );
        }
        let not_found = Arc::new(prepare(
            "not-found",
            json!({ "page": "not-found", "site": site, "icons": {} }),
            Head {
                title: format!("Service not found | {brand}"),
                description: format!("The page you asked for is not on {brand}."),
                canonical: format!("{base}/"),
            },
            None,
            StatusCode::NOT_FOUND,
            shell_version,
        ));
        Self {
            routes,
            not_found,
            canonical_paths,
        }
    }
}

fn site_info(config: &Config) -> Value {
    json!({
        "brand": config.site.brand,
        "supportPhone": config.site.support_phone.national(),
        "infoEmail": config.site.info_email,
        "copyrightYear": config.site.copyright_year,
    })
}

fn prepare(page: &'static str, props: Value, head: Head, json_ld: Option<Value>, status: StatusCode, shell: &str) -> PreparedPage {
    let props_json = props.to_string();
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
    PreparedPage {
        page,
        props_json,
        head,
        json_ld,
        status,
        key: hash.finalize().into(),
    }
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
