//! What every form shares, and nothing about HTTP: a request's fields as the forms read them
//! (`fields.rs`: [`Fields`], the honeypot, form and JSON decoding, [`Invalid`]) and the rules
//! a field is held to wherever it appears (`rules.rs`: JavaScript's white space, control and
//! format characters, the e-mail patterns, web addresses, what a value derived from a request
//! keeps). Each form's own rules (`leads`, `accounts`, `applications`) and the configuration
//! checks (`config`) are written with these, so a rule means the same thing everywhere
//! (docs/decisions/016-one-form-pipeline.md).
//!
//! The HTTP side of a form (reading the request, the honeypot, the answer or the refusal, the
//! no-JavaScript redirect) is `api::form`.

mod fields;
mod rules;

pub use fields::{Field, Fields, HONEYPOT_FIELD, Invalid, form_pairs, percent_decode, truncate};
pub use rules::{
    MAX_URL, derived_text, has_control, has_line_break, is_email, is_format_char, is_html_email, is_https_url, is_js_space, is_web_url,
    js_trim,
};
