//! The exact solve driver, generic over [`Game`]: the value of a position under perfect play, the
//! value of every root move and a line that reaches it. See `docs/solver.md`.
//!
//! Values are from the side to move's view, in the game's final score (for Cathedral: the
//! opponent's final unplaced squares minus the mover's own, so +3 means the side to move wins
//! by 3). With [`SolveOptions::wdl`], values are -1 (loss), 0 (draw) and +1 (win).

use super::game::{Game, child_window, from_child};
use super::search::negamax::{Control, Searcher};
use super::search::parallel;
use super::search::tt::Table;
use crate::boardgame::instant::Instant;
use crate::boardgame::progress::Tracker;
pub use crate::boardgame::progress::{Phase, Progress};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

/// How to solve.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Threads; 0 = all cores.
    pub threads: usize,
    /// Transposition table memory in MiB.
    pub tt_mb: usize,
    /// Start with a table of this many MiB and grow it 8-fold at a time towards `tt_mb` once the
    /// solve has searched [`GROW_AFTER_NODES`] nodes, then 8 times as many for each next step:
    /// small and middle solves stay fast and light (a large table costs time and memory as its
    /// pages are first touched). `None`: the whole table from the start. The value is the same
    /// either way; the node count of a solve that grows differs slightly (the probe under way is
    /// restarted on the larger table, which keeps every entry).
    pub initial_tt_mb: Option<usize>,
    /// Only win/draw/loss: values -1/0/+1.
    pub wdl: bool,
    /// Stop after this long and return what is proven so far; `None` for no limit.
    pub time_limit: Option<Duration>,
    /// Set (by Ctrl-C, say) to stop soon and return what is proven.
    pub stop: Arc<AtomicBool>,
    /// Also compute the exact value of every root move.
    pub root_values: bool,
    /// Stop once more than this many nodes are searched and return what is proven; `None` for
    /// no limit.
    /// With one thread the stopping point, and so the result, is the same on every run.
    pub max_nodes: Option<u64>,
    /// Estimates the value (the playing engine does, [`crate::boardgame::engine::estimator`]):
    /// asked at most once, when the sign is proven after at least [`ESTIMATE_AFTER_NODES`] nodes
    /// and many values are still possible; the next probe then asks whether the value reaches
    /// the estimate instead of stepping one square at a time away from 0. It changes only the
    /// order of the probes, never the value.
    pub estimate: Option<Estimator>,
    /// Decide the value only against this window `(alpha, beta)`, `alpha < beta`: prove it at
    /// most `alpha`, at least `beta`, or exactly what it is between them (a subproblem of a
    /// split solve needs no more). `None`: the exact value. With a window no root move is
    /// valued, and the best line is written only when the value comes out exact.
    pub window: Option<(i32, i32)>,
    /// How to search: null-window alpha-beta or proof-number search.
    pub method: Method,
}

/// The solver's search method (`docs/solver.md` says when each wins).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Method {
    /// Whichever the game's front end chooses for the question
    /// ([`crate::frontend::Playable::solve_options`]); alpha-beta where none does.
    #[default]
    Auto,
    /// Null-window alpha-beta probes on a table of value bounds: the exact value, margins
    /// included, with the fewest nodes where the game tree is bushy and shallow.
    AlphaBeta,
    /// Depth-first proof-number search ([`crate::boardgame::ProofSearch`]): binary questions
    /// ("at least v?"), deep along forcing lines; the value bracketed by them.
    ProofNumbers,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            threads: 0,
            tt_mb: 256,
            initial_tt_mb: None,
            wdl: false,
            time_limit: None,
            stop: Arc::new(AtomicBool::new(false)),
            root_values: true,
            max_nodes: None,
            estimate: None,
            window: None,
            method: Method::Auto,
        }
    }
}

/// Estimates a position's value in score units, given a budget in nodes; called by a solve at
/// most once (see [`SolveOptions::estimate`]).
#[derive(Clone)]
pub struct Estimator(Arc<dyn Fn(u64) -> i32 + Send + Sync>);

impl Estimator {
    /// An estimator from a function of the node budget.
    pub fn new(estimate: impl Fn(u64) -> i32 + Send + Sync + 'static) -> Estimator {
        Estimator(Arc::new(estimate))
    }

    /// The estimate within `nodes` nodes.
    pub fn estimate(&self, nodes: u64) -> i32 {
        (self.0)(nodes)
    }
}

