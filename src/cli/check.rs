//! `cathedral check FILE MOVE`: is this the answer? If not, what it loses and why.

use super::shared::exit::{Exit, Failure};
use super::shared::input::load_position;
use super::shared::limits;
use super::shared::output::emit;
use cathedral::analysis::words::time_text;
use cathedral::legality::parse_move;
use cathedral::puzzle::AnalyseOptions;
use cathedral::puzzle::check;
use std::path::PathBuf;
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
        Failure::new(Exit::Input, format!("`{text}` cannot be played here: {e}"))
            .help("`cathedral moves FILE` lists the legal moves")
    })?;
    let options = AnalyseOptions {
        time_limit: args.time_limit,
        max_nodes: u64::MAX,
        tt_mb: 128,
        ..AnalyseOptions::default()
    };
    let report = check(&position, mv, &options).ok_or_else(|| {
        Failure::new(
            Exit::Unproven,
            format!(
                "could not solve the position exactly within {}",
                time_text(args.time_limit)
            ),
        )
        .help("raise --time-limit")
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
    emit(&report.to_string())?;
    if report.is_correct() {
        Ok(())
    } else {
        // Not an error, but scripts can tell by the exit status; the output said it all.
        Err(Failure::new(Exit::WrongAnswer, "").into())
    }
}
