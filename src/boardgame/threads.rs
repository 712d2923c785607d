//! How many threads a search, a solve or a batch runs on when asked for "all": one place that
//! asks the system, so that every front end's `threads: 0` means the same.

use std::sync::OnceLock;

/// `requested` threads, or with 0 every core this process may use (its CPU limits counted:
/// `std::thread::available_parallelism`), at least one.
///
/// ```
/// use cathedral::boardgame::thread_count;
///
/// assert_eq!(thread_count(3), 3);
/// assert!(thread_count(0) >= 1);
/// ```
pub fn thread_count(requested: usize) -> usize {
    if requested > 0 {
        return requested;
    }
    // Looked up once: it reads the process's CPU limits, and searches ask often.
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}
