//! `cathedral moves`: the legal moves of the side to move, grouped per piece.

use super::ColorWhen;
use super::shared::input::position_or_default;
use super::shared::output::{emit, emit_json, new_table, style_for};
use cathedral::{Move, MoveList};
use cathedral::notation::format_move;
use cathedral::{Position, table};
use comfy_table::CellAlignment;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Example moves shown per piece without `--all`.
const EXAMPLES: usize = 3;

#[derive(Serialize)]
struct MovesJson {
    to_move: cathedral::Player,
    total: usize,
    /// Number of moves per piece (`pass` for a pass).
    per_piece: BTreeMap<String, usize>,
    /// Every legal move in canonical notation.
    moves: Vec<String>,
}

/// The piece a move places, or `pass`.
fn group_of(mv: Move) -> String {
    mv.placement().map_or_else(
        || "pass".to_string(),
        |id| table().get(id).piece.name().to_string(),
    )
}

/// Moves grouped per piece, smallest piece first, a pass last.
fn groups(position: &Position, list: &MoveList) -> Vec<(String, Vec<String>)> {
    let mut groups: Vec<(Option<usize>, String, Vec<String>)> = Vec::new();
    for &mv in list {
        let order = mv.placement().map(|id| table().get(id).piece.index());
        let text = format_move(position, mv);
        match groups.iter_mut().find(|(o, _, _)| *o == order) {
            Some((_, _, moves)) => moves.push(text),
            None => groups.push((order, group_of(mv), vec![text])),
        }
    }
    groups.sort_by_key(|(order, _, _)| order.unwrap_or(usize::MAX));
    groups
        .into_iter()
        .map(|(_, name, moves)| (name, moves))
        .collect()
}

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
    #[arg(long, value_enum, default_value_t)]
    pub color: ColorWhen,
}

pub fn run(args: &MovesArgs) -> miette::Result<()> {
    let position = position_or_default(args.file.as_deref())?;
    let mut list = MoveList::new();
    position.legal_moves(&mut list);
    let groups = groups(&position, &list);
    if args.json {
        return emit_json(&MovesJson {
            to_move: position.to_move(),
            total: list.len(),
            per_piece: groups
                .iter()
                .map(|(name, moves)| (name.clone(), moves.len()))
                .collect(),
            moves: groups.into_iter().flat_map(|(_, moves)| moves).collect(),
        });
    }
    let style = style_for(args.color);
    let mut out = String::new();
    if position.is_game_over() {
        out.push_str("The game is over: no legal moves.\n");
    }
    if args.all {
        for (name, moves) in &groups {
            out.push_str(&format!("{name} ({}):\n", moves.len()));
            for text in moves {
                out.push_str(&format!("  {text}\n"));
            }
        }
    } else if !groups.is_empty() {
        let mut table = new_table(style);
        table.set_header(["piece", "moves", "examples"]);
        for (name, moves) in &groups {
            let mut examples = moves
                .iter()
                .take(EXAMPLES)
                .cloned()
                .collect::<Vec<_>>()
                .join("  ");
            if moves.len() > EXAMPLES {
                examples.push_str("  ...");
            }
            table.add_row(vec![name.clone(), moves.len().to_string(), examples]);
        }
        if let Some(column) = table.column_mut(1) {
            column.set_cell_alignment(CellAlignment::Right);
        }
        out.push_str(&format!("{table}\n"));
    }
    out.push_str(&format!(
        "{} to move: {} legal moves in total\n",
        position.to_move(),
        list.len()
    ));
    emit(&out)
}
