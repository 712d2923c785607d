//! The moment a search started or must stop: `std::time::Instant` where the platform has a
//! clock. The browser build (`wasm32-unknown-unknown`, issue 46) has none (`Instant::now()`
//! panics there), so there it is the page's `performance.now()`, imported from the JavaScript
//! loader as `env.cathedral_now_ms` (milliseconds, monotonic). Searches, deadlines and
//! statistics take this type, so the same code runs in both.

#[cfg(not(target_arch = "wasm32"))]
pub use std::time::Instant;

#[cfg(target_arch = "wasm32")]
pub use page::Instant;

#[cfg(target_arch = "wasm32")]
mod page {
    use std::ops::{Add, Sub};
    use std::time::Duration;

    unsafe extern "C" {
        /// Milliseconds from the page's `performance.now()`.
        fn cathedral_now_ms() -> f64;
    }

    /// A moment, in milliseconds of the page's monotonic clock.
    #[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
    pub struct Instant(f64);

    impl Instant {
        /// Now.
        pub fn now() -> Instant {
            // SAFETY: the loader provides this import; it takes nothing and returns a number.
            Instant(unsafe { cathedral_now_ms() })
        }

        /// The time since `earlier`, zero if `earlier` is later.
        pub fn saturating_duration_since(&self, earlier: Instant) -> Duration {
            Duration::from_secs_f64(((self.0 - earlier.0) / 1000.0).max(0.0))
        }

        /// The time since `earlier` (zero if `earlier` is later, as `std` does since 1.60).
        pub fn duration_since(&self, earlier: Instant) -> Duration {
            self.saturating_duration_since(earlier)
        }

        /// The time since this moment.
        pub fn elapsed(&self) -> Duration {
            Instant::now().saturating_duration_since(*self)
        }
    }

    impl Add<Duration> for Instant {
        type Output = Instant;
        fn add(self, duration: Duration) -> Instant {
            Instant(self.0 + duration.as_secs_f64() * 1000.0)
        }
    }

    impl Sub for Instant {
        type Output = Duration;
        fn sub(self, earlier: Instant) -> Duration {
            self.saturating_duration_since(earlier)
        }
    }
}
