//! The staff console at `/admin`: for the people who call leads back and for the compliance
//! team. Every route is listed once in [`routes`], which builds the router, so a test can
//! walk the list and prove that none answers without a session: pages answer 303 to the
//! login page, data (CSV, JSON) 401. Every answer is `no-store` and `noindex`; pages are
//! React rendered per request (never the public render cache) on render capacity public
//! pages cannot take (the staff lane), except the sign-in page, which is rendered once and
//! filled in per visit. Forms that change anything carry the session's CSRF token, checked
//! before any handler runs (`access`). Requests without a session have a per-address
//! limit; a signed-in session's changes have a budget of their own (`access::identify`).
//!
//! A handler takes the session and the form as extractors (`StaffSession`, `FormFields`)
//! and returns `Result<Response, ConsoleError>`: `error.rs` turns every failure into its
//! answer, and `page::answer_errors` renders the refusals staff should read as message pages.
//!
//! The files: `access.rs` (the middleware, nothing else: `identify`, `require_session`,
//! `private_headers`); `session.rs` (`StaffSession`, with the page frame and audit lines)
//! and `form.rs` (`FormFields`), the handlers' extractors; `error.rs` (`ConsoleError`);
//! `page.rs` (pages rendered per request through `pages::renderer`, and `answer_errors`);
//! `links.rs` (the console's paths and query strings); `login.rs`, `cookies.rs`, `zone.rs`
//! (the business's time zone, for the daily counts); one file per screen, its props in
//! `server/src/pages/admin/` under the same name: `funnel.rs`, `leads.rs`, `submissions.rs`,
//! `suppressions.rs`, `data_requests.rs`, `health.rs`, `audit.rs`; `export.rs` (the CSV
//! exports, streamed in keyset batches) over `csv.rs` (RFC 4180, formulas neutralised).
//! Inside `admin/` no two files import each other, and none imports `mod.rs`.

pub mod access;
mod audit;
pub mod cookies;
pub mod csv;
mod data_requests;
pub mod error;
mod export;
pub mod form;
pub mod funnel;
mod health;
mod leads;
pub mod links;
mod login;
mod page;
pub mod session;
mod submissions;
mod suppressions;
pub mod zone;

use std::sync::Arc;

use axum::Router;
use axum::http::Method;
use axum::middleware::{from_fn, from_fn_with_state, map_response};
use axum::response::Redirect;
use axum::routing::{MethodRouter, any, get, post};

use crate::state::AppState;

pub use links::{HOME_PATH, Kind, LOGIN_PATH, LOGOUT_PATH};

/// One console route behind the session check.
#[derive(Debug, Clone)]
pub struct AdminRoute {
    pub method: Method,
    /// The axum path; `{id}` stands for a record id.
    pub path: &'static str,
    pub kind: Kind,
}

/// Every route behind the session check, with its handler.
fn table() -> Vec<(Method, &'static str, MethodRouter<Arc<AppState>>)> {
    vec![
        (Method::GET, "/admin", get(funnel::page)),
        (Method::GET, "/admin/", get(|| async { Redirect::to(HOME_PATH) })),
        (Method::POST, LOGOUT_PATH, post(login::logout)),
        (Method::GET, "/admin/audit", get(audit::page)),
        (Method::GET, "/admin/health", get(health::page)),
        (Method::GET, "/admin/leads", get(leads::list)),
        (Method::GET, "/admin/leads.csv", get(export::leads_csv)),
        (Method::GET, "/admin/leads/{id}", get(leads::detail)),
        (Method::POST, "/admin/leads/{id}/retry", post(leads::retry)),
        (Method::GET, "/admin/account-requests", get(submissions::account_requests)),
        (Method::GET, "/admin/account-requests.csv", get(export::account_requests_csv)),
        (Method::GET, "/admin/applications", get(submissions::applications)),
        (Method::GET, "/admin/applications.csv", get(export::applications_csv)),
        (Method::GET, "/admin/submissions/{id}", get(submissions::detail)),
        (Method::POST, "/admin/submissions/{id}", post(submissions::review)),
        (Method::GET, "/admin/data-requests", get(data_requests::page)),
        (Method::POST, "/admin/data-requests/erase", post(data_requests::erase)),
        (Method::GET, "/admin/suppressions", get(suppressions::list)),
        (Method::POST, "/admin/suppressions", post(suppressions::add)),
        (Method::POST, "/admin/suppressions/remove", post(suppressions::remove)),
    ]
}

/// The console's routes behind the session check (for tests that walk them).
pub fn routes() -> Vec<AdminRoute> {
    table()
        .into_iter()
        .map(|(method, path, _)| AdminRoute {
            method,
            path,
            kind: Kind::of(path),
        })
        .collect()
}

/// The console: the login page in front, everything else behind the session check.
pub fn router(state: Arc<AppState>) -> Router<Arc<AppState>> {
    let protected = table()
        .into_iter()
        .fold(Router::new(), |r, (_, path, handler)| r.route(path, handler))
        .route("/admin/{*rest}", any(page::not_found))
        .layer(from_fn(access::require_session));
    // Refusals rendered as message pages (`page::answer_errors`) inside the site's guard
    // (deadlines, cross-site refusal, size, rate limit), inside the session lookup and the
    // console's own budgets (`access::identify`, which tells the guard when a staff session
    // was charged instead of the visitor's address), all inside the private headers, so
    // that their refusals are never cached or indexed either.
    Router::new()
        .route(LOGIN_PATH, get(login::form).post(login::submit))
        .merge(protected)
        .layer(from_fn_with_state(Arc::clone(&state), page::answer_errors))
        .layer(from_fn_with_state(Arc::clone(&state), crate::api::guard::guard))
        .layer(from_fn_with_state(state, access::identify))
        .layer(map_response(access::private_headers))
}
