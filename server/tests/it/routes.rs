//! Every route of the foundation over real HTTP against the real router.

use crate::common;

use std::io::Read;

use reqwest::StatusCode;
use reqwest::header::{ACCEPT_ENCODING, CACHE_CONTROL, CONTENT_ENCODING, ETAG, IF_NONE_MATCH, LOCATION};
use sha2::Digest;
use site_server::catalogue::{EMERGENCY_SLUGS, SLUGS};
use site_server::routes::REDIRECTS;

#[tokio::test]
async fn home_and_campaigns_render_catalogue_data() {
    let s = common::start().await;
    let r = s.get("/").await;
    assert_eq!(r.status(), StatusCode::OK);
    let body = r.text().await.expect("body");
    assert!(body.contains("Stop Missing Calls. Start Converting Leads."));
    for service in &s.state.catalogue.services {
        assert!(
            body.contains(&format!("href=\"/{}\"", service.slug)),
            "home links to /{}",
            service.slug
        );
    }
    assert!(body.contains("<title>RingReady | "));

    let r = s.get("/campaigns").await;
    assert_eq!(r.status(), StatusCode::OK);
    let body = common::unescape_html(&r.text().await.expect("body"));
    let live = s.state.catalogue.campaigns.len();
    assert!(
        body.contains(&format!("Available Campaigns (<!-- -->{live}<!-- -->)")),
        "count of {live} campaigns"
    );
    assert!(body.contains("No account required"));
    let first = &s.state.catalogue.campaigns[0].campaign;
    assert!(body.contains(first.as_str()), "campaign {first} listed");
}

