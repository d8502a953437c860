//! Account requests: what the account dialog's sign-up, the header's registration modal and
//! the registration request form at /register send us (POST /api/account-requests), the
//! rules each must pass (`validate`, the same as the form it came from, with the spec's
//! messages) and the e-mail staff get about it (`mail`). The browser's twin is
//! client/features/accounts/; both pass catalogue/cases/account-requests.json.

pub mod mail;
pub mod validate;

use serde::{Deserialize, Serialize};
#[cfg(test)]
use ts_rs::TS;

/// The account types (docs/product.md, "Accounts"). Contractors are shown as contractors and stored as
/// call buyers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "kebab-case")]
pub enum AccountType {
    Homeowner,
    CallBuyer,
    Affiliate,
}

impl AccountType {
    pub const ALL: [AccountType; 3] = [AccountType::Homeowner, AccountType::CallBuyer, AccountType::Affiliate];

    /// How it is sent and stored.
    pub fn as_str(self) -> &'static str {
        match self {
            AccountType::Homeowner => "homeowner",
            AccountType::CallBuyer => "call-buyer",
            AccountType::Affiliate => "affiliate",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.as_str() == s)
    }

    /// How the mail subjects name it.
    pub fn label(self) -> &'static str {
        match self {
            AccountType::Homeowner => "Homeowner",
            AccountType::CallBuyer => "Contractor",
            AccountType::Affiliate => "Affiliate",
        }
    }

    /// The last segment of its registration page's path (/register/contractor).
    pub fn slug(self) -> &'static str {
        match self {
            AccountType::Homeowner => "homeowner",
            AccountType::CallBuyer => "contractor",
            AccountType::Affiliate => "affiliate",
        }
    }

    pub fn from_slug(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.slug() == s)
    }
}

/// Which form a request came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The account dialog's Sign Up tab.
    Signup,
    /// The header's registration modal (the browser's own checks only).
    Registration,
    /// The registration request form at /register (the spec's second version).
    Request,
}

impl Source {
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Signup => "signup",
            Source::Registration => "registration",
            Source::Request => "request",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        [Source::Signup, Source::Registration, Source::Request]
            .into_iter()
            .find(|x| x.as_str() == s)
    }

    /// Where the visitor filled it in, as staff read it in the e-mail.
    pub fn form_name(self) -> &'static str {
        match self {
            Source::Signup => "the account dialog's sign-up",
            Source::Registration => "the registration modal",
            Source::Request => "the registration request form (/register)",
        }
    }
}

/// A validated account request, ready to store. Never holds a password.
#[derive(Debug, Clone, PartialEq)]
pub struct AccountRequest {
    pub source: Source,
    pub account_type: AccountType,
    /// The form's fields in its order, trimmed: (name, value).
    pub fields: Vec<(&'static str, String)>,
}

impl AccountRequest {
    pub fn get(&self, name: &str) -> &str {
        self.fields.iter().find(|(n, _)| *n == name).map(|(_, v)| v.as_str()).unwrap_or("")
    }

    /// The e-mail address, as typed (trimmed).
    pub fn email(&self) -> &str {
        self.get("email")
    }

    /// The fields as stored: source, type and every field of the form.
    pub fn data(&self) -> serde_json::Value {
        let mut map = serde_json::Map::new();
        map.insert("source".into(), self.source.as_str().into());
        map.insert("accountType".into(), self.account_type.as_str().into());
        for (name, value) in &self.fields {
            map.insert((*name).into(), value.clone().into());
        }
        serde_json::Value::Object(map)
    }
}
