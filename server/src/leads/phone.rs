//! North American phone numbers a US agent can dial.

/// Parses a visitor's number: spaces, dots, dashes and brackets are ignored; then 10 digits
/// with an optional leading 1 or +1; area code and exchange must be valid NANP codes
/// (first digit 2-9, not N11; area codes never have 9 in the middle). Returns E.164.
pub fn parse_us_phone(input: &str) -> Option<String> {
    let cleaned: String = input.chars().filter(|c| !matches!(c, ' ' | '.' | '-' | '(' | ')' | '\t')).collect();
    let digits = match cleaned.strip_prefix('+') {
        Some(rest) => rest.strip_prefix('1')?,
        None if cleaned.len() == 11 => cleaned.strip_prefix('1')?,
        None => cleaned.as_str(),
    };
    if digits.len() != 10 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let d = digits.as_bytes();
    let area_ok = (b'2'..=b'9').contains(&d[0]) && d[1] != b'9' && !(d[1] == b'1' && d[2] == b'1');
    let exchange_ok = (b'2'..=b'9').contains(&d[3]) && !(d[4] == b'1' && d[5] == b'1');
    (area_ok && exchange_ok).then(|| format!("+1{digits}"))
}

#[cfg(test)]
mod tests {
    use super::parse_us_phone;

    #[test]
    fn accepts_the_usual_ways_of_writing_a_number() {
        for input in [
            "(800) 555-0100",
            "800.555.0100",
            "800-555-0100",
            "8005550100",
            "1 800 555 0100",
            "+1 (800) 555-0100",
            "+18005550100",
        ] {
            assert_eq!(parse_us_phone(input).as_deref(), Some("+18005550100"), "{input}");
        }
    }

    #[test]
    fn refuses_what_cannot_be_dialled() {
        for input in [
            "",
            "555-0100",
            "(100) 555-0100",
            "(911) 555-0100",
            "(290) 555-0100",
            "(800) 155-0100",
            "(800) 911-0100",
            "2800 555 0100",
            "+44 20 7946 0000",
            "+2 800 555 0100",
            "800555010O",
            "800/555/0100",
            "80055501000",
            "+1+18005550100",
        ] {
            assert_eq!(parse_us_phone(input), None, "{input}");
        }
    }
}
