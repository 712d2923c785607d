//! The foundation: 16 platforms, each holding one stack of sections.

use std::fmt;

/// A section: base, column or capital, in stacking order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// The bottom section.
    Base = 0,
    /// Rests on a base.
    Column = 1,
    /// Rests on a column; nothing rests on it.
    Capital = 2,
}

impl Level {
    /// All three, in stacking order.
    pub const ALL: [Level; 3] = [Level::Base, Level::Column, Level::Capital];

    /// The level's letter in diagrams and notation: `B`, `C` or `K` (capital).
    pub fn letter(self) -> char {
        match self {
            Level::Base => 'B',
            Level::Column => 'C',
            Level::Capital => 'K',
        }
    }

    /// The level of a letter (either case).
    pub fn from_letter(c: char) -> Option<Level> {
        match c.to_ascii_uppercase() {
            'B' => Some(Level::Base),
            'C' => Some(Level::Column),
            'K' => Some(Level::Capital),
            _ => None,
        }
    }

    /// The word: `base`, `column`, `capital`.
    pub fn name(self) -> &'static str {
        match self {
            Level::Base => "base",
            Level::Column => "column",
            Level::Capital => "capital",
        }
    }

    /// The level of a word or a letter.
    pub fn parse(text: &str) -> Option<Level> {
        match text.to_ascii_lowercase().as_str() {
            "base" | "b" => Some(Level::Base),
            "column" | "c" => Some(Level::Column),
            "capital" | "k" => Some(Level::Capital),
            _ => None,
        }
    }

    fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// A platform's stack: an unbroken run of levels in stacking order (bits: base 1, column 2,
/// capital 4), or empty. Stacks are never split, so only these seven exist.
///
/// ```
/// use cathedral::corintho::{Level, Stack};
/// let column = Stack::single(Level::Column);
/// let base = Stack::single(Level::Base);
/// assert!(base.accepts(column));
/// assert_eq!(base.with(column).to_string(), "BC");
/// assert!(!column.accepts(base));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Stack(u8);

impl Stack {
    /// No section on the platform.
    pub const EMPTY: Stack = Stack(0);

    /// One section alone.
    pub fn single(level: Level) -> Stack {
        Stack(level.bit())
    }

    /// The stack from its bits, if they form an unbroken run.
    pub fn from_bits(bits: u8) -> Option<Stack> {
        matches!(bits, 0 | 1 | 2 | 3 | 4 | 6 | 7).then_some(Stack(bits))
    }

    /// Its bits (base 1, column 2, capital 4).
    pub fn bits(self) -> u8 {
        self.0
    }

    /// Whether the platform is unoccupied.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The top section.
    pub fn top(self) -> Option<Level> {
        match self.0 {
            0 => None,
            b if b & 4 != 0 => Some(Level::Capital),
            b if b & 2 != 0 => Some(Level::Column),
            _ => Some(Level::Base),
        }
    }

    /// The bottom section.
    pub fn bottom(self) -> Option<Level> {
        match self.0 {
            0 => None,
            b if b & 1 != 0 => Some(Level::Base),
            b if b & 2 != 0 => Some(Level::Column),
            _ => Some(Level::Capital),
        }
    }

    /// The sections bottom to top.
    pub fn levels(self) -> impl Iterator<Item = Level> {
        Level::ALL
            .into_iter()
            .filter(move |l| self.0 & l.bit() != 0)
    }

