//! Helpers every subcommand may use: reading position files ([`input`]), writing text, JSON and
//! files ([`output`]), and the search options, stop flag and progress spinner ([`search`]).
//! Subcommand modules use these, never each other.

pub mod input;
pub mod output;
pub mod search;
