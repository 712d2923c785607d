//! The `puzzle:` block's vocabulary: the themes and difficulty levels a position file may name.
//! The puzzle layer detects themes and rates difficulty; the file format only knows the names.

use std::fmt;
use std::str::FromStr;

/// A puzzle theme: the kind of idea the answer shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Theme {
    /// The answer captures an opponent building.
    Capture,
    /// The solver's side captures the Cathedral on the best line.
    CathedralCapture,
    /// The answer claims a region (without a capture).
    Claim,
    /// The answer leaves an opponent building with nowhere to go: a piece in the opponent's
    /// hand that fitted before the move fits nowhere after it.
    Block,
    /// A wall leaking at a corner contact: a diagonal-contact near miss on the best line, or on
    /// the tempting move or its refutation.
    DiagonalTrap,
    /// A waiting move in one's own territory, or the tempting move is right but only later (the
    /// solver's side plays it further down the best line).
    Tempo,
    /// Nothing is claimed or captured on the best line: the result is decided by counting what
    /// still fits.
    EndgameCount,
}

impl Theme {
    /// Every theme.
    pub const ALL: [Theme; 7] = [
        Theme::Capture,
        Theme::CathedralCapture,
        Theme::Claim,
        Theme::Block,
        Theme::DiagonalTrap,
        Theme::Tempo,
        Theme::EndgameCount,
    ];

    /// Kebab-case name as written in files: `cathedral-capture`.
    pub fn name(self) -> &'static str {
        match self {
            Theme::Capture => "capture",
            Theme::CathedralCapture => "cathedral-capture",
            Theme::Claim => "claim",
            Theme::Block => "block",
            Theme::DiagonalTrap => "diagonal-trap",
            Theme::Tempo => "tempo",
            Theme::EndgameCount => "endgame-count",
        }
    }

    /// "Capture", "Cathedral capture"...
    pub fn title(self) -> &'static str {
        match self {
            Theme::Capture => "Capture",
            Theme::CathedralCapture => "Cathedral capture",
            Theme::Claim => "Claim",
            Theme::Block => "Block",
            Theme::DiagonalTrap => "Diagonal trap",
            Theme::Tempo => "Tempo",
            Theme::EndgameCount => "Endgame count",
        }
    }
}

/// A puzzle's difficulty level, set by its rating.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Difficulty {
    /// Rated up to [`EASY_MAX`].
    Easy,
    /// Rated above [`EASY_MAX`] and up to [`MEDIUM_MAX`].
    Medium,
    /// Rated above [`MEDIUM_MAX`].
    Hard,
}

impl Difficulty {
    /// Every level, easiest first.
    pub const ALL: [Difficulty; 3] = [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard];

    /// Lower-case name as written in files: `easy`, `medium`, `hard`.
    pub fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
        }
    }

    /// The level of a rating: easy up to [`EASY_MAX`], medium up to [`MEDIUM_MAX`], hard above.
    pub fn of_rating(rating: u32) -> Difficulty {
        match rating {
            0..=EASY_MAX => Difficulty::Easy,
            r if r <= MEDIUM_MAX => Difficulty::Medium,
            _ => Difficulty::Hard,
        }
    }
}

/// The highest rating of an easy puzzle.
pub const EASY_MAX: u32 = 12;
/// The highest rating of a medium puzzle.
pub const MEDIUM_MAX: u32 = 15;

/// A name that is not one of a list of words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{given}` is not a {what}: expected {expected}")]
pub struct ParseNameError {
    /// The text as written.
    pub given: String,
    /// What kind of name was expected: `theme` or `difficulty`.
    pub what: &'static str,
    /// The accepted names, comma-separated.
    pub expected: String,
}

fn parse_name<T: Copy>(
    text: &str,
    all: &[T],
    name: impl Fn(T) -> &'static str,
    what: &'static str,
) -> Result<T, ParseNameError> {
    let wanted = text.trim().to_ascii_lowercase().replace('_', "-");
    all.iter()
        .copied()
        .find(|t| name(*t) == wanted)
        .ok_or_else(|| ParseNameError {
            given: text.to_string(),
            what,
            expected: all.iter().map(|t| name(*t)).collect::<Vec<_>>().join(", "),
        })
}

impl FromStr for Theme {
    type Err = ParseNameError;
    fn from_str(s: &str) -> Result<Theme, ParseNameError> {
        parse_name(s, &Theme::ALL, Theme::name, "theme")
    }
}

impl FromStr for Difficulty {
    type Err = ParseNameError;
    fn from_str(s: &str) -> Result<Difficulty, ParseNameError> {
        parse_name(s, &Difficulty::ALL, Difficulty::name, "difficulty")
    }
}

impl fmt::Display for Theme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for Difficulty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
