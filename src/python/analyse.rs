//! `cathedral.analyse`: the whole-game review of `cathedral analyse --json`, as Python data,
//! the same two stages and the same marks for the same game and budget.

use super::args::{Whole, name};
use super::records::{PyRecord, with_record};
use super::search::{check_nodes, check_threads, check_tt_mb, duration, interruptible};
use super::{CathedralError, to_python};
use crate::analysis::game::analyse_game;
use crate::analysis::{Budget, REVIEW_TT_MB, Recheck};
use pyo3::prelude::*;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// A loss or a difference of values for the second stage, in the game's units: 0 to 100, as
/// the command line's `--recheck-from` and `--recheck-unstable` take them.
fn check_units(option: &str, value: Option<f64>) -> PyResult<Option<f64>> {
    match value {
        Some(v) if !(0.0..=100.0).contains(&v) => Err(CathedralError::new_err(format!(
            "{option}={v}: expected a number from 0 to 100, in the game's units (Cathedral: squares)"
        ))),
        _ => Ok(value),
    }
}

/// Reviews a recorded game as ``cathedral analyse --json`` does: every position judged (exact
/// where the solver proves it, an estimate otherwise, and each value says which), each move's
/// loss, mark (``inaccuracy``, ``mistake``, ``blunder``) and notes, the turning points and each
/// player's summary. ``nodes_per_move`` (reproducible: the same marks on every machine, and as
/// the board and the command line give them) or ``time_per_move`` (seconds) bounds each
/// judgement. The moves the first judgements leave in doubt are judged again deeper (the
/// game's default second stage; ``single_stage=True`` judges each position once, and
/// ``recheck_factor``, ``recheck_from``, ``recheck_unstable``, ``recheck_turns`` change it as the command line's
/// ``--recheck-*`` do). ``threads``: positions judged at once (0 = all cores). Runs without the
/// GIL; Ctrl-C raises ``KeyboardInterrupt`` (the positions judged after it are unreliable, so
/// nothing is returned).
#[pyfunction]
#[pyo3(
    signature = (record, *, nodes_per_move = None, time_per_move = 1.0, threads = 0, tt_mb = REVIEW_TT_MB as i128, single_stage = false, recheck_factor = None, recheck_from = None, recheck_unstable = None, recheck_turns = None),
    text_signature = "(record, *, nodes_per_move=None, time_per_move=1.0, threads=0, tt_mb=32, single_stage=False, recheck_factor=None, recheck_from=None, recheck_unstable=None, recheck_turns=None)"
)]
#[allow(clippy::too_many_arguments)]
pub fn analyse<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = name::record)] record: PyRef<'py, PyRecord>,
    #[pyo3(from_py_with = name::nodes_per_move)] nodes_per_move: Option<i128>,
    #[pyo3(from_py_with = name::time_per_move)] time_per_move: f64,
    #[pyo3(from_py_with = name::threads)] threads: i128,
    #[pyo3(from_py_with = name::tt_mb)] tt_mb: i128,
    #[pyo3(from_py_with = name::single_stage)] single_stage: bool,
    #[pyo3(from_py_with = name::recheck_factor)] recheck_factor: Option<i128>,
    #[pyo3(from_py_with = name::recheck_from)] recheck_from: Option<f64>,
    #[pyo3(from_py_with = name::recheck_unstable)] recheck_unstable: Option<f64>,
    #[pyo3(from_py_with = name::recheck_turns)] recheck_turns: Option<f64>,
) -> PyResult<Bound<'py, PyAny>> {
    let nodes =
        check_nodes(nodes_per_move).map_err(|_| nodes_error(nodes_per_move.unwrap_or_default()))?;
    let time = duration("time_per_move", Some(time_per_move), false)?;
    let threads = check_threads(threads)?;
    let tt_mb = check_tt_mb(tt_mb)?;
    let factor = recheck_factor
        .map(|f| f.within("recheck_factor", 2..=1000, "a whole number from 2 to 1000"))
        .transpose()?;
    let from_loss = check_units("recheck_from", recheck_from)?;
    let unstable = check_units("recheck_unstable", recheck_unstable)?;
    let turns_from = check_units("recheck_turns", recheck_turns)?;
    if single_stage
        && (factor.is_some() || from_loss.is_some() || unstable.is_some() || turns_from.is_some())
    {
        return Err(CathedralError::new_err(
            "single_stage=True judges each position once: drop recheck_factor, recheck_from, recheck_unstable and recheck_turns, or single_stage",
        ));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| {
            CathedralError::new_err(format!("threads={threads}: cannot start them: {e}"))
        })?;
    let stop = Arc::new(AtomicBool::new(false));
    with_record!(&record.inner, r, G => {
        let budget = Budget {
            nodes,
            // A node budget is the whole budget (the same review on every machine).
            time: if nodes.is_some() { None } else { time },
            tt_mb,
            stop: Arc::clone(&stop),
            recheck: Recheck::chosen::<G>(single_stage, factor, from_loss, unstable, turns_from),
        };
        let analysis = interruptible(
            py,
            &stop,
            || pool.install(|| analyse_game::<G>(r, &budget, &|_, _| {})),
            |_, _| Err(CathedralError::new_err("interrupted: nothing is kept")),
        )?;
        to_python(py, &analysis)
    })
}

/// `check_nodes`'s error under this function's name for the option.
fn nodes_error(nodes: i128) -> PyErr {
    CathedralError::new_err(format!(
        "nodes_per_move={nodes}: expected 1 to {} nodes per position",
        crate::frontend::limits::MAX_BUDGET
    ))
}
