//! A request's fields, whatever the encoding (JSON from a page's script, or a plain form
//! post), and how a refusal is told.

use std::collections::HashMap;

use serde_json::Value;

/// The hidden field bots fill in and people never see. The prefix `hp_` is reserved for
/// honeypots: no real field of any form starts with it, so it can never collide with one.
pub const HONEYPOT_FIELD: &str = "hp_website";

/// Why a request was refused: the visitor's message, and a short reason (for metrics, and
/// for the no-JavaScript pages, the field it is about).
#[derive(Debug, Clone, PartialEq)]
pub struct Invalid {
    pub reason: &'static str,
    pub message: &'static str,
}

/// One submitted field, whatever the encoding.
#[derive(Debug, Clone, PartialEq)]
pub enum Field {
    Missing,
    Text(String),
    Bool(bool),
    /// Several texts: a JSON array of strings, or a form key sent more than once. Only a
    /// list field takes it; to any other field it is a wrong type.
    List(Vec<String>),
    /// Present but of a type the field cannot have (number, object, array of non-strings…).
    WrongType,
}

/// The fields of a submission, from JSON or from a form post.
pub struct Fields(HashMap<String, Field>);

impl Fields {
    /// A JSON object's fields. Anything that is not an object has no fields.
    pub fn from_json(value: &Value) -> Option<Self> {
        let object = value.as_object()?;
        let fields = object
            .iter()
            .map(|(k, v)| {
                let field = match v {
                    Value::Null => Field::Missing,
                    Value::String(s) => Field::Text(s.clone()),
                    Value::Bool(b) => Field::Bool(*b),
                    Value::Array(items) => items
                        .iter()
                        .map(|i| i.as_str().map(String::from))
                        .collect::<Option<Vec<_>>>()
                        .map_or(Field::WrongType, Field::List),
                    _ => Field::WrongType,
                };
                (k.clone(), field)
            })
            .collect();
        Some(Self(fields))
    }

    /// Form fields (already decoded). A checked checkbox arrives as "on".
    pub fn from_form(pairs: Vec<(String, String)>) -> Self {
        let mut fields = HashMap::new();
        for (k, v) in pairs {
            let field = if k == "consent" {
                Field::Bool(matches!(v.as_str(), "on" | "true" | "1" | "yes"))
            } else {
                Field::Text(v)
            };
            // A repeated key is a list (checkboxes sharing a name); to a field that takes one
            // text it is a wrong type.
            match fields.remove(&k) {
                None => {
                    fields.insert(k, field);
                }
                Some(earlier) => {
                    let mut items = match earlier {
                        Field::List(items) => items,
                        Field::Text(t) => vec![t],
                        _ => Vec::new(),
                    };
                    match field {
                        Field::Text(t) => items.push(t),
                        _ => {
                            fields.insert(k, Field::WrongType);
                            continue;
                        }
                    }
                    fields.insert(k, Field::List(items));
                }
            }
        }
        Self(fields)
    }

    pub fn get(&self, name: &str) -> &Field {
        self.0.get(name).unwrap_or(&Field::Missing)
    }

    /// The field's text, at most `max` characters of it; "" when it is not a text.
    pub fn text_up_to(&self, name: &str, max: usize) -> String {
        match self.get(name) {
            Field::Text(s) => truncate(s, max),
            _ => String::new(),
        }
    }

    /// True when the honeypot field holds anything.
    pub fn honeypot_filled(&self) -> bool {
        match self.get(HONEYPOT_FIELD) {
            Field::Missing | Field::Bool(false) => false,
            Field::Text(s) => !s.is_empty(),
            Field::Bool(true) | Field::List(_) | Field::WrongType => true,
        }
    }
}

/// A URL-encoded form body's pairs (`a=1&b=2`), decoded, in the order sent.
pub fn form_pairs(body: &str) -> Vec<(String, String)> {
    body.split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (percent_decode(k), percent_decode(v))
        })
        .collect()
}

/// At most `max` characters of `s`.
pub fn truncate(s: &str, max: usize) -> String {
    s.chars().take(max).collect()
}

/// Decodes %XX escapes and '+' (form encoding); invalid escapes are kept as they are.
pub fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3])
                    .ok()
                    .and_then(|h| u8::from_str_radix(h, 16).ok());
                match hex {
                    Some(b) => {
                        out.push(b);
                        i += 2;
                    }
                    None => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn arrays_of_strings_and_repeated_form_keys_are_lists() {
        let f = Fields::from_json(&json!({ "a": ["x", "y"], "b": [], "c": ["x", 1], "d": "x" })).expect("object");
        assert_eq!(f.get("a"), &Field::List(vec!["x".into(), "y".into()]));
        assert_eq!(f.get("b"), &Field::List(vec![]));
        assert_eq!(f.get("c"), &Field::WrongType);
        assert_eq!(f.get("d"), &Field::Text("x".into()));
        let f = Fields::from_form(form_pairs("a=x&b=1&a=y&a=z&consent=on&consent=on"));
        assert_eq!(f.get("a"), &Field::List(vec!["x".into(), "y".into(), "z".into()]));
        assert_eq!(f.get("b"), &Field::Text("1".into()));
        assert_eq!(
            f.get("consent"),
            &Field::WrongType,
            "a repeated checkbox of one value stays ambiguous"
        );
    }

    #[test]
    fn a_repeated_honeypot_counts_as_filled() {
        let f = Fields::from_form(form_pairs("hp_website=&hp_website="));
        assert!(f.honeypot_filled());
        let f = Fields::from_form(form_pairs("hp_website=&name=x"));
        assert!(!f.honeypot_filled());
    }

    #[test]
    fn percent_decoding_keeps_bad_escapes() {
        assert_eq!(percent_decode("a%20b+c"), "a b c");
        assert_eq!(percent_decode("100%"), "100%");
        assert_eq!(percent_decode("%zz%4"), "%zz%4");
        assert_eq!(
            form_pairs("a=1&&b&c=%41+B"),
            [("a", "1"), ("b", ""), ("c", "A B")].map(|(k, v)| (k.to_string(), v.to_string()))
        );
    }
}
