//! The staff sign-in page: rendered by React once, then filled in for each visit without
//! React. The page has no island, and what changes from one visit to the next (the form's
//! token, the address typed before, where to go after, the error) is text in fixed places:
//! React renders the page with a mark in each place, and each visit copies the bytes around
//! the marks with its own values, escaped exactly as React escapes them. So a burst of
//! sign-in page loads costs no render, and the page stays byte for byte what React makes
//! (`server/tests/it/admin/load.rs` compares the two).

use super::admin::login::AdminLoginProps;
use super::errors::AppError;
use super::props::PageProps;

/// The page's title (`<title>Staff sign-in | {brand} staff</title>`).
pub const TITLE: &str = "Staff sign-in";

/// One visit's values.
#[derive(Debug, Clone, Copy)]
pub struct SignInFields<'a> {
    pub csrf: &'a str,
    pub email: &'a str,
    pub next: &'a str,
    pub error: Option<&'a str>,
}

/// The page in two shapes (with and without the error banner), each split at its marks.
#[derive(Debug)]
pub struct SignInPage {
    plain: Template,
    with_error: Template,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    Csrf,
    Email,
    Next,
    Error,
}

/// The marks React renders where a visit's values go: private-use characters, which React
/// leaves as they are and no brand name or page text contains.
const MARKS: [(Slot, &str); 4] = [
    (Slot::Csrf, "\u{E000}csrf\u{E001}"),
    (Slot::Email, "\u{E000}email\u{E001}"),
    (Slot::Next, "\u{E000}next\u{E001}"),
    (Slot::Error, "\u{E000}error\u{E001}"),
];

#[derive(Debug)]
enum Piece {
    Text(String),
    Slot(Slot),
}

#[derive(Debug)]
struct Template {
    pieces: Vec<Piece>,
    /// The length of the text pieces together (to size the answer).
    text_len: usize,
}

impl SignInPage {
    /// The props React renders the page from, with a mark in each visit's place (and in the
    /// error banner's, when `error`): the renderer renders both shapes once
    /// (`PageRenderer::sign_in_page`) and hands them to [`SignInPage::from_documents`].
    pub fn marked_props(brand: &str, error: bool) -> PageProps {
        let mark = |slot: Slot| {
            MARKS
                .iter()
                .find(|(s, _)| *s == slot)
                .map(|(_, m)| m.to_string())
                .unwrap_or_default()
        };
        PageProps::AdminLogin(AdminLoginProps {
            brand: brand.to_string(),
            csrf: mark(Slot::Csrf),
            email: mark(Slot::Email),
            next: mark(Slot::Next),
            error: error.then(|| mark(Slot::Error)),
        })
    }

    /// The page from its two rendered shapes (of [`SignInPage::marked_props`] without and
    /// with the error), each split at its marks.
    pub fn from_documents(plain: &str, with_error: &str) -> Result<Self, AppError> {
        Ok(Self {
            plain: Template::split(plain, &[Slot::Csrf, Slot::Email, Slot::Next]).map_err(AppError::Template)?,
            with_error: Template::split(with_error, &[Slot::Csrf, Slot::Email, Slot::Next, Slot::Error]).map_err(AppError::Template)?,
        })
    }

    /// The page for one visit.
    pub fn fill(&self, fields: &SignInFields<'_>) -> String {
        let error = fields.error.filter(|e| !e.is_empty());
        let template = if error.is_some() { &self.with_error } else { &self.plain };
        let mut out = String::with_capacity(template.text_len + 256);
        for piece in &template.pieces {
            match piece {
                Piece::Text(text) => out.push_str(text),
                Piece::Slot(Slot::Csrf) => escape_into(&mut out, fields.csrf),
                Piece::Slot(Slot::Email) => escape_into(&mut out, fields.email),
                Piece::Slot(Slot::Next) => escape_into(&mut out, fields.next),
                Piece::Slot(Slot::Error) => escape_into(&mut out, error.unwrap_or("")),
            }
        }
        out
    }
}

impl Template {
    /// Splits `html` at its marks; each of `expected` must be there exactly once, and no other.
    fn split(html: &str, expected: &[Slot]) -> Result<Self, askama::Error> {
        let mut pieces = Vec::new();
        let mut rest = html;
        while let Some((at, slot, mark)) = MARKS
            .iter()
            .filter_map(|(slot, mark)| rest.find(mark).map(|at| (at, *slot, *mark)))
            .min_by_key(|(at, _, _)| *at)
        {
            pieces.push(Piece::Text(rest[..at].to_string()));
            pieces.push(Piece::Slot(slot));
            rest = &rest[at + mark.len()..];
        }
        pieces.push(Piece::Text(rest.to_string()));
        for (slot, _) in MARKS {
            let found = pieces.iter().filter(|p| matches!(p, Piece::Slot(s) if *s == slot)).count();
            let wanted = usize::from(expected.contains(&slot));
            if found != wanted {
                return Err(askama::Error::Custom(
                    format!("the sign-in page has {found} places for {slot:?}, not {wanted}").into(),
                ));
            }
        }
        let text_len = pieces.iter().map(|p| if let Piece::Text(t) = p { t.len() } else { 0 }).sum();
        Ok(Self { pieces, text_len })
    }
}

/// Text escaped as React escapes it, in text and in attribute values alike
/// (react-dom's escapeTextForBrowser): `"`, `&`, `'`, `<` and `>`.
fn escape_into(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '"' => out.push_str("&quot;"),
            '&' => out.push_str("&amp;"),
            '\'' => out.push_str("&#x27;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_are_found_once_each_or_refused() {
        let t = Template::split(
            "<a \u{E000}csrf\u{E001}>\u{E000}email\u{E001}|\u{E000}next\u{E001}</a>",
            &[Slot::Csrf, Slot::Email, Slot::Next],
        )
        .expect("split");
        let page = SignInPage {
            plain: t,
            with_error: Template::split(
                "\u{E000}error\u{E001}\u{E000}csrf\u{E001}\u{E000}email\u{E001}\u{E000}next\u{E001}",
                &[Slot::Csrf, Slot::Email, Slot::Next, Slot::Error],
            )
            .expect("split"),
        };
        let fields = SignInFields {
            csrf: "t0k",
            email: "a\"b'<c>&d",
            next: "/admin/leads?a=1&b=2",
            error: None,
        };
        assert_eq!(
            page.fill(&fields),
            "<a t0k>a&quot;b&#x27;&lt;c&gt;&amp;d|/admin/leads?a=1&amp;b=2</a>"
        );
        let failed = SignInFields {
            error: Some("No <way>"),
            ..fields
        };
        assert!(page.fill(&failed).starts_with("No &lt;way&gt;t0k"));
        // An empty error shows no banner, as React shows none for "".
        let empty = SignInFields { error: Some(""), ..fields };
        assert_eq!(page.fill(&empty), page.fill(&fields));

        assert!(Template::split("no marks", &[Slot::Csrf]).is_err());
        assert!(Template::split("\u{E000}csrf\u{E001}\u{E000}csrf\u{E001}", &[Slot::Csrf]).is_err());
        assert!(Template::split("\u{E000}csrf\u{E001}\u{E000}error\u{E001}", &[Slot::Csrf]).is_err());
    }
}
