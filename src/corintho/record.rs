//! Corintho game records: whole games in YAML, several per file (documents separated by `---`),
//! read with located errors and written back identically (`docs/corintho.md`, "Game records").
//!
//! ```yaml
//! game: corintho
//! event: Club night          # optional: event, site, date, round, comment
//! names: [Ann, Bob]          # optional: the players' names, player 1 first
//! start:                     # optional: a position file's keys, indented (default: the
//!   players: 2               # two-player start)
//!   board: [". . . .", ". . . .", ". . . .", ". . . ."]
//! moves:
//! - C@b1
//! - move: K@a4
//!   comment: the corner first
//! ```
//!
//! ```
//! use cathedral::corintho::record::{parse_records, records_to_yaml};
//! let games = parse_records("g.yaml", "game: corintho\nnames: [Ann, Bob]\nmoves: [C@b1, K@a4]\n").unwrap();
//! assert_eq!(games[0].moves.len(), 2);
//! let again = parse_records("g.yaml", &records_to_yaml(&games)).unwrap();
//! assert_eq!(again[0].moves, games[0].moves);
//! let error = parse_records("g.yaml", "game: corintho\nmoves: [C@b1, C@b1]\n").unwrap_err();
//! assert_eq!(error.line, Some(2));
//! ```

use super::file::{check_game, parse, read_yaml, to_yaml};
use super::moves::CorinthoMove;
use super::position::{CorinthoPosition, Outcome};
use super::rules::CorinthoRules;
use crate::files::FileError;
use serde::Deserialize;
use serde_saphyr::Spanned;

/// One recorded game.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct CorinthoRecord {
    /// The event, the site, the date, the round: free text.
    pub event: Option<String>,
    /// Where it was played.
    pub site: Option<String>,
    /// When (`2026-11-25`).
    pub date: Option<String>,
    /// The round of a tournament or the game of a match.
    pub round: Option<String>,
    /// The players' names, player 1 first.
    pub names: Vec<String>,
    /// Free comments on the game.
    pub comment: Option<String>,
    /// Where the game started, when not the two-player start.
    pub start: Option<CorinthoPosition>,
    /// The moves, in order, each with its comment.
    pub moves: Vec<(CorinthoMove, Option<String>)>,
}

impl CorinthoRecord {
    /// The position the game starts from.
    pub fn start_position(&self) -> CorinthoPosition {
        self.start
            .unwrap_or_else(|| CorinthoPosition::new(CorinthoRules::default()))
    }

