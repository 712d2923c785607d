//! `cathedral generate --from GAME.yaml`: puzzles from the positions of recorded games where the
//! move played was a proven mistake, written as puzzle files with the directory's index.

use super::GenerateArgs;
use crate::cli::shared::exit::{Exit, Failure};
use crate::cli::shared::input::{FileDiagnostic, load_records};
use crate::cli::shared::output::refuse_overwrite;
use crate::cli::shared::output::{emit_json, emit_text, show_progress};
use crate::cli::shared::puzzle_dir::{is_generated, write_index};
use crate::cli::shared::search::ctrl_c_flag;
use cathedral::file;
use cathedral::present::words::count;
use cathedral::puzzle::AnalyseOptions;
use cathedral::puzzle::{
    FromGameEvent, FromGameOptions, GamePuzzle, from_games_each, game_puzzle_file,
};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use miette::{IntoDiagnostic, WrapErr, miette};
use serde::Serialize;
use std::ops::ControlFlow;
use std::path::Path;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// One puzzle written by `--from`, as `--json` reports it.
#[derive(Serialize)]
struct WrittenGamePuzzle {
    file: String,
    title: String,
    question: String,
    difficulty: &'static str,
    themes: Vec<&'static str>,
    rating: u32,
    game: usize,
    #[serde(rename = "move")]
    move_number: usize,
    value: i32,
    best_move: String,
    played: String,
    played_value: i32,
    loss: i32,
}

/// A `--from` run, as `--json` reports it.
#[derive(Serialize)]
struct FromGameReport {
    puzzles: Vec<WrittenGamePuzzle>,
    games: usize,
    /// Positions of the games with a move played from them.
    positions: usize,
    /// Positions tried: within --max-buildings.
    tried: usize,
    /// Tried and not proven within the budget (or not reached before Ctrl-C).
    skipped: usize,
    /// Proven, but another move was as good (or within the margin), or only one move.
    not_unique: usize,
    /// Proven, and the move played was the one best move.
    played_best: usize,
    seconds: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    stopped_by: Option<&'static str>,
    index: Option<String>,
}

