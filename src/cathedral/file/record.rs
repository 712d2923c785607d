//! Game records (`docs/game-record.md`): whole games in YAML, one document per game, every move
//! checked against the rules as it is read.

use super::convert::{parse_rules, to_position};
use super::located::{Errors, Place};
use super::schema::{located, read_file, read_rules};
use super::yaml::{self, Fields, Node, Value, items, text, whole, word};
use super::{MAX_FILE_BYTES, PositionFile, out_file, read_text};
use crate::cathedral::legality::parse_move;
use crate::cathedral::moves::Move;
use crate::cathedral::notation::format_move_with_player;
use crate::cathedral::player::Player;
use crate::cathedral::position::Position;
use crate::cathedral::rules::Rules;
use crate::files::FileError;
use crate::files::{documents, read_error, too_large};
use serde::Serialize;
use std::path::Path;

/// One move of a record, with its comment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedMove {
    /// The move, checked legal where it is played.
    pub mv: Move,
    /// A comment on it, if any.
    pub comment: Option<String>,
}

/// One game: who played it where, the rules, where it started and every move.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct GameRecord {
    /// The event (a club night, a tournament).
    pub event: Option<String>,
    /// Where it was played.
    pub site: Option<String>,
    /// When (free text; `2026-11-20` is the convention).
    pub date: Option<String>,
    /// The round of a tournament or the game of a match.
    pub round: Option<String>,
    /// Who played Light (and placed the Cathedral).
    pub light: Option<String>,
    /// Who played Dark.
    pub dark: Option<String>,
    /// Free comments on the game.
    pub comment: Option<String>,
    /// The rules.
    pub rules: Rules,
    /// The starting position when the game did not start from the empty board (a fragment or a
    /// puzzle).
    pub start: Option<Position>,
    /// The moves, in order.
    pub moves: Vec<RecordedMove>,
}

impl GameRecord {
    /// The position the game starts from.
    pub fn start_position(&self) -> Position {
        self.start.unwrap_or_else(|| Position::new(self.rules))
    }

    /// Every position of the game: the start, then the position after each move.
    pub fn positions(&self) -> Vec<Position> {
        let mut position = self.start_position();
        let mut positions = vec![position];
        for recorded in &self.moves {
            position.play(recorded.mv);
            positions.push(position);
        }
        positions
    }

    /// The position after the last move.
    pub fn final_position(&self) -> Position {
        self.moves
            .iter()
            .fold(self.start_position(), |mut position, recorded| {
                position.play(recorded.mv);
                position
            })
    }

    /// The moves in the notation, with the player.
    pub fn move_texts(&self) -> Vec<String> {
        let mut position = self.start_position();
        self.moves
            .iter()
            .map(|recorded| {
                let text = format_move_with_player(&position, recorded.mv);
                position.play(recorded.mv);
                text
            })
            .collect()
    }

    /// The result when the game is over: each side's unplaced squares (Light, Dark).
    pub fn result(&self) -> Option<(u32, u32)> {
        let end = self.final_position();
        end.is_game_over().then(|| {
            (
                end.unplaced_squares(Player::Light),
                end.unplaced_squares(Player::Dark),
            )
        })
    }
}

/// The fields of a game, in the order they are written.
const GAME_FIELDS: [&str; 12] = [
    "event",
    "site",
    "date",
    "round",
    "light",
    "dark",
    "rules",
    "cathedral",
    "comment",
    "start",
    "moves",
    "result",
];

/// Reads every game of a record file.
pub fn load_records(path: &Path) -> Result<Vec<GameRecord>, FileError> {
    let name = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|e| read_error(&name, &e))?;
    let text = read_text(&name, file)?;
    parse_records(&name, &text)
}

/// Reads every game of record text (YAML documents separated by `---` lines); `name` is used in
/// error messages, which give the game, the move number and the line and column.
pub fn parse_records(name: &str, text: &str) -> Result<Vec<GameRecord>, FileError> {
    if text.len() > MAX_FILE_BYTES {
        return Err(too_large(name));
    }
    let errors = Errors { path: name, text };
    let mut games = Vec::new();
    for (first_line, document) in documents(text) {
        if document.trim().is_empty()
            || document
                .lines()
                .all(|l| l.trim().is_empty() || l.trim_start().starts_with('#'))
        {
            continue;
        }
        // Blank lines in front keep the parser's line numbers those of the whole file.
        let padded = format!("{}{document}", "\n".repeat(first_line));
        let tree = yaml::parse(&errors, &padded, MAX_FILE_BYTES)?;
        let number = games.len() + 1;
        games.push(read_game(&errors, &tree, number)?);
    }
    if games.is_empty() {
        return Err(FileError::new(
            name,
            "holds no game: a record has at least `moves:` (see docs/game-record.md)",
        ));
    }
    Ok(games)
}

