//! The rules an account request must pass: those of the form it came from (docs/product.md, "Accounts"),
//! in the form's order, the first failure's message answered. The sign-up's password rules
//! (7 to 9) stay in the browser: passwords are never sent, and a request that holds one is
//! refused. The header's registration modal has only the browser's own checks (required,
//! e-mail, URL and option lists), so its requests get those, with the request form's
//! messages. Every form also gets what the spec leaves unsaid: lengths, control characters
//! and line breaks in one-line fields.

use super::{AccountRequest, AccountType, Source};
use crate::forms::{Field, Fields, Invalid, has_control, has_line_break, is_email, is_html_email, is_web_url, js_trim};
use crate::phone::registration_phone;

pub const MSG_SOURCE: &str = "This form is out of date. Please reload the page and try again.";
pub const MSG_ACCOUNT_TYPE: &str = "Please choose an account type.";
pub const MSG_PASSWORD_SENT: &str = "Passwords are never sent to us. Please reload the page and try again.";
pub const MSG_EMAIL: &str = "Please enter a valid email address";
pub const MSG_PHONE: &str = "Please enter a valid phone number";
pub const MSG_USERNAME_SHORT: &str = "Username must be at least 3 characters long";
pub const MSG_WEBSITE: &str = "Please enter a valid website URL";
pub const MSG_CONTROL: &str = "Please remove the special characters from your entry";

pub const MIN_USERNAME: usize = 3;

/// One field's rules and messages.
struct Rule {
    name: &'static str,
    max: usize,
    /// Its own line breaks are allowed (a textarea).
    multiline: bool,
    required: &'static str,
    too_long: &'static str,
    one_line: &'static str,
    /// For a select: its option values and the message for anything else.
    options: Option<(&'static [&'static str], &'static str)>,
}

const fn text(name: &'static str, max: usize, required: &'static str, too_long: &'static str, one_line: &'static str) -> Rule {
    Rule {
        name,
        max,
        multiline: false,
        required,
        too_long,
        one_line,
        options: None,
    }
}

const fn area(name: &'static str, required: &'static str, too_long: &'static str) -> Rule {
    Rule {
        name,
        max: 2000,
        multiline: true,
        required,
        too_long,
        one_line: "",
        options: None,
    }
}

const fn select(name: &'static str, options: &'static [&'static str], required: &'static str, other: &'static str) -> Rule {
    Rule {
        name,
        max: 40,
        multiline: false,
        required,
        too_long: other,
        one_line: other,
        options: Some((options, other)),
    }
}

const FIRST_NAME: Rule = text(
    "firstName",
    100,
    "First name is required",
    "First name must be 100 characters or fewer",
    "First name must fit on one line",
);
const LAST_NAME: Rule = text(
    "lastName",
    100,
    "Last name is required",
    "Last name must be 100 characters or fewer",
    "Last name must fit on one line",
);
const EMAIL: Rule = text(
    "email",
    254,
    "Email is required",
    "Email must be 254 characters or fewer",
    "Email must fit on one line",
);
const USERNAME: Rule = text(
    "username",
    64,
    "Username is required",
    "Username must be 64 characters or fewer",
    "Username must fit on one line",
);
const PHONE: Rule = text(
    "phone",
    40,
    "Phone number is required",
    "Phone number must be 40 characters or fewer",
    "Phone number must fit on one line",
);
const COMPANY: Rule = text(
    "companyName",
    150,
    "Company name is required",
    "Company name must be 150 characters or fewer",
    "Company name must fit on one line",
);
const WEBSITE: Rule = text(
    "website",
    500,
    "Website URL is required",
    "Website URL must be 500 characters or fewer",
    "Website URL must fit on one line",
);
const ADDRESS: Rule = text(
    "address",
    300,
    "Address is required",
    "Address must be 300 characters or fewer",
    "Address must fit on one line",
);
const SERVICE_AREAS: Rule = area(
    "serviceAreas",
    "Service areas are required",
    "Service areas must be 2000 characters or fewer",
);
const SERVICE_NEEDS: Rule = area(
    "serviceNeeds",
    "Service needs are required",
    "Service needs must be 2000 characters or fewer",
);
const TRAFFIC_SOURCES: Rule = area(
    "trafficSources",
    "Traffic sources are required",
    "Traffic sources must be 2000 characters or fewer",
);

/// The option lists of the registration forms (docs/product.md, "Accounts").
pub const PROPERTY_TYPES: [&str; 6] = ["single-family", "condo", "townhouse", "apartment", "multi-family", "commercial"];
pub const BUSINESS_TYPES: [&str; 8] = [
    "hvac",
    "roofing",
    "plumbing",
    "flooring",
    "pest-control",
    "siding",
    "general",
    "other",
];
pub const MONTHLY_BUDGETS: [&str; 5] = ["1000-2500", "2500-5000", "5000-10000", "10000-25000", "25000+"];

const PROPERTY_TYPE: Rule = select(
    "propertyType",
    &PROPERTY_TYPES,
    "Property type is required",
    "Please choose a property type from the list",
);
const BUSINESS_TYPE: Rule = select(
    "businessType",
    &BUSINESS_TYPES,
    "Business type is required",
    "Please choose a business type from the list",
);
const MONTHLY_BUDGET: Rule = select(
    "monthlyBudget",
    &MONTHLY_BUDGETS,
    "Monthly budget is required",
    "Please choose a monthly budget from the list",
);
const MONTHLY_VOLUME: Rule = select(
    "monthlyVolume",
    &crate::applications::MONTHLY_VOLUME_VALUES,
    "Monthly volume is required",
    "Please choose a monthly volume from the list",
);

/// The registration forms' fields of each type, in the forms' order (docs/product.md, "Accounts").
fn registration_rules(t: AccountType) -> Vec<&'static Rule> {
    let mut rules: Vec<&'static Rule> = vec![&FIRST_NAME, &LAST_NAME, &EMAIL, &PHONE];
    match t {
        AccountType::Homeowner => rules.extend([&ADDRESS, &PROPERTY_TYPE, &SERVICE_NEEDS]),
        AccountType::CallBuyer => rules.extend([&COMPANY, &BUSINESS_TYPE, &MONTHLY_BUDGET, &SERVICE_AREAS]),
        AccountType::Affiliate => rules.extend([&COMPANY, &WEBSITE, &TRAFFIC_SOURCES, &MONTHLY_VOLUME]),
    }
    rules
}

