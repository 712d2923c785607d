//! Iterative deepening principal variation search with an evaluation at the horizon.

use super::history::{History, Killers};
use super::table::{Bound, EngineTable};
use super::tunables::Tunables;
use super::{Evaluate, SCALE};
use crate::boardgame::Rng;
use crate::boardgame::instant::Instant;
use crate::boardgame::search::negamax::{self, Control};
use crate::boardgame::search::tt::Table;
use crate::boardgame::{child_window, from_child};
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

/// Larger than any estimate.
const INFINITE: i32 = 1_000_000;
/// Nodes between two looks at the clock and the stop flag.
const CHECK_EVERY: u64 = 1024;

/// The budget and the knobs of one search.
#[derive(Clone, Debug)]
pub struct EngineOptions {
    /// Stop after this many nodes (deterministic). `None`: no node limit.
    pub nodes: Option<u64>,
    /// Stop after this long. Without a `target` (a time per move) the search spends all of
    /// it: an iteration cut short still counts for a better move it found, and time left over
    /// would be lost. `None`: no time limit. Without either limit the search runs to
    /// `max_depth` or until `stop` is set.
    pub time: Option<Duration>,
    /// With a game clock: the time to aim at ([`crate::boardgame::Allotment::target`]), `time`
    /// being the most the move may take. After each iteration the target is scaled by how
    /// settled the search is (twice when the best move changed in that iteration, one and a
    /// half times when its estimate fell by half a square or more, seven tenths when the best
    /// move has stood for four iterations; never beyond `time`): the search stops there, and
    /// starts another iteration only before half of it. `None`: `time` alone decides.
    pub target: Option<Duration>,
    /// The deepest iteration.
    pub max_depth: u32,
    /// Table memory in MiB: the most the table takes; with a node budget it takes only what the
    /// budget can fill (`EngineTable::buckets_for`).
    pub tt_mb: usize,
    /// Seeds the noise.
    pub seed: u64,
    /// Weakening: each root move's estimate gets a seeded bonus in `0..noise` ([`SCALE`] units)
    /// before the best is chosen; 0 plays the best estimate.
    pub noise: i32,
    /// Set to stop soon; the best move of the deepest finished work is returned.
    pub stop: Arc<AtomicBool>,
    /// Root moves, by their [`crate::boardgame::Game::encode`] codes, whose own estimates are
    /// wanted as well ([`Thought::also`]): each is searched with a full window at every depth,
    /// so that its estimate and the best move's come from the same search (what whole-game
    /// analysis needs to measure a played move against the best).
    pub also_rank: Vec<u32>,
    /// Late-move reductions (on for play; off with [`EngineOptions::pruning`], the search's
    /// value at a depth is plain minimax's to that depth, which the tests check).
    pub reductions: bool,
    /// Reverse futility pruning and late-move pruning near the horizon, the game's proven
    /// bounds ([`crate::boardgame::Game::window_bounds`]: a node whose bounds decide its
    /// window is not searched, and a horizon estimate outside them is moved to the nearer
    /// one), the small positions at the horizon solved exactly
    /// ([`Evaluate::horizon_solve_budget`]), and the table's move searched before the other
    /// moves are made (on for play; off for the puzzle ratings' solvers, which were calibrated
    /// without them, and for the tests that compare the search with plain minimax).
    pub pruning: bool,
    /// How many best root moves to rank exactly (with their estimates); 1 for play. More costs
    /// time: every one of them is searched with a full window.
    pub multi_pv: usize,
    /// The search's tunable constants ([`Tunables`]): the declared ones unless the build has the
    /// `tune` feature and a tuner changed them.
    pub tunables: Tunables,
    /// Search threads. More than one share the root moves of each iteration (after the first
    /// thread has searched the best so far, each takes the next untried move and tests it
    /// against the best total found by any) and the table. One thread is deterministic; with a
    /// node budget the search always uses one.
    pub threads: usize,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            nodes: None,
            time: Some(Duration::from_secs(1)),
            target: None,
            max_depth: 64,
            tt_mb: 64,
            seed: 0,
            noise: 0,
            stop: Arc::default(),
            multi_pv: 1,
            reductions: true,
            pruning: true,
            also_rank: Vec::new(),
            threads: 1,
            tunables: Tunables::default(),
        }
    }
}

/// A progress report, after each finished iteration.
#[derive(Clone, Debug)]
pub struct EngineInfo<M> {
    /// The iteration's depth in plies.
    pub depth: u32,
    /// Nodes so far.
    pub nodes: u64,
    /// Time so far.
    pub elapsed: Duration,
    /// The estimate of the position, from the side to move's view, in [`SCALE`] units.
    pub estimate: i32,
    /// The principal variation.
    pub pv: Vec<M>,
}