#[tokio::test]
async fn home_page_draws_every_icon_it_uses_from_a_sprite_it_has() {
    let s = common::start().await;
    let home = s.get("/").await.text().await.expect("home");
    // The sections draw symbols with <use>; the services menu shows the sprite file's views
    // as lazy images.
    let uses: Vec<&str> = home.split("<use href=\"").skip(1).filter_map(|r| r.split('"').next()).collect();
    let images: Vec<&str> = home
        .split("<img src=\"")
        .skip(1)
        .filter_map(|r| r.split('"').next())
        .filter(|src| src.contains("#v-"))
        .collect();
    assert!(uses.len() > 20, "the sections draw icons: {}", uses.len());
    assert_eq!(images.len(), s.state.catalogue.services.len(), "one image per service in the menu");
    let sprite_url = images[0].split_once("#v-").map(|(url, _)| url).expect("#v-NAME");
    assert!(
        sprite_url.starts_with("/assets/icons-") && sprite_url.ends_with(".svg"),
        "{sprite_url}"
    );
    let r = s.get(sprite_url).await;
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(r.headers()["content-type"], "image/svg+xml");
    assert_eq!(r.headers()[CACHE_CONTROL], "public, max-age=31536000, immutable");
    let sprite = r.text().await.expect("sprite");
    assert!(sprite.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"24\" height=\"24\">"));
    for u in &uses {
        let (url, name) = u.split_once("#i-").expect("#i-NAME");
        let symbol = format!("<symbol id=\"i-{name}\"");
        match url {
            "" => assert!(home.contains(&symbol), "the page's inline sprite lacks {name}"),
            _ => {
                assert_eq!(url, sprite_url, "one sprite file");
                assert!(sprite.contains(&symbol), "the sprite file lacks {name}");
            }
        }
    }
    for src in &images {
        let (url, name) = src.split_once("#v-").expect("#v-NAME");
        assert_eq!(url, sprite_url, "one sprite file");
        assert!(
            sprite.contains(&format!("<view id=\"v-{name}\"")),
            "the sprite file lacks the view of {name}"
        );
    }
    for service in &s.state.catalogue.services {
        assert!(
            images.contains(&format!("{sprite_url}#v-{}", service.icon).as_str()),
            "{}",
            service.slug
        );
    }
    let other = sprite_url.replace("/assets/icons-", "/assets/icons-0");
    assert_eq!(s.get(&other).await.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn home_and_campaigns_share_the_full_footer() {
    let s = common::start().await;
    for path in ["/", "/campaigns"] {
        let body = common::unescape_html(&s.get(path).await.text().await.expect("body"));
        let footer = body.split("<footer").nth(1).expect("a footer");
        for slug in [
            "hvac",
            "roofing",
            "plumbing",
            "pest-control",
            "electrician",
            "water-damage",
            "siding",
            "flooring",
            "appliance-repair",
            "handyman",
            "bathroom-remodeling",
            "lawncare",
            "pressure-washing",
            "carpet-cleaning",
            "decks",
            "fences",
            "painting",
            "tree-services",
        ] {
            assert!(footer.contains(&format!("href=\"/{slug}\"")), "{path} footer links /{slug}");
        }
        for text in [
            "Professional call answering service for contractors and small businesses.",
            "More services",
            "About Us",
            "Pricing",
            "Support",
            "mailto:info@ringready.example",
            "href=\"/#contact\"",
            "href=\"/privacy\"",
            "href=\"/terms\"",
            "© 2025 RingReady",
            "https://www.linkedin.com/company/ringready",
        ] {
            assert!(footer.contains(text), "{path} footer has {text:?}");
        }
        assert!(!footer.contains("href=\"#\""), "{path}: no dead links");
    }
}

#[tokio::test]
async fn every_service_page_renders_its_data_and_phone() {
    let s = common::start().await;
    assert_eq!(SLUGS.len(), 42);
    for slug in SLUGS {
        let r = s.get(&format!("/{slug}")).await;
        assert_eq!(r.status(), StatusCode::OK, "/{slug}");
        let body = common::unescape_html(&r.text().await.expect("body"));
        let service = s.state.catalogue.service(slug).expect("in catalogue");
        for text in [&service.title, &service.subtitle, &service.description] {
            assert!(body.contains(text.as_str()), "/{slug} shows {text:?}");
        }
        let phone = match slug {
            "hvac" => "(800) 555-0142",
            "bathroom-remodeling" => "(800) 555-0177",
            _ => "(800) 555-0100",
        };
        assert!(body.contains(phone), "/{slug} shows {phone}");
        let badge = if EMERGENCY_SLUGS.contains(&slug) {
            "24/7 Emergency"
        } else {
            "Fast Response"
        };
        assert!(body.contains(badge), "/{slug} badge {badge}");
        assert!(body.contains(&format!("<link rel=\"canonical\" href=\"https://www.ringready.example/{slug}\">")));
        assert!(body.contains(&format!("<title>{} | RingReady</title>", service.title)));
        assert!(
            body.contains("<div data-island=\"Callback\" data-props=\""),
            "/{slug} has its callback island"
        );
    }
}

#[tokio::test]
async fn the_seventeen_redirects_are_permanent_and_keep_the_query() {
    let s = common::start().await;
    assert_eq!(REDIRECTS.len(), 17);
    for (from, to) in REDIRECTS {
        let r = s.get(from).await;
        assert_eq!(r.status(), StatusCode::MOVED_PERMANENTLY, "{from}");
        assert_eq!(r.headers()[LOCATION], to, "{from}");
    }
    let r = s.get("/home-hvac?utm_source=ad&utm_campaign=x").await;
    assert_eq!(r.headers()[LOCATION], "/hvac?utm_source=ad&utm_campaign=x");
    let r = s.get("/HVAC/").await;
    assert_eq!(
        (r.status(), r.headers()[LOCATION].to_str().expect("ascii")),
        (StatusCode::MOVED_PERMANENTLY, "/hvac")
    );
}

#[tokio::test]
async fn unknown_paths_answer_404_with_a_way_home() {
    let s = common::start().await;
    for path in ["/no-such-service", "/hvac/extra", "/%3Cscript%3E", "/services/other"] {
        let r = s.get(path).await;
        assert_eq!(r.status(), StatusCode::NOT_FOUND, "{path}");
        let body = r.text().await.expect("body");
        assert!(
            body.contains("Service not found") && body.contains("Return Home") && body.contains("href=\"/\""),
            "{path}"
        );
    }
    let r = s.client.post(s.url("/hvac")).send().await.expect("post");
    assert_eq!(r.status(), StatusCode::METHOD_NOT_ALLOWED);
}

#[tokio::test]
async fn health_robots_sitemap_and_assets() {
    let s = common::start().await;
    let r = s.get("/healthz").await;
    assert_eq!(r.status(), StatusCode::OK);
    let robots = s.get("/robots.txt").await.text().await.expect("robots");
    assert!(robots.contains("Sitemap: https://www.ringready.example/sitemap.xml"));
    let sitemap = s.get("/sitemap.xml").await.text().await.expect("sitemap");
    assert_eq!(
        sitemap.matches("<loc>").count(),
        50,
        "home, campaigns, 42 services, privacy, terms, register and its three forms"
    );
    assert!(sitemap.contains("<loc>https://www.ringready.example/car-donation</loc>"));

    let home = s.get("/").await.text().await.expect("home");
    // The inline bootstrap names the island runtime's content-hashed URL.
    let src = home
        .split("\"/assets/runtime-")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .map(|rest| format!("/assets/runtime-{rest}"))
        .expect("runtime URL in the bootstrap");
    assert!(src.ends_with(".js"), "{src}");
    let r = s.get(&src).await;
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(r.headers()[CACHE_CONTROL], "public, max-age=31536000, immutable");
    assert!(r.headers()["content-type"].to_str().expect("type").starts_with("text/javascript"));
    assert_eq!(s.get("/assets/runtime-0000.js").await.status(), StatusCode::NOT_FOUND);
    assert_eq!(s.get("/favicon.svg").await.status(), StatusCode::OK);
}

/// The favicon travels in each page's head as a `data:` URL (no request of its own, which
/// a phone would make after the page loaded): the same picture /favicon.svg serves.
#[tokio::test]
async fn every_page_carries_the_favicon_inline_and_the_csp_lets_it_show() {
    let s = common::start().await;
    let svg = s.get("/favicon.svg").await.text().await.expect("favicon");
    let expected = svg.replace('"', "'").split_whitespace().collect::<Vec<_>>().join(" ");
    for path in ["/", "/hvac", "/campaigns", "/privacy", "/register", "/nope"] {
        let r = s.get(path).await;
        let csp = r.headers()["content-security-policy"].to_str().expect("csp").to_string();
        assert!(csp.contains("img-src 'self' data:"), "{path}: {csp}");
        let html = r.text().await.expect("page");
        let href = html
            .split("<link rel=\"icon\" href=\"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .unwrap_or_else(|| panic!("{path}: an icon link"));
        let uri = href.replace("&#39;", "'").replace("&#x27;", "'");
        let data = uri.strip_prefix("data:image/svg+xml,").unwrap_or_else(|| panic!("{path}: {uri}"));
        assert!(!data.contains(['<', '>', '#', '"']), "{path}: encoded for an attribute and a URL");
        assert_eq!(percent_decode(data), expected, "{path}");
    }
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).expect("two hex digits");
            out.push(u8::from_str_radix(hex, 16).expect("hex"));
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).expect("utf-8")
}

