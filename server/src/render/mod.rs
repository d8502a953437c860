//! Server-side rendering: React components run in an embedded JavaScript engine.
//!
//! - [`Engine`] is the one interface an engine implements (QuickJS today, see `quickjs`).
//! - [`RenderPool`] runs N engines, each pinned to its own thread, fed by two bounded queues
//!   ([`Lane`]s): public renders, and signed-in staff renders, which also have engines of their own.
//! - [`cache`] keeps each rendered document, compressed, keyed by everything it depends on.
//! - [`document`] wraps the markup in the askama HTML shell.
//!
//! This layer knows nothing of pages or HTTP: `pages` drives it and turns its failures
//! into answers.

pub mod cache;
pub mod document;
pub mod pool;
pub mod quickjs;

use std::time::Duration;

use thiserror::Error;

pub use pool::{Lane, PoolOptions, RenderPool};

#[derive(Debug, Error, Clone, PartialEq)]
pub enum RenderError {
    /// The page code threw.
    #[error("render threw: {0}")]
    Threw(String),
    /// The render ran past its time limit and was interrupted.
    #[error("render timed out after {0:?}")]
    Timeout(Duration),
    /// The engine failed (out of memory, bad bundle, …); the worker replaces it.
    #[error("engine failure: {0}")]
    Engine(String),
    /// Every engine is busy and the queue is full.
    #[error("render queue is full")]
    QueueFull,
    /// The pool has shut down.
    #[error("render pool is not running")]
    Stopped,
}

/// A JavaScript engine that can render a page. One instance lives on one thread.
pub trait Engine {
    /// Renders `page` with its props (JSON) to HTML markup, within `timeout`.
    fn render(&mut self, page: &str, props_json: &str, timeout: Duration) -> Result<String, RenderError>;
}
