//! Reading and writing the position files the commands work on.

use cathedral::file::{self, FileError, PositionFile};
use miette::{Diagnostic, MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};
use std::path::Path;

/// The FILE argument that means standard input.
const STDIN_ARGUMENT: &str = "-";
/// Standard input's name in error messages.
const STDIN_NAME: &str = "<stdin>";
/// Lines shown before and after the offending line, at most (miette shows one by default).
const CONTEXT_LINES: usize = 2;

/// A position file problem, shown by miette with the offending line underlined.
#[derive(Debug, thiserror::Error, Diagnostic)]
#[error("{message}")]
pub struct FileDiagnostic {
    message: String,
    #[source_code]
    source_code: Option<ExcerptSource>,
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
        let (source_code, span) = match ExcerptSource::of(&error) {
            Some((source, span)) => (Some(source), Some(span)),
            None => (None, None),
        };
        FileDiagnostic {
            message: format!("{place}: {}", error.message),
            source_code,
            span,
            help: None,
        }
    }
}

/// The lines around an error as miette reads them: only those lines, long ones cut around the
/// error's column (`FileError::excerpt_lines`), so that a 1 MiB line is never printed whole;
/// numbered as in the file.
#[derive(Debug)]
struct ExcerptSource {
    name: String,
    /// The shown lines, each ending in a newline.
    text: String,
    /// The 0-based number of the first shown line in the file.
    first_line: usize,
    /// Where the label is in `text`, and its 0-based column in the file.
    label_offset: usize,
    column: usize,
}

impl ExcerptSource {
    /// The excerpt of `error` and the label's span in it, when the error is located.
    fn of(error: &FileError) -> Option<(ExcerptSource, SourceSpan)> {
        let excerpt = error.excerpt_lines(CONTEXT_LINES, CONTEXT_LINES)?;
        let mut text = String::new();
        let mut label_offset = 0;
        for (i, line) in excerpt.lines.iter().enumerate() {
            if i == excerpt.error_index {
                let within: usize = line
                    .chars()
                    .take(excerpt.column.saturating_sub(1))
                    .map(char::len_utf8)
                    .sum();
                label_offset = text.len() + within;
            }
            text.push_str(line);
            text.push('\n');
        }
        let source = ExcerptSource {
            name: error.path.clone(),
            text,
            first_line: excerpt.first_line - 1,
            label_offset,
            column: error.column.unwrap_or(1).saturating_sub(1),
        };
        Some((source, SourceSpan::from((label_offset, 0))))
    }
}

impl SourceCode for ExcerptSource {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let inner = self
            .text
            .read_span(span, context_lines_before, context_lines_after)?;
        // The label's own line and column are the file's, not the excerpt's.
        let column = if span.offset() == self.label_offset {
            self.column
        } else {
            inner.column()
        };
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            *inner.span(),
            inner.line() + self.first_line,
            column,
            inner.line_count(),
        )))
    }
}

/// Reads and validates a position file; `-` reads it from standard input (named `<stdin>` in
/// errors). Either way at most `file::MAX_FILE_BYTES` are read.
pub fn load_position(path: &Path) -> miette::Result<PositionFile> {
    let loaded = if path.as_os_str() == STDIN_ARGUMENT {
        file::load_from(STDIN_NAME, std::io::stdin().lock())
    } else {
        file::load(path)
    };
    Ok(loaded.map_err(FileDiagnostic::from)?)
}

/// Reads an opening book file (`docs/opening.md`).
pub fn load_book(path: &Path) -> miette::Result<cathedral::book::Book> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| {
        FileDiagnostic::from(FileError::new(
            &name,
            format!("cannot read the opening book: {e}"),
        ))
    })?;
    Ok(cathedral::book::Book::parse(&name, &text).map_err(FileDiagnostic::from)?)
}

/// Reads and checks every game of a record file (`docs/game-record.md`); `-` reads standard
/// input.
pub fn load_records(path: &Path) -> miette::Result<Vec<file::GameRecord>> {
    let loaded = if path.as_os_str() == STDIN_ARGUMENT {
        let mut text = String::new();
        std::io::Read::read_to_string(
            &mut std::io::Read::take(std::io::stdin().lock(), file::MAX_FILE_BYTES as u64 + 1),
            &mut text,
        )
        .map_err(|e| miette::miette!("cannot read standard input: {e}"))?;
        file::parse_records(STDIN_NAME, &text)
    } else {
        file::load_records(path)
    };
    Ok(loaded.map_err(FileDiagnostic::from)?)
}
