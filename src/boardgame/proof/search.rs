//! Depth-first proof-number search (df-pn, Nagai 2002) over any [`Game`], in negamax form.
//!
//! Every node asks one question of its side to move: "is my value at least `target`?". Its
//! proof number is the least number of leaves still to be proven for a yes, its disproof
//! number the least for a no. Seen from a parent, a child whose mover changed answers the
//! opposite question ("is the other side's value at least `1 - target`?", a yes of the child
//! is a no for the parent), so the parent takes its proof number as the smallest of its
//! children's disproof numbers and its disproof number as the sum of their proof numbers; a
//! child after a move that keeps the turn asks the parent's own question and counts as it is.
//!
//! The search goes depth first under two thresholds (it leaves a node once its proof or
//! disproof number reaches them) and keeps every node's numbers in the shared proof table, so
//! a node left is resumed where it stood. The child's proof threshold is the second best
//! sibling's number times 1 + 1/4 (the 1+ε trick of Pawlewicz and Lew, 2007), not that number
//! plus one: the search stays in a subtree a while longer instead of thrashing between two
//! siblings of equal promise, each switch re-expanding the other's nodes.
//!
//! Positions never repeat in the games of this crate (a Corintho move lowers the potential, a
//! Cathedral move places a building for good or ends the game), so the graph-history
//! interaction (a value that depends on the path, through repetitions) cannot arise; the
//! positions reached by several paths are shared through the table. Debug builds check the
//! current path for a repeated position.

use super::table::{INFINITE, Numbers, ProofTable, question_key};
use crate::boardgame::Game;
use crate::boardgame::search::negamax::Control;
use std::sync::atomic::Ordering;

/// Numbers of a question answered yes.
pub const PROVEN: (u32, u32) = (0, INFINITE);
/// Numbers of a question answered no.
pub const DISPROVEN: (u32, u32) = (INFINITE, 0);

/// Nodes between looks at the shared stop flags and the clock.
const FLUSH_EVERY: u64 = 1024;

/// The numbers of a decided question.
fn decided(yes: bool) -> (u32, u32) {
    if yes { PROVEN } else { DISPROVEN }
}

/// The answer, once the numbers decide it.
pub fn answer((proof, disproof): (u32, u32)) -> Option<bool> {
    if proof == 0 {
        Some(true)
    } else if disproof == 0 {
        Some(false)
    } else {
        None
    }
}

/// The numbers of `position` for "at least `target`?" without search: decided by the target's
/// range, a solved case or the game's bounds; open otherwise, with the game's initial numbers.
pub fn evaluate<G: Game>(position: &G, target: i32) -> (u32, u32) {
    if target <= G::MIN_VALUE {
        return PROVEN;
    }
    if target > G::MAX_VALUE {
        return DISPROVEN;
    }
    if let Some(value) = position.solved() {
        return decided(value >= target);
    }
    let (lower, upper) = position.window_bounds(target - 1, target);
    if lower >= target {
        return PROVEN;
    }
    if upper < target {
        return DISPROVEN;
    }
    initial(position, target)
}

/// The numbers of a position not yet met: decided only by the target's range, otherwise the
/// game's initial numbers ([`evaluate`] judges it when the search first goes in).
fn initial<G: Game>(position: &G, target: i32) -> (u32, u32) {
    if target <= G::MIN_VALUE {
        return PROVEN;
    }
    if target > G::MAX_VALUE {
        return DISPROVEN;
    }
    let (proof, disproof) = position.proof_numbers();
    (
        proof.clamp(1, INFINITE - 1),
        disproof.clamp(1, INFINITE - 1),
    )
}

/// The question a child asks after a move: the parent's own when the mover keeps the turn,
/// the opposite one otherwise.
pub fn child_target(keeps: bool, target: i32) -> i32 {
    if keeps { target } else { 1 - target }
}

/// A child's numbers as its parent counts them: (proof, disproof) of the parent's question.
fn for_parent(keeps: bool, (proof, disproof): (u32, u32)) -> (u32, u32) {
    if keeps {
        (proof, disproof)
    } else {
        (disproof, proof)
    }
}

/// The proof threshold a best child gets while `second` is its best sibling's number (1+ε).
fn widened(second: u32) -> u32 {
    if second >= INFINITE - 1 {
        INFINITE
    } else {
        second.saturating_add((second / 4).max(1)).min(INFINITE - 1)
    }
}

struct Child<G: Game> {
    position: G,
    mv: G::Move,
    keeps: bool,
    target: i32,
    /// The child's question key.
    key: (u64, u64),
    /// The child's own numbers (of its own question).
    numbers: (u32, u32),
}

struct Ply<G: Game> {
    buffer: G::Buffer,
    children: Vec<Child<G>>,
    /// The moves' indices, best-looking first, with their ordering scores.
    order: Vec<(i32, usize)>,
}

