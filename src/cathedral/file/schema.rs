//! The YAML document as written, before any rule is checked. See `docs/file-format.md`.

use serde::{Deserialize, Serialize};
use serde_saphyr::Spanned;
use std::collections::BTreeMap;

/// A position file as read.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct RawFile {
    pub title: Option<String>,
    pub description: Option<String>,
    #[serde(default)]
    pub tags: Vec<String>,
    pub source: Option<String>,
    pub rules: Option<Spanned<RawRules>>,
    pub to_move: Option<Spanned<String>>,
    pub passes: Option<Spanned<u8>>,
    pub cathedral: Option<Spanned<RawCathedral>>,
    pub light: Option<RawSide>,
    pub dark: Option<RawSide>,
    pub board: Option<Spanned<String>>,
    pub legend: Option<BTreeMap<String, Spanned<String>>>,
    pub ruling: Option<Ruling>,
    pub solution: Option<Spanned<StoredSolution>>,
    pub puzzle: Option<Spanned<PuzzleInfo>>,
}

/// `classic`, `moore1978`, or a map of the three options.
#[derive(Deserialize, Debug)]
#[serde(untagged)]
pub enum RawRules {
    Preset(String),
    Options(RawRuleOptions),
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct RawRuleOptions {
    pub capture: Option<String>,
    pub pass: Option<String>,
    pub first_move: Option<String>,
}

/// The Cathedral's cells, or `to-place` / `gone`.
#[derive(Deserialize, Debug)]
#[serde(untagged)]
pub enum RawCathedral {
    Status(String),
    Cells(Vec<String>),
}

/// One player's part.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct RawSide {
    /// Each item a one-entry map: `- castle: [c3, d3, e3, c4, e4]`.
    #[serde(default)]
    pub buildings: Vec<Spanned<BTreeMap<String, Vec<String>>>>,
    pub hand: Option<Spanned<BTreeMap<String, u8>>>,
    pub territory: Option<Spanned<Vec<String>>>,
    pub first_move_made: Option<bool>,
}

/// The expected ruling of a rule case (`puzzles/rules/`): moves to play from the position and
/// what the last one must do. Checked by `tests/rule_cases.rs`; ignored by the engine.
#[derive(Deserialize, Serialize, Debug, Clone, PartialEq, Eq, Default)]
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
#[derive(Deserialize, Serialize, Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
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
#[derive(Deserialize, Serialize, Debug, Clone, PartialEq, Eq)]
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
#[derive(Deserialize, Serialize, Debug, Clone, PartialEq, Eq, Default)]
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
    /// What each move of `best_line` does, in words (`explain`), one entry per move.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub explanations: Vec<String>,
}

/// A teaching puzzle's metadata, as `cathedral generate` writes it (see `docs/puzzles.md`). The
/// answer itself is the `solution:` block.
#[derive(Deserialize, Serialize, Debug, Clone, PartialEq, Eq, Default)]
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
}

fn is_false(b: &bool) -> bool {
    !*b
}
