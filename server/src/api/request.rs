//! Reading an API request: the content type, the body limit, then the body as fields (JSON
//! from the page's script, or a plain form post). The cross-site rule, the rate limit and
//! the deadlines were applied before, to every request (`api::guard`).

use std::net::SocketAddr;

use axum::body::{Body, to_bytes};
use axum::extract::{ConnectInfo, Request};
use axum::http::{HeaderMap, header};

use super::ApiError;
use super::guard::ClientIp;
use crate::leads::validate::{Fields, is_web_url};
use crate::leads::{RequestContext, percent_decode, truncate};
use crate::security::rate_limit::client_ip;
use crate::state::AppState;

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
    let ip = match parts.extensions.get::<ClientIp>() {
        Some(ClientIp(ip)) => *ip,
        None => client_ip(
            &parts.headers,
            parts.extensions.get::<ConnectInfo<SocketAddr>>().map(|c| c.0),
            &state.config.server,
        ),
    };
    let encoding = media_type(&parts.headers);
    let seen_referer = header_text(&parts.headers, header::REFERER, 2048).filter(|u| is_web_url(u));
    let Some(encoding) = encoding else {
        return (None, Err(ApiError::UnsupportedMediaType));
    };
    let result = decode(state, encoding, body).await.map(|fields| Submission {
        encoding,
        fields,
        context: RequestContext {
            ip: ip.map(|ip| ip.to_string()),
            user_agent: header_text(&parts.headers, header::USER_AGENT, 512),
            // Until the page says which page it was on, the Referer header is the best guess.
            page_url: seen_referer.clone(),
            referrer: None,
            seen_referer,
            utm: Default::default(),
        },
    });
    (Some(encoding), result)
}

async fn decode(state: &AppState, encoding: Encoding, body: Body) -> Result<Fields, ApiError> {
    let bytes = to_bytes(body, state.config.api.max_body_bytes).await?;
    match encoding {
        Encoding::Json => {
            let value: serde_json::Value = serde_json::from_slice(&bytes)?;
            Fields::from_json(&value).ok_or(ApiError::Unreadable)
        }
        Encoding::Form => {
            let text = std::str::from_utf8(&bytes)?;
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

fn header_text(headers: &HeaderMap, name: header::HeaderName, max: usize) -> Option<String> {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .filter(|v| !v.is_empty())
        .map(|v| truncate(v, max))
}
