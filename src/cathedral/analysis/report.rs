//! The solve report: what a solve of a Cathedral position found, ready for any front end. The
//! verdict in words, the best line with what each move did and the running unplaced squares,
//! the root moves grouped by value, the statistics, and the `solution:` block for the file.
//!
//! Its serialised fields are the `--json` output of `cathedral solve`; the rest ([`LineStep`],
//! [`RootGroup`], the verdict) are for text front ends and serialise on their own.

use crate::boardgame::{RootMove, Solution};
use crate::cathedral::explain::explain_move;
use crate::cathedral::file::StoredSolution;
use crate::cathedral::moves::Move;
use crate::cathedral::notation::{format_line, format_move, format_move_with_player};
use crate::cathedral::placement::table;
use crate::cathedral::player::Player;
use crate::cathedral::position::Position;
use crate::present::words::{count, count_large, signed, time_text};
use serde::Serialize;

/// Unplaced squares of both players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Unplaced {
    /// Light's unplaced squares.
    pub light: u32,
    /// Dark's unplaced squares.
    pub dark: u32,
}

impl Unplaced {
    /// The unplaced squares of both players in `position`.
    pub fn of(position: &Position) -> Unplaced {
        Unplaced {
            light: position.unplaced_squares(Player::Light),
            dark: position.unplaced_squares(Player::Dark),
        }
    }
}

/// A root move and its proven value, in notation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RootMoveReport {
    /// The move, with the player (`dark:tavern:e5`).
    #[serde(rename = "move")]
    pub mv: String,
    /// The exact value, `None` when only bounds are proven.
    pub value: Option<i32>,
    /// Proven lower bound, from the root mover's view.
    pub lower: i32,
    /// Proven upper bound.
    pub upper: i32,
}

/// What the solve cost, in plain numbers.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct StatsReport {
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Nodes searched by every thread.
    pub nodes: u64,
    /// Nodes per second of wall-clock time.
    pub nodes_per_second: f64,
    /// Transposition table look-ups.
    pub tt_probes: u64,
    /// Look-ups that hit.
    pub tt_hits: u64,
    /// Threads used.
    pub threads: usize,
    /// Table size in bytes.
    pub tt_bytes: usize,
    /// Questions ("at least v?") a proof-number solve asked; 0 for alpha-beta.
    pub questions: u32,
}

/// One move of the best line: who played what, what it did, and the unplaced squares after it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LineStep {
    /// 1 for the first move of the line.
    pub ply: usize,
    /// Who plays it.
    pub mover: Player,
    /// The move in notation, without the player (`tavern:e5`).
    #[serde(rename = "move")]
    pub mv: String,
    /// Squares of the building placed (0 for a pass).
    pub squares: u32,
    /// What it did, short: `claims 4 squares, captures Light Manor`.
    pub effect: String,
    /// Unplaced squares after the move.
    pub unplaced: Unplaced,
}

/// Root moves of the same proven value, in notation (without the player).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RootGroup {
    /// Proven lower bound of the group's value.
    pub lower: i32,
    /// Proven upper bound.
    pub upper: i32,
    /// The moves, best first as the solver sorted them.
    pub moves: Vec<String>,
}

/// Everything a solve found about one position. See the module documentation.
#[derive(Clone, Debug, Serialize)]
pub struct SolveReport {
    /// The side to move.
    pub to_move: Player,
    /// The exact value, or null when only bounds are proven.
    pub value: Option<i32>,
    /// Proven lower bound.
    pub lower: i32,
    /// Proven upper bound.
    pub upper: i32,
    /// False when the search was stopped.
    pub complete: bool,
    /// Whether only win/draw/loss was asked for.
    pub wdl: bool,
    /// The first move of the best line.
    pub best_move: Option<String>,
    /// The best line, with players.
    pub best_line: Vec<String>,
    /// With no proven best line (a stopped solve): the move the search found best so far,
    /// unproven; otherwise the best move.
    pub best_so_far: Option<String>,
    /// Unplaced squares at the end of the best line (not with `wdl`: a line that keeps the
    /// result need not keep the score).
    pub final_unplaced: Option<Unplaced>,
    /// Every root move, best first.
    pub root_moves: Vec<RootMoveReport>,
    /// What the solve cost.
    pub stats: StatsReport,
    /// Exactly what `--yaml` prints under `solution:`.
    pub solution: Option<StoredSolution>,
    /// The verdict in one sentence: "Dark to move wins by 6: Dark ends with 0 unplaced squares,
    /// Light with 6."
    #[serde(skip)]
    pub verdict: String,
    /// The best line, move by move.
    #[serde(skip)]
    pub line: Vec<LineStep>,
    /// The root moves grouped by value, best first.
    #[serde(skip)]
    pub root_groups: Vec<RootGroup>,
    /// The position at the end of the best line (the root when there is no line).
    #[serde(skip)]
    pub final_position: Position,
    /// Whether the game is already over at the root.
    #[serde(skip)]
    pub game_over: bool,
}

