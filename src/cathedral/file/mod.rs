//! Position files: YAML documents holding a position, its rule variant and free metadata.
//! The format is documented in `docs/file-format.md`.

mod convert;
mod diagram;
mod import;
mod located;
mod puzzle_terms;
mod record;
mod schema;
mod shape;
mod stored;
mod study;
mod yaml;

pub use crate::files::write_atomically;
pub use crate::files::{Excerpt, FileError};
pub use convert::derived_territory;
pub use import::{records_from_independent, records_from_move_list};
pub use puzzle_terms::{Difficulty, EASY_MAX, MEDIUM_MAX, ParseNameError, Theme};
pub use record::{
    GameRecord, MAX_VARIATION_DEPTH, Mark, MarkError, RecordedMove, load_records, parse_records,
    records_to_yaml, variation_name,
};
pub use shape::{SHAPE_FORM, Shape, ShapeColour, ShapeError, check_shapes};
pub use stored::{
    PuzzleGame, PuzzleInfo, PuzzleTempting, Ruling, RulingBuilding, RulingNearMiss, StoredBounds,
    StoredGlicko, StoredSolution,
};
pub use study::{
    Candidate, Chapter, Location, Question, Study, load_study, parse_study, study_from_record,
    study_to_yaml,
};

use crate::cathedral::bitboard::Bitboard;
use crate::cathedral::piece::Piece;
use crate::cathedral::player::Player;
use crate::cathedral::position::{CathedralStatus, Position, SLOT_PIECES};
use crate::files::too_large;
use crate::present::words::count;
use serde::Serialize;
use serde_saphyr::FlowSeq;
use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;

pub use crate::files::{MAX_FILE_BYTES, read_file, read_text};

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
    /// What a solve that did not finish proved of the value.
    pub bounds: Option<StoredBounds>,
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
            bounds: None,
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
    let (name, text) = read_file(path)?;
    parse_str(&name, &text)
}

/// Reads and validates a position file from `reader` (standard input, say), reading at most
/// [`MAX_FILE_BYTES`] and one byte more: larger input is refused. `name` is used in error
/// messages (`<stdin>`).
///
/// ```
/// use cathedral::file;
///
/// let file = file::load_from("<stdin>", "to_move: light\n".as_bytes())?;
/// assert!(file.position.cathedral_to_place());
///
/// // Endless input is refused after the limit, not read for ever.
/// let error = file::load_from("<stdin>", std::io::repeat(b'#')).unwrap_err();
/// assert!(error.message.contains("1 MiB"));
/// # Ok::<(), file::FileError>(())
/// ```
pub fn load_from(name: &str, reader: impl Read) -> Result<PositionFile, FileError> {
    parse_str(name, &read_text(name, reader)?)
}

/// Parses and validates position file text; `name` is used in error messages.
pub fn parse_str(name: &str, text: &str) -> Result<PositionFile, FileError> {
    if text.len() > MAX_FILE_BYTES {
        return Err(too_large(name));
    }
    let errors = located::Errors { path: name, text };
    let tree = yaml::parse(&errors, text, MAX_FILE_BYTES)?;
    let raw = schema::read_file(&errors, &tree)?;
    drop(tree);
    let position = convert::to_position(&errors, &raw)?;
    let solution = match raw.solution {
        Some(raw_solution) => {
            check_solution(&position, &raw_solution).map_err(|(p, m)| errors.at(p, m))?;
            Some(raw_solution.solution)
        }
        None => None,
    };
    let bounds = match raw.bounds {
        Some(raw_bounds) => {
            check_bounds(&raw_bounds, solution.as_ref())
                .map_err(|m| errors.at(raw_bounds.place, m))?;
            Some(raw_bounds.bounds)
        }
        None => None,
    };
    let puzzle = match raw.puzzle {
        Some(raw_puzzle) => {
            check_puzzle(&raw_puzzle, solution.as_ref()).map_err(|(p, m)| errors.at(p, m))?;
            check_puzzle_game(&position, &raw_puzzle, solution.as_ref())
                .map_err(|(p, m)| errors.at(p, m))?;
            Some(raw_puzzle.puzzle)
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
        bounds,
        puzzle,
    })
}