/// The engine's answer.
#[derive(Clone, Debug)]
pub struct Thought<M> {
    /// The move chosen; `None` only when the game is over.
    pub best: Option<M>,
    /// Its estimate from the side to move's view, in [`SCALE`] units (noise not included).
    pub estimate: i32,
    /// The principal variation, starting with `best`.
    pub pv: Vec<M>,
    /// The best [`EngineOptions::multi_pv`] moves of the deepest finished iteration, best first
    /// (their order includes the noise bonus); empty if no iteration finished.
    pub candidates: Vec<Candidate<M>>,
    /// The moves of [`EngineOptions::also_rank`] with their estimates from the deepest finished
    /// iteration.
    pub also: Vec<Candidate<M>>,
    /// The deepest finished iteration (0: none finished; the move is the first ordered one).
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time spent.
    pub elapsed: Duration,
}

/// A root move with its estimate and line.
#[derive(Clone, Debug)]
pub struct Candidate<M> {
    /// The move.
    pub mv: M,
    /// Its estimate from the side to move's view, in [`SCALE`] units (noise not included).
    pub estimate: i32,
    /// The expected line, starting with `mv`.
    pub pv: Vec<M>,
}

struct Ranked<M> {
    index: usize,
    total: i32,
    candidate: Candidate<M>,
}

/// The index of the move to search `i`-th among `order`'s `(score, index)` pairs, called for
/// `i` = 0, 1, 2, ... in turn: by score, equal scores in the generation order (determinism). The
/// first `picked` ([`Tunables::picked`]) are picked by selection, the rest sorted once when the
/// search gets that far: most nodes that cut off do so at their first moves, and sorting the
/// whole list there was wasted (measured: the sort was 8 % of the search's time). The order is
/// one stable sort's, whatever `picked` is.
fn pick(order: &mut [(i64, usize)], i: usize, picked: usize) -> usize {
    let key = |&(score, index): &(i64, usize)| (std::cmp::Reverse(score), index);
    if i < picked {
        let best = (i..order.len())
            .min_by_key(|&k| key(&order[k]))
            .unwrap_or(i);
        order.swap(i, best);
    } else if i == picked {
        order[i..].sort_by_key(key);
    }
    order[i].1
}

/// Entries of [`Searcher::evaluate`]'s memory (a power of two), at most: a search with a node
/// budget has one entry per node (a power of two, at least 1,024), so that writing out the memory
/// does not cost a small search more than its nodes.
const EVALUATION_CACHE: usize = 1 << 16;

/// The entries of the evaluation memory for a search with `nodes` nodes.
fn evaluation_entries(nodes: Option<u64>) -> usize {
    nodes.map_or(EVALUATION_CACHE, |n| {
        usize::try_from(n)
            .unwrap_or(usize::MAX)
            .clamp(1 << 10, EVALUATION_CACHE)
            .next_power_of_two()
    })
}

/// An empty entry's value: no evaluation returns it.
const EMPTY_EVALUATION: i32 = i32::MIN;

struct Searcher<'a, G: Evaluate> {
    options: &'a EngineOptions,
    params: &'a G::Params,
    table: &'a EngineTable,
    /// Set by whichever thread of a search reaches a limit first, and seen by all.
    threads_stop: &'a AtomicBool,
    killers: Killers,
    history: History,
    /// Evaluations of horizon positions by key (see [`Searcher::evaluate`]); empty where the
    /// evaluation is cheaper than a lookup ([`Evaluate::worth_remembering`]).
    evaluations: Vec<((u64, u64), i32)>,
    /// The line being searched: the position at each ply whose children are being searched
    /// (the root at ply 0), so that a position's accumulator is made from its parent's.
    line: Vec<G>,
    /// The evaluation's accumulator ([`Evaluate::Accumulator`]) of the position searched at
    /// each ply.
    accumulators: Vec<G::Accumulator>,
    buffers: Vec<G::Buffer>,
    order: Vec<Vec<(i64, usize)>>,
    pv: Vec<Vec<G::Move>>,
    nodes: u64,
    next_check: u64,
    start: Instant,
    /// When the search stops: [`EngineOptions::time`], or on a clock the target as scaled after
    /// the last iteration ([`Settled::budget`]).
    deadline: Option<Duration>,
    aborted: bool,
    /// The exact solver's table for the small solves at the horizon
    /// ([`Searcher::solve_small`]), made when first needed: what it holds is proven, so it is
    /// kept from one solve to the next.
    small_solves: Option<Table>,
    /// Never set: the small solves stop on their node budget alone.
    small_solves_stop: AtomicBool,
}

