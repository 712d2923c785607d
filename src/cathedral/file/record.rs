//! Game records (`docs/game-record.md`): whole games in YAML, one document per game, every move
//! checked against the rules as it is read.

use super::convert::{parse_rules, to_position};
use super::located::{Errors, Place};
use super::schema::{located, read_file, read_rules};
use super::shape::{Shape, read_shapes};
use super::yaml::{self, Fields, MapShape, Node, Value, cut_at_commas, items, text, whole, word};
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
use serde_saphyr::FlowSeq;
use std::path::Path;

/// An annotation mark on a move: one of the chess glyphs, written after the move
/// (`light:inn:a1,a2,b2 !?`) or as `mark: "!?"` in a move's map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mark {
    /// `!!`: a brilliant move.
    Brilliant,
    /// `!`: a good move.
    Good,
    /// `!?`: an interesting move.
    Interesting,
    /// `?!`: a dubious move.
    Dubious,
    /// `?`: a mistake.
    Mistake,
    /// `??`: a blunder.
    Blunder,
}

impl Mark {
    /// The six marks, in the order they are listed: `!`, `?`, `!?`, `?!`, `!!`, `??`.
    pub const ALL: [Mark; 6] = [
        Mark::Good,
        Mark::Mistake,
        Mark::Interesting,
        Mark::Dubious,
        Mark::Brilliant,
        Mark::Blunder,
    ];

    /// The glyph: `!`, `?`, `!?`, `?!`, `!!` or `??`.
    pub fn glyph(self) -> &'static str {
        match self {
            Mark::Good => "!",
            Mark::Mistake => "?",
            Mark::Interesting => "!?",
            Mark::Dubious => "?!",
            Mark::Brilliant => "!!",
            Mark::Blunder => "??",
        }
    }

    /// The word a record may write instead of the glyph: `good`, `mistake`, `interesting`,
    /// `dubious`, `brilliant`, `blunder`.
    pub fn word(self) -> &'static str {
        match self {
            Mark::Good => "good",
            Mark::Mistake => "mistake",
            Mark::Interesting => "interesting",
            Mark::Dubious => "dubious",
            Mark::Brilliant => "brilliant",
            Mark::Blunder => "blunder",
        }
    }

    /// The mark a word names (any letter case; `inaccuracy`, the analysis's word, is `?!` too).
    fn of_word(word: &str) -> Option<Mark> {
        let word = word.to_ascii_lowercase();
        if word == "inaccuracy" {
            return Some(Mark::Dubious);
        }
        Mark::ALL.into_iter().find(|m| m.word() == word)
    }
}

impl std::fmt::Display for Mark {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.glyph())
    }
}

/// Written as its glyph.
impl Serialize for Mark {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.glyph())
    }
}

/// A text that is no mark.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MarkError {
    /// What was written.
    pub written: String,
}

impl std::fmt::Display for MarkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let shown: String = self.written.chars().take(40).collect();
        write!(
            f,
            "`{shown}` is not a mark: expected `!`, `?`, `!?`, `?!`, `!!` or `??` (or the words good, mistake, interesting, dubious, brilliant, blunder)"
        )
    }
}

impl std::error::Error for MarkError {}

impl std::str::FromStr for Mark {
    type Err = MarkError;

    /// A glyph or a mark's word.
    fn from_str(text: &str) -> Result<Mark, MarkError> {
        let text = text.trim();
        Mark::ALL
            .into_iter()
            .find(|m| m.glyph() == text)
            .or_else(|| Mark::of_word(text))
            .ok_or_else(|| MarkError {
                written: text.to_string(),
            })
    }
}

/// One move of a record, with its comment, its mark and the variations to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedMove {
    /// The move, checked legal where it is played.
    pub mv: Move,
    /// A comment on it, if any.
    pub comment: Option<String>,
    /// An annotation mark (`!?`), if any.
    pub mark: Option<Mark>,
    /// Circles and arrows drawn on the position after it (`shapes:`), in the order drawn.
    pub shapes: Vec<Shape>,
    /// Lines played instead of this move, each from the position before it (PGN's convention):
    /// the first move of each is an alternative to this one. Their moves may have variations
    /// of their own.
    pub variations: Vec<Vec<RecordedMove>>,
}

impl RecordedMove {
    /// `mv` alone: no comment, no mark, no variations.
    pub fn new(mv: Move) -> RecordedMove {
        RecordedMove {
            mv,
            comment: None,
            mark: None,
            shapes: Vec::new(),
            variations: Vec::new(),
        }
    }
}