    /// The position after the last move.
    pub fn final_position(&self) -> CorinthoPosition {
        let mut position = self.start_position();
        for (mv, _) in &self.moves {
            position.play(*mv);
        }
        position
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRecord {
    game: Spanned<String>,
    event: Option<String>,
    site: Option<String>,
    date: Option<String>,
    round: Option<String>,
    #[serde(default)]
    names: Vec<String>,
    comment: Option<String>,
    start: Option<Spanned<serde_json::Value>>,
    moves: Spanned<Vec<Spanned<RawMove>>>,
    result: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum RawMove {
    Text(String),
    Commented {
        #[serde(rename = "move")]
        mv: String,
        comment: Option<String>,
    },
}

/// Reads every game of record text; `name` labels errors, which give the game (from the second
/// on), the move and the line and column.
pub fn parse_records(name: &str, text: &str) -> Result<Vec<CorinthoRecord>, FileError> {
    let mut games = Vec::new();
    for (first_line, document) in crate::files::documents(text) {
        if document
            .lines()
            .all(|l| l.trim().is_empty() || l.trim_start().starts_with('#'))
        {
            continue;
        }
        // Blank lines in front keep the parser's line numbers those of the whole file.
        let padded = format!("{}{document}", "\n".repeat(first_line));
        let number = games.len() + 1;
        games.push(read_game(name, &padded, number)?);
    }
    if games.is_empty() {
        return Err(FileError::new(
            name,
            "holds no game: a record has at least `game: corintho` and `moves:` (see docs/corintho.md)",
        ));
    }
    Ok(games)
}

fn read_game(name: &str, text: &str, number: usize) -> Result<CorinthoRecord, FileError> {
    let game = if number > 1 {
        format!("game {number}: ")
    } else {
        String::new()
    };
    let error = |location: Option<&serde_saphyr::Location>, message: String| {
        let mut e = FileError::new(name, format!("{game}{message}"));
        if let Some(location) = location.filter(|l| l.line() > 0) {
            e.line = Some(location.line() as usize);
            e.column = (location.column() > 0).then_some(location.column() as usize);
        }
        e.source_text = Some(text.to_string());
        e
    };
    let raw: RawRecord = read_yaml(
        text,
        &error,
        "a record has `game: corintho`, `moves:` and optional `event`, `site`, `date`, `round`, `names`, `comment`, `start`, `result`; see docs/corintho.md",
    )?;
    check_game(&raw.game, &error)?;
    let start = match &raw.start {
        None => None,
        Some(start) => {
            let serde_json::Value::Object(mut map) = start.value.clone() else {
                return Err(error(
                    Some(&start.referenced),
                    "`start:` is a position: a position file's keys, indented".to_string(),
                ));
            };
            map.insert("game".to_string(), "corintho".into());
            // JSON is YAML: the start is read by the position file's own reader.
            let text = serde_json::Value::Object(map).to_string();
            let file = parse(name, &text).map_err(|e| {
                error(
                    Some(&start.referenced),
                    format!("in `start`: {}", e.message),
                )
            })?;
            Some(file.position)
        }
    };
    let mut record = CorinthoRecord {
        event: raw.event,
        site: raw.site,
        date: raw.date,
        round: raw.round,
        names: raw.names,
        comment: raw.comment,
        start,
        moves: Vec::new(),
    };
    let mut position = record.start_position();
    for (index, item) in raw.moves.value.iter().enumerate() {
        let (text, comment) = match &item.value {
            RawMove::Text(text) => (text.clone(), None),
            RawMove::Commented { mv, comment } => (mv.clone(), comment.clone()),
        };
        let mv = position.read_move(&text).map_err(|why| {
            error(
                Some(&item.referenced),
                format!("move {} (`{text}`) cannot be played: {why}", index + 1),
            )
        })?;
        position.play(mv);
        record.moves.push((mv, comment));
    }
    if let Some(result) = &raw.result {
        let said = result.value.trim().to_ascii_lowercase();
        let actual = result_words(&position);
        if actual.as_deref() != Some(said.as_str()) {
            return Err(error(
                Some(&result.referenced),
                format!(
                    "`result: {}` but the moves end with {}",
                    result.value,
                    actual.map_or("the game still going".to_string(), |a| format!("`{a}`"))
                ),
            ));
        }
    }
    Ok(record)
}

/// The result as a record writes it: `player N wins` or `drawn`; `None` while playing.
pub fn result_words(position: &CorinthoPosition) -> Option<String> {
    match position.outcome() {
        Outcome::Won(p) => Some(format!("player {} wins", p + 1)),
        Outcome::Drawn => Some("drawn".to_string()),
        Outcome::Ongoing => None,
    }
}

/// Writes records as text that [`parse_records`] reads back to the same games.
pub fn records_to_yaml(records: &[CorinthoRecord]) -> String {
    let quote = |text: &str| serde_json::to_string(text).unwrap_or_default();
    let mut out = String::new();
    for (i, record) in records.iter().enumerate() {
        if i > 0 {
            out.push_str("---\n");
        }
        out.push_str("game: corintho\n");
        for (key, value) in [
            ("event", &record.event),
            ("site", &record.site),
            ("date", &record.date),
            ("round", &record.round),
            ("comment", &record.comment),
        ] {
            if let Some(value) = value {
                out.push_str(&format!("{key}: {}\n", quote(value)));
            }
        }
        if !record.names.is_empty() {
            let names: Vec<String> = record.names.iter().map(|n| quote(n)).collect();
            out.push_str(&format!("names: [{}]\n", names.join(", ")));
        }
        if let Some(start) = &record.start {
            out.push_str("start:\n");
            for line in to_yaml(start, None).lines().skip(1) {
                out.push_str(&format!("  {line}\n"));
            }
        }
        out.push_str("moves:\n");
        for (mv, comment) in &record.moves {
            match comment {
                None => out.push_str(&format!("- {mv}\n")),
                Some(c) => out.push_str(&format!("- move: {mv}\n  comment: {}\n", quote(c))),
            }
        }
        if record.moves.is_empty() {
            out.truncate(out.len() - "moves:\n".len());
            out.push_str("moves: []\n");
        }
        if let Some(result) = result_words(&record.final_position()) {
            out.push_str(&format!("result: {result}\n"));
        }
    }
    out
}
