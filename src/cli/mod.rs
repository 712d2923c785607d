//! The command line: argument definitions and dispatch to one module per subcommand.

mod accuracy;
mod analyse;
mod bench;
mod bestmove;
mod bot;
mod check;
mod completions;
mod convert;
mod engine;
mod generate;
mod index;
mod ladder;
mod match_;

mod moves;

mod perft;
mod play;
mod puzzles;
mod render;
pub(crate) mod replay;
mod review_bench;
mod sample;
mod serve;
pub(crate) mod shared;
mod sheet;
mod show;
mod site;
mod solve;
mod standings;
mod study;

use clap::{Parser, Subcommand, ValueEnum};

/// Rules engine and analysis tools for the board game Cathedral.
#[derive(Parser, Debug)]
#[command(name = "cathedral", version = cathedral::LONG_VERSION, about)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
    /// No progress display on standard error.
    #[arg(long, short, global = true)]
    quiet: bool,
}

/// The games the commands know.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameName {
    /// Cathedral (the default).
    Cathedral,
    /// Corintho (docs/corintho.md).
    Corintho,
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

/// `--color`, the same option on every command that prints for a reader (flattened into each
/// command's arguments).
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub struct ColorArg {
    /// When to draw with colours and box-drawing characters.
    #[arg(long = "color", value_enum, default_value_t, value_name = "WHEN")]
    pub when: ColorWhen,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Draw a position (the bundled midgame example without FILE).
    Show(show::ShowArgs),
    /// List the legal moves, grouped per piece.
    Moves(moves::MovesArgs),
    /// Play moves from a position, explaining each, then draw the result.
    Play(play::PlayArgs),
    /// Count the move sequences of a given length (perft), for testing move generation.
    #[command(override_usage = "cathedral perft [FILE] <DEPTH> [--divide]")]
    Perft(perft::PerftArgs),
    /// Solve a position exactly: its value, a best line and every root move's value (the bundled
    /// showcase endgame without FILE).
    Solve(solve::SolveArgs),
    /// The engine's move for a position: exact when the solver proves it, an estimate before.
    Bestmove(bestmove::BestMoveArgs),
    /// Judge a position: its value (exact when the solver proves it, an estimate otherwise) and
    /// the best moves ranked with their values.
    #[command(name = "analyse-position", alias = "analyze-position")]
    AnalysePosition(bestmove::AnalysePositionArgs),
    /// Replay a game record move by move, or show (and write) the position after any move.
    Replay(replay::ReplayArgs),
    /// Convert plain move lists or the independent engine's JSON lines into a game record.
    Convert(convert::ConvertArgs),
    /// Judge every move of a recorded game: values, losses, marks, turning points, a summary.
    Analyse(analyse::AnalyseArgs),
    /// Match and tournament standings from game records, scored by unplaced squares.
    Standings(standings::StandingsArgs),
    /// Speak the engine protocol on standard input and output (docs/protocol.md), for GUIs,
    /// match runners and other programs.
    Engine(engine::EngineArgs),
    /// Serve the web board, puzzle trainer and game viewer (and their JSON API) on 127.0.0.1, or
    /// the address --bind gives.
    Serve(serve::ServeArgs),
    /// Connect the engine to a play server (serve --play) as a bot: it accepts challenges (or
    /// makes them) and plays its games at a ladder level.
    Bot(bot::BotArgs),
    /// Ask a running `cathedral serve` whether it answers (its /api/health): exit 0 if it does,
    /// 1 if not; a container's health check
    Health(serve::HealthArgs),
    /// Write the web board as a static site, the engine and solver in the browser: any static
    /// host serves it, and it works offline once visited.
    Site(site::SiteArgs),
    /// Play engine-vs-engine games in pairs with colours swapped; results, Elo and records.
    Match(match_::MatchArgs),
    /// Measure the engine's ladder of levels in Elo: matches of each level against the next,
    /// chained up from the greedy player (docs/engine.md, "The ladder of levels").
    Ladder(ladder::LadderArgs),
    /// Measure the estimating search against exact values: its error, the results it gets
    /// right, what its chosen moves give up.
    Accuracy(accuracy::AccuracyArgs),
    /// Measure the whole-game review against a much deeper one: the mistakes it misses, the
    /// marks it gives wrongly, the error of its losses and its cost.
    #[command(name = "review-bench")]
    ReviewBench(review_bench::ReviewBenchArgs),
    /// Solve every position of a benchmark directory, check the stored values, time each tier
    /// (each position at most 10 minutes unless --time-limit says otherwise).
    Bench(bench::BenchArgs),
    /// Sample late positions from policy games and write them as position files.
    Sample(sample::SampleArgs),
    /// Generate teaching puzzles: late positions with exactly one best move, solved exactly.
    Generate(generate::GenerateArgs),
    /// Check an answer to a puzzle: is MOVE the best move? If not, what it loses and why.
    Check(check::CheckArgs),
    /// Draw a position as an SVG diagram.
    Render(render::RenderArgs),
    /// Print a worksheet: puzzles of DIR as HTML for A4 or Letter, 4 or 6 a page, with a legend and
    /// answer lines; by default a mix of themes; the answers on pages of their own.
    Sheet(sheet::SheetArgs),
    /// Write DIR/README.md: the index of the puzzles in DIR.
    Index(index::IndexArgs),
    /// Work on a directory of puzzles: `puzzles rate DIR` measures their Glicko-2 ratings.
    #[command(subcommand)]
    Puzzles(puzzles::PuzzlesCommand),
    /// Work on studies (lessons as files): `study check FILE` proves every question's answers.
    #[command(subcommand)]
    Study(study::StudyCommand),
    /// Print a shell completion script: `cathedral completions bash > ~/.local/share/bash-completion/completions/cathedral`.
    Completions(completions::CompletionsArgs),
    /// Print the manual page (roff): `cathedral man > cathedral.1; man ./cathedral.1`.
    Man(completions::ManArgs),
}

