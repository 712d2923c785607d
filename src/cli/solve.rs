//! `cathedral solve [FILE]`: the exact value of a position, a best line, every root move's value
//! and search statistics. Also the solving helpers `cathedral bench` shares.

use super::ColorWhen;
use super::input::file_or_bundled;
use super::output::{emit, emit_json, new_table, style_for};
use cathedral::explain::explain_move;
use cathedral::file::StoredSolution;
use cathedral::moves::Move;
use cathedral::notation::{format_move, format_move_with_player};
use cathedral::render::{RenderStyle, render};
use cathedral::solver::{Progress, RootMove, Solution, SolveOptions, solve};
use cathedral::{Player, Position};
use comfy_table::{CellAlignment, Table};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use miette::{IntoDiagnostic, WrapErr, miette};
use serde::Serialize;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The bundled showcase endgame solved without FILE.
const SHOWCASE_NAME: &str = "<bundled showcase endgame>";
const SHOWCASE_YAML: &str = include_str!("../../puzzles/showcase.yaml");

/// Root moves listed without `--all`.
const ROOT_MOVES_SHOWN: usize = 10;

/// The search options shared by `solve` and `bench`.
#[derive(clap::Args, Debug, Clone)]
pub struct SearchArgs {
    /// Worker threads (0 = all cores).
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub threads: usize,
    /// Transposition table memory in MiB.
    #[arg(long, default_value_t = 256, value_name = "N")]
    pub tt_mb: usize,
    /// Only win, draw or loss (values -1, 0, +1): faster.
    #[arg(long)]
    pub wdl: bool,
    /// Stop after this many seconds and print what is proven.
    #[arg(long, value_name = "SECS")]
    pub time_limit: Option<f64>,
}

impl SearchArgs {
    /// Solver options with `stop` as the stop flag.
    pub fn options(&self, stop: Arc<AtomicBool>) -> miette::Result<SolveOptions> {
        let time_limit = match self.time_limit {
            None => None,
            Some(secs) if secs.is_finite() && secs >= 0.0 => Some(Duration::from_secs_f64(secs)),
            Some(secs) => {
                return Err(miette!(
                    "--time-limit {secs} is not a duration: expected a number of seconds, 0 or more"
                ));
            }
        };
        Ok(SolveOptions {
            threads: self.threads,
            tt_mb: self.tt_mb,
            wdl: self.wdl,
            time_limit,
            stop,
            ..SolveOptions::default()
        })
    }
}

#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// Position file (YAML).
    pub file: Option<PathBuf>,
    #[command(flatten)]
    pub search: SearchArgs,
    /// List every root move instead of the best 10.
    #[arg(long)]
    pub all: bool,
    /// Print the result as JSON.
    #[arg(long, conflicts_with = "yaml")]
    pub json: bool,
    /// Print only the `solution:` block, to paste into the position file.
    #[arg(long)]
    pub yaml: bool,
    #[arg(long, value_enum, default_value_t)]
    pub color: ColorWhen,
}

/// A stop flag that Ctrl-C sets; a second Ctrl-C quits at once.
pub fn ctrl_c_flag() -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    // Only fails if a handler is installed already; then Ctrl-C simply ends the process.
    let _ = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
    stop
}

/// A spinner on standard error that appears once a solve has run for a second, on a terminal
/// only.
pub struct Spinner {
    bar: ProgressBar,
    shown: AtomicBool,
    enabled: bool,
}

