//! A fixed pool of engines, each on its own thread, fed through one bounded queue.
//! A full queue is refused at once (the caller answers 503) instead of piling up work.

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
        for n in 0..options.engines.max(1) {
            let jobs = Arc::clone(&jobs);
            let factory = Arc::clone(&factory);
            let ready = ready_tx.clone();
            thread::Builder::new()
                .name(format!("render-{n}"))
                .stack_size(options.thread_stack_bytes)
                .spawn(move || worker(&*factory, &jobs, ready, options.timeout))
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
        })
    }

    pub fn engines(&self) -> usize {
        self.engines
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
            Err(TrySendError::Full(_)) => return Err(RenderError::QueueFull),
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
