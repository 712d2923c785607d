//! Drawing a [`Position`] for the terminal: the board with building outlines, then a summary of
//! the hands, scores and game state.
//!
//! Two looks, chosen by [`RenderStyle`]: Unicode box drawing with ANSI colours for a terminal,
//! and plain ASCII for pipes, logs and `NO_COLOR`. Every function returns a `String`; colours
//! are inline ANSI escapes, present only when [`RenderStyle::color`] is set.

mod board;
mod palette;
pub mod summary;

pub use board::board;
pub use summary::summary;

use crate::cathedral::position::Position;

/// How to draw: box-drawing characters or ASCII, colours or none.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct RenderStyle {
    /// Box-drawing lines (`─│┌┼`...) instead of `+`, `-` and `|`.
    pub unicode: bool,
    /// ANSI colours (backgrounds for buildings and territory).
    pub color: bool,
}

impl RenderStyle {
    /// ASCII only, no escapes: for pipes, files and tests.
    pub const PLAIN: RenderStyle = RenderStyle {
        unicode: false,
        color: false,
    };

    /// Box drawing and colours: for a terminal.
    pub const FANCY: RenderStyle = RenderStyle {
        unicode: true,
        color: true,
    };
}

/// The board, a blank line, then the summary.
pub fn position_text(position: &Position, style: RenderStyle) -> String {
    format!("{}\n{}", board(position, style), summary(position, style))
}
