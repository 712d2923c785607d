//! Either game as the module holds it: a position of Cathedral or Corintho by value
//! ([`AnyPosition`]), a match over the two ([`with_game!`]), and what the module needs of a game
//! beyond the front ends' traits ([`PythonGame`]).

use crate::Position;
use crate::corintho::{CorinthoPosition, Outcome};
use crate::frontend::Recorded;

/// A position of one of the games. Kept by value, unboxed: a Cathedral position is copied on
/// every move, and an allocation per move would cost more than the unused bytes of a Corintho one.
#[derive(Clone, Copy, PartialEq)]
#[allow(clippy::large_enum_variant)]
pub(crate) enum AnyPosition {
    Cathedral(Position),
    Corintho(CorinthoPosition),
}

/// Runs `$body` with `$g` bound to the position of whichever game it is.
macro_rules! with_game {
    ($position:expr, $g:ident => $body:expr) => {
        match $position {
            AnyPosition::Cathedral($g) => $body,
            AnyPosition::Corintho($g) => $body,
        }
    };
}
pub(crate) use with_game;

/// What the module needs of a game beyond the front ends' traits.
pub(crate) trait PythonGame: Recorded + Send + Sync {
    fn wrap(self) -> AnyPosition;
    /// The winner as the game names its players (`"light"`, `2`), `"draw"`, or `None` while the
    /// game goes on.
    fn result(&self) -> serde_json::Value;
}

impl PythonGame for Position {
    fn wrap(self) -> AnyPosition {
        AnyPosition::Cathedral(self)
    }
    fn result(&self) -> serde_json::Value {
        if !self.is_game_over() {
            return serde_json::Value::Null;
        }
        match self.winner() {
            Some(player) => serde_json::to_value(player).unwrap_or_default(),
            None => "draw".into(),
        }
    }
}

impl PythonGame for CorinthoPosition {
    fn wrap(self) -> AnyPosition {
        AnyPosition::Corintho(self)
    }
    fn result(&self) -> serde_json::Value {
        match self.outcome() {
            Outcome::Ongoing => serde_json::Value::Null,
            Outcome::Drawn => "draw".into(),
            Outcome::Won(player) => serde_json::Value::from(player + 1),
        }
    }
}
