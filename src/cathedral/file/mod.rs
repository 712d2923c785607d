//! Position files: YAML documents holding a position, its rule variant and free metadata.
//! The format is documented in `docs/file-format.md`.

mod convert;
mod diagram;
mod error;
mod puzzle_terms;
mod schema;

pub use convert::derived_territory;
pub use error::FileError;
pub use puzzle_terms::{Difficulty, EASY_MAX, MEDIUM_MAX, ParseNameError, Theme};
pub use schema::{PuzzleInfo, Ruling, RulingBuilding, RulingNearMiss, StoredSolution};

use crate::cathedral::bitboard::Bitboard;
use crate::cathedral::piece::Piece;
use crate::cathedral::player::Player;
use crate::cathedral::position::{CathedralStatus, Position, SLOT_PIECES};
use serde::Serialize;
use serde_saphyr::FlowSeq;
use std::collections::BTreeMap;
use std::path::Path;

/// Free metadata of a position file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Metadata {
    /// A short title for the position.
    pub title: Option<String>,
    /// Free text about the position.
    pub description: Option<String>,
    /// Free labels for grouping and finding files.
    pub tags: Vec<String>,
    /// Where the position comes from.
    pub source: Option<String>,
}

/// A loaded position file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionFile {
    /// The game state the file holds.
    pub position: Position,
    /// Title, description, tags and source.
    pub meta: Metadata,
    /// The expected ruling, in rule cases.
    pub ruling: Option<Ruling>,
    /// The exact value and a best line, in benchmark positions and puzzles.
    pub solution: Option<StoredSolution>,
    /// A teaching puzzle's question, themes and difficulty.
    pub puzzle: Option<PuzzleInfo>,
}

impl PositionFile {
    /// A file holding just `position`: no metadata, ruling, solution or puzzle.
    pub fn from_position(position: Position) -> PositionFile {
        PositionFile {
            position,
            meta: Metadata::default(),
            ruling: None,
            solution: None,
            puzzle: None,
        }
    }
}

/// Reads and validates a position file.
///
/// ```
/// use cathedral::{Player, file};
/// use std::path::Path;
///
/// let file = file::load(Path::new("puzzles/bench/t3-01.yaml"))?;
/// assert_eq!(file.position.to_move(), Player::Dark);
/// assert_eq!(file.solution.map(|s| s.value), Some(5)); // the stored exact value
///
/// let error = file::parse_str("bad.yaml", "to_move: purple\n").unwrap_err();
/// assert_eq!(error.line, Some(1)); // located: bad.yaml:1:10
/// # Ok::<(), file::FileError>(())
/// ```
pub fn load(path: &Path) -> Result<PositionFile, FileError> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|e| FileError::new(&name, format!("cannot read the file: {e}")))?;
    parse_str(&name, &text)
}

/// Parses and validates position file text; `name` is used in error messages.
pub fn parse_str(name: &str, text: &str) -> Result<PositionFile, FileError> {
    let errors = convert::Errors { path: name, text };
    let raw: schema::RawFile = serde_saphyr::from_str(text).map_err(|e| yaml_error(&errors, &e))?;
    let position = convert::to_position(&errors, &raw)?;
    let solution = match raw.solution {
        Some(spanned) => {
            let place = convert::spanned_place(&spanned);
            check_solution(&position, &spanned.value).map_err(|m| errors.at(place, m))?;
            Some(spanned.value)
        }
        None => None,
    };
    let puzzle = match raw.puzzle {
        Some(spanned) => {
            let place = convert::spanned_place(&spanned);
            check_puzzle(&spanned.value, solution.as_ref()).map_err(|m| errors.at(place, m))?;
            Some(spanned.value)
        }
        None => None,
    };
    Ok(PositionFile {
        position,
        meta: Metadata {
            title: raw.title,
            description: raw.description,
            tags: raw.tags,
            source: raw.source,
        },
        ruling: raw.ruling,
        solution,
        puzzle,
    })
}

