//! What a position file stores beside the position, as the library holds it once read: a rule
//! case's ruling, a solve's `solution:` block and proven bounds, a puzzle's `puzzle:` block
//! (themes, difficulty, the game it came from, its tempting wrong move, its Glicko-2 rating).
//! `schema.rs` reads them from the YAML with every error located; `mod.rs` writes them back
//! (`Serialize`, in the file format's field names).

use serde::Serialize;
use std::collections::BTreeMap;

/// The expected ruling of a rule case (`puzzles/rules/`): moves to play from the position and
/// what the last one must do. Checked by `tests/rule_cases.rs`; ignored by the engine.
#[derive(Serialize, Debug, Clone, PartialEq, Eq, Default)]
#[serde(deny_unknown_fields)]
pub struct Ruling {
    /// What the case shows, in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Moves in notation, played in order; the expectations are about the last one.
    pub moves: Vec<String>,
    /// Every cell the last move claimed (the union of its regions), or `[]` for none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claimed: Option<Vec<String>>,
    /// The buildings the last move captured, or `[]` for none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub captured: Option<Vec<RulingBuilding>>,
    /// Near misses the explanation of the last move must contain.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub near_misses: Vec<RulingNearMiss>,
    /// The last move must be refused for this reason (see `legality::IllegalMove::code`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub illegal: Option<String>,
    /// Whether the game is over after the moves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game_over: Option<bool>,
    /// Unplaced squares after the moves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unplaced_squares: Option<BTreeMap<String, u32>>,
    /// Whose turn it is after the moves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to_move: Option<String>,
    /// Where the Cathedral is after the moves: `on-board`, `gone` or `to-place`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cathedral: Option<String>,
    /// Number of legal moves of the side to move after the moves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub legal_moves: Option<u32>,
}

/// A building a rule case expects the last move to capture.
#[derive(Serialize, Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
#[serde(deny_unknown_fields)]
pub struct RulingBuilding {
    /// `light`, `dark` or `cathedral`.
    pub player: String,
    /// The piece's lower-case name: `castle`.
    pub piece: String,
    /// The cells it covered, written like `c3`.
    pub cells: Vec<String>,
}

/// A near miss a rule case expects in the explanation of the last move.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct RulingNearMiss {
    /// `diagonal-contact`, `several-buildings`, `cathedral-wall`, `first-move` or `spared`.
    pub reason: String,
    /// The cells that were not claimed.
    pub cells: Vec<String>,
}

/// The exact value of the position with a best line, as `cathedral solve --yaml` prints it and
/// `cathedral bench` checks it. Values are from the side to move's view: the opponent's final
/// unplaced squares minus one's own.
#[derive(Serialize, Debug, Clone, PartialEq, Default)]
#[serde(deny_unknown_fields)]
pub struct StoredSolution {
    /// The exact value: +3 means the side to move wins by 3 squares.
    pub value: i32,
    /// Whether `value` is only win/draw/loss (-1, 0, +1), from `cathedral solve --wdl`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub wdl: bool,
    /// The first move of `best_line`, in notation with the player.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_move: Option<String>,
    /// A line of best play from the position to the end of the game.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub best_line: Vec<String>,
    /// Nodes the solver searched (informative only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// Seconds the solve took (informative only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seconds: Option<f64>,
    /// What each move of `best_line` does, in words (`explain`), one entry per move.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub explanations: Vec<String>,
    /// The exact value after every legal move, from the side to move's view, by the move in
    /// notation with the player (empty: not stored). Their best is `value`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub root_values: BTreeMap<String, i32>,
}

/// What a solve that did not finish proved of the value: it lies in `lower..=upper` (the side
/// to move's view, in squares), as `cathedral bench --record` writes it for a position it could
/// not solve (`docs/file-format.md`).
#[derive(Serialize, Debug, Clone, PartialEq, Default)]
#[serde(deny_unknown_fields)]
pub struct StoredBounds {
    /// The value is at least this.
    pub lower: i32,
    /// The value is at most this.
    pub upper: i32,
    /// Nodes the solve searched (informative only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// Seconds the solve ran (informative only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seconds: Option<f64>,
}

