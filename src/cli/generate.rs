//! `cathedral generate`: teaching puzzles from policy games, solved exactly, written as puzzle
//! files, with the directory's index updated.

use super::shared::input::FileDiagnostic;
use super::shared::limits;
use super::shared::output::refuse_overwrite;
use super::shared::output::{emit, show_progress};
use super::shared::puzzle_dir::{is_generated, write_index};
use cathedral::Rules;
use cathedral::analysis::words::count;
use cathedral::file;
use cathedral::puzzle::AnalyseOptions;
use cathedral::puzzle::{Difficulty, Theme};
use cathedral::puzzle::{GenerateOptions, GenerateProgress, generate, puzzle_file};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use miette::{IntoDiagnostic, WrapErr, miette};
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(clap::Args, Debug)]
pub struct GenerateArgs {
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
}

pub fn run(args: &GenerateArgs) -> miette::Result<()> {
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
    let options = GenerateOptions {
        count: args.count,
        theme: args.theme,
        difficulty: args.difficulty,
        seed: args.seed,
        rules: args.rules,
        analyse: AnalyseOptions {
            margin: args.margin,
            time_limit,
            max_nodes: args.max_nodes,
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
        ProgressStyle::with_template("{bar:30} {pos}/{len} puzzles, {msg} [{elapsed}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let start = Instant::now();
    let found = generate(&options, &|p: GenerateProgress| {
        bar.set_position(p.found as u64);
        bar.set_message(format!("{} candidates tried", p.tried));
    });
    bar.finish_and_clear();
    let elapsed = start.elapsed();
    if found.is_empty() {
        return Err(miette!(
            help = "try another --seed, a larger --max-candidates, or drop --theme/--difficulty",
            "no puzzle found in {} candidates",
            args.max_candidates
        ));
    }
    std::fs::create_dir_all(&args.output)
        .into_diagnostic()
        .wrap_err_with(|| format!("cannot create {}", args.output.display()))?;
    let mut out = String::new();
    for (generated, path) in found.iter().zip(&names) {
        let stem = path
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
        let a = &generated.analysis;
        let lead = a.themes.first().map_or("Endgame", |t| t.title());
        let title = format!("{stem}: {lead} ({})", a.difficulty);
        let puzzle = puzzle_file(generated, title, args.margin);
        file::save(path, &puzzle, args.force).map_err(FileDiagnostic::from)?;
        let themes: Vec<&str> = a.themes.iter().map(|t| t.name()).collect();
        out.push_str(&format!(
            "Wrote {}: {} [{}; {}]\n",
            path.display(),
            puzzle.puzzle.as_ref().map_or("", |p| p.question.as_str()),
            a.difficulty,
            themes.join(", ")
        ));
    }
    let tried = found.last().map_or(0, |g| g.index + 1);
    out.push_str(&format!(
        "{} in {:.1} s ({:.1} per minute); {} candidates analysed\n",
        count(found.len() as i64, "puzzle"),
        elapsed.as_secs_f64(),
        found.len() as f64 * 60.0 / elapsed.as_secs_f64().max(1e-9),
        tried
    ));
    if found.len() < args.count {
        out.push_str(&format!(
            "Only {} of {} puzzles found within --max-candidates {}.\n",
            found.len(),
            args.count,
            args.max_candidates
        ));
    }
    let indexed = write_index(&args.output)?;
    out.push_str(&format!(
        "Updated {} ({})\n",
        readme.display(),
        count(indexed as i64, "puzzle")
    ));
    emit(&out)
}
