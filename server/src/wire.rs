//! The cached page's own HTTP/1.1 path: a connection's plain GETs of cached canonical pages
//! are answered here, off the connection's bytes, before hyper sees the connection; the first
//! request of any other kind hands the connection, with every byte read and not answered, to
//! hyper and the router for the rest of its life (`serve`).
//!
//! Why: a cached page is the site's most common answer, and under hyper four fifths of its
//! user-space work was HTTP itself (the request's header map, its URI, the answer's header
//! map cloned and written out header by header, the head's deadline armed and dropped in
//! tokio's timer wheel), which made it cost more than nginx serving the same bytes
//! (docs/decisions/030-the-cached-page-at-the-limit.md, "The connection's own path"). Here a
//! request is parsed in place (httparse, the parser hyper uses), the head is written from
//! bytes made once per document and coding ([`crate::encoding::Encoded::wire_head`]) with
//! the date line, and the body goes from its memory file with `sendfile` (`zero_copy`).
//!
//! What is answered here, and nothing else: a complete HTTP/1.1 GET of a path that is, as it
//! stands, a canonical page with its document in the render cache and status 200, whose
//! headers hold no `Content-Length`, `Transfer-Encoding`, `Expect`, `Upgrade`,
//! `If-None-Match`, `If-Modified-Since`, `Range` or `Connection` other than `keep-alive`,
//! while the server is not draining (a query is allowed: the page is the path before it, as
//! for hyper). A HEAD, HTTP/1.0, a revalidation, a head httparse or http's URI parser
//! refuses, or one longer than [`MAX_HEAD`] all go to hyper, whose answer they were before. The answer is the one the router gives, byte for byte but for the date
//! (`server/tests/it/wire.rs` compares them over real connections), counted and timed as a
//! page's (`app::observe`).
//!
//! The head's deadline (`server.header_timeout_ms`) holds here as under hyper: it runs from
//! the moment the connection waits for a request head (its accept, or its last answer) and a
//! head not complete by then closes the connection. One timer per connection serves every
//! request: it is moved on only when it fires early, so a request costs it a clock read.

use std::io::{self, IoSlice};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant, SystemTime};

use axum::body::Bytes;
use bytes::{Buf, BytesMut};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::watch;

use crate::zero_copy::Stream;

/// A head longer than this goes to hyper (whose limit is larger), with the bytes read.
pub const MAX_HEAD: usize = 16 * 1024;
/// The connection's read buffer to begin with: a browser's request head fits.
const FIRST_BUFFER: usize = 4096;
/// More headers than this, and hyper parses the head.
const MAX_HEADERS: usize = 48;
/// More `Accept-Encoding` headers than this, and hyper negotiates.
const MAX_ACCEPT_ENCODING: usize = 4;

/// A cached page's answer: its head up to (not with) the date line, and its body.
pub struct Wire {
    pub head: Bytes,
    pub body: Bytes,
}

/// A plain GET, as read off the connection.
pub struct Get<'a> {
    /// The page's path: the request target before any query.
    pub path: &'a str,
    /// The values of its `Accept-Encoding` headers.
    pub accept_encoding: &'a [&'a [u8]],
    /// When its head was complete (the answer's time for /metrics is from here).
    pub started: Instant,
}

