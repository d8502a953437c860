//! The e-mail staff get about an account request: the subject of the visitor's own mail
//! draft (docs/product.md, "Accounts"), and a body with every field, where it came from and what to do.

use super::{AccountRequest, Source};
use crate::leads::RequestContext;
use crate::store::Mail;
use crate::time::human_utc;

/// The labels staff read, by field.
fn label(field: &str) -> &'static str {
    match field {
        "firstName" => "First name",
        "lastName" => "Last name",
        "email" => "Email",
        "phone" => "Phone",
        "username" => "Username",
        "companyName" => "Company name",
        "website" => "Website",
        "address" => "Address",
        "serviceAreas" => "Service areas",
        "serviceNeeds" => "Service needs",
        "propertyType" => "Property type",
        "businessType" => "Business type",
        "monthlyBudget" => "Monthly budget",
        "trafficSources" => "Traffic sources",
        "monthlyVolume" => "Monthly volume",
        _ => "Other",
    }
}

/// The subject of the visitor's draft: 'New Account Registration - {type} - {first} {last}'
/// for a sign-up, 'New {type} Registration - {first} {last}' for the registration forms.
pub fn subject(request: &AccountRequest) -> String {
    let name = format!("{} {}", request.get("firstName"), request.get("lastName"));
    match request.source {
        Source::Signup => format!("New Account Registration - {} - {name}", request.account_type.label()),
        Source::Registration | Source::Request => format!("New {} Registration - {name}", request.account_type.label()),
    }
}

/// The e-mail to the notification recipients. `received_ms`: when the request arrived.
pub fn mail(request: &AccountRequest, context: &RequestContext, received_ms: i64) -> Mail {
    let t = request.account_type;
    let mut body = format!(
        "A visitor asked for a {} account ({}, stored as {}) through {}.\n\n",
        t.label(),
        t.label().to_lowercase(),
        t.as_str(),
        request.source.form_name()
    );
    for (name, value) in &request.fields {
        if value.contains('\n') {
            body.push_str(&format!("{}:\n  {}\n", label(name), value.replace('\n', "\n  ")));
        } else {
            body.push_str(&format!("{}: {value}\n", label(name)));
        }
    }
    body.push_str(&format!("\nReceived: {}\n", human_utc(received_ms)));
    if let Some(page) = &context.page_url {
        body.push_str(&format!("Page: {page}\n"));
    }
    body.push_str(&format!(
        "\nNext steps\n1. Create the {} account.\n2. Send the login credentials to {} within 24 hours (the site promises it).\n3. Set the account's access level.\n",
        t.label(),
        request.email()
    ));
    Mail {
        subject: subject(request),
        body,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounts::AccountType;

    #[test]
    fn the_subject_is_the_draft_s() {
        let mut request = AccountRequest {
            source: Source::Signup,
            account_type: AccountType::CallBuyer,
            fields: vec![
                ("firstName", "Dana".into()),
                ("lastName", "Whitfield".into()),
                ("email", "d@x.example".into()),
            ],
        };
        assert_eq!(subject(&request), "New Account Registration - Contractor - Dana Whitfield");
        request.source = Source::Request;
        assert_eq!(subject(&request), "New Contractor Registration - Dana Whitfield");
        let mail = mail(&request, &RequestContext::default(), 0);
        assert!(mail.body.contains("First name: Dana\n"), "{}", mail.body);
        assert!(mail.body.contains("Received: 1970-01-01 00:00 UTC"), "{}", mail.body);
    }
}
