//! Shared probes: every thread searches the same probe, sharing the table and the "being
//! searched" marks (`busy.rs`) that send the threads to different children; the first thread to
//! finish gives the result and the others abandon the probe.
//!
//! Every completed search returns a correct bound, whichever thread finishes first, so the value a
//! solve reaches does not depend on the number of threads or on timing.

use super::negamax::{Control, Searcher};
use crate::boardgame::Game;
use std::sync::Mutex;
use std::sync::atomic::Ordering;

/// Runs the probe `(alpha, beta)` on `position` with every searcher (one per thread). `None` if
/// the solve was stopped before any thread finished.
pub fn probe<G: Game>(
    pool: Option<&rayon::ThreadPool>,
    searchers: &mut [Searcher<'_, G>],
    control: &Control<'_>,
    position: &G,
    alpha: i32,
    beta: i32,
) -> Option<i32> {
    control.probe_done.store(false, Ordering::Relaxed);
    let result = match (pool, searchers) {
        (Some(pool), searchers) if searchers.len() > 1 => {
            let found = Mutex::new(None);
            pool.scope(|scope| {
                for searcher in searchers.iter_mut() {
                    let found = &found;
                    scope.spawn(move |_| {
                        if let Some(value) = searcher.probe(position, alpha, beta) {
                            let mut slot = found.lock().unwrap_or_else(|e| e.into_inner());
                            if slot.is_none() {
                                *slot = Some(value);
                            }
                            control.probe_done.store(true, Ordering::Relaxed);
                        }
                    });
                }
            });
            found.into_inner().unwrap_or_else(|e| e.into_inner())
        }
        (_, searchers) => searchers.first_mut()?.probe(position, alpha, beta),
    };
    control.probe_done.store(false, Ordering::Relaxed);
    result
}
