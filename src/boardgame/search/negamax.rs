//! Negamax alpha-beta with a fail-soft result, table bounds and game bounds clamping the window.
//!
//! A result `v` of `search(alpha, beta)` means: `v <= alpha` -> the value is at most `v`;
//! `v >= beta` -> at least `v`; otherwise exactly `v`. Only complete subtrees are stored: once
//! the search is told to stop, every call returns at once and nothing more is written.

use super::busy::Busy;
use super::tt::Table;
use crate::boardgame::Game;
use crate::boardgame::instant::Instant;
use crate::boardgame::{child_window, from_child};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Stop requests and counters shared by the threads of one solve.
pub struct Control<'a> {
    /// The caller's stop flag (Ctrl-C).
    pub user_stop: &'a AtomicBool,
    pub deadline: Option<Instant>,
    /// Set once the user stop or the deadline is seen: the solve ends with what is proven.
    pub stopped: AtomicBool,
    /// Set when another thread has finished the current probe.
    pub probe_done: AtomicBool,
    /// Nodes flushed by every thread.
    pub nodes: AtomicU64,
    pub tt_probes: AtomicU64,
    pub tt_hits: AtomicU64,
    /// Subtrees left because another thread decided an ancestor.
    pub unwinds: AtomicU64,
    /// "Being searched" marks, with more than one thread.
    pub busy: Option<Busy>,
    /// Once this many nodes are flushed, the current probe is abandoned so that the driver can
    /// move to a larger table (`u64::MAX`: never).
    pub grow_at: AtomicU64,
    /// Set when a probe was abandoned for a larger table.
    pub grow_wanted: AtomicBool,
    /// The solve stops once more than this many nodes are flushed (`u64::MAX`: never).
    pub node_limit: u64,
}

impl<'a> Control<'a> {
    pub fn new(
        user_stop: &'a AtomicBool,
        deadline: Option<Instant>,
        threads: usize,
    ) -> Control<'a> {
        Control {
            user_stop,
            deadline,
            stopped: AtomicBool::new(false),
            probe_done: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            tt_probes: AtomicU64::new(0),
            tt_hits: AtomicU64::new(0),
            unwinds: AtomicU64::new(0),
            busy: (threads > 1).then(|| Busy::new(BUSY_BITS)),
            grow_at: AtomicU64::new(u64::MAX),
            grow_wanted: AtomicBool::new(false),
            node_limit: u64::MAX,
        }
    }

    /// Whether the solve must end (and notes it).
    pub fn check_stop(&self) -> bool {
        if self.stopped.load(Ordering::Relaxed) {
            return true;
        }
        let late = self.deadline.is_some_and(|d| Instant::now() >= d);
        let spent = self.nodes.load(Ordering::Relaxed) > self.node_limit;
        if late || spent || self.user_stop.load(Ordering::Relaxed) {
            self.stopped.store(true, Ordering::Relaxed);
            return true;
        }
        false
    }

    /// Whether the current probe must make way for a larger table (and notes it).
    fn check_grow(&self) -> bool {
        if self.grow_wanted.load(Ordering::Relaxed) {
            return true;
        }
        if self.nodes.load(Ordering::Relaxed) >= self.grow_at.load(Ordering::Relaxed) {
            self.grow_wanted.store(true, Ordering::Relaxed);
            return true;
        }
        false
    }
}

/// Per-ply buffers, reused for the whole solve.
struct Ply<G: Game> {
    moves: G::Buffer,
    /// `(score << 28) | (fewest replies << 16) | index`, sorted high first.
    order: Vec<u64>,
    /// Killer moves: the last two moves that refuted a window at this ply (after the table move).
    /// They win ties among moves of equal game score only.
    killers: [Option<G::Move>; 2],
    /// Positions in `order` put off because another thread is searching them.
    deferred: Vec<u16>,
}

impl<G: Game> Default for Ply<G> {
    fn default() -> Self {
        Ply {
            moves: G::Buffer::default(),
            order: Vec::new(),
            killers: [None; 2],
            deferred: Vec::new(),
        }
    }
}

