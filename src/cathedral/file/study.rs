//! Studies: lessons as YAML files (`docs/study-format.md`). A study is a list of chapters, each
//! a position (a position file's fields under `start:`, and moves played from it) with words,
//! arrows and highlighted cells for the board, and optionally a question: find the move, or
//! which cells a player owns after a move. Reading checks every move and cell against the
//! rules; `cathedral study check` then proves every answer (`crate::study`).

use super::convert::to_position;
use super::located::{Errors, Place};
use super::schema::read_file;
use super::shape::{Shape, read_shapes};
use super::yaml::{self, Fields, MapShape, Node, Value, field_path, items, text, whole, word};
use crate::cathedral::bitboard::Bitboard;
use crate::cathedral::cell::Cell;
use crate::cathedral::legality::resolve;
use crate::cathedral::moves::Move;
use crate::cathedral::notation::{Action, MoveText};
use crate::cathedral::piece::Piece;
use crate::cathedral::player::Player;
use crate::cathedral::position::Position;
use crate::files::{FileError, MAX_FILE_BYTES, read_file as read_text_file};
use std::path::Path;

/// Where something was written: line and column, from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize)]
pub struct Location {
    /// The line, from 1.
    pub line: usize,
    /// The column, from 1.
    pub column: usize,
}

impl Location {
    fn of(place: Place) -> Location {
        Location {
            line: place.0.unwrap_or(0),
            column: place.1.unwrap_or(0),
        }
    }
}

/// A lesson: chapters in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Study {
    /// The study's title.
    pub title: String,
    /// Free text under the title.
    pub description: Option<String>,
    /// Who wrote it.
    pub author: Option<String>,
    /// The chapters, in order.
    pub chapters: Vec<Chapter>,
}

/// One position of a study, with what to say and ask about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chapter {
    /// The chapter's title.
    pub title: String,
    /// Where the chapter starts in the file.
    pub location: Location,
    /// The position the moves start from (a new game when `start:` is not given).
    pub start: Position,
    /// Moves played from `start`, in order.
    pub moves: Vec<Move>,
    /// The position after the moves: the one shown and asked about.
    pub position: Position,
    /// The words beside the board.
    pub text: String,
    /// Arrows drawn on the board, from one cell to another.
    pub arrows: Vec<(Cell, Cell)>,
    /// Cells highlighted on the board.
    pub highlights: Bitboard,
    /// Circles and arrows in the colours of the page's drawing (`shapes: [e4, red:e4-g7]`, as
    /// a game record's), such as a record's move carries.
    pub shapes: Vec<Shape>,
    /// The question, if the chapter asks one.
    pub question: Option<Question>,
}

/// What a chapter asks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Question {
    /// "Find the move": every accepted answer must be a best move (proven by the solver).
    FindMove {
        /// The accepted moves, with where each was written.
        answers: Vec<(Move, Location)>,
    },
    /// "Which cells does `player` own after `after`?": checked by the rules engine.
    Owned {
        /// The move played before the question.
        after: Move,
        /// Whose territory is asked.
        player: Player,
        /// The answer: the player's territory after the move (empty cells it owns).
        cells: Bitboard,
        /// Where the answer was written.
        location: Location,
    },
    /// "Which of these moves are legal?": each move as written, with the study's answer,
    /// checked by the rules engine (a refused move with the rule that refuses it).
    Legal {
        /// The moves the learner judges.
        moves: Vec<Candidate>,
    },
    /// "Who won, and by how many squares?" where the game is over: checked by the rules engine
    /// (the player with fewer squares left unplaced wins by the difference).
    Result {
        /// The winner, `None` for a draw.
        winner: Option<Player>,
        /// By how many squares (0 for a draw).
        margin: u32,
        /// Where the answer was written.
        location: Location,
    },
}

/// A move of a `find: legal` question: well formed (a building of the player's on cells it
/// can cover, or a pass) but not necessarily legal in the chapter's position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The move as written, with the player.
    pub text: String,
    /// The move read.
    pub parsed: MoveText,
    /// What the study says: legal (under `legal:`) or not (under `illegal:`).
    pub legal: bool,
    /// Where it was written.
    pub location: Location,
}

