//! PostgreSQL: what the writer's queue carries (`writer.rs` takes it; `leads.rs` and
//! `submissions.rs` put their writes on it), and how a write is queued.

use tokio::sync::oneshot;

use super::PgStore;
use crate::leads::{NewLead, TokenRecord};
use crate::store::{Channel, Mail, NewSubmission, StoreError, Submitted};

/// A write for the writer, with where to send its answer.
pub(super) enum Op {
    Lead {
        lead: Box<NewLead>,
        channels: Vec<Channel>,
        now_ms: i64,
        reply: oneshot::Sender<Result<Submitted, StoreError>>,
    },
    Token {
        record: TokenRecord,
        now_ms: i64,
        reply: oneshot::Sender<Result<(), StoreError>>,
    },
    Form {
        submission: Box<NewSubmission>,
        /// The submission's, derived once by `submit_form`.
        dedupe_key: String,
        mail: Option<Mail>,
        now_ms: i64,
        reply: oneshot::Sender<Result<Submitted, StoreError>>,
    },
}

/// What the writer's queue carries.
pub(super) enum Queued {
    Write(Op),
    /// Answered once the group it was taken with is finished (`Writer::ping`).
    Ping(oneshot::Sender<()>),
}

impl PgStore {
    /// Queues a write for the writer.
    pub(super) async fn send(&self, op: Op) -> Result<(), StoreError> {
        self.queue(Queued::Write(op)).await
    }

    /// Queues anything for the writer (fails once it has stopped).
    pub(super) async fn queue(&self, queued: Queued) -> Result<(), StoreError> {
        let sender = self
            .writer
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
            .ok_or(StoreError::WriterStopped)?;
        sender.send(queued).await.map_err(|_| StoreError::WriterStopped)
    }
}
