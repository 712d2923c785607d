//! Corintho position files: YAML with `game: corintho`, loaded with located errors.
//!
//! ```yaml
//! game: corintho
//! title: Building code 5          # optional
//! players: 2                      # 2, 3 or 4 (default 2)
//! variant: {placement: free, lock: round, base_rows: true, answer: modify}   # optional: defaults
//! to_move: 1                      # 1-based (default 1)
//! board:                          # rank 4 first; `.` empty, else sections bottom to top
//!   - ". . . ."
//!   - ". BC . ."
//!   - ". . K ."
//!   - "B . . C"
//! supply:                         # optional: each player's own sections left
//!   - {base: 3, column: 4, capital: 4}
//!   - {base: 4, column: 3, capital: 3}
//! locked: [b3]                    # optional: the last moves' platforms, most recent first,
//!                                 # `pass` for a turn passed (building code 5)
//! winner: 1                       # optional: a game won by a concession (a row left standing)
//! ```

use super::board::{Board, Square, Stack};
use super::position::CorinthoPosition;
use super::rules::{Answer, CorinthoRules, Lock, Placement};
use crate::files::FileError;
use serde::Deserialize;
use serde_saphyr::{Location, Spanned};
use std::io::Read;
use std::path::Path;

/// Largest file read, in bytes.
const MAX_BYTES: usize = 1 << 20;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    game: Spanned<String>,
    title: Option<String>,
    players: Option<Spanned<u8>>,
    variant: Option<Spanned<RawVariant>>,
    to_move: Option<Spanned<u8>>,
    board: Spanned<Vec<Spanned<String>>>,
    supply: Option<Spanned<Vec<Spanned<RawSupply>>>>,
    shared: Option<Spanned<RawSupply>>,
    locked: Option<Spanned<Vec<Spanned<String>>>>,
    passes: Option<Spanned<u8>>,
    winner: Option<Spanned<u8>>,
    case: Option<RuleCase>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawVariant {
    placement: Option<Spanned<String>>,
    lock: Option<Spanned<String>>,
    base_rows: Option<bool>,
    answer: Option<Spanned<String>>,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(deny_unknown_fields)]
struct RawSupply {
    #[serde(default)]
    base: u8,
    #[serde(default)]
    column: u8,
    #[serde(default)]
    capital: u8,
}

/// A rule case (`puzzles/corintho/`): what must hold in the file's position.
#[derive(Deserialize, Debug, Clone, Default)]
#[serde(deny_unknown_fields)]
pub struct RuleCase {
    /// The clause or figure of the sheet the case shows.
    pub clause: String,
    /// Moves played first, in order.
    #[serde(default)]
    pub play: Vec<String>,
    /// Moves that must be legal afterwards.
    #[serde(default)]
    pub legal: Vec<String>,
    /// Moves that must be refused afterwards.
    #[serde(default)]
    pub illegal: Vec<String>,
    /// Moves the rules allow that leave a claimed row standing: out of the game tree (playing
    /// one concedes the win to the claimant).
    #[serde(default)]
    pub concedes: Vec<String>,
    /// The number of legal moves afterwards.
    pub moves: Option<usize>,
    /// `ongoing`, `drawn`, or `won by N`.
    pub outcome: Option<String>,
    /// The exact value for the side to move (two players): 1, 0 or -1.
    pub value: Option<i32>,
}

/// A loaded Corintho position file.
#[derive(Debug, Clone)]
pub struct CorinthoFile {
    /// The position.
    pub position: CorinthoPosition,
    /// Its title, if any.
    pub title: Option<String>,
    /// Its rule case, if any.
    pub case: Option<RuleCase>,
}

fn place(location: Option<&Location>) -> (Option<usize>, Option<usize>) {
    let Some(location) = location else {
        return (None, None);
    };
    let line = location.line() as usize;
    let column = location.column() as usize;
    if line == 0 {
        (None, None)
    } else {
        (Some(line), (column > 0).then_some(column))
    }
}