/// Nesting of a study: a chapter's `start:` is a position file three levels down.
const MAX_DEPTH: usize = 12;

const STUDY_FIELDS: [&str; 4] = ["study", "description", "author", "chapters"];
const CHAPTER_FIELDS: [&str; 8] = [
    "title",
    "start",
    "moves",
    "text",
    "arrows",
    "highlights",
    "shapes",
    "question",
];
const QUESTION_FIELDS: [&str; 9] = [
    "find", "answers", "after", "player", "cells", "legal", "illegal", "winner", "margin",
];

/// Reads and checks a study file.
pub fn load_study(path: &Path) -> Result<Study, FileError> {
    let (name, text) = read_text_file(path)?;
    parse_study(&name, &text)
}

/// Reads and checks a study from its text; `name` is used in error messages.
pub fn parse_study(name: &str, text: &str) -> Result<Study, FileError> {
    if text.len() > MAX_FILE_BYTES {
        return Err(FileError::new(
            name,
            format!(
                "is larger than {} MiB: a study is a text file of chapters",
                MAX_FILE_BYTES / (1024 * 1024)
            ),
        ));
    }
    let errors = Errors { path: name, text };
    let root = yaml::parse_nested(
        &errors,
        text,
        MAX_FILE_BYTES,
        MAX_DEPTH,
        "a study nests at most 12 levels deep",
    )?;
    let fields = Fields::read(
        &errors,
        &root,
        "",
        &MapShape {
            noun: "a study",
            field_noun: "a field of a study",
            known: &STUDY_FIELDS,
            expected: "a map with `study:` (its title) and `chapters:` (see docs/study-format.md)",
        },
    )?;
    let title = match fields.get("study") {
        Some(node) => text_of(&errors, node, "study")?,
        None => None,
    }
    .ok_or_else(|| {
        errors.at(
            root.place,
            "`study` is missing: the study's title, like `study: The first move`",
        )
    })?;
    let description = match fields.get("description") {
        Some(node) => text_of(&errors, node, "description")?,
        None => None,
    };
    let author = match fields.get("author") {
        Some(node) => text_of(&errors, node, "author")?,
        None => None,
    };
    let Some(list) = fields.value("chapters") else {
        return Err(errors.at(
            root.place,
            "`chapters` is missing: a study is a list of chapters (see docs/study-format.md)",
        ));
    };
    let nodes = items(
        &errors,
        list,
        "chapters",
        "a list of chapters",
        "a list of chapters, each a map with `title:` and `text:`",
    )?;
    if nodes.is_empty() {
        return Err(errors.at(list.place, "chapters: a study needs at least one chapter"));
    }
    let chapters = nodes
        .iter()
        .enumerate()
        .map(|(i, node)| read_chapter(&errors, node, i + 1))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Study {
        title,
        description,
        author,
        chapters,
    })
}

fn text_of(errors: &Errors, node: &Node, what: &str) -> Result<Option<String>, FileError> {
    text(errors, node, what)
}

