//! A cached body's gzip and brotli bytes, each at its best compression in the release build:
//! the server makes them once per page or asset and sends them many times
//! (`site_server::encoding`).

use std::io::Write;

/// `body` in gzip at zlib's best level.
pub fn gzip(body: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::with_capacity(body.len() / 3), flate2::Compression::best());
    // Writing into a Vec cannot fail.
    let _ = encoder.write_all(body);
    encoder.finish().unwrap_or_default()
}

/// Brotli's quality: 11, the smallest bodies, in the release build. A debug build (the tests,
/// the browser and cluster suites) uses 5: about a tenth of the time for bodies about a tenth
/// larger. At 11 brotli was most of the tests' CPU: every page a test server renders is
/// compressed (docs/benchmarks.md, "The build and the tests"). What a client is sent, and how
/// it is chosen, is the same in both.
const QUALITY: i32 = if cfg!(debug_assertions) { 5 } else { 11 };

/// `body` in brotli (at [`QUALITY`]) with a 4 MiB window.
pub fn brotli(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len() / 3);
    let params = brotli::enc::BrotliEncoderParams {
        quality: QUALITY,
        lgwin: 22,
        ..Default::default()
    };
    let mut input = body;
    // Reading a slice and writing into a Vec cannot fail.
    let _ = brotli::BrotliCompress(&mut input, &mut out, &params);
    out
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    #[test]
    fn both_come_back_to_the_body() {
        let body = "<p>Call us</p>".repeat(500).into_bytes();
        let gz = super::gzip(&body);
        let br = super::brotli(&body);
        assert!(
            gz.len() < body.len() / 10 && br.len() < gz.len(),
            "{} {} {}",
            body.len(),
            gz.len(),
            br.len()
        );
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(&gz[..]).read_to_end(&mut out).expect("gunzip");
        assert_eq!(out, body);
        out.clear();
        brotli::BrotliDecompress(&mut &br[..], &mut out).expect("unbrotli");
        assert_eq!(out, body);
    }
}
