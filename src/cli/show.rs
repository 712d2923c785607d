//! `cathedral show`: draw a position, or print it as JSON.

use super::ColorWhen;
use super::input::file_or_default;
use super::output::{emit, emit_json, style_for};
use cathedral::render::render;
use cathedral::view::PositionView;
use std::path::Path;

pub fn run(file: Option<&Path>, json: bool, color: ColorWhen) -> miette::Result<()> {
    let file = file_or_default(file)?;
    if json {
        return emit_json(&PositionView::of(&file.position));
    }
    let mut out = String::new();
    if let Some(title) = &file.meta.title {
        out.push_str(&format!("{title}\n\n"));
    }
    out.push_str(&render(&file.position, style_for(color)));
    emit(&out)
}
