//! What a front end needs of a game, and the commands written once for every game.
//!
//! A game that the exact solver already plays ([`boardgame::Game`](crate::boardgame::Game))
//! becomes playable from every front end by implementing [`Playable`]: reading and writing its
//! position files, reading and writing its moves, explaining a move, drawing a position as text
//! and SVG, and its solver's report. The command code here ([`show`], [`moves`](MovesReport), [`play`],
//! [`perft`], [`solve`], [`render`]) is what `cathedral show|moves|play|perft|solve|render` run
//! for every game; the command line only reads its arguments, prints and writes files. Cathedral
//! (`src/cathedral/frontend.rs`) and Corintho (`src/corintho/frontend.rs`) implement it, and so
//! does the toy game of `tests/toy_game.rs`, driven through these functions in a test.
//!
//! Every function returns data or text; none prints, exits or touches a file.

mod commands;
mod game;
pub mod limits;
mod record;

pub use commands::{
    EngineReport, MoveGroup, MovesReport, PerftReport, PlayError, Played, PlayedJson, bestmove,
    perft, play, render, show, solve, solve_text,
};
pub use game::{
    Bundled, EngineChoice, EngineInfo, EngineRequest, Loaded, Playable, SolutionBlock, SvgRequest,
    TextStyle,
};
pub use record::{Recorded, append_to_records, record_positions};

/// Reads a position file of game `G`: its text as any position file is read (at most 1 MiB of
/// UTF-8), then the game's format.
pub fn load_file<G: Playable>(
    path: &std::path::Path,
) -> Result<Loaded<G>, crate::files::FileError> {
    let (name, text) = crate::files::read_file(path)?;
    G::parse_file(&name, &text)
}

/// The names of the games the front ends know, as `--game` and a file's `game:` key spell them.
pub const GAMES: [&str; 2] = ["cathedral", "corintho"];

/// The game a position file declares with a top-level `game: NAME` line, or `None` for a file without one (a Cathedral file).
///
/// ```
/// use cathedral::frontend::declared_game;
/// assert_eq!(declared_game("# a puzzle\ngame: corintho\nboard: []\n"), Some("corintho".into()));
/// assert_eq!(declared_game("rules: classic\n"), None);
/// ```
pub fn declared_game(text: &str) -> Option<String> {
    text.lines().find_map(|line| {
        let rest = line.strip_prefix("game:")?;
        let value = rest.split('#').next().unwrap_or("").trim();
        let value = value.trim_matches(|c| c == '"' || c == '\'');
        (!value.is_empty()).then(|| value.to_ascii_lowercase())
    })
}