impl SolveReport {
    /// The report of `solution`, a solve of `position` (`wdl`: values are win/draw/loss only).
    pub fn new(position: &Position, solution: &Solution<Move>, wdl: bool) -> SolveReport {
        let stored = stored_solution(position, solution, wdl)
            .filter(|_| !solution.best_line.is_empty() || position.is_game_over());
        let end = replay(position, &solution.best_line);
        let stats = &solution.stats;
        SolveReport {
            to_move: position.to_move(),
            value: solution.value(),
            lower: solution.lower,
            upper: solution.upper,
            complete: solution.complete,
            wdl,
            best_move: stored.as_ref().and_then(|s| s.best_move.clone()),
            best_line: stored
                .as_ref()
                .map(|s| s.best_line.clone())
                .unwrap_or_default(),
            best_so_far: solution
                .best_so_far
                .map(|mv| format_move_with_player(position, mv)),
            final_unplaced: (!solution.best_line.is_empty() && !wdl).then(|| Unplaced::of(&end)),
            root_moves: solution
                .root_moves
                .iter()
                .map(|r| RootMoveReport {
                    mv: format_move_with_player(position, r.mv),
                    value: r.is_exact().then_some(r.lower),
                    lower: r.lower,
                    upper: r.upper,
                })
                .collect(),
            stats: StatsReport {
                seconds: stats.elapsed.as_secs_f64(),
                nodes: stats.nodes,
                nodes_per_second: stats.nodes_per_second(),
                tt_probes: stats.tt_probes,
                tt_hits: stats.tt_hits,
                threads: stats.threads,
                tt_bytes: stats.tt_bytes,
                questions: stats.questions,
            },
            solution: stored,
            verdict: verdict(position, solution, wdl),
            line: line_steps(position, &solution.best_line),
            root_groups: root_groups(position, &solution.root_moves),
            final_position: end,
            game_over: position.is_game_over(),
        }
    }
}

/// The position reached by playing `line` from `position`.
pub fn replay(position: &Position, line: &[Move]) -> Position {
    let mut end = *position;
    for &mv in line {
        end.play(mv);
    }
    end
}

/// The `solution:` block of a position file for an exact solution, `None` if not exact.
pub fn stored_solution(
    position: &Position,
    solution: &Solution<Move>,
    wdl: bool,
) -> Option<StoredSolution> {
    let value = solution.value()?;
    let line = format_line(position, &solution.best_line);
    Some(StoredSolution {
        value,
        wdl,
        best_move: line.first().cloned(),
        best_line: line,
        nodes: Some(solution.stats.nodes),
        explanations: Vec::new(),
        ..StoredSolution::default()
    })
}

/// How a stored value compares with a solve of the same position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoredCheck {
    /// The solve proves the stored value (or, for win/draw/loss, its sign).
    Agrees,
    /// The solve stopped before proving it, but the stored value is still possible.
    Unproven,
    /// The solve proves the stored value wrong.
    Mismatch,
}

/// Checks `stored` against `solution` (a solve with `wdl` when only win/draw/loss was asked).
/// A stored win/draw/loss value is compared by sign; a win/draw/loss solve can only check the
/// sign of a stored exact value.
pub fn check_stored(stored: &StoredSolution, solution: &Solution<Move>, wdl: bool) -> StoredCheck {
    let by_sign = stored.wdl || wdl;
    let agrees = if by_sign {
        stored.value.signum() == solution.lower.signum()
            && stored.value.signum() == solution.upper.signum()
    } else {
        solution.is_exact() && stored.value == solution.lower
    };
    if agrees {
        return StoredCheck::Agrees;
    }
    let v = if by_sign {
        stored.value.signum()
    } else {
        stored.value
    };
    let (lo, hi) = if stored.wdl && !wdl {
        (solution.lower.signum(), solution.upper.signum())
    } else {
        (solution.lower, solution.upper)
    };
    if !solution.is_exact() && (lo..=hi).contains(&v) {
        StoredCheck::Unproven
    } else {
        StoredCheck::Mismatch
    }
}

