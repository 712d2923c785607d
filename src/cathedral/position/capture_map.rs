//! Under optional capture, which captures each placement of the side to move would make, worked
//! out once per position instead of by playing every placement (see [`CaptureMap`]).

use super::Position;
use crate::cathedral::bitboard::{Bitboard, STRIDE};
use crate::cathedral::placement::{Placement, PlacementId, table};

/// The padding bits of the board's rows (bits 10 and 11 of ranks 1 to 10). In the 12-bit row
/// layout bit 10 of a row is the cell east of its file j and bit 11 the cell west of file a of the
/// next row, so setting them draws the board's frame beside every cell but a1 (whose west
/// neighbour would be bit -1).
const SIDE_FRAME: Bitboard = Bitboard(((1u128 << 120) - 1) & !Bitboard::FULL.0);

/// Anchors (left cells) of the horizontal pairs that make a 2x2 block with the frame below rank 1
/// (bits 0..=9: a1-b1 .. j1-frame) or above rank 10 (bits 107..=117: frame-a10 .. j10-frame).
const FRAME_BLOCK_ANCHORS: u128 = 0x3FF | (0x7FF << 107);

/// a1 and a2: the 2x2 block west of them holds the frame cell west of a1, which has no bit.
const A1_A2: u64 = 1 | 1 << 12;

/// Every cell on the edge of the board.
const EDGES: Bitboard = Bitboard(
    Bitboard::WEST_EDGE.0 | Bitboard::EAST_EDGE.0 | Bitboard::SOUTH_EDGE.0 | Bitboard::NORTH_EDGE.0,
);

/// Under optional capture, the captures every placement of the side to move would make, worked
/// out once per position from the mover's regions *before* the move instead of by playing each
/// placement. Exact, not a heuristic (`docs/architecture.md`, "Move generation under optional
/// capture", gives the same argument):
///
/// Let `open` be the cells not covered by the mover's buildings; its 8-connected components are
/// the mover's regions. A placement `M` (4-connected, on open cells) lies in one region `R_M`.
/// After it, the mover's regions are the other regions, unchanged, and the 8-connected components
/// ("parts") of `R_M - M` (removing cells can only split a region). Captures never change the
/// mover's open cells, so each region's verdict depends only on the buildings inside it, and a
/// building (4-connected, never covered by the mover) lies wholly in one region. Counting the
/// buildings that are not the mover's (opponent buildings and the Cathedral) in each region before
/// the move:
///
/// 1. a region other than `R_M` captures after the move exactly when it holds one building now;
/// 2. if `R_M` holds no building, neither do its parts; if it holds one, the part holding that
///    building holds it alone and captures it;
/// 3. if `R_M` holds two or more ("crowded"), the move captures there only if `R_M - M` has two or
///    more parts (a single part holds them all).
///
/// So the captures of `M` are `always` (the lone buildings of every region: cases 1 and 2) plus,
/// when `M` lies in a crowded region and splits it, the lone buildings of its parts, found by
/// flooding the parts. Whether `M` splits its region is decided without flooding, by Euler
/// numbers. Take the walls `W` = the mover's buildings plus a one-cell frame around the board,
/// 4-connected (regions are 8-connected, so walls must touch orthogonally to seal). For a finite
/// set under this pair of connectivities, the Euler number is `E = C - H` (`C` its 4-connected
/// components, `H` the bounded 8-connected components of its complement, here exactly the mover's
/// regions) and also `E = V - P + Q` (`V` cells, `P` orthogonally adjacent pairs, `Q` 2x2 blocks).
/// Adding `M` to the walls merges the `k` wall components it touches orthogonally into one
/// (`dC = 1 - k`, as `M` is 4-connected) and changes `E` by `dE = |M| - dP + dQ`, counting only
/// the pairs and blocks that hold a cell of `M`. Then `dH = dC - dE`, and since only `R_M`
/// changes, `R_M - M` has `1 + dH` parts: `M` splits its region exactly when `1 - k - dE >= 1`.
/// A placement touching no wall has `k = 0` and `dE = 1` (a polyomino without holes, and no pair
/// or block shared with a wall): it never splits.
///
/// Under `claims: at-once` only the parts of `R_M` are evaluated (the regions the move closes),
/// so case 1 never captures: the captures of `M` are the lone building of `R_M` if it holds one
/// (`lone`), or, when `M` splits a crowded `R_M`, the lone buildings of its parts, as above.
///
/// Only building moves after the mover's first move can capture (`play` evaluates regions only
/// then); [`CaptureMap::new`] gives `None` otherwise.
pub(super) struct CaptureMap {
    /// Captured by every building move under `claims: standing`: the building of each region that
    /// holds exactly one.
    pub(super) always: u16,
    /// Whether only the placement's own region is evaluated (`claims: at-once`).
    at_once: bool,
    /// The regions holding exactly one building, with that building's bit: at most 15.
    lone: [(Bitboard, u16); 15],
    lone_len: usize,
    /// Union of the regions of `lone`.
    pub(super) lone_cells: Bitboard,
    /// Regions holding two or more buildings that are not the mover's: at most 7, since there are
    /// at most 15 such buildings (14 of the opponent's and the Cathedral).
    crowded: [Bitboard; 8],
    crowded_len: usize,
    /// Union of `crowded`.
    pub(super) crowded_cells: Bitboard,
    /// The mover's buildings.
    walls: Bitboard,
    /// `walls` plus [`SIDE_FRAME`].
    framed: Bitboard,
    /// The 4-connected wall components, found on first use (most positions and placements never
    /// need them): entry 0 the frame with every component touching the edge, then one entry per
    /// component touching no edge. Empty until then.
    wall_parts: [Bitboard; 15],
    wall_parts_len: usize,
}

