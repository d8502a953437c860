//! A fixed pool of engines, each on its own thread, fed through two bounded queues (lanes):
//! public renders and signed-in staff renders. The pool's engines take staff work first,
//! then public work; the reserved staff engines take staff work only. So public traffic can
//! neither fill the queue a staff render waits in nor hold every engine that could serve it.
//! A full queue is refused at once (the caller answers 503) instead of piling up work.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, mpsc};
use std::thread;
use std::time::Duration;

use tokio::sync::oneshot;

use super::{Engine, RenderError};

/// Which queue a render waits in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lane {
    /// Pages for visitors: the pool's engines only.
    Public,
    /// Console pages for a signed-in staff member: the reserved engines, and the pool's
    /// engines ahead of any public work.
    Staff,
}

impl Lane {
    fn index(self) -> usize {
        match self {
            Lane::Public => 0,
            Lane::Staff => 1,
        }
    }
}

#[derive(Debug, Clone, Copy)]
pub struct PoolOptions {
    /// Engines for any render (staff work first).
    pub engines: usize,
    /// Engines for staff renders only (0: none reserved).
    pub staff_engines: usize,
    /// Renders that may wait in each lane's queue.
    pub queue: usize,
    pub timeout: Duration,
    /// Stack of each engine thread.
    pub thread_stack_bytes: usize,
}

struct Job {
    page: String,
    props: String,
    lane: Lane,
    reply: oneshot::Sender<Result<String, RenderError>>,
}

/// What an engine thread may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Serves {
    /// Staff work first, then public work.
    Both,
    StaffOnly,
}

#[derive(Default)]
struct Queues {
    public: VecDeque<Job>,
    staff: VecDeque<Job>,
    /// Engine threads still running, of each kind.
    live_both: usize,
    live_staff_only: usize,
    /// Set when the pool is dropped: threads finish what is queued and end.
    closed: bool,
}

impl Queues {
    fn lane(&mut self, lane: Lane) -> &mut VecDeque<Job> {
        match lane {
            Lane::Public => &mut self.public,
            Lane::Staff => &mut self.staff,
        }
    }

    /// Whether a running engine may take work from `lane`.
    fn served(&self, lane: Lane) -> bool {
        match lane {
            Lane::Public => self.live_both > 0,
            Lane::Staff => self.live_both + self.live_staff_only > 0,
        }
    }
}