impl<G: Game> Default for Ply<G> {
    fn default() -> Self {
        Ply {
            buffer: G::Buffer::default(),
            children: Vec::new(),
            order: Vec::new(),
        }
    }
}

/// One thread's search; every prover of one solve shares the table and the control.
pub struct Prover<'a, G: Game> {
    table: &'a ProofTable,
    control: &'a Control<'a>,
    tick: Option<&'a (dyn Fn() + Sync)>,
    /// Whether other threads share the table (their decisions are read back each step).
    shared: bool,
    plies: Vec<Ply<G>>,
    unflushed: u64,
    /// Set once the search must end: every call returns at once.
    stopped: bool,
    #[cfg(debug_assertions)]
    path: Vec<(u64, u64)>,
}

impl<'a, G: Game> Prover<'a, G> {
    pub fn new(
        table: &'a ProofTable,
        control: &'a Control<'a>,
        shared: bool,
        tick: Option<&'a (dyn Fn() + Sync)>,
    ) -> Self {
        Prover {
            table,
            control,
            tick,
            shared,
            plies: Vec::new(),
            unflushed: 0,
            stopped: false,
            #[cfg(debug_assertions)]
            path: Vec::new(),
        }
    }

    /// The numbers of "at least `target`?" known now: the table's, or the evaluation's.
    pub fn known(&self, position: &G, target: i32) -> (u32, u32) {
        let key = question_key(position.key(), target);
        self.table
            .probe(key)
            .map_or_else(|| evaluate(position, target), |n| (n.proof, n.disproof))
    }

    /// Answers "is the value of `position` for its side to move at least `target`?", or `None`
    /// once the solve is stopped (or, with several threads, another thread answered it).
    pub fn prove(&mut self, position: &G, target: i32) -> Option<bool> {
        self.stopped = false;
        let numbers = self.known(position, target);
        if let Some(yes) = answer(numbers) {
            return Some(yes);
        }
        let key = question_key(position.key(), target);
        let numbers = self.mid(position, target, key, (INFINITE, INFINITE), 0);
        self.flush();
        answer(numbers).or_else(|| answer(self.known(position, target)))
    }

    /// Adds the nodes searched since the last flush to the shared count and looks at the stop
    /// flags.
    pub fn flush(&mut self) {
        self.control
            .nodes
            .fetch_add(self.unflushed, Ordering::Relaxed);
        self.unflushed = 0;
        if self.control.check_stop() || self.control.probe_done.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        if let Some(tick) = self.tick {
            tick();
        }
    }

    /// The multiple-iterative-deepening step: searches `position` until its proof number
    /// reaches `threshold.0` or its disproof number `threshold.1` (or it is decided), and
    /// returns its numbers.
    fn mid(
        &mut self,
        position: &G,
        target: i32,
        key: (u64, u64),
        threshold: (u32, u32),
        depth: usize,
    ) -> (u32, u32) {
        self.unflushed += 1;
        if self.unflushed >= FLUSH_EVERY {
            self.flush();
        }
        if self.stopped {
            return self.known(position, target);
        }
        if self.plies.len() <= depth {
            self.plies.resize_with(depth + 1, Ply::default);
        }
        let mut ply = std::mem::take(&mut self.plies[depth]);
        let before = self.control.nodes.load(Ordering::Relaxed) + self.unflushed;
        let entry = self.table.probe(key);
        // A position met for the first time is first judged without search (its children were
        // given only the game's initial numbers: judging each of them at its parent's expansion
        // would cost far more, most are never visited).
        if entry.is_none() {
            let numbers = evaluate(position, target);
            if answer(numbers).is_some() {
                self.store(key, numbers, None, 0);
                self.plies[depth] = ply;
                return numbers;
            }
        }
        let table_move = entry.and_then(|n| n.mv);
        let numbers = self.expand(position, target, &mut ply, table_move);
        let (numbers, best) = match numbers {
            Some(decided) => (decided, None),
            None => self.descend(key, threshold, depth, &mut ply),
        };
        let spent = self.control.nodes.load(Ordering::Relaxed) + self.unflushed - before;
        let work = 64 - spent.leading_zeros();
        let mv = best.map(|i: usize| G::encode(ply.children[i].mv));
        self.store(key, numbers, mv, work);
        self.plies[depth] = ply;
        numbers
    }

    fn store(&self, key: (u64, u64), (proof, disproof): (u32, u32), mv: Option<u32>, work: u32) {
        self.table.store(
            key,
            Numbers {
                proof,
                disproof,
                mv,
            },
            work,
        );
    }

