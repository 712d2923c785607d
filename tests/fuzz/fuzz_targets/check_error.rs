//! What every fuzz target checks of an error: its message, excerpt and location never panic,
//! and the location is on a character boundary of the text (the CLI slices the text there).

use cathedral::file::FileError;

pub fn check_error(error: &FileError) {
    let shown = error.to_string();
    assert!(shown.starts_with(&error.path), "{shown}");
    let _ = error.excerpt();
    if let Some(excerpt) = error.excerpt_lines(2, 2) {
        assert!(excerpt.error_index < excerpt.lines.len());
        assert!(excerpt.column >= 1);
    }
    if let (Some(offset), Some(text)) = (error.offset(), &error.source_text) {
        assert!(
            text.is_char_boundary(offset),
            "offset {offset} of {error:?} is inside a character"
        );
    }
}
