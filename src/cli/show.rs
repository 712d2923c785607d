//! `cathedral show`: draw a position, or print it as JSON.

use super::ColorWhen;
use super::input::position_or_default;
use super::output::{emit, emit_json, style_for};
use cathedral::render::render;
use cathedral::view::PositionView;
use std::path::Path;

pub fn run(file: Option<&Path>, json: bool, color: ColorWhen) -> miette::Result<()> {
    let position = position_or_default(file)?;
    if json {
        emit_json(&PositionView::of(&position))
    } else {
        emit(&render(&position, style_for(color)))
    }
}