pub(super) fn run_from(args: &GenerateArgs, from: &Path) -> miette::Result<()> {
    let games = load_records(from)?;
    let options = FromGameOptions {
        analyse: AnalyseOptions {
            margin: args.margin,
            time_limit: args.time_limit,
            max_nodes: args.max_nodes,
            stop: ctrl_c_flag(),
            ..AnalyseOptions::default()
        },
        all: args.all,
        max_buildings: args.max_buildings,
        threads: args.threads,
        deadline: None,
        only: None,
    };
    // At most one puzzle per position tried: none of those names may exist.
    let most: usize = games.iter().map(|g| g.moves.len()).sum::<usize>().max(1);
    let width = (args.first + most - 1).to_string().len().max(3);
    let name = |i: usize| {
        args.output
            .join(format!("puzzle-{:0width$}.yaml", args.first + i))
    };
    if !args.force
        && let Some(existing) = (0..most).map(name).find(|p| p.exists())
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
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
    if show_progress() {
        bar.set_draw_target(ProgressDrawTarget::stderr());
    }
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:30} {pos}/{len} positions, {msg} [{elapsed}] (Ctrl-C stops, keeping what is written)",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let start = Instant::now();
    let mut written: Vec<WrittenGamePuzzle> = Vec::new();
    let mut failure: Option<miette::Report> = None;
    let summary = from_games_each(&games, &options, &mut |event| match event {
        FromGameEvent::Progress(p) => {
            bar.set_length(p.candidates as u64);
            bar.set_position(p.tried as u64);
            bar.set_message(format!("{} found, {} skipped", p.found, p.skipped));
            ControlFlow::Continue(())
        }
        FromGameEvent::Judged(_) => ControlFlow::Continue(()),
        FromGameEvent::Found(puzzle) => {
            let path = name(written.len());
            match write_game_puzzle(puzzle, &path, args) {
                Ok(w) => {
                    if !args.json {
                        let line = format!(
                            "Wrote {}: game {}, move {}: {} [{}; {}]\n",
                            w.file,
                            w.game,
                            w.move_number,
                            w.question,
                            w.difficulty,
                            w.themes.join(", ")
                        );
                        if let Err(e) = bar.suspend(|| emit_text(&line)) {
                            failure = Some(e);
                            return ControlFlow::Break(());
                        }
                    }
                    written.push(w);
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
    if let Some(failure) = failure {
        return Err(failure);
    }
    let interrupted = options.analyse.stop.load(Ordering::Relaxed);
    let index = if written.is_empty() {
        None
    } else {
        write_index(&args.output)?;
        Some(readme.display().to_string())
    };
    let counts = summary.counts;
    let report = FromGameReport {
        games: games.len(),
        positions: summary.positions,
        tried: counts.tried,
        skipped: counts.skipped,
        not_unique: counts.not_unique,
        played_best: counts.played_best,
        seconds: start.elapsed().as_secs_f64(),
        stopped_by: interrupted.then_some("interrupted"),
        index,
        puzzles: written,
    };
    if args.json {
        emit_json(&report)?;
    } else {
        emit_text(&from_summary_text(&report, args))?;
    }
    if interrupted {
        return Err(Failure::new(Exit::Interrupted, "").into());
    }
    Ok(())
}

fn write_game_puzzle(
    puzzle: &GamePuzzle,
    path: &Path,
    args: &GenerateArgs,
) -> miette::Result<WrittenGamePuzzle> {
    let stem = path
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let a = &puzzle.analysis;
    let mover = a.position.to_move().title();
    let what = if puzzle.loss() > 0 {
        "find the better move"
    } else {
        "find the move played"
    };
    let title = format!(
        "{stem}: game {}, move {}: {mover} to {what} ({})",
        puzzle.game, puzzle.ply, a.difficulty
    );
    let file_data = game_puzzle_file(puzzle, title.clone(), args.margin);
    std::fs::create_dir_all(&args.output)
        .into_diagnostic()
        .wrap_err_with(|| format!("cannot create {}", args.output.display()))?;
    file::save(path, &file_data, args.force).map_err(FileDiagnostic::from)?;
    let game = file_data.puzzle.as_ref().and_then(|p| p.game.as_ref());
    Ok(WrittenGamePuzzle {
        file: path.display().to_string(),
        title,
        question: file_data
            .puzzle
            .as_ref()
            .map_or_else(String::new, |p| p.question.clone()),
        difficulty: a.difficulty.name(),
        themes: a.themes.iter().map(|t| t.name()).collect(),
        rating: a.features.rating(),
        game: puzzle.game,
        move_number: puzzle.ply,
        value: a.value,
        best_move: file_data
            .solution
            .as_ref()
            .and_then(|s| s.best_move.clone())
            .unwrap_or_default(),
        played: game.map_or_else(String::new, |g| g.played.clone()),
        played_value: puzzle.played_value,
        loss: puzzle.loss(),
    })
}

fn from_summary_text(report: &FromGameReport, args: &GenerateArgs) -> String {
    let mut out = format!(
        "{} from {} ({}) in {:.1} s: {} tried (at most {} left in the larger hand), {} skipped (not proven within the budget), {} with several good moves, {} where the move played was the one best move\n",
        count(report.puzzles.len() as i64, "puzzle"),
        count(report.games as i64, "game"),
        count(report.positions as i64, "position"),
        report.seconds,
        report.tried,
        count(i64::from(args.max_buildings), "building"),
        report.skipped,
        report.not_unique,
        report.played_best,
    );
    if report.stopped_by.is_some() {
        out.push_str("Stopped by Ctrl-C: the positions not reached are counted as skipped.\n");
    }
    if let Some(index) = &report.index {
        out.push_str(&format!(
            "Updated {index} ({})\n",
            count(report.puzzles.len() as i64, "puzzle")
        ));
    }
    out
}
