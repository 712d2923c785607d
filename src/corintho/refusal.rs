//! Why a Corintho move is not read or not allowed, in the rule sheet's words: what
//! [`CorinthoMove::parse`](crate::corintho::CorinthoMove::parse) and
//! [`CorinthoPosition::check`](crate::corintho::CorinthoPosition::check) answer. Each kind is its
//! own variant, so that a program can tell them apart; the message is the same words a player
//! reads on every front end.

use crate::corintho::board::{Level, Square, Stack};

/// A text that is not a Corintho move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{text}` is not a move: write `C@b2` (place a column on b2; B base, K capital), `b2-c2` (move the stack on b2 onto c2) or `pass`"
)]
pub struct ParseCorinthoMoveError {
    /// The text as written, trimmed.
    pub text: String,
}

/// A well-formed move the rules do not allow in the position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum IllegalCorinthoMove {
    /// The game has ended: no move is allowed.
    #[error("the game is over")]
    GameOver,
    /// A pass while a move is allowed.
    #[error("a player may pass only without a legal move")]
    PassWithMoves,
    /// A placement of a section the mover has none of.
    #[error("player {} has no {} left", .player + 1, .level.name())]
    NoneLeft {
        /// The mover, 0 for the first player.
        player: u8,
        /// The section asked for.
        level: Level,
    },
    /// Free placement on a platform that holds a stack.
    #[error("{to} is occupied ({stack}): sections are placed on unoccupied platforms only")]
    Occupied {
        /// Where the section was to go.
        to: Square,
        /// What stands there.
        stack: Stack,
    },
    /// Ordered placement on a platform built on this round (building code 5).
    #[error(
        "{to} was built on too recently: it is locked until the next players' turn has passed (building code 5)"
    )]
    PlaceLocked {
        /// Where the section was to go.
        to: Square,
    },
    /// Ordered placement of a section where it cannot rest.
    #[error(
        "a {} cannot rest on {stack} at {to} (ordered placement: base on an empty platform, column on a base, capital on a column)",
        .level.name()
    )]
    PlaceCannotRest {
        /// The section placed.
        level: Level,
        /// What stands there.
        stack: Stack,
        /// Where it was to go.
        to: Square,
    },
    /// A stack moved to a platform that is not orthogonally next to it.
    #[error("{to} is not next to {from}: stacks move one platform, never diagonally")]
    NotNext {
        /// The stack's platform.
        from: Square,
        /// Where it was to go.
        to: Square,
    },
    /// A move from an empty platform.
    #[error("{from} is empty")]
    NothingToMove {
        /// The platform named.
        from: Square,
    },
    /// A move of a stack that stands on a base.
    #[error("the stack on {from} stands on a base: it never moves")]
    OnBase {
        /// The stack's platform.
        from: Square,
    },
    /// A move from or onto a platform built on this round (building code 5).
    #[error(
        "{square} was built on too recently: it may not be moved or modified until the next players' turn has passed (building code 5)"
    )]
    StackLocked {
        /// The locked platform (the one moved from where both are).
        square: Square,
    },
    /// A move onto an empty platform.
    #[error("{to} is empty: stacks move only onto stacks")]
    OntoEmpty {
        /// Where the stack was to go.
        to: Square,
    },
    /// A move of a stack onto one it cannot rest on.
    #[error("{moving} cannot rest on {target}: capitals rest on columns, columns on bases")]
    CannotRest {
        /// The stack moved.
        moving: Stack,
        /// The stack it was to rest on.
        target: Stack,
    },
}

/// A move read against a position: not a move, or not allowed there.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CorinthoMoveError {
    /// The text is not a move.
    #[error(transparent)]
    Parse(#[from] ParseCorinthoMoveError),
    /// The move is not allowed in the position.
    #[error(transparent)]
    Illegal(#[from] IllegalCorinthoMove),
}
