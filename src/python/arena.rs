//! Engine matches from Python, one pair at a time: `cathedral.play_pair` plays a pair of games
//! with colours swapped exactly as `cathedral match` does (the same seeded openings, the same
//! players, the same records), `match_summary` gives the statistics of `match --json` and `Sprt`
//! the same sequential test. `cathedral.distributed.match` hands the pairs out as Ray tasks.
//!
//! A `Pair` crosses between processes by pickling: its state is the pair's JSON and the rules'
//! name, and unpickling replays every move, so a pair that arrives is a legal game again.

use super::CathedralError;
use super::to_python;
use crate::Position;
use crate::arena::{
    Budget, BuiltIn, BuiltInPlayer, MatchGame, MatchOptions, PairResult, PlayedGame, Sprt,
    SprtVerdict, play_match_game, play_pair_from, summarize,
};
use crate::boardgame::Clock;
use crate::corintho::CorinthoPosition;
use crate::frontend::limits::{MAX_BUDGET, MAX_SECONDS, MAX_TABLE_MIB};
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use serde_json::Value;
use std::time::Duration;

/// A finished pair of either game.
#[derive(Clone)]
enum AnyPair {
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
    inner: AnyPair,
    /// The rules as the match named them (`classic`), to read the moves back when unpickled.
    rules: String,
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
pub fn _pair_from_state(game: &str, rules: &str, json: &str) -> PyResult<PyPair> {
    let value: Value = serde_json::from_str(json)
        .map_err(|e| CathedralError::new_err(format!("a pair's state is not JSON: {e}")))?;
    let inner = match game {
        "cathedral" => AnyPair::Cathedral(pair_from_json::<Position>(rules, &value)?),
        "corintho" => AnyPair::Corintho(pair_from_json::<CorinthoPosition>(rules, &value)?),
        other => return Err(CathedralError::new_err(format!("unknown game `{other}`"))),
    };
    Ok(PyPair {
        inner,
        rules: rules.to_string(),
    })
}

fn pair_from_json<G: MatchGame>(rules: &str, value: &Value) -> PyResult<PairResult<G>> {
    let bad = |what: &str| CathedralError::new_err(format!("a pair's state lacks {what}"));
    let rule_set = G::match_rules(rules).map_err(CathedralError::new_err)?;
    let number = |v: &Value, key: &str| v.get(key).and_then(Value::as_u64).ok_or_else(|| bad(key));
    let text = |v: &Value, key: &str| {
        v.get(key)
            .and_then(Value::as_str)
            .map(str::to_string)
            .ok_or_else(|| bad(key))
    };
    let games = value
        .get("games")
        .and_then(Value::as_array)
        .filter(|games| games.len() == 2)
        .ok_or_else(|| bad("its two games"))?;
    let mut played = Vec::with_capacity(2);
    for game in games {
        let moves: Vec<String> = game
            .get("moves")
            .and_then(Value::as_array)
            .ok_or_else(|| bad("moves"))?
            .iter()
            .map(|m| m.as_str().map(str::to_string).ok_or_else(|| bad("moves")))
            .collect::<PyResult<_>>()?;
        let mut position = G::start_under(rule_set);
        let mut line = Vec::with_capacity(moves.len());
        for text in &moves {
            let mv = position
                .parse_move(text)
                .map_err(|why| CathedralError::new_err(format!("a pair's move `{text}`: {why}")))?;
            position.play(mv);
            line.push(mv);
        }
        let forfeit = match game.get("forfeit") {
            Some(Value::Array(entry)) => {
                let seat_key = entry
                    .first()
                    .and_then(Value::as_str)
                    .ok_or_else(|| bad("forfeit"))?;
                let seat = G::SEAT_KEYS
                    .iter()
                    .position(|k| *k == seat_key)
                    .ok_or_else(|| bad("forfeit"))?;
                let why = entry
                    .get(1)
                    .and_then(Value::as_str)
                    .ok_or_else(|| bad("forfeit"))?;
                Some((seat, why.to_string()))
            }
            _ => None,
        };
        played.push(PlayedGame::<G> {
            pair: number(game, "pair")? as usize,
            game: number(game, "game")? as usize,
            names: [text(game, G::SEAT_KEYS[0])?, text(game, G::SEAT_KEYS[1])?],
            rules: text(game, "rules")?,
            opening_plies: number(game, "opening_plies")? as usize,
            moves,
            played: line,
            rule_set,
            scores: [
                number(game, G::SCORE_KEYS[0])? as u32,
                number(game, G::SCORE_KEYS[1])? as u32,
            ],
            forfeit,
        });
    }
    let second = played.pop().ok_or_else(|| bad("its games"))?;
    let first = played.pop().ok_or_else(|| bad("its games"))?;
    Ok(PairResult {
        pair: number(value, "pair")? as usize,
        games: [first, second],
        a_squares: number(value, "a_squares")? as u32,
        b_squares: number(value, "b_squares")? as u32,
    })
}

/// A built-in player from its spec; outside programs (`cmd:`) are the command line's.
fn builtin(option: &str, spec: &str) -> PyResult<BuiltIn> {
    if spec.starts_with("cmd:") {
        return Err(CathedralError::new_err(format!(
            "{option}={spec:?}: outside engines play through `cathedral match`; here a built-in player (random, policy, greedy, engine, engine:level=N,nodes=N)"
        )));
    }
    spec.parse()
        .map_err(|e| CathedralError::new_err(format!("{option}: {e}")))
}

/// Each move's budget: nodes, seconds or a game clock `(base, increment)` in seconds.
fn budget(nodes: Option<u64>, time: Option<f64>, clock: Option<(f64, f64)>) -> PyResult<Budget> {
    let seconds = |name: &str, s: f64, zero: bool| {
        let low_ok = if zero { s >= 0.0 } else { s > 0.0 };
        if low_ok && s <= MAX_SECONDS as f64 {
            Ok(Duration::from_secs_f64(s))
        } else {
            Err(CathedralError::new_err(format!(
                "{name}={s}: expected seconds above 0, at most {MAX_SECONDS}"
            )))
        }
    };
    match (nodes, time, clock) {
        (Some(n), None, None) if (1..=MAX_BUDGET).contains(&n) => Ok(Budget::Nodes(n)),
        (Some(n), None, None) => Err(CathedralError::new_err(format!(
            "nodes={n}: expected 1 to {MAX_BUDGET}"
        ))),
        (None, Some(t), None) => Ok(Budget::Time(seconds("time", t, false)?)),
        (None, None, Some((base, increment))) => Ok(Budget::Clock(Clock::new(
            seconds("clock base", base, false)?,
            seconds("clock increment", increment, true)?,
        ))),
        (None, None, None) => Ok(Budget::Time(Duration::from_secs(1))),
        _ => Err(CathedralError::new_err(
            "give one of nodes, time and clock (the budget of every move)",
        )),
    }
}

/// Plays pair `pair` (from 1) of a match between `a` and `b` (built-in players as `cathedral
/// match --a` names them), exactly as `cathedral match` plays it with the same settings: the
/// same seeded opening of `opening_plies` plies, or `opening` (moves in the notation) when
/// given, then A in the first seat and B in the second, then the other way round. A node budget
/// makes the games the same on every machine. Runs without the GIL.
#[pyfunction]
#[pyo3(signature = (a, b, pair, *, game = "cathedral", rules = "classic", seed = 1, opening_plies = 2, opening = None, nodes = None, time = None, clock = None, tt_mb = 16))]
#[allow(clippy::too_many_arguments)]
pub fn play_pair(
    py: Python<'_>,
    a: &str,
    b: &str,
    pair: usize,
    game: &str,
    rules: &str,
    seed: u64,
    opening_plies: usize,
    opening: Option<Vec<String>>,
    nodes: Option<u64>,
    time: Option<f64>,
    clock: Option<(f64, f64)>,
    tt_mb: usize,
) -> PyResult<PyPair> {
    let settings = Settings::checked(
        a,
        b,
        pair,
        rules,
        seed,
        opening_plies,
        opening.as_deref(),
        nodes,
        time,
        clock,
        tt_mb,
    )?;
    let inner = match game {
        "cathedral" => AnyPair::Cathedral(settings.pair::<Position>(py)?),
        "corintho" => AnyPair::Corintho(settings.pair::<CorinthoPosition>(py)?),
        other => return Err(unknown_game(other)),
    };
    Ok(PyPair {
        inner,
        rules: rules.to_string(),
    })
}

fn unknown_game(game: &str) -> PyErr {
    CathedralError::new_err(format!(
        "game={game:?}: expected \"cathedral\" or \"corintho\""
    ))
}

/// Plays one game of a match, as game `game` (1 or 2) of pair `pair` of `cathedral match`:
/// `first` in the first seat (Light), `second` in the second, from `opening` (moves in the
/// notation) or else the pair's seeded opening of `opening_plies` plies. Returns the game as
/// `match --json` lists it, with its record (`record`, the text of a game-record file). Where
/// both players are the same engine at a node budget, the two games of a pair are the same game:
/// an opening study plays one.
#[pyfunction]
#[pyo3(signature = (first, second, *, pair = 1, game_number = 1, game = "cathedral", rules = "classic", seed = 1, opening_plies = 2, opening = None, nodes = None, time = None, clock = None, tt_mb = 16))]
#[allow(clippy::too_many_arguments)]
pub fn play_game<'py>(
    py: Python<'py>,
    first: &str,
    second: &str,
    pair: usize,
    game_number: usize,
    game: &str,
    rules: &str,
    seed: u64,
    opening_plies: usize,
    opening: Option<Vec<String>>,
    nodes: Option<u64>,
    time: Option<f64>,
    clock: Option<(f64, f64)>,
    tt_mb: usize,
) -> PyResult<Bound<'py, PyAny>> {
    if !(1..=2).contains(&game_number) {
        return Err(CathedralError::new_err(format!(
            "game_number={game_number}: expected 1 or 2"
        )));
    }
    let settings = Settings::checked(
        first,
        second,
        pair,
        rules,
        seed,
        opening_plies,
        opening.as_deref(),
        nodes,
        time,
        clock,
        tt_mb,
    )?;
    fn with_record<'py, G: MatchGame>(
        py: Python<'py>,
        game: PlayedGame<G>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let dict = to_python(py, &game)?;
        dict.set_item("record", G::records_text(&[game.record()]))?;
        Ok(dict)
    }
    match game {
        "cathedral" => with_record(py, settings.game::<Position>(py, game_number)?),
        "corintho" => with_record(py, settings.game::<CorinthoPosition>(py, game_number)?),
        other => Err(unknown_game(other)),
    }
}

