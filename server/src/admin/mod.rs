//! The staff console at `/admin`: for the people who call leads back and for the compliance
//! team. Every route is listed once, in its screen's file (`routes()`, gathered in
//! `SCREENS`), and [`routes`] gives them all; the router is built from the same list, so a
//! test can walk it and prove that none answers without a session: pages answer 303 to the
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
//! `links.rs` (the console's paths and query strings); `screen.rs` (what a screen's
//! `routes()` gives); `login.rs`, `cookies.rs`, `zone.rs`
//! (the business's time zone, for the daily counts); one file per screen, its props in
//! `server/src/pages/admin/` under the same name: `funnel.rs`, `leads.rs`, `submissions.rs`,
//! `suppressions.rs`, `data_requests.rs`, `health.rs`, `audit.rs`, `campaigns.rs` (with
//! `campaigns_csv.rs`, its CSV export and previewed import, beside it); `export.rs` (the CSV
//! exports, streamed in keyset batches) over `csv.rs` (RFC 4180, formulas neutralised).
//! Inside `admin/` no two files import each other, and none imports `mod.rs`.

pub mod access;
mod audit;
mod campaigns;
mod campaigns_csv;
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
mod screen;
pub mod session;
mod submissions;
mod suppressions;
pub mod zone;

use std::sync::Arc;

use axum::Router;
use axum::http::Method;
use axum::middleware::{from_fn, from_fn_with_state, map_response};
use axum::response::Redirect;
use axum::routing::{any, get, post};

use crate::state::AppState;
use screen::Routes;

pub use links::{HOME_PATH, Kind, LOGIN_PATH, LOGOUT_PATH};

/// One console route behind the session check.
#[derive(Debug, Clone)]
pub struct AdminRoute {
    pub method: Method,
    /// The axum path; `{id}` stands for a record id.
    pub path: &'static str,
    pub kind: Kind,
}

/// Every screen's routes, each from its own file (`screen::Routes`): a new screen is a
/// `mod` line above and its entry here.
const SCREENS: &[fn() -> Routes] = &[
    funnel::routes,
    leads::routes,
    export::routes,
    submissions::routes,
    data_requests::routes,
    suppressions::routes,
    campaigns::routes,
    campaigns_csv::routes,
    health::routes,
    audit::routes,
];

/// Every route behind the session check, with its handler: the console's own, then every
/// screen's.
fn table() -> Routes {
    let mut all: Routes = vec![
        (Method::GET, "/admin/", get(|| async { Redirect::to(HOME_PATH) })),
        (Method::POST, LOGOUT_PATH, post(login::logout)),
    ];
    for routes in SCREENS {
        all.extend(routes());
    }
    all
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pages::admin::AdminSection;

    #[test]
    fn every_section_opens_a_page_of_the_console() {
        let routes = routes();
        for section in AdminSection::ALL {
            assert!(
                routes
                    .iter()
                    .any(|r| r.method == Method::GET && r.path == section.path() && r.kind == Kind::Page),
                "the section {section:?} opens {}, which no screen's routes() serves as a page",
                section.path()
            );
        }
    }

    #[test]
    fn no_route_is_listed_twice() {
        let routes = routes();
        for (i, r) in routes.iter().enumerate() {
            assert!(
                !routes[..i].iter().any(|o| o.method == r.method && o.path == r.path),
                "{} {} is listed twice",
                r.method,
                r.path
            );
        }
    }
}
