//! The one error type of every API endpoint, and the one place it becomes the JSON answer
//! `{"error": "<a sentence a visitor understands>"}` (openapi.yaml: the shared `Error`
//! schema and responses). Handlers return `Result<_, ApiError>` and use `?`: the `From`
//! conversions below say which failure gets which answer. Nothing internal (a database
//! error, a parser's message) reaches the client.

use std::time::Duration;

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::forms::Invalid;
use crate::security::rate_limit::RateLimited;
use crate::store::StoreError;

pub const MSG_UNREADABLE: &str = "We could not read your request. Please reload the page and try again.";
pub const MSG_MEDIA_TYPE: &str = "Please send the form as JSON or as a regular form post.";
pub const MSG_TOO_LARGE: &str = "Your request is too large. Please shorten what you typed and try again.";
pub const MSG_RATE_LIMITED: &str = "Too many requests from your connection. Please wait a minute and try again.";
pub const MSG_UNAVAILABLE: &str = "We could not save your request just now. Please try again or call us.";
pub const MSG_CROSS_SITE: &str = "Please send this form from our own website. Reload the page and try again.";
pub const MSG_TIMEOUT: &str = "Your request took too long to arrive. Please check your connection and try again.";

/// What went wrong with an API request.
#[derive(Debug)]
pub enum ApiError {
    /// 400: a field breaks a rule; the message names the first one.
    Invalid(Invalid),
    /// 400: the body is not JSON (or not an object of fields), or a form that is not UTF-8.
    Unreadable,
    /// 415: neither JSON nor a form post.
    UnsupportedMediaType,
    /// 413: the body is over `api.max_body_bytes`.
    TooLarge,
    /// 429 with Retry-After: the IP's rate limit is spent for this long.
    RateLimited(Duration),
    /// 503: the database could not take the write; nothing was accepted.
    Unavailable,
    /// 403: a state-changing request made by another site's page (security::cross_site).
    CrossSite,
    /// 408: the body (or the whole request) did not arrive within its deadline.
    Timeout,
}

impl ApiError {
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::Invalid(_) | ApiError::Unreadable => StatusCode::BAD_REQUEST,
            ApiError::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::RateLimited(_) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::CrossSite => StatusCode::FORBIDDEN,
            ApiError::Timeout => StatusCode::REQUEST_TIMEOUT,
        }
    }

    pub fn message(&self) -> &'static str {
        match self {
            ApiError::Invalid(i) => i.message,
            ApiError::Unreadable => MSG_UNREADABLE,
            ApiError::UnsupportedMediaType => MSG_MEDIA_TYPE,
            ApiError::TooLarge => MSG_TOO_LARGE,
            ApiError::RateLimited(_) => MSG_RATE_LIMITED,
            ApiError::Unavailable => MSG_UNAVAILABLE,
            ApiError::CrossSite => MSG_CROSS_SITE,
            ApiError::Timeout => MSG_TIMEOUT,
        }
    }

    /// Short reason for the rejected-leads metric.
    pub fn reason(&self) -> &'static str {
        match self {
            ApiError::Invalid(i) => i.reason,
            ApiError::Unreadable => "unreadable",
            ApiError::UnsupportedMediaType => "media_type",
            ApiError::TooLarge => "too_large",
            ApiError::RateLimited(_) => "rate_limited",
            ApiError::Unavailable => "unavailable",
            ApiError::CrossSite => "cross_site",
            ApiError::Timeout => "timeout",
        }
    }

    /// The headers every refusal carries, whatever its body (the JSON below, or the
    /// no-JavaScript form page): never cached, and Retry-After when rate limited.
    pub fn add_headers(&self, response: &mut Response) {
        let headers = response.headers_mut();
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        if matches!(self, ApiError::Timeout) {
            // The rest of the body may still be on its way: do not read it, close.
            headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
        }
        if let ApiError::RateLimited(wait) = self
            && let Ok(v) = HeaderValue::from_str(&wait.as_secs().max(1).to_string())
        {
            headers.insert(header::RETRY_AFTER, v);
        }
    }
}