/// The small solves' table, in MiB.
const SMALL_SOLVE_TABLE_MB: usize = 1;

impl<'a, G: Evaluate> Searcher<'a, G> {
    fn new(
        options: &'a EngineOptions,
        params: &'a G::Params,
        table: &'a EngineTable,
        threads_stop: &'a AtomicBool,
        start: Instant,
    ) -> Self {
        Searcher {
            options,
            params,
            table,
            threads_stop,
            killers: Killers::new(),
            history: History::new(),
            evaluations: if G::worth_remembering(params) {
                vec![((0, 0), EMPTY_EVALUATION); evaluation_entries(options.nodes)]
            } else {
                Vec::new()
            },
            line: Vec::new(),
            accumulators: Vec::new(),
            buffers: Vec::new(),
            order: Vec::new(),
            pv: Vec::new(),
            nodes: 0,
            next_check: CHECK_EVERY,
            start,
            deadline: Settled::<G::Move>::default().budget(options),
            aborted: false,
            small_solves: None,
            small_solves_stop: AtomicBool::new(false),
        }
    }

    /// The exact value of `position` for the window `(alpha, beta)` (in [`SCALE`] units, a
    /// fail-soft bound outside it), by the exact solver within `budget` nodes; `None` when the
    /// budget runs out first. Its nodes count as the search's.
    fn solve_small(&mut self, position: &G, alpha: i32, beta: i32, budget: u64) -> Option<i32> {
        let table = self
            .small_solves
            .get_or_insert_with(|| Table::new(SMALL_SOLVE_TABLE_MB));
        let control = Control::new(&self.small_solves_stop, None, 1);
        let mut solver = negamax::Searcher::new(table, &control, None);
        solver.set_budget(budget);
        let (alpha, beta) = whole_window(alpha, beta);
        let value = solver.probe(position, alpha, beta);
        self.nodes += solver.nodes();
        value.map(|v| v * SCALE)
    }

    /// The evaluation of a horizon position, remembered by key: placements commute, so the
    /// same position is reached in many orders and again in the next iteration, and the
    /// evaluation (the learned one above all) costs more than a lookup. The value is the one
    /// `evaluate` gives, so the search is the same with or without it, only faster.
    fn evaluate(&mut self, position: &G, ply: usize) -> i32 {
        if let Some(value) = self.remembered(position) {
            return value;
        }
        self.accumulate(position, ply);
        self.evaluate_accumulated(position, ply)
    }

    /// [`Searcher::evaluate`] for a position whose accumulator at `ply` is already made.
    fn evaluate_accumulated(&mut self, position: &G, ply: usize) -> i32 {
        if let Some(value) = self.remembered(position) {
            return value;
        }
        let value = position.evaluate_accumulated(&self.accumulators[ply], self.params);
        if !self.evaluations.is_empty() && value != EMPTY_EVALUATION {
            let key = position.key();
            let at = key.0 as usize & (self.evaluations.len() - 1);
            self.evaluations[at] = (key, value);
        }
        value
    }

    /// Starts loading what the search of `child` at `depth` reads first from memory: its
    /// bucket of the table, or at the horizon its remembered evaluation's place. The loads then
    /// overlap the work before them (measured: `docs/engine.md`, "Where the time goes").
    #[inline]
    fn prefetch(&self, child: &G, depth: i16) {
        let key = child.key();
        if depth > 0 {
            self.table.prefetch(key);
        } else if !self.evaluations.is_empty() {
            super::table::prefetch(
                &self.evaluations[key.0 as usize & (self.evaluations.len() - 1)],
            );
        }
    }

    /// Makes the principal line at `ply` `mv` followed by the line found below it.
    fn set_line(&mut self, ply: usize, mv: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(mv);
        head[ply].extend_from_slice(&tail[0]);
    }

    /// The remembered evaluation of `position`, if any.
    fn remembered(&self, position: &G) -> Option<i32> {
        if self.evaluations.is_empty() {
            return None;
        }
        let key = position.key();
        let (held, value) = self.evaluations[key.0 as usize & (self.evaluations.len() - 1)];
        (held == key && value != EMPTY_EVALUATION).then_some(value)
    }

    /// Starts a search of the root's moves: the root is the line's first position.
    fn enter_root(&mut self, root: &G) {
        self.ensure_ply(0);
        self.line.clear();
        self.line.push(*root);
        root.accumulate(self.params, &mut self.accumulators[0]);
    }

