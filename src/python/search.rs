//! `cathedral.solve` and `cathedral.bestmove`: the command line's `solve --json` and
//! `bestmove --json` as Python data, run without the GIL and stoppable with Ctrl-C.

use super::args::{Whole, name};
use super::games::{AnyPosition, with_game};
use super::{CathedralError, file_error, to_python};
use crate::boardgame::engine::Tunables;
use crate::boardgame::{Method, SolveOptions};
use crate::book::Book;
use crate::cathedral::analysis::bestmove::BestMoveReport;
use crate::engine::{MAX_LEVEL, PlayOptions, choose};
use crate::frontend::EngineRequest;
use crate::frontend::limits::{MAX_BUDGET, MAX_SECONDS, MAX_TABLE_MIB, MAX_THREADS};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// How often the calling thread looks for Ctrl-C while the work runs.
const SIGNAL_POLL: Duration = Duration::from_millis(20);

/// Runs `work` on a worker thread without the GIL; the calling thread checks Python's signals
/// meanwhile. On Ctrl-C (or any signal handler raising) it sets `stop`, waits for the work to
/// wind down and raises the handler's exception (`KeyboardInterrupt`) with what the work found
/// by then as its `partial` attribute (`keep` turns it into Python data: a solve's proven bounds,
/// best move and line, as the command line prints them when interrupted). It returns as soon as
/// the work is done (a short search costs no polling delay).
pub(crate) fn interruptible<T: Send>(
    py: Python<'_>,
    stop: &Arc<AtomicBool>,
    work: impl FnOnce() -> T + Send,
    keep: impl FnOnce(Python<'_>, T) -> PyResult<Bound<'_, PyAny>>,
) -> PyResult<T> {
    let finished = Finished::default();
    std::thread::scope(|scope| {
        let handle = scope.spawn(|| {
            // Set when the work returns or panics.
            let _done = finished.on_drop();
            work()
        });
        while !py.detach(|| finished.wait(SIGNAL_POLL)) {
            if let Err(interrupt) = py.check_signals() {
                stop.store(true, Ordering::SeqCst);
                if let Ok(found) = py.detach(|| handle.join())
                    && let Ok(partial) = keep(py, found)
                {
                    // An exception instance takes attributes; if it did not, the interrupt
                    // still goes up, without what was found.
                    let _ = interrupt.value(py).setattr("partial", partial);
                }
                return Err(interrupt);
            }
        }
        py.detach(|| handle.join()).map_err(|panic| {
            let why = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("unknown");
            PyRuntimeError::new_err(format!("internal error (please report it): {why}"))
        })
    })
}

/// A flag the worker raises when it ends, which the calling thread waits on.
#[derive(Default)]
struct Finished {
    done: Mutex<bool>,
    signal: Condvar,
}

impl Finished {
    /// A guard that raises the flag when dropped (also by a panic's unwinding).
    fn on_drop(&self) -> impl Drop + '_ {
        struct Raise<'a>(&'a Finished);
        impl Drop for Raise<'_> {
            fn drop(&mut self) {
                *self.0.done.lock().unwrap_or_else(|e| e.into_inner()) = true;
                self.0.signal.notify_all();
            }
        }
        Raise(self)
    }

    /// Whether the flag is up, waiting at most `timeout` for it.
    fn wait(&self, timeout: Duration) -> bool {
        let done = self.done.lock().unwrap_or_else(|e| e.into_inner());
        let (done, _) = self
            .signal
            .wait_timeout_while(done, timeout, |done| !*done)
            .unwrap_or_else(|e| e.into_inner());
        *done
    }
}

/// A seed: any whole number from 0 up (a negative one is refused, naming the option).
pub(crate) fn check_seed(seed: i128) -> PyResult<u64> {
    seed.within("seed", 0..=u64::MAX, "a whole number from 0 up")
}

pub(crate) fn check_threads(threads: i128) -> PyResult<usize> {
    threads.size(
        "threads",
        0..=MAX_THREADS as u64,
        &format!("0 (all cores) to {MAX_THREADS}"),
    )
}

pub(crate) fn check_tt_mb(tt_mb: i128) -> PyResult<usize> {
    tt_mb.size(
        "tt_mb",
        1..=MAX_TABLE_MIB as u64,
        &format!("1 to {MAX_TABLE_MIB} (MiB)"),
    )
}

pub(crate) fn check_nodes(nodes: Option<i128>) -> PyResult<Option<u64>> {
    nodes
        .map(|n| n.within("nodes", 1..=MAX_BUDGET, &format!("1 to {MAX_BUDGET}")))
        .transpose()
}

