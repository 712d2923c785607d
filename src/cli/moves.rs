//! `cathedral moves`: the legal moves of the side to move, grouped per piece.

use super::ColorArg;
use super::shared::game::{load_or_bundled, which, with_game};
use super::shared::output::{emit_json, emit_text, style_for};
use cathedral::frontend::{Bundled, MovesReport, Playable};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct MovesArgs {
    /// Position file (YAML).
    pub file: Option<PathBuf>,
    /// List every move instead of a few examples per piece.
    #[arg(long)]
    pub all: bool,
    /// Print every move in canonical notation as JSON.
    #[arg(long)]
    pub json: bool,
    /// The game: `corintho` for Corintho (also chosen by a FILE with `game: corintho`).
    #[arg(long, value_enum, value_name = "GAME")]
    pub game: Option<super::GameName>,
    #[command(flatten)]
    pub color: ColorArg,
}

pub fn run(args: &MovesArgs) -> miette::Result<()> {
    with_game!(which(args.game, args.file.as_deref()), G => moves::<G>(args))
}

fn moves<G: Playable>(args: &MovesArgs) -> miette::Result<()> {
    let position = load_or_bundled::<G>(args.file.as_deref(), Bundled::Example)?.position;
    let report = MovesReport::of(&position);
    if args.json {
        return emit_json(&report);
    }
    emit_text(&report.text(args.all, style_for(args.color)))
}
