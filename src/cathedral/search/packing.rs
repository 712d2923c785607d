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
use std::collections::HashMap;

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
    let table = table();
    for player in Player::BOTH {
        let side = position.side(player);
        if !side.first_move_made {
            return None;
        }
        let free = position.free_for(player);
        if free == side.territory {
            continue;
        }
        for piece in side.hand.kinds() {
            for orientation in &table.piece(Some(player), piece).orientations {
                if orientation.anchors(free) != orientation.anchors(side.territory) {
                    return None;
                }
            }
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

/// Best packings by (player, hand, region): squares placed.
type Cache = HashMap<(u8, [u8; 11], u128), u8>;

thread_local! {
    /// Best packings found, by (player, hand, region). Cleared when it grows large.
    static CACHE: RefCell<Cache> = RefCell::new(HashMap::new());
}

const CACHE_LIMIT: usize = 1 << 20;

/// The most squares `player` can place from `hand` on `region` (buildings may not overlap and
/// must lie wholly inside the region), cached.
pub fn best_packing(player: Player, hand: Hand, region: Bitboard) -> u32 {
    if hand.is_empty() || region.is_empty() {
        return 0;
    }
    CACHE.with(|cache| {
        let mut cache = cache.borrow_mut();
        if cache.len() > CACHE_LIMIT {
            cache.clear();
        }
        pack(player, hand, region, &mut cache)
    })
}

/// Exhaustive packing: the region's lowest cell is either left empty or covered by a building
/// whose lowest cell it is.
fn pack(player: Player, hand: Hand, region: Bitboard, cache: &mut Cache) -> u32 {
    if hand.is_empty() || region.is_empty() {
        return 0;
    }
    let key = (player as u8, hand.0, region.0);
    if let Some(&v) = cache.get(&key) {
        return v as u32;
    }
    let cap = hand.squares().min(region.count());
    let lowest = region.first_bit();
    let bit = lowest.0.trailing_zeros();
    let mut best = 0;
    let table = table();
    'pieces: for piece in Piece::PLAYER_KINDS.into_iter().rev() {
        if hand.count(piece) == 0 {
            continue;
        }
        let mut rest_hand = hand;
        rest_hand.remove(piece);
        for orientation in &table.piece(Some(player), piece).orientations {
            let Some(anchor) = bit.checked_sub(orientation.lowest_offset()) else {
                continue;
            };
            if (orientation.anchors(region).0 >> anchor) & 1 == 0 {
                continue;
            }
            let mask = table.get(orientation.placement_at_bit(anchor)).mask;
            let v = piece.size() + pack(player, rest_hand, region - mask, cache);
            if v > best {
                best = v;
                if best == cap {
                    break 'pieces;
                }
            }
        }
    }
    if best < cap {
        best = best.max(pack(player, hand, region - lowest, cache));
    }
    cache.insert(key, best as u8);
    best
}
