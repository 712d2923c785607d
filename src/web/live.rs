//! A solve that reports while it works: `POST /api/solve/live` answers with a stream of
//! server-sent events (`started` with the solve's id, `progress` about every quarter second with
//! the nodes and the proven bounds, then `result` with the same report as `/api/solve`).
//! `POST /api/solve/live/{id}/stop` stops it early; the result then holds what was proven so far.
//! A client that goes away stops its solve too.

use super::AppState;
use super::api::{ApiError, GAME, GameRequest, read, replay};
use super::engine::search_time;
use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use cathedral::boardgame::solve;
use cathedral::present::words::progress_text;
use cathedral::report::SolveReport;
use futures_util::stream::Stream;
use serde::Serialize;
use std::convert::Infallible;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tokio::sync::mpsc;

#[derive(Serialize)]
struct Started {
    id: u64,
    /// The most time the solve may take, in milliseconds.
    time_ms: u64,
}

#[derive(Serialize)]
struct ProgressEvent {
    nodes: u64,
    elapsed_ms: u64,
    lower: i32,
    upper: i32,
    /// The progress in one line, as the command line shows it.
    text: String,
}

/// Forgets a solve (or an analysis) and stops it, when its stream is dropped (finished, or the
/// client left).
pub(crate) struct Running {
    state: Arc<AppState>,
    id: u64,
    stop: Arc<AtomicBool>,
}

impl Running {
    /// A new search's id and stop flag, listed among the running ones (for its Stop) until the
    /// `Running` is dropped.
    pub(crate) fn register(state: &Arc<AppState>) -> Running {
        let stop = Arc::new(AtomicBool::new(false));
        let id = state.next_id.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut running) = state.running.lock() {
            running.insert(id, Arc::clone(&stop));
        }
        Running {
            state: Arc::clone(state),
            id,
            stop,
        }
    }

    pub(crate) fn id(&self) -> u64 {
        self.id
    }

    pub(crate) fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Ok(mut running) = self.state.running.lock() {
            running.remove(&self.id);
        }
    }
}

pub(crate) fn event(name: &str, data: &impl Serialize) -> Event {
    Event::default()
        .event(name)
        .data(serde_json::to_string(data).unwrap_or_else(|_| "{}".into()))
}

/// Starts a solve of the position a game reaches and streams its progress and result.
pub(crate) async fn solve_live(
    State(state): State<Arc<AppState>>,
    body: Result<Json<serde_json::Value>, JsonRejection>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let game: GameRequest = read(body, &GAME)?;
    let time = search_time(&state, game.time_ms)?;
    let (position, _) = replay(&game)?;
    let permit = Arc::clone(&state.searches)
        .try_acquire_owned()
        .map_err(|_| super::engine::busy(&state))?;
    let running = Running::register(&state);
    let (id, stop) = (running.id(), running.stop_flag());
    let (sender, receiver) = mpsc::unbounded_channel();
    let _ = sender.send(event(
        "started",
        &Started {
            id,
            time_ms: time.as_millis() as u64,
        },
    ));
    tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let progress_sender = sender.clone();
        let solution = solve(
            &position,
            &super::engine::solve_options(&position, time, stop),
            &move |progress| {
                let _ = progress_sender.send(event(
                    "progress",
                    &ProgressEvent {
                        nodes: progress.nodes,
                        elapsed_ms: progress.elapsed.as_millis() as u64,
                        lower: progress.lower,
                        upper: progress.upper,
                        text: progress_text(progress),
                    },
                ));
            },
        );
        let _ = sender.send(event(
            "result",
            &super::engine::SolveAnswer::new(SolveReport::new(&position, &solution, false)),
        ));
    });
    Ok(events(receiver, running))
}

/// The events sent to `receiver` as a server-sent stream, which holds `running` (so that the
/// search stops when the stream is dropped: finished, or its client gone).
pub(crate) fn events(
    receiver: mpsc::UnboundedReceiver<Event>,
    running: Running,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let stream =
        futures_util::stream::unfold((receiver, running), |(mut receiver, running)| async move {
            let next = receiver.recv().await?;
            Some((Ok(next), (receiver, running)))
        });
    Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(1)))
}

/// Stops a running solve; its stream then ends with what was proven.
pub(crate) async fn stop(
    State(state): State<Arc<AppState>>,
    Path(id): Path<u64>,
) -> Result<Json<serde_json::Value>, ApiError> {
    stop_one(&state, id, "solve")
}

/// Sets the stop flag of search `id` (a `what`: "solve", "analysis"), or 404.
pub(crate) fn stop_one(
    state: &AppState,
    id: u64,
    what: &str,
) -> Result<Json<serde_json::Value>, ApiError> {
    let flag = state
        .running
        .lock()
        .ok()
        .and_then(|running| running.get(&id).cloned());
    match flag {
        Some(flag) => {
            flag.store(true, Ordering::Relaxed);
            Ok(Json(serde_json::json!({"stopping": id})))
        }
        None => Err(ApiError::new(
            StatusCode::NOT_FOUND,
            format!("no {what} {id} is running: it has finished, or it never started"),
        )),
    }
}
