//! The lead capture API (spec section 7): POST /.netlify/functions/submit-lead and
//! POST /.netlify/functions/record-token. Described in openapi.yaml at the repository root.
//!
//! One file per endpoint family, each with its own `router()`; `app.rs` merges them. What
//! they share lives here: reading a request (rate limit, content type, size) and the one
//! error answer, a 4xx with `{"error": "<a sentence a visitor understands>"}`.

pub mod record_token;
pub mod submit_lead;

use std::net::{IpAddr, SocketAddr};

use axum::body::{Body, to_bytes};
use axum::extract::{ConnectInfo, Request};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::leads::validate::{Fields, Invalid};
use crate::leads::{RequestContext, percent_decode, truncate};
use crate::state::AppState;

pub use record_token::RECORD_TOKEN_PATH;
pub use submit_lead::SUBMIT_LEAD_PATH;

pub const MSG_UNREADABLE: &str = "We could not read your request. Please reload the page and try again.";
pub const MSG_MEDIA_TYPE: &str = "Please send the form as JSON or as a regular form post.";
pub const MSG_TOO_LARGE: &str = "Your request is too large. Please shorten what you typed and try again.";
pub const MSG_RATE_LIMITED: &str = "Too many requests from your connection. Please wait a minute and try again.";
pub const MSG_UNAVAILABLE: &str = "We could not save your request just now. Please try again or call us.";

/// What went wrong with an API request, and the one place it becomes a JSON answer.
#[derive(Debug)]
pub enum ApiError {
    Invalid(Invalid),
    Unreadable,
    UnsupportedMediaType,
    TooLarge,
    RateLimited(std::time::Duration),
    /// The database could not take the write: nothing was accepted.
    Unavailable,
}

impl ApiError {
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::Invalid(_) | ApiError::Unreadable => StatusCode::BAD_REQUEST,
            ApiError::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::RateLimited(_) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
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
        }
    }
}

impl ApiError {
    /// The headers every refusal carries, whatever its body: never cached, and Retry-After
    /// when rate limited.
    pub fn add_headers(&self, response: &mut Response) {
        let headers = response.headers_mut();
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        if let ApiError::RateLimited(wait) = self
            && let Ok(v) = HeaderValue::from_str(&wait.as_secs().max(1).to_string())
        {
            headers.insert(header::RETRY_AFTER, v);
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status(), axum::Json(json!({ "error": self.message() }))).into_response();
        self.add_headers(&mut response);
        response
    }
}

/// How the client sent its fields: JSON from the page's script, or a plain form post
/// from the no-JavaScript path (answered with HTML pages instead of JSON).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Json,
    Form,
}

/// A request's body as fields, after the rate limit, content type and size checks.
pub struct Submission {
    pub encoding: Encoding,
    pub fields: Fields,
    pub context: RequestContext,
}

/// Reads and decodes a request. The encoding is known even when decoding fails, so the
/// caller can answer a form post with HTML.
pub async fn read(state: &AppState, request: Request) -> (Option<Encoding>, Result<Submission, ApiError>) {
    let (parts, body) = request.into_parts();
    let ip = client_ip(
        &parts.headers,
        parts.extensions.get::<ConnectInfo<SocketAddr>>(),
        state.config.server.trust_forwarded_for,
    );
    let encoding = media_type(&parts.headers);
    if let Some(ip) = ip
        && let Err(wait) = state.rate_limiter.check(ip)
    {
        return (encoding, Err(ApiError::RateLimited(wait)));
    }
    let Some(encoding) = encoding else {
        return (None, Err(ApiError::UnsupportedMediaType));
    };
    let result = decode(state, encoding, body).await.map(|fields| Submission {
        encoding,
        fields,
        context: RequestContext {
            ip: ip.map(|ip| ip.to_string()),
            user_agent: header_text(&parts.headers, header::USER_AGENT, 512),
            page_url: header_text(&parts.headers, header::REFERER, 2048),
            referrer: None,
            utm: Default::default(),
        },
    });
    (Some(encoding), result)
}

async fn decode(state: &AppState, encoding: Encoding, body: Body) -> Result<Fields, ApiError> {
    let bytes = to_bytes(body, state.config.api.max_body_bytes)
        .await
        .map_err(|_| ApiError::TooLarge)?;
    match encoding {
        Encoding::Json => {
            let value: serde_json::Value = serde_json::from_slice(&bytes).map_err(|_| ApiError::Unreadable)?;
            Fields::from_json(&value).ok_or(ApiError::Unreadable)
        }
        Encoding::Form => {
            let text = std::str::from_utf8(&bytes).map_err(|_| ApiError::Unreadable)?;
            let pairs = text
                .split('&')
                .filter(|p| !p.is_empty())
                .map(|p| {
                    let (k, v) = p.split_once('=').unwrap_or((p, ""));
                    (percent_decode(k), percent_decode(v))
                })
                .collect();
            Ok(Fields::from_form(pairs))
        }
    }
}

fn media_type(headers: &HeaderMap) -> Option<Encoding> {
    let value = headers.get(header::CONTENT_TYPE)?.to_str().ok()?;
    let essence = value.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    match essence.as_str() {
        "application/json" => Some(Encoding::Json),
        "application/x-www-form-urlencoded" => Some(Encoding::Form),
        _ => None,
    }
}

fn client_ip(headers: &HeaderMap, connect: Option<&ConnectInfo<SocketAddr>>, trust_forwarded: bool) -> Option<IpAddr> {
    if trust_forwarded {
        let forwarded = headers
            .get("x-forwarded-for")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.rsplit(',').next())
            .and_then(|v| v.trim().parse().ok());
        if forwarded.is_some() {
            return forwarded;
        }
    }
    connect.map(|c| c.0.ip())
}

fn header_text(headers: &HeaderMap, name: header::HeaderName, max: usize) -> Option<String> {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .filter(|v| !v.is_empty())
        .map(|v| truncate(v, max))
}