/// What can answer a plain GET here: the site (`app::Site`) for its cached pages; anything
/// else answers none and every connection is hyper's from its first byte.
pub trait Answers {
    /// The answer to `get`, counted for /metrics; None: hyper and the router answer it.
    fn cached(&mut self, get: &Get<'_>) -> Option<Wire>;
}

/// How the connection's own path ended.
pub enum Ended {
    /// Hyper serves the rest of the connection, beginning with these bytes.
    Hyper(Bytes),
    /// The connection is done: the client closed it, a write failed, the head's deadline
    /// passed, or the server is shutting down.
    Closed,
}

/// Reads requests off `stream` and answers those `answers` has, in order, until one it has
/// not (see the module documentation), the connection closes or `stopped` turns true.
pub async fn serve(
    stream: &mut Stream,
    answers: &mut impl Answers,
    header_timeout: Duration,
    stopped: &mut watch::Receiver<bool>,
    draining: &AtomicBool,
) -> Ended {
    if *stopped.borrow() {
        return Ended::Closed;
    }
    let mut buf = BytesMut::with_capacity(FIRST_BUFFER);
    // When the connection began waiting for the head it is reading.
    let mut waiting_since = Instant::now();
    let deadline = tokio::time::sleep(header_timeout);
    let mut deadline = std::pin::pin!(deadline);
    let stop = stopped.changed();
    let mut stop = std::pin::pin!(stop);
    loop {
        // Every complete request in the buffer, in order.
        while !buf.is_empty() {
            let mut accept = [&[][..]; MAX_ACCEPT_ENCODING];
            let mut accepted = 0;
            let (path, length) = match parse(&buf, &mut accept, &mut accepted) {
                Parsed::Get { path, length } => (path, length),
                Parsed::Partial => break,
                Parsed::Other => return Ended::Hyper(buf.freeze()),
            };
            let started = Instant::now();
            let get = Get {
                path,
                accept_encoding: &accept[..accepted],
                started,
            };
            // While draining, every answer closes its connection: hyper's way (serve::Finish).
            let answer = if draining.load(Ordering::Relaxed) {
                None
            } else {
                answers.cached(&get)
            };
            let Some(answer) = answer else {
                return Ended::Hyper(buf.freeze());
            };
            if write_answer(stream, &answer).await.is_err() {
                return Ended::Closed;
            }
            buf.advance(length);
            waiting_since = started;
        }
        if buf.len() >= MAX_HEAD {
            return Ended::Hyper(buf.freeze());
        }
        if buf.capacity() - buf.len() < 512 {
            buf.reserve(FIRST_BUFFER);
        }
        tokio::select! {
            biased;
            read = stream.read_buf(&mut buf) => match read {
                Ok(0) | Err(_) => return Ended::Closed,
                Ok(_) => {}
            },
            () = &mut deadline => {
                let due = waiting_since + header_timeout;
                if Instant::now() >= due {
                    tracing::debug!("a request head did not arrive in time; closing the connection");
                    return Ended::Closed;
                }
                deadline.as_mut().reset(due.into());
            }
            _ = &mut stop => return Ended::Closed,
        }
    }
}

/// What the start of a connection's buffer holds.
#[derive(Debug, PartialEq, Eq)]
enum Parsed<'a> {
    /// A plain GET of `path` (see the module documentation), `length` bytes long; its
    /// `Accept-Encoding` values are in the caller's array.
    Get { path: &'a str, length: usize },
    /// Not yet a whole head, and nothing in it says it is not a plain GET.
    Partial,
    /// Anything else: hyper's to answer.
    Other,
}

fn parse<'b>(buf: &'b [u8], accept: &mut [&'b [u8]; MAX_ACCEPT_ENCODING], accepted: &mut usize) -> Parsed<'b> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut request = httparse::Request::new(&mut headers);
    let length = match request.parse(buf) {
        Ok(httparse::Status::Complete(length)) if length <= MAX_HEAD => length,
        Ok(httparse::Status::Complete(_)) => return Parsed::Other,
        Ok(httparse::Status::Partial) => {
            // A head that has said it is something else goes at once.
            return match request.method {
                Some(method) if method != "GET" => Parsed::Other,
                _ => Parsed::Partial,
            };
        }
        Err(_) => return Parsed::Other,
    };
    let (Some("GET"), Some(path), Some(1)) = (request.method, request.path, request.version) else {
        return Parsed::Other;
    };
    if !path.starts_with('/') {
        return Parsed::Other;
    }
    // The page is the path before any query (or fragment), as hyper reads the target: with
    // http's own parser, so that a target it refuses stays hyper's to answer (a 400).
    let path = match path.find(['?', '#']) {
        None => path,
        Some(end) if axum::http::uri::PathAndQuery::try_from(path).is_ok() => &path[..end],
        Some(_) => return Parsed::Other,
    };
    *accepted = 0;
    for h in request.headers.iter() {
        let name = h.name;
        if name.eq_ignore_ascii_case("accept-encoding") {
            if *accepted == MAX_ACCEPT_ENCODING {
                return Parsed::Other;
            }
            accept[*accepted] = h.value;
            *accepted += 1;
        } else if name.eq_ignore_ascii_case("connection") {
            if !h.value.eq_ignore_ascii_case(b"keep-alive") {
                return Parsed::Other;
            }
        } else if [
            "content-length",
            "transfer-encoding",
            "expect",
            "upgrade",
            "if-none-match",
            "if-modified-since",
            "range",
        ]
        .iter()
        .any(|n| name.eq_ignore_ascii_case(n))
        {
            return Parsed::Other;
        }
    }
    Parsed::Get { path, length }
}

/// `answer`'s head, the date line and the blank line, then its body: every byte, or the error.
async fn write_answer(stream: &mut Stream, answer: &Wire) -> io::Result<()> {
    let date = date_line();
    let mut slices = [IoSlice::new(&answer.head), IoSlice::new(&date), IoSlice::new(&answer.body)];
    let mut rest = &mut slices[..];
    while !rest.is_empty() {
        let n = stream.write_vectored(rest).await?;
        if n == 0 {
            return Err(io::ErrorKind::WriteZero.into());
        }
        IoSlice::advance_slices(&mut rest, n);
    }
    Ok(())
}

/// `date: <IMF-fixdate>` and the blank line that ends the head, made once a second per thread
/// (as hyper caches its date).
fn date_line() -> [u8; DATE_LINE] {
    use std::cell::Cell;
    thread_local! {
        static CACHED: Cell<(u64, [u8; DATE_LINE])> = const { Cell::new((u64::MAX, [0; DATE_LINE])) };
    }
    let now = SystemTime::now();
    let second = now.duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    CACHED.with(|cached| {
        let (made, line) = cached.get();
        if made == second {
            return line;
        }
        let mut line = [0u8; DATE_LINE];
        let text = format!("date: {}\r\n\r\n", httpdate::fmt_http_date(now));
        if text.len() == DATE_LINE {
            line.copy_from_slice(text.as_bytes());
        }
        cached.set((second, line));
        line
    })
}

/// `date: Sun, 06 Dec 2026 21:56:08 GMT` with its line end and the blank line.
const DATE_LINE: usize = 6 + 29 + 4;

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(request: &str) -> (String, Vec<Vec<u8>>) {
        let (mut accept, mut accepted) = ([&[][..]; MAX_ACCEPT_ENCODING], 0);
        match parse(request.as_bytes(), &mut accept, &mut accepted) {
            Parsed::Get { path, length } => {
                assert_eq!(length, request.len(), "{request:?}");
                (path.to_string(), accept[..accepted].iter().map(|v| v.to_vec()).collect())
            }
            other => panic!("{request:?}: {other:?}"),
        }
    }

