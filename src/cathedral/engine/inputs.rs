//! What the learned evaluation ([`super::network`]) sees of a position: for each player, from the
//! side to move's view (its own first), what it holds and what of it can still be placed.

use crate::cathedral::bitboard::Bitboard;
use crate::cathedral::piece::{PLAYER_PIECES, Piece};
use crate::cathedral::placement::{PieceTable, ShiftedCells, table};
use crate::cathedral::player::Player;
use crate::cathedral::position::Position;
use std::sync::OnceLock;

/// Inputs per player: four per kind of building, then four totals.
pub(crate) const PER_PLAYER: usize = 4 * PLAYER_PIECES + 4;

/// The summary's inputs that count placements ([`Counting::FitsOnly`] leaves them at 0): each
/// kind's `4k + 3` and the totals' last, for both players.
pub fn placement_count_inputs() -> impl Iterator<Item = usize> {
    (0..2).flat_map(|slot| (0..=PLAYER_PIECES).map(move |k| slot * PER_PLAYER + 4 * k + 3))
}

/// Inputs before the board's planes: both players' and whether the side to move is Light.
pub const SUMMARY: usize = 2 * PER_PLAYER + 1;

/// The board's planes, 100 cells each ([`crate::Cell::index`]): the side to move's buildings, the
/// opponent's, the Cathedral, the side to move's territory, the opponent's.
pub const PLANES: usize = 5;

/// Number of inputs.
pub const INPUTS: usize = SUMMARY + PLANES * 100;

/// The network's inputs for `position` (after the Cathedral is placed). Per player, the side to
/// move first; for each kind of building `k`:
///
/// - `4k`: how many are in hand (0 to 2);
/// - `4k + 1`: how many of them fit somewhere on the cells free for the player (all or none);
/// - `4k + 2`: how many fit in the player's own empty territory (placements nobody can take away);
/// - `4k + 3`: the natural logarithm of one plus the number of placements of the kind;
///
/// then the squares in hand, the empty cells of the player's territory and the cells free for
/// it (each a tenth), and the logarithm of one plus all its placements. Input `SUMMARY - 1` is 1
/// when the side to move is Light; then come the [`PLANES`], 1 where a cell is in the plane.
pub fn inputs(position: &Position) -> [f32; INPUTS] {
    let mut out = [0.0; INPUTS];
    summary(position, Counting::All, &mut out[..SUMMARY]);
    for (plane, cells) in planes(position).into_iter().enumerate() {
        for cell in cells.cells() {
            out[SUMMARY + 100 * plane + cell.index()] = 1.0;
        }
    }
    out
}

/// Which of the summary's inputs are computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counting {
    /// Every input.
    All,
    /// Every input but the placements' logarithms (each kind's `4k + 3` and the total's, left
    /// at 0), for a network whose weights for them are all 0
    /// ([`super::network::Network::counting`]): whether a kind fits anywhere is then found by
    /// the first placement, not by counting them all.
    FitsOnly,
}

/// The inputs before the planes ([`SUMMARY`] of them): what the network reads besides the
/// planes, whose part the search's accumulator keeps ([`super::accumulator`]).
pub fn summary_of(position: &Position) -> [f32; SUMMARY] {
    summary_counting(position, Counting::All)
}

/// [`summary_of`], computing the placements' counts or not as `counting` says.
pub fn summary_counting(position: &Position, counting: Counting) -> [f32; SUMMARY] {
    let mut out = [0.0; SUMMARY];
    summary(position, counting, &mut out);
    out
}

/// The inputs before the planes: counting placements is most of their time, and the baseline
/// x86-64 has no instruction to count bits, so where the processor has one (`popcnt`, every x86
/// processor since 2008) the same code is compiled with it (measured: the inputs took a fifth
/// less time; the same numbers, counting is exact either way).
fn summary(position: &Position, counting: Counting, out: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the processor has just been found to support `popcnt`.
        return unsafe { summary_popcnt(position, counting, out) };
    }
    summary_plain(position, counting, out)
}

/// [`summary_plain`] compiled with the `popcnt` instruction.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn summary_popcnt(position: &Position, counting: Counting, out: &mut [f32]) {
    summary_plain(position, counting, out)
}

#[inline(always)]
fn summary_plain(position: &Position, counting: Counting, out: &mut [f32]) {
    let me = position.to_move();
    for (slot, player) in [me, me.opponent()].into_iter().enumerate() {
        let out = &mut out[slot * PER_PLAYER..(slot + 1) * PER_PLAYER];
        match counting {
            Counting::All => player_inputs::<true>(position, player, out),
            Counting::FitsOnly => player_inputs::<false>(position, player, out),
        }
    }
    out[SUMMARY - 1] = f32::from(u8::from(me == Player::Light));
}

/// The cells of each plane.
fn planes(position: &Position) -> [Bitboard; PLANES] {
    let me = position.to_move();
    let (mine, theirs) = (position.side(me), position.side(me.opponent()));
    [
        mine.occupied,
        theirs.occupied,
        position.cathedral(),
        mine.territory,
        theirs.territory,
    ]
}

/// The same inputs as [`inputs`], with the board's planes as the list of inputs at 1 (the planes
/// do not overlap, so at most 100): what the engine's evaluation reads.
#[derive(Clone, Debug)]
pub struct SparseInputs {
    /// Inputs `0..SUMMARY`.
    pub summary: [f32; SUMMARY],
    active: [u16; 100],
    len: usize,
}

