//! North American phone numbers: the one place their rules live on the server.
//!
//! A [`UsPhone`] is a ten-digit number that passed one of the rules below; it gives the
//! number as stored (E.164), as shown, and as a `tel:` link. The browser's twin is
//! `client/lib/phone.ts`; both are tested against `catalogue/cases/phones.json`.
//!
//! Rules, one constructor each:
//! - [`UsPhone::parse`]: what a visitor types into a form (the callback form today).
//! - [`UsPhone::from_digits`]: a number an operator configures (`site.support_phone`,
//!   `site.service_phones.*`), which is written as ten digits.
//! - [`for_records`]: a number of a form that takes any country's (the account requests,
//!   the campaign applications), as their records keep it.
//!
//! A form with another rule (the registration forms' international one, docs/product.md, "Accounts") gets
//! its own constructor and error variant here, and its own section in the vector file.

use serde::{Deserialize, Deserializer};
use thiserror::Error;

use crate::forms::is_js_space;

/// A dialable North American number.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct UsPhone {
    /// Ten ASCII digits: area code, exchange, line.
    national: String,
}

/// Why a text is not a [`UsPhone`]. The messages are for logs and operators; visitors see
/// their form's own message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum PhoneError {
    /// [`UsPhone::parse`] refused it.
    #[error("not a US phone number with a valid area code and exchange")]
    NotDialable,
    /// [`UsPhone::from_digits`] refused it. The configuration names the key before this.
    #[error("must be a ten-digit North American number, digits only")]
    NotTenDigits,
}

impl UsPhone {
    /// A visitor's number. White space around it is ignored, and so are spaces, tabs, dots,
    /// dashes and brackets inside it; what is left must be ten digits, optionally after `1`
    /// or `+1`. The area code and the exchange must be valid NANP codes: first digit 2-9 and
    /// not N11, and an area code never has 9 in the middle. Premium-rate numbers (area code
    /// 900, exchange 976) are refused: a callback there would cost the caller.
    pub fn parse(input: &str) -> Result<Self, PhoneError> {
        let cleaned: String = input
            .trim()
            .chars()
            .filter(|c| !matches!(c, ' ' | '.' | '-' | '(' | ')' | '\t'))
            .collect();
        let digits = match cleaned.strip_prefix('+') {
            Some(rest) => rest.strip_prefix('1'),
            None if cleaned.len() == 11 => cleaned.strip_prefix('1'),
            None => Some(cleaned.as_str()),
        }
        .ok_or(PhoneError::NotDialable)?;
        if !is_ten_digits(digits) {
            return Err(PhoneError::NotDialable);
        }
        let d = digits.as_bytes();
        let area_ok = (b'2'..=b'9').contains(&d[0]) && d[1] != b'9' && !(d[1] == b'1' && d[2] == b'1');
        let exchange_ok = (b'2'..=b'9').contains(&d[3]) && !(d[4] == b'1' && d[5] == b'1');
        let premium = &digits[..3] == "900" || &digits[3..6] == "976";
        if area_ok && exchange_ok && !premium {
            Ok(Self {
                national: digits.to_string(),
            })
        } else {
            Err(PhoneError::NotDialable)
        }
    }

    /// A configured number: exactly ten digits, nothing else, not starting with 0 or 1.
    pub fn from_digits(digits: &str) -> Result<Self, PhoneError> {
        if is_ten_digits(digits) && !digits.starts_with(['0', '1']) {
            Ok(Self {
                national: digits.to_string(),
            })
        } else {
            Err(PhoneError::NotTenDigits)
        }
    }

    /// The ten digits: "8005550100".
    pub fn national(&self) -> &str {
        &self.national
    }

    /// E.164, the form we store and send on: "+18005550100".
    pub fn e164(&self) -> String {
        format!("+1{}", self.national)
    }

    /// The form people read: "(800) 555-0100".
    pub fn display(&self) -> String {
        let d = &self.national;
        format!("({}) {}-{}", &d[..3], &d[3..6], &d[6..])
    }

    /// The link that dials it: "tel:+18005550100".
    pub fn tel_href(&self) -> String {
        format!("tel:+1{}", self.national)
    }
}

fn is_ten_digits(s: &str) -> bool {
    s.len() == 10 && s.bytes().all(|b| b.is_ascii_digit())
}

/// Configuration writes numbers as ten digits, so that is what deserializes
/// ([`UsPhone::from_digits`]); a refused number fails with [`PhoneError::NotTenDigits`]'s message.
impl<'de> Deserialize<'de> for UsPhone {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        UsPhone::from_digits(&text).map_err(serde::de::Error::custom)
    }
}

/// A typed phone number as the records keep it: E.164 when it is a US number
/// ([`UsPhone::parse`]), else as typed (the registration forms take numbers from any country).
pub fn for_records(typed: &str) -> String {
    UsPhone::parse(typed).map_or_else(|_| typed.to_string(), |p| p.e164())
}

