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
pub use crate::present::RenderStyle;

/// The board, a blank line, then the summary.
pub fn position_text(position: &Position, style: RenderStyle) -> String {
    format!("{}\n{}", board(position, style), summary(position, style))
}