    /// Number of sections.
    pub fn height(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether `other` (a section or a whole stack) may rest on this stack: this one is not
    /// empty and `other`'s bottom is the level just above this one's top (building code 1).
    pub fn accepts(self, other: Stack) -> bool {
        self.0 != 0 && other.0 != 0 && (self.top_bit() << 1) == (other.0 & other.0.wrapping_neg())
    }

    fn top_bit(self) -> u8 {
        match self.0 {
            0 => 0,
            b => 1 << (7 - b.leading_zeros()),
        }
    }

    /// This stack with `other` on top (only meaningful when [`Stack::accepts`]).
    pub fn with(self, other: Stack) -> Stack {
        Stack(self.0 | other.0)
    }

    /// Parses `.` (empty) or letters bottom to top: `B`, `BC`, `CK`, `BCK`...
    pub fn parse(text: &str) -> Option<Stack> {
        if text == "." {
            return Some(Stack::EMPTY);
        }
        let mut stack = Stack::EMPTY;
        for c in text.chars() {
            let level = Stack::single(Level::from_letter(c)?);
            if !stack.is_empty() && !stack.accepts(level) {
                return None;
            }
            stack = stack.with(level);
        }
        (!stack.is_empty()).then_some(stack)
    }
}

impl fmt::Display for Stack {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str(".");
        }
        for level in self.levels() {
            write!(f, "{}", level.letter())?;
        }
        Ok(())
    }
}

/// A platform: files a-d left to right, ranks 1-4 bottom to top; index `rank * 4 + file`.
///
/// ```
/// use cathedral::corintho::Square;
/// let b3: Square = "b3".parse().unwrap();
/// assert_eq!(b3.index(), 9);
/// assert_eq!(b3.to_string(), "b3");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Board width and height.
    pub const SIDE: u8 = 4;
    /// Number of platforms.
    pub const COUNT: usize = 16;

    /// The square of an index 0..16.
    pub fn new(index: usize) -> Option<Square> {
        (index < Square::COUNT).then_some(Square(index as u8))
    }

    /// The square at `file` (0..4) and `rank` (0..4).
    pub fn at(file: u8, rank: u8) -> Option<Square> {
        (file < 4 && rank < 4).then_some(Square(rank * 4 + file))
    }

    /// Its index 0..16.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// Its file 0..4 (a-d).
    pub fn file(self) -> u8 {
        self.0 % 4
    }

    /// Its rank 0..4 (1-4).
    pub fn rank(self) -> u8 {
        self.0 / 4
    }

    /// Every square, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..16).map(Square)
    }

    /// The horizontally and vertically adjacent squares (building code 4: no diagonals).
    pub fn neighbours(self) -> impl Iterator<Item = Square> {
        let (f, r) = (self.file() as i8, self.rank() as i8);
        [(1, 0), (-1, 0), (0, 1), (0, -1)]
            .into_iter()
            .filter_map(move |(df, dr)| {
                let (nf, nr) = (f + df, r + dr);
                ((0..4).contains(&nf) && (0..4).contains(&nr)).then(|| Square((nr * 4 + nf) as u8))
            })
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

impl std::str::FromStr for Square {
    type Err = String;
    fn from_str(text: &str) -> Result<Square, String> {
        let bytes = text.as_bytes();
        if let [file @ b'a'..=b'd', rank @ b'1'..=b'4'] = bytes {
            Ok(Square((rank - b'1') * 4 + (file - b'a')))
        } else {
            Err(format!(
                "`{text}` is not a platform: files a-d, ranks 1-4, like `b3`"
            ))
        }
    }
}

/// The 24 lines of three platforms: 8 horizontal, 8 vertical, 4 on each diagonal direction.
pub const LINES: [[u8; 3]; 24] = lines();

const fn lines() -> [[u8; 3]; 24] {
    let mut out = [[0u8; 3]; 24];
    let mut n = 0;
    let dirs: [(i8, i8); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let mut r = 0i8;
        while r < 4 {
            let mut f = 0i8;
            while f < 4 {
                let (ef, er) = (f + 2 * df, r + 2 * dr);
                if ef >= 0 && ef < 4 && er >= 0 && er < 4 {
                    out[n] = [
                        (r * 4 + f) as u8,
                        ((r + dr) * 4 + f + df) as u8,
                        (er * 4 + ef) as u8,
                    ];
                    n += 1;
                }
                f += 1;
            }
            r += 1;
        }
        d += 1;
    }
    out
}

/// For each line of [`LINES`], the lines that extend it into a row of four: the lines sharing
/// two of its platforms (two lines sharing two platforms lie on one straight line).
pub const EXTENSIONS: [u32; 24] = extensions();

const fn extensions() -> [u32; 24] {
    let mut out = [0u32; 24];
    let mut i = 0;
    while i < 24 {
        let mut j = 0;
        while j < 24 {
            let mut shared = 0;
            let mut a = 0;
            while a < 3 {
                let mut b = 0;
                while b < 3 {
                    if LINES[i][a] == LINES[j][b] {
                        shared += 1;
                    }
                    b += 1;
                }
                a += 1;
            }
            if i != j && shared == 2 {
                out[i] |= 1 << j;
            }
            j += 1;
        }
        i += 1;
    }
    out
}

/// The 16 stacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Board {
    cells: [Stack; 16],
}

