//! Game records over the API: a request's game as a record, a record file's games read for the
//! page, and a game written as a record.

use super::api::{
    ApiError, GAME, GameRequest, RECORD_TEXT, RecordMeta, VariationRequest, bad, read, record_of,
};
use crate::Position;
use crate::file::{MAX_VARIATION_DEPTH, Mark, RecordedMove, Shape, check_shapes, variation_name};
use crate::legality::parse_move;
use crate::notation::format_move_with_player;
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
    /// A mark per move: its glyph (`"!?"`), or null.
    marks: Vec<Option<Mark>>,
    /// The shapes drawn on each move's position, as written (`"red:e4-g7"`).
    shapes: Vec<Vec<Shape>>,
    /// The shapes drawn on the start position.
    start_shapes: Vec<Shape>,
    /// The variations to the moves, in the order of the moves they replace.
    variations: Vec<VariationView>,
}

/// A variation, as the page uses it and sends back to `record/write`.
#[derive(Serialize)]
pub(crate) struct VariationView {
    /// The move of the enclosing line (from 1, counted from the start of the game) that this
    /// variation is an alternative to: its first move has this number.
    ply: usize,
    moves: Vec<String>,
    comments: Vec<Option<String>>,
    marks: Vec<Option<Mark>>,
    shapes: Vec<Vec<Shape>>,
    /// Variations to its own moves (their plies counted from the start of the game too).
    variations: Vec<VariationView>,
}

/// The variations to the moves of a line played from `position`, whose first move is move
/// `first`.
fn variation_views(
    mut position: Position,
    first: usize,
    line: &[RecordedMove],
) -> Vec<VariationView> {
    let mut views = Vec::new();
    for (index, recorded) in line.iter().enumerate() {
        let ply = first + index;
        for variation in &recorded.variations {
            views.push(VariationView {
                ply,
                moves: move_texts(position, variation),
                comments: variation.iter().map(|m| m.comment.clone()).collect(),
                marks: variation.iter().map(|m| m.mark).collect(),
                shapes: variation.iter().map(|m| m.shapes.clone()).collect(),
                variations: variation_views(position, ply, variation),
            });
        }
        position.play(recorded.mv);
    }
    views
}

/// The moves of a line played from `position`, in the notation with the player.
fn move_texts(mut position: Position, line: &[RecordedMove]) -> Vec<String> {
    line.iter()
        .map(|recorded| {
            let text = format_move_with_player(&position, recorded.mv);
            position.play(recorded.mv);
            text
        })
        .collect()
}

#[derive(Serialize)]
pub(crate) struct RecordGames {
    games: Vec<GameView>,
}

/// The games of a record file's text (every move checked; errors with line and column).
pub(crate) fn read_record(body: &[u8]) -> Result<serde_json::Value, ApiError> {
    let record: RecordText = read(body, &RECORD_TEXT)?;
    let games = crate::file::parse_records("record", &record.text)
        .map_err(|e| bad(e.to_string().lines().next().unwrap_or("").to_string()))?;
    super::to_json(&RecordGames {
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
                start: game
                    .start
                    .map(|p| crate::file::to_yaml(&crate::file::PositionFile::from_position(p))),
                moves: game.move_texts(),
                comments: game.moves.iter().map(|m| m.comment.clone()).collect(),
                marks: game.moves.iter().map(|m| m.mark).collect(),
                shapes: game.moves.iter().map(|m| m.shapes.clone()).collect(),
                start_shapes: game.shapes.clone(),
                variations: variation_views(game.start_position(), 1, &game.moves),
            })
            .collect(),
    })
}

#[derive(Serialize)]
pub(crate) struct RecordOut {
    text: String,
}

/// A game as a record file's canonical text, to save: its metadata, and the comments, marks
/// and variations of its moves, every variation move checked.
pub(crate) fn write_record(body: &[u8]) -> Result<serde_json::Value, ApiError> {
    let game: GameRequest = read(body, &GAME)?;
    let mut record = record_of(&game)?;
    annotate(
        &mut record.moves,
        1,
        "",
        Notes {
            comments: &game.comments,
            marks: &game.marks,
            shapes: &game.shapes,
        },
        &crate::present::words::count(game.moves.len() as i64, "move"),
    )?;
    record.shapes = shapes_of(&game.start_shapes, "the start position")?;
    attach_variations(
        record.start_position(),
        1,
        "",
        &mut record.moves,
        &game.variations,
        1,
    )?;
    if let Some(meta) = game.meta.clone() {
        meta.write_into(&mut record);
    }
    super::to_json(&RecordOut {
        text: crate::file::records_to_yaml(&[record]),
    })
}

/// "move 6", or "move 6 of the variation to move 5" (`name` empty for the game's own moves).
fn move_name(ply: usize, name: &str) -> String {
    if name.is_empty() {
        format!("move {ply}")
    } else {
        format!("move {ply} of {name}")
    }
}

/// What a request says of the moves of a line: a comment, a mark and a list of shapes per move
/// (at most one each per move; null or empty for none).
struct Notes<'a> {
    comments: &'a [Option<String>],
    marks: &'a [Option<String>],
    shapes: &'a [Vec<String>],
}