/// Called every few thousand nodes by the thread that reports progress.
pub type Tick<'a> = &'a (dyn Fn() + Sync);

/// One thread's searcher.
pub struct Searcher<'a, G: Game> {
    table: &'a Table,
    control: &'a Control<'a>,
    tick: Option<Tick<'a>>,
    plies: Vec<Ply<G>>,
    /// Set when the search must unwind: its results are then meaningless.
    aborted: bool,
    /// With several threads, the key and window of each node on the current path within
    /// [`BUSY_PLIES`] of the root, to notice when another thread has decided one of them.
    path: [((u64, u64), i32, i32); BUSY_PLIES],
    /// Set with `aborted` when the table shows the node at this ply decided (by another thread):
    /// the search unwinds to it and returns the value given.
    unwind_to: Option<(usize, i32)>,
    nodes: u64,
    /// The search unwinds once it has visited more nodes than this ([`Searcher::set_budget`]).
    budget: u64,
    unflushed: u64,
    tt_probes: u64,
    tt_hits: u64,
}

const CHECK_EVERY: u64 = 4096;

/// Within this many plies of the root, moves of equal game score are ordered by the number of
/// replies they leave (fewest first). Measured (1 thread, value only, nodes; docs/performance.md):
/// 4 / 6 / 8 plies on t10-06 11.5 M / 5.2 M / 4.9 M against 245 M without, and 6 was the fastest
/// in time over t8 and t10; deeper, counting replies costs more than it saves.
const FASTEST_FIRST_PLIES: usize = 6;

/// `2^BUSY_BITS` "being searched" marks (8 bytes each).
const BUSY_BITS: u32 = 16;

/// Children are marked and put off only this close to the root: deeper subtrees are too small
/// to be worth the shared writes. Measured with two threads (2 runs each): 6 plies against 8 took
/// t8-09 21.0-22.2 s instead of 26.6-28.0 s, t8-10 4.4 s instead of 8.3-8.4 s; 4 plies 23.0 s, 4.4-4.6 s.
/// Deeper marks, measured again at the fifth stop of issue 14: 14 plies made the short solves
/// faster (t10-02 9.6 s against 13.2 s, medians of five and six) but the long one slower
/// (t10-03 545 s and 2.05 G nodes against 272 s and 1.00 G, one run each); why was not measured.
const BUSY_PLIES: usize = 6;

impl<'a, G: Game> Searcher<'a, G> {
    pub fn new(table: &'a Table, control: &'a Control<'a>, tick: Option<Tick<'a>>) -> Self {
        Searcher {
            table,
            control,
            tick,
            plies: Vec::new(),
            aborted: false,
            path: [((0, 0), 0, 0); BUSY_PLIES],
            unwind_to: None,
            nodes: 0,
            budget: u64::MAX,
            unflushed: 0,
            tt_probes: 0,
            tt_hits: 0,
        }
    }

    /// Searches `position` with the window `(alpha, beta)`. `None` if the search was stopped
    /// (by the user, the deadline, or another thread finishing the same probe first).
    pub fn probe(&mut self, position: &G, alpha: i32, beta: i32) -> Option<i32> {
        self.aborted = false;
        self.unwind_to = None;
        let value = self.search(position, alpha, beta, 0);
        self.flush();
        (!self.aborted).then_some(value)
    }

    /// Stops this searcher's probes once it has visited `nodes` nodes in all (checked at every
    /// node, where [`Control::node_limit`] is checked every few thousand): for the small solves
    /// the estimating search makes at its horizon
    /// ([`crate::boardgame::engine::Evaluate::horizon_solve_budget`]).
    pub fn set_budget(&mut self, nodes: u64) {
        self.budget = nodes;
    }