impl From<Move> for RecordedMove {
    fn from(mv: Move) -> RecordedMove {
        RecordedMove::new(mv)
    }
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
    /// Circles and arrows drawn on the start position, before any move (`shapes:`).
    pub shapes: Vec<Shape>,
    /// The moves of the game, in order (the main line: variations hang on its moves).
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
const GAME_FIELDS: [&str; 13] = [
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
    "shapes",
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
        let tree = yaml::parse_nested(
            &errors,
            &padded,
            MAX_FILE_BYTES,
            MAX_DEPTH,
            "a record's variations nest at most 20 deep",
        )
        .map_err(|mut e| {
            // `mark: ?` is a YAML key, not a value: say what to write.
            if e.line.is_some_and(|line| unquoted_mark(text, line)) {
                e.message = UNQUOTED_MARK.to_string();
            }
            e
        })?;
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
        &MapShape {
            noun: "a game record",
            field_noun: "a field of a game",
            known: &GAME_FIELDS,
            expected: "a map of fields like `light: Ann` and `moves:` (see docs/game-record.md)",
        },
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
    if let Some(node) = fields.get("shapes") {
        record.shapes = read_shapes(errors, node, "shapes").map_err(|e| relabel(e, number))?;
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
        let reader = Reader { errors, number };
        record.moves = reader.read_line(list, position, &Line::main())?;
        for recorded in &record.moves {
            position.play(recorded.mv);
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
                    "a result is given but the game is not over after its {} ({} is to move): leave `result:` out of an unfinished game",
                    crate::present::words::count(record.moves.len() as i64, "move"),
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

/// How deep variations may nest: a variation to a move of a variation to a move of the main
/// line is 2 deep.
pub const MAX_VARIATION_DEPTH: usize = 20;

/// The deepest nesting of a record's YAML: a game's moves are three levels deep, and each
/// variation three levels below its move.
const MAX_DEPTH: usize = 3 * MAX_VARIATION_DEPTH + 4;

/// What to write instead of `mark: ?` or `mark: !?` without quotes.
const UNQUOTED_MARK: &str = "a mark after `mark:` must be quoted, like `mark: \"!?\"`: YAML reads an unquoted `!` as a tag and `?` as a key (after the move, `light:inn:a1,a2,b2 !?` needs no quotes)";

/// Whether line `line` (from 1) of `text` holds `mark:` with an unquoted `!` or `?` after it.
fn unquoted_mark(text: &str, line: usize) -> bool {
    text.lines()
        .nth(line.saturating_sub(1))
        .map(|l| l.trim_start().trim_start_matches("- ").trim_start())
        .and_then(|l| l.strip_prefix("mark:"))
        .is_some_and(|rest| rest.trim_start().starts_with(['!', '?']))
}

/// The fields of a move written as a map, in the order they are written.
const MOVE_FIELDS: [&str; 5] = ["move", "comment", "mark", "shapes", "variations"];

/// A line of moves being read, for messages: the main line's moves are named plainly
/// (`move 6`), a variation's with where it branches (`move 6 of the variation to move 5`).
struct Line {
    /// The number of the line's first move: 1 for the main line, the number of the move it
    /// replaces for a variation.
    first: usize,
    /// Empty for the main line; else the variation's name ([`variation_name`]).
    name: String,
}

impl Line {
    fn main() -> Line {
        Line {
            first: 1,
            name: String::new(),
        }
    }

    /// "move 6", or "move 6 of the variation to move 5".
    fn move_name(&self, ply: usize) -> String {
        if self.name.is_empty() {
            format!("move {ply}")
        } else {
            format!("move {ply} of {}", self.name)
        }
    }
}

/// How a variation is named in messages: "the variation to move 5" when it is the only one
/// to that move, "variation 2 to move 5" when there are several (`number` from 1, of `of`);
/// inside another variation, that one's name follows ("the variation to move 6 in the variation
/// to move 5"). `within` is empty for a variation to a move of the main line.
pub fn variation_name(ply: usize, number: usize, of: usize, within: &str) -> String {
    let own = if of == 1 {
        format!("the variation to move {ply}")
    } else {
        format!("variation {number} to move {ply}")
    };
    if within.is_empty() {
        own
    } else {
        format!("{own} in {within}")
    }
}

/// Reads the moves of one game, main line and variations, each checked as it is read.
struct Reader<'a> {
    errors: &'a Errors<'a>,
    /// The game's number in its file, for messages.
    number: usize,
}

impl Reader<'_> {
    /// An error at `place` in this game.
    fn fail(&self, place: Place, message: String) -> FileError {
        relabel(self.errors.at(place, message), self.number)
    }

    /// The moves of `list`, played from `position`; the first is numbered `line.first`.
    fn read_line(
        &self,
        list: &[Node],
        mut position: Position,
        line: &Line,
    ) -> Result<Vec<RecordedMove>, FileError> {
        let mut moves = Vec::with_capacity(list.len());
        for (index, item) in list.iter().enumerate() {
            let ply = line.first + index;
            let recorded = self
                .read_move(item, &position, ply, line)
                .map_err(|mut error| {
                    // `[light:inn:a2,b1,b2]` is three items: say so, and how to quote it.
                    if let Some(hint) = cut_at_commas(list, index) {
                        error.message.push_str(&hint);
                    }
                    error
                })?;
            position.play(recorded.mv);
            moves.push(recorded);
        }
        Ok(moves)
    }

    /// One move as written: `12. light:inn:a1,a2,b2 !?`, or a map of `move:`, `comment:`,
    /// `mark:`, `shapes:` and `variations:`; checked legal in `position`.
    fn read_move(
        &self,
        item: &Node,
        position: &Position,
        ply: usize,
        line: &Line,
    ) -> Result<RecordedMove, FileError> {
        let errors = self.errors;
        let number = self.number;
        let name = line.move_name(ply);
        let (text_node, comment, mark_node, shapes_node, variations_node) = match &item.value {
            Value::Map(_) => {
                let entry = Fields::read(
                    errors,
                    item,
                    "moves",
                    &MapShape {
                        noun: "a move with a comment, a mark, shapes or variations",
                        field_noun: "a field of a move",
                        known: &MOVE_FIELDS,
                        expected: "",
                    },
                )
                .map_err(|e| relabel(e, number))?;
                let Some(mv) = entry.value("move") else {
                    return Err(self.fail(
                        item.place,
                        format!(
                            "{name} has no `move:`: a move written as a map gives the move as `move:`, with `comment:`, `mark:`, `shapes:` or `variations:` beside it"
                        ),
                    ));
                };
                let comment = match entry.get("comment") {
                    Some(c) => text(errors, c, "comment").map_err(|e| relabel(e, number))?,
                    None => None,
                };
                if entry
                    .get("mark")
                    .is_some_and(|m| matches!(m.value, Value::Null))
                    && let Some(place @ (Some(line), _)) = entry.key_place("mark")
                    && unquoted_mark(errors.text, line)
                {
                    return Err(self.fail(place, format!("{name}: {UNQUOTED_MARK}")));
                }
                (
                    mv,
                    comment,
                    entry.value("mark"),
                    entry.get("shapes"),
                    entry.value("variations"),
                )
            }
            _ => (item, None, None, None, None),
        };
        let written = word(
            errors,
            text_node,
            "moves",
            "a move",
            "a move like `light:inn:a1,a2,b2` or `dark:pass`",
        )
        .map_err(|e| relabel(e, number))?;
        let (written_move, short_mark) = split_mark(written).map_err(|(offset, message)| {
            self.fail(
                place_within(errors, text_node, offset),
                format!("{name}: {message}"),
            )
        })?;
        let move_text =
            strip_number(written_move, ply, line).map_err(|m| self.fail(text_node.place, m))?;
        let mv = parse_move(position, move_text).map_err(|e| {
            self.fail(
                text_node.place,
                format!("{name} (`{move_text}`) cannot be played: {}", e.reason()),
            )
        })?;
        let mark = match (short_mark, mark_node) {
            (Some(_), Some(node)) => {
                return Err(self.fail(
                    node.place,
                    format!(
                        "{name} has its mark twice, after the move and as `mark:`: write it once"
                    ),
                ));
            }
            (None, Some(node)) => {
                let written = word(
                    errors,
                    node,
                    "mark",
                    "a mark",
                    "one of `!`, `?`, `!?`, `?!`, `!!` or `??`, quoted: `mark: \"!?\"`",
                )
                .map_err(|e| relabel(e, number))?;
                let mark = written.parse::<Mark>().map_err(|e| {
                    // `mark: !` reads as an empty text with a tag.
                    let unquoted = node.place.0.is_some_and(|l| unquoted_mark(errors.text, l));
                    let message = if unquoted {
                        UNQUOTED_MARK.to_string()
                    } else {
                        e.to_string()
                    };
                    self.fail(node.place, format!("{name}: {message}"))
                })?;
                Some(mark)
            }
            (mark, None) => mark,
        };
        let shapes = match shapes_node {
            Some(node) => read_shapes(errors, node, &format!("{name}: shapes"))
                .map_err(|e| relabel(e, number))?,
            None => Vec::new(),
        };
        let variations = match variations_node {
            Some(node) => self.read_variations(node, position, ply, line)?,
            None => Vec::new(),
        };
        Ok(RecordedMove {
            mv,
            comment,
            mark,
            shapes,
            variations,
        })
    }

    /// The variations to move `ply` of `line`: each a list of moves played from `before`, the
    /// position before that move.
    fn read_variations(
        &self,
        node: &Node,
        before: &Position,
        ply: usize,
        line: &Line,
    ) -> Result<Vec<Vec<RecordedMove>>, FileError> {
        let list = items(
            self.errors,
            node,
            "variations",
            "a list of variations",
            "a list of variations, each a list of moves like `- - dark:inn:a1,a2,b2`",
        )
        .map_err(|e| relabel(e, self.number))?;
        let mut variations = Vec::with_capacity(list.len());
        for (index, variation) in list.iter().enumerate() {
            let name = variation_name(ply, index + 1, list.len(), &line.name);
            let moves = match &variation.value {
                Value::Seq(moves) if !moves.is_empty() => moves,
                Value::Seq(_) | Value::Null => {
                    return Err(self.fail(
                        variation.place,
                        format!("{name} has no moves: a variation is a list of at least one move"),
                    ));
                }
                _ => {
                    return Err(self.fail(
                        variation.place,
                        format!(
                            "{name}: {} is not a variation: expected a list of moves, written `- - dark:inn:a1,a2,b2` with the next moves under it",
                            variation.found()
                        ),
                    ));
                }
            };
            let inner = Line { first: ply, name };
            variations.push(self.read_line(moves, *before, &inner)?);
        }
        Ok(variations)
    }
}

/// Splits a mark off the end of a move as written: `light:inn:a1,a2,b2 !?` (or `...b2!?`, or
/// a mark's word after a space, `... interesting`). Returns the move and the mark; a run of `!`
/// and `?` that is no mark is an error, with its offset in characters in `written`.
fn split_mark(written: &str) -> Result<(&str, Option<Mark>), (usize, String)> {
    let trimmed = written.trim_end();
    let move_end = trimmed.trim_end_matches(['!', '?']).len();
    let (move_part, mark) = if move_end < trimmed.len() {
        let glyphs = &trimmed[move_end..];
        let offset = trimmed[..move_end].chars().count();
        let mark = glyphs
            .parse::<Mark>()
            .map_err(|e| (offset, e.to_string()))?;
        (&trimmed[..move_end], Some(mark))
    } else {
        match trimmed.rsplit_once(char::is_whitespace) {
            Some((head, last)) if Mark::of_word(last).is_some() => (head, Mark::of_word(last)),
            _ => (trimmed, None),
        }
    };
    let move_part = move_part.trim_end();
    if mark.is_some() && move_part.trim().is_empty() {
        return Err((0, "a mark with no move before it".to_string()));
    }
    Ok((move_part, mark))
}

/// Where the character `offset` of a scalar's text was written: its line and column when the
/// scalar is written on one line (plain or quoted), else the scalar's own place.
fn place_within(errors: &Errors, node: &Node, offset: usize) -> Place {
    let (Some(line), Some(column)) = node.place else {
        return node.place;
    };
    let Some(text) = errors.text.lines().nth(line.saturating_sub(1)) else {
        return node.place;
    };
    let from: String = text.chars().skip(column.saturating_sub(1)).collect();
    if from.starts_with(node.raw.as_str()) {
        (Some(line), Some(column + offset))
    } else if from.starts_with(['"', '\'']) && from[1..].starts_with(node.raw.as_str()) {
        (Some(line), Some(column + 1 + offset))
    } else {
        node.place
    }
}

/// A move as written may start with its number, `12.` or `12...`; the number must be the ply's.
fn strip_number<'a>(written: &'a str, ply: usize, line: &Line) -> Result<&'a str, String> {
    let trimmed = written.trim();
    let Some((head, rest)) = trimmed.split_once('.') else {
        return Ok(trimmed);
    };
    if head.is_empty() || !head.chars().all(|c| c.is_ascii_digit()) {
        return Ok(trimmed);
    }
    if head.parse::<usize>().ok() != Some(ply) {
        return Err(if line.name.is_empty() {
            format!(
                "`{trimmed}` is numbered {head}, but it is move {ply}: numbers count every move (passes included) from 1"
            )
        } else {
            format!(
                "`{trimmed}` is numbered {head}, but it is {}: a variation's moves are numbered on from the move it replaces (its first move is move {})",
                line.move_name(ply),
                line.first
            )
        });
    }
    Ok(rest.trim_start_matches('.').trim())
}

