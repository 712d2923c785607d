//! `cathedral convert INPUT`: games from plain move lists or from the independent engine's JSON
//! lines into a game record (docs/game-record.md).

use super::shared::exit::{Exit, Failure};
use super::shared::input::FileDiagnostic;
use super::shared::output::{is_stdout, refuse_input_as_output, write_document};
use cathedral::Rules;
use cathedral::file::{records_from_independent, records_from_move_list, records_to_yaml};
use std::path::PathBuf;

/// What the input holds.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum From {
    /// One move per line in the notation, `#` comments, `---` between games.
    Moves,
    /// The independent engine's recorded games, one JSON object per line.
    Independent,
}

#[derive(clap::Args, Debug)]
pub struct ConvertArgs {
    /// The games to convert.
    pub input: PathBuf,
    /// The input's format; without it, `.jsonl` files are the independent engine's and anything
    /// else is a move list.
    #[arg(long, value_enum)]
    pub from: Option<From>,
    /// Rule variant of move lists: classic or moore1978.
    #[arg(long, default_value = "classic")]
    pub rules: Rules,
    /// The record to write (standard output without it, or with `-`).
    #[arg(short, long, value_name = "OUT.yaml")]
    pub output: Option<PathBuf>,
    /// Overwrite the output file if it exists.
    #[arg(long)]
    pub force: bool,
}

pub fn run(args: &ConvertArgs) -> miette::Result<()> {
    if let Some(out) = args.output.as_deref().filter(|o| !is_stdout(Some(o))) {
        refuse_input_as_output(&[&args.input], out)?;
    }
    let name = args.input.display().to_string();
    let text = std::fs::read_to_string(&args.input)
        .map_err(|e| Failure::new(Exit::Input, format!("cannot read {name}: {e}")))?;
    if text.len() > cathedral::file::MAX_FILE_BYTES {
        return Err(Failure::new(
            Exit::Input,
            format!("{name} is larger than 1 MiB, the most one conversion reads"),
        )
        .into());
    }
    let from = args.from.unwrap_or_else(|| {
        if args.input.extension().is_some_and(|e| e == "jsonl") {
            From::Independent
        } else {
            From::Moves
        }
    });
    let games = match from {
        From::Moves => records_from_move_list(&name, &text, args.rules),
        From::Independent => records_from_independent(&name, &text),
    }
    .map_err(FileDiagnostic::from)?;
    write_document(args.output.as_deref(), &records_to_yaml(&games), args.force)
}