    /// The nodes this searcher has visited.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Moves every local counter into the shared ones.
    pub fn flush(&mut self) {
        self.control
            .nodes
            .fetch_add(self.unflushed, Ordering::Relaxed);
        self.control
            .tt_probes
            .fetch_add(self.tt_probes, Ordering::Relaxed);
        self.control
            .tt_hits
            .fetch_add(self.tt_hits, Ordering::Relaxed);
        self.unflushed = 0;
        self.tt_probes = 0;
        self.tt_hits = 0;
    }

    /// The shared table.
    pub fn table(&self) -> &'a Table {
        self.table
    }

    /// Moves to another table (a larger one, filled from this one).
    pub fn set_table(&mut self, table: &'a Table) {
        self.table = table;
    }

    #[cold]
    fn periodic(&mut self, ply: usize) {
        self.flush();
        if self.control.check_stop() || self.control.check_grow() {
            self.aborted = true;
        } else if self.control.busy.is_some() {
            self.unwind_if_decided(ply);
        }
        if let Some(tick) = self.tick {
            tick();
        }
    }

    /// Looks in the table for the ancestors (within [`BUSY_PLIES`]) of the node being entered at
    /// `ply`: if another thread has meanwhile stored a bound that decides one's window, the
    /// search unwinds to the shallowest such and returns that bound there, as a table hit on
    /// entering it would have. Without this a thread may spend long in a subtree whose ancestor
    /// the other thread has already cut off.
    fn unwind_if_decided(&mut self, ply: usize) {
        for p in 0..ply.min(BUSY_PLIES) {
            let (key, alpha, beta) = self.path[p];
            let Some(hit) = self.table.probe(key) else {
                continue;
            };
            let decided = if hit.lower >= beta || hit.lower == hit.upper {
                Some(hit.lower)
            } else if hit.upper <= alpha {
                Some(hit.upper)
            } else {
                None
            };
            if let Some(value) = decided {
                self.control.unwinds.fetch_add(1, Ordering::Relaxed);
                self.aborted = true;
                self.unwind_to = Some((p, value));
                return;
            }
        }
    }

    /// After a child returned with `aborted` set: the node at `ply`'s value if the search was
    /// unwinding to it (and the search goes on), anything otherwise (the search unwinds further).
    fn unwound(&mut self, ply: usize) -> i32 {
        match self.unwind_to {
            Some((p, value)) if p == ply => {
                self.unwind_to = None;
                self.aborted = false;
                value
            }
            _ => 0,
        }
    }

    fn search(&mut self, position: &G, mut alpha: i32, mut beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        self.unflushed += 1;
        if self.unflushed >= CHECK_EVERY {
            self.periodic(ply);
        }
        if self.aborted
            || self.nodes > self.budget
            || self.control.probe_done.load(Ordering::Relaxed)
        {
            self.aborted = true;
            return 0;
        }
        // The table's bucket loads while the game looks for a solved special case.
        let key = position.key();
        self.table.prefetch(key);
        if let Some(value) = position.solved() {
            return value;
        }
        self.tt_probes += 1;
        let (mut lower, mut upper) = (G::MIN_VALUE, G::MAX_VALUE);
        let mut tt_move = None;
        if let Some(hit) = self.table.probe(key) {
            self.tt_hits += 1;
            (lower, upper) = (hit.lower, hit.upper);
            tt_move = hit.mv;
        }
        // The table's bounds alone often decide; the game's bounds cost more, so they come second.
        for pass in 0..2 {
            if lower >= beta || lower == upper {
                return lower;
            }
            if upper <= alpha {
                return upper;
            }
            if pass == 0 {
                let (game_lower, game_upper) = position.window_bounds(alpha, beta);
                lower = lower.max(game_lower);
                upper = upper.min(game_upper);
            }
        }
        alpha = alpha.max(lower);
        beta = beta.min(upper);

        let nodes_before = self.nodes;
        let alpha_in = alpha;
        let mut best = i32::MIN;
        let mut best_move = None;
        // The table's move first, before generating the others: it often cuts off alone. It was
        // stored for this very position (the whole key is verified), so it is legal here.
        let tt_move = tt_move.map(G::decode);
        let control: &'a Control<'a> = self.control;
        let busy = control.busy.as_ref().filter(|_| ply < BUSY_PLIES);
        if busy.is_some() {
            self.path[ply] = (key, alpha, beta);
        }
        if let Some(mv) = tt_move {
            if let Some(guess) = position.key_guess(mv) {
                self.table.prefetch(guess);
            }
            let mut child = *position;
            child.play(mv);
            let keeps = position.keeps_turn(mv);
            let value = self.search_child(&child, keeps, busy, alpha, beta, ply);
            if self.aborted {
                return self.unwound(ply);
            }
            best = value;
            best_move = Some(mv);
            if value > alpha {
                alpha = value;
            }
        }

        if alpha < beta {
            if self.plies.len() <= ply {
                self.plies.resize_with(ply + 1, Ply::default);
            }
            let mut buffers = std::mem::take(&mut self.plies[ply]);
            position.generate(&mut buffers.moves);
            let moves = G::moves(&mut buffers.moves);
            if moves.is_empty() {
                self.plies[ply] = buffers;
                return position.terminal_value();
            }
            if moves.len() == 1 && tt_move.is_none() {
                // A forced move (a pass, typically): no choice to remember.
                let mut child = *position;
                child.play(moves[0]);
                let keeps = position.keeps_turn(moves[0]);
                self.plies[ply] = buffers;
                let value = self.search_child(&child, keeps, None, alpha, beta, ply);
                return if self.aborted {
                    self.unwound(ply)
                } else {
                    value
                };
            }

            // Order by the game's scores, a killer move first among equals, then near the root the
            // fewest replies. Every thread uses the same order: the "being searched" marks spread
            // them over different children.
            let order = &mut buffers.order;
            order.clear();
            let killers = buffers.killers;
            for (i, &mv) in moves.iter().enumerate() {
                if Some(mv) == tt_move {
                    continue;
                }
                let killer = killers[0] == Some(mv) || killers[1] == Some(mv);
                let score = position.move_score(mv).clamp(-(1 << 18), 1 << 18) * 2 + killer as i32;
                order.push(((score + (1 << 20)) as u64) << 28 | i as u64);
            }
            // Fastest first: among equals, the move leaving the opponent fewest replies, whose
            // refutation (if it fails) has the fewest children to search. Counted lazily: the
            // top score group now (it holds the first move), the others only if the first move
            // does not cut off. The order is the same as counting all at once.
            let fastest_first = ply < FASTEST_FIRST_PLIES;
            let top_score = if fastest_first {
                order.iter().map(|&key| key >> 28).max().unwrap_or(0)
            } else {
                0
            };
            if fastest_first {
                add_reply_counts(position, moves, order, |score| score == top_score);
            }
            // The first move often cuts off alone: bring the best one to the front now and sort
            // the rest only if it does not (keys are unique, so the order is the full sort's).
            if let Some(top) = (0..order.len()).max_by_key(|&k| order[k]) {
                order.swap(0, top);
            }
            let mut rest_sorted = order.len() <= 2;
            // The position in `order` whose table entry was fetched ahead.
            let mut fetched_next = usize::MAX;

            // With several threads, a child another thread is searching is put off to a second
            // pass (the first child is never put off); the first pass may still cut off.
            let deferred = &mut buffers.deferred;
            deferred.clear();
            'passes: for pass in 0..2 {
                let count = if pass == 0 {
                    order.len()
                } else {
                    deferred.len()
                };
                for j in 0..count {
                    if j == 1 && !rest_sorted {
                        if fastest_first {
                            let rest = &mut order[1..];
                            add_reply_counts(position, moves, rest, |score| score != top_score);
                        }
                        order[1..].sort_unstable_by(|a, b| b.cmp(a));
                        rest_sorted = true;
                    }
                    let k = if pass == 0 { j } else { deferred[j] as usize };
                    let mv = moves[(order[k] & 0xFFFF) as usize];
                    // The child's entry loads while the move is played (unless it was fetched
                    // as the sibling after the previous one), and the next sibling's while this
                    // child is searched.
                    if !(pass == 0 && fetched_next == j)
                        && let Some(guess) = position.key_guess(mv)
                    {
                        self.table.prefetch(guess);
                    }
                    if pass == 0 && rest_sorted && j + 1 < count {
                        let next = moves[(order[j + 1] & 0xFFFF) as usize];
                        if let Some(guess) = position.key_guess(next) {
                            self.table.prefetch(guess);
                        }
                        fetched_next = j + 1;
                    }
                    let mut child = *position;
                    child.play(mv);
                    let first = k == 0 && tt_move.is_none();
                    if pass == 0 && !first && busy.is_some_and(|b| b.is_busy(child.key())) {
                        deferred.push(k as u16);
                        continue;
                    }
                    let keeps = position.keeps_turn(mv);
                    let value = self.search_child(&child, keeps, busy, alpha, beta, ply);
                    if self.aborted {
                        self.plies[ply] = buffers;
                        return self.unwound(ply);
                    }
                    if value > best {
                        best = value;
                        best_move = Some(mv);
                        if value > alpha {
                            alpha = value;
                            if alpha >= beta {
                                if buffers.killers[0] != Some(mv) {
                                    buffers.killers[1] = buffers.killers[0];
                                    buffers.killers[0] = Some(mv);
                                }
                                break 'passes;
                            }
                        }
                    }
                }
                if deferred.is_empty() {
                    break;
                }
            }
            self.plies[ply] = buffers;
        }

        let work = 64 - (self.nodes - nodes_before).leading_zeros();
        let (store_lower, store_upper) = if best <= alpha_in {
            (G::MIN_VALUE, best)
        } else if best >= beta {
            (best, G::MAX_VALUE)
        } else {
            (best, best)
        };
        let mv = if best > alpha_in { best_move } else { tt_move };
        self.table
            .store(key, store_lower, store_upper, mv.map(G::encode), work);
        best
    }

    /// The value of `child` for its parent at `ply` (window `(alpha, beta)` of the parent),
    /// marked as being searched in `busy` meanwhile.
    fn search_child(
        &mut self,
        child: &G,
        keeps_turn: bool,
        busy: Option<&Busy>,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if let Some(b) = busy {
            b.enter(child.key());
        }
        let (child_alpha, child_beta) = child_window(keeps_turn, alpha, beta);
        let value = from_child(
            keeps_turn,
            self.search(child, child_alpha, child_beta, ply + 1),
        );
        if let Some(b) = busy {
            b.leave(child.key());
        }
        value
    }
}

