//! Staff passwords: argon2id with the crate's recommended parameters, stored as a PHC string
//! (algorithm, parameters and salt travel with the hash).

use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use argon2::{Algorithm, Argon2, Params, Version};
use thiserror::Error;

/// Shortest password a staff account may have, in characters.
pub const MIN_PASSWORD_CHARS: usize = 12;
/// Longest password accepted (argon2 takes any length; this bounds the work per attempt).
pub const MAX_PASSWORD_CHARS: usize = 256;

#[derive(Debug, Error, PartialEq, Eq)]
pub enum PasswordError {
    #[error("the password must be at least {MIN_PASSWORD_CHARS} characters long")]
    TooShort,
    #[error("the password must be at most {MAX_PASSWORD_CHARS} characters long")]
    TooLong,
    #[error("cannot hash the password: {0}")]
    Hash(String),
}

fn hasher() -> Argon2<'static> {
    Argon2::new(Algorithm::Argon2id, Version::V0x13, Params::default())
}

/// The PHC string for a new password, after checking its length.
pub fn hash_password(password: &str) -> Result<String, PasswordError> {
    let chars = password.chars().count();
    if chars < MIN_PASSWORD_CHARS {
        return Err(PasswordError::TooShort);
    }
    if chars > MAX_PASSWORD_CHARS {
        return Err(PasswordError::TooLong);
    }
    // The crate draws the salt: 16 random bytes, as this function drew them itself before.
    hasher()
        .hash_password(password.as_bytes())
        .map(|h: PasswordHash| h.to_string())
        .map_err(|e| PasswordError::Hash(e.to_string()))
}

/// Whether `password` matches the stored PHC string. A malformed hash never matches.
pub fn verify_password(password: &str, phc: &str) -> bool {
    if password.chars().count() > MAX_PASSWORD_CHARS {
        return false;
    }
    match PasswordHash::new(phc) {
        Ok(parsed) => hasher().verify_password(password.as_bytes(), &parsed).is_ok(),
        Err(_) => false,
    }
}

/// Spends the time of one verification, for a login that named no account, so the answer
/// takes as long as for a wrong password.
pub fn verify_nothing(password: &str) {
    // A fixed hash of a random password nobody knows, with the same parameters.
    const DECOY: &str = "$argon2id$v=19$m=19456,t=2,p=1$c2l0ZS1zdGFmZi1kZWNveQ$Qm3FvIXJ2ePqE8B3DQJq6XDUbJcUyMKlGd1Jx0HbuG8";
    let _ = verify_password(password, DECOY);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_with_argon2id_and_verifies() {
        let phc = hash_password("correct horse battery").expect("hash");
        assert!(phc.starts_with("$argon2id$v=19$"), "{phc}");
        assert!(verify_password("correct horse battery", &phc));
        assert!(!verify_password("correct horse batterY", &phc));
        assert!(!verify_password("correct horse battery", "not a hash"));
        let again = hash_password("correct horse battery").expect("hash");
        assert_ne!(phc, again, "each hash has its own salt");
    }

    #[test]
    fn refuses_short_and_huge_passwords() {
        assert_eq!(hash_password("elevenchars"), Err(PasswordError::TooShort));
        assert!(hash_password("twelve chars").is_ok());
        assert_eq!(hash_password(&"x".repeat(MAX_PASSWORD_CHARS + 1)), Err(PasswordError::TooLong));
        // Characters, not bytes: twelve accented letters are enough.
        assert!(hash_password("éééééééééééé").is_ok());
    }

    /// Made by argon2 0.5.3 as `hash_password` made it then (argon2id, the default
    /// parameters, a 16-byte salt): hashes stored before the upgrade to 0.6 still verify.
    #[test]
    fn a_hash_made_by_argon2_0_5_still_verifies() {
        const OLD: &str = "$argon2id$v=19$m=19456,t=2,p=1$c2l0ZS1vbGQtYXJnb24yIQ$0yGf6Cnx132FVOLI+oBP7pfI5/8RapUBcyk+UJUBk0A";
        assert!(verify_password("a passphrase from argon2 0.5", OLD));
        assert!(!verify_password("a passphrase from argon2 0.6", OLD));
        let new = hash_password("a passphrase from argon2 0.5").expect("hash");
        let params = |phc: &str| phc.split('$').take(4).collect::<Vec<_>>().join("$");
        assert_eq!(params(&new), params(OLD), "the same algorithm, version and parameters");
        let salt = new.split('$').nth(4).expect("salt");
        assert_eq!(salt.len(), 22, "16 bytes of salt, unpadded base64: {new}");
    }

    #[test]
    fn the_decoy_hash_parses_so_it_costs_a_real_verification() {
        assert!(
            PasswordHash::new("$argon2id$v=19$m=19456,t=2,p=1$c2l0ZS1zdGFmZi1kZWNveQ$Qm3FvIXJ2ePqE8B3DQJq6XDUbJcUyMKlGd1Jx0HbuG8").is_ok()
        );
    }
}
