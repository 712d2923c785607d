//! `cathedral study check FILE...`: proves every question of each study (`docs/study-format.md`):
//! a "find the move" question's accepted answers must all be best, proven by the solver; a
//! "which cells" question's answer must be what the rules engine says. A study that fails is
//! refused with each problem located (file, line, column).

use super::ColorArg;
use super::shared::exit::{Exit, Failure};
use super::shared::input::{FileDiagnostic, load_records};
use super::shared::limits;
use super::shared::output::{
    emit, emit_json, emit_text, keep_whole, new_table, refuse_overwrite, style_for,
};
use super::shared::search::ctrl_c_flag;
use cathedral::file::{load_study, study_from_record, study_to_yaml};
use cathedral::study_check::{ChapterCheck, StudyCheckOptions, check_study};
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Commands on studies (lessons as files).
#[derive(clap::Subcommand, Debug)]
pub enum StudyCommand {
    /// Prove every question of the studies: accepted moves best (exact solver), cells owned as
    /// the rules say. Exits 5 when an answer is wrong, 4 when a position is not proven in time.
    Check(CheckArgs),
    /// Start a study from a game record: a chapter at the position before each move with a
    /// mark or a comment, for the author to add words and questions to.
    New(NewArgs),
}

#[derive(clap::Args, Debug)]
pub struct NewArgs {
    /// The game record (docs/game-record.md).
    #[arg(long = "from", value_name = "GAME.yaml")]
    pub from: PathBuf,
    /// Which game of the record, from 1.
    #[arg(long, default_value = "1", value_name = "N")]
    pub game: usize,
    /// The study's title (default: the record's players).
    #[arg(long)]
    pub title: Option<String>,
    /// Write the study here instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Overwrite the output file if it exists.
    #[arg(long)]
    pub force: bool,
}

#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// Study files (YAML, docs/study-format.md).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// The most each chapter's proof may take: seconds, or 500ms, 30s, 2m.
    #[arg(long, default_value = "60", value_name = "SECS", value_parser = limits::positive_seconds)]
    pub time_limit: Duration,
    /// Solver threads.
    #[arg(long, default_value = "1", value_name = "N", value_parser = limits::threads)]
    pub threads: usize,
    /// Print each chapter's check as JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub color: ColorArg,
}

pub fn run(command: &StudyCommand) -> miette::Result<()> {
    match command {
        StudyCommand::Check(args) => check(args),
        StudyCommand::New(args) => new(args),
    }
}

#[derive(serde::Serialize)]
struct FileCheck {
    file: String,
    title: String,
    chapters: Vec<ChapterCheck>,
}

fn check(args: &CheckArgs) -> miette::Result<()> {
    let stop = ctrl_c_flag();
    let options = StudyCheckOptions {
        time_limit: args.time_limit,
        threads: args.threads,
        stop: stop.clone(),
        ..StudyCheckOptions::default()
    };
    let mut checked = Vec::new();
    for path in &args.files {
        let study = load_study(path).map_err(FileDiagnostic::from)?;
        checked.push(FileCheck {
            file: path.display().to_string(),
            title: study.title.clone(),
            chapters: check_study(&study, &options),
        });
        if stop.load(Ordering::Relaxed) {
            return Err(Failure::new(Exit::Interrupted, "stopped by Ctrl-C").into());
        }
    }
    let problems: Vec<String> = checked
        .iter()
        .flat_map(|f| {
            f.chapters.iter().flat_map(move |c| {
                c.problems.iter().map(move |p| {
                    format!(
                        "{}:{}:{}: chapter {} ({}): {}",
                        f.file, p.location.line, p.location.column, c.chapter, c.title, p.message
                    )
                })
            })
        })
        .collect();
    // Only unproven, nothing wrong: more time may settle it.
    let problems_of = || {
        checked
            .iter()
            .flat_map(|f| &f.chapters)
            .flat_map(|c| &c.problems)
    };
    let unproven = problems_of().all(|p| p.unproven);
    if args.json {
        emit_json(&checked)?;
    } else {
        let mut out = String::new();
        for f in &checked {
            let mut table = new_table(style_for(args.color));
            table.set_header(["", "chapter", "question", "verdict"]);
            for c in &f.chapters {
                let mut verdict = c.verdict.clone();
                if !c.also_best.is_empty() {
                    verdict.push_str(&format!("; also best: {}", also_best(&c.also_best)));
                }
                table.add_row(vec![
                    c.chapter.to_string(),
                    c.title.clone(),
                    c.question.to_string(),
                    if c.problems.is_empty() {
                        verdict
                    } else {
                        format!("WRONG: {verdict}")
                    },
                ]);
            }
            keep_whole(&mut table, 2);
            out.push_str(&format!("{}: {}\n{table}\n", f.file, f.title));
        }
        if problems.is_empty() {
            let questions: usize = checked
                .iter()
                .flat_map(|f| &f.chapters)
                .filter(|c| c.question != "none")
                .count();
            out.push_str(&format!(
                "Every answer holds: {questions} question{} proven.\n",
                if questions == 1 { "" } else { "s" }
            ));
        }
        emit_text(&out)?;
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(Failure::new(
            if unproven {
                Exit::Unproven
            } else {
                Exit::WrongAnswer
            },
            problems.join("\n"),
        )
        .into())
    }
}

/// How many of the best moves a question does not accept are named in the table.
const ALSO_BEST_SHOWN: usize = 3;

/// The first few best moves a question does not accept, and how many more there are.
fn also_best(moves: &[String]) -> String {
    let shown = moves[..moves.len().min(ALSO_BEST_SHOWN)].join(", ");
    match moves.len().saturating_sub(ALSO_BEST_SHOWN) {
        0 => shown,
        more => format!("{shown} and {more} more"),
    }
}

fn new(args: &NewArgs) -> miette::Result<()> {
    let games = load_records(&args.from)?;
    let Some(record) = args.game.checked_sub(1).and_then(|i| games.get(i)) else {
        return Err(Failure::new(
            Exit::Input,
            format!(
                "{} holds {} game{}: --game {} is not one of them",
                args.from.display(),
                games.len(),
                if games.len() == 1 { "" } else { "s" },
                args.game
            ),
        )
        .into());
    };
    let title = args
        .title
        .clone()
        .unwrap_or_else(|| match (&record.light, &record.dark) {
            (Some(light), Some(dark)) => format!("{light} - {dark}"),
            _ => format!("Game {} of {}", args.game, args.from.display()),
        });
    let study = study_from_record(record, &title);
    if study.chapters.is_empty() {
        return Err(Failure::new(
            Exit::Input,
            format!(
                "game {} of {} has no move with a mark or a comment: mark the moves to teach (docs/game-record.md) and try again",
                args.game,
                args.from.display()
            ),
        )
        .into());
    }
    let text = study_to_yaml(&study);
    match &args.output {
        Some(path) => {
            if path.exists() && !args.force {
                return Err(refuse_overwrite(path));
            }
            cathedral::file::write_atomically(path, text.as_bytes(), args.force)
                .map_err(FileDiagnostic::from)?;
            emit_text(&format!(
                "Wrote {} ({} chapter{}): add words and questions, then `cathedral study check {}`\n",
                path.display(),
                study.chapters.len(),
                if study.chapters.len() == 1 { "" } else { "s" },
                path.display()
            ))
        }
        None => emit(&text),
    }
}