// The reader refuses seconds that are not a finite number, so the values compare as equals.
impl Eq for StoredBounds {}

/// A teaching puzzle's metadata, as `cathedral generate` writes it (see `docs/puzzles.md`). The
/// answer itself is the `solution:` block.
#[derive(Serialize, Debug, Clone, PartialEq, Eq, Default)]
#[serde(deny_unknown_fields)]
pub struct PuzzleInfo {
    /// The question under the diagram: "Dark to play and win by 3".
    pub question: String,
    /// Themes detected from the solution: `capture`, `cathedral-capture`, `claim`, `block`,
    /// `diagonal-trap`, `tempo`, `endgame-count`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub themes: Vec<String>,
    /// `easy`, `medium` or `hard`.
    pub difficulty: String,
    /// The difficulty score the level comes from (`docs/puzzles.md`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating: Option<u32>,
    /// Solver nodes spent analysing the position when the puzzle was rated: the rating's effort
    /// term. Recorded because a later, faster solver spends fewer nodes on the same position.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub effort: Option<u64>,
    /// The best move beats every other move by at least this many squares.
    pub margin: i32,
    /// The seed of the policy game the position comes from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// For a puzzle from a played game (`cathedral generate --from`): the game, the move and
    /// what was played there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<PuzzleGame>,
    /// The most tempting wrong move, its exact value and its refutation, proven by the solver
    /// (`cathedral puzzles refute`, `cathedral generate`); a puzzle from a game has the move
    /// played there instead (`game`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tempting: Option<PuzzleTempting>,
    /// Moves other than the answer within 1 square of its value (`cathedral puzzles rate`): a
    /// feature of the puzzle's difficulty rating.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub near_best: Option<u32>,
    /// The puzzle's Glicko-2 rating, measured by `cathedral puzzles rate` (`docs/puzzles.md`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub glicko: Option<StoredGlicko>,
}

/// Where a puzzle from a played game comes from, and the move played there: the puzzle's
/// "tempting wrong move" when it lost squares (or the answer itself, found over the board).
#[derive(Serialize, Debug, Clone, PartialEq, Eq, Default)]
#[serde(deny_unknown_fields)]
pub struct PuzzleGame {
    /// The game's number in its record (1 = the first game).
    pub number: u32,
    /// The number of the move to find, counted as in the record (every move, passes
    /// included, from 1).
    #[serde(rename = "move")]
    pub move_number: u32,
    /// The record's event.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    /// The record's round.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<String>,
    /// Who played Light.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub light: Option<String>,
    /// Who played Dark.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dark: Option<String>,
    /// The move played in the game, in notation with the player.
    pub played: String,
    /// Its exact value, from the mover's view: the solution's value minus the squares it lost.
    pub played_value: i32,
    /// Best play after it (the opponent first) to the end of the game.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub refutation: Vec<String>,
}

/// A puzzle's most tempting wrong move and how it is refuted (the `puzzle.tempting:` block),
/// stored so that worksheets and trainers show it without solving.
#[derive(Serialize, Debug, Clone, PartialEq, Eq, Default)]
#[serde(deny_unknown_fields)]
pub struct PuzzleTempting {
    /// Why it is the move shown: `greedy` (the biggest building claiming the most squares) or
    /// `closest` (the wrong move that loses least).
    pub kind: String,
    /// The move, in notation with the player.
    #[serde(rename = "move")]
    pub played: String,
    /// Its exact value, from the mover's view: below the solution's value.
    pub value: i32,
    /// Best play after it (the opponent first) to the end of the game.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub refutation: Vec<String>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// A Glicko-2 rating as stored in a puzzle file: the rating and its deviation in whole points,
/// the volatility as written.
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Default)]
#[serde(deny_unknown_fields)]
pub struct StoredGlicko {
    /// 0 to 4000 (the scale's centre is 1500).
    pub rating: u32,
    /// 1 to 350.
    pub deviation: u32,
    /// Above 0, at most 1.
    pub volatility: f64,
}

// The reader refuses a volatility that is not a number, so the values compare as equals.
impl Eq for StoredGlicko {}

// The reader refuses seconds that are not a finite number, so the values compare as equals.
impl Eq for StoredSolution {}