struct Shared {
    queues: Mutex<Queues>,
    /// Signalled when work is queued or the pool closes.
    wake: Condvar,
    capacity: usize,
    /// Renders finished (whatever their outcome), by lane.
    renders: [AtomicU64; 2],
    /// Renders refused because their lane's queue was full (answered 503), by lane.
    rejected: [AtomicU64; 2],
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Queues> {
        // A poisoned lock means a thread panicked while holding it; the queues stay usable.
        self.queues.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Blocks until there is work this thread may take; None once the pool is closed and
    /// nothing it may take is left.
    fn take(&self, serves: Serves) -> Option<Job> {
        let mut queues = self.lock();
        loop {
            if let Some(job) = queues.staff.pop_front() {
                return Some(job);
            }
            if serves == Serves::Both
                && let Some(job) = queues.public.pop_front()
            {
                return Some(job);
            }
            if queues.closed {
                return None;
            }
            queues = self.wake.wait(queues).unwrap_or_else(|poisoned| poisoned.into_inner());
        }
    }
}

pub struct RenderPool {
    shared: Arc<Shared>,
    engines: usize,
    staff_engines: usize,
}

/// Counts its thread out of the pool when the thread ends, however it ends; work that no
/// running engine may take any more is dropped (its caller gets `Stopped`).
struct Alive {
    shared: Arc<Shared>,
    serves: Serves,
}

impl Drop for Alive {
    fn drop(&mut self) {
        let mut queues = self.shared.lock();
        match self.serves {
            Serves::Both => queues.live_both -= 1,
            Serves::StaffOnly => queues.live_staff_only -= 1,
        }
        for lane in [Lane::Public, Lane::Staff] {
            if !queues.served(lane) {
                queues.lane(lane).clear();
            }
        }
    }
}

impl RenderPool {
    /// Starts `options.engines` threads for any work and `options.staff_engines` for staff
    /// work only, each building its engine with `factory`, and waits until every engine is
    /// ready: a bundle that cannot load fails here, at start.
    pub fn start<E, F>(factory: F, options: PoolOptions) -> Result<Self, RenderError>
    where
        E: Engine + 'static,
        F: Fn() -> Result<E, RenderError> + Send + Sync + 'static,
    {
        let engines = options.engines.max(1);
        let shared = Arc::new(Shared {
            queues: Mutex::new(Queues::default()),
            wake: Condvar::new(),
            capacity: options.queue,
            renders: Default::default(),
            rejected: Default::default(),
        });
        // Built first, so that a failure below drops it, which closes the queues and ends
        // the threads already started.
        let pool = Self {
            shared: Arc::clone(&shared),
            engines,
            staff_engines: options.staff_engines,
        };
        let factory = Arc::new(factory);
        let (ready_tx, ready_rx) = mpsc::channel();
        let threads = (0..engines)
            .map(|n| (format!("render-{n}"), Serves::Both))
            .chain((0..options.staff_engines).map(|n| (format!("render-staff-{n}"), Serves::StaffOnly)));
        let mut started = 0;
        for (name, serves) in threads {
            let factory = Arc::clone(&factory);
            let ready = ready_tx.clone();
            {
                let mut queues = shared.lock();
                match serves {
                    Serves::Both => queues.live_both += 1,
                    Serves::StaffOnly => queues.live_staff_only += 1,
                }
            }
            let alive = Alive {
                shared: Arc::clone(&shared),
                serves,
            };
            thread::Builder::new()
                .name(name)
                .stack_size(options.thread_stack_bytes)
                .spawn(move || worker(&*factory, alive, ready, options.timeout))
                .map_err(|e| RenderError::Engine(format!("cannot start render thread: {e}")))?;
            started += 1;
        }
        drop(ready_tx);
        for _ in 0..started {
            match ready_rx.recv() {
                Ok(Ok(())) => {}
                Ok(Err(e)) => return Err(e),
                Err(_) => return Err(RenderError::Engine("a render thread died while starting".into())),
            }
        }
        Ok(pool)
    }

    /// Engines public renders may use (warming the cache runs one task for each).
    pub fn engines(&self) -> usize {
        self.engines
    }

    /// Engines reserved for staff renders.
    pub fn staff_engines(&self) -> usize {
        self.staff_engines
    }

    /// Renders refused so far because a queue was full.
    pub fn rejected(&self) -> u64 {
        self.shared.rejected.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }

    /// Renders refused so far because `lane`'s queue was full.
    pub fn rejected_in(&self, lane: Lane) -> u64 {
        self.shared.rejected[lane.index()].load(Ordering::Relaxed)
    }

    /// Renders the engines have finished for `lane` (counted whatever their outcome).
    pub fn renders(&self, lane: Lane) -> u64 {
        self.shared.renders[lane.index()].load(Ordering::Relaxed)
    }

    /// Engine threads that public renders may use, running now (`/healthz` reports a pool
    /// with none).
    pub fn live_engines(&self) -> usize {
        self.shared.lock().live_both
    }

    /// Reserved staff engine threads running now.
    pub fn live_staff_engines(&self) -> usize {
        self.shared.lock().live_staff_only
    }

