//! Cathedral's compact action space for learning: one action per distinct placement of a kind of
//! building (the Cathedral's, then each kind's in `Piece::PLAYER_KINDS` order), whoever owns it,
//! so that the two Taverns of a set share their actions and Light's and Dark's buildings of the
//! same shape on the same cells are one action; then the pass. The Abbey and the Academy are
//! mirror images in the two sets, so their actions are the union of both players' placements.

use super::{CathedralError, IllegalMoveError};
use crate::cathedral::placement::PlacementId;
use crate::engine::inputs::PLANES;
use crate::{Bitboard, Move, MoveList, Piece, Player, Position, table};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyBytes;
use std::collections::HashMap;
use std::sync::OnceLock;

/// No placement for this owner.
const NONE: u16 = u16::MAX;

/// The action table, built once.
pub(crate) struct Actions {
    /// Per action: the kind and the cells.
    entries: Vec<(Piece, Bitboard)>,
    /// Per action: the placement id for Light and for Dark (the Cathedral's in both), or
    /// [`NONE`].
    placements: Vec<[u16; 2]>,
    /// Per placement id: its action.
    of_placement: Vec<u32>,
}

impl Actions {
    pub(crate) fn get() -> &'static Actions {
        static ACTIONS: OnceLock<Actions> = OnceLock::new();
        ACTIONS.get_or_init(Actions::build)
    }

    fn build() -> Actions {
        let table = table();
        let mut entries = Vec::new();
        let mut placements: Vec<[u16; 2]> = Vec::new();
        let mut of_placement = vec![u32::MAX; table.len()];
        let mut add = |piece: Piece, owners: &[(usize, Option<Player>)]| {
            let mut index: HashMap<u128, usize> = HashMap::new();
            let mut ids: Vec<(usize, PlacementId)> = owners
                .iter()
                .flat_map(|&(slot, owner)| table.ids(owner, piece).map(move |id| (slot, id)))
                .collect();
            // By cells, so that the order does not depend on the table's layout.
            ids.sort_by_key(|&(slot, id)| (table.get(id).mask.0, slot));
            for (slot, id) in ids {
                let mask = table.get(id).mask;
                let action = *index.entry(mask.0).or_insert_with(|| {
                    entries.push((piece, mask));
                    placements.push([NONE; 2]);
                    entries.len() - 1
                });
                placements[action][slot] = id.0;
                of_placement[usize::from(id.0)] = action as u32;
            }
        };
        // The Cathedral's placements serve whoever places it.
        add(Piece::Cathedral, &[(0, None), (1, None)]);
        for piece in Piece::PLAYER_KINDS {
            add(piece, &[(0, Some(Player::Light)), (1, Some(Player::Dark))]);
        }
        Actions {
            entries,
            placements,
            of_placement,
        }
    }

    /// Number of actions, the pass included.
    pub(crate) fn len(&self) -> usize {
        self.entries.len() + 1
    }

    /// The pass's action (the last).
    pub(crate) fn pass(&self) -> usize {
        self.entries.len()
    }

    /// The action of a legal move of `position`.
    pub(crate) fn action_of(&self, position: &Position, mv: Move) -> PyResult<u32> {
        check_rules(position)?;
        Ok(match mv.placement() {
            None => self.pass() as u32,
            Some(id) => self.of_placement[usize::from(id.0)],
        })
    }

    /// The legal move `action` stands for in `position`.
    pub(crate) fn legal_move(&self, position: &Position, action: i128) -> PyResult<Move> {
        self.labelled_legal_move(position, action, "")
    }

    /// [`Actions::legal_move`] with errors starting with `label` (`game 3: `).
    pub(crate) fn labelled_legal_move(
        &self,
        position: &Position,
        action: i128,
        label: &str,
    ) -> PyResult<Move> {
        check_rules(position)?;
        let index = self.index(action, label)?;
        let mv = if index == self.pass() {
            Move::PASS
        } else {
            let id = self.placements[index][position.to_move().index()];
            if id == NONE {
                return Err(IllegalMoveError::new_err(format!(
                    "{label}action {action} ({}) is not one of {}'s placements",
                    self.describe(index),
                    position.to_move()
                )));
            }
            Move::place(PlacementId(id))
        };
        let mut list = MoveList::new();
        position.legal_moves(&mut list);
        if !list.contains(mv) {
            return Err(IllegalMoveError::new_err(format!(
                "{label}action {action} ({}) is not legal here{}",
                self.describe(index),
                if position.is_game_over() {
                    ": the game is over"
                } else {
                    ""
                }
            )));
        }
        Ok(mv)
    }

    /// `action` as an index into the table; the error starts with `label`.
    fn index(&self, action: i128, label: &str) -> PyResult<usize> {
        usize::try_from(action)
            .ok()
            .filter(|&a| a < self.len())
            .ok_or_else(|| {
                CathedralError::new_err(format!(
                    "{label}action {action} is out of range: expected 0 to {}",
                    self.len() - 1
                ))
            })
    }

    /// One byte per action, 1 where it is legal in `position`.
    pub(crate) fn mask(&self, position: &Position) -> PyResult<Vec<u8>> {
        check_rules(position)?;
        let mut mask = vec![0u8; self.len()];
        let mut list = MoveList::new();
        position.legal_moves(&mut list);
        for &mv in list.iter() {
            mask[self.action_of(position, mv)? as usize] = 1;
        }
        Ok(mask)
    }

    /// The action in words: `tavern on c3` or `pass`.
    fn describe(&self, index: usize) -> String {
        match self.entries.get(index) {
            None => "pass".to_string(),
            Some((piece, mask)) => {
                let cells: Vec<String> = mask.cells().map(|c| c.to_string()).collect();
                format!("{} on {}", piece.name(), cells.join(","))
            }
        }
    }
}

