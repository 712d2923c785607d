//! Playing match pairs and games from Python exactly as `cathedral match` plays them: the
//! settings range-checked, the game's rules and players checked, then the pair or the game
//! played without the GIL (`cathedral.play_pair`, `cathedral.play_game`, `player_name`).

use super::CathedralError;
use super::arena::{AnyPair, PyPair};
use super::args::{Whole, name};
use super::games::AnyPosition;
use super::search::{check_nodes, check_seed, check_tt_mb};
use super::to_python;
use crate::Position;
use crate::arena::{
    Budget, BuiltIn, BuiltInPlayer, MatchGame, MatchOptions, PairResult, PlayedGame,
    play_match_game, play_pair_from,
};
use crate::boardgame::Clock;
use crate::corintho::CorinthoPosition;
use crate::frontend::limits::{MAX_BUDGET, MAX_SECONDS};
use pyo3::prelude::*;
use std::time::Duration;

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
#[pyo3(
    signature = (a, b, pair, *, game = String::from("cathedral"), rules = String::from("classic"), seed = 1, opening_plies = 2, opening = None, nodes = None, time = None, clock = None, tt_mb = 16),
    text_signature = "(a, b, pair, *, game='cathedral', rules='classic', seed=1, opening_plies=2, opening=None, nodes=None, time=None, clock=None, tt_mb=16)"
)]
#[allow(clippy::too_many_arguments)]
pub fn play_pair(
    py: Python<'_>,
    #[pyo3(from_py_with = name::a)] a: String,
    #[pyo3(from_py_with = name::b)] b: String,
    #[pyo3(from_py_with = name::pair)] pair: i128,
    #[pyo3(from_py_with = name::game)] game: String,
    #[pyo3(from_py_with = name::rules)] rules: String,
    #[pyo3(from_py_with = name::seed)] seed: i128,
    #[pyo3(from_py_with = name::opening_plies)] opening_plies: i128,
    #[pyo3(from_py_with = name::opening)] opening: Option<Vec<String>>,
    #[pyo3(from_py_with = name::nodes)] nodes: Option<i128>,
    #[pyo3(from_py_with = name::time)] time: Option<f64>,
    #[pyo3(from_py_with = name::clock)] clock: Option<(f64, f64)>,
    #[pyo3(from_py_with = name::tt_mb)] tt_mb: i128,
) -> PyResult<PyPair> {
    let settings = Settings::checked(
        &a,
        &b,
        pair,
        &rules,
        seed,
        opening_plies,
        opening.as_deref(),
        nodes,
        time,
        clock,
        tt_mb,
    )?;
    let inner = match game.as_str() {
        "cathedral" => AnyPair::Cathedral(settings.pair::<Position>(py)?),
        "corintho" => AnyPair::Corintho(settings.pair::<CorinthoPosition>(py)?),
        other => return Err(unknown_game(other)),
    };
    Ok(PyPair { inner, rules })
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
#[pyo3(
    signature = (first, second, *, pair = 1, game_number = 1, game = String::from("cathedral"), rules = String::from("classic"), seed = 1, opening_plies = 2, opening = None, nodes = None, time = None, clock = None, tt_mb = 16),
    text_signature = "(first, second, *, pair=1, game_number=1, game='cathedral', rules='classic', seed=1, opening_plies=2, opening=None, nodes=None, time=None, clock=None, tt_mb=16)"
)]
#[allow(clippy::too_many_arguments)]
pub fn play_game<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = name::first)] first: String,
    #[pyo3(from_py_with = name::second)] second: String,
    #[pyo3(from_py_with = name::pair)] pair: i128,
    #[pyo3(from_py_with = name::game_number)] game_number: i128,
    #[pyo3(from_py_with = name::game)] game: String,
    #[pyo3(from_py_with = name::rules)] rules: String,
    #[pyo3(from_py_with = name::seed)] seed: i128,
    #[pyo3(from_py_with = name::opening_plies)] opening_plies: i128,
    #[pyo3(from_py_with = name::opening)] opening: Option<Vec<String>>,
    #[pyo3(from_py_with = name::nodes)] nodes: Option<i128>,
    #[pyo3(from_py_with = name::time)] time: Option<f64>,
    #[pyo3(from_py_with = name::clock)] clock: Option<(f64, f64)>,
    #[pyo3(from_py_with = name::tt_mb)] tt_mb: i128,
) -> PyResult<Bound<'py, PyAny>> {
    let game_number = game_number.size("game_number", 1..=2, "1 or 2")?;
    let settings = Settings::checked(
        &first,
        &second,
        pair,
        &rules,
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
    match game.as_str() {
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
        pair: i128,
        rules: &'a str,
        seed: i128,
        opening_plies: i128,
        opening: Option<&'a [String]>,
        nodes: Option<i128>,
        time: Option<f64>,
        clock: Option<(f64, f64)>,
        tt_mb: i128,
    ) -> PyResult<Settings<'a>> {
        let (a, b) = (builtin("a", a)?, builtin("b", b)?);
        let budget = budget(check_nodes(nodes)?, time, clock)?;
        let pair = pair.size(
            "pair",
            1..=u32::MAX as u64,
            "1 or more (pairs are numbered from 1)",
        )?;
        let seed = check_seed(seed)?;
        let opening_plies = opening_plies.size("opening_plies", 0..=100, "0 to 100")?;
        let tt_mb = check_tt_mb(tt_mb)?;
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

/// The name a built-in player goes by in records and summaries (`engine level 10, 20000
/// nodes`), as `cathedral match` prints it.
#[pyfunction]
#[pyo3(signature = (spec, *, nodes = None, time = None, clock = None))]
pub fn player_name(
    #[pyo3(from_py_with = name::spec)] spec: String,
    #[pyo3(from_py_with = name::nodes)] nodes: Option<i128>,
    #[pyo3(from_py_with = name::time)] time: Option<f64>,
    #[pyo3(from_py_with = name::clock)] clock: Option<(f64, f64)>,
) -> PyResult<String> {
    use crate::arena::Contestant;
    let kind = builtin("spec", &spec)?;
    let player = BuiltInPlayer::new(kind, budget(check_nodes(nodes)?, time, clock)?, 1);
    Ok(Contestant::<Position>::name(&player))
}

/// The move a built-in player without a search plays in `position` (Cathedral): `"greedy"`
/// (its biggest building where it claims the most, drawn among equals), `"policy"` (the sampling
/// policy: big buildings, claims and captures first, with a little noise) or `"random"` (a
/// uniformly random legal move), each draw from `seed`. The move in the notation with the
/// player, or `None` when the game is over. The opponents the environments offer between the
/// random player and the engine's ladder.
#[pyfunction]
#[pyo3(
    signature = (position, player, *, seed = 0),
    text_signature = "(position, player, *, seed=0)"
)]
pub fn builtin_move(
    #[pyo3(from_py_with = name::position)] position: AnyPosition,
    #[pyo3(from_py_with = name::player)] player: String,
    #[pyo3(from_py_with = name::seed)] seed: i128,
) -> PyResult<Option<String>> {
    let seed = check_seed(seed)?;
    let position = match position {
        AnyPosition::Cathedral(p) => p,
        AnyPosition::Corintho(_) => {
            return Err(CathedralError::new_err(
                "position: the greedy, policy and random players are Cathedral's; a Corintho position was given",
            ));
        }
    };
    let kind = match player.as_str() {
        "greedy" => BuiltIn::Greedy,
        "policy" => BuiltIn::Policy,
        "random" => BuiltIn::Random,
        other => {
            return Err(CathedralError::new_err(format!(
                "player={other:?}: expected \"greedy\", \"policy\" or \"random\" (the engine's levels are bestmove(position, level=N))"
            )));
        }
    };
    let mut rng = crate::boardgame::Rng::new(seed);
    let mv = match kind {
        BuiltIn::Random => {
            let mut moves = crate::MoveList::new();
            position.legal_moves(&mut moves);
            (!moves.is_empty()).then(|| moves.as_slice()[rng.below(moves.len() as u64) as usize])
        }
        kind => position.builtin_move(&kind, Budget::Nodes(1), 1, &mut rng, seed),
    };
    Ok(mv.map(|mv| crate::notation::format_move_with_player(&position, mv)))
}

/// The engine's ladder of levels, weakest first: each level's `level`, `name`, `summary`,
/// `elo` (measured over the greedy player, `docs/engine.md`) and its search (`depth` or
/// `nodes`, `None` for level 10, which searches the budget it is given).
#[pyfunction]
pub fn ladder(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    use crate::engine::ladder::{LADDER, Search};
    let rows: Vec<serde_json::Value> = LADDER
        .iter()
        .map(|r| {
            let (depth, nodes) = match r.search {
                Search::Depth(d) => (Some(d), None),
                Search::Nodes(n) => (None, Some(n)),
                Search::Full => (None, None),
            };
            serde_json::json!({
                "level": r.level,
                "name": r.name,
                "summary": r.summary,
                "elo": r.elo,
                "depth": depth,
                "nodes": nodes,
                "misses_claims": r.misses_claims,
                "fills_own": r.fills_own,
                "ignores_threats": r.ignores_threats,
                "exact": r.exact,
            })
        })
        .collect();
    to_python(py, &rows)
}
