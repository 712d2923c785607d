//! `cathedral engine`: serves the engine protocol (`docs/protocol.md`) on standard input and
//! output until `quit` or the end of the input.

use crate::protocol::{CorinthoSession, Output, serve, serve_with};

#[derive(clap::Args, Debug)]
pub struct EngineArgs {
    /// The game: `corintho` for Corintho (docs/corintho.md); Cathedral by default.
    #[arg(long, value_enum, value_name = "GAME")]
    pub game: Option<super::GameName>,
}

pub fn run(args: &EngineArgs) -> miette::Result<()> {
    let out = Output::new(Box::new(std::io::stdout()));
    if args.game == Some(super::GameName::Corintho) {
        serve_with(
            std::io::stdin().lock(),
            out.clone(),
            CorinthoSession::new(out),
        );
    } else {
        serve(std::io::stdin().lock(), out);
    }
    Ok(())
}
