//! Helpers every subcommand may use: exit statuses ([`exit`]), every numeric option's range
//! ([`limits`]), reading position files ([`input`]), writing text, JSON and
//! files ([`output`]), puzzle directories and their index ([`puzzle_dir`]), and the search
//! options, stop flag and progress spinner ([`search`]). Subcommand modules use these, never each
//! other.

pub mod exit;
pub mod game;
pub mod input;
pub mod limits;
pub mod output;
pub mod puzzle_dir;
pub mod search;
