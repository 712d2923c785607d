//! `cathedral play FILE MOVE...`: play moves in order, explain each, draw the result.

use super::ColorWhen;
use super::shared::exit::{Exit, Failure};
use super::shared::input::{FileDiagnostic, load_position, load_records, save_position};
use super::shared::output::{emit, emit_json, move_explanation, style_for};
use super::shared::output::{refuse_input_as_output, refuse_overwrite};
use cathedral::analysis::view::{PlayedMoveView, PositionView};
use cathedral::explain::explain_move;
use cathedral::file::{GameRecord, PositionFile, RecordedMove, records_to_yaml};
use cathedral::legality::parse_move;
use cathedral::present::terminal::position_text;
use serde::Serialize;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// Position file (YAML).
    pub file: PathBuf,
    /// Moves in order, like `dark:castle:c3,d3,e3,c4,e4` or `pass` (with `--game corintho` and
    /// no FILE, the first move stands in FILE's place).
    pub moves: Vec<String>,
    /// Write the resulting position to this file.
    #[arg(short, long, value_name = "OUT.yaml")]
    pub output: Option<PathBuf>,
    /// Overwrite the output file if it exists.
    #[arg(long)]
    pub force: bool,
    /// Append the moves to this game record (docs/game-record.md): a new record starting at
    /// FILE's position, or, if it exists, its last game, which must end where FILE is.
    #[arg(long, value_name = "GAME.yaml")]
    pub record: Option<PathBuf>,
    /// Print the explanations and the final position as JSON.
    #[arg(long)]
    pub json: bool,
    /// The game: `corintho` for Corintho (also chosen by a FILE with `game: corintho`).
    #[arg(long, value_enum, value_name = "GAME")]
    pub game: Option<super::GameName>,
    #[arg(long, value_enum, default_value_t)]
    pub color: ColorWhen,
}

#[derive(Serialize)]
struct PlayJson<'a> {
    moves: Vec<PlayedMoveView<'a>>,
    #[serde(rename = "final")]
    final_: PositionView,
}

pub fn run(args: &PlayArgs) -> miette::Result<()> {
    if super::corintho::selected(args.game, Some(&args.file)) {
        if args.record.is_some() {
            return Err(
                Failure::new(Exit::Usage, "--record keeps Cathedral game records only").into(),
            );
        }
        return super::corintho::play(
            &args.file,
            &args.moves,
            args.output.as_deref(),
            args.force,
            args.json,
        );
    }
    if args.moves.is_empty() {
        return Err(Failure::new(
            Exit::Usage,
            "give the moves to play after the position file, like `dark:castle:c3,d3,e3,c4,e4`",
        )
        .into());
    }
    if let Some(out) = &args.output {
        refuse_input_as_output(&[&args.file], out)?;
    }
    if let Some(out) = &args.output
        && out.exists()
        && !args.force
    {
        return Err(refuse_overwrite(out));
    }
    if let Some(record) = &args.record {
        refuse_input_as_output(&[&args.file], record)?;
    }
    let style = style_for(args.color);
    let start = load_position(&args.file)?.position;
    let mut position = start;
    let mut reports = Vec::new();
    let mut played = Vec::new();
    for (index, text) in args.moves.iter().enumerate() {
        let mv = parse_move(&position, text).map_err(|e| {
            Failure::new(
                Exit::Input,
                format!("move {} (`{text}`) cannot be played: {e}", index + 1),
            )
            .help("`cathedral moves` lists the legal moves of a position")
        })?;
        let report = explain_move(&position, mv);
        if !args.json {
            emit(&format!(
                "{}. {}\n",
                index + 1,
                move_explanation(&report, style)
            ))?;
        }
        position = report.after;
        reports.push(report);
        played.push(mv);
    }
    if let Some(record) = &args.record {
        append_to_record(record, start, &played)?;
    }
    if let Some(out) = &args.output {
        let mut file = PositionFile::from_position(position);
        file.meta.source = Some(format!(
            "{} then {}",
            args.file.display(),
            args.moves.join(" ")
        ));
        save_position(out, &file, args.force)?;
    }
    if args.json {
        emit_json(&PlayJson {
            moves: reports.iter().map(PlayedMoveView::of).collect(),
            final_: PositionView::of(&position),
        })
    } else {
        emit(&format!("\n{}", position_text(&position, style)))?;
        if let Some(out) = &args.output {
            emit(&format!("Wrote {}\n", out.display()))?;
        }
        Ok(())
    }
}

/// Appends the moves played from `start` to the record at `path` (created if missing).
fn append_to_record(
    path: &std::path::Path,
    start: cathedral::Position,
    played: &[cathedral::Move],
) -> miette::Result<()> {
    let mut games = if path.exists() {
        load_records(path)?
    } else {
        Vec::new()
    };
    let moves = played.iter().map(|&mv| RecordedMove { mv, comment: None });
    match games.last_mut() {
        Some(game) => {
            if game.final_position() != start {
                return Err(Failure::new(
                    Exit::Input,
                    format!(
                        "{} ends elsewhere than the position played from: its last game ends after {} moves with {} to move",
                        path.display(),
                        game.moves.len(),
                        game.final_position().to_move().title()
                    ),
                )
                .help("play from the position the record ends with: `cathedral replay GAME -o pos.yaml`, then `cathedral play pos.yaml MOVES --record GAME`")
                .into());
            }
            game.moves.extend(moves);
        }
        None => games.push(GameRecord {
            rules: start.rules(),
            start: (start != cathedral::Position::new(start.rules())).then_some(start),
            moves: moves.collect(),
            ..GameRecord::default()
        }),
    }
    cathedral::file::write_atomically(path, records_to_yaml(&games).as_bytes(), true)
        .map_err(FileDiagnostic::from)?;
    Ok(())
}
