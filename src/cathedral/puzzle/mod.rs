//! Teaching puzzles: late positions with exactly one best move, found by playing policy games
//! and solving them exactly (see `docs/puzzles.md`).
//!
//! - `criteria`: the criteria (one best move by a margin, not the greedy move) on one position:
//!   [`analyse`]
//! - `greedy`: the simple player whose choice a puzzle must not reward: [`greedy_choices`]
//! - `themes`: themes detected from the solution
//! - `difficulty`: the difficulty score from measured [`Features`]
//! - `from_game`: puzzles from played games, the move played as the tempting wrong move:
//!   [`from_games_each`]
//! - `generate`: seeded, parallel, deterministic generation into puzzle files: [`generate()`]
//! - `check`: is a move the answer, and if not, the refutation: [`check()`]
//! - `answer`: the answer key, the most tempting wrong move refuted: [`wrong_try`]
//! - `index`: the README index of a puzzle directory: [`index_markdown`]
//! - `refute`: the tempting wrong move stored in the file: [`refute::with_tempting`]
//! - `rating`: Glicko-2 ratings of puzzles and learners, measured by simulated solvers:
//!   [`rating::rate_puzzle`], [`rating::update`]
//!
//! - `sheet`: a set of puzzles as a printable HTML worksheet, 4 or 6 a page on A4 or Letter:
//!   [`sheet_html`]; a default mix of themes: [`theme_mix`]

use crate::present::words::count;

mod answer;
mod check;
mod criteria;
mod difficulty;
mod from_game;
mod generate;
mod greedy;
mod index;
pub mod rating;
pub mod refute;
mod sheet;
mod themes;

pub use crate::cathedral::file::{Difficulty, EASY_MAX, MEDIUM_MAX, ParseNameError, Theme};
pub use answer::{TryKind, WrongTry, stored_check, stored_try, tempting_block, wrong_try};
pub use check::{CheckReport, CheckStage, check, check_watched};
pub use criteria::{AnalyseOptions, Analysis, Reject, analyse, solve_line, solve_line_watched};
pub use difficulty::Features;
pub use from_game::{
    FROM_GAME_BUILDINGS, FromGameEvent, FromGameOptions, FromGameProgress, FromGameSummary,
    GamePuzzle, MoveReport as GameMoveReport, MoveVerdict, from_games, from_games_each,
    from_games_judged, game_puzzle_file, played_words,
};
pub use generate::{
    GamePlayers, GenerateEvent, GenerateOptions, GenerateProgress, GenerateSummary, Generated,
    candidate_position, generate, generate_each, puzzle_file, theme_hint,
};
pub use greedy::{choices as greedy_choices, key as greedy_key};
pub use index::{MARKER, index_markdown};
pub use sheet::{
    MIX_ORDER, PAGE_MARGIN_MM, Paper, PerPage, SheetOptions, SheetPuzzle, answer_idea, sheet_html,
    sheet_question, theme_mix,
};
pub use themes::{
    Refutation, blocked_pieces, detect as detect_themes, explain_line, fits_somewhere, idea_title,
};
/// The question of a puzzle with exact value `value` for `mover`: "Dark to play and win by 3".
pub fn question(mover: crate::Player, value: i32) -> String {
    let who = mover.title();
    match value {
        v if v > 0 => format!("{who} to play and win by {}", count(v, "square")),
        0 => format!("{who} to play and draw"),
        v => format!("{who} to play and lose by only {}", count(-v, "square")),
    }
}
