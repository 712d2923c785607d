//! What every game's files share, naming no game: errors located by file, line and column with
//! an excerpt ([`FileError`]), reading a file's text with a size limit ([`read_file`],
//! [`read_text`]), writing a file whole or not at all ([`write_atomically`]), and cutting a YAML
//! stream into its documents (game records hold one game a document). Each game's own formats
//! (`crate::file` for Cathedral, `crate::corintho::file`) sit on top.

mod atomic;
mod documents;
mod error;
mod read;

pub use atomic::write_atomically;
pub(crate) use documents::documents;
pub use error::{EXCERPT_WIDTH, Excerpt, FileError};
pub use read::{MAX_FILE_BYTES, read_file, read_text};
pub(crate) use read::{read_error, size_words, too_large};
