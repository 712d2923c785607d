//! Sets of board cells as a 128-bit mask.
//!
//! The 10x10 board is stored row by row with a stride of 12 bits: bits `12 * rank + file` for
//! `file` in `0..10` are cells, bits 10 and 11 of every row and bits 120..128 are padding that is
//! always zero. Two padding columns mean that shifting a set by up to two files never wraps a cell
//! into the neighbouring row, which is what placement generation (pieces up to three cells wide)
//! and the 8-neighbour flood fill rely on.

use crate::cathedral::cell::Cell;
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Sub};

pub use crate::cathedral::cell::STRIDE;

const fn board_mask() -> u128 {
    let mut mask = 0u128;
    let mut rank = 0;
    while rank < 10 {
        mask |= 0x3FFu128 << (rank * STRIDE);
        rank += 1;
    }
    mask
}

const fn file_mask(file: u32) -> u128 {
    let mut mask = 0u128;
    let mut rank = 0;
    while rank < 10 {
        mask |= 1u128 << (rank * STRIDE + file);
        rank += 1;
    }
    mask
}

/// A set of cells.
///
/// ```
/// use cathedral::{Bitboard, Cell};
///
/// let cell = |name: &str| name.parse::<Cell>().unwrap();
/// let j1 = Bitboard::from_cell(cell("j1"));
/// // The edge file's neighbours: the padding bits keep a dilation from wrapping to file `a`.
/// let around = j1.dilate8();
/// assert_eq!(around.count(), 4);
/// assert!(around.contains(cell("i2")) && !around.contains(cell("a2")));
/// let corners: Bitboard = [cell("a1"), cell("j10")].into_iter().collect();
/// assert_eq!(corners.components8().count(), 2);
/// let names: Vec<String> = corners.cells().map(|c| c.to_string()).collect();
/// assert_eq!(names, ["a1", "j10"]);
/// assert_eq!((Bitboard::FULL - corners).count(), 98);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Bitboard(pub u128);

impl Bitboard {
    /// The set with no cells.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// Every cell of the board.
    pub const FULL: Bitboard = Bitboard(board_mask());
    /// File `a`.
    pub const WEST_EDGE: Bitboard = Bitboard(file_mask(0));
    /// File `j`.
    pub const EAST_EDGE: Bitboard = Bitboard(file_mask(9));
    /// Rank 1.
    pub const SOUTH_EDGE: Bitboard = Bitboard(0x3FF);
    /// Rank 10.
    pub const NORTH_EDGE: Bitboard = Bitboard(0x3FF << (9 * STRIDE));

    /// The set holding just `cell`.
    #[inline]
    pub const fn from_cell(cell: Cell) -> Bitboard {
        Bitboard(1u128 << cell.bit())
    }

    /// Whether the set holds no cell.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set holds at least one cell.
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Number of cells in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether `cell` is in the set.
    #[inline]
    pub const fn contains(self, cell: Cell) -> bool {
        self.0 >> cell.bit() & 1 != 0
    }

    /// Whether the two sets share at least one cell.
    #[inline]
    pub const fn intersects(self, other: Bitboard) -> bool {
        self.0 & other.0 != 0
    }

    /// Whether every cell of the set is also in `other`.
    #[inline]
    pub const fn is_subset(self, other: Bitboard) -> bool {
        self.0 & !other.0 == 0
    }

    /// Adds `cell` to the set.
    #[inline]
    pub fn insert(&mut self, cell: Cell) {
        self.0 |= 1u128 << cell.bit();
    }

    /// The lowest cell (rank first, then file), if any.
    #[inline]
    pub fn first(self) -> Option<Cell> {
        if self.0 == 0 {
            None
        } else {
            Some(Cell::from_bit(self.0.trailing_zeros()))
        }
    }

    /// The set with its lowest cell removed.
    #[inline]
    pub const fn without_first(self) -> Bitboard {
        Bitboard(self.0 & self.0.wrapping_sub(1))
    }

    /// The lowest cell as a set of its own (empty if the set is empty).
    #[inline]
    pub const fn first_bit(self) -> Bitboard {
        Bitboard(self.0 & self.0.wrapping_neg())
    }

    /// The set plus every cell that touches it orthogonally or at a corner.
    #[inline]
    pub const fn dilate8(self) -> Bitboard {
        let row = self.0 | self.0 << 1 | self.0 >> 1;
        Bitboard((row | row << STRIDE | row >> STRIDE) & board_mask())
    }

    /// The set plus every cell that touches it orthogonally.
    #[inline]
    pub const fn dilate4(self) -> Bitboard {
        let x = self.0;
        Bitboard((x | x << 1 | x >> 1 | x << STRIDE | x >> STRIDE) & board_mask())
    }

    /// The 8-connected component of `within` that contains `seed` (`seed` must lie in `within`).
    #[inline]
    pub fn fill8(seed: Bitboard, within: Bitboard) -> Bitboard {
        let mut region = seed;
        loop {
            let grown = region.dilate8() & within;
            if grown == region {
                return region;
            }
            region = grown;
        }
    }