    /// Makes the accumulator at `ply` the one of `position`, from its parent's on the line (from
    /// scratch where the line has no parent for it).
    fn accumulate(&mut self, position: &G, ply: usize) {
        self.ensure_ply(ply);
        let (done, rest) = self.accumulators.split_at_mut(ply);
        match (ply.checked_sub(1), self.line.len() >= ply) {
            (Some(up), true) => {
                position.accumulate_from(&self.line[up], &done[up], self.params, &mut rest[0]);
            }
            _ => position.accumulate(self.params, &mut rest[0]),
        }
    }

    /// Every thread looks at the same limits (a node budget means one thread) and stops all
    /// the others when it reaches one.
    fn check_limits(&mut self) {
        self.next_check = self.nodes + CHECK_EVERY;
        let out_of_nodes = self.options.nodes.is_some_and(|n| self.nodes >= n);
        let out_of_time = self.deadline.is_some_and(|t| self.start.elapsed() >= t);
        if out_of_nodes || out_of_time || self.options.stop.load(Ordering::Relaxed) {
            self.aborted = true;
            self.threads_stop.store(true, Ordering::Relaxed);
        } else if self.threads_stop.load(Ordering::Relaxed) {
            self.aborted = true;
        }
    }

    fn ensure_ply(&mut self, ply: usize) {
        while self.buffers.len() <= ply + 1 {
            self.buffers.push(G::Buffer::default());
            self.accumulators.push(G::Accumulator::default());
            self.order.push(Vec::new());
            self.pv.push(Vec::new());
        }
    }

    /// Scores the moves generated at `ply` for their order: table move, killers, then the
    /// game's score and the history ([`pick`] puts them in that order as the search goes).
    fn order_moves(&mut self, position: &G, ply: usize, tt_move: Option<u32>) {
        let killers = self.killers.at(ply);
        let mut order = std::mem::take(&mut self.order[ply]);
        order.clear();
        for (i, &mv) in G::moves(&mut self.buffers[ply]).iter().enumerate() {
            let code = G::encode(mv);
            let score = if Some(code) == tt_move {
                i64::MAX
            } else if Some(code) == killers[0] {
                i64::MAX - 1
            } else if Some(code) == killers[1] {
                i64::MAX - 2
            } else {
                (i64::from(position.move_score(mv)) << 32) + i64::from(self.history.score(code))
            };
            order.push((score, i));
        }
        self.order[ply] = order;
    }

    /// The index of the move to search `i`-th at `ply` ([`pick`]).
    fn pick(&mut self, ply: usize, i: usize) -> usize {
        pick(&mut self.order[ply], i, self.options.tunables.picked())
    }

    /// The value of `child` for its parent, searched for the parent's window `(alpha, beta)`.
    fn search_child(
        &mut self,
        child: &G,
        keeps_turn: bool,
        depth: i16,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        let (child_alpha, child_beta) = child_window(keeps_turn, alpha, beta);
        from_child(
            keeps_turn,
            self.search(child, depth, child_alpha, child_beta, ply),
        )
    }