    /// Makes the children of `position` with their known numbers, best-looking first (the
    /// table's move, then the game's move order). Returns the numbers when the position is
    /// decided without search: a finished game, or a child that proves it.
    fn expand(
        &mut self,
        position: &G,
        target: i32,
        ply: &mut Ply<G>,
        table_move: Option<u32>,
    ) -> Option<(u32, u32)> {
        position.generate(&mut ply.buffer);
        let moves = G::moves(&mut ply.buffer);
        if moves.is_empty() {
            return Some(decided(position.terminal_value() >= target));
        }
        ply.children.clear();
        let table_move = table_move.map(G::decode);
        ply.order.clear();
        ply.order.extend(moves.iter().enumerate().map(|(i, &mv)| {
            let first = Some(mv) == table_move;
            let score = if first {
                i32::MAX
            } else {
                position.move_score(mv)
            };
            (score, i)
        }));
        ply.order
            .sort_by_key(|&(score, _)| std::cmp::Reverse(score));
        // First every child and its table entry's address, the loads started for all of them,
        // then the entries read: the table is far larger than the caches, and waiting for each
        // load in turn was most of a node's time.
        for &(_, i) in &ply.order {
            let mv = moves[i];
            let mut child = *position;
            child.play(mv);
            let keeps = position.keeps_turn(mv);
            let child_target = child_target(keeps, target);
            let key = question_key(child.key(), child_target);
            #[cfg(debug_assertions)]
            debug_assert!(
                !self.path.contains(&child.key()),
                "a position repeated on the search path: the game must be acyclic"
            );
            self.table.prefetch(key);
            ply.children.push(Child {
                position: child,
                mv,
                keeps,
                target: child_target,
                key,
                numbers: (1, 1),
            });
        }
        for i in 0..ply.children.len() {
            let child = &mut ply.children[i];
            child.numbers = self.table.probe(child.key).map_or_else(
                || initial(&child.position, child.target),
                |n| (n.proof, n.disproof),
            );
            if for_parent(child.keeps, child.numbers).0 == 0 {
                // One child proving the parent is enough: put it first for the table's move.
                ply.children.swap(0, i);
                return None;
            }
        }
        None
    }

    /// The loop of one node: goes into its most proving child until the node's numbers reach
    /// the thresholds. Returns the numbers and the child it went into last.
    fn descend(
        &mut self,
        key: (u64, u64),
        threshold: (u32, u32),
        depth: usize,
        ply: &mut Ply<G>,
    ) -> ((u32, u32), Option<usize>) {
        let busy = self.control.busy.as_ref();
        if let Some(busy) = busy {
            busy.enter(key);
        }
        let mut last = None;
        let numbers = loop {
            if self.shared {
                for child in ply.children.iter_mut() {
                    if let Some(n) = self.table.probe(child.key) {
                        child.numbers = (n.proof, n.disproof);
                    }
                }
            }
            let mut proof = INFINITE;
            let mut disproof: u64 = 0;
            let mut best = 0;
            let mut second = INFINITE;
            for (i, child) in ply.children.iter().enumerate() {
                let (p, d) = for_parent(child.keeps, child.numbers);
                disproof = if d == INFINITE || disproof == INFINITE as u64 {
                    INFINITE as u64
                } else {
                    (disproof + d as u64).min(INFINITE as u64 - 1)
                };
                if p < proof {
                    second = proof;
                    proof = p;
                    best = i;
                } else if p < second {
                    second = p;
                }
            }
            let disproof = disproof as u32;
            if proof == 0 {
                last = Some(best);
            }
            if proof >= threshold.0 || disproof >= threshold.1 || self.stopped {
                break (proof, disproof);
            }
            // With other threads, a child another thread is in gives way to the next best one
            // still under the threshold (only the order changes, never a number).
            let mut proof_threshold = threshold.0.min(widened(second));
            if let Some(busy) = busy
                && busy.is_busy(ply.children[best].key)
                && let Some((i, p)) = ply
                    .children
                    .iter()
                    .enumerate()
                    .map(|(i, c)| (i, for_parent(c.keeps, c.numbers).0))
                    .filter(|&(i, p)| {
                        i != best && p < threshold.0 && !busy.is_busy(ply.children[i].key)
                    })
                    .min_by_key(|&(_, p)| p)
            {
                best = i;
                proof_threshold = threshold.0.min(widened(p));
            }
            let child = &ply.children[best];
            let (_, d) = for_parent(child.keeps, child.numbers);
            let disproof_threshold = if threshold.1 == INFINITE {
                INFINITE
            } else {
                (threshold.1 as u64 - disproof as u64 + d as u64).min(INFINITE as u64) as u32
            };
            let own = for_parent(child.keeps, (proof_threshold, disproof_threshold));
            let (position, target, child_key) = (child.position, child.target, child.key);
            #[cfg(debug_assertions)]
            self.path.push(position.key());
            let numbers = self.mid(&position, target, child_key, own, depth + 1);
            #[cfg(debug_assertions)]
            self.path.pop();
            ply.children[best].numbers = numbers;
            last = Some(best);
        };
        if let Some(busy) = busy {
            busy.leave(key);
        }
        (numbers, last)
    }
}
