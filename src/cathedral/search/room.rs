//! Technique 6: how many squares of a set of buildings can stand on some cells at once.
//!
//! Buildings on the board never overlap, so a set of buildings placed inside some cells covers
//! at most that many cells; and a building can only stand where its kind fits. So if the
//! buildings of `size >= k` can only stand on the cells covered by some placement of such a kind
//! inside the cells, they place at most that many squares, and the smaller ones at most their
//! own squares. The least of these figures over `k` bounds what the whole set can place
//! (`docs/solver.md`, technique 6).

use crate::Player;
use crate::cathedral::bitboard::Bitboard;
use crate::cathedral::piece::{Hand, Piece};
use crate::cathedral::placement::table;
use std::cell::RefCell;

/// Largest building size (the Cathedral, never in a hand, aside).
const MAX_SIZE: usize = 5;

/// The most squares of `pieces` (a multiset of `player`'s buildings) that can stand on `cells`
/// at the same time.
///
/// Let `C_k` be the cells covered by some placement, inside `cells`, of a kind in `pieces` of at
/// least `k` squares. Any buildings of `pieces` standing on `cells` together cover at most
/// `|C_k|` squares with their buildings of at least `k` squares (those never overlap, and each
/// lies in `C_k`) and at most the squares of the others: the result is the least of
/// `|C_k| + squares of pieces smaller than k` for `k = 1..=5`, and the squares of the kinds that
/// fit somewhere.
#[inline]
pub fn room(player: Player, pieces: &Hand, cells: Bitboard) -> i32 {
    scan(player, pieces, cells, None).1
}

/// One remembered [`room`] with everything it depends on.
#[derive(Clone, Copy, Default)]
struct Remembered {
    /// `None` while the entry is empty.
    player: Option<Player>,
    pieces: Hand,
    cells: Bitboard,
    room: i32,
}

/// `2^REMEMBERED_LOG2` remembered rooms per thread (about 200 KiB).
const REMEMBERED_LOG2: u32 = 12;

thread_local! {
    static REMEMBERED: RefCell<Vec<Remembered>> =
        RefCell::new(vec![Remembered::default(); 1 << REMEMBERED_LOG2]);
}

