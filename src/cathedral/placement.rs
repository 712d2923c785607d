//! Every placement of every building, computed once.
//!
//! A placement is a building in one orientation at one position, stored as its cell mask. They are
//! grouped by owner and piece (Light's Abbey and Dark's Abbey are mirror images, so they differ),
//! then by orientation, so that legal placements of one orientation can be found for the whole
//! board at once with a few shifts (see [`Orientation::anchors`]).

use crate::cathedral::bitboard::{Bitboard, STRIDE};
use crate::cathedral::cell::Cell;
use crate::cathedral::piece::{PLAYER_PIECES, Piece};
use crate::cathedral::player::Player;
use std::sync::LazyLock;

/// Index of a placement in the global table.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct PlacementId(pub(crate) u16);

/// Who a placement's building belongs to: a player, or nobody for the Cathedral.
pub type Owner = Option<Player>;

/// One building at one position in one orientation.
#[derive(Clone, Copy, Debug)]
pub struct Placement {
    pub piece: Piece,
    pub owner: Owner,
    pub mask: Bitboard,
    /// Whether this building alone divides the rest of the board into two or more 8-connected
    /// regions (a first move that encloses something, refused under `first_move: no-enclosure`).
    pub splits_board: bool,
    /// The cells of the board that touch the building orthogonally (optional capture's move
    /// generation, see `CaptureMap` in `position/capture_map.rs`).
    pub ring4: Bitboard,
    /// Whether the building has a cell on the edge of the board (it touches the board's frame).
    pub on_edge: bool,
    /// The building's cells minus those on rank 1 and those on rank 10: the part of the change in
    /// Euler number that does not depend on the other walls (see `CaptureMap`).
    pub euler_base: i8,
    /// The lowest bit of the 64-bit window that holds every 2x2 block and pair the building is
    /// part of (from the frame cell west of the row below its lowest row; see `CaptureMap`).
    pub euler_shift: u8,
    /// Zobrist key of this building standing here.
    pub key: crate::cathedral::zobrist::Key,
}

/// One distinct rotation of a piece, with its placements indexed by anchor (the lower left corner
/// of its bounding box).
pub struct Orientation {
    /// Bit offsets of the covered cells from the anchor, padded to six by repeating the last
    /// (shifting by the same offset twice changes nothing), so that [`Orientation::anchors`] is a
    /// fixed, branch-free sequence of shifts.
    offsets: [u32; 6],
    /// The same cells as places in a [`ShiftedCells`]: `4 * dy + dx` for the cell `dx` columns
    /// across and `dy` rows up from the anchor.
    slots: [u8; 6],
    /// Number of covered cells (the meaningful entries of `offsets`).
    len: u8,
    /// Placement id for each anchor bit; meaningful only where the placement fits on the board.
    ids: [u16; 128],
}

impl Orientation {
    /// Anchors where this orientation fits entirely on `free` cells.
    #[inline]
    pub fn anchors(&self, free: Bitboard) -> Bitboard {
        let f = free.0;
        let [a, b, c, d, e, g] = self.offsets;
        let first_two = (f >> a) & (f >> b);
        Bitboard(match self.len {
            1 => f >> a,
            2 => first_two,
            3 => first_two & (f >> c),
            4 => first_two & (f >> c) & (f >> d),
            5 => first_two & (f >> c) & (f >> d) & (f >> e),
            _ => first_two & (f >> c) & (f >> d) & (f >> e) & (f >> g),
        })
    }

    /// The same anchors as [`Orientation::anchors`] of the cells `shifted` was made from, read
    /// from its shifts instead of shifting again: what counting every placement of a hand costs.
    #[inline(always)]
    pub fn anchors_in(&self, shifted: &ShiftedCells) -> Bitboard {
        let by = |i: usize| shifted.by[usize::from(self.slots[i])];
        let first_two = by(0) & by(1);
        Bitboard(match self.len {
            1 => by(0),
            2 => first_two,
            3 => first_two & by(2),
            4 => first_two & by(2) & by(3),
            5 => first_two & by(2) & by(3) & by(4),
            _ => first_two & by(2) & by(3) & by(4) & by(5),
        })
    }

    /// The cells covered by this orientation placed at every anchor of `anchors`.
    #[inline]
    pub fn covered(&self, anchors: Bitboard) -> Bitboard {
        let a = anchors.0;
        Bitboard(
            self.offsets[..self.len as usize]
                .iter()
                .fold(0, |cells, &offset| cells | a << offset),
        )
    }

    /// Bit offset of the orientation's lowest cell from its anchor: a placement whose lowest cell
    /// is bit `b` has its anchor at `b - lowest_offset()`.
    #[inline]
    pub fn lowest_offset(&self) -> u32 {
        self.offsets[..self.len as usize]
            .iter()
            .copied()
            .min()
            .unwrap_or(0)
    }

