//! `cathedral generate`: teaching puzzles from policy games, solved exactly, written as puzzle
//! files, with the directory's index updated. With `--from GAME.yaml`, puzzles from the
//! positions of recorded games where the move played was a proven mistake.

use super::shared::exit::{Exit, Failure};
use super::shared::input::FileDiagnostic;
use super::shared::limits;
use super::shared::output::refuse_overwrite;
use super::shared::output::{emit_json, emit_text, show_progress};
use super::shared::puzzle_dir::{is_generated, write_index};
use super::shared::search::ctrl_c_flag;
use cathedral::Rules;
use cathedral::file;
use cathedral::present::words::count;
use cathedral::puzzle::AnalyseOptions;
use cathedral::puzzle::{Difficulty, Theme};
use cathedral::puzzle::{
    GamePlayers, GenerateEvent, GenerateOptions, Generated, generate_each, puzzle_file,
};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use miette::{IntoDiagnostic, WrapErr, miette};
use serde::Serialize;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

mod from_games;

#[derive(clap::Args, Debug)]
pub struct GenerateArgs {
    /// Make puzzles from the games of this record instead (docs/game-record.md): every position
    /// where the player to move had one best move and the move played lost squares or the
    /// result, proven by the solver; the move played is the puzzle's tempting wrong move.
    #[arg(
        long,
        value_name = "GAME.yaml",
        conflicts_with_all = ["count", "theme", "difficulty", "seed", "rules", "max_candidates", "engine_level"]
    )]
    pub from: Option<PathBuf>,
    /// With --from: also the positions where the move played was the one best move ("find the
    /// move that was played").
    #[arg(long, requires = "from")]
    pub all: bool,
    /// With --from: try only positions with at most this many buildings left in the larger
    /// hand (1 to 14; earlier positions are rarely solved in time).
    #[arg(long, default_value = "8", value_name = "N", value_parser = limits::buildings)]
    pub max_buildings: u32,
    /// Number of puzzles.
    #[arg(long, default_value = "10", value_parser = limits::count)]
    pub count: usize,
    /// Keep only puzzles with this theme: capture, cathedral-capture, claim, block,
    /// diagonal-trap, tempo, endgame-count.
    #[arg(long)]
    pub theme: Option<Theme>,
    /// Keep only puzzles of this difficulty: easy, medium, hard.
    #[arg(long)]
    pub difficulty: Option<Difficulty>,
    /// Master seed; the same seed, rules and version give the same puzzles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Rules preset: classic or moore1978.
    #[arg(long, default_value = "classic")]
    pub rules: Rules,
    /// Sample the candidate positions from games of the playing engine at this level (1 to 10)
    /// against itself instead of policy games: two policy moves, then the engine for both sides
    /// with its level noise, seeded per game (deterministic by --seed).
    #[arg(long, value_name = "LEVEL", value_parser = clap::value_parser!(u8).range(1..=10))]
    pub engine_level: Option<u8>,
    /// With --engine-level: the engine's nodes per move at level 10; level L searches
    /// N / 2^(10-L) (so 20000 gives 2500 at level 7, 625 at level 5, 156 at level 3).
    #[arg(long, default_value = "20000", value_name = "N", value_parser = limits::budget, requires = "engine_level")]
    pub engine_nodes: u64,
    /// The best move must beat the second best by at least this many squares.
    #[arg(long, default_value = "1", value_parser = limits::margin)]
    pub margin: i32,
    /// Time per candidate solve (seconds, or 500ms, 30s, 2m); candidates not solved in time are
    /// skipped.
    #[arg(long, default_value = "5", value_name = "SECS", value_parser = limits::positive_seconds)]
    pub time_limit: Duration,
    /// Solver nodes per candidate; candidates needing more are skipped (deterministic).
    #[arg(long, default_value = "2000000", value_name = "N", value_parser = limits::budget)]
    pub max_nodes: u64,
    /// Give up after this many candidate games.
    #[arg(long, default_value = "20000", value_name = "N", value_parser = limits::budget)]
    pub max_candidates: u64,
    /// Worker threads (0 = all cores), at most 64.
    #[arg(long, default_value = "0", value_name = "N", value_parser = limits::threads)]
    pub threads: usize,
    /// Directory to write puzzle-NNN.yaml files and README.md into (created if missing).
    #[arg(short, long, value_name = "DIR")]
    pub output: PathBuf,
    /// Number of the first file.
    #[arg(long, default_value = "1", value_parser = limits::first)]
    pub first: usize,
    /// Overwrite existing files.
    #[arg(long)]
    pub force: bool,
    /// Print the run as JSON (the files written, each puzzle's answer) instead of text.
    #[arg(long)]
    pub json: bool,
}

