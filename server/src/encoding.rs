//! Precompressed bodies: every cached page and asset is kept as identity, gzip and
//! brotli bytes with a strong ETag per representation, chosen per request.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, OnceLock, Weak};

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
    /// The headers of a full answer with this body, per coding, made on first use
    /// ([`Encoded::heads`]).
    heads: OnceLock<Heads>,
}

/// What the headers of a full answer were made for (an answer made for anything else makes
/// its own): whose security headers they carry (`SecurityHeaders::id`) and their
/// Cache-Control.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeadsFor {
    pub maker: u64,
    pub cache_control: &'static str,
}

#[derive(Debug)]
struct Heads {
    made_for: HeadsFor,
    maps: [HeaderMap; 3],
    /// The same heads as HTTP/1.1 writes them, with the status line and the length: what
    /// `wire` sends before its date line (see [`Encoded::wire_head`]).
    wire: [Bytes; 3],
}

impl Encoded {
    pub fn new(body: Vec<u8>) -> Self {
        let gzip = site_compress::gzip(&body);
        Self::with_gzip(body, gzip)
    }

    /// As [`Encoded::new`], shared: while a body with these bytes is in use anywhere in the
    /// process, it is handed out again instead of compressed again. The page table is built
    /// anew on every campaign change, and most of its bodies (the icons, the legal texts) are
    /// the same bytes as before; every server a test starts builds the same ones.
    pub fn shared(body: Vec<u8>) -> Arc<Self> {
        static LIVE: Mutex<BTreeMap<[u8; 32], Weak<Encoded>>> = Mutex::new(BTreeMap::new());
        let key: [u8; 32] = Sha256::digest(&body).into();
        let found = LIVE.lock().unwrap_or_else(|p| p.into_inner()).get(&key).and_then(Weak::upgrade);
        if let Some(encoded) = found {
            return encoded;
        }
        // Compressed outside the lock; two threads making the same body at once both make it.
        let encoded = Arc::new(Self::new(body));
        let mut live = LIVE.lock().unwrap_or_else(|p| p.into_inner());
        live.retain(|_, e| e.strong_count() > 0);
        live.insert(key, Arc::downgrade(&encoded));
        encoded
    }

    /// A body whose gzip bytes were made ahead (the island bundle's, by zopfli at build time).
    pub fn with_gzip(body: Vec<u8>, gzip: Vec<u8>) -> Self {
        let hash = Sha256::digest(&body);
        let tag = crate::hex::hex(&hash[..12]);
        let etag = |suffix: &str| HeaderValue::from_str(&format!("\"{tag}{suffix}\"")).unwrap_or(HeaderValue::from_static("\"0\""));
        let etags = [etag(""), etag("-gz"), etag("-br")];
        let brotli = site_compress::brotli(&body);
        // In one sealed memory file the connection sends from without copying (zero_copy).
        let [identity, gzip, brotli] = crate::zero_copy::bodies([body, gzip, brotli]);
        Self {
            identity,
            gzip,
            brotli,
            etags,
            heads: OnceLock::new(),
        }
    }

    /// The headers of a full (200) answer with this body in `coding`, made by `make` once
    /// for the first `made_for` asked, so that a cached page's answer clones one map instead
    /// of inserting a dozen headers one by one (docs/decisions/030-the-cached-page-at-the-limit.md).
    /// None when they were made for something else: the caller makes its own.
    pub fn heads(&self, coding: Coding, made_for: HeadsFor, make: impl Fn(Coding) -> HeaderMap) -> Option<&HeaderMap> {
        let heads = self.made_heads(made_for, make);
        (heads.made_for == made_for).then(|| &heads.maps[coding as usize])
    }

    /// The head of a full (200) HTTP/1.1 answer with this body in `coding`, as bytes: the
    /// status line, the headers of [`Encoded::heads`] in their order, one per line, and the
    /// body's `content-length`, as hyper writes them; what is left to write is the date line
    /// and the blank line (`wire`). Made with the heads, for the same `made_for`.
    pub fn wire_head(&self, coding: Coding, made_for: HeadsFor, make: impl Fn(Coding) -> HeaderMap) -> Option<&Bytes> {
        let heads = self.made_heads(made_for, make);
        (heads.made_for == made_for).then(|| &heads.wire[coding as usize])
    }

