//! The rules a field is held to wherever it appears: in any form, and in the configuration.

/// The longest web address kept.
pub const MAX_URL: usize = 2048;

/// JavaScript's white space (`\s`, and what `trim()` removes): the forms' rules come from the
/// browser, so the server strips and trims the same characters.
pub fn is_js_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}' | '\u{2028}' | '\u{2029}' | '\u{202f}' | '\u{205f}' | '\u{3000}' | '\u{feff}'
    )
}

/// What JavaScript's `trim()` leaves.
pub fn js_trim(s: &str) -> &str {
    s.trim_matches(is_js_space)
}

/// Control characters (Unicode Cc) other than tab and the line breaks (LF, CR).
pub fn has_control(s: &str) -> bool {
    s.chars().any(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
}

/// A value the server derives from a request for its record rather than one the visitor
/// typed (a `utm_*` value decoded from the page's address, the User-Agent header), without
/// its control characters (Unicode Cc: NUL and the rest of C0, DEL, C1; tab and line breaks
/// too, these values are one line) and format characters (`is_format_char`): what is left
/// is safe to store on either database (PostgreSQL's text cannot hold NUL), and to show in
/// an e-mail, a page or a webhook. None when nothing is left. A visitor's own text is
/// refused instead (`has_control`, with the field's message), and a web address with any of
/// them is not kept (`is_web_url`): a derived value has no one to tell, and the lead it
/// comes with must not be lost for it.
pub fn derived_text(s: &str) -> Option<String> {
    let kept: String = s.chars().filter(|&c| !c.is_control() && !is_format_char(c)).collect();
    (!kept.is_empty()).then_some(kept)
}

/// A line break (LF or CR): what a one-line field may not hold.
pub fn has_line_break(s: &str) -> bool {
    s.contains(['\n', '\r'])
}

/// Unicode's format characters (general category Cf): invisible, they reorder or hide text.
pub fn is_format_char(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{0600}'..='\u{0605}'
            | '\u{061C}'
            | '\u{06DD}'
            | '\u{070F}'
            | '\u{0890}'..='\u{0891}'
            | '\u{08E2}'
            | '\u{180E}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{206F}'
            | '\u{FEFF}'
            | '\u{FFF9}'..='\u{FFFB}'
            | '\u{110BD}'
            | '\u{110CD}'
            | '\u{13430}'..='\u{1343F}'
            | '\u{1BCA0}'..='\u{1BCA3}'
            | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0001}'
            | '\u{E0020}'..='\u{E007F}'
    )
}

/// An e-mail address as the forms' pattern `^[^\s@]+@[^\s@]+\.[^\s@]+$` has it, with
/// JavaScript's `\s` (docs/product.md, "Accounts" and "The campaign application"): one `@`,
/// something before it, and a dot in the domain with something on both sides; and no control
/// character (every form refuses those anyway, and so does the configuration).
pub fn is_email(s: &str) -> bool {
    if s.chars().any(|c| is_js_space(c) || c.is_control()) {
        return false;
    }
    let Some((local, domain)) = s.split_once('@') else { return false };
    let dots = domain.char_indices().filter(|&(_, c)| c == '.');
    !local.is_empty() && !domain.contains('@') && dots.map(|(i, _)| i).any(|i| i > 0 && i + 1 < domain.len())
}

/// The browser's own check of an `<input type="email">` (the HTML standard's "valid e-mail
/// address"), which is all the header's registration modal asks.
pub fn is_html_email(s: &str) -> bool {
    let Some((local, domain)) = s.split_once('@') else { return false };
    let local_ok = !local.is_empty()
        && local
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || ".!#$%&'*+/=?^_`{|}~-".contains(c));
    let label_ok = |l: &str| {
        !l.is_empty()
            && l.len() <= 63
            && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
            && !l.starts_with('-')
            && !l.ends_with('-')
    };
    local_ok && domain.split('.').all(label_ok)
}