/// Under optional capture one placement can be several moves (which captures are declined): no
/// action space for it.
fn check_rules(position: &Position) -> PyResult<()> {
    if position.rules().capture != crate::rules::Capture::Optional {
        return Ok(());
    }
    Err(CathedralError::new_err(format!(
        "the action space has one action per placement, and under optional capture (rules {}) \
         one placement can be several moves: use the moves in notation (legal_moves, play)",
        position.rules()
    )))
}

/// The board planes from `me`'s view, `[rank][file][plane]`.
pub(crate) fn planes(position: &Position, me: Player) -> Vec<u8> {
    let (mine, theirs) = (position.side(me), position.side(me.opponent()));
    let planes = [
        mine.occupied,
        theirs.occupied,
        position.cathedral(),
        mine.territory,
        theirs.territory,
    ];
    let mut out = vec![0u8; 100 * PLANES];
    for (plane, cells) in planes.into_iter().enumerate() {
        for cell in cells.cells() {
            out[cell.index() * PLANES + plane] = 1;
        }
    }
    out
}

/// The buildings in hand, `me`'s row first, kinds in `Piece::PLAYER_KINDS` order.
pub(crate) fn hand_counts(position: &Position, me: Player) -> Vec<u8> {
    [me, me.opponent()]
        .into_iter()
        .flat_map(|player| {
            let hand = position.side(player).hand;
            Piece::PLAYER_KINDS.map(|piece| hand.count(piece))
        })
        .collect()
}

/// The kinds' names in the order of the hand counts' columns.
pub(crate) fn kind_names() -> Vec<&'static str> {
    Piece::PLAYER_KINDS.iter().map(|p| p.name()).collect()
}

/// A read-only numpy array over `bytes` with this dtype and shape.
pub(crate) fn numpy_array<'py>(
    py: Python<'py>,
    bytes: &Bound<'py, PyBytes>,
    dtype: &str,
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    static FROMBUFFER: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let frombuffer = FROMBUFFER.get_or_try_init(py, || {
        py.import("numpy")?.getattr("frombuffer").map(Bound::unbind)
    })?;
    let array = frombuffer.bind(py).call1((bytes, dtype))?;
    if shape.len() == 1 {
        return Ok(array);
    }
    array.call_method1("reshape", (shape.to_vec(),))
}

/// What an action stands for: `(kind, cells)` with the cells in the notation (`("tavern",
/// ["c3"])`), or `("pass", [])`.
#[pyfunction]
pub fn action_info(
    #[pyo3(from_py_with = super::args::name::action)] action: i128,
) -> PyResult<(String, Vec<String>)> {
    let actions = Actions::get();
    Ok(match actions.entries.get(actions.index(action, "")?) {
        None => ("pass".to_string(), Vec::new()),
        Some((piece, mask)) => (
            piece.name().to_string(),
            mask.cells().map(|c| c.to_string()).collect(),
        ),
    })
}
