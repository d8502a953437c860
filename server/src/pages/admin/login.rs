//! The sign-in page (`/admin/login`): rendered once, filled in per visit (`pages::sign_in`).

use serde::Serialize;
#[cfg(test)]
use ts_rs::TS;

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct AdminLoginProps {
    pub brand: String,
    /// The login form's own CSRF token (a cookie holds its twin).
    pub csrf: String,
    /// The address typed before (never the password).
    pub email: String,
    /// Where to go after signing in (a console path).
    pub next: String,
    pub error: Option<String>,
}
