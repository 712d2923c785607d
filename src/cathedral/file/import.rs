//! Games from other formats into records: plain move lists, and the JSON lines of the
//! independent engine's recorded games (`tests/data/independent-games.md`). Every move is
//! checked as it is read; an error names the line (and column) of the input.

use super::record::{GameRecord, RecordedMove};
use crate::cathedral::legality::parse_move;
use crate::cathedral::position::Position;
use crate::cathedral::rules::Rules;
use crate::files::FileError;
use serde::Deserialize;

/// Plain move lists: one move per line in the notation (numbers like `12.` allowed), `#` starts a
/// comment, a line `---` starts the next game. Moves are played from the empty board under
/// `rules`.
pub fn records_from_move_list(
    name: &str,
    text: &str,
    rules: Rules,
) -> Result<Vec<GameRecord>, FileError> {
    let mut games = Vec::new();
    let mut game = GameRecord {
        rules,
        ..GameRecord::default()
    };
    let mut position = Position::new(rules);
    for (index, line) in text.lines().enumerate() {
        let content = line.split('#').next().unwrap_or("");
        if content.trim() == "---" {
            if !game.moves.is_empty() {
                games.push(std::mem::take(&mut game));
            }
            game.rules = rules;
            position = Position::new(rules);
            continue;
        }
        for word in content.split_whitespace() {
            // A move number on its own (`12.`) or before a move (`12.light:...`).
            let word = word.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
            if word.is_empty() {
                continue;
            }
            let column = line.find(word).map(|c| c + 1);
            let mv = parse_move(&position, word).map_err(|e| {
                FileError::new(
                    name,
                    format!(
                        "game {}, move {} (`{word}`) cannot be played: {}",
                        games.len() + 1,
                        game.moves.len() + 1,
                        e.reason()
                    ),
                )
                .at(Some(index + 1), column)
                .with_source(text)
            })?;
            position.play(mv);
            game.moves.push(RecordedMove::new(mv));
        }
    }
    if !game.moves.is_empty() {
        games.push(game);
    }
    if games.is_empty() {
        return Err(FileError::new(
            name,
            "holds no moves: expected one move per line, like `light:cathedral:e5,f4,f5,f6,f7,g5`",
        ));
    }
    Ok(games)
}

#[derive(Deserialize)]
struct IndependentGame {
    seed: Option<u64>,
    moves: Vec<IndependentMove>,
}

#[derive(Deserialize)]
struct IndependentMove {
    player: String,
    #[serde(default)]
    pass: bool,
    piece: Option<String>,
    #[serde(default)]
    cells: Vec<String>,
}

/// The independent engine's games, one JSON object per line (classic rules; its `cathedral`
/// player is Light placing the Cathedral, its Black is Dark).
pub fn records_from_independent(name: &str, text: &str) -> Result<Vec<GameRecord>, FileError> {
    let mut games = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let at = |message: String| {
            FileError::new(name, message)
                .at(Some(index + 1), None)
                .with_source(text)
        };
        let game: IndependentGame = serde_json::from_str(line).map_err(|e| {
            at(format!(
                "not a recorded game: expected an object with `moves` (tests/data/independent-games.md); {}",
                e.to_string().split(" at line").next().unwrap_or("")
            ))
        })?;
        let mut record = GameRecord {
            event: Some("independent engine (WerthersEchte/cathedral), random play".into()),
            round: game.seed.map(|s| format!("seed {s}")),
            rules: Rules::CLASSIC,
            ..GameRecord::default()
        };
        let mut position = Position::new(Rules::CLASSIC);
        for (ply, entry) in game.moves.iter().enumerate() {
            let player = if entry.player == "cathedral" {
                "light"
            } else {
                entry.player.as_str()
            };
            let written = if entry.pass {
                format!("{player}:pass")
            } else {
                format!(
                    "{player}:{}:{}",
                    entry.piece.as_deref().unwrap_or("?"),
                    entry.cells.join(",")
                )
            };
            let mv = parse_move(&position, &written).map_err(|e| {
                at(format!(
                    "move {} (`{written}`) cannot be played: {}",
                    ply + 1,
                    e.reason()
                ))
            })?;
            position.play(mv);
            record.moves.push(RecordedMove::new(mv));
        }
        games.push(record);
    }
    if games.is_empty() {
        return Err(FileError::new(
            name,
            "holds no games: expected one JSON object per line",
        ));
    }
    Ok(games)
}
