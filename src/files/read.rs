//! Reading a file's text for any game: at most [`MAX_FILE_BYTES`] of UTF-8, every failure a
//! located [`FileError`] in words.

use super::FileError;
use std::io::Read;
use std::path::Path;

/// The most a position file or record may hold, in bytes: a position file is a few kilobytes, so
/// larger input is refused before it is read whole (`cathedral show /dev/zero` stops at once).
pub const MAX_FILE_BYTES: usize = 1 << 20;

/// A file's name (as errors give it) and its text, read as [`read_text`] does: for any game's
/// position file or record.
pub fn read_file(path: &Path) -> Result<(String, String), FileError> {
    let name = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|e| read_error(&name, &e))?;
    let text = read_text(&name, file)?;
    Ok((name, text))
}

/// The whole of `reader` as UTF-8 text of at most [`MAX_FILE_BYTES`]; `name` labels errors.
pub fn read_text(name: &str, reader: impl Read) -> Result<String, FileError> {
    let mut bytes = Vec::new();
    reader
        .take(MAX_FILE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| read_error(name, &e))?;
    if bytes.len() > MAX_FILE_BYTES {
        return Err(too_large(name));
    }
    String::from_utf8(bytes).map_err(|e| not_utf8(name, e))
}

/// "cannot read the file: ...", in words rather than the system's error codes when it can.
pub(crate) fn read_error(name: &str, error: &std::io::Error) -> FileError {
    use std::io::ErrorKind;
    let reason = match error.kind() {
        ErrorKind::NotFound => "there is no such file".to_string(),
        ErrorKind::PermissionDenied => "permission denied".to_string(),
        ErrorKind::IsADirectory => "it is a directory".to_string(),
        ErrorKind::InvalidData => "it is not text".to_string(),
        _ => {
            let text = error.to_string();
            match text.split_once(" (os error") {
                Some((words, _)) => words.to_string(),
                None => text,
            }
        }
    };
    FileError::new(name, format!("cannot read the file: {reason}"))
}

pub(crate) fn too_large(name: &str) -> FileError {
    FileError::new(
        name,
        format!(
            "larger than {}, the most a position file may hold (a position file is a few kilobytes): is it the right file?",
            size_words(MAX_FILE_BYTES)
        ),
    )
}

/// Bytes that are not UTF-8, located at the first bad byte.
fn not_utf8(name: &str, error: std::string::FromUtf8Error) -> FileError {
    let valid = error.utf8_error().valid_up_to();
    let bytes = error.into_bytes();
    let before = String::from_utf8_lossy(&bytes[..valid]);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    FileError::new(
        name,
        format!(
            "this is not UTF-8 text (byte {:#04x}): save position files as UTF-8",
            bytes[valid]
        ),
    )
    .at(Some(line), Some(column))
    .with_source(&String::from_utf8_lossy(&bytes))
}

/// `1 MiB`, `512 KiB` or `300 bytes`.
pub(crate) fn size_words(bytes: usize) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else if bytes >= 1 << 10 && bytes.is_multiple_of(1 << 10) {
        format!("{} KiB", bytes >> 10)
    } else {
        format!("{bytes} bytes")
    }
}