fn read_game(errors: &Errors, root: &Node, number: usize) -> Result<GameRecord, FileError> {
    let in_game = |message: String| {
        if number == 1 {
            message
        } else {
            format!("game {number}: {message}")
        }
    };
    let locate = |place: Place, message: String| errors.at(place, in_game(message));
    let fields = Fields::read(
        errors,
        root,
        "",
        "a game record",
        "a field of a game",
        &GAME_FIELDS,
        "a map of fields like `light: Ann` and `moves:` (see docs/game-record.md)",
    )
    .map_err(|e| relabel(e, number))?;
    let free = |name: &str| match fields.get(name) {
        Some(node) => text(errors, node, name).map_err(|e| relabel(e, number)),
        None => Ok(None),
    };
    let mut record = GameRecord {
        event: free("event")?,
        site: free("site")?,
        date: free("date")?,
        round: free("round")?,
        light: free("light")?,
        dark: free("dark")?,
        comment: free("comment")?,
        ..GameRecord::default()
    };
    let raw_rules = match fields.value("rules") {
        Some(node) => Some(located(
            node,
            read_rules(errors, node).map_err(|e| relabel(e, number))?,
        )),
        None => None,
    };
    record.rules = parse_rules(errors, &raw_rules).map_err(|e| relabel(e, number))?;
    if let Some(node) = fields.value("cathedral") {
        let who = word(errors, node, "cathedral", "a player", "`light`")
            .map_err(|e| relabel(e, number))?;
        if who != "light" {
            return Err(locate(
                node.place,
                format!(
                    "`cathedral: {who}`: Light places the Cathedral in every variant of these rules (docs/rules.md), so this can only be `light`"
                ),
            ));
        }
    }
    if let Some(node) = fields.value("start") {
        let mut raw = read_file(errors, node).map_err(|e| relabel(e, number))?;
        if let Some(inner) = &raw.rules {
            if raw_rules.is_some() {
                return Err(locate(
                    inner.place,
                    "the rules are given twice: write them once, at the top of the game, not in `start:`".to_string(),
                ));
            }
            record.rules = parse_rules(errors, &raw.rules).map_err(|e| relabel(e, number))?;
        } else {
            raw.rules = raw_rules.clone();
        }
        let position = to_position(errors, &raw).map_err(|e| relabel(e, number))?;
        record.start = Some(position);
    }
    let mut position = record.start_position();
    if let Some(node) = fields.get("moves") {
        let list = items(
            errors,
            node,
            "moves",
            "a list of moves",
            "a list of moves, one per line like `- light:inn:a1,a2,b2`",
        )
        .map_err(|e| relabel(e, number))?;
        for (index, item) in list.iter().enumerate() {
            let ply = index + 1;
            let (text_node, comment) = match &item.value {
                Value::Map(_) => {
                    let entry = Fields::read(
                        errors,
                        item,
                        "moves",
                        "a move with a comment",
                        "a field of a move",
                        &["move", "comment"],
                        "",
                    )
                    .map_err(|e| relabel(e, number))?;
                    let Some(mv) = entry.value("move") else {
                        return Err(locate(
                            item.place,
                            format!("move {ply} has a comment but no `move:`"),
                        ));
                    };
                    let comment = match entry.get("comment") {
                        Some(c) => text(errors, c, "comment").map_err(|e| relabel(e, number))?,
                        None => None,
                    };
                    (mv, comment)
                }
                _ => (item, None),
            };
            let written = word(
                errors,
                text_node,
                "moves",
                "a move",
                "a move like `light:inn:a1,a2,b2` or `dark:pass`",
            )
            .map_err(|e| relabel(e, number))?;
            let move_text = strip_number(written, ply).map_err(|m| locate(text_node.place, m))?;
            let mv = parse_move(&position, move_text).map_err(|e| {
                locate(
                    text_node.place,
                    format!("move {ply} (`{move_text}`) cannot be played: {e}"),
                )
            })?;
            position.play(mv);
            record.moves.push(RecordedMove { mv, comment });
        }
    }
    if let Some(node) = fields.value("result") {
        let result = read_result(errors, node).map_err(|e| relabel(e, number))?;
        let actual = (
            position.unplaced_squares(Player::Light),
            position.unplaced_squares(Player::Dark),
        );
        if !position.is_game_over() {
            return Err(locate(
                node.place,
                format!(
                    "a result is given but the game is not over after its {} moves ({} is to move): leave `result:` out of an unfinished game",
                    record.moves.len(),
                    position.to_move().title()
                ),
            ));
        }
        if result != actual {
            return Err(locate(
                node.place,
                format!(
                    "the result says Light {} and Dark {} unplaced squares, but the moves end with Light {} and Dark {}",
                    result.0, result.1, actual.0, actual.1
                ),
            ));
        }
    }
    Ok(record)
}