impl std::fmt::Debug for Estimator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Estimator")
    }
}

/// A solve asks for the estimate only after this many nodes: a shorter solve would spend a
/// noticeable part of its time on it.
pub const ESTIMATE_AFTER_NODES: u64 = 1 << 16;

/// The estimate's node budget: an eighth of the nodes solved so far, at most this.
const ESTIMATE_MAX_NODES: u64 = 1 << 20;

/// A root move with its proven bounds (exact when equal).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootMove<M> {
    /// The move.
    pub mv: M,
    /// Proven lower bound of the move's value, from the root mover's view.
    pub lower: i32,
    /// Proven upper bound of the move's value.
    pub upper: i32,
}

impl<M> RootMove<M> {
    /// Whether the move's value is proven exactly.
    pub fn is_exact(&self) -> bool {
        self.lower == self.upper
    }
}

/// What a solve cost.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    /// Nodes searched, by every thread.
    pub nodes: u64,
    /// Transposition table look-ups.
    pub tt_probes: u64,
    /// Look-ups that found the position.
    pub tt_hits: u64,
    /// Wall-clock time of the whole solve.
    pub elapsed: Duration,
    /// Threads used.
    pub threads: usize,
    /// Size of the transposition table.
    pub tt_bytes: usize,
    /// Times a thread left a subtree because another thread had meanwhile decided one of its
    /// ancestors (`docs/solver.md`, "Parallelism"); 0 with one thread.
    pub unwinds: u64,
    /// Questions ("at least v?") a proof-number solve asked; 0 for alpha-beta.
    pub questions: u32,
}

impl Stats {
    /// Nodes per second of wall-clock time.
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// The share of table look-ups that hit, in percent; `None` without look-ups.
    pub fn hit_rate(&self) -> Option<f64> {
        (self.tt_probes > 0).then(|| 100.0 * self.tt_hits as f64 / self.tt_probes as f64)
    }
}

/// The result of [`solve`].
#[derive(Clone, Debug)]
pub struct Solution<M> {
    /// Proven lower bound of the value; exact when equal to `upper`.
    pub lower: i32,
    /// Proven upper bound of the value.
    pub upper: i32,
    /// False when stopped by the time limit or the stop flag.
    pub complete: bool,
    /// A legal line from the root to the end of the game reaching the value (empty if unknown).
    pub best_line: Vec<M>,
    /// The first move of the best line; without one (a stopped solve), the move the search
    /// found best so far, unproven; `None` if it found none.
    pub best_so_far: Option<M>,
    /// Sorted best first: by upper bound, then lower bound; among equals the best line's move.
    pub root_moves: Vec<RootMove<M>>,
    /// What the solve cost.
    pub stats: Stats,
}

impl<M> Solution<M> {
    /// Whether the value is proven exactly.
    pub fn is_exact(&self) -> bool {
        self.lower == self.upper
    }

    /// The exact value, `None` when only bounds are proven.
    pub fn value(&self) -> Option<i32> {
        self.is_exact().then_some(self.lower)
    }
}

/// The sign of a score: the win/draw/loss value.
fn sign(value: i32) -> i32 {
    value.signum()
}

/// With [`SolveOptions::initial_tt_mb`], the nodes after which the solve moves to a larger table
/// for the first time; each later growth waits `GROW_FACTOR` (8) times as many.
pub const GROW_AFTER_NODES: u64 = 1 << 18;

/// How much larger each table is than the one before.
const GROW_FACTOR: usize = 8;

/// The node count at which the solve leaves stage `stage` (0: the initial table).
fn grow_point(stage: usize) -> u64 {
    GROW_AFTER_NODES.saturating_mul((GROW_FACTOR as u64).saturating_pow(stage as u32))
}

struct Driver<'a, G: Game> {
    /// The larger tables the solve moves to as it proves large, smallest first, each made when
    /// the solve first needs it; the last is the full size.
    stages: &'a [OnceLock<Table>],
    /// Their sizes in MiB.
    stage_mb: &'a [usize],
    /// The stage the solve moves to next.
    next_stage: usize,
    pool: Option<rayon::ThreadPool>,
    searchers: Vec<Searcher<'a, G>>,
    control: &'a Control<'a>,
    wdl: bool,
    /// Asked for the root value's estimate ([`SolveOptions::estimate`]).
    estimate: Option<&'a Estimator>,
    /// The root value's window ([`SolveOptions::window`]).
    window: Option<(i32, i32)>,
    /// What the solve has done, for progress reports.
    tracker: &'a Tracker<'a>,
}

