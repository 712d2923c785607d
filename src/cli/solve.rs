//! `cathedral solve [FILE]`: the exact value of a position, a best line, every root move's value
//! and search statistics. The game's report (`frontend::solve`) holds all of it; this module
//! prints it.

use super::ColorArg;
use super::shared::exit::{Exit, Failure};
use super::shared::game::{load_or_bundled, which, with_game};
use super::shared::output::{emit, emit_json, emit_text, style_for};
use super::shared::search::{SearchArgs, Spinner, ctrl_c_flag};
use cathedral::boardgame::SolveOptions;
use cathedral::frontend::{Bundled, Playable, SolutionBlock};
use cathedral::present::words::signed;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

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
    #[command(flatten)]
    pub color: ColorArg,
}

pub fn run(args: &SolveArgs) -> miette::Result<()> {
    with_game!(which(args.game, args.files.first().map(PathBuf::as_path)), G => solve::<G>(args))
}

fn solve<G: Playable>(args: &SolveArgs) -> miette::Result<()> {
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
    let style = style_for(args.color);
    let mut reports = Vec::new();
    let mut unproven = Vec::new();
    for (index, path) in files.iter().enumerate() {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let loaded = load_or_bundled::<G>(*path, Bundled::Endgame)?;
        let spinner = Spinner::new("solving: ");
        let solved = cathedral::frontend::solve(&loaded.position, &options, &|p| spinner.update(p));
        spinner.finish();
        let (report, solution) = solved.map_err(|why| Failure::new(Exit::Input, why))?;
        if !G::is_proven(&report) {
            unproven.push(path.map_or_else(
                || G::bundled_name(Bundled::Endgame).to_string(),
                |p| p.display().to_string(),
            ));
        }
        if args.yaml {
            match G::solution_block(&report) {
                SolutionBlock::Block(text) => emit(&text)?,
                SolutionBlock::Unproven { lower, upper } => {
                    return Err(Failure::new(
                        Exit::Unproven,
                        format!(
                            "the value is not proven (between {} and {}): no solution to write",
                            signed(lower),
                            signed(upper)
                        ),
                    )
                    .help("give it more time (--time-limit) or let it finish")
                    .into());
                }
                SolutionBlock::Failed(why) => return Err(miette::miette!("{why}")),
                SolutionBlock::Unsupported => {
                    return Err(Failure::new(
                        Exit::Usage,
                        format!("--yaml: {} position files keep no solution", G::NAME),
                    )
                    .into());
                }
            }
        } else if args.json {
            reports.push(report);
        } else {
            if index > 0 {
                emit("\n")?;
            }
            emit_text(&cathedral::frontend::solve_text(
                &loaded,
                &report,
                &solution,
                args.all,
                args.value_only,
                style,
            ))?;
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
