//! Which game a command works on, and reading a position of any game.

use super::input::FileDiagnostic;
use crate::cli::GameName;
use cathedral::frontend::{Bundled, Loaded, Playable, declared_game, load_file};
use std::io::Read;
use std::path::Path;

const STDIN_ARGUMENT: &str = "-";
const STDIN_NAME: &str = "<stdin>";

/// Standard input, read once: the game is chosen from its text, then the text is loaded.
static STDIN_TEXT: std::sync::OnceLock<Result<String, cathedral::file::FileError>> =
    std::sync::OnceLock::new();

/// The text of standard input (read at the first call, kept for later ones).
pub fn stdin_text() -> Result<String, cathedral::file::FileError> {
    STDIN_TEXT
        .get_or_init(|| cathedral::file::read_text(STDIN_NAME, std::io::stdin().lock()))
        .clone()
}

/// The game a command works on: `--game`, or (without it) the game a FILE (or standard input,
/// `-`) declares with `game: NAME`, or Cathedral.
pub fn which(game: Option<GameName>, file: Option<&Path>) -> GameName {
    if let Some(game) = game {
        return game;
    }
    if file.is_some_and(|f| f.as_os_str() == STDIN_ARGUMENT) {
        let declared = stdin_text().ok().and_then(|text| declared_game(&text));
        return named(declared.as_deref());
    }
    let declared = file.filter(|f| f.is_file()).and_then(|f| {
        // At most the first MiB: an endless device or a huge file is never read whole
        // here (the loader refuses it in words).
        let mut head = Vec::new();
        std::fs::File::open(f)
            .ok()?
            .take(1 << 20)
            .read_to_end(&mut head)
            .ok()?;
        declared_game(&String::from_utf8_lossy(&head))
    });
    named(declared.as_deref())
}

/// The game a file's `game:` names (Cathedral when none, or an unknown one: its loader then
/// says what it expected).
fn named(declared: Option<&str>) -> GameName {
    match declared {
        Some("corintho") => GameName::Corintho,
        _ => GameName::Cathedral,
    }
}

/// Runs `$body` with the type `$G` standing for the game `$game`: the one place that lists the
/// games' position types.
macro_rules! with_game {
    ($game:expr, $G:ident => $body:expr) => {
        match $game {
            $crate::cli::GameName::Cathedral => {
                type $G = cathedral::Position;
                $body
            }
            $crate::cli::GameName::Corintho => {
                type $G = cathedral::corintho::CorinthoPosition;
                $body
            }
        }
    };
}
pub(crate) use with_game;

/// The position file at `path` (`-`: standard input), or the bundled position `which` without
/// one.
pub fn load_or_bundled<G: Playable>(
    path: Option<&Path>,
    which: Bundled,
) -> miette::Result<Loaded<G>> {
    match path {
        Some(path) => load::<G>(path),
        None => Ok(G::bundled(which)),
    }
}

/// The position file at `path` (`-`: standard input).
pub fn load<G: Playable>(path: &Path) -> miette::Result<Loaded<G>> {
    let loaded = if path.as_os_str() == STDIN_ARGUMENT {
        stdin_text().and_then(|text| G::parse_file(STDIN_NAME, &text))
    } else {
        load_file::<G>(path)
    };
    Ok(loaded.map_err(FileDiagnostic::from)?)
}
