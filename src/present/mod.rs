//! Presentation: what people see. [`terminal`] draws a position as text for the terminal,
//! [`svg`] as an SVG diagram, [`sheet_html`] a set of puzzles as a printable HTML worksheet.
//! Each returns a `String`; the front ends decide where it goes.

mod sheet;
pub mod svg;
pub mod terminal;

pub use sheet::{SheetPuzzle, sheet_html};
