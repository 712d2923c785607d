//! Move notation: `castle:c3,d3,e3,c4,e4`, `dark:inn:a1,a2,b1`, `pass`,
//! `inn:c3,c4,d4/spare:e5` (optional capture declined). See `docs/notation.md`.

use crate::cathedral::bitboard::Bitboard;
use crate::cathedral::cell::Cell;
use crate::cathedral::moves::Move;
use crate::cathedral::piece::Piece;
use crate::cathedral::placement::table;
use crate::cathedral::player::Player;
use crate::cathedral::position::Position;
use crate::present::words::count;
use std::fmt;
use std::str::FromStr;

/// A move as written, before it is checked against a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveText {
    /// The player named by a `light:` or `dark:` prefix, if any.
    pub player: Option<Player>,
    /// The pass or placement written after the prefix.
    pub action: Action,
}

/// What a written move does: pass, or place a building.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// `pass`: the player passes.
    Pass,
    /// Places a building: `PIECE:CELLS`, with an optional `/spare:CELLS` suffix.
    Place {
        /// The building named.
        piece: Piece,
        /// The cells it is to cover.
        cells: Bitboard,
        /// One cell of each building whose capture the mover declines.
        spare: Vec<Cell>,
    },
}

/// Why a move could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseMoveError {
    /// The text holds no move.
    #[error("empty move: expected `PIECE:CELLS` like `castle:c3,d3,e3,c4,e4`, or `pass`")]
    Empty,
    /// The text is not a well-formed move.
    #[error("`{text}`: {reason}")]
    Bad {
        /// The move as written.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
}

fn bad(text: &str, reason: impl Into<String>) -> ParseMoveError {
    ParseMoveError::Bad {
        text: text.to_string(),
        reason: reason.into(),
    }
}

fn parse_cells(text: &str, list: &str) -> Result<Vec<Cell>, ParseMoveError> {
    list.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.parse::<Cell>().map_err(|e| bad(text, e.to_string())))
        .collect()
}

impl FromStr for MoveText {
    type Err = ParseMoveError;

    fn from_str(text: &str) -> Result<MoveText, ParseMoveError> {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err(ParseMoveError::Empty);
        }
        let (main, spare_text) = match trimmed.split_once('/') {
            Some((main, spare)) => (main, Some(spare)),
            None => (trimmed, None),
        };
        let mut parts: Vec<&str> = main.split(':').map(str::trim).collect();
        let player = match parts.first().map(|p| p.parse::<Player>()) {
            Some(Ok(player)) if parts.len() > 1 => {
                parts.remove(0);
                Some(player)
            }
            _ => None,
        };
        let action = match parts.as_slice() {
            [word] if word.eq_ignore_ascii_case("pass") => {
                if spare_text.is_some() {
                    return Err(bad(text, "a pass cannot spare a capture"));
                }
                Action::Pass
            }
            [piece, cells] => {
                let piece: Piece =
                    piece
                        .parse()
                        .map_err(|e: crate::cathedral::piece::ParsePieceError| {
                            bad(text, e.to_string())
                        })?;
                let list = parse_cells(text, cells)?;
                let set: Bitboard = list.iter().copied().collect();
                if set.count() as usize != list.len() {
                    return Err(bad(text, "a cell is listed twice"));
                }
                if list.len() as u32 != piece.size() {
                    return Err(bad(
                        text,
                        format!(
                            "the {} covers {}, but {} given",
                            piece.title(),
                            count(piece.size(), "square"),
                            match list.len() {
                                1 => "1 cell is".to_string(),
                                n => format!("{n} cells are"),
                            }
                        ),
                    ));
                }
                let spare = match spare_text {
                    None => Vec::new(),
                    Some(s) => {
                        let list = s.trim().strip_prefix("spare:").ok_or_else(|| {
                            bad(text, "expected `/spare:CELL,...` after the cells")
                        })?;
                        let cells = parse_cells(text, list)?;
                        if cells.is_empty() {
                            return Err(bad(text, "`/spare:` names no cell"));
                        }
                        cells
                    }
                };
                Action::Place {
                    piece,
                    cells: set,
                    spare,
                }
            }
            [single] if single.parse::<Piece>().is_ok() => {
                return Err(bad(
                    text,
                    "expected `:` and the cells after the piece, like `inn:a1,a2,b1`",
                ));
            }
            _ => {
                return Err(bad(
                    text,
                    "expected `[light:|dark:]PIECE:CELL,CELL,...` (like `castle:c3,d3,e3,c4,e4`) or `pass`",
                ));
            }
        };
        Ok(MoveText { player, action })
    }
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(player) = self.player {
            write!(f, "{}:", player.name())?;
        }
        match &self.action {
            Action::Pass => f.write_str("pass"),
            Action::Place {
                piece,
                cells,
                spare,
            } => {
                write!(f, "{}:{}", piece.name(), cells)?;
                if !spare.is_empty() {
                    f.write_str("/spare:")?;
                    for (i, cell) in spare.iter().enumerate() {
                        if i > 0 {
                            f.write_str(",")?;
                        }
                        write!(f, "{cell}")?;
                    }
                }
                Ok(())
            }
        }
    }
}

