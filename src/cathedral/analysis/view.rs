//! A JSON-friendly view of a position: everything `cathedral show` draws, as data.

use crate::cathedral::bitboard::Bitboard;
use crate::cathedral::moves::MoveList;
use crate::cathedral::notation::format_move;
use crate::cathedral::piece::{Hand, Piece};
use crate::cathedral::player::Player;
use crate::cathedral::position::{CathedralStatus, Position};
use crate::cathedral::rules::Rules;
use serde::Serialize;
use serde::ser::SerializeMap;

/// A position as data. Cells are written like `c3`, pieces and players in lower case.
#[derive(Serialize, Debug, Clone)]
pub struct PositionView {
    /// The file's title, when the position comes from a file that has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The rule variant the position is played under.
    pub rules: RulesView,
    /// The player whose turn it is.
    pub to_move: Player,
    /// Passes in a row just made (0, 1 or 2): under voluntary passing two in a row end the game.
    pub passes: u8,
    /// Where the Cathedral is and which cells it covers.
    pub cathedral: CathedralView,
    /// Light's buildings, hand and territory.
    pub light: PlayerView,
    /// Dark's buildings, hand and territory.
    pub dark: PlayerView,
    /// Whether the game is over: neither player can place, or two passes in a row under
    /// voluntary passing.
    pub game_over: bool,
    /// The winner of a finished game by unplaced squares; `null` while playing or for a draw.
    pub winner: Option<Player>,
    /// Number of legal moves of the side to move (spare variants and passes included).
    pub legal_move_count: u32,
    /// Every legal placement of the side to move, in canonical notation (spare variants and
    /// passes left out).
    pub legal_placements: Vec<String>,
}

/// The rule variant: the preset name if it is one, and the five options.
#[derive(Serialize, Debug, Clone)]
pub struct RulesView {
    /// The preset name (`classic`, `moore1978`, `lehmann-woods`, `sheets`) if the options match
    /// one, else `null`.
    pub preset: Option<&'static str>,
    /// The capture option: `mandatory` or `optional`.
    pub capture: &'static str,
    /// The pass option: `forced` or `voluntary`.
    pub pass: &'static str,
    /// The first-move option: `no-claim` or `no-enclosure`.
    pub first_move: &'static str,
    /// When the Cathedral is placed: `first` or `after-first-move`.
    pub cathedral: &'static str,
    /// Which regions a building move claims: `standing` or `at-once`.
    pub claims: &'static str,
}

/// The Cathedral's state in a [`PositionView`].
#[derive(Serialize, Debug, Clone)]
pub struct CathedralView {
    /// `to-place`, `on-board` or `gone`.
    pub status: &'static str,
    /// Cells covered by the Cathedral; empty unless it is on the board.
    pub cells: Bitboard,
}

/// One player's part of a [`PositionView`].
#[derive(Serialize, Debug, Clone)]
pub struct PlayerView {
    /// The player's buildings on the board, by slot.
    pub buildings: Vec<BuildingView>,
    /// The buildings still in the player's hand.
    pub hand: HandView,
    /// Squares of the buildings in hand: the score, lower is better.
    pub unplaced_squares: u32,
    /// Empty cells the player has claimed as territory.
    pub territory: Bitboard,
    /// Number of territory cells.
    pub territory_size: u32,
    /// Whether the player has made its first building move (which never claims).
    pub first_move_made: bool,
}

/// A building on the board in a [`PlayerView`].
#[derive(Serialize, Debug, Clone)]
pub struct BuildingView {
    /// The building's piece kind.
    pub piece: Piece,
    /// Cells the building covers.
    pub cells: Bitboard,
}

/// `{piece: count}` for the kinds held, smallest piece first.
#[derive(Debug, Clone)]
pub struct HandView(pub Hand);

impl Serialize for HandView {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        // Every kind, none left included, so that tools see the same keys in every position.
        for piece in Piece::PLAYER_KINDS {
            map.serialize_entry(&piece, &self.0.count(piece))?;
        }
        map.end()
    }
}

impl RulesView {
    /// The view of a rule variant.
    pub fn of(rules: Rules) -> RulesView {
        RulesView {
            preset: rules.preset_name(),
            capture: rules.capture.name(),
            pass: rules.pass.name(),
            first_move: rules.first_move.name(),
            cathedral: rules.cathedral.name(),
            claims: rules.claims.name(),
        }
    }
}

impl PositionView {
    /// The view of a position, with its legal moves worked out.
    pub fn of(position: &Position) -> PositionView {
        let mut list = MoveList::new();
        position.legal_moves(&mut list);
        let game_over = position.is_game_over();
        PositionView {
            rules: RulesView::of(position.rules()),
            title: None,
            to_move: position.to_move(),
            passes: position.passes(),
            cathedral: CathedralView {
                status: match position.cathedral_status() {
                    CathedralStatus::ToPlace => "to-place",
                    CathedralStatus::OnBoard => "on-board",
                    CathedralStatus::Gone => "gone",
                },
                cells: position.cathedral(),
            },
            light: PlayerView::of(position, Player::Light),
            dark: PlayerView::of(position, Player::Dark),
            game_over,
            winner: if game_over { position.winner() } else { None },
            legal_move_count: list.len() as u32,
            legal_placements: list
                .iter()
                .filter(|mv| !mv.is_pass() && mv.spared().is_empty())
                .map(|&mv| format_move(position, mv))
                .collect(),
        }
    }
}

impl PlayerView {
    fn of(position: &Position, player: Player) -> PlayerView {
        let side = position.side(player);
        PlayerView {
            buildings: position
                .buildings()
                .filter(|b| b.owner == Some(player))
                .map(|b| BuildingView {
                    piece: b.piece,
                    cells: b.cells,
                })
                .collect(),
            hand: HandView(side.hand),
            unplaced_squares: side.hand.squares(),
            territory: side.territory,
            territory_size: side.territory.count(),
            first_move_made: side.first_move_made,
        }
    }
}

/// One move played, as data: what it did (the explanation's fields) and the position after it.
#[derive(Serialize, Debug, Clone)]
pub struct PlayedMoveView<'a> {
    /// What the move did: the piece placed, claims, captures, near misses.
    #[serde(flatten)]
    pub report: &'a crate::cathedral::explain::MoveReport,
    /// The position after the move, with its legal moves.
    pub after: PositionView,
}

impl<'a> PlayedMoveView<'a> {
    /// The view of a played move.
    pub fn of(report: &'a crate::cathedral::explain::MoveReport) -> PlayedMoveView<'a> {
        PlayedMoveView {
            report,
            after: PositionView::of(&report.after),
        }
    }
}
