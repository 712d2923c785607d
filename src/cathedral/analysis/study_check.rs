//! Checking a study (`cathedral study check`, `docs/study-format.md`): every "find the move"
//! question's accepted answers proven best by the exact solver, and every "which cells", "which
//! moves are legal" and "who won" question answered by the rules engine, so that a lesson cannot
//! teach a wrong move or a wrong rule.

use crate::boardgame::{SolveOptions, solve};
use crate::cathedral::bitboard::Bitboard;
use crate::cathedral::file::{Location, Question, Study};
use crate::cathedral::legality::resolve;
use crate::cathedral::notation::format_move_with_player;
use serde::Serialize;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The most best moves a "find the move" question may leave unaccepted: one that accepts a
/// few of many equally best moves is refused (`docs/study-format.md`).
pub const MAX_UNACCEPTED_BEST: usize = 3;

/// How long each proof may take, and the solver's resources.
#[derive(Clone, Debug)]
pub struct StudyCheckOptions {
    /// The most a chapter's proof may take.
    pub time_limit: Duration,
    /// Solver threads.
    pub threads: usize,
    /// Solver table memory, in MiB.
    pub tt_mb: usize,
    /// Set to stop.
    pub stop: Arc<AtomicBool>,
}

impl Default for StudyCheckOptions {
    fn default() -> Self {
        StudyCheckOptions {
            time_limit: Duration::from_secs(60),
            threads: 1,
            tt_mb: 64,
            stop: Arc::new(AtomicBool::new(false)),
        }
    }
}

/// Something wrong in a study, where it was written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Problem {
    /// Where: the answer or the question at fault.
    pub location: Location,
    /// What is wrong, in the game's words.
    pub message: String,
    /// Whether the fault may only be a lack of time: nothing proven wrong yet.
    pub unproven: bool,
}

/// What the check found of one chapter.
#[derive(Clone, Debug, Serialize)]
pub struct ChapterCheck {
    /// The chapter's number, from 1.
    pub chapter: usize,
    /// Its title.
    pub title: String,
    /// `move`, `owned`, or `none` (no question).
    pub question: &'static str,
    /// What was proven, in words ("Dark wins by 3; 2 best moves, both accepted").
    pub verdict: String,
    /// The proven value of the position, side to move's view, for a "find the move" question.
    pub value: Option<i32>,
    /// Best moves the question does not accept (a learner who plays one is told it is also
    /// best).
    pub also_best: Vec<String>,
    /// How many moves are best, accepted or not (0 without a "find the move" question or a
    /// proof).
    pub best_moves: usize,
    /// What is wrong; empty when the chapter holds.
    pub problems: Vec<Problem>,
}

/// Checks every chapter of `study`.
pub fn check_study(study: &Study, options: &StudyCheckOptions) -> Vec<ChapterCheck> {
    study
        .chapters
        .iter()
        .enumerate()
        .map(|(i, chapter)| {
            let mut check = ChapterCheck {
                chapter: i + 1,
                title: chapter.title.clone(),
                question: "none",
                verdict: "no question".to_string(),
                value: None,
                also_best: Vec::new(),
                best_moves: 0,
                problems: Vec::new(),
            };
            match &chapter.question {
                None => {}
                Some(Question::FindMove { answers }) => {
                    check.question = "move";
                    find_move(chapter, answers, options, &mut check);
                }
                Some(Question::Owned {
                    after,
                    player,
                    cells,
                    location,
                }) => {
                    check.question = "owned";
                    let mut position = chapter.position;
                    position.play(*after);
                    let owned = position.side(*player).territory;
                    let missing = *cells & !owned;
                    let extra = owned & !*cells;
                    if missing.any() || extra.any() {
                        let mut message = format!(
                            "after {}, {} owns {}",
                            format_move_with_player(&chapter.position, *after),
                            player.title(),
                            cell_list(owned)
                        );
                        if missing.any() {
                            message.push_str(&format!("; not {}", cell_list(missing)));
                        }
                        if extra.any() {
                            message
                                .push_str(&format!("; the answer leaves out {}", cell_list(extra)));
                        }
                        check.problems.push(Problem {
                            location: *location,
                            message,
                            unproven: false,
                        });
                    }
                    check.verdict = format!(
                        "{} owns {} cell{} after the move (rules engine)",
                        player.title(),
                        owned.count(),
                        if owned.count() == 1 { "" } else { "s" }
                    );
                }
                Some(Question::Legal { moves }) => {
                    check.question = "legal";
                    let position = &chapter.position;
                    let mut legal = 0;
                    for candidate in moves {
                        let verdict = resolve(position, &candidate.parsed);
                        legal += usize::from(verdict.is_ok());
                        match (&verdict, candidate.legal) {
                            (Ok(_), false) => check.problems.push(Problem {
                                location: candidate.location,
                                message: format!(
                                    "`{}` is legal here, but the study lists it under `illegal:`",
                                    candidate.text
                                ),
                                unproven: false,
                            }),
                            (Err(why), true) => check.problems.push(Problem {
                                location: candidate.location,
                                message: format!(
                                    "`{}` is not legal here ({why}), but the study lists it under `legal:`",
                                    candidate.text
                                ),
                                unproven: false,
                            }),
                            _ => {}
                        }
                    }
                    check.verdict = format!(
                        "{legal} of {} legal (rules engine)",
                        crate::present::words::count(moves.len() as i64, "move")
                    );
                }
                Some(Question::Result {
                    winner,
                    margin,
                    location,
                }) => {
                    check.question = "result";
                    let (truth, by) = final_result(&chapter.position);
                    if truth != *winner || by != *margin {
                        check.problems.push(Problem {
                            location: *location,
                            message: format!(
                                "the game ends {}; the study says {}",
                                result_words(truth, by),
                                result_words(*winner, *margin)
                            ),
                            unproven: false,
                        });
                    }
                    check.verdict = format!("{} (rules engine)", result_words(truth, by));
                }
            }
            check
        })
        .collect()
}

