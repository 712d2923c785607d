//! The command line: argument definitions and dispatch to one module per subcommand.

mod input;
mod moves;
mod output;
mod perft;
mod play;
mod show;

use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// Rules engine and analysis tools for the board game Cathedral.
#[derive(Parser, Debug)]
#[command(name = "cathedral", version, about)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// When to use colours and box-drawing characters.
#[derive(ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ColorWhen {
    /// When standard output is a terminal and `NO_COLOR` is not set.
    #[default]
    Auto,
    Always,
    Never,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Draw a position (the bundled midgame example without FILE).
    Show {
        /// Position file (YAML).
        file: Option<PathBuf>,
        /// Print the position as JSON instead of a diagram.
        #[arg(long)]
        json: bool,
        #[arg(long, value_enum, default_value_t)]
        color: ColorWhen,
    },
    /// List the legal moves, grouped per piece.
    Moves {
        /// Position file (YAML).
        file: Option<PathBuf>,
        /// List every move instead of a few examples per piece.
        #[arg(long)]
        all: bool,
        /// Print every move in canonical notation as JSON.
        #[arg(long)]
        json: bool,
        #[arg(long, value_enum, default_value_t)]
        color: ColorWhen,
    },
    /// Play moves from a position, explaining each, then draw the result.
    Play {
        /// Position file (YAML).
        file: PathBuf,
        /// Moves in order, like `dark:castle:c3,d3,e3,c4,e4` or `pass`.
        #[arg(required = true)]
        moves: Vec<String>,
        /// Write the resulting position to this file.
        #[arg(short, long, value_name = "OUT.yaml")]
        output: Option<PathBuf>,
        /// Overwrite the output file if it exists.
        #[arg(long)]
        force: bool,
        /// Print the explanations and the final position as JSON.
        #[arg(long)]
        json: bool,
        #[arg(long, value_enum, default_value_t)]
        color: ColorWhen,
    },
    /// Count the move sequences of a given length (perft), for testing move generation.
    #[command(override_usage = "cathedral perft [FILE] <DEPTH> [--divide]")]
    Perft {
        /// [FILE] DEPTH: an optional position file, then the depth.
        #[arg(value_name = "[FILE] DEPTH", num_args = 1..=2, required = true)]
        args: Vec<String>,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
    },
}

/// Runs one command.
pub fn run(cli: Cli) -> miette::Result<()> {
    match cli.command {
        Command::Show { file, json, color } => show::run(file.as_deref(), json, color),
        Command::Moves {
            file,
            all,
            json,
            color,
        } => moves::run(file.as_deref(), all, json, color),
        Command::Play {
            file,
            moves,
            output,
            force,
            json,
            color,
        } => play::run(&play::PlayArgs {
            file,
            moves,
            output,
            force,
            json,
            color,
        }),
        Command::Perft { args, divide } => perft::run(&args, divide),
    }
}
