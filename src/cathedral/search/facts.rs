//! What the solved-case test and the bounds share about one position, computed once per node.
//!
//! The search asks each position first whether it is solved ([`super::packing::split_value`]),
//! then, unless the table decides, for its bounds; both need which kinds in hand fit where and
//! the locked cells ([`super::compute_locked`], two 8-floods). The last position asked about is
//! remembered per thread under its key, so the second question reuses the first one's work; each
//! side's locked cells are also remembered by what they depend on, across positions. Whether a
//! kind fits is first asked of witnesses kept across positions: a placement that fitted (it
//! still fits if its cells are still free) and cells it fitted nowhere on (nor on any part).

use super::compute_locked;
use crate::Player;
use crate::cathedral::bitboard::Bitboard;
use crate::cathedral::piece::{BUILDINGS_PER_PLAYER, Hand, PLAYER_PIECES, Piece};
use crate::cathedral::placement::table;
use crate::cathedral::position::Position;
use crate::cathedral::zobrist::Key;
use std::cell::RefCell;

/// Which kinds in one player's hand fit nowhere on the cells free for it now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unfit {
    /// Kinds in hand that fit nowhere free now (bit = piece index).
    pub kinds: u16,
    /// The squares of those kinds in hand.
    pub squares: i32,
}

/// What is known so far about the position with `key`.
#[derive(Clone, Copy, Default)]
struct Node {
    key: Option<Key>,
    unfit: [Option<Unfit>; 2],
    only_in_territory: [Option<bool>; 2],
    locked: [Option<Bitboard>; 2],
}

/// What one thread last found about one player's kind, kept across positions: along a line of
/// play the free cells mostly shrink by a building at a time, so a placement that fitted a
/// moment ago usually still does, and a kind that fitted nowhere still does not.
#[derive(Clone, Copy, Default)]
struct Witness {
    /// The cells of a placement of the kind that fitted somewhere (empty: none known). If they
    /// are all free, the kind fits.
    fitted: Bitboard,
    /// Cells on which the kind fits nowhere, nor so on any part of them (empty at first, which
    /// is true: nothing fits on no cells).
    nowhere_in: Bitboard,
}

/// One thread's facts: the position last asked about, and the witnesses by player and kind.
struct Facts {
    node: Node,
    witnesses: [[Witness; PLAYER_PIECES]; 2],
}

impl Facts {
    const NEW: Facts = Facts {
        node: Node {
            key: None,
            unfit: [None; 2],
            only_in_territory: [None; 2],
            locked: [None; 2],
        },
        witnesses: [[Witness {
            fitted: Bitboard::EMPTY,
            nowhere_in: Bitboard::EMPTY,
        }; PLAYER_PIECES]; 2],
    };
}

thread_local! {
    static FACTS: RefCell<Facts> = const { RefCell::new(Facts::NEW) };
}

/// Runs `f` on the facts remembered for `position` (forgetting those of any other position) and
/// on the witnesses.
#[inline]
fn with_facts<T>(
    position: &Position,
    f: impl FnOnce(&mut Node, &mut [[Witness; PLAYER_PIECES]; 2]) -> T,
) -> T {
    FACTS.with_borrow_mut(|facts| {
        let key = position.key();
        if facts.node.key != Some(key) {
            facts.node = Node {
                key: Some(key),
                ..Node::default()
            };
        }
        f(&mut facts.node, &mut facts.witnesses)
    })
}

/// Which kinds in `player`'s hand fit nowhere on the cells free for it now.
#[inline]
pub fn unfit(position: &Position, player: Player) -> Unfit {
    with_facts(position, |node, witnesses| {
        *node.unfit[player.index()].get_or_insert_with(|| {
            let side = position.side(player);
            let free = position.free_for(player);
            let mut result = Unfit {
                kinds: 0,
                squares: 0,
            };
            for piece in side.hand.kinds() {
                let witness = &mut witnesses[player.index()][piece.index()];
                if !kind_fits(player, piece, free, witness) {
                    result.kinds |= 1 << piece.index();
                    result.squares += piece.size() as i32 * side.hand.count(piece) as i32;
                }
            }
            result
        })
    })
}

/// Whether `piece` (not in hand, perhaps) has a placement for `player` on the cells free now.
#[inline]
pub fn fits_now(position: &Position, player: Player, piece: Piece) -> bool {
    with_facts(position, |_, witnesses| {
        let witness = &mut witnesses[player.index()][piece.index()];
        kind_fits(player, piece, position.free_for(player), witness)
    })
}

/// Whether every placement of a kind in `player`'s hand on the cells free for it now lies
/// inside its territory.
#[inline]
pub fn only_in_territory(position: &Position, player: Player) -> bool {
    with_facts(position, |node, witnesses| {
        *node.only_in_territory[player.index()].get_or_insert_with(|| {
            let side = position.side(player);
            only_inside(
                player,
                &side.hand,
                position.free_for(player),
                side.territory,
                &mut witnesses[player.index()],
            )
        })
    })
}