/// The registration request form's phone rule (docs/product.md, "Accounts"), for numbers
/// from any country: after stripping spaces (JavaScript's white space), dashes and brackets,
/// `^\+?[1-9]\d{0,15}$`. `isRegistrationPhone` in client/lib/phone.ts is its twin.
pub fn registration_phone(input: &str) -> bool {
    let kept: String = input
        .chars()
        .filter(|&c| !is_js_space(c) && !matches!(c, '-' | '(' | ')'))
        .collect();
    let digits = kept.strip_prefix('+').unwrap_or(&kept);
    let mut chars = digits.chars();
    matches!(chars.next(), Some('1'..='9')) && digits.len() <= 16 && chars.all(|c| c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    use super::{PhoneError, UsPhone, for_records, registration_phone};

    /// catalogue/cases/phones.json, which client/lib/phone.test.ts reads too.
    #[derive(Deserialize)]
    struct Vectors {
        visitor: Vec<VisitorCase>,
        configured: Vec<ConfiguredCase>,
        registration: Vec<RegistrationCase>,
    }

    #[derive(Deserialize)]
    struct RegistrationCase {
        input: String,
        valid: bool,
        why: String,
    }

    #[derive(Deserialize)]
    struct VisitorCase {
        input: String,
        e164: Option<String>,
        display: Option<String>,
        tel: Option<String>,
        why: String,
    }

    #[derive(Deserialize)]
    struct ConfiguredCase {
        digits: String,
        valid: bool,
        display: Option<String>,
        tel: Option<String>,
        why: String,
    }

    fn vectors() -> Vectors {
        serde_json::from_str(include_str!("../../catalogue/cases/phones.json")).expect("phones.json")
    }

    #[test]
    fn a_us_number_is_recorded_in_e164_and_any_other_as_typed() {
        assert_eq!(for_records("(412) 555-0188"), "+14125550188");
        assert_eq!(for_records("+44 20 7946 0958"), "+44 20 7946 0958");
    }

    #[test]
    fn visitor_numbers_follow_the_shared_vectors() {
        let cases = vectors().visitor;
        assert!(cases.len() >= 40, "{} visitor vectors", cases.len());
        for case in cases {
            let label = format!("{:?} ({})", case.input, case.why);
            match (UsPhone::parse(&case.input), &case.e164) {
                (Ok(phone), Some(e164)) => {
                    assert_eq!(&phone.e164(), e164, "{label}");
                    assert_eq!(Some(phone.display()), case.display, "{label}");
                    assert_eq!(Some(phone.tel_href()), case.tel, "{label}");
                }
                (Err(e), None) => {
                    assert_eq!(e, PhoneError::NotDialable, "{label}");
                    assert!(
                        case.display.is_none() && case.tel.is_none(),
                        "{label}: a refused number has no display"
                    );
                }
                (Ok(phone), None) => panic!("{label}: accepted as {}, expected refused", phone.e164()),
                (Err(_), Some(e164)) => panic!("{label}: refused, expected {e164}"),
            }
        }
    }

    #[test]
    fn registration_numbers_follow_the_shared_vectors() {
        let cases = vectors().registration;
        assert!(cases.len() >= 20, "{} registration vectors", cases.len());
        for case in cases {
            assert_eq!(registration_phone(&case.input), case.valid, "{:?} ({})", case.input, case.why);
        }
    }

    #[test]
    fn configured_numbers_follow_the_shared_vectors() {
        let cases = vectors().configured;
        assert!(cases.len() >= 8, "{} configured vectors", cases.len());
        for case in cases {
            let label = format!("{:?} ({})", case.digits, case.why);
            match UsPhone::from_digits(&case.digits) {
                Ok(phone) => {
                    assert!(case.valid, "{label}: accepted, expected refused");
                    assert_eq!(phone.national(), case.digits, "{label}");
                    assert_eq!(phone.e164(), format!("+1{}", case.digits), "{label}");
                    assert_eq!(Some(phone.display()), case.display, "{label}");
                    assert_eq!(Some(phone.tel_href()), case.tel, "{label}");
                }
                Err(e) => {
                    assert!(!case.valid, "{label}: refused, expected accepted");
                    assert_eq!(e, PhoneError::NotTenDigits, "{label}");
                }
            }
        }
    }

    #[test]
    fn deserializes_configured_digits_and_names_the_rule_when_refused() {
        let phone: UsPhone = serde_json::from_str("\"8005550142\"").expect("digits");
        assert_eq!(phone.display(), "(800) 555-0142");
        let refused = serde_json::from_str::<UsPhone>("\"(800) 555-0142\"").expect_err("not digits only");
        assert!(refused.to_string().contains(&PhoneError::NotTenDigits.to_string()), "{refused}");
    }
}
