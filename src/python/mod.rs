//! The Python module `cathedral._cathedral` (feature `python`): a thin front end that hands the
//! library's data to Python, the same code for every game. The Python package in `python/`
//! wraps it (`cathedral.Position`, `cathedral.solve`, the PettingZoo environment).
//!
//! Reports cross over as plain Python data (dicts, lists, numbers) converted from the same
//! serialised structs as the command line's `--json`, so the two never disagree. Searches run
//! without the GIL on a worker thread while the calling thread watches for Ctrl-C
//! ([`search::interruptible`]).

mod actions;
mod analyse;
mod arena;
mod args;
mod batch;
mod games;
mod play;
mod position;
mod records;
mod render;
mod search;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

pyo3::create_exception!(
    cathedral,
    CathedralError,
    PyValueError,
    "Base class of the errors the module raises for bad input (a ValueError)."
);
pyo3::create_exception!(
    cathedral,
    IllegalMoveError,
    CathedralError,
    "A move that cannot be played in the position, or text that is not a move; the message says why."
);
pyo3::create_exception!(
    cathedral,
    FileFormatError,
    CathedralError,
    "A position or record file that cannot be read; `path`, `line` and `column` locate the error."
);

/// A file error as a Python exception with its location as attributes.
fn file_error(py: Python<'_>, error: &crate::file::FileError) -> PyErr {
    let err = FileFormatError::new_err(error.to_string());
    let value = err.value(py);
    // Setting attributes on a fresh exception instance cannot fail in practice; if it did, the
    // message still carries the location.
    let _ = value.setattr("path", error.path.clone());
    let _ = value.setattr("line", error.line);
    let _ = value.setattr("column", error.column);
    let _ = value.setattr("reason", error.message.clone());
    err
}

/// Serialisable data as Python objects (dicts, lists, numbers, strings), through the JSON data
/// model so that Python gets exactly what `--json` prints (a pair is a list, as in JSON).
fn to_python<'py>(py: Python<'py>, value: &impl serde::Serialize) -> PyResult<Bound<'py, PyAny>> {
    let json = serde_json::to_value(value)
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(format!("internal error: {e}")))?;
    Ok(pythonize::pythonize(py, &json)?)
}

#[pymodule]
fn _cathedral(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("CathedralError", py.get_type::<CathedralError>())?;
    m.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    m.add("FileFormatError", py.get_type::<FileFormatError>())?;
    // The crate's version, which python/pyproject.toml repeats (a test compares the two).
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("GAMES", crate::frontend::GAMES.to_vec())?;
    m.add("ACTIONS", actions::Actions::get().len())?;
    m.add("PASS_ACTION", actions::Actions::get().pass())?;
    m.add("PLANES", crate::engine::inputs::PLANES)?;
    m.add("KINDS", actions::kind_names())?;
    m.add_class::<position::PyPosition>()?;
    m.add_class::<records::PyRecord>()?;
    m.add_class::<batch::PyBatch>()?;
    m.add_class::<arena::PyPair>()?;
    m.add_class::<arena::PySprt>()?;
    m.add_function(wrap_pyfunction!(play::play_pair, m)?)?;
    m.add_function(wrap_pyfunction!(play::play_game, m)?)?;
    m.add_function(wrap_pyfunction!(arena::match_summary, m)?)?;
    m.add_function(wrap_pyfunction!(play::player_name, m)?)?;
    m.add_function(wrap_pyfunction!(play::builtin_move, m)?)?;
    m.add_function(wrap_pyfunction!(play::ladder, m)?)?;
    m.add_function(wrap_pyfunction!(arena::_pair_from_state, m)?)?;
    m.add_function(wrap_pyfunction!(analyse::analyse, m)?)?;
    m.add_function(wrap_pyfunction!(search::solve, m)?)?;
    m.add_function(wrap_pyfunction!(search::bestmove, m)?)?;
    m.add_function(wrap_pyfunction!(records::read_records, m)?)?;
    m.add_function(wrap_pyfunction!(records::parse_records, m)?)?;
    m.add_function(wrap_pyfunction!(records::records_text, m)?)?;
    m.add_function(wrap_pyfunction!(actions::action_info, m)?)?;
    Ok(())
}
