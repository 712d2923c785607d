//! `cathedral check FILE MOVE`: is this the answer? If not, what it loses and why.

use super::shared::input::load_position;
use super::shared::output::emit;
use super::shared::search::{ZeroSeconds, time_limit as seconds};
use cathedral::legality::parse_move;
use cathedral::puzzle::AnalyseOptions;
use cathedral::puzzle::check;
use miette::miette;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// Puzzle or position file (YAML).
    pub file: PathBuf,
    /// The move, like `dark:inn:c3,c4,d4`.
    #[arg(value_name = "MOVE")]
    pub mv: String,
    /// Seconds per solve.
    #[arg(long, default_value_t = 60.0, value_name = "SECS")]
    pub time_limit: f64,
}

pub fn run(args: &CheckArgs) -> miette::Result<()> {
    let path = &args.file;
    let text = &args.mv;
    let time_limit = args.time_limit;
    let duration = seconds(time_limit, ZeroSeconds::Refused)?;
    let file = load_position(path)?;
    let position = file.position;
    if position.is_game_over() {
        return Err(miette!(
            "the game is over in {}: there is no move to check",
            path.display()
        ));
    }
    let mv = parse_move(&position, text).map_err(|e| {
        miette!(
            help = "`cathedral moves FILE` lists the legal moves",
            "`{text}` cannot be played here: {e}"
        )
    })?;
    let options = AnalyseOptions {
        time_limit: duration,
        max_nodes: u64::MAX,
        tt_mb: 128,
        ..AnalyseOptions::default()
    };
    let report = check(&position, mv, &options).ok_or_else(|| {
        miette!(
            help = "raise --time-limit",
            "could not solve the position exactly within {time_limit} s"
        )
    })?;
    if let Some(stored) = file.solution.as_ref().filter(|s| !s.wdl)
        && stored.value != report.best_value
    {
        return Err(miette!(
            "{} stores the value {} but the position is worth {}: the file is wrong",
            path.display(),
            stored.value,
            report.best_value
        ));
    }
    emit(&report.to_string())?;
    if report.is_correct() {
        Ok(())
    } else {
        // Not an error, but scripts can tell: exit status 1.
        std::process::exit(1)
    }
}
