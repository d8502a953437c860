//! A console form's fields (URL-encoded). Behind the session check, `access::require_session`
//! reads the body once, checks its CSRF token and hands the fields on: a handler takes
//! `form: FormFields` among its arguments. The sign-in form, open without a session, reads its
//! own ([`read`]).

use axum::body::{Body, to_bytes};
use axum::extract::FromRequestParts;
use axum::http::request::Parts;

use super::error::ConsoleError;
use crate::forms::form_pairs;

/// Largest form body the console reads behind the session check.
pub const MAX_FORM_BYTES: usize = 64 * 1024;

/// A form's fields, in the order sent.
#[derive(Debug, Clone, Default)]
pub struct FormFields(pub Vec<(String, String)>);

impl FormFields {
    pub fn parse(body: &[u8]) -> Option<Self> {
        Some(Self(form_pairs(std::str::from_utf8(body).ok()?)))
    }

    /// The first value of `name`, trimmed ("" when absent).
    pub fn get(&self, name: &str) -> &str {
        self.0.iter().find(|(k, _)| k == name).map(|(_, v)| v.trim()).unwrap_or("")
    }
}

/// The fields `access::require_session` read and checked. A handler that takes them is a
/// form post's, behind that check; should one run without it, nothing was sent.
impl<S: Send + Sync> FromRequestParts<S> for FormFields {
    type Rejection = ConsoleError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        parts.extensions.get::<FormFields>().cloned().ok_or_else(|| {
            ConsoleError::bad_request(
                "Nothing was sent",
                "That form sent nothing. Go back, reload the page and try again.",
            )
        })
    }
}

/// A body of at most `limit` bytes as form fields; None when it is larger or not UTF-8.
pub async fn read(body: Body, limit: usize) -> Option<FormFields> {
    let bytes = to_bytes(body, limit).await.ok()?;
    FormFields::parse(&bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn form_fields_decode() {
        let f = FormFields::parse(b"csrf=abc&phone=%28412%29+555-0134&empty=").expect("utf-8");
        assert_eq!(f.get("phone"), "(412) 555-0134");
        assert_eq!(f.get("csrf"), "abc");
        assert_eq!(f.get("missing"), "");
    }
}