/// Adds to each order key whose score satisfies `counted` the fastest-first figure: 4095 less
/// the number of replies its move leaves.
fn add_reply_counts<G: Game>(
    position: &G,
    moves: &[G::Move],
    order: &mut [u64],
    counted: impl Fn(u64) -> bool,
) {
    for key in order.iter_mut().filter(|key| counted(**key >> 28)) {
        let mut child = *position;
        child.play(moves[(*key & 0xFFFF) as usize]);
        *key |= (4095 - child.count_moves().min(4095) as u64) << 16;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A uniform tree of 4 moves per node, 14 plies deep, every leaf worth 0. Playing into a
    /// node at depth `plant.depth` stores `plant`'s bounds for its key in the table, as another
    /// thread finishing that node would.
    #[derive(Clone, Copy)]
    struct Tree {
        depth: u8,
        path: u64,
        table: &'static Table,
        plant: Plant,
    }

    #[derive(Clone, Copy)]
    struct Plant {
        depth: u8,
        key: (u64, u64),
        lower: i32,
        upper: i32,
    }

    const DEPTH: u8 = 14;

    fn mix(mut z: u64) -> u64 {
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    impl Game for Tree {
        type Move = u8;
        type Buffer = Vec<u8>;
        const MIN_VALUE: i32 = -20;
        const MAX_VALUE: i32 = 20;
        fn key(&self) -> (u64, u64) {
            (mix(self.path), mix(self.path ^ 0x5555))
        }
        fn generate(&self, buffer: &mut Vec<u8>) {
            buffer.clear();
            if self.depth < DEPTH {
                buffer.extend(0..4);
            }
        }
        fn moves(buffer: &mut Vec<u8>) -> &mut [u8] {
            buffer
        }
        fn play(&mut self, mv: u8) {
            self.path = self.path * 4 + u64::from(mv);
            self.depth += 1;
            if self.depth == self.plant.depth {
                let p = self.plant;
                self.table.store(p.key, p.lower, p.upper, None, 40);
            }
        }
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

    /// Probes the root with `(alpha, beta)` while, a few plies in, the root gets the bounds
    /// `(lower, upper)` in the table. The probe's result and the searcher's unwinds.
    fn probe_with_plant(
        threads: usize,
        alpha: i32,
        beta: i32,
        lower: i32,
        upper: i32,
    ) -> (i32, u64) {
        let table: &'static Table = Box::leak(Box::new(Table::new(4)));
        let mut root = Tree {
            depth: 0,
            path: 1,
            table,
            plant: Plant {
                depth: 2,
                key: (0, 0),
                lower,
                upper,
            },
        };
        root.plant.key = root.key();
        let stop = AtomicBool::new(false);
        let control = Control::new(&stop, None, threads);
        let mut searcher = Searcher::new(table, &control, None);
        let value = searcher.probe(&root, alpha, beta).expect("not stopped");
        (value, control.unwinds.load(Ordering::Relaxed))
    }

    #[test]
    fn a_budget_stops_a_probe_at_its_node_count() {
        // The tree's 4^14 leaves are all worth 0, and nothing is stored before it is proven: a
        // window around 0 needs a few hundred thousand nodes, far more than the budgets below.
        let table = Table::new(1);
        let root = Tree {
            depth: 0,
            path: 1,
            table: Box::leak(Box::new(Table::new(1))),
            plant: Plant {
                depth: DEPTH + 1,
                key: (0, 0),
                lower: 0,
                upper: 0,
            },
        };
        let stop = AtomicBool::new(false);
        for budget in [0, 1, 10, 500] {
            let control = Control::new(&stop, None, 1);
            let mut searcher = Searcher::new(&table, &control, None);
            searcher.set_budget(budget);
            assert_eq!(searcher.probe(&root, -1, 1), None, "budget {budget}");
            // The node over the budget is the one that stops: none is visited after it.
            assert_eq!(searcher.nodes(), budget + 1, "budget {budget}");
        }
        // A window the table already decides needs one node.
        table.store(root.key(), 0, 0, None, 40);
        let control = Control::new(&stop, None, 1);
        let mut searcher = Searcher::new(&table, &control, None);
        searcher.set_budget(1);
        assert_eq!(searcher.probe(&root, -1, 1), Some(0));
        assert_eq!(searcher.nodes(), 1);
    }

    #[test]
    fn a_thread_returns_the_bound_another_stored_for_an_ancestor() {
        // Every leaf is worth 0: without leaving the subtree the probes return 0 (the planted
        // bounds are not the tree's, so that their return shows).
        // A lower bound at or above beta: fails high with it.
        assert_eq!(probe_with_plant(2, -10, 3, 5, 20), (5, 1));
        // An upper bound at or below alpha: fails low with it.
        assert_eq!(probe_with_plant(2, -3, 10, -20, -7), (-7, 1));
        // An exact value.
        assert_eq!(probe_with_plant(2, -3, 10, 4, 4), (4, 1));
        // Bounds that do not decide the window: searched on to the true value.
        assert_eq!(probe_with_plant(2, -3, 10, -2, 20), (0, 0));
        // One thread never looks.
        assert_eq!(probe_with_plant(1, -10, 3, 5, 20), (0, 0));
    }
}