    fn search(&mut self, position: &G, depth: i16, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        if self.nodes >= self.next_check {
            self.check_limits();
        }
        if self.aborted {
            return 0;
        }
        self.ensure_ply(ply);
        self.pv[ply].clear();
        if depth <= 0 {
            // The horizon: no moves are needed, only whether the game is over.
            if position.is_over() {
                return position.terminal_value() * SCALE;
            }
            let asks = self.options.pruning && position.bounds_worth_asking();
            // On the principal line (a few nodes an iteration) the value itself is wanted, so
            // the game is asked for all it proves, an exact value first: a split position's,
            // then, where the position is small, the solver's within a small budget. A small
            // enough scout is solved too (with a smaller budget: there are many more): an
            // estimate that misjudges a sibling's side of the window hides a better move, which
            // no re-search then finds.
            let principal = beta - alpha > 1;
            if asks {
                if principal && let Some(value) = position.solved() {
                    return value * SCALE;
                }
                let budget = position.horizon_solve_budget(principal);
                if budget > 0
                    && let Some(value) = self.solve_small(position, alpha, beta, budget)
                {
                    return value;
                }
            }
            let estimate = self.evaluate(position, ply);
            if !asks {
                return estimate;
            }
            // An estimate outside what the game proves is certainly wrong. At a null-window
            // node only the bound on the estimate's side of the window can move it across.
            let (lower, upper) = if principal {
                let (lower, upper) = position.bounds();
                (lower * SCALE, upper * SCALE)
            } else if estimate >= beta {
                proven_bounds(position, alpha, INFINITE)
            } else {
                proven_bounds(position, -INFINITE, beta)
            };
            return estimate.max(lower).min(upper);
        }
        let key = position.key();
        let mut tt_move = None;
        if let Some(entry) = self.table.probe(key) {
            tt_move = entry.mv;
            if entry.depth >= depth {
                let usable = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => entry.value >= beta,
                    Bound::Upper => entry.value <= alpha,
                };
                if usable {
                    return entry.value;
                }
            }
        }
        // What the game proves without a search decides the window where it can.
        let mut proven_upper = INFINITE;
        if self.options.pruning && ply > 0 && position.bounds_worth_asking() {
            let (lower, upper) = proven_bounds(position, alpha, beta);
            if lower >= beta {
                return lower;
            }
            if upper <= alpha {
                return upper;
            }
            proven_upper = upper;
        }
        // The children's accumulators are made from this position's.
        self.accumulate(position, ply);
        // Reverse futility: near the horizon, a null-window node whose own estimate beats beta
        // by a margin that grows with the depth left is cut without searching its moves.
        if self.options.pruning
            && ply > 0
            && beta - alpha == 1
            && depth <= self.options.tunables.futile_depth()
        {
            let estimate = self.evaluate_accumulated(position, ply);
            if estimate - self.options.tunables.futile_margin() * i32::from(depth) >= beta {
                // Not above what is proven (which is at least beta, or the node was cut above).
                return ((estimate + beta) / 2).min(proven_upper);
            }
        }
        self.line.truncate(ply);
        self.line.push(*position);
        // The table's move is searched before the others are made: where it refutes (most cut
        // nodes with one), making, scoring and sorting hundreds of moves is saved. A stored
        // move is legal here: the table holds the position's whole key, and only positions
        // with moves are stored. The other moves are then ordered with the history as the table
        // move's search left it, which changes the search: it is part of the play's search
        // (`pruning`), not of the one the puzzle ratings were calibrated with.
        let mut searched_first = None;
        if let Some(code) = tt_move.filter(|_| self.options.pruning) {
            let mv = G::decode(code);
            let mut child = *position;
            child.play(mv);
            self.prefetch(&child, depth - 1);
            let keeps = position.keeps_turn(mv);
            let value = self.search_child(&child, keeps, depth - 1, alpha, beta, ply + 1);
            if self.aborted {
                return 0;
            }
            if value >= beta {
                self.set_line(ply, mv);
                self.history.reward(code, depth);
                self.table
                    .store(key, value, depth, Bound::Lower, Some(code));
                return value;
            }
            searched_first = Some((code, value));
        }
        position.generate(&mut self.buffers[ply]);
        let count = G::moves(&mut self.buffers[ply]).len();
        if count == 0 {
            return position.terminal_value() * SCALE;
        }
        self.order_moves(position, ply, tt_move);
        let tune = self.options.tunables;
        let alpha_in = alpha;
        let mut best = -INFINITE;
        let mut best_code = None;
        for i in 0..count {
            // Late moves of a null-window node near the horizon are not searched: the order
            // (the table's move, the killers, bigger buildings first, the history) puts the
            // moves that refute first. Exempting claims and captures measured worse. The window
            // is looked at for each move, not once for the node: a full-window node whose
            // alpha has risen to beta - 1 prunes too (rare, with values in hundredths; hoisting
            // the test out of the loop changes node counts for that reason).
            if self.options.pruning
                && ply > 0
                && beta - alpha == 1
                && depth <= tune.late_depth()
                && i >= tune.late_moves() * (depth * depth) as usize
            {
                break;
            }
            let index = self.pick(ply, i);
            let mv = G::moves(&mut self.buffers[ply])[index];
            let code = G::encode(mv);
            let value = if let Some((_, value)) = searched_first.filter(|&(c, _)| c == code) {
                // The table's move, first in the order, already searched.
                value
            } else {
                let mut child = *position;
                child.play(mv);
                self.prefetch(&child, depth - 1);
                let keeps = position.keeps_turn(mv);
                if i == 0 {
                    self.search_child(&child, keeps, depth - 1, alpha, beta, ply + 1)
                } else {
                    // Late moves at enough depth are first searched shallower.
                    let quiet =
                        Some(code) != tt_move && !self.killers.at(ply).contains(&Some(code));
                    let reduction = if self.options.reductions
                        && depth >= tune.reduce_depth()
                        && i >= tune.reduce_after()
                        && quiet
                    {
                        1 + i16::from(
                            i >= tune.reduce_more_after() && depth >= tune.reduce_more_depth(),
                        )
                    } else {
                        0
                    };
                    let shallower = depth - 1 - reduction;
                    let mut v =
                        self.search_child(&child, keeps, shallower, alpha, alpha + 1, ply + 1);
                    if v > alpha && reduction > 0 {
                        v = self.search_child(&child, keeps, depth - 1, alpha, alpha + 1, ply + 1);
                    }
                    if v > alpha && v < beta {
                        v = self.search_child(&child, keeps, depth - 1, alpha, beta, ply + 1);
                    }
                    v
                }
            };
            if self.aborted {
                return 0;
            }
            if value > best {
                best = value;
                best_code = Some(code);
                if value > alpha {
                    alpha = value;
                    self.set_line(ply, mv);
                    if value >= beta {
                        if !Some(code).eq(&tt_move) {
                            self.killers.add(ply, code);
                        }
                        self.history.reward(code, depth);
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha_in {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.table.store(key, best, depth, bound, best_code);
        best
    }
}

/// The bounds the game proves on `position`'s value ([`crate::boardgame::Game::window_bounds`]),
/// in [`SCALE`] units, as tight as deciding the window `(alpha, beta)` (also in [`SCALE`] units)
/// needs.
fn proven_bounds<G: Evaluate>(position: &G, alpha: i32, beta: i32) -> (i32, i32) {
    let (alpha, beta) = whole_window(alpha, beta);
    let (lower, upper) = position.window_bounds(alpha, beta);
    (lower * SCALE, upper * SCALE)
}

/// The window `(alpha, beta)` in [`SCALE`] units as whole game units, its edges rounded outward:
/// a whole-unit value reaches the whole window's edge exactly when its hundredths reach the
/// window's own, so what the game or its solver proves for the one decides the other.
fn whole_window(alpha: i32, beta: i32) -> (i32, i32) {
    (alpha.div_euclid(SCALE), -(-beta).div_euclid(SCALE))
}

/// Searches `position` within the budget of `options`, evaluating with `params`, and returns the
/// move to play, calling `info` after each finished iteration.
pub fn think<G: Evaluate>(
    position: &G,
    options: &EngineOptions,
    params: &G::Params,
    info: &mut dyn FnMut(&EngineInfo<G::Move>),
) -> Thought<G::Move> {
    let start = Instant::now();
    let table = EngineTable::lend(options.tt_mb, options.nodes);
    let table = &*table;
    let threads_stop = AtomicBool::new(false);
    // A node budget is deterministic only on one thread.
    let threads = if options.nodes.is_some() {
        1
    } else {
        options.threads.max(1)
    };
    let searcher = Searcher::new(options, params, table, &threads_stop, start);
    let helpers: Vec<Searcher<'_, G>> = (1..threads)
        .map(|_| Searcher::new(options, params, table, &threads_stop, start))
        .collect();
    decide(position, options, params, searcher, helpers, start, info)
}

/// One iteration's root moves, shared by the threads that search them.
struct RootWork<'w, G: Evaluate> {
    position: &'w G,
    root: &'w [G::Move],
    /// The order to take the moves in (indices into `root`).
    order: &'w [usize],
    bonus: &'w [i32],
    wanted: usize,
    depth: u32,
    /// The next place of `order` to take.
    next: AtomicUsize,
    found: Mutex<Found<G::Move>>,
}

/// What an iteration has found so far.
struct Found<M> {
    /// The best `wanted` moves so far, by total (estimate + bonus), best first.
    top: Vec<Ranked<M>>,
    /// The moves of [`EngineOptions::also_rank`] searched so far, with their places in the
    /// iteration's order.
    also: Vec<(usize, Candidate<M>)>,
}

impl<M> Found<M> {
    /// The total a move must beat to be kept, once `wanted` moves are.
    fn threshold(&self, wanted: usize) -> Option<i32> {
        (self.top.len() >= wanted).then(|| self.top[wanted - 1].total)
    }
}

impl<G: Evaluate> RootWork<'_, G> {
    fn found(&self) -> std::sync::MutexGuard<'_, Found<G::Move>> {
        // A thread that panicked has only lost its move: what was found stands.
        self.found.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Searches root moves, taking the next untried one of `order` before `end` each time,
    /// until none is left or the search stops. Each move is tested against the best total
    /// found so far by any thread, and searched again with a full window only if it beats it.
    fn search(&self, searcher: &mut Searcher<'_, G>, end: usize) {
        searcher.enter_root(self.position);
        let wanted = self.wanted;
        while let Ok(k) = self
            .next
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |k| {
                (k < end).then_some(k + 1)
            })
        {
            let i = self.order[k];
            let mut child = *self.position;
            child.play(self.root[i]);
            let keeps = self.position.keeps_turn(self.root[i]);
            let depth = self.depth as i16 - 1;
            let threshold = self.found().threshold(wanted);
            let forced = searcher
                .options
                .also_rank
                .contains(&G::encode(self.root[i]));
            let value = match threshold.filter(|_| !forced) {
                None => searcher.search_child(&child, keeps, depth, -INFINITE, INFINITE, 1),
                Some(total) => {
                    // A move must beat the last kept total with its own bonus.
                    let floor = total - self.bonus[i];
                    let v = searcher.search_child(&child, keeps, depth, floor, floor + 1, 1);
                    if v > floor && !searcher.aborted {
                        searcher.search_child(&child, keeps, depth, floor, INFINITE, 1)
                    } else {
                        v
                    }
                }
            };
            if searcher.aborted {
                return;
            }
            let total = value + self.bonus[i];
            let mut pv = vec![self.root[i]];
            pv.extend_from_slice(&searcher.pv[1]);
            let candidate = Candidate {
                mv: self.root[i],
                estimate: value,
                pv,
            };
            let mut found = self.found();
            if forced {
                found.also.push((k, candidate.clone()));
            }
            // Another thread may have raised the threshold meanwhile: the move is kept only
            // if it beats the one standing now.
            if found.threshold(wanted).is_none_or(|t| total > t) {
                let at = found
                    .top
                    .iter()
                    .position(|r| r.total < total)
                    .unwrap_or(found.top.len());
                found.top.insert(
                    at,
                    Ranked {
                        index: i,
                        total,
                        candidate,
                    },
                );
                found.top.truncate(wanted);
            }
        }
    }
}

/// The iterative deepening over the root moves: the decision. The first searcher searches the
/// best moves so far alone (they set the totals to beat); then all of them share the others.
fn decide<G: Evaluate>(
    position: &G,
    options: &EngineOptions,
    params: &G::Params,
    mut searcher: Searcher<'_, G>,
    mut helpers: Vec<Searcher<'_, G>>,
    start: Instant,
    info: &mut dyn FnMut(&EngineInfo<G::Move>),
) -> Thought<G::Move> {
    searcher.ensure_ply(0);
    position.generate(&mut searcher.buffers[0]);
    let root: Vec<G::Move> = G::moves(&mut searcher.buffers[0]).to_vec();
    let mut thought = Thought {
        best: None,
        estimate: position.terminal_value() * SCALE,
        pv: Vec::new(),
        candidates: Vec::new(),
        also: Vec::new(),
        depth: 0,
        nodes: 0,
        elapsed: Duration::ZERO,
    };
    if root.is_empty() {
        return thought;
    }
    // Each root move's seeded bonus (the weakening noise).
    let mut rng = Rng::new(options.seed ^ position.key().0);
    let bonus: Vec<i32> = root
        .iter()
        .map(|_| {
            if options.noise > 0 {
                rng.below(options.noise as u64) as i32
            } else {
                0
            }
        })
        .collect();
    // Root order: the game's score first, then each iteration's best first.
    let mut order: Vec<usize> = (0..root.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(position.move_score(root[i])));
    thought.best = Some(root[order[0]]);
    thought.pv = vec![root[order[0]]];
    thought.estimate = position.evaluate(params);

    let wanted = options.multi_pv.clamp(1, root.len());
    let mut settled = Settled::default();
    let last_depth = options.max_depth.min(position.max_plies_left()).max(1);
    for depth in 1..=last_depth {
        searcher.check_limits();
        if searcher.aborted {
            break;
        }
        let work = RootWork {
            position,
            root: &root,
            order: &order,
            bonus: &bonus,
            wanted,
            depth,
            next: AtomicUsize::new(0),
            found: Mutex::new(Found {
                top: Vec::new(),
                also: Vec::new(),
            }),
        };
        let moves = order.len();
        work.search(&mut searcher, wanted);
        if searcher.aborted {
            // Stopped on the best moves so far: nothing more to take.
        } else if helpers.is_empty() {
            work.search(&mut searcher, moves);
        } else {
            std::thread::scope(|scope| {
                for helper in helpers.iter_mut() {
                    helper.deadline = searcher.deadline;
                    let work = &work;
                    scope.spawn(move || work.search(helper, moves));
                }
                work.search(&mut searcher, moves);
            });
            // Stopped by another thread's look at the limits.
            searcher.aborted |= searcher.threads_stop.load(Ordering::Relaxed);
        }
        let Found { top, also } = work.found.into_inner().unwrap_or_else(|e| e.into_inner());
        // An unfinished iteration still counts for the best move if it found one better than
        // the previous best's total at this depth (the previous best is always searched first).
        // With several moves ranked, or another move's value asked for, the answer stays with
        // the finished iteration, so that the best move's value and the others' come from the
        // same depth (measured: at the 13-building edge of the network's reach one ply
        // changed the estimate by nine squares).
        let alone = wanted == 1 && options.also_rank.is_empty();
        if let Some(first) = top.first().filter(|_| alone || !searcher.aborted) {
            thought.best = Some(first.candidate.mv);
            thought.estimate = first.candidate.estimate;
            thought.pv = first.candidate.pv.clone();
            if searcher.aborted {
                // The one move ranked is the one chosen, with its value from the same search.
                thought.candidates = vec![first.candidate.clone()];
            }
        }
        for ranked in top.iter().rev() {
            if let Some(pos) = order.iter().position(|&j| j == ranked.index) {
                let moved = order.remove(pos);
                order.insert(0, moved);
            }
        }
        if !searcher.aborted {
            thought.candidates = top.into_iter().map(|r| r.candidate).collect();
            // Threads finish the forced moves in any order: the caller gets them in the
            // iteration's order, as one thread finds them.
            let mut also = also;
            also.sort_by_key(|&(k, _)| k);
            thought.also = also.into_iter().map(|(_, c)| c).collect();
        }
        if searcher.aborted {
            break;
        }
        thought.depth = depth;
        info(&EngineInfo {
            depth,
            nodes: searcher.nodes + helpers.iter().map(|h| h.nodes).sum::<u64>(),
            elapsed: start.elapsed(),
            estimate: thought.estimate,
            pv: thought.pv.clone(),
        });
        // A lone move needs no deeper look. On a game clock an iteration that is unlikely to
        // finish in the time left (the last took more than half of it) is not begun: the time
        // saved is the clock's, for later moves. A time per move is spent to its end (+86 Elo
        // at 1 s a move by SPRT, docs/engine.md).
        if root.len() == 1 {
            break;
        }
        settled.record(thought.best, thought.estimate);
        searcher.deadline = settled.budget(options);
        if let Some(limit) = searcher.deadline
            && options.target.is_some()
            && start.elapsed() * 2 > limit
        {
            break;
        }
        if searcher.options.nodes.is_some_and(|n| searcher.nodes >= n) {
            break;
        }
    }
    thought.nodes = searcher.nodes + helpers.iter().map(|h| h.nodes).sum::<u64>();
    thought.elapsed = start.elapsed();
    thought
}

/// How settled the iterations so far are, for spending a clock's time where it matters.
#[derive(Debug)]
struct Settled<M> {
    /// The last iteration's best move and estimate.
    last: Option<(Option<M>, i32)>,
    /// Iterations in a row with the same best move.
    stood: u32,
    /// Whether the best move changed in the last iteration.
    changed: bool,
    /// Whether the estimate fell by half a square or more in the last iteration.
    fell: bool,
}

impl<M> Default for Settled<M> {
    fn default() -> Self {
        Settled {
            last: None,
            stood: 0,
            changed: false,
            fell: false,
        }
    }
}

impl<M: PartialEq + Copy> Settled<M> {
    /// Records a finished iteration.
    fn record(&mut self, best: Option<M>, estimate: i32) {
        (self.changed, self.fell) = match self.last {
            Some((last_best, last_estimate)) => {
                (last_best != best, estimate <= last_estimate - SCALE / 2)
            }
            None => (false, false),
        };
        self.stood = if self.changed { 1 } else { self.stood + 1 };
        self.last = Some((best, estimate));
    }

