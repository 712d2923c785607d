//! Presentation: what people see. [`terminal`] draws a position as text for the terminal,
//! [`svg`] as an SVG diagram, [`sheet_html`] a set of puzzles as a printable HTML worksheet.
//! Each returns a `String`; the front ends decide where it goes.

mod game_report;
mod sheet;
pub mod svg;
pub mod table;
pub mod terminal;

pub use game_report::{game_plot_svg, game_report_html, value_plot_svg};
pub use sheet::{SheetPuzzle, sheet_html};

/// Text made safe inside HTML and SVG elements and attribute values.
pub(crate) fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
