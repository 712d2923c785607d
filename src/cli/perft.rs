//! `cathedral perft [FILE] DEPTH`: count move sequences and time the move generator.

use super::shared::exit::{Exit, Failure};
use super::shared::input::position_or_default;
use super::shared::limits;
use super::shared::output::{emit, emit_json};
use cathedral::analysis::words::{rate_text, time_text};
use cathedral::boardgame::{divide, perft};
use cathedral::notation::format_move;
use serde::Serialize;
use std::path::Path;
use std::time::Instant;

/// Splits `[FILE] DEPTH` (clap cannot put an optional positional before a required one).
fn file_and_depth(args: &[String]) -> miette::Result<(Option<&Path>, u32)> {
    let (file, depth) = match args {
        [depth] => (None, depth),
        [file, depth] => (Some(Path::new(file.as_str())), depth),
        _ => return Err(Failure::new(Exit::Usage, "expected `[FILE] DEPTH`").into()),
    };
    let depth = limits::depth(depth).map_err(|e| Failure::new(Exit::Usage, e))?;
    Ok((file, depth))
}

#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    /// [FILE] DEPTH: an optional position file, then the depth.
    #[arg(value_name = "[FILE] DEPTH", num_args = 1..=2, required = true)]
    pub args: Vec<String>,
    /// Print the count below each root move.
    #[arg(long)]
    pub divide: bool,
    /// The game: `corintho` for Corintho (also chosen by a FILE with `game: corintho`).
    #[arg(long, value_enum, value_name = "GAME")]
    pub game: Option<super::GameName>,
    /// Print the count (and with --divide each root move's) as JSON.
    #[arg(long)]
    pub json: bool,
}

/// One root move's count.
#[derive(Serialize)]
struct Divided {
    #[serde(rename = "move")]
    mv: String,
    count: u64,
}

/// What `--json` prints.
#[derive(Serialize)]
struct PerftReport {
    depth: u32,
    count: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    divide: Option<Vec<Divided>>,
    seconds: f64,
    moves_per_second: f64,
}

pub fn run(args: &PerftArgs) -> miette::Result<()> {
    let (file, depth) = file_and_depth(&args.args)?;
    if super::corintho::selected(args.game, file) {
        return super::corintho::perft_command(file, depth, args.divide, args.json);
    }
    let position = position_or_default(file)?;
    let start = Instant::now();
    let (count, divided) = if args.divide && depth > 0 {
        let divided: Vec<Divided> = divide(&position, depth)
            .into_iter()
            .map(|(mv, count)| Divided {
                mv: format_move(&position, mv),
                count,
            })
            .collect();
        (divided.iter().map(|d| d.count).sum(), Some(divided))
    } else {
        (perft(&position, depth), None)
    };
    let elapsed = start.elapsed();
    let report = PerftReport {
        depth,
        count,
        divide: divided,
        seconds: elapsed.as_secs_f64(),
        moves_per_second: count as f64 / elapsed.as_secs_f64().max(1e-9),
    };
    if args.json {
        return emit_json(&report);
    }
    let mut out = String::new();
    for d in report.divide.iter().flatten() {
        out.push_str(&format!("{}: {}\n", d.mv, d.count));
    }
    out.push_str(&format!(
        "perft({depth}) = {count}\ntime: {}, {} moves/s\n",
        time_text(elapsed),
        rate_text(report.moves_per_second)
    ));
    emit(&out)
}
