//! `cathedral replay GAME`: a game record move by move, each move explained as `play` does, or
//! the position after any move, written as a position file on request.

use super::ColorArg;
use super::shared::exit::{Exit, Failure};
use super::shared::game::{which, with_game};
use super::shared::input::FileDiagnostic;
use super::shared::output::{
    emit_json, emit_text, refuse_input_as_output, refuse_overwrite, style_for, wrap_for_terminal,
};
use cathedral::frontend::{Recorded, record_positions};
use serde::Serialize;
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug)]
pub struct ReplayArgs {
    /// Game record file (docs/game-record.md); `-` reads standard input.
    pub file: PathBuf,
    /// Which game of the file, from 1.
    #[arg(long, default_value = "1", value_name = "N")]
    pub game: usize,
    /// Show only the position after this many moves (0: the start).
    #[arg(long, value_name = "N")]
    pub ply: Option<usize>,
    /// Write the position (after --ply, else at the end) as a position file.
    #[arg(short, long, value_name = "OUT.yaml")]
    pub output: Option<PathBuf>,
    /// Overwrite the output file if it exists.
    #[arg(long)]
    pub force: bool,
    /// Print the moves and the position as JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub color: ColorArg,
}

#[derive(Serialize)]
struct ReplayJson<M, E, V> {
    game: usize,
    #[serde(flatten)]
    meta: M,
    plies: usize,
    moves: Vec<E>,
    position: V,
}

/// The record file's games, of whichever game the file declares (`game: corintho`).
pub fn run(args: &ReplayArgs) -> miette::Result<()> {
    with_game!(which(None, Some(&args.file)), G => replay::<G>(args))
}

/// The games of a record file (`-`: standard input).
pub fn load_records<G: Recorded>(path: &Path) -> miette::Result<Vec<G::Record>> {
    let loaded = if path.as_os_str() == "-" {
        super::shared::game::stdin_text().and_then(|text| G::parse_records("<stdin>", &text))
    } else {
        cathedral::file::read_file(path).and_then(|(name, text)| G::parse_records(&name, &text))
    };
    Ok(loaded.map_err(FileDiagnostic::from)?)
}

/// Game `number` (from 1) of `games`, read from `file`.
pub fn pick<'a, R>(games: &'a [R], number: usize, file: &Path) -> miette::Result<&'a R> {
    games.get(number.wrapping_sub(1)).ok_or_else(|| {
        Failure::new(
            Exit::Usage,
            format!(
                "--game {}: {} holds {} game{} (numbered from 1)",
                number,
                file.display(),
                games.len(),
                if games.len() == 1 { "" } else { "s" }
            ),
        )
        .into()
    })
}

fn replay<G: Recorded>(args: &ReplayArgs) -> miette::Result<()> {
    if let Some(out) = &args.output {
        refuse_input_as_output(&[&args.file], out)?;
        if out.exists() && !args.force {
            return Err(refuse_overwrite(out));
        }
    }
    let games = load_records::<G>(&args.file)?;
    let game = pick(&games, args.game, &args.file)?;
    let moves = G::record_moves(game);
    let plies = args.ply.unwrap_or(moves.len());
    if plies > moves.len() {
        return Err(Failure::new(
            Exit::Usage,
            format!(
                "--ply {plies}: the game has {} (0 is the start)",
                cathedral::present::words::count(moves.len() as i64, "move")
            ),
        )
        .into());
    }
    let positions = record_positions::<G>(game);
    let reports: Vec<_> = moves[..plies]
        .iter()
        .zip(&positions)
        .map(|(&mv, before)| before.explain(mv))
        .collect();
    let position = positions[plies];
    if let Some(out) = &args.output {
        let title = format!("{} after move {plies}", G::record_heading(game, args.game));
        let source = format!(
            "cathedral replay {} --game {} --ply {plies}",
            args.file.display(),
            args.game
        );
        cathedral::file::write_atomically(
            out,
            position.file_text(Some(&title), Some(&source)).as_bytes(),
            args.force,
        )
        .map_err(FileDiagnostic::from)?;
    }
    if args.json {
        return emit_json(&ReplayJson {
            game: args.game,
            meta: G::record_meta(game),
            plies,
            moves: reports.iter().map(G::explanation_view).collect(),
            position: position.view(None),
        });
    }
    let style = style_for(args.color);
    let mut out = format!(
        "{}\n",
        wrap_for_terminal(&G::record_heading(game, args.game), "", "  ")
    );
    if let Some(comment) = G::record_comment(game) {
        out.push_str(&format!("{comment}\n"));
    }
    out.push('\n');
    if args.ply.is_none() {
        let comments = G::move_comments(game);
        for (i, (report, comment)) in reports.iter().zip(&comments).enumerate() {
            out.push_str(&format!(
                "{}. {}\n",
                i + 1,
                G::explanation_text(report, style)
            ));
            if let Some(comment) = comment {
                out.push_str(&format!("   ({comment})\n"));
            }
        }
        out.push('\n');
    } else if plies > 0 {
        out.push_str(&format!(
            "After move {plies}, {}:\n",
            // A sentence's full stop would end up before the colon.
            G::explanation_text(&reports[plies - 1], style).trim_end_matches('.')
        ));
    } else {
        out.push_str("The start of the game:\n");
    }
    out.push_str(&position.draw_text(style));
    if let Some(path) = &args.output {
        out.push_str(&format!("Wrote {}\n", path.display()));
    }
    emit_text(&out)
}
