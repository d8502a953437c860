//! The checks every request passes before any handler, applied to the whole router in
//! `app.rs`, so an endpoint added later gets them without asking:
//!
//! - every request is answered within `server.request_timeout_ms`;
//! - a state-changing request (anything but GET, HEAD, OPTIONS) is refused when another
//!   site's page made it (`security::cross_site`, docs/decisions/008), when its client's
//!   rate limit is spent (429; not for a signed-in staff session, which the console
//!   charges to a budget of its own), or when its declared Content-Length is over
//!   `api.max_body_bytes` (413 at once, before the body is read); its body must arrive in
//!   full within `server.body_timeout_ms` of the request's arrival (408);
//! - a body left unread, by a refusal or a handler, is read and thrown away for a few seconds
//!   after the answer, so that a client still sending it reads the answer rather than a
//!   reset connection (`LINGER`).
//!
//! Refusals are the API's one error answer (JSON), or a short HTML page for a plain form post.

use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use hyper::body::{Body as HttpBody, Frame, SizeHint};

use super::ApiError;
use crate::security::cross_site::{self, Verdict};
use crate::security::rate_limit::{OwnBudget, client_ip, warn_if_forwarded};
use crate::state::AppState;

/// The visitor's address as the guard judged it (forwarding rules applied), for handlers.
#[derive(Debug, Clone, Copy)]
pub struct ClientIp(pub Option<IpAddr>);

/// The error a request body gives once its deadline has passed.
#[derive(Debug)]
pub struct BodyDeadline;

impl std::fmt::Display for BodyDeadline {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the request body did not arrive in time")
    }
}

impl std::error::Error for BodyDeadline {}

/// Middleware: see the module documentation.
pub async fn guard(State(state): State<Arc<AppState>>, request: Request, next: Next) -> Response {
    let server = &state.config.server;
    let whole = Duration::from_millis(server.request_timeout_ms);
    // Not on a cached page (`app::Site` answers those before the guard): the first asset or
    // form the visitor's page asks for brings the warning.
    if !server.trust_forwarded_for {
        warn_if_forwarded(request.headers());
    }
    if matches!(*request.method(), Method::GET | Method::HEAD | Method::OPTIONS) {
        return match tokio::time::timeout(whole, next.run(request)).await {
            Ok(response) => response,
            Err(_) => (
                StatusCode::SERVICE_UNAVAILABLE,
                "The server took too long to answer. Please try again.",
            )
                .into_response(),
        };
    }
    // From here the body has its deadline, and a body left unread (refused below, or by a
    // handler) is still read for a while after the answer (`DeadlineBody`'s drop).
    let deadline = tokio::time::sleep(Duration::from_millis(server.body_timeout_ms));
    let mut request = request.map(|body| {
        Body::new(DeadlineBody {
            inner: body,
            deadline: Box::pin(deadline),
            ended: false,
        })
    });
    let form = is_form(request.headers());
    let refuse = |error: ApiError| {
        state.metrics.rejected(error.reason());
        if form { error.into_html_response() } else { error.into_response() }
    };
    let verdict = cross_site::judge(request.headers(), &state.config.site.public_url);
    if verdict != Verdict::Allowed {
        tracing::warn!(rule = ?verdict, path = %request.uri().path(), "cross-site request refused");
        return refuse(ApiError::CrossSite);
    }
    let peer = request.extensions().get::<ConnectInfo<SocketAddr>>().map(|c| c.0);
    let ip = client_ip(request.headers(), peer, server);
    // The rate limit is part of the request's time: on PostgreSQL it asks the database,
    // which may stall (it then falls back to this server's count well within this).
    let (refuse, state) = (&refuse, &state);
    let checked = async move {
        if let Some(ip) = ip
            && request.extensions().get::<OwnBudget>().is_none()
            && let Err(limited) = state.rate_limiter.check(ip).await
        {
            return refuse(limited.into());
        }
        if declared_length(request.headers()).is_some_and(|n| n > state.config.api.max_body_bytes as u64) {
            return refuse(ApiError::TooLarge);
        }
        request.extensions_mut().insert(ClientIp(ip));
        next.run(request).await
    };
    match tokio::time::timeout(whole, checked).await {
        Ok(response) => response,
        Err(_) => refuse(ApiError::Timeout),
    }
}

fn is_form(headers: &HeaderMap) -> bool {
    headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_some_and(|v| {
        let v = v.trim_start().to_ascii_lowercase();
        v.starts_with("application/x-www-form-urlencoded") || v.starts_with("multipart/form-data")
    })
}

/// The Content-Length the client declared, if it is a number.
fn declared_length(headers: &HeaderMap) -> Option<u64> {
    headers.get(header::CONTENT_LENGTH)?.to_str().ok()?.trim().parse().ok()
}

/// How long a body left unread is still read after the answer, and how much of it at most.
/// A client still sending a body the server refused (a 413, a 429, a cross-site post) is
/// sending it when the answer comes: closed at once with its bytes unread, the connection is
/// reset, and the client, still writing, never reads the answer. Reading the rest for a
/// while first, as nginx's lingering close does, lets it read the answer.
const LINGER: Duration = Duration::from_secs(5);
const LINGER_MAX_BYTES: usize = 32 << 20;

/// A request body that fails with [`BodyDeadline`] once its deadline has passed, however
/// steadily the bytes trickle in. Dropped before its end, it hands the rest to a task that
/// reads and discards it ([`LINGER`]).
struct DeadlineBody {
    inner: Body,
    deadline: Pin<Box<tokio::time::Sleep>>,
    /// Read to its end (a chunked body does not say so through `is_end_stream`).
    ended: bool,
}

impl HttpBody for DeadlineBody {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        let this = self.get_mut();
        if let Poll::Ready(frame) = Pin::new(&mut this.inner).poll_frame(cx) {
            this.ended |= frame.is_none();
            return Poll::Ready(frame);
        }
        match this.deadline.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Some(Err(axum::Error::new(BodyDeadline)))),
            Poll::Pending => Poll::Pending,
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

impl Drop for DeadlineBody {
    fn drop(&mut self) {
        if self.ended || self.inner.is_end_stream() {
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        runtime.spawn(linger(std::mem::replace(&mut self.inner, Body::empty())));
    }
}

/// Reads `body` to its end and throws it away, for at most [`LINGER`] and
/// [`LINGER_MAX_BYTES`]; dropping it then lets the server close the connection.
async fn linger(mut body: Body) {
    let drain = async {
        let mut read = 0;
        while let Some(Ok(frame)) = std::future::poll_fn(|cx| Pin::new(&mut body).poll_frame(cx)).await {
            read += frame.data_ref().map_or(0, Bytes::len);
            if read > LINGER_MAX_BYTES {
                break;
            }
        }
    };
    let _ = tokio::time::timeout(LINGER, drain).await;
}