impl<G: Game> Driver<'_, G> {
    fn probe(&mut self, position: &G, alpha: i32, beta: i32) -> Option<i32> {
        loop {
            let result = parallel::probe(
                self.pool.as_ref(),
                &mut self.searchers,
                self.control,
                position,
                alpha,
                beta,
            );
            if result.is_none()
                && self.control.grow_wanted.load(Ordering::Relaxed)
                && !self.control.check_stop()
            {
                self.grow();
                continue;
            }
            return result;
        }
    }

    /// Moves every searcher to the next larger table, filled with the entries of the current
    /// one, and sets the node count at which the solve grows again.
    fn grow(&mut self) {
        self.control.grow_wanted.store(false, Ordering::Relaxed);
        let stage = self.next_stage;
        let Some(cell) = self.stages.get(stage) else {
            self.control.grow_at.store(u64::MAX, Ordering::Relaxed);
            return;
        };
        self.next_stage += 1;
        let next_at = if self.next_stage < self.stages.len() {
            grow_point(self.next_stage)
        } else {
            u64::MAX
        };
        self.control.grow_at.store(next_at, Ordering::Relaxed);
        let small = self.table();
        let large = cell.get_or_init(|| Table::new(self.stage_mb[stage]));
        if !std::ptr::eq(small, large) {
            small.copy_into(large);
            for searcher in &mut self.searchers {
                searcher.set_table(large);
            }
        }
    }

    /// Proven score bounds of `position`, starting from `(lower, upper)`: exact, or (with `wdl`)
    /// enough to know the sign. Stops early (with weaker bounds) when the solve is stopped.
    fn value(&mut self, position: &G, lower: i32, upper: i32, root: bool) -> (i32, i32) {
        let tracker = self.tracker;
        let control = self.control;
        // Only the root's value is worth an estimate.
        let estimator = self.estimate.filter(|_| root);
        let mut estimate = || {
            let spent = control.nodes.load(Ordering::Relaxed);
            let estimator = estimator.filter(|_| spent >= ESTIMATE_AFTER_NODES)?;
            Some(estimator.estimate((spent / 8).min(ESTIMATE_MAX_NODES)))
        };
        let wdl = self.wdl;
        let report = |lower: i32, upper: i32| {
            if root {
                tracker.root_bounds(lower, upper);
            }
        };
        bisect(
            position,
            lower,
            upper,
            wdl,
            self.window.filter(|_| root),
            &mut estimate,
            &report,
            &mut |p, a, b| self.probe(p, a, b),
        )
    }

    /// The proven bounds of every position in `children` (each starting from `lower`), solved
    /// in parallel: each thread takes the next unsolved child and bisects it alone with its own
    /// searcher, all sharing the table (root splitting). Each child's bounds are proven by
    /// completed probes whichever thread ran them, so they never depend on the thread count.
    fn values_split(&mut self, children: &[G], lower: i32) -> Vec<(i32, i32)> {
        // Threads search children on their own here: none may be sent back for a larger table.
        loop {
            let grow_at = self.control.grow_at.load(Ordering::Relaxed);
            if grow_at == u64::MAX {
                break;
            }
            let searched = self.control.nodes.load(Ordering::Relaxed);
            // The root moves usually cost many times the value: a value that took a sixteenth
            // of the growing point predicts a root-move phase past it.
            if searched.saturating_mul(16) >= grow_at {
                self.grow();
            } else {
                self.control.grow_at.store(u64::MAX, Ordering::Relaxed);
            }
        }
        let results: Vec<std::sync::Mutex<(i32, i32)>> = children
            .iter()
            .map(|child| std::sync::Mutex::new(child.bounds()))
            .collect();
        let next = std::sync::atomic::AtomicUsize::new(0);
        let (control, wdl, tracker) = (self.control, self.wdl, self.tracker);
        let Some(pool) = self.pool.as_ref() else {
            return children
                .iter()
                .map(|child| {
                    let bounds = self.value(child, lower, G::MAX_VALUE, false);
                    tracker.root_move_done();
                    bounds
                })
                .collect();
        };
        control.probe_done.store(false, Ordering::Relaxed);
        pool.scope(|scope| {
            for searcher in self.searchers.iter_mut() {
                let (results, next) = (&results, &next);
                scope.spawn(move |_| {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= children.len() || control.check_stop() {
                            break;
                        }
                        let bounds = bisect(
                            &children[i],
                            lower,
                            G::MAX_VALUE,
                            wdl,
                            None,
                            &mut || None,
                            &|_, _| {},
                            &mut |p, a, b| searcher.probe(p, a, b),
                        );
                        *results[i].lock().unwrap_or_else(|e| e.into_inner()) = bounds;
                        tracker.root_move_done();
                    }
                });
            }
        });
        results
            .into_iter()
            .map(|r| {
                let (lo, hi) = r.into_inner().unwrap_or_else(|e| e.into_inner());
                (lo.max(lower), hi)
            })
            .collect()
    }

    /// A line from `position` whose final score is `value` (exact), or has the sign `value` (wdl).
    fn line(&mut self, position: &G, value: i32) -> Option<Vec<G::Move>> {
        let mut line = Vec::new();
        let mut position = *position;
        let mut target = value;
        let mut buffer = G::Buffer::default();
        loop {
            position.generate(&mut buffer);
            let moves = G::moves(&mut buffer);
            if moves.is_empty() {
                return Some(line);
            }
            // Table move first.
            let tt_move = Table::probe(self.table(), position.key())
                .and_then(|hit| hit.mv)
                .map(G::decode);
            let mut candidates: Vec<G::Move> = moves.to_vec();
            if let Some(first) = tt_move.and_then(|m| candidates.iter().position(|&c| c == m)) {
                candidates.swap(0, first);
            }
            let mut chosen = None;
            for &mv in &candidates {
                let mut child = position;
                child.play(mv);
                // The move must be worth at least `target` to the mover (exact), or have its
                // sign (wdl; when losing, any move does).
                if (self.wdl && target < 0) || candidates.len() == 1 {
                    chosen = Some(mv);
                    break;
                }
                let keeps = position.keeps_turn(mv);
                let worth = |child_value: i32| from_child(keeps, child_value) >= target;
                if child.is_over() {
                    if worth(child.terminal_value()) {
                        chosen = Some(mv);
                        break;
                    }
                    continue;
                }
                // The child's window around the move's threshold: (target - 1, target) for the
                // mover.
                let (alpha, beta) = child_window(keeps, target - 1, target);
                let v = self.probe(&child, alpha, beta)?;
                if worth(v) {
                    chosen = Some(mv);
                    break;
                }
            }
            let mv = chosen?;
            line.push(mv);
            target = from_child(position.keeps_turn(mv), target);
            position.play(mv);
        }
    }

    fn table(&self) -> &Table {
        self.searchers[0].table()
    }
}

