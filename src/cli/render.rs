//! `cathedral render FILE [-o OUT.svg]`: the SVG diagram of a position, to a file or to
//! standard output.

use super::shared::exit::{Exit, Failure};
use super::shared::game::{load, which, with_game};
use super::shared::output::{emit_text, is_stdout, write_document};
use super::shared::output::{refuse_input_as_output, refuse_overwrite};
use cathedral::frontend::Playable;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct RenderArgs {
    /// Position file (YAML).
    pub file: PathBuf,
    /// The SVG file to write (standard output without it, or with `-`).
    #[arg(short, long, value_name = "OUT.svg")]
    pub output: Option<PathBuf>,
    /// Outline this move's cells.
    #[arg(long = "move", value_name = "MOVE", conflicts_with = "solution")]
    pub mv: Option<String>,
    /// Outline the stored best move (`solution: best_move`).
    #[arg(long)]
    pub solution: bool,
    /// A line of text under the board.
    #[arg(long, value_name = "TEXT")]
    pub caption: Option<String>,
    /// Leave out the hands beside the board.
    #[arg(long)]
    pub no_hands: bool,
    /// The game: `corintho` for Corintho (also chosen by a FILE with `game: corintho`).
    #[arg(long, value_enum, value_name = "GAME")]
    pub game: Option<super::GameName>,
    /// Overwrite the output file if it exists.
    #[arg(long)]
    pub force: bool,
}

pub fn run(args: &RenderArgs) -> miette::Result<()> {
    with_game!(which(args.game, Some(&args.file)), G => render::<G>(args))
}

fn render<G: Playable>(args: &RenderArgs) -> miette::Result<()> {
    let output = args
        .output
        .as_deref()
        .filter(|_| !is_stdout(args.output.as_deref()));
    if let Some(output) = output {
        refuse_input_as_output(&[&args.file], output)?;
        if output.exists() && !args.force {
            return Err(refuse_overwrite(output));
        }
    }
    let loaded = load::<G>(&args.file)?;
    let highlight = if args.solution {
        Some(loaded.stored_best_move.clone().ok_or_else(|| {
            Failure::new(
                Exit::Input,
                format!(
                    "{} has no stored best move (`solution: best_move:`) to highlight",
                    args.file.display()
                ),
            )
        })?)
    } else {
        args.mv.clone()
    };
    let svg = cathedral::frontend::render(
        &loaded.position,
        highlight.as_deref(),
        args.caption.clone(),
        !args.no_hands,
    )
    .map_err(|why| {
        Failure::new(Exit::Input, why).help("`cathedral moves FILE` lists the legal moves")
    })?;
    write_document(output, &svg, args.force)?;
    match output {
        Some(output) => emit_text(&format!("Wrote {}\n", output.display())),
        None => Ok(()),
    }
}
