//! What every game's files share, naming no game: errors located by file, line and column with
//! an excerpt ([`FileError`]), reading a file's text with a size limit ([`read_file`],
//! [`read_text`]), writing a file whole or not at all ([`write_atomically`]), cutting a YAML
//! stream into its documents (game records hold one game a document), and putting a YAML syntax
//! error in the writer's words at the line of the mistake. Each game's own formats
//! (`crate::file` for Cathedral, `crate::corintho::file`) sit on top.

mod atomic;
mod documents;
mod error;
mod read;
mod yaml_syntax;

pub use atomic::write_atomically;
pub(crate) use documents::documents;
pub use error::{EXCERPT_WIDTH, Excerpt, FileError};
pub use read::{MAX_FILE_BYTES, read_file, read_text};
pub(crate) use read::{read_error, size_words, too_large};
pub(crate) use yaml_syntax::explain as explain_yaml_syntax;