/// "Dark to move wins by 3: Dark ends with 2 unplaced squares, Light with 5."
fn verdict(position: &Position, solution: &Solution<Move>, wdl: bool) -> String {
    let mover = position.to_move();
    let other = mover.opponent();
    let Some(value) = solution.value() else {
        let why = if solution.complete {
            "the search could not narrow it further".to_string()
        } else {
            format!(
                "search stopped after {}, {}",
                time_text(solution.stats.elapsed),
                count_large(solution.stats.nodes, "node")
            )
        };
        return format!(
            "{} to move: the value is between {} and {} ({why}); not proven exactly.",
            mover.title(),
            signed(solution.lower),
            signed(solution.upper)
        );
    };
    let end = replay(position, &solution.best_line);
    // A win/draw/loss line keeps the result but not the score: its final squares are no result.
    let ends = if end.is_game_over() && !wdl {
        let (own, theirs) = (end.unplaced_squares(mover), end.unplaced_squares(other));
        if value == 0 {
            format!(": both players end with {}", count(own, "unplaced square"))
        } else {
            format!(
                ": {} ends with {}, {} with {theirs}",
                mover.title(),
                count(own, "unplaced square"),
                other.title()
            )
        }
    } else {
        String::new()
    };
    let result = match (wdl, value.signum()) {
        (true, 1) => "wins".to_string(),
        (true, -1) => "loses".to_string(),
        (false, 1) => format!("wins by {value}"),
        (false, -1) => format!("loses by {}", -value),
        _ => "draws".to_string(),
    };
    let kind = if wdl {
        " (win/draw/loss only, --wdl)"
    } else {
        ""
    };
    // The bounds met (the value is proven) but the search was stopped before it wrote out a line
    // that reaches them: say so, so that a result is never given as if its line were missing by
    // mistake.
    if solution.best_line.is_empty() && !position.is_game_over() {
        return format!(
            "{} to move {result}{kind} (proven: the bounds met after {}, {}; the search \
             was stopped before it wrote out the best line).",
            mover.title(),
            time_text(solution.stats.elapsed),
            count_large(solution.stats.nodes, "node")
        );
    }
    format!("{} to move {result}{ends}{kind}.", mover.title())
}

/// What a move did, short: `claims 6 squares, captures Light Tavern`.
pub fn effect_text(position: &Position, mv: Move) -> String {
    let report = explain_move(position, mv);
    if report.placed.is_none() {
        return "passes".to_string();
    }
    let mut parts = Vec::new();
    if report.first_move {
        parts.push("first building move".to_string());
    }
    if report.in_own_territory {
        parts.push("inside own territory".to_string());
    }
    let claimed: u32 = report.claims.iter().map(|c| c.size).sum();
    if claimed > 0 {
        parts.push(format!("claims {}", count(claimed, "square")));
    }
    for building in report.captures() {
        parts.push(format!("captures {}", building.label()));
    }
    parts.join(", ")
}

/// Every move of `line` from `position`, with its effect and the unplaced squares after it.
pub fn line_steps(position: &Position, line: &[Move]) -> Vec<LineStep> {
    let mut current = *position;
    line.iter()
        .enumerate()
        .map(|(index, &mv)| {
            let mover = current.to_move();
            let squares = mv.placement().map_or(0, |id| table().get(id).mask.count());
            let text = format_move(&current, mv);
            let effect = effect_text(&current, mv);
            current.play(mv);
            LineStep {
                ply: index + 1,
                mover,
                mv: text,
                squares,
                effect,
                unplaced: Unplaced::of(&current),
            }
        })
        .collect()
}

/// Root moves grouped by equal bounds, in the solver's order (best first).
pub fn root_groups(position: &Position, root_moves: &[RootMove<Move>]) -> Vec<RootGroup> {
    let mut groups: Vec<RootGroup> = Vec::new();
    for r in root_moves {
        match groups.last_mut() {
            Some(g) if g.lower == r.lower && g.upper == r.upper => {
                g.moves.push(format_move(position, r.mv));
            }
            _ => groups.push(RootGroup {
                lower: r.lower,
                upper: r.upper,
                moves: vec![format_move(position, r.mv)],
            }),
        }
    }
    groups
}