/// A parser complaint in the file format's words (no Rust or serde names).
fn plain_words(message: &str) -> String {
    let message = message
        .split(" at line ")
        .next()
        .unwrap_or(message)
        .trim()
        .to_string();
    if let Some(rest) = message.strip_prefix("missing field ") {
        return format!("the key {rest} is missing");
    }
    if message.starts_with("unknown field") || message.starts_with("unknown variant") {
        return message.replace("field", "key");
    }
    let expected = if message.contains("u8") {
        "a small whole number"
    } else if message.contains("sequence") {
        "a list"
    } else if message.contains("struct") || message.contains("map") {
        "a map (`key: value` lines or `{key: value}`)"
    } else if message.contains("bool") {
        "`true` or `false`"
    } else if message.contains("string") {
        "a text"
    } else {
        return format!(
            "not valid YAML here: {}",
            message.replace("invalid type", "wrong kind of value")
        );
    };
    format!("expected {expected} here")
}

/// `text` read as YAML into `T`; a complaint in the format's words, located by `error`, with
/// `hint` after it.
pub(super) fn read_yaml<T: serde::de::DeserializeOwned>(
    text: &str,
    error: &impl Fn(Option<&Location>, String) -> FileError,
    hint: &str,
) -> Result<T, FileError> {
    serde_saphyr::from_str(text).map_err(|e| {
        let message = e.without_snippet().to_string();
        let message = plain_words(message.lines().next().unwrap_or("not valid YAML"));
        error(e.location().as_ref(), format!("{message} ({hint})"))
    })
}

/// Refuses a `game:` other than Corintho.
pub(super) fn check_game(
    game: &Spanned<String>,
    error: &impl Fn(Option<&Location>, String) -> FileError,
) -> Result<(), FileError> {
    if game.value.eq_ignore_ascii_case("corintho") {
        Ok(())
    } else {
        Err(error(
            Some(&game.referenced),
            format!(
                "`game: {}` is not Corintho: write `game: corintho`",
                game.value
            ),
        ))
    }
}

/// Whether a file's text declares `game: corintho` (a cheap look before loading).
pub fn is_corintho(text: &str) -> bool {
    text.lines().any(|line| {
        let line = line.trim_end();
        line.strip_prefix("game:")
            .map(|v| {
                v.trim()
                    .trim_matches(['"', '\''])
                    .eq_ignore_ascii_case("corintho")
            })
            .unwrap_or(false)
    })
}

/// Loads a position file.
pub fn load(path: &Path) -> Result<CorinthoFile, FileError> {
    let name = path.display().to_string();
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| std::io::Read::take(f, MAX_BYTES as u64 + 1).read_to_end(&mut bytes))
        .map_err(|e| FileError::new(&name, format!("cannot read the file: {e}")))?;
    if bytes.len() > MAX_BYTES {
        return Err(FileError::new(
            &name,
            "the file is larger than 1 MiB: a position file is a few hundred bytes",
        ));
    }
    let text = String::from_utf8(bytes)
        .map_err(|_| FileError::new(&name, "the file is not UTF-8 text"))?;
    parse(&name, &text)
}

