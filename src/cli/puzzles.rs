//! `cathedral puzzles rate DIR`: measures every puzzle's Glicko-2 rating with simulated solvers
//! and stores it in the file's `puzzle:` block (`near_best`, `glicko`), leaving the rest of the
//! file as written; the directory's generated index is rewritten with the ratings. A file whose
//! content would not change is not written. See `docs/puzzles.md`, "Ratings".

use super::shared::exit::{Exit, Failure};
use super::shared::input::FileDiagnostic;
use super::shared::output::emit_text;
use super::shared::puzzle_dir::{is_generated, some_puzzle_files};
use cathedral::file::PositionFile;
use cathedral::file::PuzzleTempting;
use cathedral::present::words::count;
use cathedral::puzzle::rating::{
    DEFAULT_ATTEMPTS, DEFAULT_SEED, Measurement, RateOptions, SOLVERS, calibrate, measure, rate,
    solver_ratings, with_rating,
};
use cathedral::puzzle::refute::with_tempting;
use cathedral::puzzle::{
    AnalyseOptions, Difficulty, idea_title, index_markdown, tempting_block, wrong_try,
};
use miette::IntoDiagnostic;
use rayon::prelude::*;
use std::path::{Path, PathBuf};

/// Commands on a directory of puzzles.
#[derive(clap::Subcommand, Debug)]
pub enum PuzzlesCommand {
    /// Measure each puzzle's Glicko-2 rating (simulated solvers of fixed ratings) and store it in
    /// the puzzle file; files whose content would not change are left alone.
    Rate(RateArgs),
    /// Solve each puzzle's most tempting wrong move exactly and store it with its refutation
    /// (`puzzle.tempting`); files that already carry it, or come from a game, are left alone.
    Refute(RefuteArgs),
    /// Give every puzzle the title of its idea, made from what its answer does ("Dark's Bridge
    /// captures Light's Tavern"); the rest of each file is kept as written.
    Retitle(RetitleArgs),
}

#[derive(clap::Args, Debug)]
pub struct RetitleArgs {
    /// Directory of puzzle files.
    pub dir: PathBuf,
    /// Say what would change without writing any file.
    #[arg(long)]
    pub dry_run: bool,
}

#[derive(clap::Args, Debug)]
pub struct RefuteArgs {
    /// Directory of puzzle files.
    pub dir: PathBuf,
    /// Say what would change without writing any file.
    #[arg(long)]
    pub dry_run: bool,
    /// Time per solve: seconds, or 500ms, 30s, 2m, 1h.
    #[arg(long, default_value = "60", value_name = "SECS", value_parser = super::shared::limits::positive_seconds)]
    pub time_limit: std::time::Duration,
}

#[derive(clap::Args, Debug)]
pub struct RateArgs {
    /// Directory of puzzle files.
    pub dir: PathBuf,
    /// Seeds every attempt: the same seed and attempts give the same ratings.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Attempts per solver and puzzle.
    #[arg(long, default_value_t = DEFAULT_ATTEMPTS, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub attempts: u32,
    /// Print the ratings without writing any file.
    #[arg(long)]
    pub dry_run: bool,
    /// Fit the solvers' ratings to these puzzles (the one-off calibration) and print them;
    /// writes nothing.
    #[arg(long)]
    pub calibrate: bool,
}

pub fn run(command: &PuzzlesCommand) -> miette::Result<()> {
    match command {
        PuzzlesCommand::Rate(args) => rate_dir(args),
        PuzzlesCommand::Refute(args) => refute_dir(args),
        PuzzlesCommand::Retitle(args) => retitle_dir(args),
    }
}

fn refute_dir(args: &RefuteArgs) -> miette::Result<()> {
    let dir = args.dir.as_path();
    let files = some_puzzle_files(dir)?;
    let options = AnalyseOptions {
        time_limit: args.time_limit,
        max_nodes: u64::MAX,
        tt_mb: 64,
        initial_tt_mb: Some(1),
        threads: 1,
        ..AnalyseOptions::default()
    };
    let stored = |file: &PositionFile| {
        file.puzzle
            .as_ref()
            .is_some_and(|p| p.game.is_some() || p.tempting.is_some())
    };
    let found: Vec<Option<PuzzleTempting>> = files
        .par_iter()
        .map(|(_, file)| {
            if stored(file) {
                None
            } else {
                wrong_try(&file.position, &options).and_then(|w| tempting_block(&w))
            }
        })
        .collect();
    let mut out = String::new();
    let (mut changed, mut kept, mut none) = (0usize, 0usize, Vec::new());
    for ((name, file), tempting) in files.iter().zip(&found) {
        if stored(file) {
            kept += 1;
            continue;
        }
        let Some(tempting) = tempting else {
            none.push(name.clone());
            continue;
        };
        let path = dir.join(name);
        let text = std::fs::read_to_string(&path)
            .into_diagnostic()
            .map_err(|e| e.wrap_err(format!("cannot read {}", path.display())))?;
        let new_text = with_tempting(&text, file, tempting)
            .map_err(|e| Failure::new(Exit::Failure, format!("{}: {e}", path.display())))?;
        if new_text != text {
            changed += 1;
            if !args.dry_run {
                cathedral::file::write_atomically(&path, new_text.as_bytes(), true)
                    .map_err(FileDiagnostic::from)?;
            }
            out.push_str(&format!(
                "{name:<16} {:<7} {} ({:+}), refuted in {}\n",
                tempting.kind,
                tempting.played,
                tempting.value,
                count(tempting.refutation.len() as i64, "move")
            ));
        }
    }
    for name in &none {
        out.push_str(&format!(
            "{name:<16} no tempting move (none wrong, or not solved in time)\n"
        ));
    }
    let verb = if args.dry_run {
        "would change"
    } else {
        "changed"
    };
    out.push_str(&format!(
        "{changed} of {} {verb}; {kept} already stored a wrong try; {} without a tempting move\n",
        count(files.len() as i64, "puzzle file"),
        none.len()
    ));
    emit_text(&out)
}