    fn made_heads(&self, made_for: HeadsFor, make: impl Fn(Coding) -> HeaderMap) -> &Heads {
        self.heads.get_or_init(|| {
            let maps = [Coding::Identity, Coding::Gzip, Coding::Brotli].map(&make);
            let wire = [Coding::Identity, Coding::Gzip, Coding::Brotli].map(|c| wire_head(&maps[c as usize], self.body(c).len()));
            Heads { made_for, maps, wire }
        })
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

/// The coding the client prefers by its `Accept-Encoding` weights (RFC 9110, section 12.5.3): the
/// highest `q` among brotli, gzip and identity wins, ties going to the smaller body (brotli,
/// then gzip). A coding the header does not name takes the weight of `*`, if present; identity
/// not named at all is acceptable but comes last. A
/// member whose weight is not a valid qvalue is ignored. When nothing is acceptable the body
/// goes out as identity (RFC 9110 allows that instead of a 406).
pub fn negotiate(headers: &HeaderMap) -> Coding {
    negotiate_values(headers.get_all(header::ACCEPT_ENCODING).iter().map(HeaderValue::as_bytes))
}

/// As [`negotiate`], from the values of the request's `Accept-Encoding` headers as they
/// arrived (`wire` reads them off the connection's bytes). A value with a byte that is not
/// visible ASCII or a tab is passed over, as `HeaderValue::to_str` refuses it.
pub fn negotiate_values<'a>(values: impl IntoIterator<Item = &'a [u8]>) -> Coding {
    // Weights in thousandths (qvalues have at most three decimals); None = not named.
    let (mut br, mut gzip, mut identity, mut any) = (None, None, None, None);
    for value in values {
        let visible = value.iter().all(|&b| b == b'\t' || (32..127).contains(&b));
        let Some(text) = visible.then(|| std::str::from_utf8(value).ok()).flatten() else {
            continue;
        };
        for member in text.split(',') {
            let mut parts = member.split(';');
            let name = parts.next().unwrap_or("").trim();
            if name.is_empty() {
                continue;
            }
            let mut weight = Some(1000);
            for param in parts {
                if let Some((key, value)) = param.split_once('=')
                    && key.trim().eq_ignore_ascii_case("q")
                {
                    weight = qvalue(value.trim());
                }
            }
            let Some(weight) = weight else { continue };
            let slot = if name.eq_ignore_ascii_case("br") {
                &mut br
            } else if name.eq_ignore_ascii_case("gzip") || name.eq_ignore_ascii_case("x-gzip") {
                &mut gzip
            } else if name.eq_ignore_ascii_case("identity") {
                &mut identity
            } else if name == "*" {
                &mut any
            } else {
                continue;
            };
            // Named twice: the higher weight counts.
            *slot = Some(slot.map_or(weight, |w: u16| w.max(weight)));
        }
    }
    let br = br.or(any).unwrap_or(0);
    let gzip = gzip.or(any).unwrap_or(0);
    // Unnamed, identity is acceptable but least preferred (weight 0.001).
    let identity = identity.or(any).unwrap_or(1);
    let best = [(Coding::Brotli, br), (Coding::Gzip, gzip), (Coding::Identity, identity)]
        .into_iter()
        .filter(|&(_, w)| w > 0)
        .fold(None, |best: Option<(Coding, u16)>, (c, w)| match best {
            Some((_, bw)) if bw >= w => best,
            _ => Some((c, w)),
        });
    best.map_or(Coding::Identity, |(c, _)| c)
}

/// A qvalue (`0`, `0.5`, `0.125`, `1`, `1.000`) in thousandths; None when malformed.
fn qvalue(text: &str) -> Option<u16> {
    let (int, frac) = text.split_once('.').unwrap_or((text, ""));
    if frac.len() > 3 || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let thousandths: u16 = format!("{frac:0<3}").parse().ok()?;
    match int {
        "0" => Some(thousandths),
        "1" if thousandths == 0 => Some(1000),
        _ => None,
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

/// `map`'s headers as HTTP/1.1 writes them after the status line of a 200, and the body's
/// length: `name: value` lines in the map's order (hyper writes a name lower-case, as the map
/// holds it), then `content-length`, which hyper adds after them.
fn wire_head(map: &HeaderMap, length: usize) -> Bytes {
    let mut out = Vec::with_capacity(64 + map.iter().map(|(n, v)| n.as_str().len() + v.len() + 4).sum::<usize>());
    out.extend_from_slice(b"HTTP/1.1 200 OK\r\n");
    for (name, value) in map {
        out.extend_from_slice(name.as_str().as_bytes());
        out.extend_from_slice(b": ");
        out.extend_from_slice(value.as_bytes());
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(format!("content-length: {length}\r\n").as_bytes());
    Bytes::from(out)
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

    #[test]
    fn answer_heads_are_made_once_and_only_for_what_they_were_made_for() {
        let doc = Encoded::new(b"<p>hello</p>".to_vec());
        let made = std::cell::Cell::new(0);
        let make = |c: Coding| {
            made.set(made.get() + 1);
            let mut h = HeaderMap::new();
            h.insert(header::ETAG, doc.etag(c).clone());
            h
        };
        let mine = HeadsFor {
            maker: 1,
            cache_control: "no-cache",
        };
        let gzip = doc.heads(Coding::Gzip, mine, make).expect("made for these");
        assert_eq!(gzip[header::ETAG], doc.etag(Coding::Gzip));
        let br = doc.heads(Coding::Brotli, mine, make).expect("the same");
        assert_eq!(br[header::ETAG], doc.etag(Coding::Brotli));
        assert_eq!(made.get(), 3, "one map per coding, made once");
        // Another server's security headers, or another Cache-Control: the caller makes its own.
        assert!(doc.heads(Coding::Gzip, HeadsFor { maker: 2, ..mine }, make).is_none());
        assert!(
            doc.heads(
                Coding::Gzip,
                HeadsFor {
                    cache_control: "no-store",
                    ..mine
                },
                make
            )
            .is_none()
        );
        assert_eq!(made.get(), 3);
    }

    fn headers(accept: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::ACCEPT_ENCODING, HeaderValue::from_str(accept).expect("header"));
        h
    }

    #[test]
    fn a_shared_body_is_made_once_while_it_is_in_use() {
        let body = b"<svg>icons shared by two page tables</svg>".to_vec();
        let first = Encoded::shared(body.clone());
        let second = Encoded::shared(body.clone());
        assert!(Arc::ptr_eq(&first, &second), "the same bytes, the same body");
        assert!(!Arc::ptr_eq(&first, &Encoded::shared(b"<svg>other</svg>".to_vec())));
        let etag = first.etag(Coding::Brotli).clone();
        drop((first, second));
        let again = Encoded::shared(body);
        assert_eq!(again.etag(Coding::Brotli), &etag, "made again once nothing held it");
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
    fn negotiation_follows_the_weights() {
        let cases = [
            // The client's preference wins over ours.
            ("gzip;q=1, br;q=0.1", Coding::Gzip),
            ("gzip;q=0.9, br;q=0.8", Coding::Gzip),
            ("br;q=0.2, gzip;q=0.1", Coding::Brotli),
            ("br;q=0.001, identity;q=0.5", Coding::Identity),
            // Equal weights: the smaller body.
            ("gzip;q=0.5, br;q=0.5", Coding::Brotli),
            ("identity, gzip", Coding::Gzip),
            // Spacing and case do not matter.
            ("GZIP ; Q = 0.7 , Br ; q=0.3", Coding::Gzip),
            ("x-gzip", Coding::Gzip),
            // q=0 in every spelling refuses.
            ("br;q=0.000, gzip;q=0.0", Coding::Identity),
            ("br;q=0.00, gzip", Coding::Gzip),
            // `*` gives its weight to what is not named.
            ("*", Coding::Brotli),
            ("*;q=0.5, gzip", Coding::Gzip),
            ("br;q=0, *", Coding::Gzip),
            ("*;q=0, gzip;q=0.1", Coding::Gzip),
            // Identity refused and nothing else acceptable: identity all the same.
            ("identity;q=0", Coding::Identity),
            ("*;q=0", Coding::Identity),
            ("*;q=0, identity;q=0.2, gzip;q=0.1", Coding::Identity),
            // A malformed weight makes its member ignored, not preferred.
            ("br;q=2, gzip;q=0.5", Coding::Gzip),
            ("br;q=0.5x, gzip;q=0.1", Coding::Gzip),
            ("br;q=-1, gzip", Coding::Gzip),
            ("br;q=0.1234, gzip;q=0.2", Coding::Gzip),
            ("br;q=1.5", Coding::Identity),
            ("br;q=1.000, gzip", Coding::Brotli),
            // Other parameters are not weights; unknown codings are skipped.
            ("br;level=1;q=0.2, gzip;q=0.3", Coding::Gzip),
            ("zstd, deflate, gzip;q=0.4", Coding::Gzip),
            // Named twice: the higher weight counts.
            ("br;q=0.1, gzip;q=0.5, br;q=0.9", Coding::Brotli),
            ("  , ,br", Coding::Brotli),
        ];
        for (accept, expected) in cases {
            assert_eq!(negotiate(&headers(accept)), expected, "Accept-Encoding: {accept}");
        }
    }

    #[test]
    fn negotiation_reads_every_header_line() {
        let mut h = HeaderMap::new();
        h.append(header::ACCEPT_ENCODING, HeaderValue::from_static("gzip;q=0.4"));
        h.append(header::ACCEPT_ENCODING, HeaderValue::from_static("br;q=0.6"));
        assert_eq!(negotiate(&h), Coding::Brotli);
    }

    #[test]
    fn qvalues_follow_the_grammar() {
        assert_eq!(qvalue("0"), Some(0));
        assert_eq!(qvalue("0."), Some(0));
        assert_eq!(qvalue("0.5"), Some(500));
        assert_eq!(qvalue("0.125"), Some(125));
        assert_eq!(qvalue("1"), Some(1000));
        assert_eq!(qvalue("1.000"), Some(1000));
        for bad in ["", "1.001", "2", "0.1234", ".5", "0,5", "-0", "0.5e1", "01"] {
            assert_eq!(qvalue(bad), None, "{bad:?}");
        }
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