/// Parses a position file's text; `name` labels errors.
///
/// ```
/// use cathedral::corintho::file::parse;
/// let file = parse("x.yaml", "game: corintho\nboard: ['. . . .', '. . . .', '. . . .', 'B . . .']\n").unwrap();
/// assert_eq!(file.position.board().get("a1".parse().unwrap()).to_string(), "B");
/// let error = parse("x.yaml", "game: corintho\nboard: ['. . . .', '. X . .', '. . . .', '. . . .']\n").unwrap_err();
/// assert_eq!((error.line, error.message.contains("`X`")), (Some(2), true));
/// ```
#[expect(
    clippy::expect_used,
    reason = "files and ranks run over 0..4, the board"
)]
pub fn parse(name: &str, text: &str) -> Result<CorinthoFile, FileError> {
    let error = |location: Option<&Location>, message: String| {
        let (line, column) = place(location);
        let mut e = FileError::new(name, message);
        e.line = line;
        e.column = column;
        e.source_text = Some(text.to_string());
        e
    };
    let raw: Raw = read_yaml(text, &error, "see docs/corintho.md")?;
    check_game(&raw.game, &error)?;
    let players = raw.players.as_ref().map_or(2, |p| p.value);
    let mut rules = CorinthoRules::for_players(players).ok_or_else(|| {
        let location = raw.players.as_ref().map(|p| &p.referenced);
        error(
            location,
            format!(
                "{}: Corintho is for 2, 3 or 4",
                crate::present::words::count(i64::from(players), "player")
            ),
        )
    })?;
    if let Some(variant) = &raw.variant {
        let v = &variant.value;
        if let Some(p) = &v.placement {
            rules.placement = match p.value.as_str() {
                "free" => Placement::Free,
                "ordered" => Placement::Ordered,
                other => {
                    return Err(error(
                        Some(&p.referenced),
                        format!("placement `{other}`: `free` or `ordered`"),
                    ));
                }
            };
        }
        if let Some(l) = &v.lock {
            rules.lock = match l.value.as_str() {
                "next" => Lock::Next,
                "round" => Lock::Round,
                other => {
                    return Err(error(
                        Some(&l.referenced),
                        format!("lock `{other}`: `next` or `round`"),
                    ));
                }
            };
        }
        if let Some(b) = v.base_rows {
            rules.base_rows = b;
        }
        if let Some(a) = &v.answer {
            rules.answer = match a.value.as_str() {
                "modify" => Answer::Modify,
                "new_row" => Answer::NewRow,
                other => {
                    return Err(error(
                        Some(&a.referenced),
                        format!("answer `{other}`: `modify` or `new_row`"),
                    ));
                }
            };
        }
    }
    let mut board = Board::default();
    if raw.board.value.len() != 4 {
        return Err(error(
            Some(&raw.board.referenced),
            format!(
                "the board has {}: it needs 4 lines, rank 4 first",
                crate::present::words::count(raw.board.value.len() as i64, "rank")
            ),
        ));
    }
    for (i, line) in raw.board.value.iter().enumerate() {
        let rank = 3 - i as u8;
        let cells: Vec<&str> = line.value.split_whitespace().collect();
        if cells.len() != 4 {
            return Err(error(
                Some(&line.referenced),
                format!(
                    "rank {} has {} platforms: write 4, separated by spaces (`.` for an empty one)",
                    rank + 1,
                    cells.len()
                ),
            ));
        }
        for (file, cell) in cells.iter().enumerate() {
            let stack = Stack::parse(cell).ok_or_else(|| {
                error(Some(&line.referenced),
                    format!(
                        "`{cell}` on rank {} is not a stack: `.` or sections bottom to top in stacking order, B base, C column, K capital (like `BC`, `CK`, `BCK`)",
                        rank + 1
                    ),
                )
            })?;
            board.set(Square::at(file as u8, rank).expect("4x4"), stack);
        }
    }
    let n = rules.players as usize;
    let to_move = match &raw.to_move {
        None => 0,
        Some(t) if (1..=n).contains(&(t.value as usize)) => t.value - 1,
        Some(t) => {
            return Err(error(
                Some(&t.referenced),
                format!("player {} does not play: 1 to {n}", t.value),
            ));
        }
    };
    let supply: Vec<[u8; 3]> = match &raw.supply {
        None => default_supply(rules, &board),
        Some(s) => {
            if s.value.len() != n {
                return Err(error(
                    Some(&s.referenced),
                    format!(
                        "{} for {n} players: one per player",
                        match s.value.len() {
                            1 => "1 supply".to_string(),
                            n => format!("{n} supplies"),
                        }
                    ),
                ));
            }
            s.value
                .iter()
                .map(|r| [r.value.base, r.value.column, r.value.capital])
                .collect()
        }
    };
    let shared = raw.shared.as_ref().map_or(rules.start_shared(), |s| {
        [s.value.base, s.value.column, s.value.capital]
    });
    let mut locked = Vec::new();
    if let Some(l) = &raw.locked {
        for sq in &l.value {
            locked.push(if sq.value == "pass" {
                None
            } else {
                Some(
                    sq.value
                        .parse::<Square>()
                        .map_err(|e| error(Some(&sq.referenced), e))?,
                )
            });
        }
    }
    let passes = raw.passes.as_ref().map_or(0, |p| p.value);
    let position =
        CorinthoPosition::from_parts(rules, board, to_move, &supply, shared, &locked, passes)
            .map_err(|message| {
                let location = if message.contains("supplies") || message.contains("has ") {
                    raw.supply.as_ref().map(|s| s.referenced)
                } else if message.contains("locked") {
                    raw.locked.as_ref().map(|s| s.referenced)
                } else if message.contains("passes") {
                    raw.passes.as_ref().map(|s| s.referenced)
                } else {
                    Some(raw.board.referenced)
                };
                error(location.as_ref(), message)
            })?;
    let position = match &raw.winner {
        None => position,
        Some(w) if (1..=n).contains(&(w.value as usize)) => position.with_winner(w.value - 1),
        Some(w) => {
            return Err(error(
                Some(&w.referenced),
                format!("player {} does not play: 1 to {n}", w.value),
            ));
        }
    };
    Ok(CorinthoFile {
        position,
        title: raw.title,
        case: raw.case,
    })
}

