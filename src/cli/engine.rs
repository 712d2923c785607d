//! `cathedral engine`: serves the engine protocol (`docs/protocol.md`) on standard input and
//! output until `quit` or the end of the input, for any game.

use super::shared::game::with_game;
use crate::protocol::{Output, serve};

#[derive(clap::Args, Debug)]
pub struct EngineArgs {
    /// The game: `corintho` for Corintho (docs/corintho.md); Cathedral by default.
    #[arg(long, value_enum, value_name = "GAME")]
    pub game: Option<super::GameName>,
}

pub fn run(args: &EngineArgs) -> miette::Result<()> {
    let out = Output::new(Box::new(std::io::stdout()));
    let game = args.game.unwrap_or(super::GameName::Cathedral);
    // Cathedral is the protocol's default game; a session for another says which in `hello`.
    let names_game = game != super::GameName::Cathedral;
    with_game!(game, G => serve::<G>(std::io::stdin().lock(), out, names_game));
    Ok(())
}
