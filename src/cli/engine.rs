//! `cathedral engine`: serves the engine protocol (`docs/protocol.md`) on standard input and
//! output until `quit` or the end of the input.

use crate::protocol::{Output, serve};

#[derive(clap::Args, Debug)]
pub struct EngineArgs {}

pub fn run(_args: &EngineArgs) -> miette::Result<()> {
    serve(
        std::io::stdin().lock(),
        Output::new(Box::new(std::io::stdout())),
    );
    Ok(())
}
