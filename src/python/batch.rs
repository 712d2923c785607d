//! `cathedral.Batch`: many Cathedral games stepped together for training loops, so that one
//! Python call moves every game and the observations come back as whole numpy arrays (the
//! per-move cost of a Python step loop is many times that of the rules engine; see
//! `docs/python.md`).

use super::CathedralError;
use super::actions::{self, Actions};
use super::args::{Whole, name};
use super::games::AnyPosition;
use super::position::PyPosition;
use crate::engine::inputs::PLANES;
use crate::frontend::Playable;
use crate::{Piece, Position};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

/// The most games one batch holds.
const MAX_GAMES: usize = 1 << 16;

/// `n` Cathedral games played side by side, each restarted from the start when it ends.
///
/// `observe()` gives every game's observation from its side to move's view, as the PettingZoo
/// environment does, stacked: `observation` (n, 10, 10, 5), `hands` (n, 2, 11), `action_mask`
/// (n, ACTIONS), all int8, and `to_move` (n,) int8 (0 Light, 1 Dark). `step(actions)` plays one
/// action in every game and returns `(rewards, done)`: for a game that ended with that move, the
/// final difference of unplaced squares from the view of the player who made it (then the game
/// starts again), else 0.
#[pyclass(name = "Batch", module = "cathedral")]
pub struct PyBatch {
    start: Position,
    games: Vec<Position>,
}

#[pymethods]
impl PyBatch {
    #[new]
    #[pyo3(signature = (n, rules = String::from("classic")), text_signature = "(n, rules='classic')")]
    fn new(
        #[pyo3(from_py_with = name::n)] n: i128,
        #[pyo3(from_py_with = name::rules)] rules: String,
    ) -> PyResult<PyBatch> {
        let n = n.size(
            "n",
            1..=MAX_GAMES as u64,
            &format!("1 to {MAX_GAMES} games"),
        )?;
        let words: Vec<&str> = rules.split_whitespace().collect();
        let start = Position::start_with_rules(&words).map_err(CathedralError::new_err)?;
        // Refuses optional capture, which has no action space.
        Actions::get().mask(&start)?;
        Ok(PyBatch {
            start,
            games: vec![start; n],
        })
    }

    /// Number of games.
    fn __len__(&self) -> usize {
        self.games.len()
    }

    /// Every game's observation, stacked (see the class).
    fn observe<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let table = Actions::get();
        let n = self.games.len();
        let kinds = Piece::PLAYER_KINDS.len();
        let (planes, hands, masks, movers) = py.detach(|| {
            let mut planes = Vec::with_capacity(n * 100 * PLANES);
            let mut hands = Vec::with_capacity(n * 2 * kinds);
            let mut masks = Vec::with_capacity(n * table.len());
            let mut movers = Vec::with_capacity(n);
            for game in &self.games {
                let me = game.to_move();
                planes.extend(actions::planes(game, me));
                hands.extend(actions::hand_counts(game, me));
                masks.extend(table.mask(game)?);
                movers.push(me.index() as u8);
            }
            Ok::<_, PyErr>((planes, hands, masks, movers))
        })?;
        let out = PyDict::new(py);
        let array = |bytes: &[u8], shape: &[usize]| {
            actions::numpy_array(py, &PyBytes::new(py, bytes), "int8", shape)
        };
        out.set_item("observation", array(&planes, &[n, 10, 10, PLANES])?)?;
        out.set_item("hands", array(&hands, &[n, 2, kinds])?)?;
        out.set_item("action_mask", array(&masks, &[n, table.len()])?)?;
        out.set_item("to_move", array(&movers, &[n])?)?;
        Ok(out)
    }

    /// Plays `actions[i]` in game `i` for every game; returns `(rewards, done)` as lists (see
    /// the class). Raises `IllegalMoveError` naming the game for an action that is not legal
    /// there, and then no game has moved.
    fn step(
        &mut self,
        py: Python<'_>,
        #[pyo3(from_py_with = name::actions)] actions: Vec<i128>,
    ) -> PyResult<(Vec<f32>, Vec<bool>)> {
        if actions.len() != self.games.len() {
            return Err(CathedralError::new_err(format!(
                "{} actions for {} games: expected one per game",
                actions.len(),
                self.games.len()
            )));
        }
        let table = Actions::get();
        let start = self.start;
        py.detach(|| {
            let moves = self
                .games
                .iter()
                .zip(&actions)
                .enumerate()
                .map(|(index, (game, &action))| {
                    table.labelled_legal_move(game, action, &format!("game {index}: "))
                })
                .collect::<PyResult<Vec<_>>>()?;
            let mut rewards = Vec::with_capacity(moves.len());
            let mut done = Vec::with_capacity(moves.len());
            for (game, mv) in self.games.iter_mut().zip(moves) {
                let mover = game.to_move();
                game.play(mv);
                if game.is_game_over() {
                    let value = game.unplaced_squares(mover.opponent()) as f32
                        - game.unplaced_squares(mover) as f32;
                    rewards.push(value);
                    done.push(true);
                    *game = start;
                } else {
                    rewards.push(0.0);
                    done.push(false);
                }
            }
            Ok((rewards, done))
        })
    }

    /// Game `i`'s position now.
    fn position(&self, #[pyo3(from_py_with = name::i)] i: i128) -> PyResult<PyPosition> {
        let last = self.games.len() as u64 - 1;
        let i = i.size("i", 0..=last, &format!("a game from 0 to {last}"))?;
        self.games
            .get(i)
            .map(|p| PyPosition::of(AnyPosition::Cathedral(*p)))
            .ok_or_else(|| {
                CathedralError::new_err(format!(
                    "game {i} does not exist: expected 0 to {}",
                    self.games.len() - 1
                ))
            })
    }

    /// Restarts every game (from `position` when given, else from the start).
    #[pyo3(signature = (position = None))]
    fn reset(
        &mut self,
        #[pyo3(from_py_with = name::position)] position: Option<AnyPosition>,
    ) -> PyResult<()> {
        let start = match position {
            None => self.start,
            Some(position) => match position {
                AnyPosition::Cathedral(p) if p.rules() == self.start.rules() => p,
                _ => {
                    return Err(CathedralError::new_err(
                        "reset(position): expected a Cathedral position under the batch's rules",
                    ));
                }
            },
        };
        self.games.fill(start);
        Ok(())
    }
}
