//! Game records (several games to a file) read and written from Python: `cathedral.Record`,
//! `read_records`, `parse_records` and `records_text`.

use super::args::{Whole, name};
use super::games::{AnyPosition, PythonGame};
use super::position::PyPosition;
use super::{CathedralError, IllegalMoveError, file_error, to_python};
use crate::Position;
use crate::corintho::CorinthoPosition;
use crate::file::FileError;
use crate::frontend::{Playable, Recorded, record_positions};
use pyo3::prelude::*;

/// A recorded game of either game (unboxed like a position: records are few and short-lived).
#[derive(Clone)]
#[allow(clippy::large_enum_variant)]
pub(crate) enum AnyRecord {
    Cathedral(<Position as Recorded>::Record),
    Corintho(<CorinthoPosition as Recorded>::Record),
}

/// Runs `$body` with `$r` bound to the record and `$g` naming its position type.
macro_rules! with_record {
    ($record:expr, $r:ident, $g:ident => $body:expr) => {
        match $record {
            $crate::python::records::AnyRecord::Cathedral($r) => {
                type $g = $crate::Position;
                $body
            }
            $crate::python::records::AnyRecord::Corintho($r) => {
                type $g = $crate::corintho::CorinthoPosition;
                $body
            }
        }
    };
}
pub(crate) use with_record;

/// One recorded game: where it starts, its moves, who played and what was said about it.
///
/// `Record(start, moves)` records a new game from `start` (a `Position`) with `moves` in the
/// game's notation, each checked as it is played.
#[pyclass(name = "Record", module = "cathedral", frozen)]
#[derive(Clone)]
pub struct PyRecord {
    pub(crate) inner: AnyRecord,
}

/// Plays `texts` from `start`, checking each move.
pub(crate) fn read_moves<G: Playable>(start: G, texts: &[String]) -> PyResult<Vec<G::Move>> {
    let mut position = start;
    let mut moves = Vec::with_capacity(texts.len());
    for (number, text) in texts.iter().enumerate() {
        let mv = if position.is_over() {
            Err("the game is over".to_string())
        } else {
            position.parse_move(text).map_err(|why| why.to_string())
        }
        .map_err(|why| {
            IllegalMoveError::new_err(format!(
                "move {}: `{text}` cannot be played: {why}",
                number + 1
            ))
        })?;
        position.play(mv);
        moves.push(mv);
    }
    Ok(moves)
}

fn record_texts<G: Recorded>(record: &G::Record) -> Vec<String> {
    let mut position = G::record_start(record);
    G::record_moves(record)
        .into_iter()
        .map(|mv| {
            let text = position.move_text_with_player(mv);
            position.play(mv);
            text
        })
        .collect()
}

fn wrap_positions<G: PythonGame>(record: &G::Record) -> Vec<PyPosition> {
    record_positions::<G>(record)
        .into_iter()
        .map(|p| PyPosition::of(p.wrap()))
        .collect()
}

#[pymethods]
impl PyRecord {
    #[new]
    #[pyo3(signature = (start, moves = None))]
    fn new(
        #[pyo3(from_py_with = name::start)] start: AnyPosition,
        #[pyo3(from_py_with = name::moves)] moves: Option<Vec<String>>,
    ) -> PyResult<PyRecord> {
        let moves = moves.unwrap_or_default();
        let inner = match start {
            AnyPosition::Cathedral(p) => {
                AnyRecord::Cathedral(Position::new_record(p, &read_moves(p, &moves)?))
            }
            AnyPosition::Corintho(p) => {
                AnyRecord::Corintho(CorinthoPosition::new_record(p, &read_moves(p, &moves)?))
            }
        };
        Ok(PyRecord { inner })
    }

