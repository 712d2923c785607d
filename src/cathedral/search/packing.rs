//! Technique 4: positions that fall apart into two private packing problems.
//!
//! When no capture can ever happen again and each player can only ever place inside its own
//! territory, the players no longer interact: each ends with its hand minus the best packing of
//! its hand into its territory. See `docs/solver.md`, technique 4.

use crate::cathedral::bitboard::Bitboard;
use crate::cathedral::piece::{Hand, Piece};
use crate::cathedral::placement::table;
use crate::cathedral::player::Player;
use crate::cathedral::position::Position;
use crate::cathedral::rules::Pass;
use std::cell::RefCell;
use std::sync::OnceLock;

use super::facts::only_in_territory;
use super::locked;

/// The exact value (side to move's view) if the position has split into two private packing
/// problems, else `None`. Conditions (all checked):
/// 1. both players have made their first move, the Cathedral is placed, the game is not over by
///    two passes (with voluntary passing and one pass just made, the mover may also end the game
///    now: the value is then the better of that and the split value);
/// 2. every placement either player could make now lies inside its own territory;
/// 3. every building of each player, and its territory, lies in its locked cells (never captured,
///    never claimed by the opponent), and the Cathedral is gone or locked for both players.
pub fn split_value(position: &Position) -> Option<i32> {
    if position.cathedral_to_place()
        || (position.rules().pass == Pass::Voluntary && position.passes() >= 2)
    {
        return None;
    }
    if Player::BOTH
        .iter()
        .any(|&player| !position.side(player).first_move_made)
    {
        return None;
    }
    for player in Player::BOTH {
        if !only_in_territory(position, player) {
            return None;
        }
    }
    let locked = Player::BOTH.map(|player| locked(position, player));
    for player in Player::BOTH {
        let side = position.side(player);
        if !(side.occupied | side.territory).is_subset(locked[player.index()]) {
            return None;
        }
    }
    let cathedral = position.cathedral();
    if cathedral.any() && !cathedral.is_subset(locked[0] & locked[1]) {
        return None;
    }
    let me = position.to_move();
    let finals = Player::BOTH.map(|player| {
        let side = position.side(player);
        side.hand.squares() as i32 - best_packing(player, side.hand, side.territory) as i32
    });
    let split = finals[me.opponent().index()] - finals[me.index()];
    if position.rules().pass == Pass::Voluntary && position.passes() == 1 {
        // The opponent just passed: the mover may end the game at once by passing too.
        let now =
            position.unplaced_squares(me.opponent()) as i32 - position.unplaced_squares(me) as i32;
        return Some(split.max(now));
    }
    Some(split)
}

/// One remembered packing: the region, the player and hand (see [`tag`]), the squares placed.
#[derive(Clone, Copy, Default)]
struct Entry {
    region: u128,
    tag: u64,
    squares: u8,
}

/// Best packings by (player, hand, region), in a fixed-size table: buckets of two entries, a new
/// packing replacing the one of the smaller region (the cheaper to find again). Unlike a growing
/// map it never needs clearing and its memory is fixed.
struct Memo {
    entries: Vec<Entry>,
}

/// `2^MEMO_BUCKETS_LOG2` buckets of two 32-byte entries per thread (8 MiB).
const MEMO_BUCKETS_LOG2: u32 = 17;

/// Marks a written entry (an all-zero entry is empty).
const VALID: u64 = 1 << 63;

/// The player and hand in one word: four bits per kind, the player above them.
#[inline]
fn tag(player: Player, hand: Hand) -> u64 {
    let counts = hand
        .0
        .iter()
        .enumerate()
        .fold(0u64, |tag, (i, &n)| tag | u64::from(n) << (4 * i));
    VALID | (player as u64) << 48 | counts
}

impl Memo {
    fn new() -> Memo {
        Memo {
            entries: vec![Entry::default(); 2 << MEMO_BUCKETS_LOG2],
        }
    }