impl Board {
    /// The stack on a platform.
    pub fn get(&self, square: Square) -> Stack {
        self.cells[square.index()]
    }

    /// Puts a stack on a platform.
    pub fn set(&mut self, square: Square, stack: Stack) {
        self.cells[square.index()] = stack;
    }

    /// The rows standing: bit `i` set when the three platforms of [`LINES`]`[i]` are occupied
    /// and identically topped (base-topped rows only when `base_rows`).
    pub fn rows(&self, base_rows: bool) -> u32 {
        let mut mask = 0;
        for (i, line) in LINES.iter().enumerate() {
            let [a, b, c] = line.map(|s| self.cells[s as usize].top_bit());
            if a != 0 && a == b && b == c && (base_rows || a != 1) {
                mask |= 1 << i;
            }
        }
        mask
    }

    /// Sections of each level on the board.
    pub fn counts(&self) -> [u8; 3] {
        let mut counts = [0; 3];
        for stack in self.cells {
            for level in stack.levels() {
                counts[level as usize] += 1;
            }
        }
        counts
    }

    /// 48 bits: three per platform.
    pub fn packed(&self) -> u64 {
        self.cells
            .iter()
            .enumerate()
            .fold(0, |key, (i, s)| key | (s.0 as u64) << (3 * i))
    }
}

/// The squares of a row bit.
pub fn line_squares(line: usize) -> [Square; 3] {
    LINES[line].map(Square)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twenty_four_lines_of_three_in_line() {
        let mut seen = std::collections::HashSet::new();
        for line in LINES {
            let [a, b, c] = line.map(Square);
            assert_eq!(
                (
                    b.file() as i8 - a.file() as i8,
                    b.rank() as i8 - a.rank() as i8
                ),
                (
                    c.file() as i8 - b.file() as i8,
                    c.rank() as i8 - b.rank() as i8
                )
            );
            assert!(seen.insert(line));
        }
    }

    #[test]
    fn extensions_are_the_other_half_of_a_row_of_four() {
        // A line of four holds two lines of three, each the other's only extension: 4 ranks,
        // 4 files and the 2 long diagonals make 10 such pairs; the 4 short diagonals have none.
        let pairs: u32 = EXTENSIONS.iter().map(|m| m.count_ones()).sum();
        assert_eq!(pairs, 20);
        for (i, &m) in EXTENSIONS.iter().enumerate() {
            assert!(m.count_ones() <= 1, "line {i}");
            if m != 0 {
                assert_eq!(EXTENSIONS[m.trailing_zeros() as usize], 1 << i);
            }
        }
    }

    #[test]
    fn stacking_order() {
        for a in 0..8u8 {
            for b in 0..8u8 {
                let (Some(x), Some(y)) = (Stack::from_bits(a), Stack::from_bits(b)) else {
                    continue;
                };
                let naive = match (x.top(), y.bottom()) {
                    (Some(t), Some(u)) => u as u8 == t as u8 + 1,
                    _ => false,
                };
                assert_eq!(x.accepts(y), naive, "{x} {y}");
            }
        }
    }
}
