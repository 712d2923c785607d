//! `cathedral render FILE [-o OUT.svg]`: the SVG diagram of a position, to a file or to
//! standard output.

use super::shared::exit::{Exit, Failure};
use super::shared::input::load_position;
use super::shared::output::{emit, is_stdout, write_document};
use super::shared::output::{refuse_input_as_output, refuse_overwrite};
use cathedral::legality::parse_move;
use cathedral::present::svg::{SvgOptions, render_svg};
use cathedral::table;
use cathedral::{Bitboard, Move};
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

fn cells_of(mv: Move) -> Bitboard {
    mv.placement()
        .map_or(Bitboard::default(), |id| table().get(id).mask)
}

pub fn run(args: &RenderArgs) -> miette::Result<()> {
    if super::corintho::selected(args.game, Some(&args.file)) {
        return super::corintho::render(
            &args.file,
            args.output.as_deref(),
            args.caption.as_deref(),
            args.force,
        );
    }
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
    let file = load_position(&args.file)?;
    let position = file.position;
    let text = if args.solution {
        let best = file.solution.as_ref().and_then(|s| s.best_move.clone());
        Some(best.ok_or_else(|| {
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
    let highlight = match &text {
        None => Bitboard::default(),
        Some(text) => {
            let mv = parse_move(&position, text).map_err(|e| {
                Failure::new(Exit::Input, format!("`{text}` cannot be played here: {e}"))
                    .help("`cathedral moves FILE` lists the legal moves")
            })?;
            cells_of(mv)
        }
    };
    let svg = render_svg(
        &position,
        &SvgOptions {
            highlight,
            caption: args.caption.clone(),
            hands: !args.no_hands,
        },
    );
    write_document(output, &svg, args.force)?;
    match output {
        Some(output) => emit(&format!("Wrote {}\n", output.display())),
        None => Ok(()),
    }
}
