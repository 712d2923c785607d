//! Checking a written move against a position, with the reason when it is illegal.

use crate::cathedral::bitboard::Bitboard;
use crate::cathedral::moves::{Move, Spared};
use crate::cathedral::notation::{Action, MoveText};
use crate::cathedral::piece::Piece;
use crate::cathedral::placement::table;
use crate::cathedral::player::Player;
use crate::cathedral::position::{CathedralStatus, ClaimLog, Position};
use crate::cathedral::rules::{Capture, FirstMove, Pass};

/// Why a move is not legal in a position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    #[error("the game is over: neither player can place a building")]
    GameOver,
    #[error("it is {to_move}'s turn, not {named}'s")]
    NotYourTurn { named: Player, to_move: Player },
    #[error("Light must place the Cathedral before any building is placed")]
    CathedralFirst,
    #[error("the Cathedral is placed only once, by Light, as the first move of the game")]
    CathedralNotAvailable,
    #[error("{player} has no {piece} left in hand")]
    NotInHand { player: Player, piece: Piece },
    #[error("{cells} is not the shape of {player}'s {piece}{hint}")]
    WrongShape {
        player: Player,
        piece: Piece,
        cells: Bitboard,
        hint: String,
    },
    #[error("{cells} is already covered by {by}")]
    Occupied { cells: Bitboard, by: String },
    #[error("{cells} is {owner}'s territory: {mover} may not build there")]
    OpponentTerritory {
        cells: Bitboard,
        owner: Player,
        mover: Player,
    },
    #[error(
        "under `first_move: no-enclosure` a player's first building may not cut off part of the board, \
         and this one separates {cut_off}"
    )]
    FirstMoveEncloses { cut_off: Bitboard },
    #[error(
        "{player} cannot pass: passing is allowed only without a legal placement (rules: pass: forced), and {player} has {placements}"
    )]
    PassNotAllowed { player: Player, placements: u32 },
    #[error("captures are mandatory under these rules (capture: mandatory): nothing can be spared")]
    SpareNotAllowed,
    #[error("{cell} is not a building this move captures, so it cannot be spared")]
    NotACapture { cell: crate::cathedral::cell::Cell },
}

impl IllegalMove {
    /// A stable kebab-case name of the reason, for files and JSON: `opponent-territory`.
    pub fn code(&self) -> &'static str {
        match self {
            IllegalMove::GameOver => "game-over",
            IllegalMove::NotYourTurn { .. } => "not-your-turn",
            IllegalMove::CathedralFirst => "cathedral-first",
            IllegalMove::CathedralNotAvailable => "cathedral-not-available",
            IllegalMove::NotInHand { .. } => "not-in-hand",
            IllegalMove::WrongShape { .. } => "wrong-shape",
            IllegalMove::Occupied { .. } => "occupied",
            IllegalMove::OpponentTerritory { .. } => "opponent-territory",
            IllegalMove::FirstMoveEncloses { .. } => "first-move-encloses",
            IllegalMove::PassNotAllowed { .. } => "pass-not-allowed",
            IllegalMove::SpareNotAllowed => "spare-not-allowed",
            IllegalMove::NotACapture { .. } => "not-a-capture",
        }
    }
}

/// Turns a written move into the legal [`Move`] it names, or says why it is illegal.
pub fn resolve(position: &Position, text: &MoveText) -> Result<Move, IllegalMove> {
    let mover = position.to_move();
    if position.is_game_over() {
        return Err(IllegalMove::GameOver);
    }
    let (piece, cells, spare) = match &text.action {
        Action::Pass => {
            if let Some(named) = text.player
                && named != mover
            {
                return Err(IllegalMove::NotYourTurn {
                    named,
                    to_move: mover,
                });
            }
            let placements = position.count_placements(mover);
            if position.rules().pass == Pass::Forced && placements > 0 {
                return Err(IllegalMove::PassNotAllowed {
                    player: mover,
                    placements,
                });
            }
            return Ok(Move::PASS);
        }
        Action::Place {
            piece,
            cells,
            spare,
        } => (*piece, *cells, spare),
    };
    if piece == Piece::Cathedral {
        if position.cathedral_status() != CathedralStatus::ToPlace {
            return Err(IllegalMove::CathedralNotAvailable);
        }
        if let Some(named) = text.player
            && named != Player::Light
        {
            return Err(IllegalMove::CathedralNotAvailable);
        }
    } else {
        if let Some(named) = text.player
            && named != mover
        {
            return Err(IllegalMove::NotYourTurn {
                named,
                to_move: mover,
            });
        }
        if position.cathedral_to_place() {
            return Err(IllegalMove::CathedralFirst);
        }
        if position.side(mover).hand.count(piece) == 0 {
            return Err(IllegalMove::NotInHand {
                player: mover,
                piece,
            });
        }
    }
    let owner = (piece != Piece::Cathedral).then_some(mover);
    let Some(id) = table().find(owner, piece, cells) else {
        let hint = match owner {
            Some(player)
                if table()
                    .find(Some(player.opponent()), piece, cells)
                    .is_some() =>
            {
                format!(
                    ": that is {}'s {}, its mirror image (pieces may be rotated, never reflected)",
                    player.opponent(),
                    piece.title()
                )
            }
            _ => format!(
                " (expected, in some rotation: {})",
                piece.drawing(mover).join(" / ")
            ),
        };
        return Err(IllegalMove::WrongShape {
            player: mover,
            piece,
            cells,
            hint,
        });
    };
    let covered = cells & position.occupied();
    if covered.any() {
        let by: Vec<String> = position
            .buildings()
            .filter(|b| b.cells.intersects(covered))
            .map(|b| b.label())
            .collect();
        return Err(IllegalMove::Occupied {
            cells: covered,
            by: by.join(" and "),
        });
    }
    if piece != Piece::Cathedral {
        let opponent = mover.opponent();
        let theirs = cells & position.side(opponent).territory;
        if theirs.any() {
            return Err(IllegalMove::OpponentTerritory {
                cells: theirs,
                owner: opponent,
                mover,
            });
        }
        if !position.side(mover).first_move_made
            && position.rules().first_move == FirstMove::NoEnclosure
            && position.first_move_encloses(mover, id)
        {
            let open = !(position.side(mover).occupied | cells);
            let main = open
                .components8()
                .max_by_key(|r| r.count())
                .unwrap_or_default();
            return Err(IllegalMove::FirstMoveEncloses {
                cut_off: open - main,
            });
        }
    }
    let mut spared = Spared::NONE;
    if !spare.is_empty() {
        if position.rules().capture == Capture::Mandatory {
            return Err(IllegalMove::SpareNotAllowed);
        }
        let mut after = *position;
        let mut log = ClaimLog::default();
        after.play_with(Move::place(id), &mut log);
        for &cell in spare {
            let captured = log
                .claims
                .iter()
                .filter_map(|(_, captured)| *captured)
                .find(|b| b.cells.contains(cell))
                .ok_or(IllegalMove::NotACapture { cell })?;
            spared.0 |= position.spare_bit(mover.opponent(), &captured);
        }
    }
    Ok(Move::place_sparing(id, spared))
}

/// Parses and resolves a move in one step.
pub fn parse_move(position: &Position, text: &str) -> Result<Move, MoveError> {
    let parsed: MoveText = text.parse()?;
    Ok(resolve(position, &parsed)?)
}

/// A move that could not be read or is not legal.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error(transparent)]
    Parse(#[from] crate::cathedral::notation::ParseMoveError),
    #[error(transparent)]
    Illegal(#[from] IllegalMove),
}