/// Once the proven interval holds at most this many values plus one, the driver searches the
/// window around it at once (an exact result) instead of bisecting further.
const FULL_WINDOW_WIDTH: i32 = 2;

/// Proven score bounds of `position` by null-window probes (the sign first, then stepping away
/// from 0, or straight to the value `estimate` gives, asked once the sign is known) and a final
/// full-window search, starting from `(lower, upper)`: exact, or (with `wdl`) enough to know the
/// sign. `report` sees every new pair of bounds; a probe returning `None` (stopped) ends the
/// search with what is proven.
#[allow(clippy::too_many_arguments)]
fn bisect<G: Game>(
    position: &G,
    lower: i32,
    upper: i32,
    wdl: bool,
    window: Option<(i32, i32)>,
    estimate: &mut dyn FnMut() -> Option<i32>,
    report: &dyn Fn(i32, i32),
    probe: &mut dyn FnMut(&G, i32, i32) -> Option<i32>,
) -> (i32, i32) {
    let (game_lower, game_upper) = position.bounds();
    let (mut lower, mut upper) = (lower.max(game_lower), upper.min(game_upper));
    if position.is_over() {
        let v = position.terminal_value();
        return (v, v);
    }
    // Whether to step up from the lower bound (or down from the upper one); `None`: away from 0.
    let mut step_up: Option<bool> = None;
    // Taken when the estimate is asked for, so that it is asked at most once.
    let mut estimate = Some(estimate);
    loop {
        report(lower, upper);
        if lower >= upper {
            break;
        }
        // With a window, its edges are asked first, and the search ends once the value is
        // known to lie beyond one of them.
        let window_guess = match window {
            Some((alpha, beta)) if !wdl => {
                if upper <= alpha || lower >= beta {
                    break;
                }
                if lower <= alpha && alpha < upper {
                    Some(alpha)
                } else if lower < beta && beta <= upper {
                    Some(beta - 1)
                } else {
                    None
                }
            }
            _ => None,
        };
        let mut from_estimate = false;
        let guess = if wdl {
            if lower > 0 || upper < 0 || (lower == 0 && upper == 0) {
                break;
            }
            // Is it a win? Then, if not, is it a loss?
            if lower < 0 && upper <= 0 { -1 } else { 0 }
        } else {
            // Most endgame values are small: first the sign (is it above 0?), then one step at a
            // time away from 0 (MTD(f)-like: the next guess is next to the proven bound, and a
            // fail-soft result often jumps further), never beyond the middle of the interval.
            // An estimate, once the sign is known, replaces the steps up to it: the probes far
            // from the value are the cheap ones, and the next steps go from whichever bound it
            // moved.
            let mid = lower + (upper - lower) / 2;
            let sign_known = lower > 0 || upper <= 0;
            let estimated =
                if window_guess.is_none() && sign_known && upper - lower > FULL_WINDOW_WIDTH {
                    estimate.take().and_then(|ask| ask())
                } else {
                    None
                };
            let guess = if let Some(edge) = window_guess {
                edge
            } else if !sign_known {
                0
            } else if let Some(e) = estimated.filter(|&e| e > lower && e <= upper) {
                from_estimate = true;
                // Does the value reach the estimate?
                e - 1
            } else if step_up.unwrap_or(lower > 0) {
                mid.min(lower + 1)
            } else {
                mid.max(upper - 2)
            };
            guess.clamp(lower, upper - 1)
        };
        if !wdl && upper - lower <= FULL_WINDOW_WIDTH {
            // Few values left: one search with the window just around them is exact, where
            // bisection would need two null-window probes.
            let Some(v) = probe(position, lower - 1, upper + 1) else {
                break;
            };
            // Fail-soft: a result outside the window is a bound, inside it the exact value (the
            // value is known to lie inside, so only the last case happens).
            if v < lower {
                upper = upper.min(v);
            } else if v > upper {
                lower = lower.max(v);
            } else {
                (lower, upper) = (v, v);
            }
            continue;
        }
        let Some(v) = probe(position, guess, guess + 1) else {
            break;
        };
        if v <= guess {
            upper = upper.min(v);
        } else {
            lower = lower.max(v);
        }
        if from_estimate {
            step_up = Some(v > guess);
        }
    }
    (lower, upper)
}