fn read_chapter(errors: &Errors, node: &Node, number: usize) -> Result<Chapter, FileError> {
    let what = format!("chapter {number}");
    let fields = Fields::read(
        errors,
        node,
        &what,
        &MapShape {
            noun: "a chapter",
            field_noun: "a field of a chapter",
            known: &CHAPTER_FIELDS,
            expected: "a map with `title:`, `text:` and optionally `start:`, `moves:`, `arrows:`, `highlights:`, `shapes:` and `question:`",
        },
    )?;
    let field = |name: &str| field_path(&what, name);
    let title = match fields.get("title") {
        Some(n) => text(errors, n, &field("title"))?,
        None => None,
    }
    .ok_or_else(|| {
        errors.at(
            node.place,
            format!("{what}: `title` is missing: a few words, like `title: Claim the corner`"),
        )
    })?;
    let text_words = match fields.get("text") {
        Some(n) => text(errors, n, &field("text"))?,
        None => None,
    }
    .unwrap_or_default();
    let start = match fields.value("start") {
        Some(start) => {
            let raw = read_file(errors, start)?;
            to_position(errors, &raw)?
        }
        None => Position::new(crate::cathedral::rules::Rules::CLASSIC),
    };
    let mut position = start;
    let mut moves = Vec::new();
    if let Some(list) = fields.value("moves") {
        for item in items(
            errors,
            list,
            &field("moves"),
            "a list of moves",
            "moves with the player, one a line (`- light:cathedral:e5,e6,d7,e7,f7,e8`), or quoted in brackets",
        )? {
            let mv = read_move(errors, item, &position, &field("moves"))?;
            position.play(mv);
            moves.push(mv);
        }
    }
    let mut arrows = Vec::new();
    if let Some(list) = fields.value("arrows") {
        for item in items(
            errors,
            list,
            &field("arrows"),
            "a list of arrows",
            "arrows from a cell to a cell, like `[[c3, c7], [e5, h5]]`",
        )? {
            let ends = items(
                errors,
                item,
                &field("arrows"),
                "an arrow",
                "two cells, from and to, like `[c3, c7]`",
            )?;
            if ends.len() != 2 {
                return Err(errors.at(
                    item.place,
                    format!(
                        "{}: an arrow has 2 cells, from and to; this one has {}",
                        field("arrows"),
                        ends.len()
                    ),
                ));
            }
            let from = read_cell(errors, &ends[0], &field("arrows"))?;
            let to = read_cell(errors, &ends[1], &field("arrows"))?;
            arrows.push((from, to));
        }
    }
    let mut highlights = Bitboard::EMPTY;
    if let Some(list) = fields.value("highlights") {
        highlights = read_cells(errors, list, &field("highlights"))?;
    }
    let shapes = match fields.get("shapes") {
        Some(list) => read_shapes(errors, list, &field("shapes"))?,
        None => Vec::new(),
    };
    let question = match fields.value("question") {
        Some(q) => Some(read_question(errors, q, &position, &field("question"))?),
        None => None,
    };
    Ok(Chapter {
        title,
        location: Location::of(node.place),
        start,
        moves,
        position,
        text: text_words,
        arrows,
        highlights,
        shapes,
        question,
    })
}

/// A move as written, not yet read: a word.
fn move_word<'a>(errors: &Errors, node: &'a Node, what: &str) -> Result<&'a str, FileError> {
    word(
        errors,
        node,
        what,
        "a move",
        "a move with the player, like `dark:tavern:a4`",
    )
}

/// A move of `moves:`, `answers:` or `after:`: written with its player (as `legal:` lists
/// are), and legal in `position`.
fn read_move(
    errors: &Errors,
    node: &Node,
    position: &Position,
    what: &str,
) -> Result<Move, FileError> {
    let written = move_word(errors, node, what)?;
    let cannot = |reason: String| {
        errors.at(
            node.place,
            format!("{what}: `{written}` cannot be played here: {reason}"),
        )
    };
    // The parser's reason alone: the message names the move already.
    let parsed: MoveText =
        written
            .parse()
            .map_err(|e: crate::cathedral::notation::ParseMoveError| {
                cannot(crate::cathedral::legality::MoveError::Parse(e).reason())
            })?;
    if parsed.player.is_none() {
        let mover = position.to_move();
        return Err(errors.at(
            node.place,
            format!(
                "{what}: `{written}` names no player: a study writes every move with its player, like `{}:{written}` ({} is to move here)",
                mover.name(),
                mover.title()
            ),
        ));
    }
    resolve(position, &parsed).map_err(|e| cannot(e.to_string()))
}

fn read_cell(errors: &Errors, node: &Node, what: &str) -> Result<Cell, FileError> {
    let written = word(errors, node, what, "a cell", "a cell like `e5`")?;
    written.parse::<Cell>().map_err(|e| {
        errors.at(
            node.place,
            // The cell's own error names it: `k11` is not a cell: expected ...
            format!("{what}: {e}"),
        )
    })
}

fn read_cells(errors: &Errors, node: &Node, what: &str) -> Result<Bitboard, FileError> {
    let mut cells = Bitboard::EMPTY;
    for item in items(
        errors,
        node,
        what,
        "a list of cells",
        "cells like `[a1, b2]`",
    )? {
        cells.insert(read_cell(errors, item, what)?);
    }
    Ok(cells)
}