/// A puzzle block must name known themes and a known difficulty, and come with an exact
/// solution.
fn check_puzzle(puzzle: &PuzzleInfo, solution: Option<&StoredSolution>) -> Result<(), String> {
    for theme in &puzzle.themes {
        theme.parse::<Theme>().map_err(|e| format!("puzzle: {e}"))?;
    }
    puzzle
        .difficulty
        .parse::<Difficulty>()
        .map_err(|e| format!("puzzle: {e}"))?;
    if puzzle.margin < 1 {
        return Err(format!(
            "puzzle: margin {} is not a margin: expected 1 or more",
            puzzle.margin
        ));
    }
    match solution {
        Some(s) if !s.wdl && s.best_move.is_some() => Ok(()),
        _ => Err(
            "puzzle: a puzzle needs a `solution:` block with an exact value and a best_move"
                .to_string(),
        ),
    }
}

/// A stored solution must be possible: a value within the bounds, a best line of legal moves
/// that starts with `best_move` and, once the game is over, ends with the stored value.
fn check_solution(position: &Position, solution: &StoredSolution) -> Result<(), String> {
    let bound = if solution.wdl {
        1
    } else {
        crate::cathedral::piece::SQUARES_PER_PLAYER as i32
    };
    if solution.value.abs() > bound {
        return Err(format!(
            "solution: value {} is out of range: expected -{bound}..{bound}",
            solution.value
        ));
    }
    if !solution.explanations.is_empty() && solution.explanations.len() != solution.best_line.len()
    {
        return Err(format!(
            "solution: {} explanations for {} moves of best_line: expected one per move",
            solution.explanations.len(),
            solution.best_line.len()
        ));
    }
    if let (Some(best), Some(first)) = (&solution.best_move, solution.best_line.first())
        && best != first
    {
        return Err(format!(
            "solution: best_move `{best}` is not the first move of best_line (`{first}`)"
        ));
    }
    let mover = position.to_move();
    let mut replay = *position;
    for (index, text) in solution.best_line.iter().enumerate() {
        let mv = crate::cathedral::legality::parse_move(&replay, text).map_err(|e| {
            format!(
                "solution: best_line move {} (`{text}`) cannot be played: {e}",
                index + 1
            )
        })?;
        replay.play(mv);
    }
    if !solution.best_line.is_empty() && replay.is_game_over() {
        let diff = replay.unplaced_squares(mover.opponent()) as i32
            - replay.unplaced_squares(mover) as i32;
        let reached = if solution.wdl { diff.signum() } else { diff };
        if reached != solution.value {
            return Err(format!(
                "solution: value is {} but best_line ends the game at {reached:+}",
                solution.value
            ));
        }
    }
    Ok(())
}

/// A YAML syntax or structure error, located, with the parser's message without its own snippet.
fn yaml_error(errors: &convert::Errors, error: &serde_saphyr::Error) -> FileError {
    let place = error
        .location()
        .map(|l| convert::place_of(&l))
        .unwrap_or((None, None));
    let rendered = error.to_string();
    // The parser renders its own excerpt after the first line; ours replaces it.
    let message = rendered
        .lines()
        .next()
        .unwrap_or("invalid YAML")
        .trim()
        .to_string();
    let mut message = message
        .strip_prefix("error: ")
        .unwrap_or(&message)
        .to_string();
    // Drop a leading "line N column M: ": the location is given in our own format.
    if let Some(rest) = message.strip_prefix("line ")
        && let Some((_, after)) = rest.split_once(": ")
        && rest.split_whitespace().nth(1) == Some("column")
    {
        message = after.to_string();
    }
    errors.at(
        place,
        format!("{message} (not a valid position file; see docs/file-format.md)"),
    )
}

/// Writes `file` to `path`. Refuses to replace an existing file unless `overwrite`.
pub fn save(path: &Path, file: &PositionFile, overwrite: bool) -> Result<(), FileError> {
    let name = path.display().to_string();
    if path.exists() && !overwrite {
        return Err(FileError::new(
            &name,
            "the file exists already; refusing to overwrite it (use --force to replace it)",
        ));
    }
    std::fs::write(path, to_yaml(file))
        .map_err(|e| FileError::new(&name, format!("cannot write the file: {e}")))
}