/// The supplies when a file gives none: the board's sections taken from the full supplies in
/// turn, player 1 first, level by level (the shared extras last).
fn default_supply(rules: CorinthoRules, board: &Board) -> Vec<[u8; 3]> {
    let n = rules.players as usize;
    let mut supply = vec![rules.start_supply(); n];
    let counts = board.counts();
    for level in 0..3 {
        let mut next = 0;
        for _ in 0..counts[level] {
            // The next player with a section of this level left, if any.
            if let Some(p) = (0..n)
                .map(|k| (next + k) % n)
                .find(|&p| supply[p][level] > 0)
            {
                supply[p][level] -= 1;
                next = p + 1;
            }
        }
    }
    supply
}

/// Writes a position as file text (rules, board, supplies, locks).
#[expect(
    clippy::expect_used,
    reason = "files and ranks run over 0..4, the board"
)]
pub fn to_yaml(position: &CorinthoPosition, title: Option<&str>) -> String {
    let rules = position.rules();
    let mut out = String::from("game: corintho\n");
    if let Some(title) = title {
        out.push_str(&format!(
            "title: {}\n",
            serde_json::to_string(title).unwrap_or_default()
        ));
    }
    out.push_str(&format!("players: {}\n", rules.players));
    let words = rules.variant_words();
    if !words.is_empty() {
        out.push_str(&format!("variant: {{{}}}\n", words.join(", ")));
    }
    out.push_str(&format!("to_move: {}\nboard:\n", position.to_move() + 1));
    for rank in (0..4).rev() {
        let cells: Vec<String> = (0..4)
            .map(|f| {
                position
                    .board()
                    .get(Square::at(f, rank).expect("4x4"))
                    .to_string()
            })
            .collect();
        out.push_str(&format!("  - \"{}\"\n", cells.join(" ")));
    }
    out.push_str("supply:\n");
    for p in 0..rules.players {
        let [b, c, k] = position.supply(p);
        out.push_str(&format!("  - {{base: {b}, column: {c}, capital: {k}}}\n"));
    }
    if rules.players == 3 {
        let [b, c, k] = position.shared();
        out.push_str(&format!(
            "shared: {{base: {b}, column: {c}, capital: {k}}}\n"
        ));
    }
    // The whole lock history, up to its last move: a pass between two moves keeps its place,
    // so every lock keeps its age.
    let mut history = position.lock_history();
    while history.last() == Some(&None) {
        history.pop();
    }
    let locked: Vec<String> = history
        .iter()
        .map(|l| l.map_or("pass".to_string(), |sq| sq.to_string()))
        .collect();
    if !locked.is_empty() {
        out.push_str(&format!("locked: [{}]\n", locked.join(", ")));
    }
    if let Some(w) = position.conceded_to() {
        out.push_str(&format!("winner: {}\n", w + 1));
    }
    if position.passes() > 0 {
        out.push_str(&format!("passes: {}\n", position.passes()));
    }
    out
}
