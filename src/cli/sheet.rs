//! `cathedral sheet DIR [-o sheet.html]`: a printable worksheet of the puzzles in a directory, to
//! a file or to standard output. Each answer shows the most tempting wrong move refuted: that
//! takes a solve per puzzle, in parallel, with a progress bar; Ctrl-C stops them and the sheet
//! is written with the refutations found (exit 130).

use super::shared::exit::{Exit, Failure};
use super::shared::limits;
use super::shared::output::show_progress;
use super::shared::output::{emit_text, is_stdout, write_document};
use super::shared::output::{refuse_input_as_output, refuse_overwrite};
use super::shared::puzzle_dir::puzzle_files;
use super::shared::search::ctrl_c_flag;
use cathedral::file::PositionFile;
use cathedral::present::words::count;
use cathedral::puzzle::{AnalyseOptions, WrongTry, stored_try, wrong_try};
use cathedral::puzzle::{SheetPuzzle, sheet_html};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct SheetArgs {
    /// Directory of puzzle files.
    pub dir: PathBuf,
    /// The HTML file to write (standard output without it, or with `-`).
    #[arg(short, long, value_name = "OUT.html")]
    pub output: Option<PathBuf>,
    /// The worksheet's heading.
    #[arg(long)]
    pub title: Option<String>,
    /// Overwrite the output file if it exists.
    #[arg(long)]
    pub force: bool,
    /// Time per solve when refuting each puzzle's tempting wrong move: seconds, or 500ms, 30s,
    /// 2m. A puzzle whose solves do not finish in time gets no refutation (with a warning).
    #[arg(long, default_value = "10", value_name = "SECS", value_parser = limits::positive_seconds)]
    pub time_limit: Duration,
    /// Leave the tempting wrong moves and their refutations out of the answers (no solving).
    #[arg(long)]
    pub no_refutations: bool,
}

/// The most tempting wrong move of each puzzle, refuted, solved in parallel (one thread each).
fn refutations(
    files: &[(String, PositionFile)],
    time_limit: Duration,
    stop: &Arc<AtomicBool>,
) -> Vec<Option<WrongTry>> {
    let bar = ProgressBar::with_draw_target(Some(files.len() as u64), ProgressDrawTarget::hidden());
    if show_progress() {
        bar.set_draw_target(ProgressDrawTarget::stderr());
    }
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:30} {pos}/{len} refutations [{elapsed}] (Ctrl-C stops, writing what is found)",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let options = AnalyseOptions {
        time_limit,
        max_nodes: u64::MAX,
        tt_mb: 64,
        initial_tt_mb: Some(1),
        threads: 1,
        stop: Arc::clone(stop),
        ..AnalyseOptions::default()
    };
    let found = files
        .par_iter()
        .map(|(_, file)| {
            // A puzzle from a game shows the move played there, stored with its refutation.
            let found = stored_try(file).or_else(|| wrong_try(&file.position, &options));
            bar.inc(1);
            found
        })
        .collect();
    bar.finish_and_clear();
    found
}

pub fn run(args: &SheetArgs) -> miette::Result<()> {
    let dir = &args.dir;
    let output = args
        .output
        .as_deref()
        .filter(|_| !is_stdout(args.output.as_deref()));
    if let Some(output) = output
        && output.exists()
        && !args.force
    {
        return Err(refuse_overwrite(output));
    }
    let files = puzzle_files(dir)?;
    if let Some(output) = output {
        let inputs: Vec<PathBuf> = files.iter().map(|(name, _)| dir.join(name)).collect();
        refuse_input_as_output(
            &inputs.iter().map(PathBuf::as_path).collect::<Vec<_>>(),
            output,
        )?;
    }
    if files.is_empty() {
        return Err(Failure::new(
            Exit::Input,
            format!(
                "{} holds no puzzle files (position files with a `puzzle:` block)",
                dir.display()
            ),
        )
        .help("`cathedral generate --count 10 -o DIR` makes some")
        .into());
    }
    let title = args.title.as_deref().map_or_else(
        || {
            format!(
                "Cathedral puzzles: {}",
                dir.file_name()
                    .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
            )
        },
        str::to_string,
    );
    let stop = ctrl_c_flag();
    let wrong_tries = if args.no_refutations {
        vec![None; files.len()]
    } else {
        refutations(&files, args.time_limit, &stop)
    };
    let interrupted = stop.load(Ordering::Relaxed);
    let missing: Vec<String> = files
        .iter()
        .zip(&wrong_tries)
        .filter(|(_, w)| w.is_none() && !args.no_refutations)
        .map(|((name, _), _)| name.clone())
        .collect();
    if !missing.is_empty() && !interrupted {
        // Either no wrong move exists or a solve did not finish in time.
        eprintln!(
            "note: no refutation for {} (no losing move, or not solved within {}; --time-limit gives more)",
            missing.join(", "),
            cathedral::present::words::time_text(args.time_limit)
        );
    }
    let puzzles: Vec<SheetPuzzle> = files
        .into_iter()
        .zip(wrong_tries)
        .map(|((name, file), wrong_try)| SheetPuzzle {
            name,
            file,
            wrong_try,
        })
        .collect();
    write_document(output, &sheet_html(&title, &puzzles), args.force)?;
    if let Some(output) = output {
        emit_text(&format!(
            "Wrote {} ({}, answers on the last page)\n",
            output.display(),
            count(puzzles.len() as i64, "puzzle")
        ))?;
    }
    if interrupted {
        return Err(Failure::new(
            Exit::Interrupted,
            format!(
                "interrupted: the sheet was written with {} of {}",
                puzzles.len() - missing.len(),
                count(puzzles.len() as i64, "refutation")
            ),
        )
        .into());
    }
    Ok(())
}
