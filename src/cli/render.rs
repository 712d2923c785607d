//! `cathedral render FILE -o OUT.svg`: the SVG diagram of a position.

use super::input::load_position;
use super::output::emit;
use super::play::refuse_overwrite;
use cathedral::legality::parse_move;
use cathedral::placement::table;
use cathedral::svg::{SvgOptions, render_svg};
use cathedral::{Bitboard, Move};
use miette::{IntoDiagnostic, WrapErr, miette};
use std::path::PathBuf;

pub struct RenderArgs {
    pub file: PathBuf,
    pub output: PathBuf,
    pub mv: Option<String>,
    pub solution: bool,
    pub caption: Option<String>,
    pub no_hands: bool,
    pub force: bool,
}

fn cells_of(mv: Move) -> Bitboard {
    mv.placement()
        .map_or(Bitboard::default(), |id| table().get(id).mask)
}

pub fn run(args: &RenderArgs) -> miette::Result<()> {
    if args.output.exists() && !args.force {
        return Err(refuse_overwrite(&args.output));
    }
    let file = load_position(&args.file)?;
    let position = file.position;
    let text = if args.solution {
        let best = file.solution.as_ref().and_then(|s| s.best_move.clone());
        Some(best.ok_or_else(|| {
            miette!(
                "{} has no stored best move (`solution: best_move:`) to highlight",
                args.file.display()
            )
        })?)
    } else {
        args.mv.clone()
    };
    let highlight = match &text {
        None => Bitboard::default(),
        Some(text) => {
            let mv = parse_move(&position, text).map_err(|e| {
                miette!(
                    help = "`cathedral moves FILE` lists the legal moves",
                    "`{text}` cannot be played here: {e}"
                )
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
    std::fs::write(&args.output, svg)
        .into_diagnostic()
        .wrap_err_with(|| format!("cannot write {}", args.output.display()))?;
    emit(&format!("Wrote {}\n", args.output.display()))
}
