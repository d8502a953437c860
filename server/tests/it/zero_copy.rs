//! The cached pages' bodies as the kernel sends them from their memory file (`zero_copy`):
//! over real HTTP, each coding arrives whole and as made (the three live at different offsets
//! of one file), and so do pipelined answers to a client that reads slowly through a small
//! receive buffer, so the socket takes each body in several writes.

use std::io::Read;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::common;

async fn body(server: &common::TestServer, coding: &str) -> Vec<u8> {
    let r = server
        .client
        .get(server.url("/hvac"))
        .header("accept-encoding", coding)
        .send()
        .await
        .expect("request");
    assert_eq!(r.status(), reqwest::StatusCode::OK);
    let got = r.headers().get("content-encoding").map(|v| v.to_str().unwrap_or("").to_string());
    assert_eq!(
        got.as_deref(),
        if coding == "identity" { None } else { Some(coding) },
        "coding of {coding}"
    );
    r.bytes().await.expect("body").to_vec()
}

#[tokio::test]
async fn every_coding_of_a_cached_page_arrives_whole() {
    let server = common::start().await;
    let identity = body(&server, "identity").await;
    let gzip = body(&server, "gzip").await;
    let brotli = body(&server, "br").await;
    assert!(identity.len() > 16 * 1024, "the page is large enough to go from its file");
    assert!(
        String::from_utf8_lossy(&identity).ends_with("</html>"),
        "the identity body ends the document"
    );

    let mut unzipped = Vec::new();
    flate2::read::GzDecoder::new(&gzip[..]).read_to_end(&mut unzipped).expect("gzip");
    assert_eq!(unzipped, identity, "the gzip body is the identity body compressed");
    let mut unbrotli = Vec::new();
    brotli::BrotliDecompress(&mut &brotli[..], &mut unbrotli).expect("brotli");
    assert_eq!(unbrotli, identity, "the brotli body is the identity body compressed");
}

#[tokio::test]
async fn pipelined_answers_reach_a_slow_reader_whole_and_in_order() {
    let server = common::start().await;
    let identity = body(&server, "identity").await;
    let gzip = body(&server, "gzip").await;

    let socket = tokio::net::TcpSocket::new_v4().expect("socket");
    socket.set_recv_buffer_size(4096).expect("small receive buffer");
    let addr = server.addr().parse().expect("address");
    let mut stream = socket.connect(addr).await.expect("connect");
    let ask = |coding: &str| format!("GET /hvac HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: {coding}\r\n\r\n");
    let asked = ["identity", "gzip", "identity", "gzip"];
    let requests: String = asked.iter().map(|c| ask(c)).collect();
    stream.write_all(requests.as_bytes()).await.expect("send the requests");

    let mut buf = Vec::new();
    let mut answers = Vec::new();
    let mut chunk = [0u8; 1024];
    while answers.len() < asked.len() {
        // Read a little at a time, pausing, so the server's writes fill the socket and wait.
        let n = tokio::time::timeout(Duration::from_secs(20), stream.read(&mut chunk))
            .await
            .expect("the answers keep coming")
            .expect("read");
        assert!(n > 0, "the connection closed after {} answers", answers.len());
        buf.extend_from_slice(&chunk[..n]);
        while let Some(answer) = common::take_answer(&mut buf) {
            answers.push(answer);
        }
        if answers.is_empty() {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    }
    for ((head, got), coding) in answers.iter().zip(asked) {
        assert!(head.starts_with("HTTP/1.1 200"), "{head}");
        let want = if coding == "gzip" { &gzip } else { &identity };
        assert_eq!(got.len(), want.len(), "length of the {coding} answer");
        assert!(got == want, "the {coding} answer's bytes differ from the body");
    }
    assert!(buf.is_empty(), "nothing after the last answer");
}
