//! Cathedral's knowledge for the generic search: moves, keys, final scores, proven value bounds
//! and move ordering.
//!
//! Values are from the side to move's view: the opponent's final unplaced squares minus the
//! mover's own.

use super::game::Game;
use crate::moves::{Move, MoveList, Spared};
use crate::piece::{Piece, SQUARES_PER_PLAYER};
use crate::placement::{PlacementId, table};
use crate::position::{Position, SLOT_PIECES};

/// Whether `player` can never place a building again (and so never captures again).
///
/// Cells free for a player (empty, not the opponent's territory) only become free again through
/// that player's own captures, which need a move; and the player's hand grows only when one of its
/// buildings is captured. A building 8-touching another of its owner's buildings or the Cathedral
/// is never alone in a region of the opponent's open cells, so the opponent can never capture it
/// (and the Cathedral next to it is protected the same way). So if no piece in hand, nor any
/// capturable building on the board, fits on the cells free now, the player is done for good.
/// Returning `false` is always safe: it only withholds a bound.
#[inline]
pub fn never_places_again(position: &Position, player: crate::Player) -> bool {
    if position.cathedral_to_place() {
        return false;
    }
    let free = position.free_for(player);
    if free.is_empty() {
        return true;
    }
    if free.count() > 12 {
        return false;
    }
    let side = position.side(player);
    let table = table();
    let fits = |piece: Piece| {
        table
            .piece(Some(player), piece)
            .orientations
            .iter()
            .any(|o| o.anchors(free).any())
    };
    if side.hand.kinds().any(fits) {
        return false;
    }
    // A building on the board matters only if it fits and could come back by capture.
    !side.buildings.iter().enumerate().any(|(slot, &cells)| {
        let piece = SLOT_PIECES[slot];
        cells.any()
            && side.hand.count(piece) == 0
            && !cells
                .dilate8()
                .intersects((side.occupied - cells) | position.cathedral())
            && fits(piece)
    })
}

impl Game for Position {
    type Move = Move;
    type Buffer = MoveList;

    const MIN_VALUE: i32 = -(SQUARES_PER_PLAYER as i32);
    const MAX_VALUE: i32 = SQUARES_PER_PLAYER as i32;

    #[inline]
    fn key(&self) -> (u64, u64) {
        let key = Position::key(self);
        (key.0, key.1)
    }

    #[inline]
    fn generate(&self, buffer: &mut MoveList) {
        self.legal_moves(buffer);
    }

    #[inline]
    fn moves(buffer: &mut MoveList) -> &mut [Move] {
        buffer.as_mut_slice()
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        Position::play(self, mv);
    }

    #[inline]
    fn terminal_value(&self) -> i32 {
        let me = self.to_move();
        self.unplaced_squares(me.opponent()) as i32 - self.unplaced_squares(me) as i32
    }

    /// Proven bounds (technique 1, "one player plays alone"): a player who can never place again
    /// never captures again, so the other's hand can no longer grow, and its own hand can no
    /// longer shrink.
    #[inline]
    fn bounds(&self) -> (i32, i32) {
        let me = self.to_move();
        let opponent = me.opponent();
        let mine = self.unplaced_squares(me) as i32;
        let theirs = self.unplaced_squares(opponent) as i32;
        let mut lower = Self::MIN_VALUE;
        let mut upper = Self::MAX_VALUE;
        if never_places_again(self, opponent) {
            // My hand can only shrink, theirs only grow.
            lower = lower.max(theirs - mine);
        }
        if never_places_again(self, me) {
            upper = upper.min(theirs - mine);
        }
        (lower, upper)
    }

    /// Larger pieces first; moves into the mover's own territory (which nobody can take away) last, then a pass.
    #[inline]
    fn move_score(&self, mv: Move) -> i32 {
        let Some(id) = mv.placement() else {
            return -100;
        };
        let placement = table().get(id);
        let side = self.side(self.to_move());
        if placement.mask.is_subset(side.territory) {
            return -50 + placement.piece.size() as i32;
        }
        // A bonus for moves touching the mover's walls or the edge (a cheap guess at claims) was
        // measured and dropped: it changed nothing (docs/performance.md).
        placement.piece.size() as i32
    }

    #[inline]
    fn encode(mv: Move) -> u32 {
        match mv.placement() {
            None => 0x7FFF_FFFF,
            Some(id) => (mv.spared().0 as u32) << 16 | id.0 as u32,
        }
    }

    #[inline]
    fn decode(code: u32) -> Move {
        if code == 0x7FFF_FFFF {
            Move::PASS
        } else {
            Move::place_sparing(PlacementId(code as u16), Spared((code >> 16) as u16))
        }
    }
}