fn read_question(
    errors: &Errors,
    node: &Node,
    position: &Position,
    what: &str,
) -> Result<Question, FileError> {
    let fields = Fields::read(
        errors,
        node,
        what,
        &MapShape {
            noun: "a question",
            field_noun: "a field of a question",
            known: &QUESTION_FIELDS,
            expected: "a map with `find: move` and `answers:`; `find: owned` with `after:`, `player:` and `cells:`; `find: legal` with `legal:` and `illegal:`; or `find: result` with `winner:` and `margin:`",
        },
    )?;
    let Some(kind_node) = fields.value("find") else {
        return Err(errors.at(
            node.place,
            format!("{what}: `find` is missing: `find: move` (find the best move), `find: owned` (which cells a player owns after a move), `find: legal` (which moves are legal) or `find: result` (who won, by how much)"),
        ));
    };
    let asked = Asked {
        errors,
        node,
        fields: &fields,
        position,
        what,
    };
    let kind = word(
        errors,
        kind_node,
        &asked.field("find"),
        "a kind of question",
        "`move`, `owned`, `legal` or `result`",
    )?;
    match kind {
        "move" => asked.find_move(),
        "owned" => asked.owned(),
        "legal" => asked.legal(),
        "result" => asked.result(kind_node),
        other => Err(errors.at(
            kind_node.place,
            format!(
                "{}: `{other}` is no kind of question: `move`, `owned`, `legal` or `result`",
                asked.field("find")
            ),
        )),
    }
}

/// A question's map as read, and where it is asked: what each kind's reader needs.
struct Asked<'a> {
    errors: &'a Errors<'a>,
    node: &'a Node,
    fields: &'a Fields<'a>,
    position: &'a Position,
    /// The question's path in the file, for messages (`chapters[1].questions[2]`).
    what: &'a str,
}

