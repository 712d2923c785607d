//! `cathedral`: show positions, list moves, play and explain moves, solve, make puzzles.

mod cli;
mod protocol;
mod web;

use clap::Parser;
use std::process::ExitCode;

/// What an error report starts with.
const ERROR: &str = "Error: ";

fn main() -> ExitCode {
    // Wrap error reports to the terminal's width, but never in a pipe or a log, where a
    // wrapped line would break `grep`. The report's first line follows `Error: `: it is
    // wrapped that much narrower, so that the terminal never cuts a word at its edge.
    let width = cli::shared::output::error_width();
    // Only fails if a hook is set already, and then that one is used.
    let _ = miette::set_hook(Box::new(move |_| {
        let options = miette::MietteHandlerOpts::new().wrap_lines(width.is_some());
        let options = match width {
            Some(width) => options.width(width.saturating_sub(ERROR.len()).max(20)),
            None => options,
        };
        Box::new(options.build())
    }));
    match cli::run(cli::Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(report) => {
            if !cli::is_silent(&report) {
                eprintln!("{ERROR}{report:?}");
            }
            ExitCode::from(cli::exit_status(&report))
        }
    }
}
