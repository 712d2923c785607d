//! The moment a search started or must stop: `std::time::Instant` where the platform has a
//! clock. The browser build (`wasm32-unknown-unknown`, issue 46) has none (`Instant::now()`
//! panics there), so there it is the page's `performance.now()`, imported from the JavaScript
//! loader as `env.cathedral_now_ms` (milliseconds, monotonic). Searches, deadlines and
//! statistics take this type, so the same code runs in both.
//!
//! The same goes for a deadline on a stop flag ([`stop_after`]): a watchdog thread natively; in
//! the browser, where the search holds the only thread, the clock itself sets the flag when it
//! is read past the deadline (searches read it often), and also when the page asks for a stop
//! through the loader's `env.cathedral_stop_requested` (a flag the page shares with its worker).

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
#[cfg(not(target_arch = "wasm32"))]
use std::sync::atomic::Ordering;
use std::time::Duration;

#[cfg(not(target_arch = "wasm32"))]
pub use std::time::Instant;

#[cfg(target_arch = "wasm32")]
pub use page::Instant;

#[cfg(target_arch = "wasm32")]
mod page {
    use std::ops::{Add, Sub};
    use std::time::Duration;

    use std::cell::RefCell;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};

    unsafe extern "C" {
        /// Milliseconds from the page's `performance.now()`.
        fn cathedral_now_ms() -> f64;
        /// 1 when the page has asked the search under way to stop (a flag it shares with the
        /// worker, where the page is cross-origin isolated), else 0.
        fn cathedral_stop_requested() -> u32;
    }

    /// A flag to set at a deadline or at the page's stop.
    struct Watch {
        id: u64,
        flag: Arc<AtomicBool>,
        deadline: Option<Instant>,
    }

    thread_local! {
        static WATCHES: RefCell<(u64, Vec<Watch>)> = const { RefCell::new((0, Vec::new())) };
    }

    pub(super) fn watch(flag: Arc<AtomicBool>, deadline: Option<Instant>) -> u64 {
        WATCHES.with(|w| {
            let mut w = w.borrow_mut();
            w.0 += 1;
            let id = w.0;
            w.1.push(Watch { id, flag, deadline });
            id
        })
    }

    pub(super) fn unwatch(id: u64) {
        WATCHES.with(|w| w.borrow_mut().1.retain(|watch| watch.id != id));
    }

    fn stop_requested() -> bool {
        // SAFETY: the loader provides this import; it takes nothing and returns a number.
        unsafe { cathedral_stop_requested() != 0 }
    }

    /// Sets the flags whose deadline is past, and all of them at the page's stop.
    fn check(now: Instant) {
        WATCHES.with(|w| {
            let Ok(w) = w.try_borrow() else { return };
            if w.1.is_empty() {
                return;
            }
            let stop = stop_requested();
            for watch in &w.1 {
                if stop || watch.deadline.is_some_and(|d| now >= d) {
                    watch.flag.store(true, Ordering::Relaxed);
                }
            }
        });
    }

    /// A moment, in milliseconds of the page's monotonic clock.
    #[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
    pub struct Instant(f64);

    impl Instant {
        /// Now.
        pub fn now() -> Instant {
            // SAFETY: the loader provides this import; it takes nothing and returns a number.
            let now = Instant(unsafe { cathedral_now_ms() });
            check(now);
            now
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

/// A deadline on a stop flag, set by [`stop_after`]; dropping it cancels the deadline.
pub struct StopAfter {
    #[cfg(not(target_arch = "wasm32"))]
    done: Option<std::sync::mpsc::Sender<()>>,
    #[cfg(not(target_arch = "wasm32"))]
    watchdog: Option<std::thread::JoinHandle<()>>,
    #[cfg(target_arch = "wasm32")]
    id: u64,
}

/// Sets `flag` once `time` has passed, unless the returned guard is dropped first. In the
/// browser the flag is also set when the page asks for a stop.
pub fn stop_after(flag: Arc<AtomicBool>, time: Duration) -> StopAfter {
    #[cfg(not(target_arch = "wasm32"))]
    {
        let (done, wait) = std::sync::mpsc::channel::<()>();
        let watchdog = std::thread::spawn(move || {
            if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = wait.recv_timeout(time) {
                flag.store(true, Ordering::Relaxed);
            }
        });
        StopAfter {
            done: Some(done),
            watchdog: Some(watchdog),
        }
    }
    #[cfg(target_arch = "wasm32")]
    {
        StopAfter {
            id: page::watch(flag, Some(Instant::now() + time)),
        }
    }
}

impl StopAfter {
    /// A guard that only passes the page's stop on to `flag` (no deadline): natively, nothing.
    pub fn page_stop(flag: Arc<AtomicBool>) -> StopAfter {
        #[cfg(not(target_arch = "wasm32"))]
        {
            let _ = flag;
            StopAfter {
                done: None,
                watchdog: None,
            }
        }
        #[cfg(target_arch = "wasm32")]
        {
            StopAfter {
                id: page::watch(flag, None),
            }
        }
    }
}

impl Drop for StopAfter {
    fn drop(&mut self) {
        #[cfg(not(target_arch = "wasm32"))]
        {
            drop(self.done.take());
            if let Some(watchdog) = self.watchdog.take() {
                let _ = watchdog.join();
            }
        }
        #[cfg(target_arch = "wasm32")]
        page::unwatch(self.id);
    }
}
