//! A solve's progress as both exact solvers report it (alpha-beta, `solve.rs`, and
//! proof-number search, `proof/solve.rs`): what the solve is working on, the root's bounds so
//! far, and a report to the caller about every [`REPORT_EVERY`], whichever thread is searching.

use std::sync::atomic::{AtomicI32, AtomicU8, AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

use crate::boardgame::Instant;

/// How often a solve reports its progress, at most.
const REPORT_EVERY: Duration = Duration::from_millis(150);

/// What a solve is working on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Proving the position's value.
    Value,
    /// Proving the value of every root move: `done` of `total` finished.
    RootMoves {
        /// Root moves whose value is proven.
        done: usize,
        /// All root moves.
        total: usize,
    },
    /// Writing out a line that reaches the value.
    Line,
}

/// Reported about every 100-250 ms while solving.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// What the solve is working on.
    pub phase: Phase,
    /// Nodes searched so far, by every thread.
    pub nodes: u64,
    /// Time since the solve started.
    pub elapsed: Duration,
    /// The root value's proven lower bound so far.
    pub lower: i32,
    /// The root value's proven upper bound so far.
    pub upper: i32,
}

/// [`Phase`] without its counts, as the tracker keeps it in one atomic byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
enum Stage {
    Value = 0,
    RootMoves = 1,
    Line = 2,
}

impl Stage {
    fn from_byte(byte: u8) -> Stage {
        match byte {
            0 => Stage::Value,
            1 => Stage::RootMoves,
            _ => Stage::Line,
        }
    }
}

/// What a solve has done so far, shared by its threads: each updates it as it goes, and the
/// one that reports turns it into a [`Progress`] for the caller.
pub(crate) struct Tracker<'a> {
    start: Instant,
    /// Bounds are shown as signs only (a win/draw/loss solve).
    wdl: bool,
    progress: &'a (dyn Fn(&Progress) + Sync),
    stage: AtomicU8,
    root_done: AtomicUsize,
    root_total: AtomicUsize,
    lower: AtomicI32,
    upper: AtomicI32,
    last_report_ms: AtomicU64,
}

impl<'a> Tracker<'a> {
    /// A solve that started at `start`, proving the value, between the game's `bounds`.
    pub(crate) fn new(
        start: Instant,
        wdl: bool,
        bounds: (i32, i32),
        progress: &'a (dyn Fn(&Progress) + Sync),
    ) -> Tracker<'a> {
        Tracker {
            start,
            wdl,
            progress,
            stage: AtomicU8::new(Stage::Value as u8),
            root_done: AtomicUsize::new(0),
            root_total: AtomicUsize::new(0),
            lower: AtomicI32::new(bounds.0),
            upper: AtomicI32::new(bounds.1),
            last_report_ms: AtomicU64::new(0),
        }
    }

    /// A value as the solve shows it: its sign only in a win/draw/loss solve, else itself.
    pub(crate) fn shown(&self, value: i32) -> i32 {
        if self.wdl { value.signum() } else { value }
    }

    /// The root's value is proven between `lower` and `upper` (score units).
    pub(crate) fn root_bounds(&self, lower: i32, upper: i32) {
        self.lower.store(lower, Ordering::Relaxed);
        self.upper.store(upper, Ordering::Relaxed);
    }

    /// The solve writes out its best line.
    pub(crate) fn line(&self) {
        self.stage.store(Stage::Line as u8, Ordering::Relaxed);
    }

    /// The solve proves the values of the root's `total` moves.
    pub(crate) fn root_moves(&self, total: usize) {
        self.root_total.store(total, Ordering::Relaxed);
        self.stage.store(Stage::RootMoves as u8, Ordering::Relaxed);
    }

    /// One more root move's value is proven (or given up on).
    pub(crate) fn root_move_done(&self) {
        self.root_done.fetch_add(1, Ordering::Relaxed);
    }

    /// Reports to the caller, with `nodes` searched so far, unless it did so less than
    /// [`REPORT_EVERY`] ago.
    pub(crate) fn report(&self, nodes: u64) {
        let elapsed = self.start.elapsed();
        let ms = elapsed.as_millis() as u64;
        if ms < self.last_report_ms.load(Ordering::Relaxed) + REPORT_EVERY.as_millis() as u64 {
            return;
        }
        self.last_report_ms.store(ms, Ordering::Relaxed);
        let phase = match Stage::from_byte(self.stage.load(Ordering::Relaxed)) {
            Stage::Value => Phase::Value,
            Stage::RootMoves => Phase::RootMoves {
                done: self.root_done.load(Ordering::Relaxed),
                total: self.root_total.load(Ordering::Relaxed),
            },
            Stage::Line => Phase::Line,
        };
        (self.progress)(&Progress {
            phase,
            nodes,
            elapsed,
            lower: self.shown(self.lower.load(Ordering::Relaxed)),
            upper: self.shown(self.upper.load(Ordering::Relaxed)),
        });
    }
}