struct Settings<'a> {
    a: BuiltIn,
    b: BuiltIn,
    pair: usize,
    rules: &'a str,
    seed: u64,
    opening_plies: usize,
    opening: Option<&'a [String]>,
    budget: Budget,
    tt_mb: usize,
}

impl<'a> Settings<'a> {
    /// The settings of a pair or a game, range-checked.
    #[allow(clippy::too_many_arguments)]
    fn checked(
        a: &str,
        b: &str,
        pair: usize,
        rules: &'a str,
        seed: u64,
        opening_plies: usize,
        opening: Option<&'a [String]>,
        nodes: Option<u64>,
        time: Option<f64>,
        clock: Option<(f64, f64)>,
        tt_mb: usize,
    ) -> PyResult<Settings<'a>> {
        let (a, b) = (builtin("a", a)?, builtin("b", b)?);
        let budget = budget(nodes, time, clock)?;
        if pair == 0 {
            return Err(CathedralError::new_err("pair=0: pairs are numbered from 1"));
        }
        if opening_plies > 100 {
            return Err(CathedralError::new_err(format!(
                "opening_plies={opening_plies}: expected 0 to 100"
            )));
        }
        if !(1..=MAX_TABLE_MIB).contains(&tt_mb) {
            return Err(CathedralError::new_err(format!(
                "tt_mb={tt_mb}: expected 1 to {MAX_TABLE_MIB} (MiB)"
            )));
        }
        Ok(Settings {
            a,
            b,
            pair,
            rules,
            seed,
            opening_plies,
            opening,
            budget,
            tt_mb,
        })
    }

    /// The match's options and the pair's opening.
    #[allow(clippy::type_complexity)]
    fn prepare<G: MatchGame>(&self) -> PyResult<(MatchOptions<G::Rules>, Vec<G::Move>)> {
        let rules = G::match_rules(self.rules)
            .map_err(|e| CathedralError::new_err(format!("rules={:?}: {e}", self.rules)))?;
        for kind in [&self.a, &self.b] {
            G::plays(kind).map_err(CathedralError::new_err)?;
        }
        let options = MatchOptions {
            rules,
            seed: self.seed,
            opening_plies: self.opening_plies,
            clock: match self.budget {
                Budget::Clock(clock) => Some(clock),
                _ => None,
            },
        };
        let opening = match self.opening {
            None => crate::arena::opening::<G>(&options, self.pair),
            Some(texts) => super::records::read_moves(G::start_under(rules), texts)?,
        };
        Ok((options, opening))
    }

    /// The pair, played without the GIL.
    fn pair<G: MatchGame + Send>(&self, py: Python<'_>) -> PyResult<PairResult<G>>
    where
        G::Move: Send,
    {
        let (options, opening) = self.prepare::<G>()?;
        let (a, b, budget, tt_mb, pair) = (self.a, self.b, self.budget, self.tt_mb, self.pair);
        Ok(py.detach(move || {
            let mut first = BuiltInPlayer::new(a, budget, tt_mb);
            let mut second = BuiltInPlayer::new(b, budget, tt_mb);
            play_pair_from(&mut first, &mut second, &options, pair, &opening)
        }))
    }

    /// Game `game` of the pair, A in the first seat, played without the GIL.
    fn game<G: MatchGame + Send>(&self, py: Python<'_>, game: usize) -> PyResult<PlayedGame<G>>
    where
        G::Move: Send,
    {
        let (options, opening) = self.prepare::<G>()?;
        let (a, b, budget, tt_mb, pair) = (self.a, self.b, self.budget, self.tt_mb, self.pair);
        Ok(py.detach(move || {
            let mut first = BuiltInPlayer::new(a, budget, tt_mb);
            let mut second = BuiltInPlayer::new(b, budget, tt_mb);
            play_match_game(&mut first, &mut second, &options, pair, game, &opening)
        }))
    }
}

/// The statistics of a match's pairs from A's view, as `cathedral match --json` gives them
/// under `summary`: pair and per-seat tallies, the pair score, the mean margin, the Elo
/// difference with its 95 % interval, forfeits. `a` and `b` name the players.
#[pyfunction]
pub fn match_summary<'py>(
    py: Python<'py>,
    a: &str,
    b: &str,
    pairs: Vec<PyRef<'py, PyPair>>,
) -> PyResult<Bound<'py, PyAny>> {
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

/// The name a built-in player goes by in records and summaries (`engine level 10, 20000
/// nodes`), as `cathedral match` prints it.
#[pyfunction]
#[pyo3(signature = (spec, *, nodes = None, time = None, clock = None))]
pub fn player_name(
    spec: &str,
    nodes: Option<u64>,
    time: Option<f64>,
    clock: Option<(f64, f64)>,
) -> PyResult<String> {
    use crate::arena::Contestant;
    let kind = builtin("spec", spec)?;
    let player = BuiltInPlayer::new(kind, budget(nodes, time, clock)?, 1);
    Ok(Contestant::<Position>::name(&player))
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
    fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> PyResult<PySprt> {
        Sprt::new(elo0, elo1, alpha, beta)
            .map(|inner| PySprt { inner })
            .map_err(CathedralError::new_err)
    }

    /// Counts a pair in which A scored `half_points` (0 to 4) over its two games.
    fn add_pair(&mut self, half_points: usize) -> PyResult<()> {
        if half_points > 4 {
            return Err(CathedralError::new_err(format!(
                "half_points={half_points}: expected 0 to 4"
            )));
        }
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