/// Rewrites DIR/README.md from `files` when `cathedral index` wrote it (and its content
/// changes); the path and whether it changed (or, with `dry_run`, would).
fn rewrite_index(
    dir: &Path,
    files: &[(String, PositionFile)],
    dry_run: bool,
) -> miette::Result<(std::path::PathBuf, bool)> {
    let readme = dir.join("README.md");
    if !is_generated(&readme) {
        return Ok((readme, false));
    }
    let heading = dir.file_name().map_or_else(
        || "Puzzles".to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let index = index_markdown(&format!("Puzzles: {heading}"), files);
    if std::fs::read_to_string(&readme).ok().as_deref() == Some(index.as_str()) {
        return Ok((readme, false));
    }
    if !dry_run {
        cathedral::file::write_atomically(&readme, index.as_bytes(), true)
            .map_err(FileDiagnostic::from)?;
    }
    Ok((readme, true))
}

/// Gives every puzzle of DIR the title of its idea (`idea_title`), leaving the rest of each
/// file as written, and rewrites the generated index.
fn retitle_dir(args: &RetitleArgs) -> miette::Result<()> {
    let dir = args.dir.as_path();
    let files = some_puzzle_files(dir)?;
    let mut out = String::new();
    let mut changed = 0;
    let mut retitled = Vec::new();
    for (name, file) in &files {
        let path = dir.join(name);
        let Some(best) = file
            .solution
            .as_ref()
            .and_then(|s| s.best_move.as_deref())
            .and_then(|m| cathedral::legality::parse_move(&file.position, m).ok())
        else {
            out.push_str(&format!("{name:<16} no best move stored: title kept\n"));
            retitled.push((name.clone(), file.clone()));
            continue;
        };
        let themes: Vec<cathedral::puzzle::Theme> = file
            .puzzle
            .as_ref()
            .map(|p| p.themes.iter().filter_map(|t| t.parse().ok()).collect())
            .unwrap_or_default();
        let title = idea_title(&file.position, best, &themes);
        let mut new_file = file.clone();
        new_file.meta.title = Some(title.clone());
        retitled.push((name.clone(), new_file));
        let text = std::fs::read_to_string(&path)
            .into_diagnostic()
            .map_err(|e| e.wrap_err(format!("cannot read {}", path.display())))?;
        // Written as the canonical writer writes it (quoted only where YAML needs it).
        #[derive(serde::Serialize)]
        struct TitleLine<'a> {
            title: &'a str,
        }
        let line = serde_saphyr::to_string(&TitleLine { title: &title })
            .into_diagnostic()?
            .trim_end()
            .to_string();
        if text.lines().any(|l| l == line) {
            continue;
        }
        let new_text = match text.lines().position(|l| l.starts_with("title:")) {
            Some(i) => {
                let mut lines: Vec<&str> = text.lines().collect();
                lines[i] = &line;
                let mut joined = lines.join("\n");
                joined.push('\n');
                joined
            }
            None => format!("{line}\n{text}"),
        };
        // Never write a file that would not load back, or that loads as another puzzle.
        let reread = cathedral::file::parse_str(&path.display().to_string(), &new_text)
            .map_err(FileDiagnostic::from)?;
        if reread.position != file.position || reread.solution != file.solution {
            return Err(Failure::new(
                Exit::Failure,
                format!("{}: the new title would change the puzzle", path.display()),
            )
            .into());
        }
        changed += 1;
        if !args.dry_run {
            cathedral::file::write_atomically(&path, new_text.as_bytes(), true)
                .map_err(FileDiagnostic::from)?;
        }
        out.push_str(&format!("{name:<16} {title}\n"));
    }
    let index = rewrite_index(dir, &retitled, args.dry_run)?;
    out.push_str(&summary(
        changed,
        &count(files.len() as i64, "puzzle title"),
        &index,
        args.dry_run,
    ));
    emit_text(&out)
}

