//! Cathedral's knowledge for the generic search ([`crate::boardgame::Game`]): moves, keys, final
//! scores, proven value bounds and move ordering; [`packing`] solves the last phase, when the
//! players no longer interact.
//!
//! Values are from the side to move's view: the opponent's final unplaced squares minus the
//! mover's own.

mod facts;
pub mod packing;
mod room;

pub use facts::locked;

use crate::boardgame::Game;
use crate::cathedral::bitboard::Bitboard;
use crate::cathedral::moves::{Move, MoveList, Spared};
use crate::cathedral::piece::SQUARES_PER_PLAYER;
use crate::cathedral::placement::{PlacementId, table};
use crate::cathedral::position::{Position, SLOT_PIECES};
use crate::cathedral::rules::Pass;

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
    let unfit = facts::unfit(position, player).kinds;
    if side
        .hand
        .kinds()
        .any(|piece| unfit & (1 << piece.index()) == 0)
    {
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
            && facts::fits_now(position, player, piece)
    })
}

/// Cells of `owner`'s buildings, territory and the Cathedral that the opponent can never claim:
/// the 8-connected components of `owner`'s territory, buildings and the Cathedral that hold two or
/// more of `owner`'s buildings.
///
/// Proof (docs/solver.md, technique 3): these cells are not the opponent's and stay so until the
/// opponent claims one of them (territory is lost only by capture; `owner`'s buildings leave only
/// by capture; the Cathedral leaves by capture, into someone's territory, and a capture by `owner`
/// puts its cells into `owner`'s territory). A component is 8-connected, so until then any region
/// of the opponent's open cells that meets it contains all of it, with its two or more buildings
/// of `owner`: such a region is never claimed. So the opponent never claims any of these cells,
/// never captures a building among them, and never places on any of them.
/// Computed afresh; [`locked`] remembers it for the position the search is at.
#[inline]
fn compute_locked(position: &Position, owner: crate::Player) -> Bitboard {
    let side = position.side(owner);
    let within = side.territory | side.occupied | position.cathedral();
    let mut locked = Bitboard::EMPTY;
    let mut rest = side.occupied;
    while rest.any() {
        let seed = rest.first_bit();
        let component = Bitboard::fill8(seed, within);
        rest = rest - component;
        // Two or more buildings inside: the component's buildings are more than the seed's one.
        let inside = component & side.occupied;
        let first = side
            .buildings
            .iter()
            .copied()
            .find(|cells| cells.intersects(seed))
            .unwrap_or(inside);
        if inside != first {
            locked |= component;
        }
    }
    locked
}

/// Squares of the pieces in `player`'s hand whose kind fits nowhere on the cells free for it now.
#[inline]
fn unfit_now_squares(position: &Position, player: crate::Player) -> i32 {
    facts::unfit(position, player).squares
}

/// Whether the game lasts as long as `player` has a placement (technique 5): always with forced
/// passing; with voluntary passing, unless the game is over by two passes or `player` has just
/// passed (the opponent may then end it by passing too).
#[inline]
fn can_still_place(position: &Position, player: crate::Player) -> bool {
    position.rules().pass == Pass::Forced
        || position.passes() == 0
        || (position.passes() == 1 && position.to_move() == player)
}

/// What techniques 3, 5 and 6 prove about one player's final unplaced squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FinalRange {
    /// The squares of its pieces that can never stand on the board at the end: all of them
    /// (`at_most`) less the room they have on the cells the player could ever use (technique 6,
    /// which includes technique 3's kinds that fit nowhere there).
    pub at_least: i32,
    /// Squares in hand now plus those of its buildings the opponent could ever capture.
    pub at_most: i32,
    /// What the player can hold itself to, whatever the opponent does: `at_most` less the best
    /// packing of its hand into its locked territory (technique 5). Not a bound on every line
    /// (the player may choose to end with more), but on what its best play ends with.
    pub can_force: i32,
}