/// Seconds as a duration: more than 0 (or 0 where `zero` allows it), at most a week.
pub(crate) fn duration(name: &str, seconds: Option<f64>, zero: bool) -> PyResult<Option<Duration>> {
    let Some(seconds) = seconds else {
        return Ok(None);
    };
    let low_ok = if zero { seconds >= 0.0 } else { seconds > 0.0 };
    if !(low_ok && seconds <= MAX_SECONDS as f64) {
        return Err(CathedralError::new_err(format!(
            "{name}={seconds}: expected seconds {} {MAX_SECONDS} (a week)",
            if zero {
                "from 0 to"
            } else {
                "above 0, at most"
            }
        )));
    }
    Ok(Some(Duration::from_secs_f64(seconds)))
}

/// Solves a position exactly, as `cathedral solve --json` reports it: the value from the side
/// to move's view, whether it is proven, the best line and (`root_values`) every root move's
/// value. `time` and `nodes` bound the solve (what is proven by then is returned, with bounds);
/// `wdl` asks only for win, draw or loss. `window=(alpha, beta)` decides the value only against
/// the window: at most alpha (`upper <= alpha`), at least beta (`lower >= beta`) or exact
/// between, with `complete` true once decided (no root values then). `method` is `"auto"`,
/// `"alpha-beta"` or `"proof-number"` (docs/solver.md, "Which method"). Runs without the GIL;
/// Ctrl-C raises `KeyboardInterrupt`.
#[pyfunction]
#[pyo3(
    signature = (position, *, time = None, nodes = None, threads = 1, tt_mb = 256, root_values = true, wdl = false, window = None, method = String::from("auto")),
    text_signature = "(position, *, time=None, nodes=None, threads=1, tt_mb=256, root_values=True, wdl=False, window=None, method='auto')"
)]
#[allow(clippy::too_many_arguments)]
pub fn solve<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = name::position)] position: AnyPosition,
    #[pyo3(from_py_with = name::time)] time: Option<f64>,
    #[pyo3(from_py_with = name::nodes)] nodes: Option<i128>,
    #[pyo3(from_py_with = name::threads)] threads: i128,
    #[pyo3(from_py_with = name::tt_mb)] tt_mb: i128,
    #[pyo3(from_py_with = name::root_values)] root_values: bool,
    #[pyo3(from_py_with = name::wdl)] wdl: bool,
    #[pyo3(from_py_with = name::window)] window: Option<(i128, i128)>,
    #[pyo3(from_py_with = name::method)] method: String,
) -> PyResult<Bound<'py, PyAny>> {
    let method = match method.as_str() {
        "auto" => Method::Auto,
        "alpha-beta" => Method::AlphaBeta,
        "proof-number" => Method::ProofNumbers,
        other => {
            return Err(CathedralError::new_err(format!(
                "method={other:?}: expected \"auto\", \"alpha-beta\" or \"proof-number\""
            )));
        }
    };
    let window = window
        .map(
            |(alpha, beta)| match (i32::try_from(alpha), i32::try_from(beta)) {
                (Ok(alpha), Ok(beta)) => Ok((alpha, beta)),
                _ => Err(CathedralError::new_err(format!(
                    "window=({alpha}, {beta}): expected whole numbers of squares"
                ))),
            },
        )
        .transpose()?;
    if let Some((alpha, beta)) = window {
        if alpha >= beta {
            return Err(CathedralError::new_err(format!(
                "window=({alpha}, {beta}): expected alpha below beta"
            )));
        }
        if wdl {
            return Err(CathedralError::new_err(
                "window with wdl: a window asks about squares, wdl only about the sign",
            ));
        }
    }
    let threads = check_threads(threads)?;
    let tt_mb = check_tt_mb(tt_mb)?;
    let nodes = check_nodes(nodes)?;
    let time_limit = duration("time", time, true)?;
    let stop = Arc::new(AtomicBool::new(false));
    let options = SolveOptions {
        threads,
        tt_mb,
        initial_tt_mb: Some(tt_mb.min(4)),
        wdl,
        time_limit,
        stop: Arc::clone(&stop),
        root_values,
        max_nodes: nodes,
        window,
        method,
        ..SolveOptions::default()
    };
    with_game!(position, p => {
        let report = interruptible(
            py,
            &stop,
            || crate::frontend::solve(&p, &options, &|_| {}).map(|(report, _)| report),
            |py, found| match found {
                Ok(report) => to_python(py, &report),
                Err(e) => Err(CathedralError::new_err(e)),
            },
        )?
        .map_err(CathedralError::new_err)?;
        to_python(py, &report)
    })
}

