//! `cathedral perft [FILE] DEPTH`: count move sequences and time the move generator.

use super::shared::exit::{Exit, Failure};
use super::shared::input::position_or_default;
use super::shared::limits;
use super::shared::output::emit;
use cathedral::analysis::words::{rate_text, time_text};
use cathedral::boardgame::{divide, perft};
use cathedral::notation::format_move;
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
}

pub fn run(args: &PerftArgs) -> miette::Result<()> {
    let (file, depth) = file_and_depth(&args.args)?;
    let position = position_or_default(file)?;
    let start = Instant::now();
    let mut out = String::new();
    let count = if args.divide && depth > 0 {
        let mut total = 0;
        for (mv, n) in divide(&position, depth) {
            out.push_str(&format!("{}: {n}\n", format_move(&position, mv)));
            total += n;
        }
        total
    } else {
        perft(&position, depth)
    };
    let elapsed = start.elapsed();
    let rate = count as f64 / elapsed.as_secs_f64().max(1e-9);
    out.push_str(&format!(
        "perft({depth}) = {count}\ntime: {}, {} moves/s\n",
        time_text(elapsed),
        rate_text(rate)
    ));
    emit(&out)
}
