//! Reading and writing the position files the commands work on.

use cathedral::Position;
use cathedral::file::{self, FileError, PositionFile};
use miette::{Diagnostic, NamedSource, SourceSpan};
use std::path::Path;

/// The bundled example used when no FILE is given.
const MIDGAME_NAME: &str = "<bundled midgame example>";
const MIDGAME_YAML: &str = include_str!("../../../puzzles/examples/midgame.yaml");

/// A position file problem, shown by miette with the offending line underlined.
#[derive(Debug, thiserror::Error, Diagnostic)]
#[error("{message}")]
pub struct FileDiagnostic {
    message: String,
    #[source_code]
    source_code: Option<NamedSource<String>>,
    #[label("here")]
    span: Option<SourceSpan>,
    #[help]
    help: Option<String>,
}

impl From<FileError> for FileDiagnostic {
    fn from(error: FileError) -> FileDiagnostic {
        let mut place = error.path.clone();
        if let Some(line) = error.line {
            place.push_str(&format!(":{line}"));
            if let Some(column) = error.column {
                place.push_str(&format!(":{column}"));
            }
        }
        let span = error.offset().map(|offset| SourceSpan::from((offset, 0)));
        let source_code = error
            .source_text
            .clone()
            .filter(|_| span.is_some())
            .map(|text| NamedSource::new(error.path.clone(), text));
        FileDiagnostic {
            message: format!("{place}: {}", error.message),
            source_code,
            span,
            help: None,
        }
    }
}

/// The position file at `path`, or the bundled midgame example without a path.
pub fn file_or_default(path: Option<&Path>) -> miette::Result<PositionFile> {
    file_or_bundled(path, MIDGAME_NAME, MIDGAME_YAML)
}

/// The position file at `path`, or the bundled file `text` (called `name`) without a path.
pub fn file_or_bundled(
    path: Option<&Path>,
    name: &str,
    text: &str,
) -> miette::Result<PositionFile> {
    match path {
        Some(path) => load_position(path),
        None => Ok(file::parse_str(name, text).map_err(FileDiagnostic::from)?),
    }
}

/// The position in `path`, or the bundled midgame example without a path.
pub fn position_or_default(path: Option<&Path>) -> miette::Result<Position> {
    Ok(file_or_default(path)?.position)
}

/// Reads and validates a position file.
pub fn load_position(path: &Path) -> miette::Result<PositionFile> {
    Ok(file::load(path).map_err(FileDiagnostic::from)?)
}

/// Writes `file` to `path`, refusing to replace an existing file unless `force`.
pub fn save_position(path: &Path, file: &PositionFile, force: bool) -> miette::Result<()> {
    if path.exists() && !force {
        return Err(super::output::refuse_overwrite(path));
    }
    Ok(file::save(path, file, force).map_err(FileDiagnostic::from)?)
}