/// Bounds must be in range and in order, and agree with the file's solution: an exact value
/// inside them, a win, draw or loss they allow.
fn check_bounds(raw: &schema::RawBounds, solution: Option<&StoredSolution>) -> Result<(), String> {
    let (lower, upper) = (raw.bounds.lower, raw.bounds.upper);
    let most = crate::cathedral::piece::SQUARES_PER_PLAYER as i32;
    if lower.abs() > most || upper.abs() > most {
        return Err(format!(
            "bounds: {lower}..{upper} is out of range: expected bounds within -{most}..{most}"
        ));
    }
    if lower > upper {
        return Err(format!(
            "bounds: lower {lower} is above upper {upper}: expected lower <= upper"
        ));
    }
    if let Some(solution) = solution {
        // A win/draw/loss value stands for every value of its sign.
        let (low, high) = match (solution.wdl, solution.value.signum()) {
            (false, _) => (solution.value, solution.value),
            (true, 1) => (1, most),
            (true, -1) => (-most, -1),
            (true, _) => (0, 0),
        };
        if high < lower || low > upper {
            return Err(format!(
                "bounds: {lower}..{upper} contradict the solution's value {}{}: expected bounds that hold it",
                solution.value,
                if solution.wdl { " (win/draw/loss)" } else { "" }
            ));
        }
    }
    Ok(())
}

/// A puzzle block must name known themes and a known difficulty, and come with an exact
/// solution.
fn check_puzzle(
    raw: &schema::RawPuzzle,
    solution: Option<&StoredSolution>,
) -> Result<(), (located::Place, String)> {
    let puzzle = &raw.puzzle;
    for (theme, &place) in puzzle.themes.iter().zip(&raw.themes) {
        theme
            .parse::<Theme>()
            .map_err(|e| (place, format!("puzzle: {e}")))?;
    }
    puzzle
        .difficulty
        .parse::<Difficulty>()
        .map_err(|e| (raw.difficulty, format!("puzzle: {e}")))?;
    if puzzle.margin < 1 {
        return Err((
            raw.margin,
            format!(
                "puzzle: margin {} is not a margin: expected 1 or more",
                puzzle.margin
            ),
        ));
    }
    match solution {
        Some(s) if !s.wdl && s.best_move.is_some() => Ok(()),
        _ => Err((
            raw.place,
            "puzzle: a puzzle needs a `solution:` block with an exact value and a best_move"
                .to_string(),
        )),
    }
}

/// A puzzle's `game:` block must be possible: the move played legal in the position, its value
/// within the bounds and no better than the solution's, its refutation legal after it and, once
/// the game is over, ending with that value. Its `tempting:` block the same, and more: the
/// tempting move is wrong (its value below the solution's) and its refutation ends the game.
fn check_puzzle_game(
    position: &Position,
    raw: &schema::RawPuzzle,
    solution: Option<&StoredSolution>,
) -> Result<(), (located::Place, String)> {
    if let (Some(game), Some(places)) = (&raw.puzzle.game, &raw.game) {
        check_stored_line(
            position,
            solution,
            StoredLine {
                block: "puzzle.game",
                move_field: "played",
                value_field: "played_value",
                mv: &game.played,
                value: game.played_value,
                refutation: &game.refutation,
                wrong: false,
            },
            places,
        )?;
    }
    if let (Some(tempting), Some(places)) = (&raw.puzzle.tempting, &raw.tempting) {
        check_stored_line(
            position,
            solution,
            StoredLine {
                block: "puzzle.tempting",
                move_field: "move",
                value_field: "value",
                mv: &tempting.played,
                value: tempting.value,
                refutation: &tempting.refutation,
                wrong: true,
            },
            places,
        )?;
    }
    Ok(())
}

/// A move stored in a puzzle block with its value and refutation, and the block's field names.
struct StoredLine<'a> {
    block: &'a str,
    move_field: &'a str,
    value_field: &'a str,
    mv: &'a str,
    value: i32,
    refutation: &'a [String],
    /// The move must be wrong (below the solution's value), its refutation end the game.
    wrong: bool,
}

