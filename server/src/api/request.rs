//! Reading an API request, as extractors: [`Submission`], the body as fields after the
//! content type and the body limit (JSON from the page's script, or a plain form post), whose
//! refusal is an [`ApiError`]; and [`SentAs`], the encoding the request declares, known even
//! when its body cannot be read. The cross-site rule, the rate limit and the deadlines were
//! applied before, to every request (`api::guard`).

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::{Body, to_bytes};
use axum::extract::{ConnectInfo, FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{HeaderMap, header};

use super::ApiError;
use super::guard::ClientIp;
use crate::forms::{Fields, MAX_URL, derived_text, form_pairs, is_web_url, truncate};
use crate::leads::RequestContext;
use crate::security::rate_limit::client_ip;
use crate::state::AppState;

/// How the client sent its fields: JSON from the page's script, or a plain form post
/// from the no-JavaScript path (answered with HTML pages instead of JSON).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Json,
    Form,
}

/// A request's body as fields, after the content type and size checks, with where it came
/// from. As an extractor its refusal is the `ApiError` to answer (415, 413, 408 or 400).
pub struct Submission {
    pub encoding: Encoding,
    pub fields: Fields,
    pub context: RequestContext,
}

impl FromRequest<Arc<AppState>> for Submission {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &Arc<AppState>) -> Result<Self, ApiError> {
        let (parts, body) = request.into_parts();
        let ip = match parts.extensions.get::<ClientIp>() {
            Some(ClientIp(ip)) => *ip,
            None => client_ip(
                &parts.headers,
                parts.extensions.get::<ConnectInfo<SocketAddr>>().map(|c| c.0),
                &state.config.server,
            ),
        };
        let seen_referer = header_text(&parts.headers, header::REFERER, MAX_URL).filter(|u| is_web_url(u));
        let encoding = media_type(&parts.headers).ok_or(ApiError::UnsupportedMediaType)?;
        let fields = decode(state, encoding, body).await?;
        Ok(Submission {
            encoding,
            fields,
            context: RequestContext {
                ip: ip.map(|ip| ip.to_string()),
                // A header's text holds no NUL, but may hold a tab: derived, so cleaned.
                user_agent: header_text(&parts.headers, header::USER_AGENT, 512).and_then(|ua| derived_text(&ua)),
                // Until the page says which page it was on, the Referer header is the best guess.
                page_url: seen_referer.clone(),
                referrer: None,
                seen_referer,
                utm: Default::default(),
            },
        })
    }
}

/// The encoding the request's Content-Type declares (None: neither JSON nor a form post),
/// read before its body: a form post is answered with HTML even when the body is refused.
pub struct SentAs(pub Option<Encoding>);

impl<S: Send + Sync> FromRequestParts<S> for SentAs {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Infallible> {
        Ok(SentAs(media_type(&parts.headers)))
    }
}

async fn decode(state: &AppState, encoding: Encoding, body: Body) -> Result<Fields, ApiError> {
    let bytes = to_bytes(body, state.config.api.max_body_bytes).await?;
    match encoding {
        Encoding::Json => {
            let value: serde_json::Value = serde_json::from_slice(&bytes)?;
            Fields::from_json(&value).ok_or(ApiError::Unreadable)
        }
        Encoding::Form => Ok(Fields::from_form(form_pairs(std::str::from_utf8(&bytes)?))),
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

fn header_text(headers: &HeaderMap, name: header::HeaderName, max: usize) -> Option<String> {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .filter(|v| !v.is_empty())
        .map(|v| truncate(v, max))
}
