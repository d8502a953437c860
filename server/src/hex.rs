//! Lower-case hexadecimal of bytes: how every digest the site writes as text is spelled
//! (ETags, file and migration checksums, submissions' repeat keys, session ids, webhook
//! signatures, asset names).

const DIGITS: &[u8; 16] = b"0123456789abcdef";

/// `bytes` in lower-case hexadecimal, two digits a byte.
pub fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 0xf)]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::hex;

    #[test]
    fn two_lower_case_digits_a_byte() {
        assert_eq!(hex(&[]), "");
        assert_eq!(hex(&[0x00, 0x0f, 0xa0, 0xff, 0x5c]), "000fa0ff5c");
        let every: Vec<u8> = (0..=255).collect();
        let expected: String = every.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(hex(&every), expected);
    }
}