/// Whether every placement of a kind in `hand` on `free` lies inside `territory`.
#[inline]
fn only_inside(
    player: Player,
    hand: &Hand,
    free: Bitboard,
    territory: Bitboard,
    witnesses: &mut [Witness; PLAYER_PIECES],
) -> bool {
    // Every placement is 4-connected, so one that fits on the free cells and leaves the
    // territory lies within the free cells 4-connected to the free cells outside it. When none
    // of those touches the territory (always, in the games tried: a territory is walled in),
    // that is just the cells outside it, and the question is whether any kind fits there at all,
    // which the witnesses mostly answer.
    let outside = free - territory;
    if outside.is_empty() {
        return true;
    }
    if !outside.dilate4().intersects(territory) {
        return hand
            .kinds()
            .all(|piece| !kind_fits(player, piece, outside, &mut witnesses[piece.index()]));
    }
    let table = table();
    !hand.kinds().any(|piece| {
        table
            .piece(Some(player), piece)
            .orientations
            .iter()
            .any(|orientation| (orientation.anchors(free) - orientation.anchors(territory)).any())
    })
}

/// Whether `piece` has a placement for `player` on `free`, asking `witness` first and
/// updating it. The witnesses answer most questions: only their two tests are inlined.
#[inline(always)]
fn kind_fits(player: Player, piece: Piece, free: Bitboard, witness: &mut Witness) -> bool {
    if witness.fitted.any() && witness.fitted.is_subset(free) {
        return true;
    }
    if free.is_subset(witness.nowhere_in) {
        return false;
    }
    kind_fits_scanned(player, piece, free, witness)
}

/// [`kind_fits`] when the witnesses do not answer: every orientation is scanned and the answer
/// becomes the new witness.
#[inline(never)]
fn kind_fits_scanned(player: Player, piece: Piece, free: Bitboard, witness: &mut Witness) -> bool {
    for orientation in &table().piece(Some(player), piece).orientations {
        let anchors = orientation.anchors(free);
        if anchors.any() {
            witness.fitted = orientation.covered(anchors.first_bit());
            return true;
        }
    }
    witness.nowhere_in = free;
    false
}

/// [`compute_locked`], remembered.
#[inline]
pub fn locked(position: &Position, owner: Player) -> Bitboard {
    with_facts(position, |node, _| {
        *node.locked[owner.index()].get_or_insert_with(|| locked_by_side(position, owner))
    })
}

/// One side's locked cells with everything they depend on: the side's buildings (slot by slot,
/// which fixes its occupied cells and which cells belong to one building), its territory and
/// the Cathedral.
#[derive(Clone, Copy, Default)]
struct LockedEntry {
    /// `None` while the entry is empty.
    owner: Option<Player>,
    buildings: [Bitboard; BUILDINGS_PER_PLAYER],
    territory: Bitboard,
    cathedral: Bitboard,
    locked: Bitboard,
}

/// `2^LOCKED_LOG2` remembered locked sets per thread (about 300 KiB).
const LOCKED_LOG2: u32 = 10;

thread_local! {
    static LOCKED: RefCell<Vec<LockedEntry>> =
        RefCell::new(vec![LockedEntry::default(); 1 << LOCKED_LOG2]);
}

