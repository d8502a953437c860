//! CSV for the console's exports: RFC 4180 cells and rows (CRLF, quoted when they hold a
//! quote, comma or line break), cells a spreadsheet would run as a formula neutralised, and a
//! response body fed batch by batch from a task, so an export of any size holds one batch in
//! memory at a time.

use std::pin::Pin;
use std::task::{Context, Poll};

use axum::body::{Body, Bytes};
use hyper::body::{Body as HttpBody, Frame};
use tokio::sync::mpsc;

/// Appends one cell: a leading `=`, `+`, `-`, `@` (or tab or carriage return, which some
/// spreadsheets skip before looking for one) gets a `'` in front, so the cell stays text;
/// then quoted as RFC 4180 says when it holds `"`, `,`, CR or LF.
pub fn push_cell(out: &mut String, value: &str) {
    let neutralise = value.starts_with(['=', '+', '-', '@', '\t', '\r']);
    let quote = value.contains(['"', ',', '\r', '\n']);
    if quote {
        out.push('"');
    }
    if neutralise {
        out.push('\'');
    }
    if quote {
        for c in value.chars() {
            if c == '"' {
                out.push('"');
            }
            out.push(c);
        }
        out.push('"');
    } else {
        out.push_str(value);
    }
}

/// Appends one row of cells, ended by CRLF.
pub fn push_row<S: AsRef<str>>(out: &mut String, cells: &[S]) {
    for (i, cell) in cells.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_cell(out, cell.as_ref());
    }
    out.push_str("\r\n");
}

/// Why an export stopped before its end (the client sees the connection cut, never a
/// complete-looking file that lacks rows).
#[derive(Debug)]
pub struct ExportFailed;

impl std::fmt::Display for ExportFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the export could not read its next rows")
    }
}

impl std::error::Error for ExportFailed {}

/// How many chunks may wait between the task that reads rows and the connection: the task
/// reads the next batch only when the connection took one.
const QUEUED_CHUNKS: usize = 1;

/// The sending half an export task writes its chunks into.
pub type ChunkSender = mpsc::Sender<Result<Bytes, ExportFailed>>;

/// A body and the sender that feeds it.
pub fn channel() -> (ChunkSender, Body) {
    let (tx, rx) = mpsc::channel(QUEUED_CHUNKS);
    (tx, Body::new(ChunkBody { rx }))
}

struct ChunkBody {
    rx: mpsc::Receiver<Result<Bytes, ExportFailed>>,
}

impl HttpBody for ChunkBody {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        self.get_mut()
            .rx
            .poll_recv(cx)
            .map(|chunk| chunk.map(|r| r.map(Frame::data).map_err(axum::Error::new)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(cells: &[&str]) -> String {
        let mut out = String::new();
        push_row(&mut out, cells);
        out
    }

    #[test]
    fn cells_are_quoted_as_rfc_4180_says() {
        assert_eq!(row(&["plain", "", "two words"]), "plain,,two words\r\n");
        assert_eq!(
            row(&["a,b", "say \"hi\"", "line\nbreak", "cr\rx"]),
            "\"a,b\",\"say \"\"hi\"\"\",\"line\nbreak\",\"cr\rx\"\r\n"
        );
    }

    #[test]
    fn formulas_are_neutralised() {
        assert_eq!(
            row(&["=1+1", "+14125550134", "-2", "@SUM(A1)", "\tx", "a=b"]),
            "'=1+1,'+14125550134,'-2,'@SUM(A1),'\tx,a=b\r\n"
        );
        assert_eq!(
            row(&["=HYPERLINK(\"http://x\",\"y\")"]),
            "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"\r\n"
        );
        assert_eq!(row(&["\r\n=1"]), "\"'\r\n=1\"\r\n");
    }
}