    /// The placement at `anchor`; `anchor` must come from [`Orientation::anchors`].
    #[inline]
    pub fn placement_at(&self, anchor: Cell) -> PlacementId {
        PlacementId(self.ids[anchor.bit() as usize])
    }

    /// The placement at anchor bit `bit` (a set bit of [`Orientation::anchors`]).
    #[inline]
    pub fn placement_at_bit(&self, bit: u32) -> PlacementId {
        PlacementId(self.ids[bit as usize & 127])
    }
}

/// A set of cells shifted right by every offset an orientation's cell can have from its anchor:
/// the anchors of every orientation of every kind on the same cells then take one shift per
/// offset, not one per cell of each orientation (a u128 shift by a variable amount is several
/// instructions; counting a hand's placements was most of the evaluation's inputs).
pub struct ShiftedCells {
    /// By [`Orientation::slots`]' places: `by[4 * dy + dx]` is the cells shifted `dy` rows
    /// and `dx` columns.
    by: [u128; 16],
}

impl ShiftedCells {
    /// `cells` shifted by each offset a cell can have from its anchor: a row of the board up
    /// and a column across at most three times each (every box fits in 4 by 4): sixteen shifts
    /// side by side, where they were kept at their bit offsets, 36 places of which 15 were
    /// read and the rest zeroed at every evaluation (measured: `docs/engine.md`, "A cheaper
    /// evaluation, bit for bit").
    #[inline]
    pub fn new(cells: Bitboard) -> ShiftedCells {
        let mut by = [0u128; 16];
        for dy in 0..4 {
            for dx in 0..4 {
                by[4 * dy + dx] = cells.0 >> (dy * STRIDE as usize + dx);
            }
        }
        ShiftedCells { by }
    }
}

/// Placements of `orientations` (each of `N` cells) on the cells `shifted` was made from.
#[inline(always)]
fn count_sized<const N: usize>(orientations: &[Orientation], shifted: &ShiftedCells) -> u32 {
    orientations
        .iter()
        .map(|o| {
            let mut anchors = shifted.by[usize::from(o.slots[0])];
            for &slot in &o.slots[1..N] {
                anchors &= shifted.by[usize::from(slot)];
            }
            anchors.count_ones()
        })
        .sum()
}

/// All placements of one piece for one owner.
pub struct PieceTable {
    pub orientations: Vec<Orientation>,
    /// Ids `first..end` are this piece's placements.
    pub first: u16,
    pub end: u16,
}

impl PieceTable {
    /// How many placements of the piece fit on the cells `shifted` was made from: the sum of
    /// [`Orientation::anchors_in`]'s counts, with the piece's number of cells (the same in
    /// every orientation) known to the compiler, which then makes each orientation a fixed
    /// run of `AND`s (counting placements is most of the learned evaluation's inputs).
    #[inline(always)]
    pub fn count_in(&self, shifted: &ShiftedCells) -> u32 {
        let orientations = &self.orientations[..];
        match orientations.first().map_or(0, |o| o.len) {
            0 => 0,
            1 => count_sized::<1>(orientations, shifted),
            2 => count_sized::<2>(orientations, shifted),
            3 => count_sized::<3>(orientations, shifted),
            4 => count_sized::<4>(orientations, shifted),
            5 => count_sized::<5>(orientations, shifted),
            _ => count_sized::<6>(orientations, shifted),
        }
    }

    /// [`PieceTable::count_in`] for a piece whose number of cells `N` the caller knows at
    /// compile time: no dispatch on the size (an indirect jump whose target changes with every
    /// kind counted).
    #[inline(always)]
    pub fn count_sized_in<const N: usize>(&self, shifted: &ShiftedCells) -> u32 {
        debug_assert!(self.orientations.iter().all(|o| usize::from(o.len) == N));
        count_sized::<N>(&self.orientations, shifted)
    }
}

/// The global table; see [`table`].
pub struct PlacementTable {
    placements: Vec<Placement>,
    /// Indexed by owner slot (Light, Dark) and piece.
    player_pieces: [Vec<PieceTable>; 2],
    cathedral: PieceTable,
}

impl PlacementTable {
    #[inline]
    pub fn get(&self, id: PlacementId) -> &Placement {
        &self.placements[id.0 as usize]
    }

    pub fn len(&self) -> usize {
        self.placements.len()
    }

    pub fn is_empty(&self) -> bool {
        self.placements.is_empty()
    }

    /// `player`'s kinds' placements, by [`Piece::index`] (the Cathedral's not among them).
    #[inline]
    pub fn player_pieces(&self, player: Player) -> &[PieceTable] {
        &self.player_pieces[player.index()]
    }

