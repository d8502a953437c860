//! The lead capture API (spec section 7): POST /.netlify/functions/submit-lead and
//! POST /.netlify/functions/record-token. Described in openapi.yaml at the repository root.
//!
//! One file per endpoint family, each with its own `router()`; `app.rs` merges them. What
//! they share: `request` (rate limit, content type, body limit, fields) and `error`, the
//! one error type, answered as a 4xx with `{"error": "<a sentence a visitor understands>"}`
//! (or 503 when the database cannot take the write).

pub mod error;
pub mod record_token;
pub mod request;
pub mod submit_lead;

pub use error::{ApiError, MSG_MEDIA_TYPE, MSG_RATE_LIMITED, MSG_TOO_LARGE, MSG_UNAVAILABLE, MSG_UNREADABLE};
pub use record_token::RECORD_TOKEN_PATH;
pub use request::{Encoding, Submission, read};
pub use submit_lead::SUBMIT_LEAD_PATH;
