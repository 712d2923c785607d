//! `cathedral sheet DIR [-o sheet.html]`: a printable worksheet of puzzles from a directory, to
//! a file or to standard output: 4 or 6 puzzles a page on A4 or US Letter, a legend on every
//! page, answers on pages of their own. Which puzzles: those named (`--pick`), all of them
//! (`--all`), or by default a mix of themes and levels (`cathedral::puzzle::theme_mix`). Each
//! answer shows the most tempting wrong move refuted: read from the file when it stores it,
//! otherwise a solve per puzzle, in parallel, with a progress bar; Ctrl-C stops them and the
//! sheet is written with the refutations found (exit 130).

use super::shared::exit::{Exit, Failure};
use super::shared::limits;
use super::shared::output::show_progress;
use super::shared::output::{emit_text, is_stdout, write_document};
use super::shared::output::{refuse_input_as_output, refuse_overwrite};
use super::shared::puzzle_dir::puzzle_files;
use super::shared::search::ctrl_c_flag;
use cathedral::file::{Difficulty, PositionFile, Theme};
use cathedral::present::words::count;
use cathedral::puzzle::{AnalyseOptions, WrongTry, stored_try, wrong_try};
use cathedral::puzzle::{Paper, PerPage, SheetOptions, SheetPuzzle, sheet_html, theme_mix};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// `--paper`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default)]
pub enum PaperArg {
    /// ISO A4, 210 x 297 mm.
    #[default]
    A4,
    /// US Letter, 8.5 x 11 in.
    Letter,
}

/// `--per-page`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default)]
pub enum PerPageArg {
    /// Two columns of two.
    #[default]
    #[value(name = "4")]
    Four,
    /// Three columns of two.
    #[value(name = "6")]
    Six,
}

#[derive(clap::Args, Debug)]
#[command(after_help = "\
Which puzzles:
  --pick NAMES   the puzzles named, in that order
  --all          every puzzle of DIR, by file name
  otherwise      a mix of themes and levels: --count puzzles (default two pages: 8, or 12 with
                 --per-page 6), taking the themes in turn (capture, claim, block, tempo,
                 cathedral-capture, diagonal-trap, endgame-count, or those of --theme in their
                 order) and, pick by pick, the levels in turn (easy, medium, hard). Each pick is
                 the first puzzle by file name whose first theme is the turn's theme, at the
                 pick's level if there is one, else the first that carries the theme, else the
                 first left. The picks are printed easiest first.
--theme and --difficulty keep only the puzzles with one of those themes or levels (for the mix
or --all).

Each page: the puzzles, a line for the pupil's name, lines for each answer and a legend (the
building codes, colours and territory patterns, how cells are named). The questions ask without
telling; the answers, on pages of their own, give each puzzle's title, the answer move and its
idea in a sentence, the best line and the tempting wrong move refuted.

Examples:
  cathedral sheet puzzles/teaching -o sheet.html          # 8 puzzles, 4 a page, A4
  cathedral sheet puzzles/teaching --per-page 6 --paper letter -o sheet.html
  cathedral sheet puzzles/teaching --theme claim,capture --count 4 -o claims.html
  cathedral sheet puzzles/teaching --pick puzzle-046,puzzle-072 -o two.html
  chromium --headless --no-sandbox --no-pdf-header-footer --print-to-pdf=sheet.pdf \\
      file://$PWD/sheet.html")]
pub struct SheetArgs {
    /// Directory of puzzle files.
    pub dir: PathBuf,
    /// The HTML file to write (standard output without it, or with `-`).
    #[arg(short, long, value_name = "OUT.html")]
    pub output: Option<PathBuf>,
    /// The worksheet's heading.
    #[arg(long)]
    pub title: Option<String>,
    /// Puzzles per printed page: 4 (two columns of two) or 6 (three columns of two).
    #[arg(long, value_enum, default_value_t = PerPageArg::Four, value_name = "N")]
    pub per_page: PerPageArg,
    /// Paper size, with 10 mm margins: a4 (210 x 297 mm) or letter (8.5 x 11 in). Print at 100 %
    /// ("default" margins, no headers and footers).
    #[arg(long, value_enum, default_value_t = PaperArg::A4)]
    pub paper: PaperArg,
    /// How many puzzles in the default mix (default: two pages, 8 with 4 a page, 12 with 6).
    #[arg(long, value_parser = limits::count, conflicts_with_all = ["pick", "all"])]
    pub count: Option<usize>,
    /// Only puzzles with one of these themes, comma-separated: capture, cathedral-capture, claim,
    /// block, diagonal-trap, tempo, endgame-count (the mix takes them in the order given).
    #[arg(long, value_delimiter = ',', conflicts_with = "pick")]
    pub theme: Vec<Theme>,
    /// Only puzzles of these levels, comma-separated: easy, medium, hard.
    #[arg(long, value_delimiter = ',', conflicts_with = "pick")]
    pub difficulty: Vec<Difficulty>,
    /// These puzzles, in this order: file names in DIR, comma-separated, with or without
    /// `.yaml` (puzzle-046,puzzle-072).
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "NAMES",
        conflicts_with = "all"
    )]
    pub pick: Vec<String>,
    /// Every puzzle of DIR (that --theme and --difficulty keep), by file name.
    #[arg(long)]
    pub all: bool,
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

