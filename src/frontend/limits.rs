//! The ranges every front end accepts for the engine's and the solver's options (the command
//! line's value parsers and the Python module check against the same numbers).

/// The longest time limit accepted: a week.
pub const MAX_SECONDS: u64 = 7 * 24 * 3600;
/// The most worker threads accepted.
pub const MAX_THREADS: usize = 64;
/// The largest transposition table accepted, in MiB (64 GiB).
pub const MAX_TABLE_MIB: usize = 64 * 1024;
/// The largest node budget accepted.
pub const MAX_BUDGET: u64 = 1_000_000_000_000_000;