/// One written puzzle, as `--json` reports it.
#[derive(Serialize)]
struct WrittenPuzzle {
    file: String,
    title: String,
    question: String,
    difficulty: &'static str,
    themes: Vec<&'static str>,
    rating: u32,
    value: i32,
    best_move: String,
    candidate: u64,
}

/// The whole run, as `--json` reports it.
#[derive(Serialize)]
struct GenerateReport {
    puzzles: Vec<WrittenPuzzle>,
    wanted: usize,
    candidates_analysed: u64,
    seconds: f64,
    /// Why it ended before `wanted` puzzles: `interrupted` (Ctrl-C) or `candidates` (the
    /// `--max-candidates` budget ran out); absent when all were found.
    #[serde(skip_serializing_if = "Option::is_none")]
    stopped_by: Option<&'static str>,
    index: Option<String>,
}

pub fn run(args: &GenerateArgs) -> miette::Result<()> {
    if let Some(from) = &args.from {
        return from_games::run_from(args, from);
    }
    let time_limit = args.time_limit;
    // Numbers padded to the widest one (at least three digits), so that the files sort in order.
    let width = (args.first + args.count - 1).to_string().len().max(3);
    let names: Vec<PathBuf> = (0..args.count)
        .map(|i| {
            args.output
                .join(format!("puzzle-{:0width$}.yaml", args.first + i))
        })
        .collect();
    if !args.force
        && let Some(existing) = names.iter().find(|p| p.exists())
    {
        return Err(miette!(
            help = "pass --force to overwrite, or --first to number the new files after the existing ones",
            "{} already exists; not overwriting it",
            existing.display()
        ));
    }
    let readme = args.output.join("README.md");
    if !args.force && readme.exists() && !is_generated(&readme) {
        return Err(refuse_overwrite(&readme));
    }
    let stop = ctrl_c_flag();
    let options = GenerateOptions {
        count: args.count,
        theme: args.theme,
        difficulty: args.difficulty,
        seed: args.seed,
        rules: args.rules,
        players: match args.engine_level {
            Some(level) => GamePlayers::Engine {
                level,
                nodes: args.engine_nodes,
            },
            None => GamePlayers::Policy,
        },
        analyse: AnalyseOptions {
            margin: args.margin,
            time_limit,
            max_nodes: args.max_nodes,
            stop: Arc::clone(&stop),
            ..AnalyseOptions::default()
        },
        max_candidates: args.max_candidates,
        threads: args.threads,
    };
    let bar = ProgressBar::with_draw_target(Some(args.count as u64), ProgressDrawTarget::hidden());
    if show_progress() {
        bar.set_draw_target(ProgressDrawTarget::stderr());
    }
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:30} {pos}/{len} puzzles, {msg} [{elapsed}] (Ctrl-C stops, keeping what is written)",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let start = Instant::now();
    let mut written: Vec<WrittenPuzzle> = Vec::new();
    let mut failure: Option<miette::Report> = None;
    // Each puzzle is written as soon as it is found, so that an interrupted run keeps them.
    let summary = generate_each(&options, &mut |event| match event {
        GenerateEvent::Progress(p) => {
            bar.set_position(p.found as u64);
            bar.set_message(format!("{} tried", count(p.tried as i64, "candidate")));
            ControlFlow::Continue(())
        }
        GenerateEvent::Found(generated) => {
            let path = &names[written.len()];
            match write_puzzle(generated, path, args) {
                Ok(puzzle) => {
                    if !args.json {
                        let line = format!(
                            "Wrote {}: {} [{}; {}]\n",
                            puzzle.file,
                            puzzle.question,
                            puzzle.difficulty,
                            puzzle.themes.join(", ")
                        );
                        if let Err(e) = bar.suspend(|| emit_text(&line)) {
                            failure = Some(e);
                            return ControlFlow::Break(());
                        }
                    }
                    written.push(puzzle);
                    bar.set_position(written.len() as u64);
                    ControlFlow::Continue(())
                }
                Err(e) => {
                    failure = Some(e);
                    ControlFlow::Break(())
                }
            }
        }
    });
    bar.finish_and_clear();
    let elapsed = start.elapsed();
    if let Some(failure) = failure {
        return Err(failure);
    }
    let interrupted = stop.load(Ordering::Relaxed);
    if written.is_empty() {
        if interrupted {
            return Err(Failure::new(
                Exit::Interrupted,
                format!(
                    "stopped by Ctrl-C after {}; no puzzle found yet",
                    count(summary.tried as i64, "candidate")
                ),
            )
            .into());
        }
        return Err(miette!(
            help = "try another --seed, a larger --max-candidates, or drop --theme/--difficulty",
            "no puzzle found in {}",
            count(args.max_candidates as i64, "candidate")
        ));
    }
    let indexed = write_index(&args.output)?;
    let report = GenerateReport {
        wanted: args.count,
        candidates_analysed: summary.tried,
        seconds: elapsed.as_secs_f64(),
        stopped_by: if interrupted {
            Some("interrupted")
        } else if written.len() < args.count {
            Some("candidates")
        } else {
            None
        },
        index: Some(readme.display().to_string()),
        puzzles: written,
    };
    if args.json {
        emit_json(&report)?;
    } else {
        emit_text(&summary_text(&report, args, indexed))?;
    }
    if interrupted {
        return Err(Failure::new(Exit::Interrupted, "").into());
    }
    Ok(())
}

