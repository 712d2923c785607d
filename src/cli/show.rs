//! `cathedral show`: draw a position, or print it as JSON.

use super::ColorWhen;
use super::shared::input::file_or_default;
use super::shared::output::{emit, emit_json, style_for};
use cathedral::analysis::view::PositionView;
use cathedral::present::terminal::position_text;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct ShowArgs {
    /// Position file (YAML).
    pub file: Option<PathBuf>,
    /// Print the position as JSON instead of a diagram.
    #[arg(long)]
    pub json: bool,
    /// The game: `corintho` for Corintho (also chosen by a FILE with `game: corintho`).
    #[arg(long, value_enum, value_name = "GAME")]
    pub game: Option<super::GameName>,
    #[arg(long, value_enum, default_value_t)]
    pub color: ColorWhen,
}

pub fn run(args: &ShowArgs) -> miette::Result<()> {
    if super::corintho::selected(args.game, args.file.as_deref()) {
        return super::corintho::show(args.file.as_deref(), args.json);
    }
    let file = file_or_default(args.file.as_deref())?;
    if args.json {
        return emit_json(&PositionView {
            title: file.meta.title.clone(),
            ..PositionView::of(&file.position)
        });
    }
    let mut out = String::new();
    if let Some(title) = &file.meta.title {
        out.push_str(&format!("{title}\n\n"));
    }
    out.push_str(&position_text(&file.position, style_for(args.color)));
    emit(&out)
}
