//! Presentation that names no game: values, counts and times in words ([`words`]), tables for
//! the terminal ([`table`]), text wrapped at words for a terminal ([`wrap`]), how terminal text
//! is drawn ([`RenderStyle`]), and text made safe in HTML and SVG. Each game draws its own
//! positions (`crate::draw` for Cathedral, `crate::corintho::draw`) on top of these.

mod style;
pub mod table;
pub mod words;
pub mod wrap;

pub use style::RenderStyle;

/// Text made safe inside HTML and SVG elements and attribute values.
pub(crate) fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