/// The canonical text of `mv`, played from `position`: `castle:c3,c4,d3,e3,e4`, with
/// `/spare:` naming the lowest cell of each spared building. Without the player prefix.
///
/// ```
/// use cathedral::{MoveList, Position, Rules};
/// use cathedral::legality::parse_move;
/// use cathedral::notation::{format_move, format_move_with_player};
///
/// let start = Position::new(Rules::CLASSIC);
/// let mv = parse_move(&start, "cathedral:e7,e6,f6,d6,e5,e4")?;
/// // The cells file by file, each file bottom to top.
/// assert_eq!(format_move(&start, mv), "cathedral:d6,e4,e5,e6,e7,f6");
/// assert_eq!(format_move_with_player(&start, mv), "light:cathedral:d6,e4,e5,e6,e7,f6");
/// // Every legal move's text reads back as the same move.
/// let mut moves = MoveList::new();
/// start.legal_moves(&mut moves);
/// for &mv in &moves {
///     assert_eq!(parse_move(&start, &format_move(&start, mv))?, mv);
/// }
/// # Ok::<(), cathedral::legality::MoveError>(())
/// ```
pub fn format_move(position: &Position, mv: Move) -> String {
    to_text(position, mv, false).to_string()
}

/// Like [`format_move`] with the mover's prefix: `dark:castle:c3,c4,d3,e3,e4`.
pub fn format_move_with_player(position: &Position, mv: Move) -> String {
    to_text(position, mv, true).to_string()
}

/// Every move of `line` played from `position`, with the player: what a position file stores as a
/// best line.
///
/// ```
/// use cathedral::{Move, Position, Rules};
/// use cathedral::legality::parse_move;
/// use cathedral::notation::format_line;
///
/// let start = Position::new(Rules::CLASSIC);
/// let mut after = start;
/// let cathedral = parse_move(&after, "cathedral:e4,e5,d6,e6,f6,e7")?;
/// after.play(cathedral);
/// let tavern = parse_move(&after, "tavern:a1")?;
/// assert_eq!(
///     format_line(&start, &[cathedral, tavern]),
///     ["light:cathedral:d6,e4,e5,e6,e7,f6", "dark:tavern:a1"]
/// );
/// # let _ = Move::PASS;
/// # Ok::<(), cathedral::legality::MoveError>(())
/// ```
pub fn format_line(position: &Position, line: &[Move]) -> Vec<String> {
    let mut current = *position;
    line.iter()
        .map(|&mv| {
            let text = format_move_with_player(&current, mv);
            current.play(mv);
            text
        })
        .collect()
}

/// The [`MoveText`] of `mv` played from `position`.
pub fn to_text(position: &Position, mv: Move, with_player: bool) -> MoveText {
    let player = with_player.then_some(position.to_move());
    let Some(id) = mv.placement() else {
        return MoveText {
            player,
            action: Action::Pass,
        };
    };
    let placement = table().get(id);
    let opponent = position.side(position.to_move().opponent());
    let mut spare = Vec::new();
    for (slot, cells) in opponent.buildings.iter().enumerate() {
        if mv.spared().contains_slot(slot) {
            spare.extend(cells.cells_by_file().first().copied());
        }
    }
    if mv.spared().contains_cathedral() {
        spare.extend(position.cathedral().cells_by_file().first().copied());
    }
    MoveText {
        player: if placement.piece == crate::cathedral::piece::Piece::Cathedral {
            player.map(|_| Player::Light)
        } else {
            player
        },
        action: Action::Place {
            piece: placement.piece,
            cells: placement.mask,
            spare,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_moves() {
        let text: MoveText = "dark:Castle: c3, d3,e3,c4,e4".parse().unwrap();
        assert_eq!(text.player, Some(Player::Dark));
        assert_eq!(text.to_string(), "dark:castle:c3,c4,d3,e3,e4");
        let pass: MoveText = "pass".parse().unwrap();
        assert_eq!(pass.action, Action::Pass);
        let spare: MoveText = "inn:c3,c4,d4/spare:e5".parse().unwrap();
        assert_eq!(spare.to_string(), "inn:c3,c4,d4/spare:e5");
    }

    #[test]
    fn refuses_bad_moves() {
        for text in [
            "",
            "castle",
            "castle:c3",
            "castle:c3,c3,d3,e3,e4",
            "church:a1",
            "inn:a1,a2,k1",
            "inn:a1,a2,b1/keep:c3",
            "pass/spare:a1",
            "a:b:c:d",
        ] {
            assert!(text.parse::<MoveText>().is_err(), "{text} was accepted");
        }
    }
}
