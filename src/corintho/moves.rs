//! Moves and their notation: `C@b2` (place a column on b2; `B` base, `K` capital), `b2-c2`
//! (move the stack on b2 onto c2), `pass`.

use super::board::{Level, Square};
use super::refusal::ParseCorinthoMoveError;
use std::fmt;

/// A move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CorinthoMove {
    /// Place a section from the supply.
    Place {
        /// Which section.
        level: Level,
        /// Where.
        to: Square,
    },
    /// Move the whole stack on `from` on top of the adjacent stack on `to`.
    Stack {
        /// The moved stack's platform.
        from: Square,
        /// The receiving stack's platform.
        to: Square,
    },
    /// No legal move: the turn passes.
    Pass,
}

impl CorinthoMove {
    /// The platform the move ends on (none for a pass).
    pub fn destination(self) -> Option<Square> {
        match self {
            CorinthoMove::Place { to, .. } | CorinthoMove::Stack { to, .. } => Some(to),
            CorinthoMove::Pass => None,
        }
    }

    /// 31-bit code for the transposition table.
    pub fn encode(self) -> u32 {
        match self {
            CorinthoMove::Place { level, to } => 0x100 | (level as u32) << 4 | to.index() as u32,
            CorinthoMove::Stack { from, to } => {
                0x200 | (from.index() as u32) << 4 | to.index() as u32
            }
            CorinthoMove::Pass => 0x300,
        }
    }

    /// The inverse of [`CorinthoMove::encode`].
    #[expect(
        clippy::expect_used,
        reason = "four bits always name one of the 16 squares"
    )]
    pub fn decode(code: u32) -> CorinthoMove {
        let sq = |i: u32| Square::new((i & 15) as usize).expect("4 bits");
        match code >> 8 {
            1 => CorinthoMove::Place {
                level: Level::ALL[((code >> 4) & 3).min(2) as usize],
                to: sq(code),
            },
            2 => CorinthoMove::Stack {
                from: sq(code >> 4),
                to: sq(code),
            },
            _ => CorinthoMove::Pass,
        }
    }

    /// Parses the notation (also `column@b2`, `column b2`, `b2c2`).
    ///
    /// ```
    /// use cathedral::corintho::CorinthoMove;
    /// let mv = CorinthoMove::parse("K@c3").unwrap();
    /// assert_eq!(mv.to_string(), "K@c3");
    /// assert_eq!(CorinthoMove::parse("b2-c2").unwrap().to_string(), "b2-c2");
    /// assert!(CorinthoMove::parse("x9").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<CorinthoMove, ParseCorinthoMoveError> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("pass") {
            return Ok(CorinthoMove::Pass);
        }
        let usage = || ParseCorinthoMoveError {
            text: text.to_string(),
        };
        if let Some((level, to)) = text.split_once(['@', ' ', ':']) {
            let level = Level::parse(level.trim()).ok_or_else(usage)?;
            let to = to.trim().parse().map_err(|_| usage())?;
            return Ok(CorinthoMove::Place { level, to });
        }
        let squares = text.replace(['-', '>'], "");
        if squares.len() == 4 && squares.is_ascii() {
            let from = squares[..2].parse().map_err(|_| usage())?;
            let to = squares[2..].parse().map_err(|_| usage())?;
            return Ok(CorinthoMove::Stack { from, to });
        }
        Err(usage())
    }
}

impl fmt::Display for CorinthoMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CorinthoMove::Place { level, to } => write!(f, "{}@{to}", level.letter()),
            CorinthoMove::Stack { from, to } => write!(f, "{from}-{to}"),
            CorinthoMove::Pass => f.write_str("pass"),
        }
    }
}