/// The result of a finished game by the rules: the player with fewer squares left unplaced
/// wins by the difference; `None` for a draw.
pub fn final_result(position: &crate::Position) -> (Option<crate::Player>, u32) {
    let light = position.unplaced_squares(crate::Player::Light);
    let dark = position.unplaced_squares(crate::Player::Dark);
    match light.cmp(&dark) {
        std::cmp::Ordering::Less => (Some(crate::Player::Light), dark - light),
        std::cmp::Ordering::Greater => (Some(crate::Player::Dark), light - dark),
        std::cmp::Ordering::Equal => (None, 0),
    }
}

/// "Light wins by 3 squares", "a draw".
pub fn result_words(winner: Option<crate::Player>, margin: u32) -> String {
    match winner {
        Some(p) => format!(
            "{} wins by {margin} square{}",
            p.title(),
            if margin == 1 { "" } else { "s" }
        ),
        None => "a draw".to_string(),
    }
}

fn cell_list(cells: Bitboard) -> String {
    if cells.is_empty() {
        return "no cell".to_string();
    }
    cells
        .cells_by_file()
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Proves the chapter's position with every root move's value; each accepted answer must be
/// one of the best.
fn find_move(
    chapter: &crate::cathedral::file::Chapter,
    answers: &[(crate::cathedral::moves::Move, Location)],
    options: &StudyCheckOptions,
    check: &mut ChapterCheck,
) {
    let position = &chapter.position;
    let at_question = answers.first().map(|a| a.1).unwrap_or(chapter.location);
    let solution = solve(
        position,
        &SolveOptions {
            threads: options.threads,
            tt_mb: options.tt_mb,
            time_limit: Some(options.time_limit),
            root_values: true,
            stop: Arc::clone(&options.stop),
            ..SolveOptions::default()
        },
        &|_| {},
    );
    let Some(value) = solution.value() else {
        check.verdict = "not proven".to_string();
        check.problems.push(Problem {
            location: at_question,
            message: format!(
                "the position is not proven within {} s (its value lies in {}..{}): a question needs a proven answer; give more time (--time-limit) or a later position",
                options.time_limit.as_secs(),
                solution.lower,
                solution.upper
            ),
            unproven: true,
        });
        return;
    };
    check.value = Some(value);
    let mut best = Vec::new();
    for root in &solution.root_moves {
        if root.is_exact() && root.lower == value {
            best.push(root.mv);
        }
    }
    for (mv, location) in answers {
        let text = format_move_with_player(position, *mv);
        match solution.root_moves.iter().find(|r| r.mv == *mv) {
            Some(root) if root.is_exact() && root.lower == value => {}
            Some(root) if root.upper < value => check.problems.push(Problem {
                location: *location,
                message: format!(
                    "`{text}` is not a best move: it gives up {} square{} (the best keeps {}, this one at most {})",
                    value - root.upper,
                    if value - root.upper == 1 { "" } else { "s" },
                    signed(value),
                    signed(root.upper)
                ),
                unproven: false,
            }),
            _ => check.problems.push(Problem {
                location: *location,
                message: format!(
                    "`{text}` is not proven best within {} s: give more time (--time-limit)",
                    options.time_limit.as_secs()
                ),
                unproven: true,
            }),
        }
    }
    // In the order the rules list the moves, not the solver's: the same list on every run.
    let mut legal = crate::cathedral::moves::MoveList::default();
    position.legal_moves(&mut legal);
    check.also_best = legal
        .iter()
        .filter(|mv| best.contains(*mv) && !answers.iter().any(|(a, _)| a == *mv))
        .map(|mv| format_move_with_player(position, *mv))
        .collect();
    check.best_moves = best.len();
    // A question that accepts a few of many equally best moves teaches nothing: the learner
    // cannot tell the accepted ones from the others.
    if check.also_best.len() > MAX_UNACCEPTED_BEST {
        let accepted = best.len() - check.also_best.len();
        check.problems.push(Problem {
            location: at_question,
            message: format!(
                "the question accepts {accepted} of {} equally best moves: accept every best move or choose a position where the best move stands out (a question may leave at most {MAX_UNACCEPTED_BEST} best moves unaccepted)",
                best.len()
            ),
            unproven: false,
        });
    }
    let mover = position.to_move().title();
    let result = match value {
        0 => "a draw".to_string(),
        v if v > 0 => format!("{mover} wins by {v}"),
        v => format!("{mover} loses by {}", -v),
    };
    check.verdict = format!(
        "{result} (exact); {} best move{}, {} accepted",
        best.len(),
        if best.len() == 1 { "" } else { "s" },
        answers.len()
    );
}

fn signed(v: i32) -> String {
    crate::present::words::signed(v)
}