    /// The time the move may spend now: [`EngineOptions::target`] scaled by how settled the
    /// search is (within [`EngineOptions::time`]), or `time` without a target.
    fn budget(&self, options: &EngineOptions) -> Option<Duration> {
        let Some(target) = options.target else {
            return options.time;
        };
        let scaled = if self.changed {
            target * 2
        } else if self.fell {
            target * 3 / 2
        } else if self.stood >= 4 {
            target * 7 / 10
        } else {
            target
        };
        Some(options.time.map_or(scaled, |limit| scaled.min(limit)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picking_gives_the_order_of_one_stable_sort() {
        let mut rng = Rng::new(3);
        // The declared number of picks, and any other a tuner may try.
        for (n, picks) in (0..60).flat_map(|n| {
            [
                (n, Tunables::default().picked()),
                (n, n / 3),
                (n, 0),
                (n, n + 5),
            ]
        }) {
            for _ in 0..20 {
                // Few distinct scores, so that ties are common.
                let scores: Vec<i64> = (0..n).map(|_| rng.below(5) as i64 - 2).collect();
                let mut expected: Vec<(i64, usize)> = scores.iter().copied().zip(0..).collect();
                expected.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
                let mut order: Vec<(i64, usize)> = scores.iter().copied().zip(0..).collect();
                let picked: Vec<usize> = (0..n).map(|i| pick(&mut order, i, picks)).collect();
                let sorted: Vec<usize> = expected.iter().map(|&(_, i)| i).collect();
                assert_eq!(picked, sorted, "scores {scores:?}");
            }
        }
    }
}