/// Techniques 3, 5 and 6: for each player, bounds on its final unplaced squares, indexed by
/// [`crate::Player::index`]. `None` before the Cathedral is placed.
///
/// A player can only ever place on cells outside the opponent's locked cells (`locked`) and
/// outside its own locked buildings (never captured, so never freed). Its buildings outside its
/// locked cells at the end stand there at once, so they hold at most the `room::room` its
/// pieces have there; the rest stays in hand (captures only add to the hand). And the hand grows
/// only by captures of the player's buildings outside its locked cells.
#[inline]
pub fn final_ranges(position: &Position) -> Option<[FinalRange; 2]> {
    final_ranges_where(position, [true; 2], |_, _, _| true)
}

/// [`final_ranges`], but a player's packing (technique 5) is solved only where
/// `wanted(ranges without packings, player, most squares the packing could place)` says it may
/// matter; elsewhere `can_force` is left at `at_most`, which is still true.
#[inline]
fn final_ranges_where(
    position: &Position,
    least_wanted: [bool; 2],
    wanted: impl Fn(&[FinalRange; 2], crate::Player, i32) -> bool,
) -> Option<[FinalRange; 2]> {
    if position.cathedral_to_place() {
        return None;
    }
    let mut ranges = [FinalRange {
        at_least: 0,
        at_most: 0,
        can_force: 0,
    }; 2];
    let locked = [
        locked(position, crate::Player::BOTH[0]),
        locked(position, crate::Player::BOTH[1]),
    ];
    for player in crate::Player::BOTH {
        let side = position.side(player);
        let own_locked = locked[player.index()];
        let capturable = (side.occupied - own_locked).count() as i32;
        let at_most = side.hand.squares() as i32 + capturable;
        let at_least = if least_wanted[player.index()] {
            // The buildings that may stand outside the locked cells at the end: the hand and
            // the buildings the opponent could still capture (they may come back to the hand).
            // They can only ever stand on the usable cells (technique 3): what has no room
            // there stays in hand (technique 6).
            let mut pieces = side.hand;
            for (slot, &cells) in side.buildings.iter().enumerate() {
                if cells.any() && !cells.is_subset(own_locked) {
                    pieces.add(SLOT_PIECES[slot]);
                }
            }
            let usable = !(locked[player.opponent().index()] | (own_locked & side.occupied));
            at_most - room::room_remembered(player, &pieces, usable)
        } else {
            0
        };
        ranges[player.index()] = FinalRange {
            at_least,
            at_most,
            can_force: at_most,
        };
    }
    let without_packing = ranges;
    for player in crate::Player::BOTH {
        let side = position.side(player);
        let private = side.territory & locked[player.index()];
        let most = (side.hand.squares() as i32).min(private.count() as i32);
        if most > 0 && can_still_place(position, player) && wanted(&without_packing, player, most) {
            ranges[player.index()].can_force -=
                packing::best_packing(player, side.hand, private) as i32;
        }
    }
    Some(ranges)
}