/// The engine's move, as `cathedral bestmove --json` reports it: the move, the value (exact
/// when the solver proved it, else the engine's estimate, and `judgement` says which), the
/// expected line and, for Cathedral, the `candidates` best moves ranked. In a position of the
/// opening `book` (`"bundled"`, `"none"` or a book file's path), at level 10, the book's move
/// with its statistics under `book`, as `cathedral bestmove --book` gives it. `time` (seconds) or
/// `nodes` (reproducible) bounds the thinking; `level` 1 to 10 weakens it (with `seed` for its
/// noise). Runs without the GIL; Ctrl-C raises `KeyboardInterrupt`.
#[pyfunction]
#[pyo3(
    signature = (position, *, time = 1.0, nodes = None, threads = 1, level = 10, seed = 0, tt_mb = 64, candidates = 1, book = String::from("bundled")),
    text_signature = "(position, *, time=1.0, nodes=None, threads=1, level=10, seed=0, tt_mb=64, candidates=1, book='bundled')"
)]
#[allow(clippy::too_many_arguments)]
pub fn bestmove<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = name::position)] position: AnyPosition,
    #[pyo3(from_py_with = name::time)] time: f64,
    #[pyo3(from_py_with = name::nodes)] nodes: Option<i128>,
    #[pyo3(from_py_with = name::threads)] threads: i128,
    #[pyo3(from_py_with = name::level)] level: i128,
    #[pyo3(from_py_with = name::seed)] seed: i128,
    #[pyo3(from_py_with = name::tt_mb)] tt_mb: i128,
    #[pyo3(from_py_with = name::candidates)] candidates: i128,
    #[pyo3(from_py_with = name::book)] book: String,
) -> PyResult<Bound<'py, PyAny>> {
    let threads = check_threads(threads)?;
    let tt_mb = check_tt_mb(tt_mb)?;
    let nodes = check_nodes(nodes)?;
    let seed = check_seed(seed)?;
    let time = duration("time", Some(time), false)?;
    let level = level.within(
        "level",
        1..=u64::from(MAX_LEVEL),
        &format!("1 (weakest) to {MAX_LEVEL} (full strength)"),
    )? as u8;
    let candidates = candidates.size("candidates", 1..=100, "1 to 100")?;
    let stop = Arc::new(AtomicBool::new(false));
    // A node budget is the whole budget (the same move on every machine).
    let time = if nodes.is_some() { None } else { time };
    match position {
        AnyPosition::Cathedral(p) => {
            if level == MAX_LEVEL {
                let owned;
                let book = match book.as_str() {
                    "none" => None,
                    "bundled" => Book::bundled_for(&p),
                    path => {
                        let text = std::fs::read_to_string(path).map_err(|e| {
                            CathedralError::new_err(format!(
                                "{path}: cannot read the opening book: {e}"
                            ))
                        })?;
                        owned = Book::parse(path, &text).map_err(|e| file_error(py, &e))?;
                        Some(&owned)
                    }
                };
                if let Some(report) =
                    book.and_then(|b| BestMoveReport::from_book(&p, b, candidates))
                {
                    return to_python(py, &report);
                }
            }
            let options = PlayOptions {
                nodes,
                time,
                threads,
                seed,
                level,
                tt_mb,
                stop: Arc::clone(&stop),
                candidates,
                ..PlayOptions::default()
            };
            let report = interruptible(
                py,
                &stop,
                || BestMoveReport::new(&p, &choose(&p, &options, &mut |_| {})),
                |py, found| to_python(py, &found),
            )?;
            to_python(py, &report)
        }
        AnyPosition::Corintho(p) => {
            if candidates > 1 {
                return Err(CathedralError::new_err(
                    "candidates: ranking moves is Cathedral's; solve(position) gives every root move's value",
                ));
            }
            let request = EngineRequest {
                level,
                nodes,
                time,
                clock: None,
                threads,
                tt_mb,
                seed,
                stop: Arc::clone(&stop),
                tunables: Tunables::default(),
            };
            let report = interruptible(
                py,
                &stop,
                || crate::frontend::bestmove(&p, &request),
                |py, found| to_python(py, &found),
            )?;
            to_python(py, &report)
        }
    }
}
