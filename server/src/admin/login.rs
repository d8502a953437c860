//! GET and POST /admin/login (a plain form: works without JavaScript), POST /admin/logout.
//! The sign-in page is React's markup rendered once and filled in per visit with its form
//! token (`pages::sign_in`): loading it costs no render, so a burst of loads cannot take
//! render capacity from anyone.
//!
//! A wrong password, an unknown address and a disabled account get the same answer, after
//! the same work (a password check against a decoy for an unknown address). Attempts are
//! counted per address typed and per client before the password is checked
//! (`staff::throttle`); past the limit the login is refused, unchecked, until the window has
//! passed or `site staff unlock` lifts the account's lockout. A successful login always
//! starts a new session id.

use std::sync::Arc;

use axum::extract::{Query, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use serde::Deserialize;

use super::error::{ConsoleError, Doing};
use super::links::{HOME_PATH, LOGIN_PATH, safe_next};
use super::session::{self, StaffSession, new_token};
use super::{cookies, form};
use crate::forms::derived_text;
use crate::pages::sign_in::SignInFields;
use crate::security::rate_limit::{ClientKey, client_key};
use crate::staff::password::{verify_nothing, verify_password};
use crate::staff::session::{csrf_matches, id_hash};
use crate::staff::throttle::{Attempt, LockedOut, WINDOW_MS};
use crate::state::AppState;
use crate::store::{NewAudit, NewSession, StaffLogin};

pub const MSG_WRONG: &str = "That e-mail address and password do not match an active staff account.";
pub const MSG_EXPIRED: &str = "The sign-in form had expired. Please sign in again.";
pub const MSG_LOCKED: &str = "Too many failed sign-ins. Please wait 15 minutes and try again.";
const MSG_UNREADABLE: &str = "We could not read the form. Please sign in again.";
/// Largest sign-in form body read.
const MAX_LOGIN_BYTES: usize = 16 * 1024;

#[derive(Deserialize)]
pub struct LoginQuery {
    next: Option<String>,
}

/// GET /admin/login: the form, or straight on when already signed in.
pub async fn form(
    State(state): State<Arc<AppState>>,
    signed_in: Option<StaffSession>,
    Query(query): Query<LoginQuery>,
) -> Result<Response, ConsoleError> {
    let next = safe_next(query.next.as_deref().unwrap_or(HOME_PATH));
    if signed_in.is_some() {
        return Ok(Redirect::to(&next).into_response());
    }
    login_page(&state, StatusCode::OK, "", &next, None).await
}

/// POST /admin/login.
pub async fn submit(State(state): State<Arc<AppState>>, request: Request) -> Result<Response, ConsoleError> {
    let (parts, body) = request.into_parts();
    let headers = parts.headers;
    let ip = session::client_ip(&state, &headers, &parts.extensions);
    let Some(fields) = form::read(body, MAX_LOGIN_BYTES).await else {
        return login_page(&state, StatusCode::BAD_REQUEST, "", HOME_PATH, Some(MSG_UNREADABLE)).await;
    };
    let email = fields.get("email").to_lowercase().chars().take(254).collect::<String>();
    let next = safe_next(fields.get("next"));
    let expected = cookies::get(&headers, cookies::LOGIN_CSRF).unwrap_or("");
    if expected.is_empty() || !csrf_matches(expected, fields.get("csrf")) {
        return login_page(&state, StatusCode::FORBIDDEN, &email, &next, Some(MSG_EXPIRED)).await;
    }
    let now = state.staff.clock.now_ms();
    let account = state.store.staff_login(&email).await.doing("read staff accounts")?;
    // The attempt is counted before the password is checked: however many arrive at once,
    // no more than the limits allow are ever checked.
    let client = ip.map(client_key);
    let attempt = match state.staff.throttle.reserve(&email, client, now).await {
        Ok(attempt) => attempt,
        Err(locked) => match reserve_after_unlock(&state, &email, client, account.as_ref(), locked, now).await {
            Ok(attempt) => attempt,
            Err(locked) => {
                tracing::warn!("console: sign-in refused while locked out");
                let mut r = login_page(&state, StatusCode::TOO_MANY_REQUESTS, &email, &next, Some(MSG_LOCKED)).await?;
                if let Ok(v) = HeaderValue::from_str(&(locked.retry_after_ms / 1000 + 1).to_string()) {
                    r.headers_mut().insert(header::RETRY_AFTER, v);
                }
                return Ok(r);
            }
        },
    };
    let password = fields.get("password").to_string();
    let known = account.as_ref().map(|a| (a.active, a.password_hash.clone()));
    let checked = tokio::task::spawn_blocking(move || match known {
        Some((active, hash)) => verify_password(&password, &hash) && active,
        None => {
            verify_nothing(&password);
            false
        }
    })
    .await
    .unwrap_or(false);
    let ip_text = ip.map(|ip| ip.to_string());
    let guessed_at = account.as_ref().map(|a| a.id);
    let Some(account) = account.filter(|_| checked) else {
        attempt.failed().await;
        let audit = NewAudit {
            // The account guessed at, when there is one.
            staff_id: guessed_at,
            action: "login_failed",
            target: None,
            ip: ip_text,
            detail: None,
        };
        if let Err(e) = state.store.audit(audit, now).await {
            tracing::error!(error = %e, "console: cannot write the audit log");
        }
        return login_page(&state, StatusCode::UNAUTHORIZED, &email, &next, Some(MSG_WRONG)).await;
    };
    attempt.succeeded().await;
    // A session id the browser brought along is never reused: end it, start a new one.
    if let Some(old) = cookies::get(&headers, cookies::SESSION)
        && let Err(e) = state.store.end_session(&id_hash(old), None, now).await
    {
        tracing::error!(error = %e, "console: cannot end the old session");
    }
    let token = new_token()?;
    let session = NewSession {
        id_hash: id_hash(&token),
        staff_id: account.id,
        ip: ip_text.clone(),
        user_agent: headers
            .get(header::USER_AGENT)
            .and_then(|v| v.to_str().ok())
            .and_then(derived_text)
            .map(|v| v.chars().take(512).collect()),
    };
    let audit = NewAudit {
        staff_id: Some(account.id),
        action: "login",
        target: None,
        ip: ip_text,
        detail: None,
    };
    state.store.create_session(session, audit, now).await.doing("start a session")?;
    tracing::info!(staff = account.id, "console: signed in");
    let secure = cookies::secure(&state.config.site.public_url);
    let mut r = Redirect::to(&next).into_response();
    r.headers_mut()
        .append(header::SET_COOKIE, cookies::set(cookies::SESSION, &token, secure, None));
    r.headers_mut()
        .append(header::SET_COOKIE, cookies::set(cookies::LOGIN_CSRF, "", secure, Some(0)));
    Ok(r)
}

/// POST /admin/logout (behind the session and CSRF checks): ends the session.
pub async fn logout(State(state): State<Arc<AppState>>, staff: StaffSession) -> Result<Response, ConsoleError> {
    let now = state.staff.clock.now_ms();
    state
        .store
        .end_session(&staff.id_hash, Some(staff.audit("logout", None, None)), now)
        .await
        .doing("end a session")?;
    tracing::info!(staff = staff.staff_id, "console: signed out");
    let mut r = Redirect::to(LOGIN_PATH).into_response();
    r.headers_mut().append(
        header::SET_COOKIE,
        cookies::set(cookies::SESSION, "", cookies::secure(&state.config.site.public_url), Some(0)),
    );
    Ok(r)
}

/// A lockout of the account that an operator lifted (`site staff unlock`) since its
/// attempts were counted: they are forgotten and the attempt is reserved once more. Only
/// looked up when the account's own limit refused it.
async fn reserve_after_unlock<'a>(
    state: &'a AppState,
    email: &str,
    client: Option<ClientKey>,
    account: Option<&StaffLogin>,
    locked: LockedOut,
    now: i64,
) -> Result<Attempt<'a>, LockedOut> {
    let Some(account) = account.filter(|_| locked.account) else {
        return Err(locked);
    };
    match state.store.staff_unlocked_since(account.id, now - WINDOW_MS).await {
        Ok(Some(at_ms)) => {
            state.staff.throttle.unlock(email, at_ms).await;
            state.staff.throttle.reserve(email, client, now).await
        }
        Ok(None) => Err(locked),
        Err(e) => {
            tracing::error!(error = %e, "console: cannot read the audit log for an unlock");
            Err(locked)
        }
    }
}

/// The login page with a fresh form token (set as the cookie it must match): the page
/// rendered once, filled in for this visit (no render).
async fn login_page(state: &AppState, status: StatusCode, email: &str, next: &str, error: Option<&str>) -> Result<Response, ConsoleError> {
    let token = new_token()?;
    let template = state
        .renderer
        .sign_in_page()
        .await
        .map_err(|e| ConsoleError::render_failed(&state.error_pages, e))?;
    let fields = SignInFields {
        csrf: &token,
        email,
        next,
        error,
    };
    let mut r = (status, Html(template.fill(&fields))).into_response();
    r.headers_mut().append(
        header::SET_COOKIE,
        cookies::set(
            cookies::LOGIN_CSRF,
            &token,
            cookies::secure(&state.config.site.public_url),
            Some(3600),
        ),
    );
    Ok(r)
}
