//! Moves and move lists.

use crate::cathedral::placement::{PlacementId, table};
use std::fmt;

/// Buildings whose capture the mover declines (only under `capture: optional`). Bit `i` is the
/// opponent's building in slot `i` (in the order of the
/// set: see `SLOT_PIECES`); bit 14 is the Cathedral.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, PartialOrd, Ord)]
pub struct Spared(pub(crate) u16);

impl Spared {
    /// No capture declined.
    pub const NONE: Spared = Spared(0);
    /// The bit of the Cathedral.
    pub const CATHEDRAL_BIT: u16 = 1 << 14;

    /// The set with these bits: bit `i` for the opponent's slot `i`, [`Spared::CATHEDRAL_BIT`].
    #[inline]
    pub const fn from_bits(bits: u16) -> Spared {
        Spared(bits)
    }

    /// The bits of the set.
    #[inline]
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// Whether no capture is declined.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the opponent's building in slot `slot` is spared.
    #[inline]
    pub const fn contains_slot(self, slot: usize) -> bool {
        self.0 >> slot & 1 != 0
    }

    /// Whether the Cathedral is spared.
    #[inline]
    pub const fn contains_cathedral(self) -> bool {
        self.0 & Self::CATHEDRAL_BIT != 0
    }
}

/// A move: a placement (with the captures it declines), or a pass. Four bytes, `Copy`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    placement: u16,
    spared: Spared,
}

const PASS: u16 = u16::MAX;

impl Move {
    /// The pass.
    pub const PASS: Move = Move {
        placement: PASS,
        spared: Spared::NONE,
    };

    /// Places the building of `placement`, declining no capture.
    #[inline]
    pub const fn place(placement: PlacementId) -> Move {
        Move {
            placement: placement.0,
            spared: Spared::NONE,
        }
    }

    /// Places the building of `placement`, declining the captures in `spared`.
    #[inline]
    pub const fn place_sparing(placement: PlacementId, spared: Spared) -> Move {
        Move {
            placement: placement.0,
            spared,
        }
    }

    /// Whether the move is a pass.
    #[inline]
    pub const fn is_pass(self) -> bool {
        self.placement == PASS
    }

    /// The placement played, or `None` for a pass.
    #[inline]
    pub const fn placement(self) -> Option<PlacementId> {
        if self.is_pass() {
            None
        } else {
            Some(PlacementId(self.placement))
        }
    }

    /// The captures the move declines.
    #[inline]
    pub const fn spared(self) -> Spared {
        self.spared
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.placement() {
            None => f.write_str("pass"),
            Some(id) => {
                let p = table().get(id);
                write!(f, "{}:{}", p.piece.name(), p.mask)?;
                if !self.spared.is_empty() {
                    write!(f, "/spared={:#x}", self.spared.0)?;
                }
                Ok(())
            }
        }
    }
}

/// A reusable list of moves. Generation clears and refills it, so a list kept per search ply
/// allocates only while it grows to its largest size.
#[derive(Clone, Default, Debug)]
pub struct MoveList {
    moves: Vec<Move>,
}

impl MoveList {
    /// An empty list with room for 2304 moves.
    pub fn new() -> MoveList {
        MoveList {
            moves: Vec::with_capacity(2304),
        }
    }

    /// Removes every move.
    #[inline]
    pub fn clear(&mut self) {
        self.moves.clear();
    }

    /// Appends `mv`.
    #[inline]
    pub fn push(&mut self, mv: Move) {
        self.moves.push(mv);
    }

    /// Appends every move of `moves`, in order.
    #[inline]
    pub fn extend_from_slice(&mut self, moves: &[Move]) {
        self.moves.extend_from_slice(moves);
    }

    /// Number of moves in the list.
    #[inline]
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether the list holds no move.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The moves, in order.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves
    }

    /// The moves, in order, for reordering in place.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves
    }

    /// Iterates over the moves in order.
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.moves.iter()
    }

    /// Whether `mv` is in the list.
    pub fn contains(&self, mv: Move) -> bool {
        self.moves.contains(&mv)
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.moves.iter()
    }
}
