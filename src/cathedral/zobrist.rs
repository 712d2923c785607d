//! Zobrist keys: a 128-bit fingerprint of everything that decides a position's future.
//!
//! Two independent 64-bit Zobrist streams make one [`Key`]; the search indexes its table with one
//! half and verifies the whole key on every probe. The key covers, for each player, the cells of
//! each kind of building (which of two identical buildings stands where does not matter: two
//! buildings of one owner that touch are always in the same region, so they can never be captured
//! apart), the territory, the hand, the first-move flag; and the Cathedral, the side to move and
//! the passes in a row. The rule variant is fixed for a search and is not part of the key.

use crate::cathedral::bitboard::Bitboard;
use crate::cathedral::piece::{PLAYER_PIECES, Piece};
use crate::cathedral::player::Player;

/// A 128-bit position key.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, PartialOrd, Ord)]
pub struct Key(pub(crate) u64, pub(crate) u64);

impl Key {
    /// The key's two 64-bit halves (to write a key down and compare it later).
    pub const fn halves(self) -> (u64, u64) {
        (self.0, self.1)
    }

    /// Both keys XORed together: XOR adds a feature's key to a key or takes it out again.
    #[inline]
    pub const fn xor(self, other: Key) -> Key {
        Key(self.0 ^ other.0, self.1 ^ other.1)
    }
}

impl std::ops::BitXor for Key {
    type Output = Key;
    #[inline]
    fn bitxor(self, other: Key) -> Key {
        self.xor(other)
    }
}

impl std::ops::BitXorAssign for Key {
    #[inline]
    fn bitxor_assign(&mut self, other: Key) {
        self.0 ^= other.0;
        self.1 ^= other.1;
    }
}

/// The `n`-th key: two outputs of the SplitMix64 generator, deterministic across builds.
const fn key_at(n: u64) -> Key {
    const fn mix(index: u64) -> u64 {
        let mut z =
            0x0C47_4ED2_A1C0_2026_u64.wrapping_add(index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    Key(mix(2 * n + 1), mix(2 * n + 2))
}

/// Building kinds with their own keys: 11 per player, then the Cathedral.
const BUILDING_KINDS: usize = 2 * PLAYER_PIECES + 1;
const CELL_BITS: usize = 120;

struct Tables {
    building: [[Key; CELL_BITS]; BUILDING_KINDS],
    territory: [[Key; CELL_BITS]; 2],
    /// Hand counts 0..=2 of each kind.
    hand: [[[Key; 3]; PLAYER_PIECES]; 2],
    first_move_made: [Key; 2],
    dark_to_move: Key,
    cathedral_to_place: Key,
    passes: [Key; 3],
}

const fn build() -> Tables {
    let mut t = Tables {
        building: [[Key(0, 0); CELL_BITS]; BUILDING_KINDS],
        territory: [[Key(0, 0); CELL_BITS]; 2],
        hand: [[[Key(0, 0); 3]; PLAYER_PIECES]; 2],
        first_move_made: [Key(0, 0); 2],
        dark_to_move: Key(0, 0),
        cathedral_to_place: Key(0, 0),
        passes: [Key(0, 0); 3],
    };
    let mut n = 0;
    let mut kind = 0;
    while kind < BUILDING_KINDS {
        let mut bit = 0;
        while bit < CELL_BITS {
            t.building[kind][bit] = key_at(n);
            n += 1;
            bit += 1;
        }
        kind += 1;
    }
    let mut player = 0;
    while player < 2 {
        let mut bit = 0;
        while bit < CELL_BITS {
            t.territory[player][bit] = key_at(n);
            n += 1;
            bit += 1;
        }
        let mut piece = 0;
        while piece < PLAYER_PIECES {
            // Count 0 keeps key zero so an empty hand adds nothing.
            t.hand[player][piece][1] = key_at(n);
            t.hand[player][piece][2] = key_at(n + 1);
            n += 2;
            piece += 1;
        }
        t.first_move_made[player] = key_at(n);
        n += 1;
        player += 1;
    }
    t.dark_to_move = key_at(n);
    t.cathedral_to_place = key_at(n + 1);
    t.passes[1] = key_at(n + 2);
    t.passes[2] = key_at(n + 3);
    t
}

static TABLES: Tables = build();

#[inline]
fn building_kind(owner: Option<Player>, piece: Piece) -> usize {
    match owner {
        Some(player) if piece != Piece::Cathedral => player.index() * PLAYER_PIECES + piece.index(),
        _ => BUILDING_KINDS - 1,
    }
}

#[inline]
fn cells_key(table: &[Key; CELL_BITS], cells: Bitboard) -> Key {
    let mut key = Key::default();
    let mut bits = cells.0;
    while bits != 0 {
        key ^= table[bits.trailing_zeros() as usize];
        bits &= bits - 1;
    }
    key
}

/// The key of a building standing on `cells`.
#[inline]
pub fn building(owner: Option<Player>, piece: Piece, cells: Bitboard) -> Key {
    cells_key(&TABLES.building[building_kind(owner, piece)], cells)
}

/// The key of `player`'s territory cells.
#[inline]
pub fn territory(player: Player, cells: Bitboard) -> Key {
    cells_key(&TABLES.territory[player.index()], cells)
}

/// The key of holding `count` buildings of `piece` in hand.
#[inline]
pub fn hand(player: Player, piece: Piece, count: u8) -> Key {
    TABLES.hand[player.index()][piece.index()][count.min(2) as usize]
}

#[inline]
pub fn first_move_made(player: Player) -> Key {
    TABLES.first_move_made[player.index()]
}

#[inline]
pub fn dark_to_move() -> Key {
    TABLES.dark_to_move
}

#[inline]
pub fn cathedral_to_place() -> Key {
    TABLES.cathedral_to_place
}

#[inline]
pub fn passes(count: u8) -> Key {
    TABLES.passes[count.min(2) as usize]
}
