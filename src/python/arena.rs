//! Engine matches from Python, one pair at a time: `cathedral.play_pair` plays a pair of games
//! with colours swapped exactly as `cathedral match` does (the same seeded openings, the same
//! players, the same records), `match_summary` gives the statistics of `match --json` and `Sprt`
//! the same sequential test. `cathedral.distributed.match` hands the pairs out as Ray tasks.
//!
//! A `Pair` crosses between processes by pickling: its state is the pair's JSON and the rules'
//! name, and unpickling replays every move, so a pair that arrives is a legal game again.

use super::CathedralError;
use super::args::{Whole, name};
use super::to_python;
use crate::Position;
use crate::arena::{MatchGame, PairResult, PlayedGame, Sprt, SprtVerdict, summarize};
use crate::corintho::CorinthoPosition;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use serde_json::Value;

/// A finished pair of either game.
#[derive(Clone)]
pub(super) enum AnyPair {
    Cathedral(PairResult<Position>),
    Corintho(PairResult<CorinthoPosition>),
}

macro_rules! with_pair {
    ($pair:expr, $p:ident => $body:expr) => {
        match $pair {
            AnyPair::Cathedral($p) => $body,
            AnyPair::Corintho($p) => $body,
        }
    };
}

/// A pair of games with colours swapped: A in the first seat, then in the second, from one
/// opening. Picklable (Ray sends it between processes); `to_dict()` is the pair as `cathedral
/// match --json` lists it.
#[pyclass(name = "Pair", module = "cathedral", frozen)]
#[derive(Clone)]
pub struct PyPair {
    pub(super) inner: AnyPair,
    /// The rules as the match named them (`classic`), to read the moves back when unpickled.
    pub(super) rules: String,
}

#[pymethods]
impl PyPair {
    /// The pair's number, from 1.
    #[getter]
    fn pair(&self) -> usize {
        with_pair!(&self.inner, p => p.pair)
    }

    /// The game: `"cathedral"` or `"corintho"`.
    #[getter]
    fn game(&self) -> &'static str {
        match self.inner {
            AnyPair::Cathedral(_) => "cathedral",
            AnyPair::Corintho(_) => "corintho",
        }
    }

    /// A's score over both games (Cathedral: unplaced squares; lower is better).
    #[getter]
    fn a_squares(&self) -> u32 {
        with_pair!(&self.inner, p => p.a_squares)
    }

    /// B's score over both games.
    #[getter]
    fn b_squares(&self) -> u32 {
        with_pair!(&self.inner, p => p.b_squares)
    }

    /// A's half-points over the two games (0 to 4): what the SPRT counts by games.
    #[getter]
    fn a_half_points(&self) -> usize {
        with_pair!(&self.inner, p => p.a_half_points())
    }

    /// A's pair score: 1 for the lower total, 0.5 for equal totals, 0 otherwise.
    #[getter]
    fn a_score(&self) -> f64 {
        with_pair!(&self.inner, p => p.a_score())
    }

    /// The pair as `cathedral match --json` lists it: both games with their moves and scores.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        with_pair!(&self.inner, p => to_python(py, p))
    }

    /// Both games as one game-record file (`docs/game-record.md`), what `cathedral match
    /// --output DIR` writes to `pair-NNNN.yaml`.
    fn records_text(&self) -> String {
        with_pair!(&self.inner, p => records_text(p))
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let json = with_pair!(&self.inner, p => serde_json::to_string(p))
            .map_err(|e| CathedralError::new_err(format!("internal error: {e}")))?;
        let from_state = py
            .import("cathedral._cathedral")?
            .getattr("_pair_from_state")?;
        let args = (self.game(), self.rules.clone(), json);
        PyTuple::new(py, [from_state, args.into_pyobject(py)?.into_any()])
    }

    fn __repr__(&self) -> String {
        format!(
            "<Pair {} of {}: A {}, B {}>",
            self.pair(),
            self.game(),
            self.a_squares(),
            self.b_squares()
        )
    }
}

fn records_text<G: MatchGame>(pair: &PairResult<G>) -> String {
    let records: Vec<_> = pair.games.iter().map(PlayedGame::record).collect();
    G::records_text(&records)
}

