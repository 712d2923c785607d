//! `cathedral show`: draw a position, or print it as JSON.

use super::ColorArg;
use super::shared::game::{load_or_bundled, which, with_game};
use super::shared::output::{emit, emit_text, style_for};
use cathedral::frontend::{Bundled, Playable};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct ShowArgs {
    /// Position file (YAML).
    pub file: Option<PathBuf>,
    /// Print the position as JSON instead of a diagram.
    #[arg(long)]
    pub json: bool,
    /// The game: `corintho` for Corintho (also chosen by a FILE with `game: corintho`).
    #[arg(long, value_enum, value_name = "GAME")]
    pub game: Option<super::GameName>,
    #[command(flatten)]
    pub color: ColorArg,
}

pub fn run(args: &ShowArgs) -> miette::Result<()> {
    with_game!(which(args.game, args.file.as_deref()), G => show::<G>(args))
}

fn show<G: Playable>(args: &ShowArgs) -> miette::Result<()> {
    let loaded = load_or_bundled::<G>(args.file.as_deref(), Bundled::Example)?;
    let text = cathedral::frontend::show(&loaded, args.json, style_for(args.color));
    if args.json {
        emit(&text)
    } else {
        emit_text(&text)
    }
}
