//! `cathedral play FILE MOVE...`: play moves in order, explain each, draw the result.

use super::ColorArg;
use super::shared::exit::{Exit, Failure};
use super::shared::game::{load, which, with_game};
use super::shared::input::FileDiagnostic;
use super::shared::output::{emit, emit_text, refuse_input_as_output, refuse_overwrite, style_for};
use cathedral::frontend::{Bundled, Loaded, Recorded, append_to_records};
use std::path::{Path, PathBuf};

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
    #[command(flatten)]
    pub color: ColorArg,
}

pub fn run(args: &PlayArgs) -> miette::Result<()> {
    with_game!(which(args.game, Some(&args.file)), G => play::<G>(args))
}

fn play<G: Recorded>(args: &PlayArgs) -> miette::Result<()> {
    // With `--game`, FILE is the first move when no such file exists and it is not named like
    // one: `cathedral play --game corintho C@b1 K@a4`.
    let from_start = args.game.is_some()
        && !args.file.exists()
        && !args
            .file
            .extension()
            .is_some_and(|e| e == "yaml" || e == "yml");
    let mut moves = args.moves.clone();
    if from_start {
        moves.insert(0, args.file.to_string_lossy().into_owned());
    }
    if moves.is_empty() {
        return Err(Failure::new(
            Exit::Usage,
            format!(
                "give the moves to play after the position file, like {}",
                G::EXAMPLE_MOVES
            ),
        )
        .into());
    }
    let inputs: Vec<&Path> = if from_start {
        Vec::new()
    } else {
        vec![args.file.as_path()]
    };
    if let Some(out) = &args.output {
        refuse_input_as_output(&inputs, out)?;
    }
    if let Some(out) = &args.output
        && out.exists()
        && !args.force
    {
        return Err(refuse_overwrite(out));
    }
    if let Some(record) = &args.record {
        refuse_input_as_output(&inputs, record)?;
    }
    let style = style_for(args.color);
    let start: Loaded<G> = if from_start {
        G::bundled(Bundled::Start)
    } else {
        load::<G>(&args.file)?
    };
    let mut printed = Ok(());
    let played = cathedral::frontend::play(start.position, &moves, |number, explanation| {
        if !args.json && printed.is_ok() {
            printed = emit_text(&format!(
                "{number}. {}\n",
                G::explanation_text(explanation, style)
            ));
        }
    })
    .map_err(|e| {
        Failure::new(Exit::Input, e.to_string())
            .help("`cathedral moves` lists the legal moves of a position")
    })?;
    printed?;
    if let Some(record) = &args.record {
        append_to_record::<G>(record, start.position, &played.moves)?;
    }
    if let Some(out) = &args.output {
        let source = format!("{} then {}", args.file.display(), args.moves.join(" "));
        cathedral::file::write_atomically(
            out,
            played.end.file_text(None, Some(&source)).as_bytes(),
            args.force,
        )
        .map_err(FileDiagnostic::from)?;
    }
    if args.json {
        emit(&played.json())
    } else {
        emit_text(&format!("\n{}", played.end.draw_text(style)))?;
        if let Some(out) = &args.output {
            emit_text(&format!("Wrote {}\n", out.display()))?;
        }
        Ok(())
    }
}

/// Appends the moves played from `start` to the record at `path` (created if missing).
fn append_to_record<G: Recorded>(path: &Path, start: G, played: &[G::Move]) -> miette::Result<()> {
    let mut games = if path.exists() {
        let (name, text) = cathedral::file::read_file(path).map_err(FileDiagnostic::from)?;
        G::parse_records(&name, &text).map_err(FileDiagnostic::from)?
    } else {
        Vec::new()
    };
    append_to_records::<G>(&mut games, start, played).map_err(|why| {
        Failure::new(Exit::Input, format!("{} {why}", path.display()))
            .help("play from the position the record ends with: `cathedral replay GAME -o pos.yaml`, then `cathedral play pos.yaml MOVES --record GAME`")
    })?;
    cathedral::file::write_atomically(path, G::records_text(&games).as_bytes(), true)
        .map_err(FileDiagnostic::from)?;
    Ok(())
}