    #[inline]
    fn bucket(region: u128, tag: u64) -> usize {
        let mixed = (region as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ ((region >> 64) as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
            ^ tag.wrapping_mul(0x1656_67B1_9E37_79F9);
        let mixed = (mixed ^ mixed >> 29).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        2 * (mixed >> (64 - MEMO_BUCKETS_LOG2)) as usize
    }

    #[inline]
    fn get(&self, region: u128, tag: u64) -> Option<u32> {
        let b = Self::bucket(region, tag);
        self.entries[b..b + 2]
            .iter()
            .find(|e| e.tag == tag && e.region == region)
            .map(|e| u32::from(e.squares))
    }

    #[inline]
    fn insert(&mut self, region: u128, tag: u64, squares: u32) {
        let b = Self::bucket(region, tag);
        let [first, second] = &mut self.entries[b..b + 2] else {
            unreachable!("a bucket holds two entries")
        };
        let cells = |e: &Entry| {
            if e.tag == 0 {
                0
            } else {
                e.region.count_ones() + 1
            }
        };
        let slot = if cells(first) <= cells(second) {
            first
        } else {
            second
        };
        *slot = Entry {
            region,
            tag,
            squares: squares as u8,
        };
    }
}

thread_local! {
    /// Best packings found by this thread.
    static MEMO: RefCell<Option<Memo>> = const { RefCell::new(None) };
}

/// The most squares `player` can place from `hand` on `region` (buildings may not overlap and
/// must lie wholly inside the region), remembered.
pub fn best_packing(player: Player, hand: Hand, region: Bitboard) -> u32 {
    MEMO.with(|memo| {
        let mut memo = memo.borrow_mut();
        pack(player, hand, region, memo.get_or_insert_with(Memo::new))
    })
}

/// The packing problem reduced to what can matter: kinds with no placement inside the region
/// leave the hand, and cells no placement of a kind in hand covers leave the region (neither can
/// ever take part in a packing). Smaller problems share memo entries, and the search's cap (the
/// hand's squares or the region's cells, whichever is fewer) gets tighter.
#[inline]
fn usable(player: Player, mut hand: Hand, region: Bitboard) -> (Hand, Bitboard) {
    let table = table();
    let mut covered = Bitboard::EMPTY;
    for piece in Piece::PLAYER_KINDS {
        if hand.count(piece) == 0 {
            continue;
        }
        let mut fits = false;
        for orientation in &table.piece(Some(player), piece).orientations {
            let anchors = orientation.anchors(region);
            fits |= anchors.any();
            covered |= orientation.covered(anchors);
        }
        if !fits {
            hand.0[piece.index()] = 0;
        }
    }
    (hand, region & covered)
}

/// A player's placements by their lowest cell's bit: `(piece index, cells)`, larger pieces first.
type ByLowestCell = Vec<Vec<(u8, u128)>>;

/// [`ByLowestCell`] for Light and Dark, built once.
fn by_lowest_cell() -> &'static [ByLowestCell; 2] {
    static INDEX: OnceLock<[ByLowestCell; 2]> = OnceLock::new();
    INDEX.get_or_init(|| {
        let table = table();
        Player::BOTH.map(|player| {
            let mut index: ByLowestCell = vec![Vec::new(); 128];
            for piece in Piece::PLAYER_KINDS.into_iter().rev() {
                for id in table.ids(Some(player), piece) {
                    let mask = table.get(id).mask.0;
                    index[mask.trailing_zeros() as usize].push((piece.index() as u8, mask));
                }
            }
            index
        })
    })
}

/// The best packing, remembered under the problem as given and under its reduced form.
fn pack(player: Player, hand: Hand, region: Bitboard, memo: &mut Memo) -> u32 {
    if hand.is_empty() || region.is_empty() {
        return 0;
    }
    let tag_given = tag(player, hand);
    if let Some(squares) = memo.get(region.0, tag_given) {
        return squares;
    }
    let (reduced_hand, reduced_region) = usable(player, hand, region);
    let squares = if (reduced_hand, reduced_region) == (hand, region) {
        search(player, hand, region, memo)
    } else if reduced_hand.is_empty() || reduced_region.is_empty() {
        0
    } else {
        let tag_reduced = tag(player, reduced_hand);
        match memo.get(reduced_region.0, tag_reduced) {
            Some(squares) => squares,
            None => {
                let squares = search(player, reduced_hand, reduced_region, memo);
                memo.insert(reduced_region.0, tag_reduced, squares);
                squares
            }
        }
    };
    memo.insert(region.0, tag_given, squares);
    squares
}

/// Exhaustive packing of a reduced problem ([`usable`]): the region's lowest cell is either left
/// empty or covered by a building whose lowest cell it is.
fn search(player: Player, hand: Hand, region: Bitboard, memo: &mut Memo) -> u32 {
    let cap = hand.squares().min(region.count());
    let lowest = region.0.trailing_zeros() as usize;
    let mut best = 0;
    for &(piece, mask) in &by_lowest_cell()[player.index()][lowest] {
        if hand.0[piece as usize] == 0 || mask & !region.0 != 0 {
            continue;
        }
        let mut rest_hand = hand;
        rest_hand.0[piece as usize] -= 1;
        let v = mask.count_ones() + pack(player, rest_hand, Bitboard(region.0 & !mask), memo);
        if v > best {
            best = v;
            if best == cap {
                break;
            }
        }
    }
    if best < cap {
        best = best.max(pack(
            player,
            hand,
            Bitboard(region.0 & (region.0 - 1)),
            memo,
        ));
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::boardgame::Rng;

    /// The plain definition: the best of leaving everything empty and of every placement of every
    /// kind in hand that lies inside the region, followed by the best packing of what is left.
    fn reference(player: Player, hand: Hand, region: Bitboard) -> u32 {
        let table = table();
        let mut best = 0;
        for piece in hand.kinds() {
            let mut rest = hand;
            rest.remove(piece);
            for id in table.ids(Some(player), piece) {
                let mask = table.get(id).mask;
                if mask.is_subset(region) {
                    best = best.max(piece.size() + reference(player, rest, region - mask));
                }
            }
        }
        best
    }

    /// A random region: a few random walks on the board, `cells` steps in all.
    fn random_region(rng: &mut Rng, cells: usize) -> Bitboard {
        let all: Vec<_> = crate::cathedral::cell::Cell::all().collect();
        let mut region = Bitboard::EMPTY;
        let mut at = Bitboard::from_cell(all[rng.below(all.len() as u64) as usize]);
        while (region.count() as usize) < cells {
            region |= at;
            if rng.below(6) == 0 {
                at = Bitboard::from_cell(all[rng.below(all.len() as u64) as usize]);
                continue;
            }
            let steps: Vec<_> = (at.dilate4() & Bitboard::FULL & !at).cells().collect();
            at = Bitboard::from_cell(steps[rng.below(steps.len() as u64) as usize]);
        }
        region
    }

    #[test]
    fn best_packing_matches_the_plain_definition() {
        let mut rng = Rng::new(7);
        let mut below_hand = 0;
        for case in 0..3000 {
            let player = Player::BOTH[case % 2];
            let mut hand = Hand::EMPTY;
            for piece in Piece::PLAYER_KINDS {
                for _ in 0..Hand::FULL.count(piece) {
                    if rng.below(3) == 0 {
                        hand.add(piece);
                    }
                }
            }
            let cells = 4 + rng.below(9) as usize;
            let region = random_region(&mut rng, cells);
            let expected = reference(player, hand, region);
            assert_eq!(
                best_packing(player, hand, region),
                expected,
                "{player:?} {hand:?} {region:?}"
            );
            below_hand += usize::from(expected < hand.squares().min(region.count()));
        }
        // The cases where the search cannot stop at its cap are the ones that test it.
        assert!(below_hand > 500, "only {below_hand} cases below the cap");
    }
}
