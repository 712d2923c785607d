//! `cathedral solve [FILE]`: the exact value of a position, a best line, every root move's value
//! and search statistics. The library's [`SolveReport`] holds all of it; this module prints it.

use super::ColorWhen;
use super::shared::exit::{Exit, Failure};
use super::shared::input::file_or_bundled;
use super::shared::output::{
    emit, emit_json, keep_whole, new_table, right_align, solution_block, style_for,
};
use super::shared::search::{SearchArgs, Spinner, ctrl_c_flag};
use cathedral::analysis::report::{LineStep, RootGroup, SolveReport};
use cathedral::analysis::words::{bounds_text, outcome_word, signed, stats_text};
use cathedral::boardgame::engine::estimator;
use cathedral::boardgame::solve;
use cathedral::boardgame::{SolveOptions, Stats};
use cathedral::file::PositionFile;
use cathedral::present::terminal::{RenderStyle, position_text};
use comfy_table::Table;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

/// The bundled showcase endgame solved without FILE.
const SHOWCASE_NAME: &str = "<bundled showcase endgame>";
const SHOWCASE_YAML: &str = include_str!("../../puzzles/showcase.yaml");

/// Root moves listed without `--all`.
const ROOT_MOVES_SHOWN: usize = 10;

#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// Position files (YAML); without one, the bundled showcase endgame.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub search: SearchArgs,
    /// List every root move instead of the best 10.
    #[arg(long)]
    pub all: bool,
    /// Only the value and a best line: skip every root move's value (often most of the time).
    #[arg(long)]
    pub value_only: bool,
    /// Print the result as JSON.
    #[arg(long, conflicts_with = "yaml")]
    pub json: bool,
    /// Print only the `solution:` block, to paste into the position file.
    #[arg(long)]
    pub yaml: bool,
    /// The game: `corintho` for Corintho (also chosen by a FILE with `game: corintho`).
    #[arg(long, value_enum, value_name = "GAME")]
    pub game: Option<super::GameName>,
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
    keep_whole(&mut table, 2);
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
    keep_whole(&mut table, 3);
    table
}

pub fn run(args: &SolveArgs) -> miette::Result<()> {
    if super::corintho::selected(args.game, args.files.first().map(PathBuf::as_path)) {
        if args.files.len() > 1 || args.yaml {
            return Err(Failure::new(
                Exit::Usage,
                "Corintho: one FILE (or none for the start), without --yaml",
            )
            .into());
        }
        return super::corintho::solve_command(
            args.files.first().map(PathBuf::as_path),
            &args.search,
            args.value_only,
            args.json,
        );
    }
    if args.yaml && args.files.len() > 1 {
        return Err(Failure::new(
            Exit::Usage,
            "--yaml prints the `solution:` block of one file: give one FILE",
        )
        .into());
    }
    let stop = ctrl_c_flag();
    let options = SolveOptions {
        root_values: !args.value_only,
        ..args.search.options(stop.clone())
    };
    let bundled = [None];
    let files: Vec<Option<&Path>> = if args.files.is_empty() {
        bundled.to_vec()
    } else {
        args.files.iter().map(|f| Some(f.as_path())).collect()
    };
    let mut reports = Vec::new();
    let mut unproven = Vec::new();
    for (index, path) in files.iter().enumerate() {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let file = file_or_bundled(*path, SHOWCASE_NAME, SHOWCASE_YAML)?;
        let position = file.position;
        let spinner = Spinner::new("solving: ");
        let options = SolveOptions {
            estimate: Some(estimator(&position)),
            ..options.clone()
        };
        let solution = solve(&position, &options, &|p| spinner.update(p));
        spinner.finish();
        let report = SolveReport::new(&position, &solution, args.search.wdl);
        if report.value.is_none() {
            unproven
                .push(path.map_or_else(|| SHOWCASE_NAME.to_string(), |p| p.display().to_string()));
        }
        if args.yaml {
            let Some(stored) = &report.solution else {
                return Err(Failure::new(
                    Exit::Unproven,
                    format!(
                        "the value is not proven (between {} and {}): no solution to write",
                        signed(report.lower),
                        signed(report.upper)
                    ),
                )
                .help("give it more time (--time-limit) or let it finish")
                .into());
            };
            emit(&solution_block(stored)?)?;
        } else if args.json {
            reports.push(report);
        } else {
            if index > 0 {
                emit("\n")?;
            }
            emit(&text(&file, &report, &solution.stats, args))?;
        }
    }
    if args.json {
        match reports.as_slice() {
            [one] => emit_json(one)?,
            all => emit_json(&all)?,
        }
    }
    if stop.load(Ordering::Relaxed) {
        return Err(Failure::new(
            Exit::Interrupted,
            "stopped by Ctrl-C: the results above are what was proven by then",
        )
        .into());
    }
    if !unproven.is_empty() && !args.yaml {
        return Err(Failure::new(
            Exit::Unproven,
            format!("not proven within the time limit: {}", unproven.join(", ")),
        )
        .into());
    }
    Ok(())
}

/// The text report of one solved file.
fn text(file: &PositionFile, report: &SolveReport, stats: &Stats, args: &SolveArgs) -> String {
    let style = style_for(args.color);
    let mut out = String::new();
    if let Some(title) = &file.meta.title {
        out.push_str(&format!("{title}\n\n"));
    }
    out.push_str(&report.verdict);
    out.push('\n');
    if !report.line.is_empty() {
        out.push_str(if report.wdl {
            "\nA line that keeps the result (its squares are not the exact score):\n"
        } else {
            "\nBest line:\n"
        });
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
    if report.line.is_empty()
        && let Some(mv) = &report.best_so_far
    {
        out.push_str(&format!("Best move so far (not proven): {mv}\n"));
    }
    let moves = report.root_moves.len();
    if args.value_only && moves > 0 {
        out.push_str(&format!(
            "\nThe values of the {moves} root moves were not computed (--value-only).\n"
        ));
    } else if moves > 0 {
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
    out.push_str(&format!("\n{}\n", stats_text(stats)));
    out
}
