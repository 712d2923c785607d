//! Game records over the API: a request's game as a record, a record file's games read for the
//! page, and a game written as a record.

use super::api::{ApiError, GAME, GameRequest, RECORD_TEXT, RecordMeta, bad, read, record_of};
use axum::Json;
use axum::extract::rejection::JsonRejection;
use serde::{Deserialize, Serialize};

/// A record's text, for `/api/record/read`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RecordText {
    text: String,
}

/// One game of a record, as the page uses it: ready to send back as a game.
#[derive(Serialize)]
pub(crate) struct GameView {
    light: Option<String>,
    dark: Option<String>,
    event: Option<String>,
    site: Option<String>,
    date: Option<String>,
    round: Option<String>,
    /// The comment on the whole game.
    comment: Option<String>,
    /// The same metadata in one object, ready to send back to `record/write` as `meta`.
    meta: RecordMeta,
    /// The rules' name, when the game starts from the empty board.
    rules: Option<String>,
    /// The start position as a position file's text, for a fragment.
    start: Option<String>,
    moves: Vec<String>,
    comments: Vec<Option<String>>,
}

#[derive(Serialize)]
pub(crate) struct RecordGames {
    games: Vec<GameView>,
}

/// The games of a record file's text (every move checked; errors with line and column).
pub(crate) async fn read_record(
    body: Result<Json<serde_json::Value>, JsonRejection>,
) -> Result<Json<RecordGames>, ApiError> {
    let record: RecordText = read(body, &RECORD_TEXT)?;
    let games = cathedral::file::parse_records("record", &record.text)
        .map_err(|e| bad(e.to_string().lines().next().unwrap_or("").to_string()))?;
    Ok(Json(RecordGames {
        games: games
            .iter()
            .map(|game| GameView {
                light: game.light.clone(),
                dark: game.dark.clone(),
                event: game.event.clone(),
                site: game.site.clone(),
                date: game.date.clone(),
                round: game.round.clone(),
                comment: game.comment.clone(),
                meta: RecordMeta::of(game),
                rules: if game.start.is_some() {
                    None
                } else {
                    Some(
                        game.rules
                            .preset_name()
                            .map_or_else(|| game.rules.to_string(), str::to_string),
                    )
                },
                start: game.start.map(|p| {
                    cathedral::file::to_yaml(&cathedral::file::PositionFile::from_position(p))
                }),
                moves: game.move_texts(),
                comments: game.moves.iter().map(|m| m.comment.clone()).collect(),
            })
            .collect(),
    }))
}

#[derive(Serialize)]
pub(crate) struct RecordOut {
    text: String,
}

/// A game as a record file's canonical text, to save.
pub(crate) async fn write_record(
    body: Result<Json<serde_json::Value>, JsonRejection>,
) -> Result<Json<RecordOut>, ApiError> {
    let game: GameRequest = read(body, &GAME)?;
    if game.comments.len() > game.moves.len() {
        return Err(bad(format!(
            "{} comments for {} moves: expected at most one comment per move",
            game.comments.len(),
            game.moves.len()
        )));
    }
    let mut record = record_of(&game)?;
    for (recorded, comment) in record.moves.iter_mut().zip(&game.comments) {
        recorded.comment = comment.clone().filter(|c| !c.trim().is_empty());
    }
    if let Some(meta) = game.meta.clone() {
        meta.write_into(&mut record);
    }
    Ok(Json(RecordOut {
        text: cathedral::file::records_to_yaml(&[record]),
    }))
}