fn check_stored_line(
    position: &Position,
    solution: Option<&StoredSolution>,
    line: StoredLine,
    places: &schema::RawPuzzleGame,
) -> Result<(), (located::Place, String)> {
    let StoredLine {
        block,
        move_field,
        value_field,
        ..
    } = line;
    let parse = crate::cathedral::legality::parse_move;
    let played = parse(position, line.mv).map_err(|e| {
        (
            places.played,
            format!(
                "{block}: {move_field} `{}` cannot be played: {}",
                line.mv,
                e.reason()
            ),
        )
    })?;
    let bound = crate::cathedral::piece::SQUARES_PER_PLAYER as i32;
    if line.value.abs() > bound {
        return Err((
            places.played_value,
            format!(
                "{block}: {value_field} {} is out of range: expected -{bound}..{bound}",
                line.value
            ),
        ));
    }
    if let Some(s) = solution
        && line.value > s.value
    {
        return Err((
            places.played_value,
            format!(
                "{block}: {value_field} {} is better than the solution's value {}",
                line.value, s.value
            ),
        ));
    }
    if let Some(s) = solution
        && line.wrong
        && line.value == s.value
    {
        return Err((
            places.played_value,
            format!(
                "{block}: {value_field} {} is the solution's value: a tempting move must lose squares",
                line.value
            ),
        ));
    }
    let mover = position.to_move();
    let mut replay = *position;
    replay.play(played);
    for (index, text) in line.refutation.iter().enumerate() {
        let mv = parse(&replay, text).map_err(|e| {
            (
                places
                    .refutation
                    .get(index)
                    .copied()
                    .unwrap_or(places.place),
                format!(
                    "{block}: refutation move {} (`{text}`) cannot be played: {}",
                    index + 1,
                    e.reason()
                ),
            )
        })?;
        replay.play(mv);
    }
    if replay.is_game_over() {
        let reached = replay.unplaced_squares(mover.opponent()) as i32
            - replay.unplaced_squares(mover) as i32;
        if reached != line.value {
            return Err((
                places.played_value,
                format!(
                    "{block}: {value_field} is {} but the refutation ends the game at {reached:+}",
                    line.value
                ),
            ));
        }
    } else if line.wrong {
        return Err((
            places.refutation.last().copied().unwrap_or(places.place),
            format!("{block}: the refutation stops before the end of the game"),
        ));
    }
    Ok(())
}

/// A stored solution must be possible: a value within the bounds, a best line of legal moves
/// that starts with `best_move` and, once the game is over, ends with the stored value.
fn check_solution(
    position: &Position,
    raw: &schema::RawSolution,
) -> Result<(), (located::Place, String)> {
    let solution = &raw.solution;
    let bound = if solution.wdl {
        1
    } else {
        crate::cathedral::piece::SQUARES_PER_PLAYER as i32
    };
    if solution.value.abs() > bound {
        return Err((
            raw.value,
            format!(
                "solution: value {} is out of range: expected -{bound}..{bound}",
                solution.value
            ),
        ));
    }
    if !solution.explanations.is_empty() && solution.explanations.len() != solution.best_line.len()
    {
        return Err((
            raw.explanations,
            format!(
                "solution: {} for {} of best_line: expected one per move",
                count(solution.explanations.len() as i64, "explanation"),
                count(solution.best_line.len() as i64, "move")
            ),
        ));
    }
    if let (Some(best), Some(first)) = (&solution.best_move, solution.best_line.first())
        && best != first
    {
        return Err((
            raw.best_move,
            format!("solution: best_move `{best}` is not the first move of best_line (`{first}`)"),
        ));
    }
    let mover = position.to_move();
    let mut replay = *position;
    for (index, text) in solution.best_line.iter().enumerate() {
        let mv = crate::cathedral::legality::parse_move(&replay, text).map_err(|e| {
            (
                raw.best_line.get(index).copied().unwrap_or(raw.place),
                format!(
                    "solution: best_line move {} (`{text}`) cannot be played: {}",
                    index + 1,
                    e.reason()
                ),
            )
        })?;
        replay.play(mv);
    }
    check_root_values(position, raw, bound)?;
    if !solution.best_line.is_empty() && replay.is_game_over() {
        let diff = replay.unplaced_squares(mover.opponent()) as i32
            - replay.unplaced_squares(mover) as i32;
        let reached = if solution.wdl { diff.signum() } else { diff };
        if reached != solution.value {
            return Err((
                raw.value,
                format!(
                    "solution: value is {} but best_line ends the game at {reached:+}",
                    solution.value
                ),
            ));
        }
    }
    Ok(())
}