impl Asked<'_> {
    /// The path of one of the question's fields.
    fn field(&self, name: &str) -> String {
        field_path(self.what, name)
    }

    /// Refuses any of `names`, fields of other kinds of question.
    fn refuse_extra(&self, kind: &str, names: &[&str]) -> Result<(), FileError> {
        for name in names {
            if let Some(place) = self.fields.key_place(name) {
                return Err(self.errors.at(
                    place,
                    format!(
                        "{}: `{name}` does not belong to a `find: {kind}` question",
                        self.what
                    ),
                ));
            }
        }
        Ok(())
    }

    /// `find: move`: the accepted moves.
    fn find_move(&self) -> Result<Question, FileError> {
        let what = self.what;
        self.refuse_extra(
            "move",
            &[
                "after", "player", "cells", "legal", "illegal", "winner", "margin",
            ],
        )?;
        let Some(list) = self.fields.value("answers") else {
            return Err(self.errors.at(
            self.node.place,
            format!("{what}: `answers` is missing: the accepted moves, like `answers: ['dark:manor:a1,a2,b1,b2']` (quoted: a move holds commas)"),
        ));
        };
        let mut answers = Vec::new();
        for item in items(
            self.errors,
            list,
            &self.field("answers"),
            "a list of moves",
            "the accepted moves, one a line (`- dark:manor:a1,a2,b1,b2`), or quoted in brackets",
        )? {
            let mv = read_move(self.errors, item, self.position, &self.field("answers"))?;
            if answers.iter().any(|(m, _)| *m == mv) {
                return Err(self.errors.at(
                    item.place,
                    format!("{}: this move is accepted twice", self.field("answers")),
                ));
            }
            answers.push((mv, Location::of(item.place)));
        }
        if answers.is_empty() {
            return Err(self.errors.at(
                list.place,
                format!("{}: at least one accepted move", self.field("answers")),
            ));
        }
        Ok(Question::FindMove { answers })
    }

    /// `find: owned`: the cells a player owns after a move.
    fn owned(&self) -> Result<Question, FileError> {
        let what = self.what;
        self.refuse_extra(
            "owned",
            &["answers", "legal", "illegal", "winner", "margin"],
        )?;
        let need = |name: &str, example: &str| {
            self.fields.value(name).ok_or_else(|| {
                self.errors.at(
                    self.node.place,
                    format!("{what}: `{name}` is missing: {example}"),
                )
            })
        };
        let after_node = need(
            "after",
            "the move played first, like `after: dark:manor:a1,a2,b1,b2`",
        )?;
        let after = read_move(self.errors, after_node, self.position, &self.field("after"))?;
        let player_node = need("player", "whose cells, `light` or `dark`")?;
        let who = word(
            self.errors,
            player_node,
            &self.field("player"),
            "a player",
            "`light` or `dark`",
        )?;
        let player = match who {
            "light" => Player::Light,
            "dark" => Player::Dark,
            other => {
                return Err(self.errors.at(
                    player_node.place,
                    format!(
                        "{}: `{other}` is no player: `light` or `dark`",
                        self.field("player")
                    ),
                ));
            }
        };
        let cells_node = need(
            "cells",
            "the cells the player owns after the move, like `cells: [a1, b1]` (`[]` for none)",
        )?;
        let cells = if matches!(cells_node.value, Value::Seq(_)) {
            read_cells(self.errors, cells_node, &self.field("cells"))?
        } else {
            return Err(self.errors.at(
                cells_node.place,
                format!(
                    "{}: a list of cells, like `[a1, b1]` (`[]` for none)",
                    self.field("cells")
                ),
            ));
        };
        Ok(Question::Owned {
            after,
            player,
            cells,
            location: Location::of(cells_node.place),
        })
    }

    /// `find: legal`: which of the listed moves are legal.
    fn legal(&self) -> Result<Question, FileError> {
        let what = self.what;
        self.refuse_extra(
            "legal",
            &["answers", "after", "player", "cells", "winner", "margin"],
        )?;
        let mut moves: Vec<Candidate> = Vec::new();
        for (name, legal) in [("legal", true), ("illegal", false)] {
            let Some(list) = self.fields.value(name) else {
                continue;
            };
            for item in items(
                self.errors,
                list,
                &self.field(name),
                "a list of moves",
                "moves with the player, one a line (`- dark:tavern:a1`)",
            )? {
                let candidate = read_candidate(self.errors, item, &self.field(name), legal)?;
                if moves.iter().any(|m| m.parsed == candidate.parsed) {
                    return Err(self.errors.at(
                        item.place,
                        format!("{}: this move is listed twice", self.field(name)),
                    ));
                }
                moves.push(candidate);
            }
        }
        if moves.len() < 2 {
            return Err(self.errors.at(
            self.node.place,
            format!("{what}: a `find: legal` question lists at least 2 moves under `legal:` and `illegal:` (one of them may be empty)"),
        ));
        }
        Ok(Question::Legal { moves })
    }

    /// `find: result`: who won a finished game, and by how much.
    fn result(&self, kind_node: &Node) -> Result<Question, FileError> {
        let what = self.what;
        self.refuse_extra(
            "result",
            &["answers", "after", "player", "cells", "legal", "illegal"],
        )?;
        if !self.position.is_game_over() {
            return Err(self.errors.at(
            kind_node.place,
            format!("{what}: a `find: result` question is asked where the game is over; in this chapter's position {} can still move", self.position.to_move().title()),
        ));
        }
        let Some(winner_node) = self.fields.value("winner") else {
            return Err(self.errors.at(
                self.node.place,
                format!("{what}: `winner` is missing: `light`, `dark` or `draw`"),
            ));
        };
        let winner = match word(
            self.errors,
            winner_node,
            &self.field("winner"),
            "a winner",
            "`light`, `dark` or `draw`",
        )? {
            "light" => Some(Player::Light),
            "dark" => Some(Player::Dark),
            "draw" => None,
            other => {
                return Err(self.errors.at(
                    winner_node.place,
                    format!(
                        "{}: `{other}` is no result: `light`, `dark` or `draw`",
                        self.field("winner")
                    ),
                ));
            }
        };
        let margin = match self.fields.value("margin") {
            Some(n) => whole(
                self.errors,
                n,
                &self.field("margin"),
                "a number of squares",
                "from 0 to 47",
                0,
                47,
            )? as u32,
            None if winner.is_none() => 0,
            None => {
                return Err(self.errors.at(
                    self.node.place,
                    format!("{what}: `margin` is missing: by how many squares the winner wins"),
                ));
            }
        };
        if (winner.is_none()) != (margin == 0) {
            return Err(self.errors.at(
                winner_node.place,
                format!("{what}: a draw has margin 0, and a win a margin of at least 1"),
            ));
        }
        Ok(Question::Result {
            winner,
            margin,
            location: Location::of(winner_node.place),
        })
    }
}