impl ApiError {
    /// The answer for a plain form post (no JavaScript) refused before its endpoint saw it:
    /// a short page with the message and a way back.
    pub fn into_html_response(self) -> Response {
        let html = format!(
            "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\">\
             <title>Request not sent</title></head><body><main><h1>Request not sent</h1><p>{}</p><p><a href=\"/\">Back to the home page</a></p></main></body></html>",
            self.message()
        );
        let mut response = (self.status(), axum::response::Html(html)).into_response();
        self.add_headers(&mut response);
        response
    }
}

/// The JSON error answer.
impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status(), axum::Json(json!({ "error": self.message() }))).into_response();
        self.add_headers(&mut response);
        response
    }
}

impl From<Invalid> for ApiError {
    fn from(invalid: Invalid) -> Self {
        ApiError::Invalid(invalid)
    }
}

impl From<RateLimited> for ApiError {
    fn from(refused: RateLimited) -> Self {
        ApiError::RateLimited(refused.retry_after)
    }
}

/// Any store failure answers 503 without detail; the handler logs it with its context.
impl From<StoreError> for ApiError {
    fn from(_: StoreError) -> Self {
        ApiError::Unavailable
    }
}

/// A JSON body that does not parse.
impl From<serde_json::Error> for ApiError {
    fn from(_: serde_json::Error) -> Self {
        ApiError::Unreadable
    }
}

/// A form body that is not UTF-8.
impl From<std::str::Utf8Error> for ApiError {
    fn from(_: std::str::Utf8Error) -> Self {
        ApiError::Unreadable
    }
}

/// Reading the body with `axum::body::to_bytes` and the configured limit failed: its
/// deadline passed (api::guard), or the body is over the limit (a connection that breaks
/// off mid-body gets the same answer).
impl From<axum::Error> for ApiError {
    fn from(e: axum::Error) -> Self {
        let mut source: Option<&(dyn std::error::Error + 'static)> = Some(&e);
        while let Some(err) = source {
            if err.is::<super::guard::BodyDeadline>() {
                return ApiError::Timeout;
            }
            source = err.source();
        }
        ApiError::TooLarge
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::leads::validate::MSG_NAME_REQUIRED;

    async fn answer(e: ApiError) -> (StatusCode, Option<String>, serde_json::Value) {
        let r = e.into_response();
        let status = r.status();
        let retry = r.headers().get(header::RETRY_AFTER).map(|v| v.to_str().unwrap_or("").to_string());
        assert_eq!(r.headers()[header::CACHE_CONTROL], "no-store");
        let bytes = axum::body::to_bytes(r.into_body(), 4096).await.expect("body");
        (status, retry, serde_json::from_slice(&bytes).expect("json"))
    }

    #[tokio::test]
    async fn every_failure_is_one_json_answer() {
        let invalid = Invalid {
            reason: "name",
            message: MSG_NAME_REQUIRED,
        };
        let cases: Vec<(ApiError, StatusCode, &str)> = vec![
            (invalid.into(), StatusCode::BAD_REQUEST, MSG_NAME_REQUIRED),
            (
                serde_json::from_str::<serde_json::Value>("{").expect_err("syntax").into(),
                StatusCode::BAD_REQUEST,
                MSG_UNREADABLE,
            ),
            (ApiError::UnsupportedMediaType, StatusCode::UNSUPPORTED_MEDIA_TYPE, MSG_MEDIA_TYPE),
            (ApiError::TooLarge, StatusCode::PAYLOAD_TOO_LARGE, MSG_TOO_LARGE),
            (StoreError::WriterStopped.into(), StatusCode::SERVICE_UNAVAILABLE, MSG_UNAVAILABLE),
        ];
        for (error, status, message) in cases {
            let (s, retry, body) = answer(error).await;
            assert_eq!((s, retry), (status, None));
            assert_eq!(body, json!({ "error": message }));
        }
        let limited = RateLimited {
            retry_after: Duration::from_millis(2500),
        };
        let (s, retry, body) = answer(limited.into()).await;
        assert_eq!((s, retry.as_deref()), (StatusCode::TOO_MANY_REQUESTS, Some("2")));
        assert_eq!(body, json!({ "error": MSG_RATE_LIMITED }));
    }

    #[tokio::test]
    async fn a_database_error_answers_without_its_detail() {
        let (status, _, body) = answer(StoreError::Database("relation \"leads\" does not exist".into()).into()).await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(body, json!({ "error": MSG_UNAVAILABLE }));
    }
}
