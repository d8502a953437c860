//! The HTML document shell (askama) around React's markup, and the escaping that keeps
//! embedded JSON from closing its <script> element.

use askama::Template;
use serde::Serialize;

/// What goes into <head> for one page.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Head {
    pub title: String,
    pub description: String,
    pub canonical: String,
    /// False for a page kept out of search results (a thank-you page, a form's answer):
    /// the document then says `<meta name="robots" content="noindex">`.
    pub indexed: bool,
}

#[derive(Template)]
#[template(path = "document.html")]
pub struct Document<'a> {
    pub head: &'a Head,
    pub brand: &'a str,
    pub css: &'a str,
    /// The inline bootstrap that loads the islands after first paint.
    pub bootstrap: &'a str,
    /// Already passed through [`script_json`].
    pub json_ld: Option<String>,
    pub markup: &'a str,
}

/// A page that is not for the public (the staff console): never indexed, no canonical link,
/// no social preview; rendered per request and never cached.
#[derive(Template)]
#[template(path = "private.html")]
pub struct PrivateDocument<'a> {
    pub title: &'a str,
    pub brand: &'a str,
    pub css: &'a str,
    pub bootstrap: &'a str,
    pub markup: &'a str,
}

/// A server-only page (500, 503): no React, no script.
#[derive(Template)]
#[template(path = "error.html")]
pub struct ErrorPage<'a> {
    pub title: &'a str,
    pub message: &'a str,
    pub brand: &'a str,
    pub css: &'a str,
    pub phone: &'a str,
    pub tel_href: &'a str,
}

/// JSON made safe to sit inside `<script>`: `<`, `>` and `&` become \u escapes (so no text
/// can form `</script>` or `<!--`), and so do U+2028/U+2029. The result is still valid JSON
/// that parses to the same value.
pub fn script_json(json: &str) -> String {
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_json_cannot_close_the_tag_and_still_parses() {
        let value = serde_json::json!({"t": "</script><script>alert(1)</script><!-- & \u{2028}"});
        let escaped = script_json(&value.to_string());
        assert!(!escaped.contains('<') && !escaped.contains('>') && !escaped.contains('&'));
        let back: serde_json::Value = serde_json::from_str(&escaped).expect("valid JSON");
        assert_eq!(back, value);
    }
}
