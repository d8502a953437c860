//! The QuickJS engine (through rquickjs): evaluates the SSR bundle once and then calls
//! `globalThis.render(page, propsJson)` for each page.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rquickjs::{CatchResultExt, CaughtError, Context, Function, Runtime};

use super::{Engine, RenderError};

/// Limits for one engine.
#[derive(Debug, Clone, Copy)]
pub struct QuickJsLimits {
    pub memory_bytes: usize,
    /// JS stack limit; must stay below the thread's own stack size.
    pub stack_bytes: usize,
}

pub struct QuickJsEngine {
    // Field order matters: the context must drop before its runtime.
    context: Context,
    runtime: Runtime,
    /// Deadline of the render in progress, as nanoseconds since `epoch`; 0 when idle.
    deadline: Arc<AtomicU64>,
    epoch: Instant,
}

impl QuickJsEngine {
    /// Creates a runtime with the limits and evaluates the bundle, which must define `globalThis.render`.
    pub fn new(bundle: &str, limits: QuickJsLimits) -> Result<Self, RenderError> {
        let engine = |e: rquickjs::Error| RenderError::Engine(e.to_string());
        let runtime = Runtime::new().map_err(engine)?;
        runtime.set_memory_limit(limits.memory_bytes);
        runtime.set_max_stack_size(limits.stack_bytes);
        let epoch = Instant::now();
        let deadline = Arc::new(AtomicU64::new(0));
        let watched = Arc::clone(&deadline);
        runtime.set_interrupt_handler(Some(Box::new(move || {
            let due = watched.load(Ordering::Relaxed);
            due != 0 && epoch.elapsed().as_nanos() as u64 > due
        })));
        let context = Context::full(&runtime).map_err(engine)?;
        context.with(|ctx| {
            ctx.eval::<(), _>(bundle)
                .catch(&ctx)
                .map_err(|e| RenderError::Engine(format!("bundle: {}", caught(e))))?;
            let render: Result<Function, _> = ctx.globals().get("render");
            render
                .map(|_| ())
                .map_err(|_| RenderError::Engine("the bundle does not define globalThis.render".into()))
        })?;
        Ok(Self {
            context,
            runtime,
            deadline,
            epoch,
        })
    }
}

impl Engine for QuickJsEngine {
    fn render(&mut self, page: &str, props_json: &str, timeout: Duration) -> Result<String, RenderError> {
        let due = self.epoch.elapsed() + timeout;
        self.deadline.store(due.as_nanos() as u64, Ordering::Relaxed);
        let result = self.context.with(|ctx| {
            // Looked up on every call: a handle kept across calls would outlive the runtime at exit.
            let render: Function = ctx.globals().get("render").map_err(|e| RenderError::Engine(e.to_string()))?;
            render.call::<_, String>((page, props_json)).catch(&ctx).map_err(|e| {
                if self.epoch.elapsed() > due {
                    RenderError::Timeout(timeout)
                } else {
                    classify(caught(e))
                }
            })
        });
        self.deadline.store(0, Ordering::Relaxed);
        self.runtime.run_gc();
        result
    }
}

fn classify(message: String) -> RenderError {
    if message.contains("out of memory") || message.contains("stack overflow") {
        RenderError::Engine(message)
    } else {
        RenderError::Threw(message)
    }
}

fn caught(e: CaughtError<'_>) -> String {
    match e {
        CaughtError::Exception(ex) => {
            let message = ex.message().unwrap_or_default();
            match ex.stack() {
                Some(stack) if !stack.is_empty() => format!("{message}\n{stack}"),
                _ => message,
            }
        }
        CaughtError::Value(v) => format!("thrown value: {v:?}"),
        CaughtError::Error(e) => e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: QuickJsLimits = QuickJsLimits {
        memory_bytes: 32 << 20,
        stack_bytes: 512 << 10,
    };
    const BUNDLE: &str = r#"
        globalThis.render = function (page, props) {
            if (page === "throw") throw new Error("boom from " + JSON.parse(props).who);
            if (page === "spin") { for (;;) {} }
            if (page === "hog") { const a = []; for (;;) a.push(new Array(100000).fill(1)); }
            return "<p>" + page + ":" + JSON.parse(props).who + "</p>";
        };
    "#;

    #[test]
    fn renders_and_survives_throw_timeout_and_oom() {
        let mut e = QuickJsEngine::new(BUNDLE, LIMITS).expect("engine");
        let t = Duration::from_millis(200);
        assert_eq!(e.render("home", r#"{"who":"a"}"#, t), Ok("<p>home:a</p>".into()));
        match e.render("throw", r#"{"who":"b"}"#, t) {
            Err(RenderError::Threw(m)) => assert!(m.contains("boom from b"), "{m}"),
            other => panic!("expected a throw, got {other:?}"),
        }
        assert_eq!(e.render("spin", "{}", t), Err(RenderError::Timeout(t)));
        assert_eq!(e.render("home", r#"{"who":"c"}"#, t), Ok("<p>home:c</p>".into()));
        assert!(matches!(e.render("hog", "{}", Duration::from_secs(5)), Err(RenderError::Engine(_))));
    }

    #[test]
    fn a_bundle_without_render_is_refused() {
        match QuickJsEngine::new("var x = 1;", LIMITS) {
            Err(RenderError::Engine(m)) => assert!(m.contains("globalThis.render")),
            other => panic!("expected refusal, got {:?}", other.err()),
        }
        assert!(matches!(
            QuickJsEngine::new("syntax error here(", LIMITS),
            Err(RenderError::Engine(_))
        ));
    }
}