/// A move of a `find: legal` question: read, with its player, and a shape its building has,
/// but not played (it may be illegal in the position: that is the question).
fn read_candidate(
    errors: &Errors,
    node: &Node,
    what: &str,
    legal: bool,
) -> Result<Candidate, FileError> {
    let written = move_word(errors, node, what)?;
    let parsed: MoveText = written
        .parse()
        .map_err(|e| errors.at(node.place, format!("{what}: {e}")))?;
    let Some(player) = parsed.player else {
        return Err(errors.at(
            node.place,
            format!("{what}: `{written}` names no player: write it as `light:{written}` or `dark:{written}`"),
        ));
    };
    if let Action::Place { piece, cells, .. } = &parsed.action {
        let owner = (*piece != Piece::Cathedral).then_some(player);
        let table = crate::cathedral::placement::table();
        if !table
            .ids(owner, *piece)
            .any(|id| table.get(id).mask == *cells)
        {
            return Err(errors.at(
                node.place,
                format!("{what}: `{written}`: these cells are not the shape of the {piece}, however it is turned"),
            ));
        }
    }
    Ok(Candidate {
        text: written.to_string(),
        parsed,
        legal,
        location: Location::of(node.place),
    })
}

fn no_cells(cells: &serde_saphyr::FlowSeq<Vec<String>>) -> bool {
    cells.0.is_empty()
}

