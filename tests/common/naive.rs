//! Claims and captures worked out from the rules' words alone, cell by cell (`docs/rules.md`,
//! section 4), to check the engine's region code: regions by breadth-first search over file and
//! rank, and, under `claims: at-once`, the regions a move closes found as the parts of the region
//! the building was placed in (the engine uses the equivalent "the regions it touches").

use cathedral::rules::Claims;
use cathedral::{Bitboard, CathedralStatus, Cell, Move, Piece, Position, Spared, table};
use std::collections::VecDeque;

/// The cells of `open` connected to `start` through the 8 neighbours.
pub fn region_of(start: Cell, open: Bitboard) -> Bitboard {
    let mut region = Bitboard::EMPTY;
    region.insert(start);
    let mut queue = VecDeque::from([start]);
    while let Some(cell) = queue.pop_front() {
        for df in -1i8..=1 {
            for dr in -1i8..=1 {
                let (f, r) = (cell.file() as i8 + df, cell.rank() as i8 + dr);
                if !(0..10).contains(&f) || !(0..10).contains(&r) {
                    continue;
                }
                let next = Cell::new(f as u8, r as u8).expect("on the board");
                if open.contains(next) && !region.contains(next) {
                    region.insert(next);
                    queue.push_back(next);
                }
            }
        }
    }
    region
}

/// The 8-connected regions of `open`.
pub fn regions_of(open: Bitboard) -> Vec<Bitboard> {
    let mut rest = open;
    let mut regions = Vec::new();
    while let Some(start) = rest.cells().next() {
        let region = region_of(start, rest);
        rest = rest - region;
        regions.push(region);
    }
    regions
}

/// A region the rules evaluate after a building move, with the [`Spared`] bits of the buildings
/// inside it that are not the mover's (opponent slots, the Cathedral).
pub struct Evaluated {
    pub region: Bitboard,
    pub foreign: Vec<u16>,
}

/// The regions the rules evaluate after the legal building move `mv` (none for a pass, the
/// Cathedral or a first building move).
pub fn evaluated_regions(position: &Position, mv: Move) -> Vec<Evaluated> {
    let Some(id) = mv.placement() else {
        return Vec::new();
    };
    let placement = table().get(id);
    let mover = position.to_move();
    if placement.piece == Piece::Cathedral || !position.side(mover).first_move_made {
        return Vec::new();
    }
    let opponent = position.side(mover.opponent());
    let open_before = !position.side(mover).occupied;
    let open_after = open_before - placement.mask;
    let candidates = match position.rules().claims {
        Claims::Standing => regions_of(open_after),
        Claims::AtOnce => {
            let first = placement
                .mask
                .cells()
                .next()
                .expect("a building covers cells");
            let placed_in = region_of(first, open_before);
            regions_of(placed_in - placement.mask)
        }
    };
    candidates
        .into_iter()
        .filter(|region| !region.is_subset(position.side(mover).territory))
        .map(|region| {
            let mut foreign: Vec<u16> = opponent
                .buildings
                .iter()
                .enumerate()
                .filter(|(_, cells)| cells.intersects(region))
                .map(|(slot, _)| 1u16 << slot)
                .collect();
            if position.cathedral_status() == CathedralStatus::OnBoard
                && position.cathedral().intersects(region)
            {
                foreign.push(Spared::CATHEDRAL_BIT);
            }
            Evaluated { region, foreign }
        })
        .collect()
}

/// The [`Spared`] bits of the buildings that `mv` (placed sparing nothing) would capture.
pub fn captures(position: &Position, mv: Move) -> u16 {
    evaluated_regions(position, mv)
        .iter()
        .filter_map(|e| match e.foreign.as_slice() {
            [bit] => Some(*bit),
            _ => None,
        })
        .fold(0, |bits, bit| bits | bit)
}

/// The cells `mv` claims: each evaluated region holding at most one building that is not the
/// mover's, unless `mv` spares that building.
pub fn claimed(position: &Position, mv: Move) -> Bitboard {
    let spared = mv.spared().bits();
    evaluated_regions(position, mv)
        .iter()
        .filter(|e| match e.foreign.as_slice() {
            [] => true,
            [bit] => spared & bit == 0,
            _ => false,
        })
        .fold(Bitboard::EMPTY, |cells, e| cells | e.region)
}
