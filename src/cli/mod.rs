//! The command line: argument definitions and dispatch to one module per subcommand.

mod bench;
mod check;
mod generate;
mod index;
mod input;
mod moves;
mod output;
mod perft;
mod play;
mod render;
mod sample;
mod sheet;
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
    /// Generate teaching puzzles: late positions with exactly one best move, solved exactly.
    Generate {
        /// Number of puzzles.
        #[arg(long, default_value_t = 10)]
        count: usize,
        /// Keep only puzzles with this theme: capture, cathedral-capture, claim, block,
        /// diagonal-trap, tempo, endgame-count.
        #[arg(long)]
        theme: Option<cathedral::puzzle::Theme>,
        /// Keep only puzzles of this difficulty: easy, medium, hard.
        #[arg(long)]
        difficulty: Option<cathedral::puzzle::Difficulty>,
        /// Master seed; the same seed, rules and version give the same puzzles.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Rules preset: classic or moore1978.
        #[arg(long, default_value = "classic")]
        rules: cathedral::Rules,
        /// The best move must beat the second best by at least this many squares.
        #[arg(long, default_value_t = 1)]
        margin: i32,
        /// Seconds per candidate solve; candidates not solved in time are skipped.
        #[arg(long, default_value_t = 5.0, value_name = "SECS")]
        time_limit: f64,
        /// Solver nodes per candidate; candidates needing more are skipped (deterministic).
        #[arg(long, default_value_t = 2_000_000, value_name = "N")]
        max_nodes: u64,
        /// Give up after this many candidate games.
        #[arg(long, default_value_t = 20_000, value_name = "N")]
        max_candidates: u64,
        /// Worker threads (0 = all cores).
        #[arg(long, default_value_t = 0, value_name = "N")]
        threads: usize,
        /// Directory to write puzzle-NNN.yaml files and README.md into (created if missing).
        #[arg(short, long, value_name = "DIR")]
        output: PathBuf,
        /// Number of the first file.
        #[arg(long, default_value_t = 1)]
        first: usize,
        /// Overwrite existing files.
        #[arg(long)]
        force: bool,
    },
    /// Check an answer to a puzzle: is MOVE the best move? If not, what it loses and why.
    Check {
        /// Puzzle or position file (YAML).
        file: PathBuf,
        /// The move, like `dark:inn:c3,c4,d4`.
        #[arg(value_name = "MOVE")]
        mv: String,
        /// Seconds per solve.
        #[arg(long, default_value_t = 60.0, value_name = "SECS")]
        time_limit: f64,
    },
    /// Draw a position as an SVG diagram.
    Render {
        /// Position file (YAML).
        file: PathBuf,
        /// The SVG file to write.
        #[arg(short, long, value_name = "OUT.svg")]
        output: PathBuf,
        /// Outline this move's cells.
        #[arg(long = "move", value_name = "MOVE", conflicts_with = "solution")]
        mv: Option<String>,
        /// Outline the stored best move (`solution: best_move`).
        #[arg(long)]
        solution: bool,
        /// A line of text under the board.
        #[arg(long, value_name = "TEXT")]
        caption: Option<String>,
        /// Leave out the hands beside the board.
        #[arg(long)]
        no_hands: bool,
        /// Overwrite the output file if it exists.
        #[arg(long)]
        force: bool,
    },
    /// Print a worksheet: the puzzles of DIR as HTML, answers on a separate page.
    Sheet {
        /// Directory of puzzle files.
        dir: PathBuf,
        /// The HTML file to write.
        #[arg(short, long, value_name = "OUT.html")]
        output: PathBuf,
        /// The worksheet's heading.
        #[arg(long)]
        title: Option<String>,
        /// Overwrite the output file if it exists.
        #[arg(long)]
        force: bool,
    },
    /// Write DIR/README.md: the index of the puzzles in DIR.
    Index {
        /// Directory of puzzle files.
        dir: PathBuf,
        /// Replace a README.md that this command did not write.
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
        Command::Generate {
            count,
            theme,
            difficulty,
            seed,
            rules,
            margin,
            time_limit,
            max_nodes,
            max_candidates,
            threads,
            output,
            first,
            force,
        } => generate::run(&generate::GenerateArgs {
            count,
            theme,
            difficulty,
            seed,
            rules,
            margin,
            time_limit,
            max_nodes,
            max_candidates,
            threads,
            output,
            first,
            force,
        }),
        Command::Check {
            file,
            mv,
            time_limit,
        } => check::run(&file, &mv, time_limit),
        Command::Render {
            file,
            output,
            mv,
            solution,
            caption,
            no_hands,
            force,
        } => render::run(&render::RenderArgs {
            file,
            output,
            mv,
            solution,
            caption,
            no_hands,
            force,
        }),
        Command::Sheet {
            dir,
            output,
            title,
            force,
        } => sheet::run(&dir, &output, title.as_deref(), force),
        Command::Index { dir, force } => index::run(&dir, force),
    }
}
