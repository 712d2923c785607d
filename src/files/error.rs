//! Errors in position files, located by file name, line and column with an excerpt.

use std::fmt;

/// Excerpt lines longer than this many characters are cut to a window of this width around the
/// error's column, with `…` where they are cut.
pub const EXCERPT_WIDTH: usize = 80;

/// The lines of a file around an error, as shown under its message: each line cut to the same
/// window round the error's column when long (with `…` where cut), tabs and other control
/// characters shown as spaces, so that one character is one column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Excerpt {
    /// The 1-based number of the first line shown.
    pub first_line: usize,
    /// The lines as shown.
    pub lines: Vec<String>,
    /// The index in `lines` of the offending line.
    pub error_index: usize,
    /// The 1-based column (in characters) of the error in its shown line.
    pub column: usize,
}

/// Something wrong with a position file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileError {
    /// The file name as given by the user (or a label such as `<bundled>`).
    pub path: String,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// 1-based column, when known.
    pub column: Option<usize>,
    /// What was wrong and what was expected.
    pub message: String,
    /// The whole file text, for excerpts and for the binary's diagnostic report.
    pub source_text: Option<String>,
}

impl FileError {
    /// An error in file `path` with a message, not yet located at a line or given the file's text.
    pub fn new(path: &str, message: impl Into<String>) -> FileError {
        FileError {
            path: path.to_string(),
            line: None,
            column: None,
            message: message.into(),
            source_text: None,
        }
    }

    /// The error located at `line` and `column` (from 1) of its file.
    pub fn at(mut self, line: Option<usize>, column: Option<usize>) -> FileError {
        self.line = line;
        self.column = column;
        self
    }

    pub(crate) fn with_source(mut self, text: &str) -> FileError {
        self.source_text = Some(text.to_string());
        self
    }

    /// Byte offset of the location in `source_text`, for a diagnostic span.
    pub fn offset(&self) -> Option<usize> {
        let text = self.source_text.as_ref()?;
        let line = self.line?;
        let column = self.column.unwrap_or(1);
        let mut offset = 0;
        for (i, l) in text.split_inclusive('\n').enumerate() {
            if i + 1 == line {
                let within: usize = l
                    .chars()
                    .take(column.saturating_sub(1))
                    .map(char::len_utf8)
                    .sum();
                return Some(offset + within.min(l.len()));
            }
            offset += l.len();
        }
        None
    }

    /// The offending line with `before` lines before it and `after` lines after it (fewer at
    /// the file's ends), long lines cut around the error's column (the first when none is
    /// known).
    pub fn excerpt_lines(&self, before: usize, after: usize) -> Option<Excerpt> {
        let text = self.source_text.as_ref()?;
        let line = self.line?;
        let index = line.checked_sub(1)?;
        let first = index.saturating_sub(before);
        let lines: Vec<&str> = text
            .lines()
            .skip(first)
            .take(index - first + after + 1)
            .collect();
        let error_index = index - first;
        let error_line = lines.get(error_index)?;
        let column = self.column.unwrap_or(1).saturating_sub(1);
        let length = error_line.chars().count();
        let widest = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
        // The window: the error's column in the middle, shifted to end with the error line.
        let start = if widest <= EXCERPT_WIDTH {
            0
        } else {
            column
                .saturating_sub(EXCERPT_WIDTH / 2)
                .min(length.saturating_sub(EXCERPT_WIDTH - 1))
        };
        let shown = |line: &str| {
            let total = line.chars().count();
            let mut out = String::new();
            if start > 0 && total > 0 {
                out.push('…');
            }
            out.extend(
                line.chars()
                    .skip(start)
                    .take(EXCERPT_WIDTH)
                    .map(|c| if c.is_control() { ' ' } else { c }),
            );
            if total > start + EXCERPT_WIDTH {
                out.push('…');
            }
            out
        };
        Some(Excerpt {
            first_line: first + 1,
            lines: lines.iter().map(|l| shown(l)).collect(),
            error_index,
            column: column - start + 1 + usize::from(start > 0 && length > 0),
        })
    }

    /// The offending line with a caret under the column; a long line is cut around it.
    pub fn excerpt(&self) -> Option<String> {
        let line = self.line?;
        let excerpt = self.excerpt_lines(0, 0)?;
        let content = &excerpt.lines[excerpt.error_index];
        let mut out = format!("{line:>4} | {content}");
        if self.column.is_some() {
            out.push_str(&format!(
                "\n     | {}^",
                " ".repeat(excerpt.column.saturating_sub(1))
            ));
        }
        Some(out)
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.path)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(column) = self.column {
                write!(f, ":{column}")?;
            }
        }
        write!(f, ": {}", self.message)?;
        if let Some(excerpt) = self.excerpt() {
            write!(f, "\n{excerpt}")?;
        }
        Ok(())
    }
}

impl std::error::Error for FileError {}