/// The YAML text of `study`: reading it back gives the same chapters (positions, moves, words,
/// arrows, highlights and questions; only where things were written differs).
pub fn study_to_yaml(study: &Study) -> String {
    use serde::Serialize;
    use serde_saphyr::FlowSeq;
    use std::collections::BTreeMap;

    #[derive(Serialize)]
    struct OutStudy<'a> {
        study: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        description: Option<&'a str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        author: Option<&'a str>,
        chapters: Vec<OutChapter<'a>>,
    }
    #[derive(Serialize)]
    struct OutChapter<'a> {
        title: &'a str,
        #[serde(skip_serializing_if = "str::is_empty")]
        text: &'a str,
        // Left out for a new game under the classic rules, what a chapter without it starts
        // from.
        #[serde(skip_serializing_if = "Option::is_none")]
        start: Option<super::OutFile<'a>>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        moves: Vec<String>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        arrows: Vec<FlowSeq<Vec<String>>>,
        #[serde(skip_serializing_if = "no_cells")]
        highlights: FlowSeq<Vec<String>>,
        #[serde(skip_serializing_if = "no_cells")]
        shapes: FlowSeq<Vec<String>>,
        #[serde(skip_serializing_if = "Option::is_none")]
        question: Option<BTreeMap<&'static str, OutAnswer>>,
    }
    #[derive(Serialize)]
    #[serde(untagged)]
    enum OutAnswer {
        Word(String),
        List(FlowSeq<Vec<String>>),
        // Moves hold commas: a block list, one a line, never split.
        Moves(Vec<String>),
        Number(u32),
    }
    let cells = |b: Bitboard| FlowSeq(b.cells_by_file().iter().map(ToString::to_string).collect());
    let starts: Vec<super::PositionFile> = study
        .chapters
        .iter()
        .map(|c| super::PositionFile::from_position(c.start))
        .collect();
    let chapters = study
        .chapters
        .iter()
        .zip(&starts)
        .map(|(c, start)| {
            let mut position = c.start;
            let moves = c
                .moves
                .iter()
                .map(|&mv| {
                    let text = crate::cathedral::notation::format_move_with_player(&position, mv);
                    position.play(mv);
                    text
                })
                .collect();
            let format =
                |mv: Move| crate::cathedral::notation::format_move_with_player(&c.position, mv);
            let question = c.question.as_ref().map(|q| match q {
                Question::FindMove { answers } => BTreeMap::from([
                    ("find", OutAnswer::Word("move".to_string())),
                    (
                        "answers",
                        OutAnswer::Moves(answers.iter().map(|(mv, _)| format(*mv)).collect()),
                    ),
                ]),
                Question::Owned {
                    after,
                    player,
                    cells: owned,
                    ..
                } => BTreeMap::from([
                    ("find", OutAnswer::Word("owned".to_string())),
                    ("after", OutAnswer::Word(format(*after))),
                    ("player", OutAnswer::Word(player.name().to_string())),
                    ("cells", OutAnswer::List(cells(*owned))),
                ]),
                Question::Legal { moves } => {
                    let listed = |legal: bool| {
                        OutAnswer::Moves(
                            moves
                                .iter()
                                .filter(|m| m.legal == legal)
                                .map(|m| m.text.clone())
                                .collect(),
                        )
                    };
                    BTreeMap::from([
                        ("find", OutAnswer::Word("legal".to_string())),
                        ("legal", listed(true)),
                        ("illegal", listed(false)),
                    ])
                }
                Question::Result { winner, margin, .. } => BTreeMap::from([
                    ("find", OutAnswer::Word("result".to_string())),
                    (
                        "winner",
                        OutAnswer::Word(winner.map_or("draw", |p| p.name()).to_string()),
                    ),
                    ("margin", OutAnswer::Number(*margin)),
                ]),
            });
            OutChapter {
                title: &c.title,
                text: &c.text,
                start: (c.start != Position::new(crate::cathedral::rules::Rules::CLASSIC))
                    .then(|| super::out_file(start)),
                moves,
                arrows: c
                    .arrows
                    .iter()
                    .map(|(a, b)| FlowSeq(vec![a.to_string(), b.to_string()]))
                    .collect(),
                highlights: cells(c.highlights),
                shapes: FlowSeq(c.shapes.iter().map(ToString::to_string).collect()),
                question,
            }
        })
        .collect();
    serde_saphyr::to_string(&OutStudy {
        study: &study.title,
        description: study.description.as_deref(),
        author: study.author.as_deref(),
        chapters,
    })
    .unwrap_or_else(|e| format!("# cannot write this study: {e}\n"))
}

/// A study drawn from a game record: a chapter at the position before each move that carries a
/// mark or a comment, its words saying what was played, the question left for the author (a
/// teacher adds `question:` and checks it with `cathedral study check`). The shapes drawn on
/// that position (the previous move's, or the start's) are the chapter's `shapes:`, and a
/// position with shapes makes a chapter too, so that none is lost (but the final position's,
/// which no move follows).
pub fn study_from_record(record: &super::GameRecord, title: &str) -> Study {
    let mut chapters = Vec::new();
    let mut position = record.start_position();
    for (ply, recorded) in record.moves.iter().enumerate() {
        let shapes = match ply {
            0 => &record.shapes,
            _ => &record.moves[ply - 1].shapes,
        };
        if recorded.mark.is_some() || recorded.comment.is_some() || !shapes.is_empty() {
            let played =
                crate::cathedral::notation::format_move_with_player(&position, recorded.mv);
            let mark = recorded.mark.map_or(String::new(), |m| format!(" {m}"));
            let mut text = format!(
                "Move {}: {} played {played}{mark}.",
                ply + 1,
                position.to_move().title()
            );
            if let Some(comment) = &recorded.comment {
                text.push(' ');
                text.push_str(comment);
            }
            chapters.push(Chapter {
                title: format!("Move {}", ply + 1),
                location: Location::default(),
                start: record.start_position(),
                moves: record.moves[..ply].iter().map(|m| m.mv).collect(),
                position,
                text,
                arrows: Vec::new(),
                highlights: Bitboard::EMPTY,
                shapes: shapes.clone(),
                question: None,
            });
        }
        position.play(recorded.mv);
    }
    Study {
        title: title.to_string(),
        description: None,
        author: None,
        chapters,
    }
}
