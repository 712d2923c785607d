//! What the solved-case test and the bounds share about one position, computed once per node.
//!
//! The search asks each position first whether it is solved ([`super::packing::split_value`]),
//! then, unless the table decides, for its bounds; both need which kinds in hand fit where and
//! the locked cells ([`super::compute_locked`], two 8-floods). The last position asked about is
//! remembered per thread under its key, so the second question reuses the first one's work; each
//! side's locked cells are also remembered by what they depend on, across positions.

use super::compute_locked;
use crate::Player;
use crate::cathedral::bitboard::Bitboard;
use crate::cathedral::piece::BUILDINGS_PER_PLAYER;
use crate::cathedral::placement::table;
use crate::cathedral::position::Position;
use crate::cathedral::zobrist::Key;
use std::cell::RefCell;

/// How one player's hand fits on the cells free for it now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fits {
    /// Kinds in hand that fit nowhere free now (bit = piece index).
    pub unfit: u16,
    /// The squares of those kinds in hand.
    pub unfit_squares: i32,
    /// Whether every placement of a kind in hand on the free cells lies inside the player's
    /// territory.
    pub only_in_territory: bool,
}

/// What is known so far about the position with `key`.
#[derive(Clone, Copy, Default)]
struct Node {
    key: Option<Key>,
    fits: [Option<Fits>; 2],
    locked: [Option<Bitboard>; 2],
}

thread_local! {
    static LAST: RefCell<Node> = RefCell::new(Node::default());
}

/// Runs `f` on the facts remembered for `position`, forgetting those of any other position.
#[inline]
fn with_node<T>(position: &Position, f: impl FnOnce(&mut Node) -> T) -> T {
    LAST.with_borrow_mut(|node| {
        let key = position.key();
        if node.key != Some(key) {
            *node = Node {
                key: Some(key),
                ..Node::default()
            };
        }
        f(node)
    })
}

/// How `player`'s hand fits on the cells free for it now.
#[inline]
pub fn fits(position: &Position, player: Player) -> Fits {
    with_node(position, |node| {
        *node.fits[player.index()].get_or_insert_with(|| compute_fits(position, player))
    })
}

/// [`compute_locked`], remembered.
#[inline]
pub fn locked(position: &Position, owner: Player) -> Bitboard {
    with_node(position, |node| {
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

/// [`Fits`] from scratch: one anchor set per orientation until the kind is known to fit, and
/// while every placement so far lay inside the territory, the territory's anchors beside it.
#[inline]
fn compute_fits(position: &Position, player: Player) -> Fits {
    let table = table();
    let side = position.side(player);
    let free = position.free_for(player);
    let free_is_territory = free == side.territory;
    let mut result = Fits {
        unfit: 0,
        unfit_squares: 0,
        only_in_territory: true,
    };
    for piece in side.hand.kinds() {
        let mut fits = false;
        for orientation in &table.piece(Some(player), piece).orientations {
            let anchors = orientation.anchors(free);
            if anchors.any() {
                fits = true;
                if result.only_in_territory
                    && !free_is_territory
                    && anchors != orientation.anchors(side.territory)
                {
                    result.only_in_territory = false;
                }
                if !result.only_in_territory || free_is_territory {
                    break;
                }
            }
        }
        if !fits {
            result.unfit |= 1 << piece.index();
            result.unfit_squares += piece.size() as i32 * side.hand.count(piece) as i32;
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::boardgame::Rng;
    use crate::cathedral::moves::MoveList;

    /// The plain definitions, placement by placement.
    fn reference(position: &Position, player: Player) -> Fits {
        let table = table();
        let side = position.side(player);
        let free = position.free_for(player);
        let mut result = Fits {
            unfit: 0,
            unfit_squares: 0,
            only_in_territory: true,
        };
        for piece in side.hand.kinds() {
            let mut fits = false;
            for id in table.ids(Some(player), piece) {
                let mask = table.get(id).mask;
                if mask.is_subset(free) {
                    fits = true;
                    result.only_in_territory &= mask.is_subset(side.territory);
                }
            }
            if !fits {
                result.unfit |= 1 << piece.index();
                result.unfit_squares += piece.size() as i32 * side.hand.count(piece) as i32;
            }
        }
        result
    }

    #[test]
    fn fits_and_locked_match_their_definitions_along_random_games() {
        let mut rng = Rng::new(11);
        let mut checked = 0;
        for _ in 0..60 {
            let mut position = Position::new(crate::Rules::default());
            let mut moves = MoveList::default();
            loop {
                for player in Player::BOTH {
                    assert_eq!(fits(&position, player), reference(&position, player));
                    assert_eq!(locked(&position, player), compute_locked(&position, player));
                    // Asked again, the remembered answer is the same.
                    assert_eq!(fits(&position, player), reference(&position, player));
                    checked += 1;
                }
                position.legal_moves(&mut moves);
                let moves = moves.as_mut_slice();
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.below(moves.len() as u64) as usize];
                position.play(mv);
            }
        }
        assert!(checked > 2000, "{checked}");
    }
}