/// `result: {light: 3, dark: 7}`: the unplaced squares of each side.
fn read_result(errors: &Errors, node: &Node) -> Result<(u32, u32), FileError> {
    let fields = Fields::read(
        errors,
        node,
        "result",
        &MapShape {
            noun: "a result",
            field_noun: "a side",
            known: &["light", "dark"],
            expected: "each side's unplaced squares, like `{light: 3, dark: 7}`",
        },
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
    #[serde(skip_serializing_if = "no_shapes")]
    shapes: FlowSeq<Vec<String>>,
    moves: Vec<OutMove>,
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<OutResult>,
}

fn no_shapes(shapes: &FlowSeq<Vec<String>>) -> bool {
    shapes.0.is_empty()
}

/// Shapes as written: a list in brackets, `[e4, e4-g7, red:c3]`.
fn out_shapes(shapes: &[Shape]) -> FlowSeq<Vec<String>> {
    FlowSeq(shapes.iter().map(ToString::to_string).collect())
}

/// A move as written: the short form (the move, and its mark after a space) when it has no
/// comment, no shapes and no variations, the map form otherwise.
#[derive(Serialize)]
#[serde(untagged)]
enum OutMove {
    Plain(String),
    Full {
        r#move: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        comment: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        mark: Option<serde_saphyr::DoubleQuoted<&'static str>>,
        #[serde(skip_serializing_if = "no_shapes")]
        shapes: FlowSeq<Vec<String>>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        variations: Vec<Vec<OutMove>>,
    },
}

/// The moves of a line played from `position`, as written.
fn out_line(mut position: Position, moves: &[RecordedMove]) -> Vec<OutMove> {
    moves
        .iter()
        .map(|recorded| {
            let text = format_move_with_player(&position, recorded.mv);
            let out = if recorded.comment.is_none()
                && recorded.shapes.is_empty()
                && recorded.variations.is_empty()
            {
                OutMove::Plain(match recorded.mark {
                    Some(mark) => format!("{text} {mark}"),
                    None => text,
                })
            } else {
                OutMove::Full {
                    r#move: text,
                    comment: recorded.comment.clone(),
                    // Quoted: a plain `!` starts a YAML tag, a plain `?` a key.
                    mark: recorded.mark.map(|m| serde_saphyr::DoubleQuoted(m.glyph())),
                    shapes: out_shapes(&recorded.shapes),
                    variations: recorded
                        .variations
                        .iter()
                        .map(|line| out_line(position, line))
                        .collect(),
                }
            };
            position.play(recorded.mv);
            out
        })
        .collect()
}

#[derive(Serialize)]
struct OutResult {
    light: u32,
    dark: u32,
}

/// The canonical text of `games`: fields in a fixed order, every move with its player (and its
/// mark after it, `light:inn:a1,a2,b2 !?`), a move with a comment, shapes or variations as a
/// map of `move:`, `comment:`, `mark:`, `shapes:` and `variations:`, the result when the game is
/// over, games separated by `---`. Reading it gives back the same games.
pub fn records_to_yaml(games: &[GameRecord]) -> String {
    let mut out = String::new();
    for (i, game) in games.iter().enumerate() {
        if i > 0 {
            out.push_str("---\n");
        }
        let start_file = game.start.map(PositionFile::from_position);
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
            shapes: out_shapes(&game.shapes),
            moves: out_line(game.start_position(), &game.moves),
            result: game.result().map(|(light, dark)| OutResult { light, dark }),
        };
        let text = serde_saphyr::to_string(&out_game)
            .unwrap_or_else(|e| format!("# cannot write this game: {e}\n"));
        out.push_str(&text);
    }
    out
}