/// Solves `position` exactly (or, with `options.wdl`, to win/draw/loss).
///
/// `progress` is called about every 150 ms from the searching thread. Stopping (the time limit or
/// the stop flag) returns what is proven by then, with `complete` false.
///
/// ```
/// use cathedral::boardgame::{SolveOptions, solve};
///
/// let file = cathedral::file::load(std::path::Path::new("puzzles/bench/t3-01.yaml"))?;
/// let options = SolveOptions { threads: 1, tt_mb: 16, ..SolveOptions::default() };
/// let solution = solve(&file.position, &options, &|_progress| {});
/// assert_eq!(solution.value(), Some(5)); // the side to move wins by 5 squares
/// assert!(!solution.best_line.is_empty());
/// # Ok::<(), cathedral::file::FileError>(())
/// ```
pub fn solve<G: Game>(
    position: &G,
    options: &SolveOptions,
    progress: &(dyn Fn(&Progress) + Sync),
) -> Solution<G::Move> {
    if options.method == Method::ProofNumbers {
        return super::proof::solve_by_proofs(position, options, progress);
    }
    let start = Instant::now();
    let threads = super::thread_count(options.threads);
    let initial_mb = options
        .initial_tt_mb
        .map_or(options.tt_mb, |mb| mb.min(options.tt_mb));
    let table = Table::new(initial_mb);
    // The table grows 8-fold at a time: a solve of a few million nodes stops at a middle size
    // instead of touching (and the kernel zeroing) every page of the full one.
    let mut stage_mb = Vec::new();
    while stage_mb.last().copied().unwrap_or(initial_mb) < options.tt_mb {
        let mb = stage_mb.last().copied().unwrap_or(initial_mb);
        stage_mb.push(mb.saturating_mul(GROW_FACTOR).min(options.tt_mb));
    }
    let stages: Vec<OnceLock<Table>> = stage_mb.iter().map(|_| OnceLock::new()).collect();
    let mut control = Control::new(
        &options.stop,
        options.time_limit.map(|d| start + d),
        threads,
    );
    control.node_limit = options.max_nodes.unwrap_or(u64::MAX);
    if initial_mb < options.tt_mb {
        control.grow_at.store(GROW_AFTER_NODES, Ordering::Relaxed);
    }
    let wdl = options.wdl;
    let tracker = Tracker::new(start, wdl, (G::MIN_VALUE, G::MAX_VALUE), progress);
    let shown = |v: i32| tracker.shown(v);
    let report = || tracker.report(control.nodes.load(Ordering::Relaxed));
    let pool = (threads > 1)
        .then(|| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .ok()
        })
        .flatten();
    let searchers = (0..threads)
        .map(|t| Searcher::new(&table, &control, (t == 0).then_some(&report as _)))
        .collect();
    let mut driver = Driver {
        stages: &stages,
        stage_mb: &stage_mb,
        next_stage: 0,
        pool,
        searchers,
        control: &control,
        wdl,
        estimate: options.estimate.as_ref(),
        window: options.window,
        tracker: &tracker,
    };

    let (lower, upper) = driver.value(position, G::MIN_VALUE, G::MAX_VALUE, true);
    let known = if wdl {
        (sign(lower) == sign(upper)).then_some(sign(lower))
    } else {
        (lower == upper).then_some(lower)
    };

    let mut root_moves = Vec::new();
    let mut buffer = G::Buffer::default();
    position.generate(&mut buffer);
    let list = G::moves(&mut buffer);
    let children: Vec<G> = list
        .iter()
        .map(|&mv| {
            let mut child = *position;
            child.play(mv);
            child
        })
        .collect();
    let keeps: Vec<bool> = list.iter().map(|&mv| position.keeps_turn(mv)).collect();
    // Every move is worth at most the root's value: its child is worth at least -value (where
    // the turn passes; a move that keeps it gives no such floor).
    let child_lower = if known.is_some() && !keeps.contains(&true) {
        -upper
    } else {
        G::MIN_VALUE
    };
    // The best line before the root moves' values: once the value is proven, a solve stopped
    // during the (often long) root moves still gives its best move and line.
    tracker.line();
    let best_line = match known {
        Some(value) if !control.check_stop() => driver.line(position, value).unwrap_or_default(),
        _ => Vec::new(),
    };
    tracker.root_moves(children.len());
    let root_values = options.root_values && options.window.is_none();
    let values: Vec<(i32, i32)> = if root_values && !control.check_stop() {
        if threads > 1 && children.len() > 1 {
            driver.values_split(&children, child_lower)
        } else {
            children
                .iter()
                .map(|child| {
                    let bounds = driver.value(child, child_lower, G::MAX_VALUE, false);
                    tracker.root_move_done();
                    bounds
                })
                .collect()
        }
    } else {
        children
            .iter()
            .zip(&keeps)
            .map(|(child, &keeps)| {
                let (lo, hi) = child.bounds();
                if keeps {
                    (lo, hi.min(upper))
                } else {
                    (lo.max(-upper), hi)
                }
            })
            .collect()
    };
    for ((&mv, &(lo, hi)), &keeps) in list.iter().zip(&values).zip(&keeps) {
        let (mut lower, mut upper) = if keeps { (lo, hi) } else { (-hi, -lo) };
        // The best line's first move is proven to reach the root's value, even where the root
        // moves' values were cut short.
        if let (Some(value), false, Some(&best)) = (known, wdl, best_line.first())
            && best == mv
        {
            (lower, upper) = (value, value);
        }
        root_moves.push(RootMove {
            mv,
            lower: shown(lower),
            upper: shown(upper),
        });
    }
    // Best first: the highest upper bound, then the highest lower bound, so that proven best
    // moves come before unproven ones that might still be as good and proven worse ones come
    // last; among equals the best line's move first.
    let first = best_line.first().copied();
    root_moves.sort_by_key(|m| std::cmp::Reverse((m.upper, m.lower, Some(m.mv) == first)));
    // Without a proven line, the table's move at the root is the best the search has seen.
    let best_so_far = first.or_else(|| {
        driver
            .table()
            .probe(position.key())
            .and_then(|hit| hit.mv)
            .map(G::decode)
            .filter(|mv| list.contains(mv))
    });
    for searcher in &mut driver.searchers {
        searcher.flush();
    }
    // With a window, deciding the value against it is the whole task.
    let decided = known.is_some()
        || options
            .window
            .is_some_and(|(alpha, beta)| upper <= alpha || lower >= beta);
    let complete = !control.stopped.load(Ordering::Relaxed)
        && decided
        && root_moves
            .iter()
            .all(|m| m.lower == m.upper || !root_values);
    let tt_bytes = driver.table().bytes();
    drop(driver);
    Solution {
        lower: shown(lower),
        upper: shown(upper),
        complete,
        best_line,
        best_so_far,
        root_moves,
        stats: Stats {
            nodes: control.nodes.load(Ordering::Relaxed),
            tt_probes: control.tt_probes.load(Ordering::Relaxed),
            tt_hits: control.tt_hits.load(Ordering::Relaxed),
            elapsed: start.elapsed(),
            threads,
            tt_bytes,
            unwinds: control.unwinds.load(Ordering::Relaxed),
            questions: 0,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A position known only through probes: `bisect` sees its bounds `(-20, 20)`, never its
    /// value.
    #[derive(Clone, Copy)]
    struct Hidden;

    impl Game for Hidden {
        type Move = u8;
        type Buffer = Vec<u8>;
        const MIN_VALUE: i32 = -20;
        const MAX_VALUE: i32 = 20;
        fn key(&self) -> (u64, u64) {
            (1, 1)
        }
        fn generate(&self, buffer: &mut Vec<u8>) {
            *buffer = vec![0];
        }
        fn moves(buffer: &mut Vec<u8>) -> &mut [u8] {
            buffer
        }
        fn play(&mut self, _mv: u8) {}
        fn terminal_value(&self) -> i32 {
            0
        }
        fn encode(mv: u8) -> u32 {
            u32::from(mv)
        }
        fn decode(code: u32) -> u8 {
            code as u8
        }
    }

    /// `bisect` on a position worth `value`, whose probes prove no more than asked (a fail-soft
    /// result at the window's edge); the windows it probed, in order.
    fn probes(value: i32, wdl: bool, estimate: Option<i32>) -> ((i32, i32), Vec<(i32, i32)>) {
        let mut asked = Vec::new();
        let mut estimates = 0;
        let bounds = bisect(
            &Hidden,
            -20,
            20,
            wdl,
            None,
            &mut || {
                estimates += 1;
                estimate
            },
            &|lower, upper| assert!(lower <= value && value <= upper),
            &mut |_, alpha, beta| {
                asked.push((alpha, beta));
                Some(value.clamp(alpha, beta))
            },
        );
        assert!(estimates <= 1, "the estimate is asked at most once");
        (bounds, asked)
    }

    #[test]
    fn any_estimate_gives_the_exact_value_and_goes_straight_to_it() {
        for value in -20..=20 {
            for estimate in std::iter::once(None).chain((-25..=25).map(Some)) {
                let (bounds, _) = probes(value, false, estimate);
                assert_eq!(
                    bounds,
                    (value, value),
                    "value {value}, estimate {estimate:?}"
                );
                let (bounds, _) = probes(value, true, estimate);
                assert!(
                    bounds.0.signum() == value.signum() && bounds.1.signum() == value.signum(),
                    "wdl: value {value}, estimate {estimate:?}: {bounds:?}"
                );
            }
        }
        // The sign first, then "does it reach the estimate?".
        let (_, asked) = probes(9, false, Some(9));
        assert_eq!(&asked[..2], &[(0, 1), (8, 9)]);
        let (_, asked) = probes(-6, false, Some(-6));
        assert_eq!(&asked[..2], &[(0, 1), (-7, -6)]);
        // Far fewer probes than stepping from 0.
        assert!(probes(15, false, Some(15)).1.len() < probes(15, false, None).1.len());
        // After a failed "does it reach 12?", down from there.
        let (_, asked) = probes(10, false, Some(12));
        assert_eq!(&asked[..3], &[(0, 1), (11, 12), (9, 10)]);
    }
}