    /// The placements of `piece` for `owner` (`None` only with the Cathedral).
    #[inline]
    pub fn piece(&self, owner: Owner, piece: Piece) -> &PieceTable {
        match owner {
            Some(player) if piece != Piece::Cathedral => {
                &self.player_pieces[player.index()][piece.index()]
            }
            _ => &self.cathedral,
        }
    }

    /// Ids of every placement of `piece` for `owner`.
    pub fn ids(&self, owner: Owner, piece: Piece) -> impl Iterator<Item = PlacementId> {
        let table = self.piece(owner, piece);
        (table.first..table.end).map(PlacementId)
    }

    /// The placement of `piece` covering exactly `mask`, if the cells have the piece's shape.
    pub fn find(&self, owner: Owner, piece: Piece, mask: Bitboard) -> Option<PlacementId> {
        self.ids(owner, piece).find(|&id| self.get(id).mask == mask)
    }

    fn build() -> PlacementTable {
        let mut placements = Vec::new();
        let mut build_piece = |owner: Owner, piece: Piece| -> PieceTable {
            let first = placements.len() as u16;
            let mut orientations = Vec::new();
            for shape in distinct_rotations(piece.drawing(owner.unwrap_or(Player::Light))) {
                let mut offsets = [0u32; 6];
                let mut slots = [0u8; 6];
                for (i, (offset, slot)) in offsets.iter_mut().zip(&mut slots).enumerate() {
                    let (dx, dy) = shape[i.min(shape.len() - 1)];
                    assert!(dx < 4 && dy < 4, "a building's box is at most 4 by 4");
                    *offset = dx + STRIDE * dy;
                    *slot = (4 * dy + dx) as u8;
                }
                let mut orientation = Orientation {
                    offsets,
                    slots,
                    ids: [u16::MAX; 128],
                    len: shape.len() as u8,
                };
                let anchors = orientation.anchors(Bitboard::FULL);
                for anchor in anchors.cells() {
                    let mask = Bitboard(shape.iter().fold(0u128, |m, &(dx, dy)| {
                        m | 1u128 << (anchor.bit() + dx + STRIDE * dy)
                    }));
                    orientation.ids[anchor.bit() as usize] = placements.len() as u16;
                    let rest = !mask;
                    let splits_board = Bitboard::fill8(rest.first_bit(), rest) != rest;
                    let edges = Bitboard::WEST_EDGE
                        | Bitboard::EAST_EDGE
                        | Bitboard::SOUTH_EDGE
                        | Bitboard::NORTH_EDGE;
                    let euler_base = mask.count() as i8
                        - (mask & Bitboard::SOUTH_EDGE).count() as i8
                        - (mask & Bitboard::NORTH_EDGE).count() as i8;
                    placements.push(Placement {
                        piece,
                        owner,
                        mask,
                        splits_board,
                        ring4: mask.dilate4() - mask,
                        on_edge: mask.intersects(edges),
                        euler_base,
                        euler_shift: (STRIDE * (mask.0.trailing_zeros() / STRIDE))
                            .saturating_sub(STRIDE + 1) as u8,
                        key: crate::cathedral::zobrist::building(owner, piece, mask),
                    });
                }
                orientations.push(orientation);
            }
            PieceTable {
                orientations,
                first,
                end: placements.len() as u16,
            }
        };
        let mut per_player = |player: Player| -> Vec<PieceTable> {
            Piece::PLAYER_KINDS
                .iter()
                .map(|&piece| build_piece(Some(player), piece))
                .collect()
        };
        let light = per_player(Player::Light);
        let dark = per_player(Player::Dark);
        let cathedral = build_piece(None, Piece::Cathedral);
        debug_assert_eq!(light.len(), PLAYER_PIECES);
        PlacementTable {
            placements,
            player_pieces: [light, dark],
            cathedral,
        }
    }
}

/// The distinct rotations (never reflections) of a drawn shape, each as `(dx, dy)` offsets with
/// `dy` growing towards rank 10 and the bounding box at the origin.
fn distinct_rotations(drawing: &[&str]) -> Vec<Vec<(u32, u32)>> {
    let height = drawing.len() as i32;
    let base: Vec<(i32, i32)> = drawing
        .iter()
        .enumerate()
        .flat_map(|(row, line)| {
            line.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'#')
                .map(move |(col, _)| (col as i32, height - 1 - row as i32))
        })
        .collect();
    let mut shapes: Vec<Vec<(u32, u32)>> = Vec::new();
    let mut current = base;
    for _ in 0..4 {
        let min_x = current.iter().map(|c| c.0).min().unwrap_or(0);
        let min_y = current.iter().map(|c| c.1).min().unwrap_or(0);
        let mut normalised: Vec<(u32, u32)> = current
            .iter()
            .map(|&(x, y)| ((x - min_x) as u32, (y - min_y) as u32))
            .collect();
        normalised.sort_unstable();
        if !shapes.contains(&normalised) {
            shapes.push(normalised);
        }
        // A quarter turn: (x, y) -> (y, -x).
        current = current.iter().map(|&(x, y)| (y, -x)).collect();
    }
    shapes
}