/// The exit status for an error (see `shared::exit`).
pub fn exit_status(report: &miette::Report) -> u8 {
    shared::exit::status_of(report)
}

/// Whether the error has nothing to print (the output said it already).
pub fn is_silent(report: &miette::Report) -> bool {
    report
        .downcast_ref::<shared::exit::Failure>()
        .is_some_and(shared::exit::Failure::is_silent)
}

/// Runs one command.
pub fn run(cli: Cli) -> miette::Result<()> {
    shared::output::set_quiet(cli.quiet);
    match &cli.command {
        Command::Show(args) => show::run(args),
        Command::Moves(args) => moves::run(args),
        Command::Play(args) => play::run(args),
        Command::Perft(args) => perft::run(args),
        Command::Solve(args) => solve::run(args),
        Command::Bestmove(args) => bestmove::run(args),
        Command::AnalysePosition(args) => bestmove::run_analysis(args),
        Command::Replay(args) => replay::run(args),
        Command::Convert(args) => convert::run(args),
        Command::Analyse(args) => analyse::run(args),
        Command::Standings(args) => standings::run(args),
        Command::Engine(args) => engine::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Bot(args) => bot::run(args),
        Command::Health(args) => serve::health(args),
        Command::Site(args) => site::run(args),
        Command::Match(args) => match_::run(args),
        Command::Ladder(args) => ladder::run(args),
        Command::Accuracy(args) => accuracy::run(args),
        Command::ReviewBench(args) => review_bench::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Sample(args) => sample::run(args),
        Command::Generate(args) => generate::run(args),
        Command::Check(args) => check::run(args),
        Command::Render(args) => render::run(args),
        Command::Sheet(args) => sheet::run(args),
        Command::Index(args) => index::run(args),
        Command::Puzzles(command) => puzzles::run(command),
        Command::Study(command) => study::run(command),
        Command::Completions(args) => completions::completions(args),
        Command::Man(args) => completions::man(args),
    }
}