/// Stored root values must name every legal move once, each within range, and their best must
/// be the stored value (and the best move's).
fn check_root_values(
    position: &Position,
    raw: &schema::RawSolution,
    bound: i32,
) -> Result<(), (located::Place, String)> {
    let solution = &raw.solution;
    if solution.root_values.is_empty() {
        return Ok(());
    }
    let mut legal = crate::cathedral::moves::MoveList::default();
    position.legal_moves(&mut legal);
    let mut seen = std::collections::HashSet::new();
    // The map is sorted by text, so each key's place is looked up by its text.
    let place_of = |text: &str| {
        raw.root_keys
            .iter()
            .find(|(t, _)| t == text)
            .map_or(raw.root_values, |(_, place)| *place)
    };
    for (text, &value) in &solution.root_values {
        let mv = crate::cathedral::legality::parse_move(position, text).map_err(|e| {
            (
                place_of(text),
                format!(
                    "solution: root_values move `{text}` cannot be played: {}",
                    e.reason()
                ),
            )
        })?;
        if !seen.insert(mv) {
            return Err((
                place_of(text),
                format!("solution: root_values names the move `{text}` twice"),
            ));
        }
        if value.abs() > bound {
            return Err((
                place_of(text),
                format!(
                    "solution: root_values gives `{text}` the value {value}, out of range: expected -{bound}..{bound}"
                ),
            ));
        }
    }
    if seen.len() != legal.len() {
        return Err((
            raw.root_values,
            format!(
                "solution: root_values has {}, but the position has {}: expected every one",
                count(seen.len() as i64, "move"),
                count(legal.len() as i64, "legal move")
            ),
        ));
    }
    let best = solution.root_values.values().copied().max().unwrap_or(0);
    if best != solution.value {
        return Err((
            raw.value,
            format!(
                "solution: value is {} but the best of root_values is {best}",
                solution.value
            ),
        ));
    }
    if let Some(best_move) = &solution.best_move
        && let Some(&value) = solution.root_values.get(best_move)
        && value != solution.value
    {
        return Err((
            raw.best_move,
            format!(
                "solution: best_move `{best_move}` has the root value {value}, not the value {}",
                solution.value
            ),
        ));
    }
    Ok(())
}

/// Writes `file` to `path`, atomically. Refuses to replace an existing file unless `overwrite`.
pub fn save(path: &Path, file: &PositionFile, overwrite: bool) -> Result<(), FileError> {
    write_atomically(path, to_yaml(file).as_bytes(), overwrite)
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
    #[serde(skip_serializing_if = "Option::is_none")]
    bounds: Option<&'a StoredBounds>,
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
        cathedral: &'static str,
        claims: &'static str,
    },
}

#[derive(Serialize)]
#[serde(untagged)]
enum OutCathedral {
    Status(&'static str),
    Cells(FlowSeq<Vec<String>>),
}

impl OutRules {
    /// The preset's name, or the five options.
    fn of(rules: crate::cathedral::rules::Rules) -> OutRules {
        match rules.preset_name() {
            Some(name) => OutRules::Preset(name),
            None => OutRules::Options {
                capture: rules.capture.name(),
                pass: rules.pass.name(),
                first_move: rules.first_move.name(),
                cathedral: rules.cathedral.name(),
                claims: rules.claims.name(),
            },
        }
    }
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
    serde_saphyr::to_string(&out_file(file))
        .unwrap_or_else(|e| format!("# cannot write this position: {e}\n"))
}

/// The position file as the YAML writer serialises it (also embedded in game records).
fn out_file(file: &PositionFile) -> OutFile<'_> {
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
    OutFile {
        title: file.meta.title.as_deref(),
        description: file.meta.description.as_deref(),
        tags: file.meta.tags.iter().map(String::as_str).collect(),
        source: file.meta.source.as_deref(),
        rules: OutRules::of(rules),
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
        bounds: file.bounds.as_ref(),
    }
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

/// The `bounds:` block alone as YAML text, as [`solution_yaml`] writes the solution's.
pub fn bounds_yaml(bounds: &StoredBounds) -> Result<String, String> {
    #[derive(Serialize)]
    struct BoundsBlock<'a> {
        bounds: &'a StoredBounds,
    }
    serde_saphyr::to_string(&BoundsBlock { bounds }).map_err(|e| e.to_string())
}