    /// Queues a render in `lane` and waits for it. Never blocks the async runtime.
    pub async fn render(&self, lane: Lane, page: &str, props: &str) -> Result<String, RenderError> {
        let (reply, answer) = oneshot::channel();
        let job = Job {
            page: page.to_string(),
            props: props.to_string(),
            lane,
            reply,
        };
        {
            let mut queues = self.shared.lock();
            if !queues.served(lane) {
                return Err(RenderError::Stopped);
            }
            let queue = queues.lane(lane);
            if queue.len() >= self.shared.capacity {
                self.shared.rejected[lane.index()].fetch_add(1, Ordering::Relaxed);
                return Err(RenderError::QueueFull);
            }
            queue.push_back(job);
        }
        // Every idle thread looks: a staff-only one cannot take public work, so waking just
        // one could wake the wrong one. There are only a handful of threads.
        self.shared.wake.notify_all();
        answer.await.unwrap_or(Err(RenderError::Stopped))
    }
}

impl Drop for RenderPool {
    fn drop(&mut self) {
        self.shared.lock().closed = true;
        self.shared.wake.notify_all();
    }
}

fn worker<E: Engine>(
    factory: &dyn Fn() -> Result<E, RenderError>,
    alive: Alive,
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
    let shared = Arc::clone(&alive.shared);
    while let Some(job) = shared.take(alive.serves) {
        let result = engine.render(&job.page, &job.props, timeout);
        shared.renders[job.lane.index()].fetch_add(1, Ordering::Relaxed);
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

    fn options(engines: usize, staff_engines: usize, queue: usize) -> PoolOptions {
        PoolOptions {
            engines,
            staff_engines,
            queue,
            timeout: Duration::from_secs(5),
            thread_stack_bytes: 1 << 20,
        }
    }

    /// An engine that fails every render with an engine error.
    struct Broken;

    impl Engine for Broken {
        fn render(&mut self, _: &str, _: &str, _: Duration) -> Result<String, RenderError> {
            Err(RenderError::Engine("out of memory".into()))
        }
    }

    /// What the test engines share: a gate that "hold" renders wait at, how many have
    /// started, and the props of every render in the order the engines took them.
    #[derive(Default)]
    struct Gate {
        held: Mutex<Option<mpsc::Receiver<()>>>,
        started: AtomicU32,
        log: Mutex<Vec<String>>,
    }

    /// An engine that answers with the name of its thread.
    struct Named(Arc<Gate>);

    impl Engine for Named {
        fn render(&mut self, page: &str, props: &str, _: Duration) -> Result<String, RenderError> {
            self.0.log.lock().unwrap_or_else(|p| p.into_inner()).push(props.to_string());
            if page == "hold" {
                self.0.started.fetch_add(1, Ordering::SeqCst);
                if let Some(held) = self.0.held.lock().unwrap_or_else(|p| p.into_inner()).as_ref() {
                    let _ = held.recv();
                }
            }
            Ok(thread::current().name().unwrap_or("").to_string())
        }
    }

    fn named_pool(engines: usize, staff_engines: usize, queue: usize) -> (Arc<RenderPool>, Arc<Gate>, mpsc::Sender<()>) {
        let (release, held) = mpsc::channel();
        let gate = Arc::new(Gate {
            held: Mutex::new(Some(held)),
            ..Default::default()
        });
        let shared = Arc::clone(&gate);
        let pool = RenderPool::start(move || Ok(Named(Arc::clone(&shared))), options(engines, staff_engines, queue)).expect("pool");
        (Arc::new(pool), gate, release)
    }

    async fn until(what: &str, mut done: impl FnMut() -> bool) {
        for _ in 0..2000 {
            if done() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        panic!("timed out waiting for {what}");
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
        let pool = RenderPool::start(factory, options(1, 0, 4)).expect("pool");
        assert_eq!(pool.live_engines(), 1);
        assert!(pool.render(Lane::Public, "home", "{}").await.is_err());
        for _ in 0..200 {
            if pool.live_engines() == 0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert_eq!(pool.live_engines(), 0, "the stopped thread is no longer counted");
        assert_eq!(pool.engines(), 1);
        assert_eq!(pool.render(Lane::Public, "home", "{}").await, Err(RenderError::Stopped));
        assert_eq!(pool.render(Lane::Staff, "home", "{}").await, Err(RenderError::Stopped));
    }

    #[tokio::test]
    async fn public_work_never_runs_on_a_staff_engine() {
        let (pool, _gate, _release) = named_pool(1, 1, 64);
        let mut public = tokio::task::JoinSet::new();
        for _ in 0..40 {
            let pool = Arc::clone(&pool);
            public.spawn(async move { pool.render(Lane::Public, "page", "{}").await });
        }
        let mut staff_threads = std::collections::BTreeSet::new();
        for _ in 0..40 {
            staff_threads.insert(pool.render(Lane::Staff, "page", "{}").await.expect("staff render"));
        }
        while let Some(done) = public.join_next().await {
            assert_eq!(done.expect("task").expect("public render"), "render-0");
        }
        assert!(
            staff_threads.iter().all(|t| t == "render-0" || t == "render-staff-0"),
            "{staff_threads:?}"
        );
        assert_eq!(pool.renders(Lane::Public), 40);
        assert_eq!(pool.renders(Lane::Staff), 40);
    }

    #[tokio::test]
    async fn a_full_public_queue_refuses_public_work_while_staff_work_goes_through() {
        let (pool, gate, release) = named_pool(1, 1, 2);
        // The one pool engine is held, and two more public renders fill the public queue.
        let mut public = tokio::task::JoinSet::new();
        for n in 0..3 {
            let pool = Arc::clone(&pool);
            public.spawn(async move { pool.render(Lane::Public, "hold", "{}").await });
            if n == 0 {
                until("the engine to take the first render", || gate.started.load(Ordering::SeqCst) == 1).await;
            }
        }
        until("a full queue", || pool.shared.lock().public.len() == 2).await;
        assert_eq!(pool.render(Lane::Public, "page", "{}").await, Err(RenderError::QueueFull));
        assert_eq!(pool.rejected_in(Lane::Public), 1);
        // Staff work is served by the reserved engine meanwhile.
        for _ in 0..10 {
            assert_eq!(pool.render(Lane::Staff, "page", "{}").await.as_deref(), Ok("render-staff-0"));
        }
        assert_eq!(pool.rejected_in(Lane::Staff), 0);
        for _ in 0..3 {
            release.send(()).expect("release");
        }
        while let Some(done) = public.join_next().await {
            assert_eq!(done.expect("task").as_deref(), Ok("render-0"));
        }
        assert_eq!(pool.rejected(), 1);
    }

    #[tokio::test]
    async fn staff_work_goes_ahead_of_queued_public_work() {
        // No reserved engine: staff renders still jump the public queue.
        let (pool, gate, release) = named_pool(1, 0, 8);
        let mut tasks = tokio::task::JoinSet::new();
        for props in ["held", "public-0", "public-1", "public-2"] {
            let pool = Arc::clone(&pool);
            let page = if props == "held" { "hold" } else { "page" };
            tasks.spawn(async move { pool.render(Lane::Public, page, props).await });
            if props == "held" {
                until("the engine to take the held render", || gate.started.load(Ordering::SeqCst) == 1).await;
            }
        }
        until("three public renders queued", || pool.shared.lock().public.len() == 3).await;
        let staff = {
            let pool = Arc::clone(&pool);
            tokio::spawn(async move { pool.render(Lane::Staff, "page", "staff").await })
        };
        until("the staff render queued", || pool.shared.lock().staff.len() == 1).await;
        release.send(()).expect("release");
        assert!(staff.await.expect("task").is_ok());
        while let Some(done) = tasks.join_next().await {
            assert!(done.expect("task").is_ok());
        }
        let log = gate.log.lock().unwrap_or_else(|p| p.into_inner()).clone();
        assert_eq!(log, ["held", "staff", "public-0", "public-1", "public-2"]);
    }
}