/// Writes one puzzle file; what `--json` says of it.
fn write_puzzle(
    generated: &Generated,
    path: &Path,
    args: &GenerateArgs,
) -> miette::Result<WrittenPuzzle> {
    let a = &generated.analysis;
    // The title names the idea, from what the answer does (`docs/puzzles.md`, "Titles").
    let title = cathedral::puzzle::idea_title(&a.position, a.best_move, &a.themes);
    let mut puzzle = puzzle_file(generated, title.clone(), args.margin);
    // The answer key: the most tempting wrong move, solved exactly, stored with its refutation
    // (as `cathedral puzzles refute` adds it to older files).
    let options = AnalyseOptions {
        time_limit: args.time_limit,
        max_nodes: u64::MAX,
        threads: 1,
        ..AnalyseOptions::default()
    };
    if let Some(p) = puzzle.puzzle.as_mut() {
        p.tempting = cathedral::puzzle::wrong_try(&puzzle.position, &options)
            .and_then(|w| cathedral::puzzle::tempting_block(&w));
    }
    std::fs::create_dir_all(&args.output)
        .into_diagnostic()
        .wrap_err_with(|| format!("cannot create {}", args.output.display()))?;
    file::save(path, &puzzle, args.force).map_err(FileDiagnostic::from)?;
    Ok(WrittenPuzzle {
        file: path.display().to_string(),
        title,
        question: puzzle
            .puzzle
            .as_ref()
            .map_or_else(String::new, |p| p.question.clone()),
        difficulty: a.difficulty.name(),
        themes: a.themes.iter().map(|t| t.name()).collect(),
        rating: a.features.rating(),
        value: a.value,
        best_move: puzzle
            .solution
            .as_ref()
            .and_then(|s| s.best_move.clone())
            .unwrap_or_default(),
        candidate: generated.index,
    })
}

fn summary_text(report: &GenerateReport, args: &GenerateArgs, indexed: usize) -> String {
    let found = report.puzzles.len();
    let mut out = format!(
        "{} in {:.1} s ({:.1} per minute); {} candidates analysed\n",
        count(found as i64, "puzzle"),
        report.seconds,
        found as f64 * 60.0 / report.seconds.max(1e-9),
        report.candidates_analysed
    );
    match report.stopped_by {
        Some("interrupted") => out.push_str(&format!(
            "Stopped by Ctrl-C: {found} of {} written.\n",
            count(args.count as i64, "puzzle")
        )),
        Some(_) => out.push_str(&format!(
            "Only {found} of {} found within --max-candidates {}.\n",
            count(args.count as i64, "puzzle"),
            args.max_candidates
        )),
        None => {}
    }
    out.push_str(&format!(
        "Updated {} ({})\n",
        args.output.join("README.md").display(),
        count(indexed as i64, "puzzle")
    ));
    out
}
