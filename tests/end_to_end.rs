//! The end-to-end suites, a second test binary: the board in headless Chromium
//! (`browser`), the static site (`site`), the Python package's pytest suite (`python`) and the
//! play server on a shared PostgreSQL (`play_postgres`). Each
//! drives other processes for minutes and some of what they check is timed (a second's search,
//! a solve stopped after three seconds), so they do not share the machine with the rest of the
//! tests: cargo runs the test binaries one after another, and here one suite at a time
//! ([`one_at_a_time`]). `tests/layers.rs` fails when a test file is in neither binary.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test that fails should panic with what it found"
)]

mod common {
    pub mod chromium;
    pub mod play_client;
    pub mod server;
}

mod browser;
mod play_postgres;
mod python;
mod site;

/// Held by each suite while it runs, so that the three never run together.
fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    static SUITE: std::sync::Mutex<()> = std::sync::Mutex::new(());
    // A suite that failed poisons the lock; the next one still runs, alone.
    SUITE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}