    fn kind(request: &str) -> &'static str {
        let (mut accept, mut accepted) = ([&[][..]; MAX_ACCEPT_ENCODING], 0);
        match parse(request.as_bytes(), &mut accept, &mut accepted) {
            Parsed::Get { .. } => "get",
            Parsed::Partial => "partial",
            Parsed::Other => "other",
        }
    }

    #[test]
    fn a_plain_get_is_read_with_its_accept_encoding_values() {
        let (path, accept) = parsed("GET /hvac HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip, br\r\naccept-encoding: identity\r\n\r\n");
        assert_eq!(path, "/hvac");
        assert_eq!(accept, vec![b"gzip, br".to_vec(), b"identity".to_vec()]);
        let (path, accept) = parsed("GET / HTTP/1.1\r\nConnection: Keep-Alive\r\nUser-Agent: x\r\n\r\n");
        assert_eq!(path, "/");
        assert!(accept.is_empty());
        // The page of a target with a query (an advertisement's landing) is its path.
        assert_eq!(parsed("GET /hvac?utm_source=ads&gclid=x1 HTTP/1.1\r\n\r\n").0, "/hvac");
        assert_eq!(parsed("GET /roofing?q=%22a%22#top HTTP/1.1\r\n\r\n").0, "/roofing");
    }

    #[test]
    fn what_is_not_a_plain_get_is_hypers() {
        for request in [
            "POST /hvac HTTP/1.1\r\nHost: x\r\n\r\n",
            "HEAD /hvac HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET /hvac HTTP/1.0\r\nHost: x\r\n\r\n",
            "GET http://x/hvac HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET /hvac HTTP/1.1\r\nContent-Length: 0\r\n\r\n",
            "GET /hvac HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            "GET /hvac HTTP/1.1\r\nConnection: close\r\n\r\n",
            "GET /hvac HTTP/1.1\r\nConnection: keep-alive, Upgrade\r\nUpgrade: h2c\r\n\r\n",
            "GET /hvac HTTP/1.1\r\nExpect: 100-continue\r\n\r\n",
            "GET /hvac HTTP/1.1\r\nIf-None-Match: \"x\"\r\n\r\n",
            "GET /hvac HTTP/1.1\r\nRange: bytes=0-1\r\n\r\n",
            "GET /hvac HTTP/1.1\r\nBad Header: x\r\n\r\n",
            "GET /hvac HTTP/1.1\r\nA: 1\r\nA: 2\r\nA: 3\r\nAccept-Encoding: a\r\nAccept-Encoding: b\r\nAccept-Encoding: c\r\nAccept-Encoding: d\r\nAccept-Encoding: e\r\n\r\n",
            "\x16\x03\x01\x00\x05",
        ] {
            assert_eq!(kind(request), "other", "{request:?}");
        }
        let many: String = (0..MAX_HEADERS + 1).map(|i| format!("X-{i}: y\r\n")).collect();
        assert_eq!(kind(&format!("GET /hvac HTTP/1.1\r\n{many}\r\n")), "other");
    }

    #[test]
    fn a_head_not_yet_whole_waits_unless_it_is_something_else() {
        assert_eq!(kind("GET /hvac HTTP/1.1\r\nHost: x\r\n"), "partial");
        assert_eq!(kind("GE"), "partial");
        assert_eq!(kind("POST /api/leads HTTP/1.1\r\nHost"), "other");
    }

    #[test]
    fn the_date_line_is_an_imf_fixdate_that_ends_the_head() {
        let line = date_line();
        let text = std::str::from_utf8(&line).expect("ascii");
        assert!(text.starts_with("date: ") && text.ends_with(" GMT\r\n\r\n"), "{text:?}");
        let date = httpdate::parse_http_date(&text[6..text.len() - 4]).expect("an HTTP date");
        let off = SystemTime::now().duration_since(date).unwrap_or_default();
        assert!(off < Duration::from_secs(5), "{text:?}");
    }
}