/// A pair read back from its pickled state: every move replayed from the start.
#[pyfunction]
pub fn _pair_from_state(
    #[pyo3(from_py_with = name::game)] game: String,
    #[pyo3(from_py_with = name::rules)] rules: String,
    #[pyo3(from_py_with = name::json)] json: String,
) -> PyResult<PyPair> {
    let value: Value = serde_json::from_str(&json)
        .map_err(|e| CathedralError::new_err(format!("a pair's state is not JSON: {e}")))?;
    let inner = match game.as_str() {
        "cathedral" => AnyPair::Cathedral(
            PairResult::<Position>::from_json(&rules, &value).map_err(CathedralError::new_err)?,
        ),
        "corintho" => AnyPair::Corintho(
            PairResult::<CorinthoPosition>::from_json(&rules, &value)
                .map_err(CathedralError::new_err)?,
        ),
        other => return Err(CathedralError::new_err(format!("unknown game `{other}`"))),
    };
    Ok(PyPair { inner, rules })
}

/// The statistics of a match's pairs from A's view, as `cathedral match --json` gives them
/// under `summary`: pair and per-seat tallies, the pair score, the mean margin, the Elo
/// difference with its 95 % interval, forfeits. `a` and `b` name the players.
#[pyfunction]
pub fn match_summary<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = name::a)] a: String,
    #[pyo3(from_py_with = name::b)] b: String,
    #[pyo3(from_py_with = name::pairs)] pairs: Vec<PyRef<'py, PyPair>>,
) -> PyResult<Bound<'py, PyAny>> {
    let (a, b) = (a.as_str(), b.as_str());
    let cathedral: Option<Vec<PairResult<Position>>> = pairs
        .iter()
        .map(|p| match &p.inner {
            AnyPair::Cathedral(pair) => Some(pair.clone()),
            AnyPair::Corintho(_) => None,
        })
        .collect();
    if let Some(pairs) = cathedral {
        return to_python(py, &summarize(a, b, &pairs));
    }
    let corintho: Option<Vec<PairResult<CorinthoPosition>>> = pairs
        .iter()
        .map(|p| match &p.inner {
            AnyPair::Corintho(pair) => Some(pair.clone()),
            AnyPair::Cathedral(_) => None,
        })
        .collect();
    match corintho {
        Some(pairs) => to_python(py, &summarize(a, b, &pairs)),
        None => Err(CathedralError::new_err(
            "the pairs are of two games: a match is of one",
        )),
    }
}

/// The sequential probability ratio test of `cathedral match --sprt` (pentanomial, as
/// fishtest runs it): `Sprt(elo0, elo1, alpha, beta)`, then `add_pair(half_points)` for each
/// pair in order until `verdict` is no longer `"continue"`.
#[pyclass(name = "Sprt", module = "cathedral")]
pub struct PySprt {
    inner: Sprt,
}

#[pymethods]
impl PySprt {
    #[new]
    #[pyo3(signature = (elo0, elo1, alpha = 0.05, beta = 0.05))]
    fn new(
        #[pyo3(from_py_with = name::elo0)] elo0: f64,
        #[pyo3(from_py_with = name::elo1)] elo1: f64,
        #[pyo3(from_py_with = name::alpha)] alpha: f64,
        #[pyo3(from_py_with = name::beta)] beta: f64,
    ) -> PyResult<PySprt> {
        Sprt::new(elo0, elo1, alpha, beta)
            .map(|inner| PySprt { inner })
            .map_err(|e| CathedralError::new_err(e.to_string()))
    }

    /// Counts a pair in which A scored `half_points` (0 to 4) over its two games.
    fn add_pair(
        &mut self,
        #[pyo3(from_py_with = name::half_points)] half_points: i128,
    ) -> PyResult<()> {
        let half_points = half_points.size("half_points", 0..=4, "0 to 4")?;
        self.inner.add_pair(half_points);
        Ok(())
    }

    /// `"continue"`, `"accept-h0"` or `"accept-h1"`.
    #[getter]
    fn verdict(&self) -> &'static str {
        match self.inner.verdict() {
            SprtVerdict::Continue => "continue",
            SprtVerdict::AcceptH0 => "accept-h0",
            SprtVerdict::AcceptH1 => "accept-h1",
        }
    }

    /// Pairs counted.
    #[getter]
    fn pairs(&self) -> u64 {
        self.inner.pairs()
    }

    /// The log-likelihood ratio now.
    #[getter]
    fn llr(&self) -> f64 {
        self.inner.llr
    }

    /// The verdict in a sentence, as `cathedral match --sprt` prints it.
    fn text(&self) -> String {
        self.inner.text()
    }

    /// The test as `cathedral match --sprt --json` gives it under `sprt`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_python(py, &self.inner)
    }

    fn __repr__(&self) -> String {
        format!("<Sprt {}: {}>", self.verdict(), self.inner.ratio_text())
    }
}
