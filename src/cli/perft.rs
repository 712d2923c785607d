//! `cathedral perft [FILE] DEPTH`: count move sequences and time the move generator.

use super::shared::exit::{Exit, Failure};
use super::shared::game::{load_or_bundled, which, with_game};
use super::shared::limits;
use super::shared::output::{emit_json, emit_text};
use cathedral::frontend::{Bundled, Playable};
use std::path::Path;

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

pub fn run(args: &PerftArgs) -> miette::Result<()> {
    let (file, depth) = file_and_depth(&args.args)?;
    with_game!(which(args.game, file), G => perft::<G>(file, depth, args))
}

fn perft<G: Playable>(file: Option<&Path>, depth: u32, args: &PerftArgs) -> miette::Result<()> {
    let position = load_or_bundled::<G>(file, Bundled::Example)?.position;
    let report = cathedral::frontend::perft(&position, depth, args.divide);
    if args.json {
        return emit_json(&report);
    }
    emit_text(&report.text())
}
