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
    /// The game is over, so no move can be played.
    #[error("the game is over: neither player can place a building")]
    GameOver,
    /// The move names the player who is not to move.
    #[error("it is {to_move}'s turn, not {named}'s")]
    NotYourTurn {
        /// The player the move names.
        named: Player,
        /// The player whose turn it is.
        to_move: Player,
    },
    /// A building was named before Light placed the Cathedral (under `cathedral:
    /// after-first-move`, Dark's first building comes before it).
    #[error("Light must place the Cathedral before this building")]
    CathedralFirst,
    /// The Cathedral was named on Dark's first turn under `cathedral: after-first-move`, before
    /// Dark's first building.
    #[error(
        "it is Dark's turn: under `cathedral: after-first-move` Dark makes the first move, on the empty board, and Light places the Cathedral after it"
    )]
    CathedralAfterDarksMove,
    /// The Cathedral was named, but it is already placed or captured, or the move names Dark.
    #[error("the Cathedral is placed only once, by Light, on its first turn")]
    CathedralNotAvailable,
    /// The player to move has no such building left to place.
    #[error("{player} has no {piece} left in hand")]
    NotInHand {
        /// The player to move.
        player: Player,
        /// The building named.
        piece: Piece,
    },
    /// The cells are not the shape of the player's piece in any rotation.
    #[error("{cells} is not the shape of {player}'s {piece}{hint}")]
    WrongShape {
        /// The player to move.
        player: Player,
        /// The piece named.
        piece: Piece,
        /// The cells given.
        cells: Bitboard,
        /// Appended to the message: the piece is the opponent's mirror image, or its expected
        /// shape.
        hint: String,
    },
    /// The building would cover cells that are already covered.
    #[error("{cells} is already covered by {by}")]
    Occupied {
        /// The cells already covered.
        cells: Bitboard,
        /// The buildings covering them: "Dark Castle and Cathedral".
        by: String,
    },
    /// The building would stand on the opponent's territory.
    #[error("{cells} is {owner}'s territory: {mover} may not build there")]
    OpponentTerritory {
        /// The cells of the building that are the opponent's territory.
        cells: Bitboard,
        /// The player whose territory they are.
        owner: Player,
        /// The player to move.
        mover: Player,
    },
    /// The player's first building would cut off part of the board (`first_move: no-enclosure`).
    #[error(
        "under `first_move: no-enclosure` a player's first building may not cut off part of the board, \
         and this one separates {cut_off}"
    )]
    FirstMoveEncloses {
        /// The cells the building would separate from the rest of the board.
        cut_off: Bitboard,
    },
    /// The player may not pass: under `pass: forced` a player with a legal placement must place.
    #[error(
        "{player} cannot pass: passing is allowed only without a legal placement (rules: pass: forced), and {player} has {placements}",
        placements = crate::present::words::count(i64::from(*placements), "legal placement")
    )]
    PassNotAllowed {
        /// The player to move.
        player: Player,
        /// Number of legal placements the player has.
        placements: u32,
    },
    /// A capture was spared although captures are mandatory.
    #[error("captures are mandatory under these rules (capture: mandatory): nothing can be spared")]
    SpareNotAllowed,
    /// A spared cell is not part of a building the move captures.
    #[error("{cell} is not a building this move captures, so it cannot be spared")]
    NotACapture {
        /// The spared cell.
        cell: crate::cathedral::cell::Cell,
    },
}

impl IllegalMove {
    /// A stable kebab-case name of the reason, for files and JSON: `opponent-territory`.
    pub fn code(&self) -> &'static str {
        match self {
            IllegalMove::GameOver => "game-over",
            IllegalMove::NotYourTurn { .. } | IllegalMove::CathedralAfterDarksMove => {
                "not-your-turn"
            }
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

/// The buildings already standing on some of `cells`, as the refusal of a building there.
pub fn covering(position: &Position, cells: Bitboard) -> Option<IllegalMove> {
    let covered = cells & position.occupied();
    covered.any().then(|| IllegalMove::Occupied {
        cells: covered,
        by: position
            .buildings()
            .filter(|b| b.cells.intersects(covered))
            .map(|b| b.label())
            .collect::<Vec<_>>()
            .join(" and "),
    })
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
        if mover == Player::Dark && !position.waits_for_cathedral(mover) {
            return Err(IllegalMove::CathedralAfterDarksMove);
        }
        // Only Light places it: after Light passes instead (voluntary passing), Dark cannot.
        if mover != Player::Light || text.player.is_some_and(|named| named != Player::Light) {
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
        if position.places_cathedral(mover) || position.waits_for_cathedral(mover) {
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
    if let Some(occupied) = covering(position, cells) {
        return Err(occupied);
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

/// Parses and resolves a move in one step: well formed, and legal in `position`, or why not.
///
/// ```
/// use cathedral::{Position, Rules};
/// use cathedral::legality::{IllegalMove, MoveError, parse_move};
///
/// let start = Position::new(Rules::CLASSIC);
/// // The cells in any order, the player's prefix optional.
/// let cathedral = parse_move(&start, "light:cathedral:e7,e6,f6,d6,e5,e4")?;
/// assert_eq!(parse_move(&start, "cathedral:e4,e5,d6,e6,f6,e7")?, cathedral);
/// // Well formed but not legal here: Light places the Cathedral first.
/// assert!(matches!(
///     parse_move(&start, "dark:castle:c3,c4,d3,e3,e4"),
///     Err(MoveError::Illegal(_))
/// ));
/// // Not a move at all: the error says what was expected.
/// let error = parse_move(&start, "castle").unwrap_err();
/// assert!(matches!(error, MoveError::Parse(_)), "{error}");
/// # let _ = IllegalMove::CathedralNotAvailable;
/// # Ok::<(), MoveError>(())
/// ```
pub fn parse_move(position: &Position, text: &str) -> Result<Move, MoveError> {
    let parsed: MoveText = text.parse()?;
    Ok(resolve(position, &parsed)?)
}

/// A move that could not be read or is not legal.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The text is not a well-formed move.
    #[error(transparent)]
    Parse(#[from] crate::cathedral::notation::ParseMoveError),
    /// The move is not legal in the position.
    #[error(transparent)]
    Illegal(#[from] IllegalMove),
}

/// A move the front ends could not play ([`Playable::parse_move`](crate::frontend::Playable::parse_move)),
/// said as they say it after naming the move: its `Display` is [`MoveError::reason`], so that the
/// move as written is not repeated; the error itself is the field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", .0.reason())]
pub struct Unplayable(pub MoveError);

impl MoveError {
    /// Why the move cannot be played, without the move as written: for a message that names
    /// it already (``move 3 (`castle:a1,b1`) cannot be played: ...``), so it is said once.
    pub fn reason(&self) -> String {
        match self {
            MoveError::Parse(crate::cathedral::notation::ParseMoveError::Bad {
                reason, ..
            }) => reason.clone(),
            other => other.to_string(),
        }
    }
}
