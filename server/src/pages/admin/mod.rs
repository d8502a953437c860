//! The props of the staff console's pages (`/admin`), one file per screen, named as its
//! handler in `admin/` is: rendered per request, never cached. Times arrive formatted
//! (QuickJS has no `Intl`, and hydration needs the same text on both sides). Part of the
//! same generated contract as `props.rs`: a screen's props type is a variant of `PageProps`,
//! and every type it reaches is written to `client/lib/props.gen.ts` (`make types`).
//!
//! This file holds what several screens share: the frame around every page, the message
//! page (not found, an expired form, …) and a label with its value.

pub mod audit;
pub mod campaigns;
pub mod data_requests;
pub mod funnel;
pub mod health;
pub mod leads;
pub mod login;
pub mod submissions;
pub mod suppressions;

use serde::Serialize;
#[cfg(test)]
use ts_rs::TS;

/// Declares `AdminSection` from one list: each section of the console's navigation with
/// its label and the address its link opens, in the order the navigation shows them.
/// `make types` writes the client's list from it (`SECTIONS` in
/// `client/features/admin/sections.gen.ts`), and a test checks each address is a page
/// route of the console.
macro_rules! admin_sections {
    ($($variant:ident = $label:tt at $path:tt,)*) => {
        /// The console's sections, as its navigation lists them.
        #[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
        #[cfg_attr(test, derive(TS))]
        #[serde(rename_all = "kebab-case")]
        pub enum AdminSection {
            $($variant,)*
        }

        impl AdminSection {
            /// Every section, in the navigation's order.
            pub const ALL: &[AdminSection] = &[$(AdminSection::$variant),*];

            /// What its link in the navigation says.
            pub fn label(self) -> &'static str {
                match self {
                    $(AdminSection::$variant => $label,)*
                }
            }

            /// The page its link opens.
            pub fn path(self) -> &'static str {
                match self {
                    $(AdminSection::$variant => $path,)*
                }
            }
        }
    };
}

admin_sections! {
    Funnel = "Funnel" at "/admin",
    Leads = "Leads" at "/admin/leads",
    AccountRequests = "Account requests" at "/admin/account-requests",
    Applications = "Applications" at "/admin/applications",
    Suppressions = "Do not call" at "/admin/suppressions",
    Campaigns = "Campaigns" at "/admin/campaigns",
    DataRequests = "Data requests" at "/admin/data-requests",
    Health = "Health" at "/admin/health",
    Audit = "Audit log" at "/admin/audit",
}

/// What every console page shows around its content: who is signed in, and the token
/// every form posts back.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct AdminFrame {
    pub brand: String,
    pub staff_email: String,
    /// The session's CSRF token: a hidden `csrf` field in every form that changes something.
    pub csrf: String,
    pub section: AdminSection,
}

/// A message inside the console (not found, expired form, …).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct AdminMessageProps {
    pub frame: Option<AdminFrame>,
    pub title: String,
    pub message: String,
}

/// A label and its value.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
pub struct Labeled {
    pub label: String,
    pub value: String,
}