#[tokio::test]
async fn pages_are_compressed_and_revalidated_with_strong_etags() {
    let s = common::start().await;
    let plain = s.get("/roofing").await.bytes().await.expect("plain");
    for (accept, coding) in [("gzip", "gzip"), ("br", "br"), ("gzip, deflate, br", "br")] {
        let r = s
            .client
            .get(s.url("/roofing"))
            .header(ACCEPT_ENCODING, accept)
            .send()
            .await
            .expect("get");
        assert_eq!(r.headers()[CONTENT_ENCODING], coding);
        assert_eq!(r.headers()["vary"], "Accept-Encoding");
        let etag = r.headers()[ETAG].clone();
        assert!(etag.to_str().expect("ascii").starts_with('"'), "strong etag");
        let body = r.bytes().await.expect("body");
        assert!(body.len() < plain.len() / 3, "{coding} compresses");
        let mut out = Vec::new();
        if coding == "gzip" {
            flate2::read::GzDecoder::new(&body[..]).read_to_end(&mut out).expect("gunzip");
        } else {
            brotli::BrotliDecompress(&mut &body[..], &mut out).expect("unbrotli");
        }
        assert_eq!(out, plain.to_vec(), "{coding} decodes to the same page");

        let again = s
            .client
            .get(s.url("/roofing"))
            .header(ACCEPT_ENCODING, accept)
            .header(IF_NONE_MATCH, etag.clone())
            .send()
            .await
            .expect("get");
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
        assert_eq!(again.headers()[ETAG], etag);
        assert!(again.bytes().await.expect("empty").is_empty());
    }
    let stale = s
        .client
        .get(s.url("/roofing"))
        .header(IF_NONE_MATCH, "\"not-it\"")
        .send()
        .await
        .expect("get");
    assert_eq!(stale.status(), StatusCode::OK);
}