impl SheetArgs {
    fn options(&self) -> SheetOptions {
        SheetOptions {
            paper: match self.paper {
                PaperArg::A4 => Paper::A4,
                PaperArg::Letter => Paper::Letter,
            },
            per_page: match self.per_page {
                PerPageArg::Four => PerPage::Four,
                PerPageArg::Six => PerPage::Six,
            },
        }
    }
}

/// The puzzles of the sheet, chosen from `files` (all of DIR, by name) as the options say.
fn select(
    args: &SheetArgs,
    files: Vec<(String, PositionFile)>,
) -> miette::Result<Vec<(String, PositionFile)>> {
    if !args.pick.is_empty() {
        let mut files: Vec<Option<(String, PositionFile)>> = files.into_iter().map(Some).collect();
        let mut chosen = Vec::new();
        for wanted in &args.pick {
            let wanted = wanted.trim();
            let stem = |name: &str| {
                name.strip_suffix(".yaml")
                    .or_else(|| name.strip_suffix(".yml"))
                    .unwrap_or(name)
                    .to_string()
            };
            let found = files.iter().position(|f| {
                f.as_ref()
                    .is_some_and(|(name, _)| stem(name) == stem(wanted))
            });
            match found.and_then(|i| files[i].take()) {
                Some(file) => chosen.push(file),
                None => {
                    return Err(Failure::new(
                        Exit::Input,
                        format!(
                            "--pick: {} holds no puzzle `{wanted}` (or it is named twice)",
                            args.dir.display()
                        ),
                    )
                    .help("name puzzle files of DIR, with or without .yaml: --pick puzzle-046,puzzle-072")
                    .into());
                }
            }
        }
        return Ok(chosen);
    }
    let kept: Vec<(String, PositionFile)> = files
        .into_iter()
        .filter(|(_, file)| {
            let Some(info) = &file.puzzle else {
                return false;
            };
            let themes_ok = args.theme.is_empty()
                || info
                    .themes
                    .iter()
                    .any(|t| t.parse::<Theme>().is_ok_and(|t| args.theme.contains(&t)));
            let level_ok = args.difficulty.is_empty()
                || info
                    .difficulty
                    .parse::<Difficulty>()
                    .is_ok_and(|d| args.difficulty.contains(&d));
            themes_ok && level_ok
        })
        .collect();
    if kept.is_empty() {
        return Err(Failure::new(
            Exit::Input,
            format!(
                "{} holds no puzzle with the --theme and --difficulty asked for",
                args.dir.display()
            ),
        )
        .into());
    }
    if args.all {
        return Ok(kept);
    }
    let count = args.count.unwrap_or(2 * args.options().per_page.count());
    let refs: Vec<&PositionFile> = kept.iter().map(|(_, f)| f).collect();
    let picks = theme_mix(&refs, count, &args.theme);
    let mut kept: Vec<Option<(String, PositionFile)>> = kept.into_iter().map(Some).collect();
    Ok(picks.into_iter().filter_map(|i| kept[i].take()).collect())
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
    let files = select(args, files)?;
    let options = args.options();
    let per_page = options.per_page.count();
    if let Some(wanted) = args.count
        && wanted > files.len()
    {
        eprintln!(
            "note: {} asked for, {} chosen: the directory holds no more that fit",
            count(wanted as i64, "puzzle"),
            files.len()
        );
    }
    let empty = files.len().next_multiple_of(per_page) - files.len();
    if empty > 0 {
        eprintln!(
            "note: the last page has {} ({}, {per_page} a page)",
            count(empty as i64, "empty place"),
            count(files.len() as i64, "puzzle")
        );
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
    write_document(output, &sheet_html(&title, &puzzles, &options), args.force)?;
    if let Some(output) = output {
        emit_text(&format!(
            "Wrote {} ({} on {}, {} a page; answers after them)\n",
            output.display(),
            count(puzzles.len() as i64, "puzzle"),
            count(puzzles.len().div_ceil(per_page) as i64, "page"),
            per_page
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
