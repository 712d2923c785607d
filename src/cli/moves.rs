//! `cathedral moves`: the legal moves of the side to move, grouped per piece.

use super::ColorWhen;
use super::shared::input::position_or_default;
use super::shared::output::{emit, emit_json, new_table, right_align, style_for};
use cathedral::analysis::moves::MovesReport;
use std::path::PathBuf;

/// Example moves shown per piece without `--all`.
const EXAMPLES: usize = 3;

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
    #[arg(long, value_enum, default_value_t)]
    pub color: ColorWhen,
}

pub fn run(args: &MovesArgs) -> miette::Result<()> {
    if super::corintho::selected(args.game, args.file.as_deref()) {
        return super::corintho::moves(args.file.as_deref(), args.json);
    }
    let position = position_or_default(args.file.as_deref())?;
    let report = MovesReport::of(&position);
    if args.json {
        return emit_json(&report);
    }
    let style = style_for(args.color);
    let mut out = String::new();
    if report.game_over {
        out.push_str("The game is over: no legal moves.\n");
    }
    if args.all {
        for group in &report.groups {
            out.push_str(&format!("{} ({}):\n", group.name, group.moves.len()));
            for text in &group.moves {
                out.push_str(&format!("  {text}\n"));
            }
        }
    } else if !report.groups.is_empty() {
        let mut table = new_table(style);
        table.set_header(["piece", "moves", "examples"]);
        for group in &report.groups {
            let mut examples = group
                .moves
                .iter()
                .take(EXAMPLES)
                .cloned()
                .collect::<Vec<_>>()
                .join("  ");
            if group.moves.len() > EXAMPLES {
                examples.push_str("  ...");
            }
            table.add_row(vec![
                group.name.clone(),
                group.moves.len().to_string(),
                examples,
            ]);
        }
        right_align(&mut table, &[1]);
        out.push_str(&format!("{table}\n"));
    }
    out.push_str(&format!(
        "{} to move: {} legal moves in total\n",
        report.to_move, report.total
    ));
    emit(&out)
}