#[tokio::test]
async fn every_island_bundle_file_decodes_to_itself_in_each_coding() {
    // Their gzip bodies are made at build time (zopfli), not by the server's own encoder.
    let s = common::start().await;
    for (name, bytes) in site_server::assets::client_files() {
        let url = format!("/assets/{name}");
        for (accept, coding) in [("gzip", "gzip"), ("br", "br")] {
            let r = s.client.get(s.url(&url)).header(ACCEPT_ENCODING, accept).send().await.expect("get");
            assert_eq!(r.status(), StatusCode::OK, "{url}");
            assert_eq!(r.headers()[CONTENT_ENCODING], coding, "{url}");
            let body = r.bytes().await.expect("body");
            let mut out = Vec::new();
            if coding == "gzip" {
                flate2::read::GzDecoder::new(&body[..]).read_to_end(&mut out).expect("gunzip");
            } else {
                brotli::BrotliDecompress(&mut &body[..], &mut out).expect("unbrotli");
            }
            assert_eq!(out, bytes, "{url} in {coding}");
        }
    }
}

#[tokio::test]
async fn every_answer_carries_the_security_headers() {
    let s = common::start().await;
    // Twice: a page's first answer renders it (through the router), the second comes from
    // the render cache without the router (`app::Site`).
    let paths = ["/", "/hvac", "/nope", "/healthz", "/home-hvac", "/favicon.svg"];
    for path in paths.iter().chain(&paths) {
        let r = s.get(path).await;
        let h = r.headers();
        let csp = h["content-security-policy"].to_str().expect("csp");
        assert!(csp.contains("frame-ancestors 'none'"), "{path}");
        assert!(csp.contains("script-src 'self'"), "{path}");
        assert!(!csp.contains("unsafe-eval") && !csp.contains("unsafe-inline"), "{path}");
        assert!(!csp.contains("trustedform"), "third parties are off by default");
        assert_eq!(h["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(h["referrer-policy"], "strict-origin-when-cross-origin", "{path}");
        assert_eq!(h["x-frame-options"], "DENY", "{path}");
        // Only the staff console isolates its window: on public pages the header cost every
        // visitor a fresh renderer process (security/mod.rs says more).
        assert!(h.get("cross-origin-opener-policy").is_none(), "{path}");
    }
}

#[tokio::test]
async fn third_party_hosts_enter_the_csp_only_when_switched_on() {
    let s = common::start_with(common::config(&[("TRUSTEDFORM_ENABLED", "true")]), site_server::assets::SSR_BUNDLE).await;
    let r = s.get("/hvac").await;
    let csp = r.headers()["content-security-policy"].to_str().expect("csp").to_string();
    assert!(csp.contains("https://cdn.trustedform.com"), "{csp}");
    assert!(!csp.contains("facebook"), "{csp}");
}

#[tokio::test]
async fn island_props_cannot_break_out_of_their_attribute() {
    let s = common::start().await;
    let body = s.get("/campaigns").await.text().await.expect("body");
    let props = body
        .split("data-island=\"CampaignBrowser\" data-props=\"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .expect("island props");
    assert!(!props.contains('<') && !props.contains('>'), "React escapes the attribute");
    let json = props
        .replace("&quot;", "\"")
        .replace("&#x27;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    let value: serde_json::Value = serde_json::from_str(&json).expect("props are JSON");
    assert_eq!(value["campaigns"].as_array().map(Vec::len), Some(55));
}

#[tokio::test]
async fn pages_carry_only_the_inline_bootstrap_allowed_by_its_csp_hash() {
    let s = common::start().await;
    for path in ["/", "/hvac", "/campaigns", "/privacy", "/terms", "/no-such-page"] {
        let r = s.get(path).await;
        let csp = r.headers()["content-security-policy"].to_str().expect("csp").to_string();
        let body = r.text().await.expect("body");
        let inline: Vec<&str> = body.split("<script>").skip(1).filter_map(|r| r.split("</script>").next()).collect();
        assert_eq!(inline.len(), 1, "{path}: one inline script");
        // No script is fetched before first paint: no src, no module preload in the markup
        // (the bootstrap adds its preload links itself, once the page has painted and loaded).
        let markup = body.replace(inline[0], "");
        assert!(
            !markup.contains("<script src") && !markup.contains("type=\"module\"") && !markup.contains("modulepreload"),
            "{path}"
        );
        let hash = format!(
            "'sha256-{}'",
            site_server::assets::base64(&sha2::Sha256::digest(inline[0].as_bytes()))
        );
        assert!(csp.contains(&hash), "{path}: the CSP allows the bootstrap by its hash");
    }
}

#[tokio::test]
async fn the_legal_texts_are_pages_in_the_sitemap() {
    let s = common::start().await;
    for (path, title) in [("/privacy", "Privacy Policy"), ("/terms", "Terms of Service")] {
        let r = s.get(path).await;
        assert_eq!(r.status(), StatusCode::OK, "{path}");
        let body = r.text().await.expect("body");
        assert!(body.contains(&format!("<title>{title} | RingReady</title>")), "{path}");
        assert!(
            body.contains(&format!("<link rel=\"canonical\" href=\"https://www.ringready.example{path}\">")),
            "{path}"
        );
        assert!(body.contains("Effective date: January 1, 2025"), "{path}");
    }
    // What the modals fetch: the same text, sections one level down, kept out of the index.
    for (path, sections) in [("/legal/privacy.html", 8), ("/legal/terms.html", 11)] {
        let r = s.get(path).await;
        assert_eq!(r.status(), StatusCode::OK, "{path}");
        assert_eq!(r.headers()["x-robots-tag"], "noindex", "{path}");
        let body = r.text().await.expect("body");
        assert_eq!(body.matches("<h3>").count(), sections, "{path}");
        assert!(!body.contains("<h2") && !body.contains("<html"), "{path} is a fragment");
    }
    assert_eq!(s.get("/legal/other.html").await.status(), StatusCode::NOT_FOUND);
    assert!(
        s.get("/robots.txt")
            .await
            .text()
            .await
            .expect("robots")
            .contains("Disallow: /legal/")
    );
    let sitemap = s.get("/sitemap.xml").await.text().await.expect("sitemap");
    for path in ["/privacy", "/terms"] {
        assert!(
            sitemap.contains(&format!("<loc>https://www.ringready.example{path}</loc>")),
            "{path} in the sitemap"
        );
    }
}

#[tokio::test]
async fn static_sections_never_reach_the_browser_bundle() {
    // Text only static sections render: their components must stay on the server.
    let bundle: String = site_server::assets::client_files()
        .map(|(_, bytes)| String::from_utf8_lossy(bytes).into_owned())
        .collect();
    for text in [
        "How It Works",
        "Campaign Application Portal",
        "Stop Missing Calls",
        "Three layers between",
        "Sample roofing lead",
        "Professional call answering service",
        "Service not found",
    ] {
        assert!(!bundle.contains(text), "{text:?} is in the browser bundle");
    }
    assert!(bundle.contains("Request Callback"), "the islands are");
}

#[tokio::test]
async fn script_free_variants_exist_only_when_switched_on() {
    let off = common::start().await;
    assert_eq!(off.get("/_noscript/hvac").await.status(), StatusCode::NOT_FOUND);
    let on = common::start_with(common::config(&[("NOSCRIPT_VARIANTS", "true")]), site_server::assets::SSR_BUNDLE).await;
    for path in ["/_noscript/hvac", "/_noscript", "/_noscript/privacy"] {
        let r = on.get(path).await;
        assert_eq!(r.status(), StatusCode::OK, "{path}");
        let body = r.text().await.expect("body");
        assert!(!body.contains("<script"), "{path}");
        assert!(body.contains("<h1"), "{path}");
    }
}

/// /metrics as dashboards read it: the standard process figures, the build, and request
/// durations by route template, every path a visitor makes up under one label value, and
/// every other series named `site_…`.
#[tokio::test]
async fn metrics_show_the_process_the_build_and_durations_by_route() {
    let s = common::start_with(common::config(&[]), site_server::assets::SSR_BUNDLE).await;
    for path in ["/", "/hvac-pro"] {
        assert!(s.get(path).await.status().as_u16() < 400, "{path}");
    }
    for path in ["/made-up-one", "/made-up-two/deeper", "/wp-login.php"] {
        assert_eq!(s.get(path).await.status(), StatusCode::NOT_FOUND, "{path}");
    }
    assert_eq!(s.get("/healthz").await.status(), StatusCode::OK);
    let m = s.metrics().await;
    let sample = |series: &str| -> Option<f64> {
        m.lines()
            .find_map(|l| l.strip_prefix(series).and_then(|rest| rest.strip_prefix(' ')))
            .and_then(|v| v.parse().ok())
    };
    let count = |route: &str| sample(&format!("site_http_request_duration_seconds_count{{route=\"{route}\"}}"));
    assert_eq!(count("(page)"), Some(2.0), "{m}");
    assert_eq!(count("(unmatched)"), Some(3.0), "{m}");
    assert_eq!(count("/healthz"), Some(1.0), "{m}");
    assert_eq!(
        sample("site_http_request_duration_seconds_bucket{route=\"/healthz\",le=\"+Inf\"}"),
        Some(1.0),
        "{m}"
    );
    assert!(
        !m.contains("made-up") && !m.contains("wp-login"),
        "a made-up path became a label:\n{m}"
    );

    let (version, commit) = (site_server::release::version(), site_server::ops::version::COMMIT);
    assert_eq!(
        sample(&format!("site_build_info{{version=\"{version}\",commit=\"{commit}\"}}")),
        Some(1.0),
        "{m}"
    );
    assert!(sample("process_resident_memory_bytes").is_some_and(|b| b > 1_000_000.0), "{m}");
    assert!(sample("process_virtual_memory_bytes").is_some_and(|b| b > 1_000_000.0), "{m}");
    assert!(sample("process_cpu_seconds_total").is_some_and(|c| c > 0.0), "{m}");
    let (open, max) = (sample("process_open_fds"), sample("process_max_fds"));
    assert!(
        open.is_some_and(|o| o > 2.0) && max.is_some_and(|x| x >= open.unwrap_or(0.0)),
        "{m}"
    );
    let now = site_server::store::now_ms() as f64 / 1000.0;
    assert!(
        sample("process_start_time_seconds").is_some_and(|t| t <= now && t > now - 86_400.0),
        "the test process started within a day: {m}"
    );
    for line in m.lines().filter(|l| !l.starts_with('#')) {
        assert!(
            line.starts_with("site_") || line.starts_with("process_"),
            "unprefixed series: {line}"
        );
    }
}