/// [`compute_locked`], remembered by what it depends on: a side's locked cells change only with
/// its own buildings, its territory or the Cathedral, so across the opponent's moves (most of
/// the search) they are found again instead of flooded again.
#[inline]
fn locked_by_side(position: &Position, owner: Player) -> Bitboard {
    let side = position.side(owner);
    let cathedral = position.cathedral();
    let mixed = (side.occupied.0 ^ side.territory.0.rotate_left(37) ^ cathedral.0.rotate_left(71))
        as u64
        ^ ((side.occupied.0 >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ ((side.territory.0 >> 64) as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
        ^ owner.index() as u64;
    let slot = (mixed.wrapping_mul(0xBF58_476D_1CE4_E5B9) >> (64 - LOCKED_LOG2)) as usize;
    LOCKED.with_borrow_mut(|entries| {
        let entry = &mut entries[slot];
        if entry.owner == Some(owner)
            && entry.territory == side.territory
            && entry.cathedral == cathedral
            && entry.buildings == side.buildings
        {
            return entry.locked;
        }
        let locked = compute_locked(position, owner);
        *entry = LockedEntry {
            owner: Some(owner),
            buildings: side.buildings,
            territory: side.territory,
            cathedral,
            locked,
        };
        locked
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::boardgame::Rng;
    use crate::cathedral::moves::MoveList;

    /// The plain definitions, placement by placement: the unfit kinds, whether every placement
    /// lies inside the territory, and which kinds (in hand or not) fit.
    fn reference(position: &Position, player: Player) -> (Unfit, bool, u16) {
        let table = table();
        let side = position.side(player);
        let free = position.free_for(player);
        let mut unfit = Unfit {
            kinds: 0,
            squares: 0,
        };
        let mut inside = true;
        let mut fitting = 0;
        for piece in Piece::PLAYER_KINDS {
            let mut fits = false;
            for id in table.ids(Some(player), piece) {
                let mask = table.get(id).mask;
                if mask.is_subset(free) {
                    fits = true;
                    if side.hand.count(piece) > 0 {
                        inside &= mask.is_subset(side.territory);
                    }
                }
            }
            if fits {
                fitting |= 1 << piece.index();
            } else if side.hand.count(piece) > 0 {
                unfit.kinds |= 1 << piece.index();
                unfit.squares += piece.size() as i32 * side.hand.count(piece) as i32;
            }
        }
        (unfit, inside, fitting)
    }

    /// What [`only_in_territory`] relies on.
    #[test]
    fn every_placement_is_4_connected() {
        let table = table();
        for player in Player::BOTH {
            for piece in Piece::PLAYER_KINDS {
                for id in table.ids(Some(player), piece) {
                    let mask = table.get(id).mask;
                    assert_eq!(Bitboard::fill4(mask.first_bit(), mask), mask);
                }
            }
        }
    }

    /// [`only_inside`] on random cells, where (unlike in games) the territory often touches
    /// the free cells outside it, against the plain definition.
    #[test]
    fn only_inside_matches_its_definition_on_random_cells() {
        let table = table();
        let mut rng = Rng::new(5);
        let mut witnesses = [[Witness::default(); PLAYER_PIECES]; 2];
        let mut ways = [[0; 2]; 2];
        for _ in 0..10_000 {
            let player = Player::BOTH[rng.below(2) as usize];
            let mut hand = super::super::room::tests::random_hand(&mut rng);
            if rng.below(2) == 0 {
                // Without the small kinds, which fit almost anywhere.
                for piece in Piece::PLAYER_KINDS.into_iter().filter(|p| p.size() <= 2) {
                    hand.0[piece.index()] = 0;
                }
            }
            // Left of a random file mostly territory, right of it sparse free cells, so that
            // the kinds often fit only in the territory, and the two often touch.
            let (inside_density, outside_density) = (40 + rng.below(60), rng.below(45));
            let mut free = Bitboard::EMPTY;
            let mut territory = Bitboard::EMPTY;
            let split = rng.below(11) as u8;
            for cell in crate::cathedral::cell::Cell::all() {
                let roll = rng.below(100);
                if cell.file() < split && roll < inside_density {
                    free.insert(cell);
                    if rng.below(5) != 0 {
                        territory.insert(cell);
                    }
                } else if cell.file() >= split && roll < outside_density {
                    free.insert(cell);
                }
            }
            let expected = hand.kinds().all(|piece| {
                table
                    .ids(Some(player), piece)
                    .map(|id| table.get(id).mask)
                    .filter(|mask| mask.is_subset(free))
                    .all(|mask| mask.is_subset(territory))
            });
            let touching = (free - territory).dilate4().intersects(territory);
            ways[touching as usize][expected as usize] += 1;
            let got = only_inside(
                player,
                &hand,
                free,
                territory,
                &mut witnesses[player.index()],
            );
            assert_eq!(got, expected, "{free:?} {territory:?} {hand:?}");
        }
        assert!(ways.iter().flatten().all(|&n| n > 100), "{ways:?}");
    }

    fn facts(position: &Position, player: Player) -> (Unfit, bool, u16) {
        let fitting = Piece::PLAYER_KINDS
            .into_iter()
            .filter(|&piece| fits_now(position, player, piece))
            .fold(0, |bits, piece| bits | 1 << piece.index());
        (
            unfit(position, player),
            only_in_territory(position, player),
            fitting,
        )
    }

    /// Along random games (the witnesses then follow a line of play, through captures that free
    /// cells again), then over the same positions in a random order (the witnesses come from
    /// unrelated positions), each asked in a random order of questions.
    #[test]
    fn facts_and_locked_match_their_definitions() {
        let mut rng = Rng::new(11);
        let mut seen = Vec::new();
        let mut inside_both_ways = [0; 2];
        for _ in 0..60 {
            let mut position = Position::new(crate::Rules::default());
            let mut moves = MoveList::default();
            loop {
                seen.push(position);
                position.legal_moves(&mut moves);
                let moves = moves.as_mut_slice();
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.below(moves.len() as u64) as usize];
                position.play(mv);
            }
        }
        let mut order: Vec<usize> = (0..seen.len()).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let along_games = 0..seen.len();
        for index in along_games.chain(order) {
            let position = &seen[index];
            for player in Player::BOTH {
                let expected = reference(position, player);
                inside_both_ways[expected.1 as usize] += 1;
                if rng.below(2) == 0 {
                    assert_eq!(only_in_territory(position, player), expected.1);
                }
                assert_eq!(facts(position, player), expected);
                assert_eq!(locked(position, player), compute_locked(position, player));
                // Asked again, the remembered answer is the same.
                assert_eq!(facts(position, player), expected);
            }
        }
        assert!(seen.len() > 1000, "{}", seen.len());
        assert!(
            inside_both_ways.iter().all(|&n| n > 200),
            "{inside_both_ways:?}"
        );
    }
}
