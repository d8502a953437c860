//! A fixed pool of engines, each on its own thread, fed through one bounded queue.
//! A full queue is refused at once (the caller answers 503) instead of piling up work.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use tokio::sync::oneshot;

use super::{Engine, RenderError};

#[derive(Debug, Clone, Copy)]
pub struct PoolOptions {
    pub engines: usize,
    pub queue: usize,
    pub timeout: Duration,
    /// Stack of each engine thread.
    pub thread_stack_bytes: usize,
}

struct Job {
    page: String,
    props: String,
    reply: oneshot::Sender<Result<String, RenderError>>,
}

pub struct RenderPool {
    queue: SyncSender<Job>,
    engines: usize,
    /// Engine threads still running (one that cannot rebuild its engine stops).
    live: Arc<AtomicUsize>,
    /// Renders refused because the queue was full (answered 503), for /metrics.
    rejected: std::sync::atomic::AtomicU64,
}

/// Counts its thread out of the pool when the thread ends, however it ends.
struct Alive(Arc<AtomicUsize>);

impl Drop for Alive {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

impl RenderPool {
    /// Starts `options.engines` threads, each building its engine with `factory`, and waits
    /// until every engine is ready: a bundle that cannot load fails here, at start.
    pub fn start<E, F>(factory: F, options: PoolOptions) -> Result<Self, RenderError>
    where
        E: Engine + 'static,
        F: Fn() -> Result<E, RenderError> + Send + Sync + 'static,
    {
        let (queue, jobs) = mpsc::sync_channel::<Job>(options.queue);
        let jobs = Arc::new(Mutex::new(jobs));
        let factory = Arc::new(factory);
        let (ready_tx, ready_rx) = mpsc::channel();
        let live = Arc::new(AtomicUsize::new(0));
        for n in 0..options.engines.max(1) {
            let jobs = Arc::clone(&jobs);
            let factory = Arc::clone(&factory);
            let ready = ready_tx.clone();
            live.fetch_add(1, Ordering::Relaxed);
            let alive = Alive(Arc::clone(&live));
            thread::Builder::new()
                .name(format!("render-{n}"))
                .stack_size(options.thread_stack_bytes)
                .spawn(move || {
                    let _alive = alive;
                    worker(&*factory, &jobs, ready, options.timeout)
                })
                .map_err(|e| RenderError::Engine(format!("cannot start render thread: {e}")))?;
        }
        drop(ready_tx);
        for _ in 0..options.engines.max(1) {
            match ready_rx.recv() {
                Ok(Ok(())) => {}
                Ok(Err(e)) => return Err(e),
                Err(_) => return Err(RenderError::Engine("a render thread died while starting".into())),
            }
        }
        Ok(Self {
            queue,
            engines: options.engines.max(1),
            live,
            rejected: std::sync::atomic::AtomicU64::new(0),
        })
    }

    pub fn engines(&self) -> usize {
        self.engines
    }

    /// Renders refused so far because the queue was full.
    pub fn rejected(&self) -> u64 {
        self.rejected.load(Ordering::Relaxed)
    }

    /// Engine threads running now (`/healthz` reports a pool with none).
    pub fn live_engines(&self) -> usize {
        self.live.load(Ordering::Relaxed)
    }

    /// Queues a render and waits for it. Never blocks the async runtime.
    pub async fn render(&self, page: &str, props: &str) -> Result<String, RenderError> {
        let (reply, answer) = oneshot::channel();
        let job = Job {
            page: page.to_string(),
            props: props.to_string(),
            reply,
        };
        match self.queue.try_send(job) {
            Ok(()) => {}
            Err(TrySendError::Full(_)) => {
                self.rejected.fetch_add(1, Ordering::Relaxed);
                return Err(RenderError::QueueFull);
            }
            Err(TrySendError::Disconnected(_)) => return Err(RenderError::Stopped),
        }
        answer.await.unwrap_or(Err(RenderError::Stopped))
    }
}

fn worker<E: Engine>(
    factory: &dyn Fn() -> Result<E, RenderError>,
    jobs: &Mutex<Receiver<Job>>,
    ready: mpsc::Sender<Result<(), RenderError>>,
    timeout: Duration,
) {
    let mut engine = match factory() {
        Ok(e) => {
            let _ = ready.send(Ok(()));
            e
        }
        Err(e) => {
            let _ = ready.send(Err(e));
            return;
        }
    };
    drop(ready);
    loop {
        // Hold the lock only to take one job; a poisoned lock means another worker panicked
        // while waiting, which leaves the receiver itself intact.
        let job = {
            let guard = jobs.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            guard.recv()
        };
        let Ok(job) = job else { return };
        let result = engine.render(&job.page, &job.props, timeout);
        if let Err(e @ (RenderError::Timeout(_) | RenderError::Engine(_))) = &result {
            // An interrupted or exhausted engine is replaced, so one bad render never poisons the next.
            tracing::warn!(error = %e, "replacing render engine");
            match factory() {
                Ok(fresh) => engine = fresh,
                Err(err) => {
                    tracing::error!(error = %err, "cannot rebuild render engine; thread stops");
                    let _ = job.reply.send(result);
                    return;
                }
            }
        }
        let _ = job.reply.send(result);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicU32;

    use super::*;

    /// An engine that fails every render with an engine error.
    struct Broken;

    impl Engine for Broken {
        fn render(&mut self, _: &str, _: &str, _: Duration) -> Result<String, RenderError> {
            Err(RenderError::Engine("out of memory".into()))
        }
    }

    #[tokio::test]
    async fn a_thread_that_cannot_rebuild_its_engine_is_counted_out() {
        let built = Arc::new(AtomicU32::new(0));
        let counter = Arc::clone(&built);
        // The first engine builds; its replacement cannot.
        let factory = move || match counter.fetch_add(1, Ordering::Relaxed) {
            0 => Ok(Broken),
            _ => Err(RenderError::Engine("cannot load the bundle".into())),
        };
        let options = PoolOptions {
            engines: 1,
            queue: 4,
            timeout: Duration::from_secs(1),
            thread_stack_bytes: 1 << 20,
        };
        let pool = RenderPool::start(factory, options).expect("pool");
        assert_eq!(pool.live_engines(), 1);
        assert!(pool.render("home", "{}").await.is_err());
        for _ in 0..200 {
            if pool.live_engines() == 0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert_eq!(pool.live_engines(), 0, "the stopped thread is no longer counted");
        assert_eq!(pool.engines(), 1);
    }
}