impl Spinner {
    pub fn new(prefix: &str) -> Spinner {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        bar.set_style(
            ProgressStyle::with_template("{spinner} {prefix}{msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        bar.set_prefix(prefix.to_string());
        Spinner {
            bar,
            shown: AtomicBool::new(false),
            enabled: std::io::stderr().is_terminal(),
        }
    }

    pub fn update(&self, progress: &Progress) {
        if !self.enabled || progress.elapsed < Duration::from_secs(1) {
            return;
        }
        if !self.shown.swap(true, Ordering::Relaxed) {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            self.bar.enable_steady_tick(Duration::from_millis(120));
        }
        let seconds = progress.elapsed.as_secs_f64();
        self.bar.set_message(format!(
            "{} nodes, {}/s, value in {}..{}, {:.0} s (Ctrl-C stops)",
            thousands(progress.nodes),
            rate_text(progress.nodes as f64 / seconds.max(1e-9)),
            signed(progress.lower),
            signed(progress.upper),
            seconds
        ));
    }

    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// `+3`, `0`, `-2`.
pub fn signed(value: i32) -> String {
    if value > 0 {
        format!("+{value}")
    } else {
        value.to_string()
    }
}

/// `1,234,567`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `850`, `12.3 k`, `4.56 M` (per second).
pub fn rate_text(rate: f64) -> String {
    if rate >= 1e6 {
        format!("{:.2} M", rate / 1e6)
    } else if rate >= 1e3 {
        format!("{:.1} k", rate / 1e3)
    } else {
        format!("{rate:.0}")
    }
}

/// `1.234 s`, `12 ms`.
pub fn time_text(elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64();
    if secs >= 1.0 {
        format!("{secs:.2} s")
    } else {
        format!("{:.1} ms", secs * 1e3)
    }
}

/// The TT hit rate in percent, or `-` without probes.
pub fn hit_rate_text(solution: &Solution) -> String {
    if solution.stats.tt_probes == 0 {
        "-".to_string()
    } else {
        format!(
            "{:.1}%",
            100.0 * solution.stats.tt_hits as f64 / solution.stats.tt_probes as f64
        )
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
    solution: &Solution,
    wdl: bool,
) -> Option<StoredSolution> {
    if !solution.is_exact() {
        return None;
    }
    let mut line = Vec::with_capacity(solution.best_line.len());
    let mut current = *position;
    for &mv in &solution.best_line {
        line.push(format_move_with_player(&current, mv));
        current.play(mv);
    }
    Some(StoredSolution {
        value: solution.lower,
        wdl,
        best_move: line.first().cloned(),
        best_line: line,
        nodes: Some(solution.stats.nodes),
        explanations: Vec::new(),
    })
}

/// "Dark to move wins by 3: Dark ends with 2 unplaced squares, Light with 5."
fn result_text(position: &Position, solution: &Solution, wdl: bool) -> String {
    let mover = position.to_move();
    let other = mover.opponent();
    if !solution.is_exact() {
        let why = if solution.complete {
            "the search could not narrow it further".to_string()
        } else {
            format!(
                "search stopped after {}, {} nodes",
                time_text(solution.stats.elapsed),
                thousands(solution.stats.nodes)
            )
        };
        return format!(
            "{} to move: the value is between {} and {} ({why}); not proven exactly.",
            mover.title(),
            signed(solution.lower),
            signed(solution.upper)
        );
    }
    let value = solution.lower;
    let end = replay(position, &solution.best_line);
    let ends = if end.is_game_over() {
        let (own, theirs) = (end.unplaced_squares(mover), end.unplaced_squares(other));
        if value == 0 || (wdl && own == theirs) {
            format!(": both players end with {own} unplaced squares")
        } else {
            format!(
                ": {} ends with {own} unplaced squares, {} with {theirs}",
                mover.title(),
                other.title()
            )
        }
    } else {
        String::new()
    };
    let verdict = match (wdl, value.signum()) {
        (_, 0) => "draws".to_string(),
        (true, 1) => "wins".to_string(),
        (true, _) => "loses".to_string(),
        (false, 1) => format!("wins by {value}"),
        (false, _) => format!("loses by {}", -value),
    };
    let kind = if wdl {
        " (win/draw/loss only, --wdl)"
    } else {
        ""
    };
    format!("{} to move {verdict}{ends}{kind}.", mover.title())
}

/// What a move did, short: `claims 6 squares, captures Light Tavern`.
fn effect_text(position: &Position, mv: Move) -> String {
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
        parts.push(format!(
            "claims {claimed} square{}",
            if claimed == 1 { "" } else { "s" }
        ));
    }
    for building in report.captures() {
        parts.push(format!("captures {}", building.label()));
    }
    parts.join(", ")
}

fn right_align(table: &mut Table, columns: &[usize]) {
    for &c in columns {
        if let Some(column) = table.column_mut(c) {
            column.set_cell_alignment(CellAlignment::Right);
        }
    }
}

/// One row per move of the best line.
fn line_table(position: &Position, line: &[Move], style: RenderStyle) -> Table {
    let mut table = new_table(style);
    table.set_header([
        "ply",
        "mover",
        "move",
        "squares",
        "what it did",
        "Light unplaced",
        "Dark unplaced",
    ]);
    let mut current = *position;
    for (index, &mv) in line.iter().enumerate() {
        let mover = current.to_move();
        let squares = mv
            .placement()
            .map_or(0, |id| cathedral::table().get(id).mask.count());
        let text = format_move(&current, mv);
        let effect = effect_text(&current, mv);
        current.play(mv);
        table.add_row(vec![
            (index + 1).to_string(),
            mover.title().to_string(),
            text,
            squares.to_string(),
            effect,
            current.unplaced_squares(Player::Light).to_string(),
            current.unplaced_squares(Player::Dark).to_string(),
        ]);
    }
    right_align(&mut table, &[0, 3, 5, 6]);
    table
}

/// `+3` for an exact value, `-2..+5` for bounds.
fn bounds_text(lower: i32, upper: i32) -> String {
    if lower == upper {
        signed(lower)
    } else {
        format!("{}..{}", signed(lower), signed(upper))
    }
}

/// The outcome of a value in words, for the mover.
fn outcome_word(lower: i32, upper: i32) -> &'static str {
    if lower > 0 {
        "win"
    } else if upper < 0 {
        "loss"
    } else if lower == 0 && upper == 0 {
        "draw"
    } else {
        "unproven"
    }
}

/// Root moves grouped by value, best first; at most `limit` moves listed.
fn root_table(
    position: &Position,
    root_moves: &[RootMove],
    limit: usize,
    style: RenderStyle,
) -> Table {
    let mut table = new_table(style);
    table.set_header(["value", "result", "moves", "which"]);
    let mut shown = 0;
    let mut index = 0;
    while index < root_moves.len() && shown < limit {
        let first = root_moves[index];
        let group: Vec<&RootMove> = root_moves[index..]
            .iter()
            .take_while(|r| r.lower == first.lower && r.upper == first.upper)
            .collect();
        index += group.len();
        let listed: Vec<String> = group
            .iter()
            .take(limit - shown)
            .map(|r| format_move(position, r.mv))
            .collect();
        shown += listed.len();
        let mut which = listed.join("\n");
        if listed.len() < group.len() {
            which.push_str(&format!("\n... and {} more", group.len() - listed.len()));
        }
        table.add_row(vec![
            bounds_text(first.lower, first.upper),
            outcome_word(first.lower, first.upper).to_string(),
            group.len().to_string(),
            which,
        ]);
    }
    right_align(&mut table, &[0, 2]);
    table
}

fn stats_text(solution: &Solution) -> String {
    let stats = &solution.stats;
    let seconds = stats.elapsed.as_secs_f64();
    format!(
        "Searched {} nodes in {} ({} nodes/s); table hit rate {} ({} of {} probes); {} thread{}; table {:.0} MiB",
        thousands(stats.nodes),
        time_text(stats.elapsed),
        rate_text(stats.nodes as f64 / seconds.max(1e-9)),
        hit_rate_text(solution),
        thousands(stats.tt_hits),
        thousands(stats.tt_probes),
        stats.threads,
        if stats.threads == 1 { "" } else { "s" },
        stats.tt_bytes as f64 / (1024.0 * 1024.0)
    )
}

#[derive(Serialize)]
struct UnplacedJson {
    light: u32,
    dark: u32,
}

#[derive(Serialize)]
struct RootMoveJson {
    #[serde(rename = "move")]
    mv: String,
    value: Option<i32>,
    lower: i32,
    upper: i32,
}

#[derive(Serialize)]
struct StatsJson {
    seconds: f64,
    nodes: u64,
    nodes_per_second: f64,
    tt_probes: u64,
    tt_hits: u64,
    threads: usize,
    tt_bytes: usize,
}

/// `--json`: the `solution:` block's content, plus bounds, root moves and statistics.
#[derive(Serialize)]
struct SolveJson {
    to_move: Player,
    /// The exact value, or null when only bounds are proven.
    value: Option<i32>,
    lower: i32,
    upper: i32,
    complete: bool,
    wdl: bool,
    best_move: Option<String>,
    best_line: Vec<String>,
    /// Unplaced squares at the end of the best line.
    final_unplaced: Option<UnplacedJson>,
    root_moves: Vec<RootMoveJson>,
    stats: StatsJson,
    /// Exactly what `--yaml` prints under `solution:`.
    solution: Option<StoredSolution>,
}

#[derive(Serialize)]
struct SolutionBlock<'a> {
    solution: &'a StoredSolution,
}

/// The `solution:` block as YAML text, ready to paste at the end of a position file.
pub fn solution_yaml(solution: &StoredSolution) -> miette::Result<String> {
    serde_saphyr::to_string(&SolutionBlock { solution })
        .into_diagnostic()
        .wrap_err("cannot write YAML")
}

pub fn run(args: &SolveArgs) -> miette::Result<()> {
    let file = file_or_bundled(args.file.as_deref(), SHOWCASE_NAME, SHOWCASE_YAML)?;
    let position = file.position;
    let options = args.search.options(ctrl_c_flag())?;
    let spinner = Spinner::new("solving: ");
    let solution = solve(&position, &options, &|p| spinner.update(p));
    spinner.finish();
    let stored = stored_solution(&position, &solution, args.search.wdl);
    if args.yaml {
        let Some(stored) = &stored else {
            return Err(miette!(
                help = "give it more time (--time-limit) or let it finish",
                "the value is not proven (between {} and {}): no solution to write",
                signed(solution.lower),
                signed(solution.upper)
            ));
        };
        return emit(&solution_yaml(stored)?);
    }
    if args.json {
        let end = replay(&position, &solution.best_line);
        let seconds = solution.stats.elapsed.as_secs_f64();
        return emit_json(&SolveJson {
            to_move: position.to_move(),
            value: solution.is_exact().then_some(solution.lower),
            lower: solution.lower,
            upper: solution.upper,
            complete: solution.complete,
            wdl: args.search.wdl,
            best_move: stored.as_ref().and_then(|s| s.best_move.clone()),
            best_line: stored
                .as_ref()
                .map(|s| s.best_line.clone())
                .unwrap_or_default(),
            final_unplaced: (!solution.best_line.is_empty()).then(|| UnplacedJson {
                light: end.unplaced_squares(Player::Light),
                dark: end.unplaced_squares(Player::Dark),
            }),
            root_moves: solution
                .root_moves
                .iter()
                .map(|r| RootMoveJson {
                    mv: format_move_with_player(&position, r.mv),
                    value: (r.lower == r.upper).then_some(r.lower),
                    lower: r.lower,
                    upper: r.upper,
                })
                .collect(),
            stats: StatsJson {
                seconds,
                nodes: solution.stats.nodes,
                nodes_per_second: solution.stats.nodes as f64 / seconds.max(1e-9),
                tt_probes: solution.stats.tt_probes,
                tt_hits: solution.stats.tt_hits,
                threads: solution.stats.threads,
                tt_bytes: solution.stats.tt_bytes,
            },
            solution: stored,
        });
    }
    let style = style_for(args.color);
    let mut out = String::new();
    if let Some(title) = &file.meta.title {
        out.push_str(&format!("{title}\n\n"));
    }
    out.push_str(&result_text(&position, &solution, args.search.wdl));
    out.push('\n');
    if !solution.best_line.is_empty() {
        out.push_str("\nBest line:\n");
        out.push_str(&format!(
            "{}\n",
            line_table(&position, &solution.best_line, style)
        ));
        out.push_str("\nFinal position:\n\n");
        out.push_str(&render(&replay(&position, &solution.best_line), style));
    } else if position.is_game_over() {
        out.push_str("\nThe game is over: no moves to play.\n");
    } else if solution.is_exact() {
        out.push_str(
            "\nThe value is proven, but the search stopped before it wrote out the best line.\n",
        );
    }
    if !solution.root_moves.is_empty() {
        let limit = if args.all {
            usize::MAX
        } else {
            ROOT_MOVES_SHOWN
        };
        out.push_str(&format!(
            "\nRoot moves ({}), best first:\n{}\n",
            solution.root_moves.len(),
            root_table(&position, &solution.root_moves, limit, style)
        ));
        if solution.root_moves.len() > limit {
            out.push_str(&format!(
                "{limit} of {} moves shown; --all lists every move\n",
                solution.root_moves.len()
            ));
        }
    }
    out.push_str(&format!("\n{}\n", stats_text(&solution)));
    emit(&out)
}
