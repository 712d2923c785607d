//! Values with where they were written: a line and column ([`Place`]), the error builder of one
//! file ([`Errors`]), a located value ([`Located`]) and a building as written ([`RawBuilding`]).
//! Every reader of the format (the YAML tree, the schema, the board diagram, the conversion into
//! a position) uses these, so that each error points at what was written.

use crate::cathedral::bitboard::Bitboard;
use crate::cathedral::piece::Piece;
use crate::cathedral::player::Player;
use crate::files::FileError;

/// Line and column of a located value, when the parser knew them.
pub type Place = (Option<usize>, Option<usize>);

/// Builds errors for one file.
pub struct Errors<'a> {
    pub path: &'a str,
    pub text: &'a str,
}

impl Errors<'_> {
    pub fn at(&self, place: Place, message: impl Into<String>) -> FileError {
        // Messages quote what was written; never at length.
        const LIMIT: usize = 1000;
        let mut message: String = message.into();
        if message.chars().count() > LIMIT {
            message = message.chars().take(LIMIT).collect();
            message.push('…');
        }
        FileError::new(self.path, message)
            .at(place.0, place.1)
            .with_source(self.text)
    }
}

/// A building as written, with where it was written.
pub struct RawBuilding {
    pub owner: Option<Player>,
    pub piece: Piece,
    pub cells: Bitboard,
    pub place: Place,
}

impl RawBuilding {
    pub fn label(&self) -> String {
        match self.owner {
            Some(player) => format!("{}'s {}", player, self.piece.title()),
            None => "the Cathedral".to_string(),
        }
    }
}

/// A value with where it was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located<T> {
    pub value: T,
    pub place: Place,
}
