//! `cathedral check FILE MOVE`: is this the answer? If not, what it loses and why.

use super::ColorArg;
use super::shared::exit::{Exit, Failure};
use super::shared::input::load_position;
use super::shared::limits;
use super::shared::output::{emit_json, emit_text, style_for};
use super::shared::search::{Spinner, ctrl_c_flag};
use cathedral::legality::parse_move;
use cathedral::present::words::time_text;
use cathedral::puzzle::{AnalyseOptions, CheckReport, CheckStage, check_watched};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// Puzzle or position file (YAML).
    pub file: PathBuf,
    /// The move, like `dark:inn:c3,c4,d4`.
    #[arg(value_name = "MOVE")]
    pub mv: String,
    /// Time per solve: seconds, or 500ms, 30s, 2m, 1h.
    #[arg(long, default_value = "60", value_name = "SECS", value_parser = limits::positive_seconds)]
    pub time_limit: Duration,
    /// Worker threads (0 = all cores), at most 64.
    #[arg(long, default_value = "0", value_name = "N", value_parser = limits::threads)]
    pub threads: usize,
    /// Transposition table memory in MiB (1 to 65536); small solves use less.
    #[arg(long, default_value = "256", value_name = "N", value_parser = limits::table_mib)]
    pub tt_mb: usize,
    /// Print the verdict as JSON: `correct`, both values, the loss, and every move explained.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub color: ColorArg,
}

pub fn run(args: &CheckArgs) -> miette::Result<()> {
    let path = &args.file;
    let text = &args.mv;
    let file = load_position(path)?;
    let position = file.position;
    if position.is_game_over() {
        return Err(Failure::new(
            Exit::Input,
            format!(
                "the game is over in {}: there is no move to check",
                path.display()
            ),
        )
        .into());
    }
    let mv = parse_move(&position, text).map_err(|e| {
        Failure::new(
            Exit::Input,
            format!("`{text}` cannot be played here: {}", e.reason()),
        )
        .help("`cathedral moves FILE` lists the legal moves")
    })?;
    // Always solved: a file's stored blocks are checked for consistency when it loads, not
    // proven optimal, and FILE may be anyone's.
    let stop = ctrl_c_flag();
    let options = AnalyseOptions {
        time_limit: args.time_limit,
        max_nodes: u64::MAX,
        tt_mb: args.tt_mb,
        initial_tt_mb: Some(args.tt_mb.min(4)),
        threads: args.threads,
        stop: Arc::clone(&stop),
        ..AnalyseOptions::default()
    };
    let spinner = Spinner::new("");
    let report = check_watched(&position, mv, &options, &|stage, progress| {
        spinner.set_prefix(match stage {
            CheckStage::Position => "Solving the puzzle: ",
            CheckStage::AfterMove => "Solving after your move: ",
        });
        spinner.update(progress);
    });
    spinner.finish();
    let report = report.ok_or_else(|| {
        if stop.load(Ordering::Relaxed) {
            Failure::new(
                Exit::Interrupted,
                "stopped by Ctrl-C before the answer was proven",
            )
        } else {
            Failure::new(
                Exit::Unproven,
                format!(
                    "could not solve the position exactly within {}",
                    time_text(args.time_limit)
                ),
            )
            .help("raise --time-limit")
        }
    })?;
    if let Some(stored) = file.solution.as_ref().filter(|s| !s.wdl)
        && stored.value != report.best_value
    {
        return Err(Failure::new(
            Exit::Input,
            format!(
                "{} stores the value {} but the position is worth {}: the file is wrong",
                path.display(),
                stored.value,
                report.best_value
            ),
        )
        .into());
    }
    finish(args, &report)
}

/// Prints the verdict; a wrong answer exits with its own status.
fn finish(args: &CheckArgs, report: &CheckReport) -> miette::Result<()> {
    if args.json {
        emit_json(report)?;
    } else {
        emit_text(&verdict_text(report, style_for(args.color).color))?;
    }
    if report.is_correct() {
        Ok(())
    } else {
        // Not an error, but scripts can tell by the exit status; the output said it all.
        Err(Failure::new(Exit::WrongAnswer, "").into())
    }
}

/// The report, its verdict word in green (correct) or red (not the answer) when colours are on.
fn verdict_text(report: &CheckReport, color: bool) -> String {
    let text = report.to_string();
    let Some((verdict, rest)) = text.split_once(':').filter(|_| color) else {
        return text;
    };
    let colour = if report.is_correct() {
        anstyle::AnsiColor::Green
    } else {
        anstyle::AnsiColor::Red
    };
    let style = colour.on_default().bold();
    format!("{}{verdict}{}:{rest}", style.render(), style.render_reset())
}