/// The bounds of techniques 1, 3, 5 and 6 from the side to move's view, with the packings that
/// `wanted` asks for ([`final_ranges_where`]).
#[inline]
fn bounds_where(
    position: &Position,
    least_wanted: [bool; 2],
    wanted: impl Fn(&[FinalRange; 2], crate::Player, i32) -> bool,
) -> (i32, i32) {
    let Some(ranges) = final_ranges_where(position, least_wanted, wanted) else {
        return (Position::MIN_VALUE, Position::MAX_VALUE);
    };
    let me = position.to_move();
    let opponent = me.opponent();
    let mine = position.unplaced_squares(me) as i32;
    let theirs = position.unplaced_squares(opponent) as i32;
    let (my_range, their_range) = (ranges[me.index()], ranges[opponent.index()]);
    // value = their final - my final, and each side can hold its final to `can_force`.
    let mut lower = their_range.at_least - my_range.can_force;
    let mut upper = their_range.can_force - my_range.at_least;
    if theirs - mine > lower && never_places_again(position, opponent) {
        // My hand can only shrink, theirs only grow.
        lower = lower.max(theirs - mine);
    }
    if theirs - mine < upper && never_places_again(position, me) {
        upper = upper.min(theirs - mine);
    }
    (
        lower.clamp(Position::MIN_VALUE, Position::MAX_VALUE),
        upper.clamp(Position::MIN_VALUE, Position::MAX_VALUE),
    )
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
    fn keeps_turn(&self, mv: Move) -> bool {
        Position::keeps_turn(self, mv)
    }

    /// Exact unless the move claims something.
    #[inline]
    fn key_guess(&self, mv: Move) -> Option<(u64, u64)> {
        let key = self.key_if_nothing_claimed(mv);
        Some((key.0, key.1))
    }

    #[inline]
    fn terminal_value(&self) -> i32 {
        let me = self.to_move();
        self.unplaced_squares(me.opponent()) as i32 - self.unplaced_squares(me) as i32
    }

    #[inline]
    fn is_over(&self) -> bool {
        self.is_game_over()
    }

    #[inline]
    fn count_moves(&self) -> usize {
        Position::count_moves(self) as usize
    }

    /// Proven bounds: technique 1 ("one player plays alone": a player who can never place again
    /// never captures again, so the other's hand can no longer grow, and its own hand can no
    /// longer shrink) and technique 3 (pieces that can never fit; buildings that can never be
    /// captured), see [`final_ranges`].
    #[inline]
    fn bounds(&self) -> (i32, i32) {
        bounds_where(self, [true; 2], |_, _, _| true)
    }

    /// Only what could decide the window: the hand less the room it has on the cells free *now*
    /// is at least the "at least" of techniques 3 and 6 (the free cells lie in the larger usable
    /// set, beside the capturable buildings), and the hand now is at most the "at most". If even
    /// those optimistic figures cannot reach
    /// `beta` (lower side) or `alpha` (upper side), the 8-floods are skipped; likewise technique
    /// 1's test when its bound could not decide, and a packing (technique 5) that could not
    /// move its bound to the window's edge even if it placed every square it might.
    #[inline]
    fn window_bounds(&self, alpha: i32, beta: i32) -> (i32, i32) {
        if self.cathedral_to_place() {
            return (Self::MIN_VALUE, Self::MAX_VALUE);
        }
        let me = self.to_move();
        let opponent = me.opponent();
        let mine = self.unplaced_squares(me) as i32;
        let theirs = self.unplaced_squares(opponent) as i32;
        // A packing into one's territory places at most its cells (and at most the hand).
        let my_packing = mine.min(self.side(me).territory.count() as i32);
        let their_packing = theirs.min(self.side(opponent).territory.count() as i32);
        // The most each side's "at least" (techniques 3 and 6) can be: its hand less the room
        // its hand has on the cells free for it now, which lie in its usable cells. Cheaper
        // tests first: that figure is at most the hand, and at least the squares of the kinds
        // that fit nowhere now (the room holds only kinds that fit).
        let least = |player, unplaced: i32, needed: i32| {
            if unplaced < needed {
                return false;
            }
            unfit_now_squares(self, player) >= needed
                || room::room_within(
                    player,
                    &self.side(player).hand,
                    self.free_for(player),
                    unplaced - needed,
                )
        };
        let lower_may_cut = least(opponent, theirs, beta + (mine - my_packing));
        let upper_may_cut = least(me, mine, (theirs - their_packing) - alpha);
        if lower_may_cut || upper_may_cut {
            let mut least_wanted = [false; 2];
            least_wanted[opponent.index()] = lower_may_cut;
            least_wanted[me.index()] = upper_may_cut;
            return bounds_where(self, least_wanted, |ranges, player, most| {
                let (my_range, their_range) = (ranges[me.index()], ranges[opponent.index()]);
                if player == me {
                    their_range.at_least - (my_range.at_most - most) >= beta
                } else {
                    (their_range.at_most - most) - my_range.at_least <= alpha
                }
            });
        }
        let mut lower = Self::MIN_VALUE;
        let mut upper = Self::MAX_VALUE;
        if theirs - mine >= beta && never_places_again(self, opponent) {
            lower = theirs - mine;
        }
        if theirs - mine <= alpha && never_places_again(self, me) {
            upper = theirs - mine;
        }
        (lower, upper)
    }

    /// Technique 4: a position split into two private packing problems (`packing`).
    #[inline]
    fn solved(&self) -> Option<i32> {
        packing::split_value(self)
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
