//! Precompressed bodies: every cached page and asset is kept as identity, gzip and
//! brotli bytes with a strong ETag per representation, chosen per request.

use std::io::Write;

use axum::body::Bytes;
use axum::http::{HeaderMap, HeaderValue, header};
use sha2::{Digest, Sha256};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coding {
    Identity,
    Gzip,
    Brotli,
}

/// One body in three encodings, with a strong validator for each.
#[derive(Debug)]
pub struct Encoded {
    identity: Bytes,
    gzip: Bytes,
    brotli: Bytes,
    etags: [HeaderValue; 3],
}

impl Encoded {
    pub fn new(body: Vec<u8>) -> Self {
        let hash = Sha256::digest(&body);
        let tag: String = hash.iter().take(12).map(|b| format!("{b:02x}")).collect();
        let etag = |suffix: &str| HeaderValue::from_str(&format!("\"{tag}{suffix}\"")).unwrap_or(HeaderValue::from_static("\"0\""));
        let etags = [etag(""), etag("-gz"), etag("-br")];
        Self {
            gzip: gzip(&body).into(),
            brotli: brotli(&body).into(),
            identity: body.into(),
            etags,
        }
    }

    /// The body in `coding`; cloning `Bytes` shares the buffer, it does not copy it.
    pub fn body(&self, coding: Coding) -> Bytes {
        match coding {
            Coding::Identity => self.identity.clone(),
            Coding::Gzip => self.gzip.clone(),
            Coding::Brotli => self.brotli.clone(),
        }
    }

    pub fn etag(&self, coding: Coding) -> &HeaderValue {
        match coding {
            Coding::Identity => &self.etags[0],
            Coding::Gzip => &self.etags[1],
            Coding::Brotli => &self.etags[2],
        }
    }
}

fn gzip(body: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::with_capacity(body.len() / 3), flate2::Compression::best());
    // Writing into a Vec cannot fail.
    let _ = encoder.write_all(body);
    encoder.finish().unwrap_or_default()
}

fn brotli(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len() / 3);
    let params = brotli::enc::BrotliEncoderParams {
        quality: 11,
        lgwin: 22,
        ..Default::default()
    };
    let mut input = body;
    let _ = brotli::BrotliCompress(&mut input, &mut out, &params);
    out
}

/// The best coding the client accepts: brotli, then gzip, then identity.
pub fn negotiate(headers: &HeaderMap) -> Coding {
    let mut br = false;
    let mut gz = false;
    for value in headers.get_all(header::ACCEPT_ENCODING) {
        let Ok(text) = value.to_str() else { continue };
        for item in text.split(',') {
            let mut parts = item.split(';');
            let name = parts.next().unwrap_or("").trim().to_ascii_lowercase();
            let refused = parts.any(|p| {
                let p = p.trim().replace(' ', "");
                p == "q=0" || p == "q=0.0" || p == "q=0.00" || p == "q=0.000"
            });
            if refused {
                continue;
            }
            match name.as_str() {
                "br" => br = true,
                "gzip" | "x-gzip" => gz = true,
                "*" => {
                    br = true;
                    gz = true;
                }
                _ => {}
            }
        }
    }
    if br {
        Coding::Brotli
    } else if gz {
        Coding::Gzip
    } else {
        Coding::Identity
    }
}

/// True when If-None-Match names this representation's ETag (or is `*`).
pub fn not_modified(headers: &HeaderMap, etag: &HeaderValue) -> bool {
    let Some(value) = headers.get(header::IF_NONE_MATCH).and_then(|v| v.to_str().ok()) else {
        return false;
    };
    let ours = etag.as_bytes();
    value
        .split(',')
        .map(str::trim)
        .any(|tag| tag == "*" || tag.trim_start_matches("W/").as_bytes() == ours)
}

pub fn content_encoding(coding: Coding) -> Option<HeaderValue> {
    match coding {
        Coding::Identity => None,
        Coding::Gzip => Some(HeaderValue::from_static("gzip")),
        Coding::Brotli => Some(HeaderValue::from_static("br")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(accept: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::ACCEPT_ENCODING, HeaderValue::from_str(accept).expect("header"));
        h
    }

    #[test]
    fn negotiation_prefers_brotli_and_honours_q0() {
        assert_eq!(negotiate(&headers("gzip, deflate, br")), Coding::Brotli);
        assert_eq!(negotiate(&headers("gzip")), Coding::Gzip);
        assert_eq!(negotiate(&headers("br;q=0, gzip")), Coding::Gzip);
        assert_eq!(negotiate(&headers("identity")), Coding::Identity);
        assert_eq!(negotiate(&HeaderMap::new()), Coding::Identity);
    }

    #[test]
    fn encodings_round_trip_and_etags_differ() {
        let body = "<p>hello</p>".repeat(100).into_bytes();
        let e = Encoded::new(body.clone());
        let mut out = Vec::new();
        let gz = e.body(Coding::Gzip);
        let mut d = flate2::read::GzDecoder::new(&gz[..]);
        std::io::Read::read_to_end(&mut d, &mut out).expect("gunzip");
        assert_eq!(out, body);
        let mut out = Vec::new();
        brotli::BrotliDecompress(&mut &e.body(Coding::Brotli)[..], &mut out).expect("unbrotli");
        assert_eq!(out, body);
        assert_ne!(e.etag(Coding::Gzip), e.etag(Coding::Brotli));
        let mut h = HeaderMap::new();
        h.insert(header::IF_NONE_MATCH, e.etag(Coding::Gzip).clone());
        assert!(not_modified(&h, e.etag(Coding::Gzip)));
        assert!(!not_modified(&h, e.etag(Coding::Brotli)));
    }
}
