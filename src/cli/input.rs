//! Reading the position a command works on.

use cathedral::legality::parse_move;
use cathedral::{Position, Rules};
use miette::miette;
use std::path::Path;

/// The moves that lead to the bundled midgame example.
const MIDGAME: [&str; 10] = [
    "light:cathedral:e7,d6,e6,f6,e5,e4",
    "dark:castle:a1,b1,c1,a2,c2",
    "light:abbey:h8,i8,i9,j9",
    "dark:tower:h3,h2,i2,i1,j1",
    "light:square:b7,c7,b8,c8",
    "dark:bridge:d1,e1,f1",
    "light:manor:h6,i6,j6,i5",
    "dark:academy:b4,c4,c5,d5,c3",
    "light:tavern:i7",
    "dark:stable:a3,a4",
];

/// The position in `path`, or the bundled midgame example without a path.
pub fn position_or_default(path: Option<&Path>) -> miette::Result<Position> {
    match path {
        Some(path) => load_position(path),
        None => default_position(),
    }
}

/// The bundled midgame example.
pub fn default_position() -> miette::Result<Position> {
    let mut position = Position::new(Rules::CLASSIC);
    for text in MIDGAME {
        let mv = parse_move(&position, text).map_err(|e| miette!("bundled example: {text}: {e}"))?;
        position.play(mv);
    }
    Ok(position)
}

/// Reads and validates a position file.
pub fn load_position(path: &Path) -> miette::Result<Position> {
    Err(miette!(
        "cannot read {}: position files are not supported yet",
        path.display()
    ))
}

/// Writes `position` to `path`, refusing to replace an existing file unless `force`.
pub fn save_position(path: &Path, _position: &Position, force: bool) -> miette::Result<()> {
    if path.exists() && !force {
        return Err(super::play::refuse_overwrite(path));
    }
    Err(miette!(
        "cannot write {}: position files are not supported yet",
        path.display()
    ))
}
