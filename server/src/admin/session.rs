//! The signed-in staff member: found once per request from the session cookie
//! (`access::identify` calls [`current`]), and handed to handlers as an extractor:
//! `staff: StaffSession` in a handler's arguments (or `Option<StaffSession>` on the one route
//! open without a session, the sign-in page).

use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts, OptionalFromRequestParts};
use axum::http::request::Parts;
use axum::http::{Extensions, HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Redirect, Response};

use super::cookies;
use super::error::ConsoleError;
use super::links::{self, HOME_PATH, Kind};
use crate::pages::admin::{AdminFrame, AdminSection};
use crate::security::rate_limit;
use crate::staff::session::{self, TOUCH_AFTER_MS, id_hash, is_live, well_formed};
use crate::state::AppState;
use crate::store::{NewAudit, SessionRecord, StoreError};

/// The signed-in staff member, put into the request by `access::identify`.
#[derive(Debug, Clone)]
pub struct StaffSession {
    pub staff_id: i64,
    pub email: String,
    /// SHA-256 of the cookie's id: how the store knows the session.
    pub id_hash: String,
    pub csrf: String,
    pub ip: Option<IpAddr>,
}

impl StaffSession {
    /// The frame around a console page in `section`.
    pub fn frame(&self, state: &AppState, section: AdminSection) -> AdminFrame {
        AdminFrame {
            brand: state.config.site.brand.clone(),
            staff_email: self.email.clone(),
            csrf: self.csrf.clone(),
            section,
        }
    }

    /// An audit line for an action of this staff member.
    pub fn audit(&self, action: &'static str, target: Option<String>, detail: Option<String>) -> NewAudit {
        NewAudit {
            staff_id: Some(self.staff_id),
            action,
            target,
            ip: self.ip.map(|ip| ip.to_string()),
            detail,
        }
    }
}

/// A handler behind `access::require_session` always finds the session; should one ever
/// run without it, it answers as the session check does.
impl<S: Send + Sync> FromRequestParts<S> for StaffSession {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        parts
            .extensions
            .get::<StaffSession>()
            .cloned()
            .ok_or_else(|| signed_out(&parts.method, &parts.uri))
    }
}

impl<S: Send + Sync> OptionalFromRequestParts<S> for StaffSession {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Option<Self>, Self::Rejection> {
        Ok(parts.extensions.get::<StaffSession>().cloned())
    }
}

/// The answer without a session: 303 to the login page (coming back here after) for a page,
/// 401 for data.
pub fn signed_out(method: &Method, uri: &Uri) -> Response {
    if Kind::of(uri.path()) == Kind::Data {
        return (StatusCode::UNAUTHORIZED, "Sign in to the staff console first.").into_response();
    }
    let back = if method == Method::GET {
        uri.path_and_query().map(|p| p.as_str()).unwrap_or(HOME_PATH)
    } else {
        HOME_PATH
    };
    Redirect::to(&links::login_href(back)).into_response()
}

/// The live session the request's cookie names, if any, with its cookie. An expired one is
/// deleted.
pub async fn current(state: &AppState, headers: &HeaderMap) -> Result<Option<(String, SessionRecord)>, StoreError> {
    let Some(cookie) = cookies::get(headers, cookies::SESSION).filter(|c| well_formed(c)) else {
        return Ok(None);
    };
    let hash = id_hash(cookie);
    let Some(record) = state.store.session(&hash).await? else {
        return Ok(None);
    };
    let now = state.staff.clock.now_ms();
    if !is_live(record.created_ms, record.last_seen_ms, now) {
        state.store.end_session(&hash, None, now).await?;
        return Ok(None);
    }
    if now - record.last_seen_ms >= TOUCH_AFTER_MS {
        state.store.touch_session(&hash, now).await?;
    }
    Ok(Some((cookie.to_string(), record)))
}

/// The request's client IP as the API sees it (from X-Forwarded-For only when configured
/// to trust it).
pub fn client_ip(state: &AppState, headers: &HeaderMap, extensions: &Extensions) -> Option<IpAddr> {
    let peer = extensions.get::<ConnectInfo<SocketAddr>>().map(|c| c.0);
    rate_limit::client_ip(headers, peer, &state.config.server)
}

/// A new random id for a session or a login form.
pub fn new_token() -> Result<String, ConsoleError> {
    session::random_token().map_err(ConsoleError::NoRandomness)
}
