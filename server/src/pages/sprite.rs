//! An SVG sprite file of icons, served as an immutable asset under a content-hashed URL, so
//! their path data is fetched once and cached instead of weighing on every page's HTML. It
//! is used two ways:
//! - `<use href="/assets/icons-….svg#i-NAME">` draws symbol `i-NAME` in the page's text
//!   colour (the home page's sections below the first screen);
//! - `<img src="/assets/icons-….svg#v-NAME" loading="lazy">` shows view `v-NAME`, the icon
//!   drawn in the menus' blue (the 42 services in the Home Services menu and the service
//!   picker). The file itself is fetched either way (the sections' `<use>` need it); what the
//!   images save is the cloning: each `<use>` of another file copies its symbol into the page
//!   while it is parsed and styled, where a lazy image in a closed menu does nothing until
//!   the menu opens.

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::assets::IconSet;

/// Element names and attribute names allowed in the sprite: lucide's own vocabulary.
fn is_name(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The colour the views draw in: Tailwind's blue-700, the menus' icon colour.
const VIEW_STROKE: &str = "#1d4ed8";

/// The root element: 24 by 24, the size of one icon, so an image of one view has a size of
/// its own even before the page's `width` and `height` apply.
const ROOT: &str = r#"<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24">"#;

/// The sprite's SVG text: one `<symbol id="i-NAME" viewBox="0 0 24 24">` per icon, then each
/// icon drawn once, stacked 24 units apart, with a `<view id="v-NAME">` framing it. Parts
/// that are not `[tag, {attributes}]` with plain names are left out.
pub fn sprite_svg(icons: &IconSet) -> String {
    let mut out = String::from(ROOT);
    for (name, node) in icons {
        out.push_str(&format!(r#"<symbol id="i-{}" viewBox="0 0 24 24">"#, escape(name)));
        for part in node.as_array().into_iter().flatten() {
            let (Some(tag), Some(attrs)) = (part.get(0).and_then(Value::as_str), part.get(1).and_then(Value::as_object)) else {
                continue;
            };
            if !is_name(tag) {
                continue;
            }
            out.push('<');
            out.push_str(tag);
            for (key, value) in attrs {
                let text = match value {
                    Value::String(s) => s.clone(),
                    Value::Number(n) => n.to_string(),
                    _ => continue,
                };
                // React's `key` is not an SVG attribute.
                if key == "key" || !is_name(key) {
                    continue;
                }
                out.push_str(&format!(r#" {key}="{}""#, escape(&text)));
            }
            out.push_str("/>");
        }
        out.push_str("</symbol>");
    }
    out.push_str(&format!(
        r#"<g fill="none" stroke="{VIEW_STROKE}" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">"#
    ));
    for (row, name) in icons.keys().enumerate() {
        let name = escape(name);
        let y = row * 24;
        out.push_str(&format!(
            r##"<view id="v-{name}" viewBox="0 {y} 24 24"/><use href="#i-{name}" y="{y}" width="24" height="24"/>"##
        ));
    }
    out.push_str("</g></svg>");
    out
}

/// The URL the sprite is served under: /assets/icons-<hash of its content>.svg.
pub fn sprite_path(svg: &str) -> String {
    let hash = crate::hex::hex(&Sha256::digest(svg.as_bytes())[..6]);
    format!("/assets/icons-{hash}.svg")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn symbols_carry_the_icon_parts_escaped() {
        let mut icons = IconSet::new();
        icons.insert(
            "wrench".into(),
            json!([["path", { "d": "M1 2h3" }], ["circle", { "cx": 12, "cy": 12, "r": "3" }]]),
        );
        icons.insert(
            "odd".into(),
            json!([["path", { "d": "a\"<b" }], ["bad tag", { "d": "x" }], ["path", { "on click": "x" }], 7]),
        );
        let svg = sprite_svg(&icons);
        assert!(svg.starts_with(r#"<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24">"#));
        assert!(svg.contains(r#"<symbol id="i-wrench" viewBox="0 0 24 24"><path d="M1 2h3"/><circle cx="12" cy="12" r="3"/></symbol>"#));
        assert!(
            svg.contains(r#"<symbol id="i-odd" viewBox="0 0 24 24"><path d="a&quot;&lt;b"/><path/></symbol>"#),
            "{svg}"
        );
        // Each icon also drawn in its own 24-unit row, framed by a view an <img> can name.
        assert!(svg.contains(r##"<view id="v-odd" viewBox="0 0 24 24"/><use href="#i-odd" y="0" width="24" height="24"/>"##));
        assert!(svg.contains(r##"<view id="v-wrench" viewBox="0 24 24 24"/><use href="#i-wrench" y="24" width="24" height="24"/>"##));
        assert!(svg.ends_with("</g></svg>"));
        assert!(sprite_path(&svg).starts_with("/assets/icons-") && sprite_path(&svg).ends_with(".svg"));
        assert_ne!(sprite_path(&svg), sprite_path("<svg/>"), "the URL follows the content");
    }
}
