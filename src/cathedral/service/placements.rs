//! Where a building can go: every placement of one building on the board, each legal or refused
//! with the reason in words. The board shows them under the pointer, the refused ones in their
//! own colour with the reason, so that a player learns why a building does not fit, not only that
//! it does not.

use super::api::{ApiError, GAME, GameRequest, bad, read, replay};
use crate::legality::{IllegalMove, covering, resolve};
use crate::notation::{Action, MoveText};
use crate::{Bitboard, Piece, Player, Position, table};
use serde::Serialize;

/// One placement of the building.
#[derive(Serialize)]
pub(crate) struct PlacementView {
    cells: Bitboard,
    /// Whether it can be played now (for the editor: whether it fits on free cells).
    legal: bool,
    /// Why not, in words.
    reason: Option<String>,
    /// Why not, as a stable name (`occupied`, `opponent-territory`...).
    code: Option<&'static str>,
}

#[derive(Serialize)]
pub(crate) struct PlacementsResponse {
    piece: Piece,
    /// Whose building: `light`, `dark`, or null for the Cathedral.
    owner: Option<Player>,
    placements: Vec<PlacementView>,
}

/// Every placement of a building in the position a game reaches.
pub(crate) fn placements(body: &[u8]) -> Result<serde_json::Value, ApiError> {
    let game: GameRequest = read(body, &GAME)?;
    let piece: Piece = game
        .piece
        .as_deref()
        .ok_or_else(|| bad("say which building: `piece`, for example \"tavern\""))?
        .parse::<Piece>()
        .map_err(|e| bad(e.to_string()))?;
    let (position, _) = replay(&game)?;
    let editing = match game.owner.as_deref() {
        None => None,
        Some(name) => Some(
            name.parse::<Player>()
                .map_err(|_| bad(format!("`{name}` is not a player: expected light or dark")))?,
        ),
    };
    let owner = match (piece, editing) {
        (Piece::Cathedral, _) => None,
        (_, Some(player)) => Some(player),
        (_, None) => Some(position.to_move()),
    };
    let placements = table()
        .ids(owner, piece)
        .map(|id| {
            let cells = table().get(id).mask;
            let refusal = if editing.is_some() {
                covering(&position, cells)
            } else {
                judge(&position, piece, cells)
            };
            PlacementView {
                cells,
                legal: refusal.is_none(),
                code: refusal.as_ref().map(IllegalMove::code),
                reason: refusal.map(|r| r.to_string()),
            }
        })
        .collect();
    super::to_json(&PlacementsResponse {
        piece,
        owner,
        placements,
    })
}

/// Why the side to move may not place `piece` on `cells` now, if it may not.
fn judge(position: &Position, piece: Piece, cells: Bitboard) -> Option<IllegalMove> {
    let text = MoveText {
        player: Some(position.to_move()),
        action: Action::Place {
            piece,
            cells,
            spare: Vec::new(),
        },
    };
    resolve(position, &text).err()
}
