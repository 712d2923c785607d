//! Searches that report while they work: `POST /api/solve/live` answers with events (`started`
//! with the solve's id, `progress` about every quarter second with the nodes and the proven
//! bounds, then `result` with the same report as `/api/solve`). `POST /api/solve/live/{id}/stop`
//! stops it early; the result then holds what was proven so far. The transport sends the events
//! (server-sent events over HTTP, messages from the browser's worker) and stops the search when
//! its requester goes away, by dropping the search's [`Running`].

use super::Service;
use super::api::{ApiError, GAME, GameRequest, read, replay};
use super::engine::search_time;
use crate::boardgame::solve;
use crate::present::words::progress_text;
use crate::report::SolveReport;
use serde::Serialize;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// One event of a live search: its name (`started`, `progress`, `result`) and its data as JSON.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// `started`, `progress` or `result`.
    pub name: &'static str,
    /// The event's data: a JSON object's text.
    pub data: String,
}

/// The event `name` with `data`.
pub(crate) fn event(name: &'static str, data: &impl Serialize) -> Event {
    Event {
        name,
        data: serde_json::to_string(data).unwrap_or_else(|_| "{}".into()),
    }
}

/// Where a live search sends its events.
pub type Emit = dyn FnMut(Event) + Send;

/// A live search, checked and given its slot, ready to run.
pub struct LiveSearch {
    /// The first event, to send at once: the search's id and what it will do.
    pub started: Event,
    /// Lists the search among the running ones (for its Stop) while held; dropping it stops
    /// the search.
    pub running: Running,
    /// The search: runs on the caller's thread, sending each event to the given function, the
    /// `result` last.
    pub work: Box<dyn FnOnce(&mut Emit) + Send>,
}

/// A live search's place among the running ones: its id and its stop flag. Dropped (the search
/// finished, or its requester left), it sets the flag and forgets the search.
pub struct Running {
    service: Arc<Service>,
    id: u64,
    stop: Arc<AtomicBool>,
}

impl Running {
    /// A new search's id and stop flag, listed among the running ones (for its Stop) until the
    /// `Running` is dropped.
    pub(crate) fn register(service: &Arc<Service>) -> Running {
        let stop = Arc::new(AtomicBool::new(false));
        let id = service.next_id.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut running) = service.running.lock() {
            running.insert(id, Arc::clone(&stop));
        }
        Running {
            service: Arc::clone(service),
            id,
            stop,
        }
    }

    /// The search's id, as its Stop names it.
    pub fn id(&self) -> u64 {
        self.id
    }

    /// The flag that stops the search.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Ok(mut running) = self.service.running.lock() {
            running.remove(&self.id);
        }
    }
}

#[derive(Serialize)]
struct Started {
    id: u64,
    /// The most time the solve may take, in milliseconds.
    time_ms: u64,
    /// The side to move, whose view the bounds of the progress take.
    to_move: crate::Player,
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

/// A solve of the position a game reaches that reports its progress and result.
pub(crate) fn solve_live(service: &Arc<Service>, body: &[u8]) -> Result<LiveSearch, ApiError> {
    let game: GameRequest = read(body, &GAME)?;
    let time = search_time(service, game.time_ms)?;
    let (position, _) = replay(&game)?;
    let slot = service.slot(None)?;
    let running = Running::register(service);
    let options = super::engine::solve_options(service, &position, time, running.stop_flag());
    let started = event(
        "started",
        &Started {
            id: running.id(),
            time_ms: time.as_millis() as u64,
            to_move: position.to_move(),
        },
    );
    let work = move |emit: &mut Emit| {
        let _slot = slot;
        // The solver reports from its own thread (hence the lock), one report at a time.
        let emit = std::sync::Mutex::new(emit);
        let solution = solve(&position, &options, &|progress| {
            if let Ok(mut emit) = emit.lock() {
                (*emit)(event(
                    "progress",
                    &ProgressEvent {
                        nodes: progress.nodes,
                        elapsed_ms: progress.elapsed.as_millis() as u64,
                        lower: progress.lower,
                        upper: progress.upper,
                        text: progress_text(progress),
                    },
                ));
            }
        });
        let result = super::engine::SolveAnswer::new(SolveReport::new(&position, &solution, false));
        if let Ok(mut emit) = emit.lock() {
            (*emit)(event("result", &result));
        }
    };
    Ok(LiveSearch {
        started,
        running,
        work: Box::new(work),
    })
}