/// A move as written may start with its number, `12.` or `12...`; the number must be the ply's.
fn strip_number(written: &str, ply: usize) -> Result<&str, String> {
    let trimmed = written.trim();
    let Some((head, rest)) = trimmed.split_once('.') else {
        return Ok(trimmed);
    };
    if head.is_empty() || !head.chars().all(|c| c.is_ascii_digit()) {
        return Ok(trimmed);
    }
    if head.parse::<usize>().ok() != Some(ply) {
        return Err(format!(
            "`{trimmed}` is numbered {head}, but it is move {ply}: numbers count every move (passes included) from 1"
        ));
    }
    Ok(rest.trim_start_matches('.').trim())
}

/// `result: {light: 3, dark: 7}`: the unplaced squares of each side.
fn read_result(errors: &Errors, node: &Node) -> Result<(u32, u32), FileError> {
    let fields = Fields::read(
        errors,
        node,
        "result",
        "a result",
        "a side",
        &["light", "dark"],
        "each side's unplaced squares, like `{light: 3, dark: 7}`",
    )?;
    let side = |name: &str| -> Result<u32, FileError> {
        let value = fields.value(name).ok_or_else(|| {
            errors.at(
                node.place,
                format!("`result` needs both sides' unplaced squares: `{name}` is missing"),
            )
        })?;
        let what = format!("result.{name}");
        whole(
            errors,
            value,
            &what,
            "a number of squares",
            "a whole number from 0 to 47",
            0,
            47,
        )
        .map(|n| n as u32)
    };
    Ok((side("light")?, side("dark")?))
}

/// Puts "game N: " before the message of an error in game N (N > 1).
fn relabel(mut error: FileError, number: usize) -> FileError {
    if number > 1 {
        error.message = format!("game {number}: {}", error.message);
    }
    error
}

#[derive(Serialize)]
struct OutGame<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    event: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    site: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    date: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    round: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    light: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    dark: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rules: Option<super::OutRules>,
    #[serde(skip_serializing_if = "Option::is_none")]
    comment: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    start: Option<super::OutFile<'a>>,
    moves: Vec<OutMove>,
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<OutResult>,
}

#[derive(Serialize)]
#[serde(untagged)]
enum OutMove {
    Plain(String),
    Commented { r#move: String, comment: String },
}

#[derive(Serialize)]
struct OutResult {
    light: u32,
    dark: u32,
}

/// The canonical text of `games`: fields in a fixed order, every move with its player, the
/// result when the game is over, games separated by `---`. Reading it gives back the same games.
pub fn records_to_yaml(games: &[GameRecord]) -> String {
    let mut out = String::new();
    for (i, game) in games.iter().enumerate() {
        if i > 0 {
            out.push_str("---\n");
        }
        let start_file = game.start.map(PositionFile::from_position);
        let texts = game.move_texts();
        let out_game = OutGame {
            event: game.event.as_deref(),
            site: game.site.as_deref(),
            date: game.date.as_deref(),
            round: game.round.as_deref(),
            light: game.light.as_deref(),
            dark: game.dark.as_deref(),
            // A start position carries the rules itself.
            rules: if game.start.is_some() {
                None
            } else {
                Some(super::OutRules::of(game.rules))
            },
            comment: game.comment.as_deref(),
            start: start_file.as_ref().map(out_file),
            moves: texts
                .into_iter()
                .zip(&game.moves)
                .map(|(text, recorded)| match &recorded.comment {
                    Some(comment) => OutMove::Commented {
                        r#move: text,
                        comment: comment.clone(),
                    },
                    None => OutMove::Plain(text),
                })
                .collect(),
            result: game.result().map(|(light, dark)| OutResult { light, dark }),
        };
        let text = serde_saphyr::to_string(&out_game)
            .unwrap_or_else(|e| format!("# cannot write this game: {e}\n"));
        out.push_str(&text);
    }
    out
}
