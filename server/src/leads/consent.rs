//! The TCPA consent wordings the site shows (catalogue/consent.toml). A lead must carry one
//! of them, compared after folding white space; it is stored with its SHA-256.

use serde::Deserialize;
use sha2::{Digest, Sha256};

const CONSENT_TOML: &str = include_str!("../../../catalogue/consent.toml");

#[derive(Debug, Deserialize)]
struct File {
    wording: Vec<Entry>,
}

#[derive(Debug, Deserialize)]
struct Entry {
    version: String,
    text: String,
}

#[derive(Debug, Clone)]
pub struct ConsentWordings {
    /// (version, folded text), oldest first; the last is the one the page shows.
    wordings: Vec<(String, String)>,
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
            .map(|e| (e.version, fold_whitespace(&e.text.replace("{brand}", brand))))
            .collect();
        Ok(Self { wordings })
    }

    /// The wording the callback form shows now.
    pub fn current(&self) -> &str {
        self.wordings.last().map(|(_, t)| t.as_str()).unwrap_or("")
    }

    /// The folded wording if `text` is one the site shows or has shown.
    pub fn matching(&self, text: &str) -> Option<&str> {
        let folded = fold_whitespace(text);
        self.wordings.iter().find(|(_, t)| *t == folded).map(|(_, t)| t.as_str())
    }
}

/// Runs of white space become one space; ends are trimmed.
pub fn fold_whitespace(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

pub fn sha256_hex(s: &str) -> String {
    Sha256::digest(s.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wording_matches_after_folding_white_space() {
        let w = ConsentWordings::load("RingReady").expect("load");
        assert!(w.current().contains("RingReady") && w.current().contains("prior express written consent"));
        let spaced = w.current().replace(' ', "\n   ");
        assert_eq!(w.matching(&spaced), Some(w.current()));
        assert_eq!(w.matching("I agree."), None);
        assert_eq!(
            sha256_hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
