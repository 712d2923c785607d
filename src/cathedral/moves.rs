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
///
/// A move means something only against a position: read one with
/// [`legality::parse_move`](crate::legality::parse_move), write one with
/// [`notation::format_move`](crate::notation::format_move).
///
/// ```
/// use cathedral::{Move, Position, Rules};
/// use cathedral::legality::parse_move;
///
/// assert!(Move::PASS.is_pass() && Move::PASS.placement().is_none());
/// let start = Position::new(Rules::CLASSIC);
/// let mv = parse_move(&start, "cathedral:e4,e5,d6,e6,f6,e7")?;
/// assert!(!mv.is_pass() && mv.spared().is_empty());
/// assert_eq!(std::mem::size_of::<Move>(), 4);
/// # Ok::<(), cathedral::legality::MoveError>(())
/// ```
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
///
/// The storage keeps what it held past the list's end (`len`), so that generation can write
/// moves straight into room already there ([`MoveList::append_with`]) instead of gathering them
/// elsewhere and copying them in (measured: the copies were a quarter of making the moves).
///
/// ```
/// use cathedral::{MoveList, Position, Rules};
///
/// let position = Position::new(Rules::CLASSIC);
/// let mut moves = MoveList::new();
/// position.legal_moves(&mut moves);
/// assert_eq!(moves.len() as u32, position.count_moves());
/// // Generating again reuses the list's room: it holds the new moves only.
/// position.legal_moves(&mut moves);
/// assert_eq!(moves.len() as u32, position.count_moves());
/// assert!(moves.iter().all(|mv| !mv.is_pass()));
/// ```
#[derive(Clone, Default)]
pub struct MoveList {
    /// The moves, then whatever earlier lists left: only `..len` is the list.
    storage: Vec<Move>,
    len: usize,
}

impl MoveList {
    /// An empty list with room for 2304 moves.
    pub fn new() -> MoveList {
        MoveList {
            storage: Vec::with_capacity(2304),
            len: 0,
        }
    }

    /// Removes every move.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Appends `mv`.
    #[inline]
    pub fn push(&mut self, mv: Move) {
        if let Some(slot) = self.storage.get_mut(self.len) {
            *slot = mv;
        } else {
            self.storage.push(mv);
        }
        self.len += 1;
    }

    /// Appends every move of `moves`, in order.
    #[inline]
    pub fn extend_from_slice(&mut self, moves: &[Move]) {
        self.storage.truncate(self.len);
        self.storage.extend_from_slice(moves);
        self.len = self.storage.len();
    }

    /// Appends the first of `N` moves that `write` writes in the room it is handed, as many as
    /// it returns (at most `N`).
    #[expect(
        clippy::expect_used,
        reason = "the storage was just grown to hold N moves past the list's end"
    )]
    #[inline]
    pub fn append_with<const N: usize>(&mut self, write: impl FnOnce(&mut [Move; N]) -> usize) {
        if self.storage.len() < self.len + N {
            self.storage.resize(self.len + N, Move::PASS);
        }
        let room = self.storage[self.len..]
            .first_chunk_mut::<N>()
            .expect("the storage was just made long enough");
        self.len += write(room).min(N);
    }

    /// Number of moves in the list.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list holds no move.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves, in order.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.storage[..self.len]
    }

    /// The moves, in order, for reordering in place.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.storage[..self.len]
    }

    /// Iterates over the moves in order.
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    /// Whether `mv` is in the list.
    pub fn contains(&self, mv: Move) -> bool {
        self.as_slice().contains(&mv)
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::boardgame::Rng;

    /// The list is its moves and nothing of what its storage held before: seeded random pushes,
    /// appends, copies and clears against a plain vector.
    #[test]
    fn a_reused_list_holds_exactly_its_moves() {
        let mut rng = Rng::new(11);
        let mut list = MoveList::new();
        let mut plain: Vec<Move> = Vec::new();
        let some_move = |rng: &mut Rng| Move::place(PlacementId(rng.below(500) as u16));
        for _ in 0..2000 {
            match rng.below(5) {
                0 => {
                    list.clear();
                    plain.clear();
                }
                1 => {
                    let mv = some_move(&mut rng);
                    list.push(mv);
                    plain.push(mv);
                }
                2 => {
                    let moves: Vec<Move> =
                        (0..rng.below(40)).map(|_| some_move(&mut rng)).collect();
                    list.extend_from_slice(&moves);
                    plain.extend_from_slice(&moves);
                }
                _ => {
                    let moves: Vec<Move> =
                        (0..rng.below(140)).map(|_| some_move(&mut rng)).collect();
                    list.append_with::<128>(|room| {
                        // Writes past what it returns too, as generation may.
                        for (slot, mv) in room.iter_mut().zip(&moves) {
                            *slot = *mv;
                        }
                        moves.len()
                    });
                    plain.extend_from_slice(&moves[..moves.len().min(128)]);
                }
            }
            assert_eq!(list.as_slice(), plain.as_slice());
            assert_eq!(list.len(), plain.len());
            assert_eq!(list.iter().count(), plain.len());
            assert_eq!(format!("{list:?}"), format!("{plain:?}"));
        }
    }
}
