//! `cathedral`: show positions, list moves, play and explain moves, count perft.

mod cli;

use clap::Parser;
use std::io::IsTerminal;

fn main() -> miette::Result<()> {
    // Wrap error reports to the terminal's width, but never in a pipe or a log, where a
    // wrapped line would break `grep`.
    let wrap = std::io::stderr().is_terminal();
    miette::set_hook(Box::new(move |_| {
        Box::new(miette::MietteHandlerOpts::new().wrap_lines(wrap).build())
    }))?;
    cli::run(cli::Cli::parse())
}
