//! One square of the board, named like a chess square: files `a`..`j` left to right, ranks
//! `1`..`10` bottom to top.

use std::fmt;
use std::str::FromStr;

/// Bits per board row in the padded layout of a cell's index (10 cells and 2 padding bits), the
/// layout [`crate::Bitboard`] shares.
pub const STRIDE: u32 = 12;

/// A board cell. Stores its bit index in the padded [`crate::Bitboard`] layout.
///
/// ```
/// use cathedral::Cell;
///
/// let cell: Cell = "c3".parse()?;
/// assert_eq!((cell.file(), cell.rank()), (2, 2));
/// assert_eq!(Cell::new(2, 2), Some(cell));
/// assert_eq!(cell.to_string(), "c3");
/// // Off the board: no such cell.
/// assert_eq!(Cell::new(10, 0), None);
/// assert!("k1".parse::<Cell>().is_err() && "a11".parse::<Cell>().is_err());
/// // Every cell once, rank by rank: a1, b1, .., j10.
/// assert_eq!(Cell::all().count(), 100);
/// assert_eq!(Cell::all().nth(10).map(|c| c.to_string()), Some("a2".into()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

impl Cell {
    /// The cell at `file` (0 = `a`) and `rank` (0 = rank 1), if both are on the board.
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Option<Cell> {
        if file < 10 && rank < 10 {
            Some(Cell(rank * STRIDE as u8 + file))
        } else {
            None
        }
    }

    #[inline]
    pub(crate) const fn from_bit(bit: u32) -> Cell {
        Cell(bit as u8)
    }

    /// Bit index in the padded layout.
    #[inline]
    pub const fn bit(self) -> u32 {
        self.0 as u32
    }

    /// 0 for file `a` .. 9 for file `j`.
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % STRIDE as u8
    }

    /// 0 for rank 1 .. 9 for rank 10.
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / STRIDE as u8
    }

    /// Dense index 0..100 (rank-major), for tables indexed by cell.
    #[inline]
    pub const fn index(self) -> usize {
        self.rank() as usize * 10 + self.file() as usize
    }

    /// Every cell, a1, b1, .., j1, a2, .., j10.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..10u8).flat_map(|rank| (0..10u8).filter_map(move |file| Cell::new(file, rank)))
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

impl fmt::Debug for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a cell name could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{text}` is not a cell: expected a file a..j followed by a rank 1..10, like `c3` or `j10`"
)]
pub struct ParseCellError {
    pub text: String,
}

impl FromStr for Cell {
    type Err = ParseCellError;

    fn from_str(text: &str) -> Result<Cell, ParseCellError> {
        let error = || ParseCellError {
            text: text.to_string(),
        };
        let trimmed = text.trim();
        let mut chars = trimmed.chars();
        let file_char = chars.next().ok_or_else(error)?.to_ascii_lowercase();
        if !('a'..='j').contains(&file_char) {
            return Err(error());
        }
        let rank_text = chars.as_str();
        if rank_text.is_empty()
            || rank_text.len() > 2
            || !rank_text.bytes().all(|b| b.is_ascii_digit())
        {
            return Err(error());
        }
        let rank: u8 = rank_text.parse().map_err(|_| error())?;
        if !(1..=10).contains(&rank) || rank_text.starts_with('0') {
            return Err(error());
        }
        Cell::new(file_char as u8 - b'a', rank - 1).ok_or_else(error)
    }
}

impl serde::Serialize for Cell {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Cell {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Cell, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for cell in Cell::all() {
            assert_eq!(cell.to_string().parse::<Cell>(), Ok(cell));
        }
        assert_eq!(Cell::all().count(), 100);
    }

    #[test]
    fn bad_names_are_refused() {
        for text in ["", "a", "k1", "a0", "a11", "a01", "11", "aa", "a-1", "j100"] {
            assert!(text.parse::<Cell>().is_err(), "{text} was accepted");
        }
        assert_eq!(
            "J10".parse::<Cell>().map(|c| c.to_string()),
            Ok("j10".to_string())
        );
    }
}
