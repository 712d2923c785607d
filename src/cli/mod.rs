//! The command line: argument definitions and dispatch to one module per subcommand.

mod bench;
mod input;
mod moves;
mod output;
mod perft;
mod play;
mod sample;
mod show;
mod solve;

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
    /// Solve a position exactly: its value, a best line and every root move's value (the bundled
    /// showcase endgame without FILE).
    Solve {
        /// Position file (YAML).
        file: Option<PathBuf>,
        #[command(flatten)]
        search: solve::SearchArgs,
        /// List every root move instead of the best 10.
        #[arg(long)]
        all: bool,
        /// Print the result as JSON.
        #[arg(long, conflicts_with = "yaml")]
        json: bool,
        /// Print only the `solution:` block, to paste into the position file.
        #[arg(long)]
        yaml: bool,
        #[arg(long, value_enum, default_value_t)]
        color: ColorWhen,
    },
    /// Solve every position of a benchmark directory, check the stored values, time each tier.
    Bench {
        /// Directory of position files.
        #[arg(default_value = "puzzles/bench")]
        dir: PathBuf,
        /// Write the computed value into files that have no `solution:` yet.
        #[arg(long)]
        record: bool,
        #[command(flatten)]
        search: solve::SearchArgs,
        #[arg(long, value_enum, default_value_t)]
        color: ColorWhen,
    },
    /// Sample late positions from policy games and write them as position files.
    Sample {
        /// Number of positions.
        #[arg(long, default_value_t = 10)]
        count: usize,
        /// Buildings left per player: t3 (up to 3), t5 (4-5), t7 (6-7), t8 (8 or more).
        #[arg(long)]
        tier: cathedral::sampler::Tier,
        /// Seed of the policy games; the same seed gives the same positions.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Rules preset: classic or moore1978.
        #[arg(long, default_value = "classic")]
        rules: cathedral::Rules,
        /// Directory to write TIER-NN.yaml files into (created if missing).
        #[arg(short, long, value_name = "DIR")]
        output: PathBuf,
        /// Number of the first file.
        #[arg(long, default_value_t = 1)]
        first: usize,
        /// Overwrite existing files.
        #[arg(long)]
        force: bool,
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
        Command::Solve {
            file,
            search,
            all,
            json,
            yaml,
            color,
        } => solve::run(&solve::SolveArgs {
            file,
            search,
            all,
            json,
            yaml,
            color,
        }),
        Command::Bench {
            dir,
            record,
            search,
            color,
        } => bench::run(&bench::BenchArgs {
            dir,
            record,
            search,
            color,
        }),
        Command::Sample {
            count,
            tier,
            seed,
            rules,
            output,
            first,
            force,
        } => sample::run(&sample::SampleArgs {
            count,
            tier,
            seed,
            rules,
            output,
            first,
            force,
        }),
    }
}
