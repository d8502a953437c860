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
//!
//! A connection's plain GETs of cached pages are answered by `wire` off its bytes before hyper
//! sees it; its first request of another kind hands it, with the bytes read, to hyper.
//!
//! Connections run on [`Workers`]: one single-threaded runtime per core, each bound to its
//! core, as nginx runs one event loop per worker process. The listener accepts on the main
//! runtime and hands each connection to the worker on the CPU its packets arrive on
//! (`cpus::incoming`), unless that one holds many more than the others, where it stays: a request, its answer and the connection's
//! timers never cross threads (docs/decisions/030-the-cached-page-at-the-limit.md measures
//! what that saves over tokio's work-stealing scheduler).

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use axum::extract::ConnectInfo;
use axum::http::{HeaderValue, header};
use axum::response::Response;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::runtime::Handle;
use tokio::sync::{oneshot, watch};
use tower::Service;

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

/// The threads connections run on: one single-threaded tokio runtime each, with its own
/// reactor and timers. A task a request spawns (an export's stream, a lazily opened database
/// connection) runs on its connection's worker, so the workers must outlive the store:
/// [`Workers::stop`] comes last, after the background tasks have finished. Dropping them
/// without `stop` only tells their threads to end.
pub struct Workers {
    handles: Vec<Handle>,
    /// Each worker's open connections (for [`Workers::spawn_near`]'s balance).
    open: Vec<Arc<AtomicUsize>>,
    /// The CPU each worker is bound to, when it is (Linux, with the CPUs the process may use).
    cpus: Vec<Option<usize>>,
    threads: Vec<(JoinHandle<()>, oneshot::Sender<()>)>,
}

/// A connection goes to the worker on the CPU its packets arrive on unless that worker holds
/// this many connections more than the least busy one.
const NEAR_SLACK: usize = 8;

impl Workers {
    /// One worker per core the process may run on, each bound to its core.
    pub fn per_core() -> std::io::Result<Arc<Self>> {
        Self::start(std::thread::available_parallelism().map_or(1, usize::from))
    }

    pub fn start(count: usize) -> std::io::Result<Arc<Self>> {
        let allowed = crate::cpus::allowed();
        let count = count.max(1);
        let mut handles = Vec::with_capacity(count);
        let mut threads = Vec::with_capacity(count);
        let mut cpus = Vec::with_capacity(count);
        for n in 0..count {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
            handles.push(runtime.handle().clone());
            // Bound to a CPU of its own when there are as many as workers.
            let cpu = (allowed.len() >= count).then(|| allowed[n]);
            cpus.push(cpu);
            let (stop, stopped) = oneshot::channel::<()>();
            let thread = std::thread::Builder::new().name(format!("site-connections-{n}")).spawn(move || {
                if let Some(cpu) = cpu {
                    crate::cpus::bind_this_thread(cpu);
                }
                // Runs its connections' tasks until told to stop (or its `Workers` is gone);
                // the runtime is dropped here, on its own thread, with what is left on it.
                runtime.block_on(async {
                    let _ = stopped.await;
                });
            })?;
            threads.push((thread, stop));
        }
        Ok(Arc::new(Self {
            handles,
            open: (0..count).map(|_| Arc::new(AtomicUsize::new(0))).collect(),
            cpus,
            threads,
        }))
    }

    /// Runs a connection's `task` on the worker bound to `cpu`, the CPU the connection's
    /// packets arrive on, so that its answers are made where its requests were received,
    /// unless that worker already holds [`NEAR_SLACK`] connections more than the least busy
    /// one; otherwise (no such worker, or no CPU known) on the least busy.
    fn spawn_near(&self, cpu: Option<usize>, task: impl Future<Output = ()> + Send + 'static) {
        let load = |n: usize| self.open[n].load(Ordering::Relaxed);
        let least = (0..self.handles.len()).min_by_key(|&n| load(n)).unwrap_or(0);
        let near = cpu.and_then(|cpu| self.cpus.iter().position(|c| *c == Some(cpu)));
        let n = match near {
            Some(n) if load(n) <= load(least) + NEAR_SLACK => n,
            _ => least,
        };
        self.spawn_on(n, task);
    }