impl CaptureMap {
    /// The map for the side to move, or `None` when no building move can capture.
    pub(super) fn new(position: &Position) -> Option<CaptureMap> {
        let mover = position.to_move;
        if position.cathedral_to_place() || !position.sides[mover.index()].first_move_made {
            return None;
        }
        let map = CaptureMap::build(position);
        (map.always != 0 || map.crowded_len != 0).then_some(map)
    }

    /// The map of the mover's regions, whether or not a move could capture.
    fn build(position: &Position) -> CaptureMap {
        let mover = position.to_move;
        let side = &position.sides[mover.index()];
        let opponent = mover.opponent();
        let walls = side.occupied;
        let open = !walls;
        let mut map = CaptureMap {
            always: 0,
            at_once: position.rules.claims == crate::cathedral::rules::Claims::AtOnce,
            lone: [(Bitboard::EMPTY, 0); 15],
            lone_len: 0,
            lone_cells: Bitboard::EMPTY,
            crowded: [Bitboard::EMPTY; 8],
            crowded_len: 0,
            crowded_cells: Bitboard::EMPTY,
            walls,
            framed: walls | SIDE_FRAME,
            wall_parts: [Bitboard::EMPTY; 15],
            wall_parts_len: 0,
        };
        // Only regions holding a building can capture: flood from the buildings.
        let mut unseen = position.sides[opponent.index()].occupied | position.cathedral;
        while unseen.any() {
            let region = Bitboard::fill8(unseen.first_bit(), open);
            unseen = unseen - region;
            match position.lone_building_bit(opponent, region) {
                Some(0) => {}
                Some(bit) => {
                    map.always |= bit;
                    map.lone[map.lone_len.min(14)] = (region, bit);
                    map.lone_len += 1;
                    map.lone_cells |= region;
                }
                None => {
                    map.crowded[map.crowded_len & 7] = region;
                    map.crowded_len += 1;
                    map.crowded_cells |= region;
                }
            }
        }
        debug_assert!(map.crowded_len <= 7 && map.lone_len <= 15);
        map
    }

    /// Fills in `wall_parts`.
    fn find_wall_parts(&mut self) {
        // Entry 0: everything joined to the frame, in one flood from the walls on the edge.
        let framed = Bitboard::fill4(self.walls & EDGES, self.walls);
        self.wall_parts[0] = framed;
        self.wall_parts_len = 1;
        // At most 14 buildings, so at most 14 entries in all.
        for component in (self.walls - framed).components4() {
            self.wall_parts[self.wall_parts_len.min(14)] = component;
            self.wall_parts_len += 1;
        }
    }

