//! What can go wrong while serving a page, and the one place it becomes an HTTP answer:
//! the server-only 500 and 503 pages.

use std::sync::Arc;

use askama::Template;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use thiserror::Error;

use crate::config::Config;
use crate::render::RenderError;
use crate::render::document::ErrorPage;

#[derive(Debug, Error)]
pub enum AppError {
    #[error(transparent)]
    Render(#[from] RenderError),
    #[error("template: {0}")]
    Template(#[from] askama::Error),
    #[error("worker: {0}")]
    Join(String),
}

/// The server-only pages for 500 and 503, rendered once at start.
#[derive(Debug)]
pub struct ErrorPages {
    internal: String,
    busy: String,
}

impl ErrorPages {
    pub fn new(config: &Config, css: &str) -> Result<Self, askama::Error> {
        let phone = config.site.support_phone.display();
        let tel = config.site.support_phone.tel_href();
        let page = |title: &str, message: &str| {
            ErrorPage {
                title,
                message,
                brand: &config.site.brand,
                css,
                phone: &phone,
                tel_href: &tel,
            }
            .render()
        };
        Ok(Self {
            internal: page(
                "Something went wrong",
                "We could not show this page just now. Please try again in a moment.",
            )?,
            busy: page(
                "We are very busy",
                "Too many people are loading pages right now. Please try again in a few seconds.",
            )?,
        })
    }
}

/// Turns an error into its answer: 503 with Retry-After when the render queue is full,
/// otherwise a logged 500 with the error page. Nothing internal reaches the client.
pub fn respond(pages: &Arc<ErrorPages>, error: AppError) -> Response {
    let html = |status: StatusCode, body: &str| {
        let mut r = (status, body.to_string()).into_response();
        r.headers_mut()
            .insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
        r.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        r
    };
    match error {
        AppError::Render(RenderError::QueueFull) => {
            tracing::warn!("render queue full; answering 503");
            let mut r = html(StatusCode::SERVICE_UNAVAILABLE, &pages.busy);
            r.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
            r
        }
        other => {
            tracing::error!(error = %other, "page failed");
            html(StatusCode::INTERNAL_SERVER_ERROR, &pages.internal)
        }
    }
}
