//! `cathedral`: show positions, list moves, play and explain moves, solve, make puzzles.

mod cli;
mod protocol;
mod web;

use clap::Parser;
use std::io::IsTerminal;
use std::process::ExitCode;

fn main() -> ExitCode {
    // Wrap error reports to the terminal's width, but never in a pipe or a log, where a
    // wrapped line would break `grep`.
    let wrap = std::io::stderr().is_terminal();
    // Only fails if a hook is set already, and then that one is used.
    let _ = miette::set_hook(Box::new(move |_| {
        Box::new(miette::MietteHandlerOpts::new().wrap_lines(wrap).build())
    }));
    match cli::run(cli::Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(report) => {
            if !cli::is_silent(&report) {
                eprintln!("Error: {report:?}");
            }
            ExitCode::from(cli::exit_status(&report))
        }
    }
}
