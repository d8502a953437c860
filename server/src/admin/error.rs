//! What can go wrong in the console, and the one place it becomes an answer. Handlers and the
//! console's middleware return `Result<_, ConsoleError>`; `?` on a store call (with what it
//! was doing, [`Doing::doing`]) is all a handler writes about a database failure.
//!
//! - The database cannot be read or written, or the operating system gives no randomness:
//!   logged here, once, and answered with a plain 503 and `Retry-After` (no render needed).
//! - A console budget is spent: a plain 429 with `Retry-After` (its warning is logged by the
//!   middleware that knows whose budget it was).
//! - A page could not be rendered: the site's own 500 or 503 page, chosen and logged by
//!   `pages::errors`.
//! - A data route (CSV) asked for something it cannot give: a plain 400 with the reason.
//! - A refusal the staff member should read (no such record, an expired form, a form that
//!   named nothing): a message page in the console's frame with its status. Rendering needs
//!   the state and the session, which an answer does not have: the answer carries the
//!   message, and `page::answer_errors`, the layer around every console route, renders it.

use std::sync::Arc;
use std::time::Duration;

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::pages::errors::{self, AppError, ErrorPages};
use crate::store::StoreError;

/// Answered when the database cannot be read or written.
pub const MSG_UNAVAILABLE: &str = "The staff console cannot reach its database just now. Please try again in a moment.";

#[derive(Debug)]
pub enum ConsoleError {
    /// The store failed while the console was `doing` something ("list leads").
    Store { doing: &'static str, source: StoreError },
    /// No randomness from the operating system for a session id or a form token.
    NoRandomness(getrandom::Error),
    /// A page could not be rendered: the answer `pages::errors` gave (already logged).
    Page(Box<Response>),
    /// A console budget is spent: wait this long.
    Limited { wait: Duration, message: &'static str },
    /// A message page in the console's frame, with this status.
    Refused(Refusal),
    /// A data route (CSV) refused what it was asked: 400 with the reason, plain text.
    DataRefused(String),
}

/// A refusal shown as a message page in the console's frame.
#[derive(Debug, Clone)]
pub struct Refusal {
    pub status: StatusCode,
    pub title: &'static str,
    pub text: String,
}

impl ConsoleError {
    /// A message page with `status`.
    pub fn refused(status: StatusCode, title: &'static str, text: impl Into<String>) -> Self {
        Self::Refused(Refusal {
            status,
            title,
            text: text.into(),
        })
    }

    /// 404 with a message page.
    pub fn not_found(title: &'static str, text: impl Into<String>) -> Self {
        Self::refused(StatusCode::NOT_FOUND, title, text)
    }

    /// A page that could not be rendered: the site's 500 or 503 page (`pages::errors`
    /// logs why).
    pub fn render_failed(pages: &Arc<ErrorPages>, error: AppError) -> Self {
        Self::Page(Box::new(errors::respond(pages, error)))
    }

    /// 400 with a message page.
    pub fn bad_request(title: &'static str, text: impl Into<String>) -> Self {
        Self::refused(StatusCode::BAD_REQUEST, title, text)
    }
}

impl From<StoreError> for ConsoleError {
    fn from(source: StoreError) -> Self {
        Self::Store {
            doing: "use the database",
            source,
        }
    }
}

/// A store result as a console result that says what the console was doing, for the log.
pub trait Doing<T> {
    fn doing(self, doing: &'static str) -> Result<T, ConsoleError>;
}

impl<T> Doing<T> for Result<T, StoreError> {
    fn doing(self, doing: &'static str) -> Result<T, ConsoleError> {
        self.map_err(|source| ConsoleError::Store { doing, source })
    }
}

impl IntoResponse for ConsoleError {
    fn into_response(self) -> Response {
        match self {
            ConsoleError::Store { doing, source } => {
                tracing::error!(error = %source, "console: cannot {doing}");
                unavailable()
            }
            ConsoleError::NoRandomness(e) => {
                tracing::error!(error = %e, "console: no randomness from the operating system");
                unavailable()
            }
            ConsoleError::Page(response) => *response,
            ConsoleError::Limited { wait, message } => {
                let mut r = (StatusCode::TOO_MANY_REQUESTS, message).into_response();
                if let Ok(v) = HeaderValue::from_str(&wait.as_secs().max(1).to_string()) {
                    r.headers_mut().insert(header::RETRY_AFTER, v);
                }
                r
            }
            ConsoleError::DataRefused(reason) => (
                StatusCode::BAD_REQUEST,
                [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
                reason,
            )
                .into_response(),
            ConsoleError::Refused(refusal) => {
                // The status and the text, plain, until `page::answer_errors` renders them
                // in the console's frame.
                let mut r = (refusal.status, refusal.text.clone()).into_response();
                r.extensions_mut().insert(refusal);
                r
            }
        }
    }
}

/// The database could not be read: a plain 503 (no render needed).
fn unavailable() -> Response {
    let mut r = (StatusCode::SERVICE_UNAVAILABLE, MSG_UNAVAILABLE).into_response();
    r.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_error_has_its_status() {
        let r = ConsoleError::from(StoreError::WriterStopped).into_response();
        assert_eq!(r.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(r.headers()[header::RETRY_AFTER], "5");
        let r = ConsoleError::Limited {
            wait: Duration::from_millis(200),
            message: "wait",
        }
        .into_response();
        assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(r.headers()[header::RETRY_AFTER], "1");
        let r = ConsoleError::not_found("Not found", "No such lead.").into_response();
        assert_eq!(r.status(), StatusCode::NOT_FOUND);
        let refusal = r.extensions().get::<Refusal>().expect("the message goes along");
        assert_eq!((refusal.title, refusal.text.as_str()), ("Not found", "No such lead."));
    }
}
