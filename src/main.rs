//! `cathedral`: show positions, list moves, play and explain moves, count perft.

mod cli;

use clap::Parser;

fn main() -> miette::Result<()> {
    cli::run(cli::Cli::parse())
}
