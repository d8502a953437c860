//! The TCPA consent wordings the site shows (catalogue/consent.toml). A lead must carry one
//! of them, compared after folding white space; it is stored with its SHA-256.

use serde::Deserialize;
use sha2::{Digest, Sha256};

const CONSENT_TOML: &str = include_str!("../../../catalogue/consent.toml");

#[derive(Debug, Deserialize)]
struct File {
    wording: Vec<Entry>,
}

/// One `[[wording]]`: its `version` key names it for people reading the file; the server
/// keeps only the text.
#[derive(Debug, Deserialize)]
struct Entry {
    text: String,
}

#[derive(Debug, Clone)]
pub struct ConsentWordings {
    /// Oldest first; the last is the one the page shows.
    wordings: Vec<Wording>,
}

/// One wording, folded, with the SHA-256 a lead stores beside it (computed once, at start).
#[derive(Debug, Clone)]
pub struct Wording {
    pub text: String,
    pub sha256: String,
}

impl ConsentWordings {
    pub fn load(brand: &str) -> Result<Self, String> {
        let file: File = toml::from_str(CONSENT_TOML).map_err(|e| format!("consent.toml: {e}"))?;
        if file.wording.is_empty() {
            return Err("consent.toml: no [[wording]] entry".into());
        }
        let wordings = file
            .wording
            .into_iter()
            .map(|e| {
                let text = fold_whitespace(&e.text.replace("{brand}", brand));
                Wording {
                    sha256: sha256_hex(&text),
                    text,
                }
            })
            .collect();
        Ok(Self { wordings })
    }

    /// The wording the callback form shows now.
    pub fn current(&self) -> &str {
        self.wordings.last().map(|w| w.text.as_str()).unwrap_or("")
    }

    /// The wording `text` is, after folding white space, if the site shows or has shown it
    /// (compared word by word: nothing is copied for the comparison). The page sends the
    /// current wording as it is, so that one is first compared whole, in one `memcmp`.
    pub fn matching(&self, text: &str) -> Option<&Wording> {
        self.wordings
            .iter()
            .rev()
            .find(|w| w.text == text)
            .or_else(|| self.wordings.iter().find(|w| w.text.split_whitespace().eq(text.split_whitespace())))
    }
}

/// Runs of white space become one space; ends are trimmed.
pub fn fold_whitespace(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

pub fn sha256_hex(s: &str) -> String {
    crate::hex::hex(&Sha256::digest(s.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wording_matches_after_folding_white_space() {
        let w = ConsentWordings::load("RingReady").expect("load");
        assert!(w.current().contains("RingReady") && w.current().contains("prior express written consent"));
        let spaced = w.current().replace(' ', "\n   ");
        let found = w.matching(&spaced).expect("the current wording, spaced otherwise");
        assert_eq!(
            (found.text.as_str(), found.sha256.as_str()),
            (w.current(), sha256_hex(w.current()).as_str())
        );
        let exact = w.matching(w.current()).expect("the current wording, as the page sends it");
        assert_eq!(exact.text, w.current());
        assert!(w.matching("I agree.").is_none());
        assert!(w.matching(&format!("{} Extra.", w.current())).is_none());
        assert_eq!(
            sha256_hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
