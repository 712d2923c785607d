//! Cathedral drawn for people: [`terminal`] draws a position as text for the terminal, [`svg`]
//! as an SVG diagram, and the game report ([`game_report_html`]) a whole analysed game as HTML.
//! Each returns a `String`; the front ends decide where it goes.

mod game_report;
pub mod svg;
pub mod terminal;

pub use game_report::{game_plot_svg, game_report_html};
