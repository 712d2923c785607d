//! The service over HTTP: every `/api/...` request goes to [`Service::call`] on a blocking
//! thread, its answer back as JSON, a live search's events as server-sent events, an error as
//! its status with `{"error": "..."}` (and `Retry-After: 1` when every search slot is taken).
//! A request whose client goes away is dropped by the server, and its search stops.

use super::AppState;
use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use cathedral::service::{ApiError, Method, Reply, Running};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tokio::sync::mpsc;

/// An error of the service as an HTTP answer.
pub(crate) struct HttpError(pub ApiError);

impl IntoResponse for HttpError {
    fn into_response(self) -> Response {
        let status =
            StatusCode::from_u16(self.0.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let mut response = (status, Json(self.0.to_json())).into_response();
        if self.0.is_busy() {
            response.headers_mut().insert(
                header::RETRY_AFTER,
                axum::http::HeaderValue::from_static("1"),
            );
        }
        response
    }
}

/// Sets the flag when dropped: a request whose client went away is dropped by the server, and
/// its search stops.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

pub(crate) async fn get(State(state): State<Arc<AppState>>, Path(path): Path<String>) -> Response {
    call(&state, Method::Get, path, Bytes::new()).await
}

pub(crate) async fn post(
    State(state): State<Arc<AppState>>,
    Path(path): Path<String>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim_start().starts_with("application/json"));
    if !json {
        return HttpError(ApiError::new(
            415,
            "send JSON with `Content-Type: application/json`".into(),
        ))
        .into_response();
    }
    match body {
        Ok(body) => call(&state, Method::Post, path, body).await,
        // Larger than any endpoint takes: refused in the service's words.
        Err(rejection) if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE => HttpError(
            cathedral::service::too_large(cathedral::service::MAX_RECORD),
        )
        .into_response(),
        Err(rejection) => HttpError(ApiError::new(
            rejection.status().as_u16(),
            format!(
                "the request's body could not be read: {}",
                rejection.body_text()
            ),
        ))
        .into_response(),
    }
}

/// One request to the service, off the async workers (a search blocks its thread).
async fn call(state: &Arc<AppState>, method: Method, path: String, body: Bytes) -> Response {
    let stop = Arc::new(AtomicBool::new(false));
    let _guard = StopOnDrop(Arc::clone(&stop));
    let service = Arc::clone(&state.service);
    let answer = tokio::task::spawn_blocking(move || {
        service.call(method, &format!("/api/{path}"), &body, &stop)
    })
    .await;
    match answer {
        Ok(Ok(Reply::Json(value))) => Json(value).into_response(),
        Ok(Ok(Reply::Live(live))) => {
            let (sender, receiver) = mpsc::unbounded_channel();
            let _ = sender.send(live.started);
            let work = live.work;
            tokio::task::spawn_blocking(move || {
                work(&mut move |event| {
                    let _ = sender.send(event);
                })
            });
            events(receiver, live.running).into_response()
        }
        Ok(Err(error)) => HttpError(error).into_response(),
        Err(_) => HttpError(ApiError::new(500, "the search failed".into())).into_response(),
    }
}

/// The events sent to `receiver` as a server-sent stream, which holds `running` (so that the
/// search stops when the stream is dropped: finished, or its client gone).
fn events(
    receiver: mpsc::UnboundedReceiver<cathedral::service::Event>,
    running: Running,
) -> Sse<impl futures_util::stream::Stream<Item = Result<Event, std::convert::Infallible>>> {
    let stream =
        futures_util::stream::unfold((receiver, running), |(mut receiver, running)| async move {
            let next = receiver.recv().await?;
            let event = Event::default().event(next.name).data(next.data);
            Some((Ok(event), (receiver, running)))
        });
    Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(1)))
}

/// The answer for a path outside the page and the API.
pub(crate) async fn not_found() -> Response {
    HttpError(cathedral::service::not_found()).into_response()
}

/// The answer for a file of the page that does not exist.
pub(crate) fn not_found_page(name: &str) -> Response {
    HttpError(ApiError::new(
        404,
        format!("no such file of the page: `{name}`"),
    ))
    .into_response()
}
