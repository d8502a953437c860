//! Phone display for server-only pages; the React side has the same rule in client/lib/format.ts.

/// "8005550100" → "(800) 555-0100". Anything else is returned unchanged.
pub fn display(digits: &str) -> String {
    if digits.len() == 10 && digits.bytes().all(|b| b.is_ascii_digit()) {
        format!("({}) {}-{}", &digits[..3], &digits[3..6], &digits[6..])
    } else {
        digits.to_string()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn formats_ten_digits() {
        assert_eq!(super::display("8005550100"), "(800) 555-0100");
        assert_eq!(super::display("555"), "555");
    }
}