    /// The bits captured by a placement outside every crowded region, `mask`: `always` under
    /// `claims: standing`; under `at-once` the lone building of the region it lies in, if any.
    #[inline]
    pub(super) fn captures_outside_crowded(&self, mask: Bitboard) -> u16 {
        if !self.at_once {
            return self.always;
        }
        self.lone[..self.lone_len.min(15)]
            .iter()
            .find(|(region, _)| region.intersects(mask))
            .map_or(0, |&(_, bit)| bit)
    }

    /// The regions holding exactly one building, with that building's bit.
    #[inline]
    pub(super) fn lone_regions(&self) -> &[(Bitboard, u16)] {
        &self.lone[..self.lone_len.min(15)]
    }

    /// Whether only the placement's own region is evaluated (`claims: at-once`).
    #[inline]
    pub(super) fn at_once(&self) -> bool {
        self.at_once
    }

    /// The [`Spared`] bits of the buildings placing `id` captures.
    #[inline]
    pub(super) fn captures(&mut self, position: &Position, id: PlacementId) -> u16 {
        let placement = table().get(id);
        let crowded = &self.crowded[..self.crowded_len.min(8)];
        let Some(&region) = crowded.iter().find(|r| r.intersects(placement.mask)) else {
            return self.captures_outside_crowded(placement.mask);
        };
        // The other regions' lone buildings, which `at-once` does not capture.
        let others = if self.at_once { 0 } else { self.always };
        if !self.splits(placement) {
            return others;
        }
        let opponent = position.to_move.opponent();
        let rest = region - placement.mask;
        // Every part of `rest` touches the placement (`R_M` is connected).
        let mut seeds = placement.mask.dilate8() & rest;
        let mut bits = others;
        while seeds.any() {
            let part = Bitboard::fill8(seeds.first_bit(), rest);
            seeds = seeds - part;
            bits |= position.lone_building_bit(opponent, part).unwrap_or(0);
        }
        bits
    }