/// The shapes written `texts`, drawn on `place` ("move 3", "the start position"), checked.
fn shapes_of(texts: &[String], place: &str) -> Result<Vec<Shape>, ApiError> {
    check_shapes(texts.iter().map(String::as_str))
        .map_err(|(_, message)| bad(format!("the shapes of {place}: {message}")))
}

/// Puts the comments, marks and shapes of `notes` on the moves of `line`, whose first move is
/// move `first`, named `name` in messages ("" for the game's own moves); `moves_words` says how
/// many moves it has.
fn annotate(
    line: &mut [RecordedMove],
    first: usize,
    name: &str,
    notes: Notes,
    moves_words: &str,
) -> Result<(), ApiError> {
    let Notes {
        comments,
        marks,
        shapes,
    } = notes;
    let prefix = if name.is_empty() {
        String::new()
    } else {
        format!("{name}: ")
    };
    for (count, whats, what) in [
        (comments.len(), "comments", "comment"),
        (marks.len(), "marks", "mark"),
        (shapes.len(), "lists of shapes", "list of shapes"),
    ] {
        if count > line.len() {
            return Err(bad(format!(
                "{prefix}{count} {whats} for {moves_words}: expected at most one {what} per move"
            )));
        }
    }
    for (recorded, comment) in line.iter_mut().zip(comments) {
        recorded.comment = comment.clone().filter(|c| !c.trim().is_empty());
    }
    for (index, (recorded, mark)) in line.iter_mut().zip(marks).enumerate() {
        recorded.mark = match mark.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(text) => Some(text.parse::<Mark>().map_err(|e| {
                bad(format!(
                    "the mark of {}: {e}",
                    move_name(first + index, name)
                ))
            })?),
        };
    }
    for (index, (recorded, texts)) in line.iter_mut().zip(shapes).enumerate() {
        recorded.shapes = shapes_of(texts, &move_name(first + index, name))?;
    }
    Ok(())
}

/// Checks the `variations` to the moves of `line` (played from `start`, its first move move
/// `first`, named `within` in messages, "" for the game) and hangs them on their moves;
/// `depth` is how deep they nest (1 for the game's own).
fn attach_variations(
    start: Position,
    first: usize,
    within: &str,
    line: &mut [RecordedMove],
    variations: &[VariationRequest],
    depth: usize,
) -> Result<(), ApiError> {
    if variations.is_empty() {
        return Ok(());
    }
    // The position before each move of the line.
    let mut before = Vec::with_capacity(line.len());
    let mut position = start;
    for recorded in line.iter() {
        before.push(position);
        position.play(recorded.mv);
    }
    let line_words = match (within.is_empty(), line.len()) {
        (true, 0) => "the game has no moves".to_string(),
        (true, n) => format!("the game has moves 1 to {n}"),
        (false, n) => format!("{within} has moves {first} to {}", first + n - 1),
    };
    for (index, variation) in variations.iter().enumerate() {
        let ply = variation.ply;
        let number = variations[..=index].iter().filter(|v| v.ply == ply).count();
        let of = variations.iter().filter(|v| v.ply == ply).count();
        let name = variation_name(ply, number, of, within);
        let Some((at, position)) = ply
            .checked_sub(first)
            .and_then(|i| Some((i, *before.get(i)?)))
        else {
            return Err(bad(format!(
                "{name}: there is no move {ply} for it to replace ({line_words}; a variation's `ply` is the number of the move it replaces, counted from the start of the game)"
            )));
        };
        if depth > MAX_VARIATION_DEPTH {
            return Err(bad(format!(
                "{name}: variations nest at most {MAX_VARIATION_DEPTH} deep in a record"
            )));
        }
        if variation.moves.is_empty() {
            return Err(bad(format!(
                "{name} has no moves: a variation holds at least one move"
            )));
        }
        if variation.moves.len() > 400 {
            return Err(bad(format!(
                "{name}: a game has at most a few dozen moves; this variation has more than 400"
            )));
        }
        let mut moves = Vec::with_capacity(variation.moves.len());
        let mut here = position;
        for (i, text) in variation.moves.iter().enumerate() {
            let mv = parse_move(&here, text).map_err(|e| {
                bad(format!(
                    "{} (`{text}`) cannot be played: {e}",
                    move_name(ply + i, &name)
                ))
            })?;
            here.play(mv);
            moves.push(RecordedMove::new(mv));
        }
        let moves_words = format!(
            "its {}",
            crate::present::words::count(moves.len() as i64, "move")
        );
        annotate(
            &mut moves,
            ply,
            &name,
            Notes {
                comments: &variation.comments,
                marks: &variation.marks,
                shapes: &variation.shapes,
            },
            &moves_words,
        )?;
        attach_variations(
            position,
            ply,
            &name,
            &mut moves,
            &variation.variations,
            depth + 1,
        )?;
        if let Some(recorded) = line.get_mut(at) {
            recorded.variations.push(moves);
        }
    }
    Ok(())
}
