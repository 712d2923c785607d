//! How text for a terminal is drawn: box drawing or ASCII, colours or none.

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
