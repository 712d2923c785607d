//! `cathedral replay GAME`: a game record move by move, each move explained as `play` does, or
//! the position after any move, written as a position file on request.

use super::ColorWhen;
use super::shared::exit::{Exit, Failure};
use super::shared::input::{load_records, save_position};
use super::shared::output::{
    emit, emit_json, move_explanation, refuse_input_as_output, refuse_overwrite, style_for,
};
use cathedral::analysis::view::{PlayedMoveView, PositionView};
use cathedral::explain::explain_move;
use cathedral::file::{GameRecord, PositionFile};
use cathedral::present::terminal::position_text;
use serde::Serialize;
use std::path::PathBuf;

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
    /// Colour: auto, always, never.
    #[arg(long, value_enum, default_value_t)]
    pub color: ColorWhen,
}

#[derive(Serialize)]
struct ReplayJson<'a> {
    game: usize,
    light: Option<&'a str>,
    dark: Option<&'a str>,
    event: Option<&'a str>,
    plies: usize,
    moves: Vec<PlayedMoveView<'a>>,
    position: PositionView,
}

/// "Ann (Light) v Bob (Dark), Club night, 2026-11-20, round 3".
pub fn game_heading(game: &GameRecord, number: usize) -> String {
    let side = |name: &Option<String>, colour: &str| match name {
        Some(name) => format!("{name} ({colour})"),
        None => colour.to_string(),
    };
    let mut parts = vec![format!(
        "{} v {}",
        side(&game.light, "Light"),
        side(&game.dark, "Dark")
    )];
    parts.extend(
        [&game.event, &game.site, &game.date]
            .into_iter()
            .flatten()
            .cloned(),
    );
    if let Some(round) = &game.round {
        parts.push(format!("round {round}"));
    }
    format!("Game {number}: {}", parts.join(", "))
}

pub fn run(args: &ReplayArgs) -> miette::Result<()> {
    if let Some(out) = &args.output {
        refuse_input_as_output(&[&args.file], out)?;
        if out.exists() && !args.force {
            return Err(refuse_overwrite(out));
        }
    }
    let games = load_records(&args.file)?;
    let game = games.get(args.game.wrapping_sub(1)).ok_or_else(|| {
        Failure::new(
            Exit::Usage,
            format!(
                "--game {}: {} holds {} game{} (numbered from 1)",
                args.game,
                args.file.display(),
                games.len(),
                if games.len() == 1 { "" } else { "s" }
            ),
        )
    })?;
    let plies = args.ply.unwrap_or(game.moves.len());
    if plies > game.moves.len() {
        return Err(Failure::new(
            Exit::Usage,
            format!(
                "--ply {plies}: the game has {} moves (0 is the start)",
                game.moves.len()
            ),
        )
        .into());
    }
    let positions = game.positions();
    let reports: Vec<_> = game.moves[..plies]
        .iter()
        .zip(&positions)
        .map(|(recorded, before)| explain_move(before, recorded.mv))
        .collect();
    let position = positions[plies];
    if let Some(out) = &args.output {
        let mut file = PositionFile::from_position(position);
        file.meta.title = Some(format!(
            "{} after move {plies}",
            game_heading(game, args.game)
        ));
        file.meta.source = Some(format!(
            "cathedral replay {} --game {} --ply {plies}",
            args.file.display(),
            args.game
        ));
        save_position(out, &file, args.force)?;
    }
    if args.json {
        return emit_json(&ReplayJson {
            game: args.game,
            light: game.light.as_deref(),
            dark: game.dark.as_deref(),
            event: game.event.as_deref(),
            plies,
            moves: reports.iter().map(PlayedMoveView::of).collect(),
            position: PositionView::of(&position),
        });
    }
    let style = style_for(args.color);
    let mut out = format!("{}\n", game_heading(game, args.game));
    if let Some(comment) = &game.comment {
        out.push_str(&format!("{comment}\n"));
    }
    out.push('\n');
    if args.ply.is_none() {
        for (i, (report, recorded)) in reports.iter().zip(&game.moves).enumerate() {
            out.push_str(&format!("{}. {}\n", i + 1, move_explanation(report, style)));
            if let Some(comment) = &recorded.comment {
                out.push_str(&format!("   ({comment})\n"));
            }
        }
        out.push('\n');
    } else if plies > 0 {
        out.push_str(&format!(
            "After move {plies}, {}:\n",
            move_explanation(&reports[plies - 1], style)
        ));
    } else {
        out.push_str("The start of the game:\n");
    }
    out.push_str(&position_text(&position, style));
    if let Some(path) = &args.output {
        out.push_str(&format!("Wrote {}\n", path.display()));
    }
    emit(&out)
}
