//! The lead capture API (docs/product.md, "The API"): POST /.netlify/functions/submit-lead and
//! POST /.netlify/functions/record-token; and the forms besides leads (POST
//! /api/campaign-applications). Described in openapi.yaml at the repository root.
//!
//! One file per endpoint family, each with its own `router()`; `app.rs` merges them. What
//! they share: `request` (the extractors: content type, body limit, fields), `form` (the one
//! pipeline of the public forms, each a `Form`) and `error`, the one error type, answered as
//! a 4xx with `{"error": "<a sentence a visitor understands>"}` (or 503 when the database
//! cannot take the write).
//!
//! The files: `error.rs` (`ApiError` and its JSON answer); `guard.rs` (the checks every
//! request passes: deadlines, cross-site refusal, rate limit, declared size); `request.rs`
//! (the extractors `Submission`, the body as fields, and `SentAs`, the declared encoding);
//! `form.rs` (`handle::<F>`: honeypot, validate, store, 201 or 303, a refusal as JSON or as
//! the form's page; the `Form` trait, implemented by `Callback` in `submit_lead.rs`,
//! `AccountRequestForm` in `account_requests.rs` and `CampaignApplicationForm` in
//! `campaign_applications.rs`; `store_submission`, a form that is not a lead stored with its
//! staff e-mail). The forms' pages (the refused post's answer, the thank-you pages) are
//! React pages of `pages`, served beside the others.

pub mod account_requests;
pub mod campaign_applications;
pub mod error;
pub mod form;
pub mod guard;
pub mod record_token;
pub mod request;
pub mod submit_lead;

pub use account_requests::ACCOUNT_REQUESTS_PATH;
pub use campaign_applications::APPLICATIONS_PATH;
pub use error::{ApiError, MSG_CROSS_SITE, MSG_MEDIA_TYPE, MSG_RATE_LIMITED, MSG_TIMEOUT, MSG_TOO_LARGE, MSG_UNAVAILABLE, MSG_UNREADABLE};
pub use form::Form;
pub use record_token::RECORD_TOKEN_PATH;
pub use request::{Encoding, SentAs, Submission};
pub use submit_lead::SUBMIT_LEAD_PATH;
