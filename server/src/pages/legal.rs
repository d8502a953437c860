//! The Privacy Policy and Terms of Service: content files (catalogue/legal/*.md, Markdown)
//! with `{brand}`, `{email}`, `{phone}` and `{tel}` filled from configuration, rendered to
//! HTML once at start. The same HTML is the body of /privacy and /terms (sections as h2,
//! under the page's h1) and of the legal modals (sections as h3, under the dialog's h2
//! title), which fetch it from `/legal/<name>.html`.

use pulldown_cmark::{Event, HeadingLevel, Parser, Tag, TagEnd, html};

use super::props::LegalDocument;
use crate::config::Config;

const PRIVACY: &str = include_str!("../../../catalogue/legal/privacy.md");
const TERMS: &str = include_str!("../../../catalogue/legal/terms.md");

/// Both texts, each rendered for its page and for the modal.
#[derive(Debug)]
pub struct LegalTexts {
    privacy: Rendered,
    terms: Rendered,
}

#[derive(Debug)]
struct Rendered {
    page: String,
    dialog: String,
}

impl LegalTexts {
    pub fn new(config: &Config) -> Self {
        let phone = config.site.support_phone.display();
        let tel = config.site.support_phone.e164();
        let values = [
            ("{brand}", config.site.brand.as_str()),
            ("{email}", config.site.info_email.as_str()),
            ("{phone}", phone.as_str()),
            ("{tel}", tel.as_str()),
        ];
        let rendered = |markdown: &str| {
            let filled = fill(markdown, &values);
            Rendered {
                page: to_html(&filled, HeadingLevel::H2),
                dialog: to_html(&filled, HeadingLevel::H3),
            }
        };
        Self {
            privacy: rendered(PRIVACY),
            terms: rendered(TERMS),
        }
    }

    /// The text for its page: sections as h2.
    pub fn page_html(&self, document: LegalDocument) -> &str {
        &self.get(document).page
    }

    /// The text for the modal: sections as h3.
    pub fn dialog_html(&self, document: LegalDocument) -> &str {
        &self.get(document).dialog
    }

    fn get(&self, document: LegalDocument) -> &Rendered {
        match document {
            LegalDocument::Privacy => &self.privacy,
            LegalDocument::Terms => &self.terms,
        }
    }
}

/// Replaces each placeholder with its value, escaped so Markdown takes it literally (in
/// text and in link destinations alike).
fn fill(markdown: &str, values: &[(&str, &str)]) -> String {
    values.iter().fold(markdown.to_string(), |text, (placeholder, value)| {
        text.replace(placeholder, &markdown_literal(value))
    })
}

fn markdown_literal(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 8);
    for c in value.chars() {
        if c.is_ascii_punctuation() {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Markdown to HTML, with the `##` section headings at `sections` level. Raw HTML in the
/// content is shown as text, never passed through.
fn to_html(markdown: &str, sections: HeadingLevel) -> String {
    let events = Parser::new(markdown).map(|event| match event {
        Event::Start(Tag::Heading { id, classes, attrs, .. }) => Event::Start(Tag::Heading {
            level: sections,
            id,
            classes,
            attrs,
        }),
        Event::End(TagEnd::Heading(_)) => Event::End(TagEnd::Heading(sections)),
        Event::Html(raw) | Event::InlineHtml(raw) => Event::Text(raw),
        other => other,
    });
    let mut out = String::with_capacity(markdown.len() + markdown.len() / 4);
    html::push_html(&mut out, events);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(brand: &str) -> LegalTexts {
        let mut config = Config::defaults().expect("default config");
        config.site.brand = brand.into();
        LegalTexts::new(&config)
    }

    fn headings<'a>(html: &'a str, tag: &str) -> Vec<&'a str> {
        let open = format!("<{tag}>");
        let close = format!("</{tag}>");
        html.split(open.as_str())
            .skip(1)
            .filter_map(|rest| rest.split(close.as_str()).next())
            .collect()
    }

    #[test]
    fn sections_are_h2_on_the_page_and_h3_in_the_modal() {
        let t = texts("RingReady");
        for document in LegalDocument::ALL {
            let page = headings(t.page_html(document), "h2");
            let dialog = headings(t.dialog_html(document), "h3");
            assert_eq!(page, dialog, "{document:?}");
            assert_eq!(page.len(), if document == LegalDocument::Privacy { 8 } else { 11 });
            assert!(!t.page_html(document).contains("<h3") && !t.dialog_html(document).contains("<h2"));
            assert!(
                t.page_html(document)
                    .starts_with("<p>Effective date: January 1, 2025. Last updated: January 1, 2025.</p>")
            );
        }
    }

    #[test]
    fn placeholders_are_filled_from_configuration() {
        let t = texts("RingReady");
        for document in LegalDocument::ALL {
            let html = t.page_html(document);
            assert!(
                !html.contains('{') && !html.contains('}'),
                "{document:?} has an unfilled placeholder"
            );
            assert!(html.contains("RingReady"));
            assert!(
                html.contains(r#"<a href="mailto:info@ringready.example">info@ringready.example</a>"#),
                "{document:?}"
            );
            assert!(html.contains(r#"<a href="tel:+18005550100">(800) 555-0100</a>"#), "{document:?}");
        }
    }

    #[test]
    fn a_hostile_brand_is_text_not_markup() {
        let t = texts("<script>alert(1)</script> *Acme* [x](javascript:alert(1))");
        let html = t.page_html(LegalDocument::Terms);
        assert!(!html.contains("<script>") && !html.contains("<em>Acme") && !html.contains("href=\"javascript"));
        assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; *Acme* [x](javascript:alert(1))"));
    }

    #[test]
    fn raw_html_in_the_content_is_shown_as_text() {
        assert_eq!(
            to_html("a <b>bold</b>\n\n<div>x</div>", HeadingLevel::H2),
            "<p>a &lt;b&gt;bold&lt;/b&gt;</p>\n&lt;div&gt;x&lt;/div&gt;"
        );
    }
}