    /// The 4-connected component of `within` that contains `seed`.
    #[inline]
    ///
    /// ```
    /// use cathedral::{Bitboard, Cell};
    ///
    /// let cell = |name: &str| name.parse::<Cell>().unwrap();
    /// // A wall down file c, open at c10: the flood from a1 stays on files a and b but for the
    /// // gap, through which it reaches the rest of the board.
    /// let wall: Bitboard = (1..=9).map(|rank| cell(&format!("c{rank}"))).collect();
    /// let open = Bitboard::FULL - wall;
    /// let reached = Bitboard::fill4(Bitboard::from_cell(cell("a1")), open);
    /// assert_eq!(reached, open);
    /// let closed = open - Bitboard::from_cell(cell("c10"));
    /// let left = Bitboard::fill4(Bitboard::from_cell(cell("a1")), closed);
    /// assert_eq!(left.count(), 20);
    /// ```
    pub fn fill4(seed: Bitboard, within: Bitboard) -> Bitboard {
        let mut region = seed;
        loop {
            let grown = region.dilate4() & within;
            if grown == region {
                return region;
            }
            region = grown;
        }
    }

    /// Splits the set into its 8-connected components, lowest first.
    pub fn components8(self) -> impl Iterator<Item = Bitboard> {
        let mut rest = self;
        std::iter::from_fn(move || {
            let seed = rest.first_bit();
            if seed.is_empty() {
                return None;
            }
            let region = Bitboard::fill8(seed, rest);
            rest = rest - region;
            Some(region)
        })
    }

    /// Splits the set into its 4-connected components, lowest first.
    pub fn components4(self) -> impl Iterator<Item = Bitboard> {
        let mut rest = self;
        std::iter::from_fn(move || {
            let seed = rest.first_bit();
            if seed.is_empty() {
                return None;
            }
            let region = Bitboard::fill4(seed, rest);
            rest = rest - region;
            Some(region)
        })
    }

    /// The cells of the set, lowest first.
    #[inline]
    pub fn cells(self) -> Cells {
        Cells(self)
    }

    /// Cells sorted the way the file format writes them: by file, then rank.
    pub fn cells_by_file(self) -> Vec<Cell> {
        let mut cells: Vec<Cell> = self.cells().collect();
        cells.sort_by_key(|c| (c.file(), c.rank()));
        cells
    }
}

/// Iterator over the cells of a [`Bitboard`], lowest bit first.
#[derive(Clone, Copy)]
pub struct Cells(Bitboard);

impl Iterator for Cells {
    type Item = Cell;
    #[inline]
    fn next(&mut self) -> Option<Cell> {
        let cell = self.0.first()?;
        self.0 = self.0.without_first();
        Some(cell)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Cells {}

impl FromIterator<Cell> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> Self {
        let mut set = Bitboard::EMPTY;
        for cell in iter {
            set.insert(cell);
        }
        set
    }
}

impl BitOr for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 | rhs.0)
    }
}

impl BitOrAssign for Bitboard {
    #[inline]
    fn bitor_assign(&mut self, rhs: Bitboard) {
        self.0 |= rhs.0;
    }
}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitand(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & rhs.0)
    }
}

impl BitAndAssign for Bitboard {
    #[inline]
    fn bitand_assign(&mut self, rhs: Bitboard) {
        self.0 &= rhs.0;
    }
}

impl BitXor for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitxor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 ^ rhs.0)
    }
}

/// Set difference.
impl Sub for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn sub(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & !rhs.0)
    }
}

/// Complement within the board (padding stays empty).
impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & board_mask())
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.cells_by_file()).finish()
    }
}

/// Cells joined by commas, by file then rank: `c3,c4,d3`.
impl fmt::Display for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, cell) in self.cells_by_file().into_iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{cell}")?;
        }
        Ok(())
    }
}

/// A list of cell names, by file then rank.
impl serde::Serialize for Bitboard {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.cells_by_file())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_has_one_hundred_cells() {
        assert_eq!(Bitboard::FULL.count(), 100);
        assert_eq!(Bitboard::WEST_EDGE.count(), 10);
        assert_eq!(Bitboard::EAST_EDGE.count(), 10);
        assert_eq!(Bitboard::SOUTH_EDGE.count(), 10);
        assert_eq!(Bitboard::NORTH_EDGE.count(), 10);
        assert!(Bitboard::WEST_EDGE.cells().all(|c| c.file() == 0));
        assert!(Bitboard::EAST_EDGE.cells().all(|c| c.file() == 9));
    }

    #[test]
    fn dilation_never_wraps_rows() {
        let j5: Cell = "j5".parse().unwrap();
        let grown = Bitboard::from_cell(j5).dilate8();
        assert_eq!(grown.count(), 6);
        assert!(grown.cells().all(|c| c.file() >= 8));
        let a1: Cell = "a1".parse().unwrap();
        assert_eq!(Bitboard::from_cell(a1).dilate8().count(), 4);
        assert_eq!(Bitboard::from_cell(a1).dilate4().count(), 3);
    }

    #[test]
    fn diagonal_contact_joins_8_but_not_4_components() {
        let set: Bitboard = ["a1", "b2"]
            .iter()
            .map(|s| s.parse::<Cell>().unwrap())
            .collect();
        assert_eq!(set.components8().count(), 1);
        assert_eq!(set.components4().count(), 2);
    }
}
