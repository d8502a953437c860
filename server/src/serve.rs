//! The HTTP/1 connection loop the site runs on (in place of `axum::serve`, which sets no
//! deadline on a request head): each connection must send its request head within
//! `server.header_timeout_ms`; body and whole-request deadlines are `api::guard`'s.
//!
//! On shutdown, with `server.shutdown_drain_ms` set (several servers behind a load
//! balancer), the server first drains: for that long it keeps accepting and answering,
//! while `/healthz` answers 503 (the `draining` flag) and every answer closes its
//! connection, so the balancer's health checks take it out and no request is sent on a
//! connection the server is about to close. Then the listener closes, idle connections are
//! closed, and requests in flight get `server.shutdown_grace_ms` to finish before the rest
//! are dropped.

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::extract::ConnectInfo;
use axum::http::{HeaderValue, header};
use axum::response::Response;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tower::{Service, ServiceExt};

use crate::config::ServerConfig;

#[derive(Debug, Clone, Copy)]
pub struct ServeOptions {
    pub header_timeout: Duration,
    pub shutdown_grace: Duration,
    pub shutdown_drain: Duration,
}

impl ServeOptions {
    pub fn from_config(server: &ServerConfig) -> Self {
        Self {
            header_timeout: Duration::from_millis(server.header_timeout_ms),
            shutdown_grace: Duration::from_millis(server.shutdown_grace_ms),
            shutdown_drain: Duration::from_millis(server.shutdown_drain_ms),
        }
    }
}

/// Serves `service` (the site's `app::Site`, or a plain router) on `listener` until
/// `shutdown` resolves, then drains and stops as described above, `draining` set for the drain
/// (and left set). Handlers see the peer's address as `ConnectInfo<SocketAddr>`.
pub async fn serve<S>(
    listener: TcpListener,
    service: S,
    options: ServeOptions,
    shutdown: impl Future<Output = ()>,
    draining: Arc<AtomicBool>,
) where
    S: Service<hyper::Request<Incoming>, Response = Response, Error = Infallible> + Clone + Send + 'static,
    S::Future: Send + 'static,
{
    let (stop, stopped) = watch::channel(false);
    // Every connection task holds a receiver: all are done when the sender sees none left.
    let (open, open_rx) = watch::channel(());
    let accept = |accepted: std::io::Result<(TcpStream, SocketAddr)>| {
        let (stream, peer) = accepted?;
        let task = connection(stream, peer, service.clone(), options, stopped.clone(), Arc::clone(&draining));
        let open_rx = open_rx.clone();
        tokio::spawn(async move {
            task.await;
            drop(open_rx);
        });
        Ok::<(), std::io::Error>(())
    };
    accept_until(&listener, shutdown, &accept).await;
    if !options.shutdown_drain.is_zero() {
        draining.store(true, Ordering::SeqCst);
        tracing::info!(
            drain_ms = options.shutdown_drain.as_millis() as u64,
            "draining: /healthz answers 503 and every answer closes its connection; still serving"
        );
        accept_until(&listener, tokio::time::sleep(options.shutdown_drain), &accept).await;
    }
    drop(listener);
    let _ = stop.send(true);
    drop(open_rx);
    if tokio::time::timeout(options.shutdown_grace, open.closed()).await.is_err() {
        tracing::warn!(
            connections = open.receiver_count(),
            grace_ms = options.shutdown_grace.as_millis() as u64,
            "requests still in flight after the shutdown grace period; closing them"
        );
    }
}

/// Hands every connection `listener` accepts to `accept` until `until` resolves.
async fn accept_until(
    listener: &TcpListener,
    until: impl Future<Output = ()>,
    accept: &impl Fn(std::io::Result<(TcpStream, SocketAddr)>) -> std::io::Result<()>,
) {
    let mut until = std::pin::pin!(until);
    loop {
        tokio::select! {
            accepted = listener.accept() => if let Err(e) = accept(accepted) {
                // Out of file descriptors and the like: wait a little rather than spin.
                tracing::warn!(error = %e, "cannot accept a connection");
                tokio::time::sleep(Duration::from_millis(100)).await;
            },
            () = &mut until => return,
        }
    }
}

async fn connection<S>(
    stream: TcpStream,
    peer: SocketAddr,
    site: S,
    options: ServeOptions,
    mut stopped: watch::Receiver<bool>,
    draining: Arc<AtomicBool>,
) where
    S: Service<hyper::Request<Incoming>, Response = Response, Error = Infallible> + Clone + Send + 'static,
    S::Future: Send + 'static,
{
    let _ = stream.set_nodelay(true);
    let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
        request.extensions_mut().insert(ConnectInfo(peer));
        let (site, draining) = (site.clone(), Arc::clone(&draining));
        async move {
            let mut response = site.oneshot(request).await?;
            // While draining, no connection is kept for another request.
            if draining.load(Ordering::Relaxed) {
                response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
            }
            Ok::<_, Infallible>(response)
        }
    });
    let mut builder = http1::Builder::new();
    builder.timer(TokioTimer::new()).header_read_timeout(options.header_timeout);
    let mut conn = std::pin::pin!(builder.serve_connection(TokioIo::new(crate::zero_copy::Stream::new(stream)), service));
    loop {
        tokio::select! {
            result = conn.as_mut() => {
                if let Err(e) = result {
                    tracing::debug!(error = %e, "connection ended");
                }
                return;
            }
            changed = stopped.changed() => {
                conn.as_mut().graceful_shutdown();
                if changed.is_err() {
                    // The server is gone: just let the connection finish.
                    let _ = conn.as_mut().await;
                    return;
                }
            }
        }
    }
}