#[derive(Serialize)]
struct OutFile<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tags: Vec<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    source: Option<&'a str>,
    rules: OutRules,
    to_move: &'static str,
    #[serde(skip_serializing_if = "is_zero")]
    passes: u8,
    cathedral: OutCathedral,
    light: OutSide,
    dark: OutSide,
    #[serde(skip_serializing_if = "Option::is_none")]
    ruling: Option<&'a Ruling>,
    #[serde(skip_serializing_if = "Option::is_none")]
    puzzle: Option<&'a PuzzleInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    solution: Option<&'a StoredSolution>,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

#[derive(Serialize)]
#[serde(untagged)]
enum OutRules {
    Preset(&'static str),
    Options {
        capture: &'static str,
        pass: &'static str,
        first_move: &'static str,
    },
}

#[derive(Serialize)]
#[serde(untagged)]
enum OutCathedral {
    Status(&'static str),
    Cells(FlowSeq<Vec<String>>),
}

#[derive(Serialize)]
struct OutSide {
    first_move_made: bool,
    buildings: Vec<BTreeMap<&'static str, FlowSeq<Vec<String>>>>,
    hand: OrderedHand,
    territory: FlowSeq<Vec<String>>,
}

/// A hand written smallest piece first (a map keeps the order it is given).
struct OrderedHand(Vec<(&'static str, u8)>);

impl Serialize for OrderedHand {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(k, v)| (*k, *v)))
    }
}

fn cell_names(cells: Bitboard) -> FlowSeq<Vec<String>> {
    FlowSeq(
        cells
            .cells_by_file()
            .iter()
            .map(|c| c.to_string())
            .collect(),
    )
}

/// The canonical YAML text of `file`: every field explicit (hands, territory, first moves), so
/// that loading it gives back exactly the same position.
pub fn to_yaml(file: &PositionFile) -> String {
    let position = &file.position;
    let rules = position.rules();
    let side = |player: Player| {
        let side = position.side(player);
        OutSide {
            first_move_made: side.first_move_made,
            buildings: side
                .buildings
                .iter()
                .enumerate()
                .filter(|(_, cells)| cells.any())
                .map(|(slot, &cells)| {
                    BTreeMap::from([(SLOT_PIECES[slot].name(), cell_names(cells))])
                })
                .collect(),
            hand: OrderedHand(
                Piece::PLAYER_KINDS
                    .iter()
                    .filter(|p| side.hand.count(**p) > 0)
                    .map(|p| (p.name(), side.hand.count(*p)))
                    .collect(),
            ),
            territory: cell_names(side.territory),
        }
    };
    let out = OutFile {
        title: file.meta.title.as_deref(),
        description: file.meta.description.as_deref(),
        tags: file.meta.tags.iter().map(String::as_str).collect(),
        source: file.meta.source.as_deref(),
        rules: match rules.preset_name() {
            Some(name) => OutRules::Preset(name),
            None => OutRules::Options {
                capture: rules.capture.name(),
                pass: rules.pass.name(),
                first_move: rules.first_move.name(),
            },
        },
        to_move: position.to_move().name(),
        passes: position.passes(),
        cathedral: match position.cathedral_status() {
            CathedralStatus::ToPlace => OutCathedral::Status("to-place"),
            CathedralStatus::Gone => OutCathedral::Status("gone"),
            CathedralStatus::OnBoard => OutCathedral::Cells(cell_names(position.cathedral())),
        },
        light: side(Player::Light),
        dark: side(Player::Dark),
        ruling: file.ruling.as_ref(),
        puzzle: file.puzzle.as_ref(),
        solution: file.solution.as_ref(),
    };
    serde_saphyr::to_string(&out).unwrap_or_else(|e| format!("# cannot write this position: {e}\n"))
}

/// The `solution:` block alone as YAML text, ready to paste at the end of a position file. An
/// error only if the YAML writer fails, with its message.
pub fn solution_yaml(solution: &StoredSolution) -> Result<String, String> {
    #[derive(Serialize)]
    struct SolutionBlock<'a> {
        solution: &'a StoredSolution,
    }
    serde_saphyr::to_string(&SolutionBlock { solution }).map_err(|e| e.to_string())
}