    fn spawn_on(&self, n: usize, task: impl Future<Output = ()> + Send + 'static) {
        let open = Arc::clone(&self.open[n]);
        open.fetch_add(1, Ordering::Relaxed);
        drop(self.handles[n].spawn(async move {
            task.await;
            open.fetch_sub(1, Ordering::Relaxed);
        }));
    }

    /// Stops every worker, dropping the tasks still on them, and waits for their threads.
    /// Call it once nothing serves or spawns on them any more.
    pub fn stop(self: Arc<Self>) {
        match Arc::try_unwrap(self) {
            Ok(workers) => {
                for (thread, stop) in workers.threads {
                    let _ = stop.send(());
                    let _ = thread.join();
                }
            }
            // Still shared (a listener that has not returned): its drop tells the threads to end.
            Err(shared) => drop(shared),
        }
    }
}

/// What answers one connection's requests, made for the connection's peer. Handlers see the
/// peer's address as `ConnectInfo<SocketAddr>` in a request's extensions: the site's
/// `app::Site` puts it there only when the router will see the request (a cached page needs
/// none, and the extensions' map is an allocation); a plain router gets it in every request.
/// The services are always ready (neither the site nor a router waits in `poll_ready`), so a
/// connection calls them without asking.
pub trait ForPeer: Clone + Send + 'static {
    type Service: Service<hyper::Request<Incoming>, Response = Response, Error = Infallible, Future: Send + Unpin + 'static>
        + crate::wire::Answers
        + Send
        + 'static;
    fn for_peer(&self, peer: SocketAddr) -> Self::Service;
}

impl ForPeer for axum::Router {
    type Service = WithPeer;
    fn for_peer(&self, peer: SocketAddr) -> WithPeer {
        WithPeer {
            router: self.clone(),
            peer,
        }
    }
}

/// A router whose every request carries the peer's address.
#[derive(Clone)]
pub struct WithPeer {
    router: axum::Router,
    peer: SocketAddr,
}

/// A plain router answers nothing off the connection's bytes: hyper has every request.
impl crate::wire::Answers for WithPeer {
    fn cached(&mut self, _: &crate::wire::Get<'_>) -> Option<crate::wire::Wire> {
        None
    }
}

impl Service<hyper::Request<Incoming>> for WithPeer {
    type Response = Response;
    type Error = Infallible;
    type Future = axum::routing::future::RouteFuture<Infallible>;

    fn poll_ready(&mut self, _: &mut std::task::Context<'_>) -> std::task::Poll<Result<(), Infallible>> {
        std::task::Poll::Ready(Ok(()))
    }

    fn call(&mut self, mut request: hyper::Request<Incoming>) -> Self::Future {
        request.extensions_mut().insert(ConnectInfo(self.peer));
        self.router.call(request)
    }
}