impl SparseInputs {
    /// The inputs of `position`.
    pub fn of(position: &Position) -> SparseInputs {
        SparseInputs::counting(position, Counting::All)
    }

    /// The inputs of `position`, computing the placements' counts or not as `counting` says.
    pub fn counting(position: &Position, counting: Counting) -> SparseInputs {
        let mut inputs = SparseInputs {
            summary: [0.0; SUMMARY],
            active: [0; 100],
            len: 0,
        };
        summary(position, counting, &mut inputs.summary);
        for (plane, cells) in planes(position).into_iter().enumerate() {
            for cell in cells.cells() {
                if inputs.len < inputs.active.len() {
                    inputs.active[inputs.len] = (SUMMARY + 100 * plane + cell.index()) as u16;
                    inputs.len += 1;
                }
            }
        }
        inputs
    }

    /// The indices of the planes' inputs at 1.
    pub fn active(&self) -> &[u16] {
        &self.active[..self.len]
    }
}

/// One player's inputs; with `COUNT` false ([`Counting::FitsOnly`]) the placements' logarithms
/// are left at 0 and a kind fits when one orientation has an anchor on the free cells, found
/// without counting the rest (compiled apart, so that neither form pays for the other's test).
#[inline(always)]
fn player_inputs<const COUNT: bool>(position: &Position, player: Player, out: &mut [f32]) {
    let side = position.side(player);
    let free = position.free_for(player);
    let own = side.territory & !position.occupied();
    let mut cells = PlayerCells {
        pieces: table().player_pieces(player),
        shifted: ShiftedCells::new(free),
        own,
        own_count: own.count(),
        own_shifted: None,
    };
    // Kind by kind, each kind's size known to the compiler: each kind's test and count has
    // its own branches and no jump on the size, where one loop over the kinds in hand shared
    // them as the hands changed from one evaluation to the next (measured with the territory's
    // shifts below: `docs/engine.md`, "A cheaper evaluation, bit for bit").
    let hand = side.hand;
    let mut all = 0u32;
    macro_rules! kinds {
        ($($k:literal)*) => {$(
            all += kind_inputs::<$k, { Piece::PLAYER_KINDS[$k].size() as usize }, COUNT>(
                &mut cells,
                hand.count(Piece::PLAYER_KINDS[$k]),
                out,
            );
        )*};
    }
    const _: () = assert!(PLAYER_PIECES == 11, "one line of `kinds!` a kind");
    kinds!(0 1 2 3 4 5 6 7 8 9 10);
    let base = 4 * PLAYER_PIECES;
    out[base] = side.hand.squares() as f32 / 10.0;
    out[base + 1] = cells.own_count as f32 / 10.0;
    out[base + 2] = free.count() as f32 / 10.0;
    out[base + 3] = if COUNT { ln_1p(all) } else { 0.0 };
}

/// What one player's kinds are counted on.
struct PlayerCells {
    /// The player's placements, by kind.
    pieces: &'static [PieceTable],
    /// The cells free for the player, shifted.
    shifted: ShiftedCells,
    /// The empty cells of the player's territory, how many, and their shifts, made the first
    /// time a kind might fit in them (where each orientation shifted them again, cell by cell).
    own: Bitboard,
    own_count: u32,
    own_shifted: Option<ShiftedCells>,
}

/// The four inputs of kind `K` (of `N` cells) held `count` times, and its placements (0 when
/// not counted).
#[inline(always)]
fn kind_inputs<const K: usize, const N: usize, const COUNT: bool>(
    cells: &mut PlayerCells,
    count: u8,
    out: &mut [f32],
) -> u32 {
    if count == 0 {
        return 0;
    }
    let pieces = &cells.pieces[K];
    let (fits, placements) = if COUNT {
        let placements = pieces.count_sized_in::<N>(&cells.shifted);
        (placements > 0, placements)
    } else {
        let fits = pieces
            .orientations
            .iter()
            .any(|o| !o.anchors_in(&cells.shifted).is_empty());
        (fits, 0)
    };
    // Own territory is free for its owner: a kind that fits nowhere free fits none of it.
    let safe = fits && cells.own_count >= N as u32 && {
        let own = cells.own;
        let own_shifted = cells
            .own_shifted
            .get_or_insert_with(|| ShiftedCells::new(own));
        pieces
            .orientations
            .iter()
            .any(|o| !o.anchors_in(own_shifted).is_empty())
    };
    let count = f32::from(count);
    out[4 * K] = count;
    out[4 * K + 1] = if fits { count } else { 0.0 };
    out[4 * K + 2] = if safe { count } else { 0.0 };
    out[4 * K + 3] = if COUNT { ln_1p(placements) } else { 0.0 };
    placements
}

/// `ln(1 + n)`, from a table below 4096 (the same values: the table is filled by `ln_1p`): the
/// logarithm was a sixth of the evaluation's time.
fn ln_1p(n: u32) -> f32 {
    static TABLE: OnceLock<Vec<f32>> = OnceLock::new();
    let table = TABLE.get_or_init(|| (0..4096u32).map(|n| (n as f32).ln_1p()).collect());
    table
        .get(n as usize)
        .copied()
        .unwrap_or_else(|| (n as f32).ln_1p())
}