/// [`room`], remembered by its arguments. The search asks for the room of a player's pieces on
/// its usable cells (technique 6), and both change only when a building is locked or a region
/// becomes locked: most positions of a search ask the same question again.
#[inline]
pub fn room_remembered(player: Player, pieces: &Hand, cells: Bitboard) -> i32 {
    let mut mixed = (cells.0 as u64) ^ ((cells.0 >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    for (i, &count) in pieces.0.iter().enumerate() {
        mixed ^= (count as u64) << (2 * i + 40);
    }
    mixed ^= player.index() as u64;
    let slot = (mixed.wrapping_mul(0xBF58_476D_1CE4_E5B9) >> (64 - REMEMBERED_LOG2)) as usize;
    REMEMBERED.with_borrow_mut(|entries| {
        let entry = &mut entries[slot];
        if entry.player == Some(player) && entry.cells == cells && entry.pieces == *pieces {
            return entry.room;
        }
        let found = room(player, pieces, cells);
        *entry = Remembered {
            player: Some(player),
            pieces: *pieces,
            cells,
            room: found,
        };
        found
    })
}

/// Whether [`room`] is at most `limit`, often found before the smaller kinds are looked at.
#[inline]
pub fn room_within(player: Player, pieces: &Hand, cells: Bitboard, limit: i32) -> bool {
    scan(player, pieces, cells, Some(limit)).1 <= limit
}

/// Bounds `(lower, upper)` on [`room`]: the room itself (both equal), unless `limit` is given
/// and the bounds already show on which side of it the room lies.
#[inline]
fn scan(player: Player, pieces: &Hand, cells: Bitboard, limit: Option<i32>) -> (i32, i32) {
    let table = table();
    // Largest kinds first: `larger` is then `C_k` for the size `k` just done, and once it is all
    // of `cells` the smaller kinds only need a test that they fit somewhere.
    let mut larger = Bitboard::EMPTY;
    let mut saturated = false;
    // Squares of the fitting pieces of the sizes done so far, the least `|C_k| - that` (and 0,
    // for the term "the squares that fit"), and the squares of the pieces not looked at yet.
    let mut fitting = 0;
    let mut least = 0;
    let mut left = pieces.squares() as i32;
    let mut size = MAX_SIZE as u32 + 1;
    for piece in Piece::PLAYER_KINDS.into_iter().rev() {
        let count = pieces.count(piece) as i32;
        if count == 0 {
            continue;
        }
        if piece.size() != size && !saturated {
            least = least.min(larger.count() as i32 - fitting);
            saturated = larger == cells;
            if let Some(limit) = limit {
                // The pieces left fit at most entirely; the terms of the smaller sizes still to
                // come are at least `|C_k| >= |larger|`.
                let upper = (fitting + left + least).min(cells.count() as i32);
                let lower = (fitting + least).min(larger.count() as i32);
                if upper <= limit || lower > limit {
                    return (lower, upper);
                }
            }
        }
        size = piece.size();
        left -= size as i32 * count;
        let orientations = &table.piece(Some(player), piece).orientations;
        let fits = if saturated {
            orientations.iter().any(|o| o.anchors(cells).any())
        } else {
            let mut covered = Bitboard::EMPTY;
            for orientation in orientations {
                covered |= orientation.covered(orientation.anchors(cells));
            }
            larger |= covered;
            covered.any()
        };
        if fits {
            fitting += size as i32 * count;
        }
    }
    least = least.min(larger.count() as i32 - fitting);
    // The least over k of `|C_k| + (fitting - fitting of size >= k)`, and `fitting` itself.
    (fitting + least, fitting + least)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::boardgame::Rng;
    use crate::cathedral::cell::Cell;
    use crate::cathedral::placement::PlacementId;

    /// Up to a full set of each kind.
    pub(in crate::cathedral::search) fn random_hand(rng: &mut Rng) -> Hand {
        let mut pieces = Hand::EMPTY;
        for piece in Piece::PLAYER_KINDS {
            for _ in 0..rng.below(piece.set_count() as u64 + 1) {
                pieces.add(piece);
            }
        }
        pieces
    }

    /// The plain definition, placement by placement.
    fn reference(player: Player, pieces: &Hand, cells: Bitboard) -> i32 {
        let table = table();
        let mut best = i32::MAX;
        let fitting: Vec<(Piece, Vec<Bitboard>)> = pieces
            .kinds()
            .map(|piece| {
                let masks = table
                    .ids(Some(player), piece)
                    .map(|id: PlacementId| table.get(id).mask)
                    .filter(|mask| mask.is_subset(cells))
                    .collect();
                (piece, masks)
            })
            .filter(|(_, masks): &(Piece, Vec<Bitboard>)| !masks.is_empty())
            .collect();
        for k in 1..=MAX_SIZE as u32 + 1 {
            let mut covered = Bitboard::EMPTY;
            let mut smaller = 0;
            for (piece, masks) in &fitting {
                if piece.size() >= k {
                    for &mask in masks {
                        covered |= mask;
                    }
                } else {
                    smaller += (piece.size() * pieces.count(*piece) as u32) as i32;
                }
            }
            best = best.min(covered.count() as i32 + smaller);
        }
        best
    }

    #[test]
    fn room_matches_its_plain_definition() {
        let mut rng = Rng::new(6);
        let mut below_hand = 0;
        for _ in 0..3000 {
            let player = Player::BOTH[rng.below(2) as usize];
            // Half the time cells kept with a random density, so that regions of every size
            // occur; half the time one to three small rectangles with a few cells taken out,
            // where large pieces cover nearly everything and the hand is larger than the room.
            let mut cells = Bitboard::EMPTY;
            if rng.below(2) == 0 {
                let density = 30 + rng.below(60);
                for cell in Cell::all() {
                    if rng.below(100) < density {
                        cells.insert(cell);
                    }
                }
            } else {
                for _ in 0..1 + rng.below(3) {
                    let (file, rank) = (rng.below(10) as u8, rng.below(10) as u8);
                    let (width, height) = (2 + rng.below(4) as u8, 2 + rng.below(4) as u8);
                    for cell in Cell::all() {
                        if (file..file + width).contains(&cell.file())
                            && (rank..rank + height).contains(&cell.rank())
                        {
                            cells.insert(cell);
                        }
                    }
                }
                for _ in 0..rng.below(4) {
                    let bit = Cell::all().nth(rng.below(100) as usize).expect("100 cells");
                    cells = cells - Bitboard::from_cell(bit);
                }
            }
            let pieces = random_hand(&mut rng);
            let expected = reference(player, &pieces, cells);
            assert_eq!(
                room(player, &pieces, cells),
                expected,
                "{cells:?} {pieces:?}"
            );
            for limit in [
                expected - 3,
                expected - 1,
                expected,
                expected + 1,
                expected + 3,
            ] {
                assert_eq!(
                    room_within(player, &pieces, cells, limit),
                    expected <= limit,
                    "{limit} {cells:?} {pieces:?}"
                );
            }
            below_hand += (expected < pieces.squares() as i32 && expected > 0) as u32;
        }
        assert!(below_hand > 500, "{below_hand}");
    }

    /// The remembered room is the room, whatever was asked before: many hands on the same
    /// cells and the same hand on many cells, so that entries share slots.
    #[test]
    fn remembered_room_is_the_room() {
        let mut rng = Rng::new(16);
        let random_cells = |rng: &mut Rng| {
            let mut cells = Bitboard::EMPTY;
            for cell in Cell::all() {
                if rng.below(100) < 70 {
                    cells.insert(cell);
                }
            }
            cells
        };
        let mut asked = Vec::new();
        for _ in 0..4 {
            let cells = random_cells(&mut rng);
            let pieces = random_hand(&mut rng);
            for _ in 0..3000 {
                let player = Player::BOTH[rng.below(2) as usize];
                asked.push((player, random_hand(&mut rng), cells));
                asked.push((player, pieces, random_cells(&mut rng)));
            }
        }
        let mut rooms = std::collections::HashSet::new();
        for round in 0..2 {
            for &(player, pieces, cells) in &asked {
                let expected = room(player, &pieces, cells);
                assert_eq!(
                    room_remembered(player, &pieces, cells),
                    expected,
                    "round {round}"
                );
                rooms.insert(expected);
            }
        }
        assert!(rooms.len() > 20, "{}", rooms.len());
    }

    /// Technique 6 through [`super::super::final_ranges`]: along random games under every rule
    /// variant, each player's final unplaced squares are at least the `at_least` proven at every
    /// earlier position of the game. Any line, not only a perfect one: the bound holds whatever
    /// either player does.
    #[test]
    fn no_line_ends_below_the_proven_least() {
        use crate::Rules;
        use crate::cathedral::moves::MoveList;
        use crate::cathedral::search::final_ranges;
        let mut rng = Rng::new(66);
        let (mut checked, mut positive, mut tight) = (0, 0, 0);
        let mut moves = MoveList::default();
        for game in 0..400 {
            let rules = Rules::all().nth(game % 8).expect("eight variants");
            let mut position = crate::Position::new(rules);
            let mut proven = Vec::new();
            loop {
                if let Some(ranges) = final_ranges(&position) {
                    proven.push(ranges.map(|range| range.at_least));
                }
                position.legal_moves(&mut moves);
                let moves = moves.as_mut_slice();
                if moves.is_empty() {
                    break;
                }
                // Mostly the largest pieces, so that games also end with pieces left for room.
                let size =
                    |mv: &crate::Move| mv.placement().map_or(0, |id| table().get(id).piece.size());
                let largest = moves.iter().map(size).max().unwrap_or(0);
                let pick = if rng.below(2) == 0 {
                    let top: Vec<_> = moves
                        .iter()
                        .copied()
                        .filter(|m| size(m) == largest)
                        .collect();
                    top[rng.below(top.len() as u64) as usize]
                } else {
                    moves[rng.below(moves.len() as u64) as usize]
                };
                position.play(pick);
            }
            for player in Player::BOTH {
                let last = position.unplaced_squares(player) as i32;
                for least in &proven {
                    let least = least[player.index()];
                    assert!(
                        least <= last,
                        "{player:?} ends with {last} below {least}: game {game}"
                    );
                    checked += 1;
                    positive += (least > 0) as u32;
                    tight += (least > 0 && least == last) as u32;
                }
            }
        }
        assert!(
            checked > 20_000 && positive > 4000 && tight > 2000,
            "{checked} {positive} {tight}"
        );
    }
}