/// "3 of 314 puzzle files changed; the index DIR/README.md changed" (or "would change").
fn summary(changed: usize, of: &str, index: &(std::path::PathBuf, bool), dry_run: bool) -> String {
    let verb = if dry_run { "would change" } else { "changed" };
    let (readme, index_changed) = index;
    format!(
        "{changed} of {of} {verb}{}\n",
        if *index_changed {
            format!(
                "; the index {} {verb}",
                readme.display().to_string().replace('\\', "/")
            )
        } else {
            String::new()
        }
    )
}

fn median(values: &mut [u32]) -> u32 {
    values.sort_unstable();
    match values.len() {
        0 => 0,
        n if n % 2 == 1 => values[n / 2],
        n => (values[n / 2 - 1] + values[n / 2]).div_ceil(2),
    }
}

fn measured(
    dir: &Path,
    files: &[(String, PositionFile)],
    options: &RateOptions,
) -> miette::Result<Vec<Measurement>> {
    files
        .par_iter()
        .map(|(name, file)| {
            measure(file, options).map_err(|e| {
                Failure::new(Exit::Input, format!("{}: {e}", dir.join(name).display())).into()
            })
        })
        .collect()
}

fn rate_dir(args: &RateArgs) -> miette::Result<()> {
    let dir = args.dir.as_path();
    let files = some_puzzle_files(dir)?;
    let options = RateOptions {
        seed: args.seed,
        attempts: args.attempts,
        ..RateOptions::default()
    };
    let measurements = measured(dir, &files, &options)?;
    if args.calibrate {
        let fitted = calibrate(&measurements);
        let mut out = format!(
            "Solver ratings fitted to {} (seed {}, {} per solver and puzzle):\n",
            count(files.len() as i64, "puzzle"),
            args.seed,
            count(i64::from(args.attempts), "attempt")
        );
        for (i, (solver, rating)) in SOLVERS.iter().zip(&fitted).enumerate() {
            let solved: u32 = measurements.iter().map(|m| m.solved_counts()[i]).sum();
            let tries = files.len() as u32 * args.attempts;
            out.push_str(&format!(
                "  {:<9} {:>5.0}  (solved {solved}/{tries}, now {:.0})\n",
                solver.name, rating, solver.rating
            ));
        }
        return emit_text(&out);
    }
    let ratings = solver_ratings();
    let mut out = String::new();
    let mut changed = Vec::new();
    let mut by_grade: Vec<(Difficulty, Vec<u32>)> =
        Difficulty::ALL.iter().map(|&d| (d, Vec::new())).collect();
    let mut rated_files = Vec::new();
    for ((name, file), m) in files.iter().zip(&measurements) {
        let glicko = rate(m, &ratings);
        let stored = glicko.stored();
        let path = dir.join(name);
        let text = std::fs::read_to_string(&path)
            .into_diagnostic()
            .map_err(|e| e.wrap_err(format!("cannot read {}", path.display())))?;
        let new_text = with_rating(&text, file, m.near_best, stored)
            .map_err(|e| Failure::new(Exit::Failure, format!("{}: {e}", path.display())))?;
        let differs = new_text != text;
        if differs {
            changed.push(name.clone());
            if !args.dry_run {
                cathedral::file::write_atomically(&path, new_text.as_bytes(), true)
                    .map_err(FileDiagnostic::from)?;
            }
        }
        if let Some((_, list)) = by_grade.iter_mut().find(|(d, _)| *d == m.difficulty) {
            list.push(stored.rating);
        }
        let solved: u32 = m.solved_counts().iter().sum();
        let prior = m.prior();
        out.push_str(&format!(
            "{name:<16} {:<6} near {:>2}  solved {:>3}/{:<3} ({})  {:>4.0} -> {:>4} ± {:<3} {}\n",
            m.difficulty.name(),
            m.near_best,
            solved,
            m.attempts * SOLVERS.len() as u32,
            m.solved_counts()
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(" "),
            prior.rating,
            stored.rating,
            stored.deviation,
            if differs { "changed" } else { "" }
        ));
        let mut file = file.clone();
        if let Some(p) = file.puzzle.as_mut() {
            p.near_best = Some(m.near_best);
            p.glicko = Some(stored);
        }
        rated_files.push((name.clone(), file));
    }
    for (d, list) in &mut by_grade {
        if list.is_empty() {
            continue;
        }
        let n = list.len();
        let med = median(list);
        out.push_str(&format!(
            "{:<6} {:>2} puzzles: min {}, median {med}, max {}\n",
            d.name(),
            n,
            list[0],
            list[n - 1]
        ));
    }
    // The directory's index shows the ratings: rewrite it if this command's index wrote it.
    let index = rewrite_index(dir, &rated_files, args.dry_run)?;
    out.push_str(&summary(
        changed.len(),
        &count(files.len() as i64, "puzzle file"),
        &index,
        args.dry_run,
    ));
    emit_text(&out)
}