    /// Whether `placement` splits the region it lies in: `1 - k - dE >= 1`, that is
    /// `k + dE <= 0` (see above).
    #[inline]
    fn splits(&mut self, placement: &Placement) -> bool {
        let mut contact = placement.ring4 & self.walls;
        if contact.is_empty() && !placement.on_edge {
            return false; // k = 0 and dE = 1
        }
        // dE = |M| - dP + dQ over the pairs and blocks holding a cell of M, with the frame beside
        // the rows in `framed`; `euler_base` is |M| minus the pairs of M with the frame below
        // rank 1 and above rank 10, whose blocks are counted from `FRAME_BLOCK_ANCHORS`. A
        // player's building spans at most 3 ranks (the Cathedral is never placed with a map), so
        // every pair and block holding a cell of it lies in
        // the 64 bits from `euler_shift`: from the frame cell west of the rank below it (the
        // lowest block anchor) to the rank above it (the highest cell of a block).
        let shift = placement.euler_shift as u32;
        let m = (placement.mask.0 >> shift) as u64;
        let y = (self.framed.0 >> shift) as u64 | m;
        let pairs_h = y & (y >> 1); // anchor b: cells b, b + 1
        let pairs_v = y & (y >> STRIDE); // anchor b: cells b, b + 12
        let blocks = pairs_h & (pairs_h >> STRIDE); // anchor b: b, b + 1, b + 12, b + 13
        let anchors_h = m | (m >> 1);
        let anchors_v = m | (m >> STRIDE);
        let anchors_block = anchors_h | (anchors_h >> STRIDE);
        let frame_anchors = (FRAME_BLOCK_ANCHORS >> shift) as u64;
        let mut euler = placement.euler_base as i32
            - (pairs_h & anchors_h & !frame_anchors).count_ones() as i32
            - (pairs_v & anchors_v).count_ones() as i32
            + (blocks & anchors_block).count_ones() as i32;
        // The block of a1, a2 and the frame west of them (a1 in the building means a shift of
        // 0); the pair of a1 with the frame west of it and the block south-west of a1 cancel out.
        if y & A1_A2 == A1_A2 && m & A1_A2 != 0 {
            euler += 1;
        }
        // k >= 1 from here (the building touches a wall or the edge): only dE <= -1 can split.
        if euler >= 0 {
            return false;
        }
        // k: the wall components the building touches orthogonally.
        if self.wall_parts_len == 0 {
            self.find_wall_parts();
        }
        let mut k = 0;
        if placement.on_edge || contact.intersects(self.wall_parts[0]) {
            k = 1;
            contact = contact - self.wall_parts[0];
        }
        for &part in &self.wall_parts[1..self.wall_parts_len.min(15)] {
            if contact.is_empty() {
                break;
            }
            if contact.intersects(part) {
                k += 1;
                contact = contact - part;
            }
        }
        k + euler <= 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cathedral::moves::{Move, MoveList};
    use crate::cathedral::position::ClaimSink;
    use crate::cathedral::rules::{Capture, Claims, FirstMove, Pass, Rules};

    /// Plays seeded random games (mostly building moves, often declining captures, so that lone
    /// buildings stay enclosed) and calls `check` on every position.
    fn random_positions(rules: Rules, games: u64, mut check: impl FnMut(&Position)) {
        let mut list = MoveList::new();
        for seed in 0..games {
            let mut rng = crate::boardgame::Rng::new(seed);
            let mut position = Position::new(rules);
            loop {
                check(&position);
                position.legal_moves(&mut list);
                if list.is_empty() {
                    break;
                }
                let moves = list.as_slice();
                let building = moves.iter().filter(|m| !m.is_pass()).count() as u64;
                let mv = if building > 0 && rng.below(20) > 0 {
                    moves[rng.below(building) as usize]
                } else {
                    moves[rng.below(moves.len() as u64) as usize]
                };
                position.play(mv);
            }
        }
    }

    const OPTIONAL_VARIANTS: [Rules; 4] = [
        Rules::MOORE_1978,
        Rules {
            capture: Capture::Optional,
            pass: Pass::Forced,
            first_move: FirstMove::NoEnclosure,
            ..Rules::CLASSIC
        },
        // Claims at once: only the placement's own region captures.
        Rules {
            claims: Claims::AtOnce,
            ..Rules::MOORE_1978
        },
        Rules {
            capture: Capture::Optional,
            claims: Claims::AtOnce,
            ..Rules::CLASSIC
        },
    ];

    /// `CaptureMap::captures` gives exactly the captures `play` makes, for every placement.
    #[test]
    fn capture_map_matches_play() {
        struct Bits(u16);
        impl ClaimSink for Bits {
            fn captured_bit(&mut self, bit: u16) {
                self.0 |= bit;
            }
        }
        let mut placements = 0;
        let mut capturing = 0;
        for rules in OPTIONAL_VARIANTS {
            random_positions(rules, 40, |position| {
                let mut map = CaptureMap::new(position);
                position.for_each_placement(position.to_move(), |id| {
                    let mut after = *position;
                    let mut played = Bits(0);
                    after.play_with(Move::place(id), &mut played);
                    let predicted = map.as_mut().map_or(0, |map| map.captures(position, id));
                    assert_eq!(predicted, played.0, "{id:?} in {position:?}");
                    placements += 1;
                    capturing += (played.0 != 0) as u32;
                });
            });
        }
        assert!(
            placements > 100_000 && capturing > 1_000,
            "{placements} {capturing}"
        );
    }

    /// `CaptureMap::splits` (Euler numbers) agrees with flooding for every placement of every
    /// position, whatever the region holds.
    #[test]
    fn euler_split_test_matches_flooding() {
        let mut splits = 0;
        random_positions(Rules::MOORE_1978, 40, |position| {
            if position.cathedral_to_place() {
                return;
            }
            let mut map = CaptureMap::build(position);
            let open = !position.side(position.to_move()).occupied;
            position.for_each_placement(position.to_move(), |id| {
                let placement = table().get(id);
                let region = Bitboard::fill8(placement.mask.first_bit(), open);
                let parts = (region - placement.mask).components8().count();
                assert_eq!(map.splits(placement), parts >= 2, "{id:?} in {position:?}");
                splits += (parts >= 2) as u32;
            });
        });
        assert!(splits > 1_000, "{splits}");
    }
}