static TABLE: LazyLock<PlacementTable> = LazyLock::new(PlacementTable::build);

/// The global placement table.
#[inline]
pub fn table() -> &'static PlacementTable {
    &TABLE
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(owner: Owner, piece: Piece) -> usize {
        table().ids(owner, piece).count()
    }

    #[test]
    fn empty_board_placement_counts() {
        let expected = [
            (Piece::Tavern, 100),
            (Piece::Stable, 180),
            (Piece::Inn, 324),
            (Piece::Bridge, 160),
            (Piece::Square, 81),
            (Piece::Manor, 288),
            (Piece::Abbey, 144),
            (Piece::Infirmary, 64),
            (Piece::Castle, 288),
            (Piece::Tower, 256),
            (Piece::Academy, 256),
        ];
        for player in Player::BOTH {
            let mut total = 0;
            for (piece, n) in expected {
                assert_eq!(count(Some(player), piece), n, "{player} {piece}");
                total += n;
            }
            assert_eq!(total, 2141);
        }
        assert_eq!(count(None, Piece::Cathedral), 224);
        assert_eq!(table().len(), 2 * 2141 + 224);
    }

    #[test]
    fn anchors_from_shifts_are_the_anchors() {
        let mut rng = crate::boardgame::Rng::new(7);
        let owners = [Some(Player::Light), Some(Player::Dark), None];
        for _ in 0..200 {
            // Random cells at every density, the board's frame included.
            let density = rng.below(5) + 1;
            let mut cells = u128::MAX;
            for _ in 0..density {
                cells &= u128::from(rng.next_u64()) << 64 | u128::from(rng.next_u64());
            }
            let cells = Bitboard(cells) & Bitboard::FULL;
            let shifted = ShiftedCells::new(cells);
            for owner in owners {
                let kinds: Vec<Piece> = match owner {
                    Some(_) => Piece::PLAYER_KINDS.to_vec(),
                    None => vec![Piece::Cathedral],
                };
                for piece in kinds {
                    for o in &table().piece(owner, piece).orientations {
                        assert!(o.slots.iter().all(|&slot| slot < 16));
                        assert_eq!(o.anchors_in(&shifted), o.anchors(cells));
                    }
                    let pieces = table().piece(owner, piece);
                    let anchors = pieces.orientations.iter().map(|o| o.anchors(cells));
                    assert_eq!(
                        pieces.count_in(&shifted),
                        anchors.map(|a| a.count()).sum::<u32>()
                    );
                }
            }
        }
    }

    #[test]
    fn masks_are_distinct_and_have_the_piece_size() {
        for player in Player::BOTH {
            for piece in Piece::PLAYER_KINDS {
                let mut masks: Vec<u128> = table()
                    .ids(Some(player), piece)
                    .map(|id| table().get(id).mask.0)
                    .collect();
                assert!(masks.iter().all(|m| m.count_ones() == piece.size()));
                assert!(masks.iter().all(|&m| Bitboard(m).is_subset(Bitboard::FULL)));
                let n = masks.len();
                masks.sort_unstable();
                masks.dedup();
                assert_eq!(masks.len(), n, "{player} {piece} has duplicate placements");
            }
        }
    }

    #[test]
    fn abbey_and_academy_are_mirror_images_between_colours() {
        for piece in [Piece::Abbey, Piece::Academy] {
            let light: Vec<Bitboard> = table()
                .ids(Some(Player::Light), piece)
                .map(|id| table().get(id).mask)
                .collect();
            let dark: Vec<Bitboard> = table()
                .ids(Some(Player::Dark), piece)
                .map(|id| table().get(id).mask)
                .collect();
            assert!(light.iter().all(|m| !dark.contains(m)), "{piece}");
            // Mirroring files maps one colour's placements onto the other's.
            let mirror = |m: &Bitboard| -> Bitboard {
                m.cells()
                    .map(|c| Cell::new(9 - c.file(), c.rank()).unwrap())
                    .collect()
            };
            assert!(light.iter().all(|m| dark.contains(&mirror(m))), "{piece}");
        }
        // The rule sheet's Dark Abbey: `##.` over `.##` with rank 10 on top.
        let dark_abbey: Bitboard = ["a2", "b2", "b1", "c1"]
            .iter()
            .map(|s| s.parse::<Cell>().unwrap())
            .collect();
        assert!(
            table()
                .find(Some(Player::Dark), Piece::Abbey, dark_abbey)
                .is_some()
        );
        assert!(
            table()
                .find(Some(Player::Light), Piece::Abbey, dark_abbey)
                .is_none()
        );
    }
}