/// The sign-up's fields of each type, in the order of its rules (docs/product.md, "Accounts").
fn signup_rules(t: AccountType) -> Vec<&'static Rule> {
    let mut rules: Vec<&'static Rule> = vec![&FIRST_NAME, &LAST_NAME, &EMAIL, &USERNAME];
    match t {
        AccountType::Homeowner => rules.push(&ADDRESS),
        AccountType::CallBuyer => rules.extend([&COMPANY, &SERVICE_AREAS]),
        AccountType::Affiliate => rules.extend([&COMPANY, &WEBSITE]),
    }
    rules
}

/// A refusal: `field` names the field it is about (the no-JavaScript answer marks it), or
/// what else was wrong ("source", "accountType", "password").
fn invalid(field: &'static str, message: &'static str) -> Invalid {
    Invalid { reason: field, message }
}

/// The field's text, trimmed, or its required message when it is blank, missing or not text.
fn required<'a>(fields: &'a Fields, rule: &Rule) -> Result<&'a str, Invalid> {
    match fields.get(rule.name) {
        Field::Text(s) if !js_trim(s).is_empty() => Ok(js_trim(s)),
        _ => Err(invalid(rule.name, rule.required)),
    }
}

/// Length, control characters and line breaks, then the option list.
fn common_checks(rule: &Rule, value: &str) -> Result<(), Invalid> {
    if let Some((options, other)) = rule.options {
        return if options.contains(&value) {
            Ok(())
        } else {
            Err(invalid(rule.name, other))
        };
    }
    if value.chars().count() > rule.max {
        return Err(invalid(rule.name, rule.too_long));
    }
    if has_control(value) {
        return Err(invalid(rule.name, MSG_CONTROL));
    }
    if !rule.multiline && has_line_break(value) {
        return Err(invalid(rule.name, rule.one_line));
    }
    Ok(())
}

/// Checks a request against the rules of the form it names and builds what to store.
pub fn validate_account_request(fields: &Fields) -> Result<AccountRequest, Invalid> {
    let source = match fields.get("source") {
        Field::Text(s) => Source::parse(s).ok_or(invalid("source", MSG_SOURCE))?,
        _ => return Err(invalid("source", MSG_SOURCE)),
    };
    let account_type = match fields.get("accountType") {
        Field::Text(s) => AccountType::parse(s).ok_or(invalid("accountType", MSG_ACCOUNT_TYPE))?,
        _ => return Err(invalid("accountType", MSG_ACCOUNT_TYPE)),
    };
    if ["password", "confirmPassword"]
        .iter()
        .any(|name| fields.get(name) != &Field::Missing)
    {
        return Err(invalid("password", MSG_PASSWORD_SENT));
    }
    let rules: Vec<&'static Rule> = match source {
        Source::Signup => signup_rules(account_type),
        Source::Registration | Source::Request => registration_rules(account_type),
    };
    let mut kept = Vec::with_capacity(rules.len());
    for rule in rules {
        let value = required(fields, rule)?;
        if rule.name == "username" && value.chars().count() < MIN_USERNAME {
            return Err(invalid("username", MSG_USERNAME_SHORT));
        }
        common_checks(rule, value)?;
        match (rule.name, source) {
            ("email", Source::Registration) if !is_html_email(value) => return Err(invalid("email", MSG_EMAIL)),
            ("email", Source::Signup | Source::Request) if !is_email(value) => return Err(invalid("email", MSG_EMAIL)),
            ("phone", Source::Request) if !registration_phone(value) => return Err(invalid("phone", MSG_PHONE)),
            ("website", Source::Registration) if !is_web_url(value) => return Err(invalid("website", MSG_WEBSITE)),
            _ => {}
        }
        kept.push((rule.name, value.to_string()));
    }
    Ok(AccountRequest {
        source,
        account_type,
        fields: kept,
    })
}