/// A web address we keep, from a visitor or an operator: absolute http(s) (either case) with
/// a host, at most `MAX_URL` bytes, and without control characters, white space, quotes,
/// angle brackets, backslashes or format characters: safe to store, show in an e-mail or a
/// page, and send on (docs/architecture.md, "Add a form").
pub fn is_web_url(url: &str) -> bool {
    let lower = url.get(..8).unwrap_or(url).to_ascii_lowercase();
    let rest = if lower.starts_with("https://") {
        &url[8..]
    } else if lower.starts_with("http://") {
        &url[7..]
    } else {
        return false;
    };
    url.len() <= MAX_URL
        && !rest.is_empty()
        && !rest.starts_with(['/', '?', '#'])
        && !url
            .chars()
            .any(|c| c.is_control() || c.is_whitespace() || matches!(c, '"' | '\'' | '<' | '>' | '\\' | '`') || is_format_char(c))
}

/// A web address (`is_web_url`) over https.
pub fn is_https_url(url: &str) -> bool {
    is_web_url(url) && url.get(..8).is_some_and(|scheme| scheme.eq_ignore_ascii_case("https://"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_e_mail_pattern() {
        for ok in [
            "a@b.co",
            "dana@example.com",
            "a@..c",
            "x+y@sub.example.org",
            "a@.b.c",
            "a@b.c.",
            "ü@bücher.example",
        ] {
            assert!(is_email(ok), "{ok}");
        }
        for bad in [
            "",
            "nobody",
            "a@b",
            "a@.c",
            "a@b.",
            "a b@c.de",
            "a@b@c.de",
            "@b.co",
            "a@@b.c",
            "a@b.co\u{feff}",
            "a@b\u{feff}.c",
            "a\u{1}b@c.de",
            "a@b.c\u{85}",
        ] {
            assert!(!is_email(bad), "{bad:?}");
        }
    }

    #[test]
    fn the_browsers_e_mail_check() {
        assert!(is_html_email("a@b"));
        assert!(is_html_email("first.last+tag@mail.example.com"));
        for bad in ["a@b..c", "a@-b.c", "a b@c.d", "a@b_c.d", "@b.c", "a@", "ä@b.c"] {
            assert!(!is_html_email(bad), "{bad}");
        }
    }

    #[test]
    fn web_addresses() {
        for ok in [
            "https://summitleads.example",
            "HTTP://x.example/path?q=1",
            "http://127.0.0.1:8080",
            "https://www.ringready.example/hvac?utm_source=google#top",
        ] {
            assert!(is_web_url(ok), "{ok}");
        }
        for bad in [
            "summitleads.example",
            "https://",
            "ftp://x.example",
            "javascript:alert(1)",
            "https://a b.example",
            "http:///x",
            "https://?q",
            "https://x.example/\"><script>",
            "https://x.example/\u{202e}gpj.exe",
            "https://x.example/a\\b",
        ] {
            assert!(!is_web_url(bad), "{bad}");
        }
        assert!(!is_web_url(&format!("https://x.example/{}", "a".repeat(MAX_URL))));
        assert!(is_https_url("HTTPS://x.example/"));
        assert!(!is_https_url("http://x.example/"));
    }

    #[test]
    fn js_trim_is_javascripts() {
        assert_eq!(js_trim("\u{feff} a \u{3000}"), "a");
        assert_eq!(js_trim("\u{85}a"), "\u{85}a", "NEL is not JavaScript white space");
    }

    #[test]
    fn derived_values_lose_their_control_and_format_characters() {
        assert_eq!(derived_text("spring\u{0}promo").as_deref(), Some("springpromo"));
        assert_eq!(
            derived_text("a\u{1}b\u{1b}c\u{7f}d\u{85}e\tf\ng\u{202e}h").as_deref(),
            Some("abcdefgh")
        );
        assert_eq!(
            derived_text("Mozilla/5.0 (X11; Linux x86_64)").as_deref(),
            Some("Mozilla/5.0 (X11; Linux x86_64)")
        );
        assert_eq!(
            derived_text("spring promo ü").as_deref(),
            Some("spring promo ü"),
            "spaces and letters stay"
        );
        assert_eq!(derived_text("\u{0}"), None);
        assert_eq!(derived_text(""), None);
    }

    #[test]
    fn control_characters_and_line_breaks() {
        assert!(!has_control("tab\there\r\nand there"));
        assert!(has_control("bell\u{7}"));
        assert!(has_control("next line\u{85}"));
        assert!(has_line_break("a\rb") && has_line_break("a\nb") && !has_line_break("a\tb"));
    }
}