/// Serves `service` (the site's `app::Site`, or a plain router) on `listener` until
/// `shutdown` resolves, then drains and stops as described above, `draining` set for the drain
/// (and left set). Each connection runs on one of `workers`, answered by
/// `service.for_peer(its peer)`.
pub async fn serve<S>(
    listener: TcpListener,
    service: S,
    options: ServeOptions,
    shutdown: impl Future<Output = ()>,
    draining: Arc<AtomicBool>,
    workers: Arc<Workers>,
) where
    S: ForPeer,
{
    let (stop, stopped) = watch::channel(false);
    // Every connection task holds a receiver: all are done when the sender sees none left.
    let (open, open_rx) = watch::channel(());
    let accept = |accepted: std::io::Result<(TcpStream, SocketAddr)>| {
        let (stream, peer) = accepted?;
        // Out of this runtime's reactor, into the worker's.
        let stream = stream.into_std()?;
        let (service, stopped, draining, open_rx) = (service.clone(), stopped.clone(), Arc::clone(&draining), open_rx.clone());
        let cpu = crate::cpus::incoming(&stream);
        workers.spawn_near(cpu, async move {
            match TcpStream::from_std(stream) {
                Ok(stream) => connection(stream, service.for_peer(peer), options, stopped, draining).await,
                Err(e) => tracing::warn!(error = %e, "cannot take over an accepted connection"),
            }
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

/// One connection: its plain GETs of cached pages answered off its bytes (`wire`) until a
/// request of another kind, then hyper with the bytes read and not answered, for the rest.
async fn connection<S>(stream: TcpStream, mut site: S, options: ServeOptions, mut stopped: watch::Receiver<bool>, draining: Arc<AtomicBool>)
where
    S: Service<hyper::Request<Incoming>, Response = Response, Error = Infallible> + crate::wire::Answers + Send + 'static,
    S::Future: Send + Unpin + 'static,
{
    let _ = stream.set_nodelay(true);
    let mut stream = crate::zero_copy::Stream::new(stream);
    match crate::wire::serve(&mut stream, &mut site, options.header_timeout, &mut stopped, &draining).await {
        crate::wire::Ended::Hyper(read) => stream.give_back(read),
        crate::wire::Ended::Closed => return,
    }
    let service = OneConnection {
        site: std::sync::Mutex::new(site),
        draining,
    };
    let mut builder = http1::Builder::new();
    builder.timer(TokioTimer::new()).header_read_timeout(options.header_timeout);
    let mut conn = std::pin::pin!(builder.serve_connection(TokioIo::new(stream), service));
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

/// The connection's service for hyper: its own copy of the site, called for each request
/// without cloning it again (the lock is never contended: one connection's requests are
/// called one at a time, on its worker).
struct OneConnection<S> {
    site: std::sync::Mutex<S>,
    draining: Arc<AtomicBool>,
}

impl<S> hyper::service::Service<hyper::Request<Incoming>> for OneConnection<S>
where
    S: Service<hyper::Request<Incoming>, Response = Response, Error = Infallible>,
    S::Future: Unpin,
{
    type Response = Response;
    type Error = Infallible;
    type Future = Finish<S::Future>;

    fn call(&self, request: hyper::Request<Incoming>) -> Self::Future {
        let answer = self.site.lock().unwrap_or_else(|p| p.into_inner()).call(request);
        Finish {
            answer,
            draining: Arc::clone(&self.draining),
        }
    }
}

/// The site's answer; while draining, it closes its connection (no connection is kept for
/// another request).
struct Finish<F> {
    answer: F,
    draining: Arc<AtomicBool>,
}

impl<F: Future<Output = Result<Response, Infallible>> + Unpin> Future for Finish<F> {
    type Output = Result<Response, Infallible>;

    fn poll(mut self: std::pin::Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> std::task::Poll<Self::Output> {
        let Ok(mut response) = std::task::ready!(std::pin::Pin::new(&mut self.answer).poll(cx));
        if self.draining.load(Ordering::Relaxed) {
            response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
        }
        std::task::Poll::Ready(Ok(response))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Connections all arriving on one CPU (a network card with one receive queue) go to that
    /// CPU's worker only while it holds at most `NEAR_SLACK` more than the other.
    #[test]
    fn connections_go_to_the_cpu_that_received_them_while_the_workers_stay_balanced() {
        let workers = Workers::start(2).expect("workers");
        let (release, hold) = watch::channel(false);
        let first = workers.cpus[0];
        for _ in 0..40 {
            let mut hold = hold.clone();
            workers.spawn_near(first, async move {
                let _ = hold.wait_for(|go| *go).await;
            });
        }
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        while workers.open.iter().map(|o| o.load(Ordering::Relaxed)).sum::<usize>() < 40 && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        let (a, b) = (workers.open[0].load(Ordering::Relaxed), workers.open[1].load(Ordering::Relaxed));
        assert_eq!(a + b, 40);
        if first.is_some() {
            // Bound to CPUs: the first worker took what the slack allows, the other the rest.
            assert_eq!(a, 24, "{a} and {b}");
        } else {
            assert!(a.abs_diff(b) <= 1, "{a} and {b}");
        }
        let _ = release.send(true);
        while workers.open.iter().any(|o| o.load(Ordering::Relaxed) > 0) && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(
            workers.open.iter().all(|o| o.load(Ordering::Relaxed) == 0),
            "a finished connection is uncounted"
        );
        workers.stop();
    }
}
