//! A whole match run on several threads: pairs handed out in order, each finished pair reported
//! as it comes in, a sequential test fed in pair order whatever order the pairs finish in, and a
//! stop that keeps every pair finished before it. The front ends only make the contestants and
//! say what to do with each pair (print it, write its records).

use super::contestant::Contestant;
use super::game::MatchGame;
use super::sprt::{Sprt, SprtVerdict};
use super::{MatchOptions, PairResult, play_pair};
use crate::boardgame::Instant;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

/// What the sequential test counts of a pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtOn {
    /// Each game's result: a pair scores 0 to 4 half-points.
    Games,
    /// The pair's result by the total score: 0, 2 or 4 half-points.
    Pairs,
}

/// How a match is run.
#[derive(Clone, Debug)]
pub struct Schedule {
    /// Pairs to play (two games each), numbered from 1.
    pub pairs: usize,
    /// Pairs played at once (0: one per core).
    pub jobs: usize,
    /// A sequential test that ends the match once it decides, and what it counts.
    pub sprt: Option<(Sprt, SprtOn)>,
}

/// A match as it ended.
#[derive(Clone, Debug)]
pub struct MatchRun<G: MatchGame> {
    /// Every pair finished, in pair order.
    pub pairs: Vec<PairResult<G>>,
    /// The sequential test after the pairs it counted (in order, up to a gap left by a stop).
    pub sprt: Option<Sprt>,
    /// Why the match ended early: a contestant that could not be started, a report that
    /// failed.
    pub failure: Option<String>,
    /// The time the match took.
    pub elapsed: Duration,
}

/// The SPRT fed with the pairs in their order, whatever order they finish in.
struct SequentialTest {
    sprt: Sprt,
    on: SprtOn,
    next: usize,
    waiting: BTreeMap<usize, usize>,
}

impl SequentialTest {
    /// Counts `pair`'s half-points once every pair before it is counted; whether the test has
    /// decided.
    fn add<G: MatchGame>(&mut self, pair: &PairResult<G>) -> bool {
        let points = match self.on {
            SprtOn::Games => pair.a_half_points(),
            SprtOn::Pairs => (pair.a_score() * 4.0).round() as usize,
        };
        self.waiting.insert(pair.pair, points);
        while self.sprt.verdict() == SprtVerdict::Continue
            && let Some(points) = self.waiting.remove(&self.next)
        {
            self.sprt.add_pair(points);
            self.next += 1;
        }
        self.sprt.verdict() != SprtVerdict::Continue
    }
}

/// Makes a match's two contestants, A then B, for one pair.
pub type MakeContestants<'a, G> =
    dyn Fn() -> Result<[Box<dyn Contestant<G>>; 2], String> + Sync + 'a;

/// Hears a finished pair, with every pair finished so far and the sequential test as it stands.
pub type OnPair<'a, G> =
    dyn Fn(&PairResult<G>, &[PairResult<G>], Option<&Sprt>) -> Result<(), String> + Sync + 'a;

/// The pairs of a match under way, and what ended it.
struct Shared<G: MatchGame> {
    pairs: Vec<PairResult<G>>,
    test: Option<SequentialTest>,
    failure: Option<String>,
}

/// Plays `schedule.pairs` pairs of the contestants `contestants` makes (A, then B; asked again
/// for every pair, so that each pair starts them afresh), `schedule.jobs` pairs at once. Each
/// job takes the next pair in order, so a sequential test decides on the first pairs and no
/// pair is started after it has. `on_pair` hears each finished pair as it comes in (one at a
/// time), with every pair finished so far and the sequential test as it stands; an error from
/// it ends the match. `stop` ends it too: a pair still being played then is dropped.
pub fn run_match<G: MatchGame>(
    contestants: &MakeContestants<'_, G>,
    options: &MatchOptions<G::Rules>,
    schedule: Schedule,
    stop: &AtomicBool,
    on_pair: &OnPair<'_, G>,
) -> Result<MatchRun<G>, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(schedule.jobs)
        .build()
        .map_err(|e| format!("cannot start {} jobs: {e}", schedule.jobs))?;
    let start = Instant::now();
    let shared = Mutex::new(Shared {
        pairs: Vec::new(),
        test: schedule.sprt.map(|(sprt, on)| SequentialTest {
            sprt,
            on,
            next: 1,
            waiting: BTreeMap::new(),
        }),
        failure: None,
    });
    let lock = || shared.lock().unwrap_or_else(|e| e.into_inner());
    let ended = AtomicBool::new(false);
    let next_pair = AtomicUsize::new(1);
    let jobs = pool.current_num_threads().min(schedule.pairs.max(1));
    pool.install(|| {
        (0..jobs).into_par_iter().for_each(|_| {
            loop {
                let pair = next_pair.fetch_add(1, Ordering::Relaxed);
                if pair > schedule.pairs
                    || stop.load(Ordering::Relaxed)
                    || ended.load(Ordering::Relaxed)
                {
                    return;
                }
                let played = contestants()
                    .map(|[mut a, mut b]| play_pair(a.as_mut(), b.as_mut(), options, pair));
                if stop.load(Ordering::Relaxed) {
                    return;
                }
                let mut shared = lock();
                let result = match played {
                    Ok(result) => result,
                    Err(e) => {
                        shared.failure = Some(format!("pair {pair}: {e}"));
                        ended.store(true, Ordering::Relaxed);
                        return;
                    }
                };
                if let Some(test) = &mut shared.test
                    && test.add(&result)
                {
                    ended.store(true, Ordering::Relaxed);
                }
                shared.pairs.push(result);
                let Shared { pairs, test, .. } = &*shared;
                let reported = on_pair(
                    &pairs[pairs.len() - 1],
                    pairs,
                    test.as_ref().map(|t| &t.sprt),
                );
                if let Err(e) = reported {
                    shared.pairs.pop();
                    shared.failure = Some(e);
                    ended.store(true, Ordering::Relaxed);
                    return;
                }
            }
        });
    });
    let shared = shared.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut pairs = shared.pairs;
    pairs.sort_by_key(|r| r.pair);
    Ok(MatchRun {
        pairs,
        sprt: shared.test.map(|t| t.sprt),
        failure: shared.failure,
        elapsed: start.elapsed(),
    })
}