    /// The game: `"cathedral"` or `"corintho"`.
    #[getter]
    fn game(&self) -> &'static str {
        with_record!(&self.inner, _r, G => G::NAME)
    }

    /// The position the game starts from.
    #[getter]
    fn start(&self) -> PyPosition {
        with_record!(&self.inner, r, G => PyPosition::of(G::record_start(r).wrap()))
    }

    /// The moves, each in the game's notation as record files write them (with the player).
    #[getter]
    fn moves(&self) -> Vec<String> {
        with_record!(&self.inner, r, G => record_texts::<G>(r))
    }

    /// The position after every move, the start first.
    fn positions(&self) -> Vec<PyPosition> {
        with_record!(&self.inner, r, G => wrap_positions::<G>(r))
    }

    /// The position after the last move.
    #[getter]
    fn end(&self) -> PyPosition {
        let mut positions = self.positions();
        positions.pop().unwrap_or_else(|| self.start())
    }

    /// Who played, where and when, and the result, as `cathedral replay --json` gives them.
    #[getter]
    fn meta<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        with_record!(&self.inner, r, G => to_python(py, &G::record_meta(r)))
    }

    /// Each move's comment (`None` where there is none).
    #[getter]
    fn comments(&self) -> Vec<Option<String>> {
        with_record!(&self.inner, r, G => G::move_comments(r))
    }

    /// The comment on the whole game.
    #[getter]
    fn comment(&self) -> Option<String> {
        with_record!(&self.inner, r, G => G::record_comment(r).map(str::to_string))
    }

    /// "Game 1: Ann (Light) v Bob (Dark), Club night, 2026-11-20".
    #[pyo3(signature = (number = 1))]
    fn heading(&self, #[pyo3(from_py_with = name::number)] number: i128) -> PyResult<String> {
        let number = number.size("number", 1..=u32::MAX as u64, "1 or more")?;
        Ok(with_record!(&self.inner, r, G => G::record_heading(r, number)))
    }

    /// A new record: this game with `moves` (in the game's notation) played after its end.
    fn extended(
        &self,
        #[pyo3(from_py_with = name::moves)] moves: Vec<String>,
    ) -> PyResult<PyRecord> {
        let mut inner = self.inner.clone();
        match &mut inner {
            AnyRecord::Cathedral(r) => {
                let end = *record_positions::<Position>(r)
                    .last()
                    .unwrap_or(&Position::record_start(r));
                Position::extend_record(r, &read_moves(end, &moves)?);
            }
            AnyRecord::Corintho(r) => {
                let end = *record_positions::<CorinthoPosition>(r)
                    .last()
                    .unwrap_or(&CorinthoPosition::record_start(r));
                CorinthoPosition::extend_record(r, &read_moves(end, &moves)?);
            }
        }
        Ok(PyRecord { inner })
    }

    /// The record file's text (YAML) of this one game.
    fn text(&self) -> PyResult<String> {
        records_text_of(std::slice::from_ref(self))
    }

    fn __len__(&self) -> usize {
        with_record!(&self.inner, r, G => G::record_moves(r).len())
    }

    fn __repr__(&self) -> String {
        format!(
            "<cathedral.Record {}: {} moves>",
            self.game(),
            self.__len__()
        )
    }
}

fn parse_any(name: &str, text: &str) -> Result<Vec<PyRecord>, FileError> {
    let wrap = |inner| PyRecord { inner };
    match crate::frontend::declared_game(text).as_deref() {
        None | Some("cathedral") => Ok(Position::parse_records(name, text)?
            .into_iter()
            .map(|r| wrap(AnyRecord::Cathedral(r)))
            .collect()),
        Some("corintho") => Ok(CorinthoPosition::parse_records(name, text)?
            .into_iter()
            .map(|r| wrap(AnyRecord::Corintho(r)))
            .collect()),
        Some(other) => Err(FileError::new(
            name,
            format!(
                "`game: {other}` is not a game this module knows: expected one of {}",
                crate::frontend::GAMES.join(", ")
            ),
        )),
    }
}

/// Reads every game of a record file's text (YAML documents separated by `---` lines); `name`
/// labels errors, which give the game, the move, the line and the column.
#[pyfunction]
#[pyo3(
    signature = (text, name = String::from("<string>")),
    text_signature = "(text, name='<string>')"
)]
pub fn parse_records(
    py: Python<'_>,
    #[pyo3(from_py_with = name::text)] text: String,
    #[pyo3(from_py_with = name::name)] name: String,
) -> PyResult<Vec<PyRecord>> {
    parse_any(&name, &text).map_err(|e| file_error(py, &e))
}

/// Reads every game of a record file.
#[pyfunction]
pub fn read_records(
    py: Python<'_>,
    #[pyo3(from_py_with = name::path)] path: std::path::PathBuf,
) -> PyResult<Vec<PyRecord>> {
    let (name, text) = crate::file::read_file(&path).map_err(|e| file_error(py, &e))?;
    parse_any(&name, &text).map_err(|e| file_error(py, &e))
}

fn records_text_of(records: &[PyRecord]) -> PyResult<String> {
    /// Every record's game of one kind, if they all are of that kind.
    fn all<T: Clone>(records: &[PyRecord], pick: fn(&AnyRecord) -> Option<&T>) -> Option<Vec<T>> {
        records.iter().map(|r| pick(&r.inner).cloned()).collect()
    }
    if let Some(games) = all(records, |r| match r {
        AnyRecord::Cathedral(g) => Some(g),
        AnyRecord::Corintho(_) => None,
    }) {
        return Ok(Position::records_text(&games));
    }
    all(records, |r| match r {
        AnyRecord::Corintho(g) => Some(g),
        AnyRecord::Cathedral(_) => None,
    })
    .map(|games| CorinthoPosition::records_text(&games))
    .ok_or_else(|| CathedralError::new_err("a record file holds the games of one game only"))
}

/// The record file's text (YAML) for `records`, all of one game.
#[pyfunction]
pub fn records_text(
    #[pyo3(from_py_with = name::records)] records: Vec<PyRef<'_, PyRecord>>,
) -> PyResult<String> {
    let records: Vec<PyRecord> = records.iter().map(|r| (**r).clone()).collect();
    records_text_of(&records)
}
