//! Errors in position files, located by file name, line and column with an excerpt.

use std::fmt;

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

    pub(crate) fn at(mut self, line: Option<usize>, column: Option<usize>) -> FileError {
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

    /// The offending line with a caret under the column.
    pub fn excerpt(&self) -> Option<String> {
        let text = self.source_text.as_ref()?;
        let line = self.line?;
        let content = text.lines().nth(line.checked_sub(1)?)?;
        let mut out = format!("{line:>4} | {content}");
        if let Some(column) = self.column {
            out.push_str(&format!(
                "\n     | {}^",
                " ".repeat(column.saturating_sub(1))
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
