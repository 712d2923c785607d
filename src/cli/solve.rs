//! `cathedral solve [FILE]`: the exact value of a position, a best line, every root move's value
//! and search statistics. The library's [`SolveReport`] holds all of it; this module prints it.

use super::ColorWhen;
use super::shared::input::file_or_bundled;
use super::shared::output::{emit, emit_json, new_table, right_align, solution_block, style_for};
use super::shared::search::{SearchArgs, Spinner, ctrl_c_flag};
use cathedral::analysis::report::{LineStep, RootGroup, SolveReport};
use cathedral::analysis::words::{bounds_text, outcome_word, signed, stats_text};
use cathedral::boardgame::solve;
use cathedral::present::terminal::{RenderStyle, position_text};
use comfy_table::Table;
use miette::miette;
use std::path::PathBuf;

/// The bundled showcase endgame solved without FILE.
const SHOWCASE_NAME: &str = "<bundled showcase endgame>";
const SHOWCASE_YAML: &str = include_str!("../../puzzles/showcase.yaml");

/// Root moves listed without `--all`.
const ROOT_MOVES_SHOWN: usize = 10;

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

/// One row per move of the best line.
fn line_table(line: &[LineStep], style: RenderStyle) -> Table {
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
    for step in line {
        table.add_row(vec![
            step.ply.to_string(),
            step.mover.title().to_string(),
            step.mv.clone(),
            step.squares.to_string(),
            step.effect.clone(),
            step.unplaced.light.to_string(),
            step.unplaced.dark.to_string(),
        ]);
    }
    right_align(&mut table, &[0, 3, 5, 6]);
    table
}

/// Root moves grouped by value, best first; at most `limit` moves listed.
fn root_table(groups: &[RootGroup], limit: usize, style: RenderStyle) -> Table {
    let mut table = new_table(style);
    table.set_header(["value", "result", "moves", "which"]);
    let mut shown = 0;
    for group in groups {
        if shown >= limit {
            break;
        }
        let listed = &group.moves[..group.moves.len().min(limit - shown)];
        shown += listed.len();
        let mut which = listed.join("\n");
        if listed.len() < group.moves.len() {
            which.push_str(&format!(
                "\n... and {} more",
                group.moves.len() - listed.len()
            ));
        }
        table.add_row(vec![
            bounds_text(group.lower, group.upper),
            outcome_word(group.lower, group.upper).to_string(),
            group.moves.len().to_string(),
            which,
        ]);
    }
    right_align(&mut table, &[0, 2]);
    table
}

pub fn run(args: &SolveArgs) -> miette::Result<()> {
    let file = file_or_bundled(args.file.as_deref(), SHOWCASE_NAME, SHOWCASE_YAML)?;
    let position = file.position;
    let options = args.search.options(ctrl_c_flag())?;
    let spinner = Spinner::new("solving: ");
    let solution = solve(&position, &options, &|p| spinner.update(p));
    spinner.finish();
    let report = SolveReport::new(&position, &solution, args.search.wdl);
    if args.yaml {
        let Some(stored) = &report.solution else {
            return Err(miette!(
                help = "give it more time (--time-limit) or let it finish",
                "the value is not proven (between {} and {}): no solution to write",
                signed(report.lower),
                signed(report.upper)
            ));
        };
        return emit(&solution_block(stored)?);
    }
    if args.json {
        return emit_json(&report);
    }
    let style = style_for(args.color);
    let mut out = String::new();
    if let Some(title) = &file.meta.title {
        out.push_str(&format!("{title}\n\n"));
    }
    out.push_str(&report.verdict);
    out.push('\n');
    if !report.line.is_empty() {
        out.push_str("\nBest line:\n");
        out.push_str(&format!("{}\n", line_table(&report.line, style)));
        out.push_str("\nFinal position:\n\n");
        out.push_str(&position_text(&report.final_position, style));
    } else if report.game_over {
        out.push_str("\nThe game is over: no moves to play.\n");
    } else if report.value.is_some() {
        out.push_str(
            "\nThe value is proven, but the search stopped before it wrote out the best line.\n",
        );
    }
    let moves = report.root_moves.len();
    if moves > 0 {
        let limit = if args.all {
            usize::MAX
        } else {
            ROOT_MOVES_SHOWN
        };
        out.push_str(&format!(
            "\nRoot moves ({moves}), best first:\n{}\n",
            root_table(&report.root_groups, limit, style)
        ));
        if moves > limit {
            out.push_str(&format!(
                "{limit} of {moves} moves shown; --all lists every move\n"
            ));
        }
    }
    out.push_str(&format!("\n{}\n", stats_text(&solution.stats)));
    emit(&out)
}
