//! Proof-number search: binary questions about a position ("does the side to move win?",
//! "does it at least draw?", "is its value at least v?") answered by depth-first proof-number
//! search ([`search`]), which goes deep along forcing lines instead of wide. [`ProofSearch`]
//! asks questions one by one on one shared table; [`solve_by_proofs`] is the solver's second
//! method ([`crate::boardgame::Method::ProofNumbers`]): the value bracketed by such questions,
//! root moves and a best line. See `docs/solver.md`, "Proof-number search".

mod search;
mod solve;
mod table;

pub use search::child_target;
pub(crate) use solve::solve_by_proofs;

use super::Game;
use super::instant::Instant;
use super::search::negamax::Control;
use search::{Prover, answer};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use table::ProofTable;

/// Questions about positions of one game, answered by proof-number search on one table, so
/// that later questions reuse what earlier ones proved.
///
/// ```
/// use cathedral::boardgame::ProofSearch;
///
/// let file = cathedral::file::load(std::path::Path::new("puzzles/bench/t3-01.yaml"))?;
/// let mut search = ProofSearch::new(1, 16);
/// // The side to move wins by 5: it reaches +5 but not +6.
/// assert_eq!(search.at_least(&file.position, 5), Some(true));
/// assert_eq!(search.at_least(&file.position, 6), Some(false));
/// # Ok::<(), cathedral::file::FileError>(())
/// ```
pub struct ProofSearch {
    table: ProofTable,
    threads: usize,
    stop: Arc<AtomicBool>,
    deadline: Option<Instant>,
    node_limit: u64,
    nodes: u64,
    questions: u32,
}

impl ProofSearch {
    /// A search on `threads` threads (0: all cores) with a table of `tt_mb` MiB.
    pub fn new(threads: usize, tt_mb: usize) -> ProofSearch {
        let threads = crate::boardgame::thread_count(threads);
        ProofSearch {
            table: ProofTable::new(tt_mb),
            threads,
            stop: Arc::new(AtomicBool::new(false)),
            deadline: None,
            node_limit: u64::MAX,
            nodes: 0,
            questions: 0,
        }
    }

    /// Stops every question once `stop` is set.
    pub fn with_stop(mut self, stop: Arc<AtomicBool>) -> ProofSearch {
        self.stop = stop;
        self
    }

    /// Stops every question after `limit` from now.
    pub fn with_time_limit(mut self, limit: Option<Duration>) -> ProofSearch {
        self.deadline = limit.map(|d| Instant::now() + d);
        self
    }

    /// Stops every question once this many nodes are searched in all.
    pub fn with_node_limit(mut self, nodes: Option<u64>) -> ProofSearch {
        self.node_limit = nodes.unwrap_or(u64::MAX);
        self
    }

    /// Nodes searched by every question so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Questions asked so far (answered or not).
    pub fn questions(&self) -> u32 {
        self.questions
    }

    /// Threads each question runs on.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Bytes held by the table.
    pub fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// Whether the search was stopped (the flag, the time or the node limit).
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.nodes > self.node_limit
    }

    /// "Is the value of `position`, for its side to move, at least `target`?": `None` when
    /// stopped before the answer.
    pub fn at_least<G: Game>(&mut self, position: &G, target: i32) -> Option<bool> {
        self.ask(position, target, &|_| {})
    }

    /// [`ProofSearch::at_least`], with `tick` called now and then with the nodes searched so
    /// far by this question.
    pub fn ask<G: Game>(
        &mut self,
        position: &G,
        target: i32,
        tick: &(dyn Fn(u64) + Sync),
    ) -> Option<bool> {
        self.questions += 1;
        let threads = self.threads;
        let mut control = Control::new(&self.stop, self.deadline, threads);
        control.node_limit = self.node_limit.saturating_sub(self.nodes);
        let nodes_tick = || tick(control.nodes.load(Ordering::Relaxed));
        let result = if threads == 1 {
            Prover::new(&self.table, &control, false, Some(&nodes_tick)).prove(position, target)
        } else {
            // Every thread works on the same question on the shared table; the "being searched"
            // marks send them into different children. The first answer ends the others.
            let answers: Vec<Option<bool>> = std::thread::scope(|scope| {
                let handles: Vec<_> = (0..threads)
                    .map(|t| {
                        let (table, control) = (&self.table, &control);
                        let tick: Option<&(dyn Fn() + Sync)> = (t == 0).then_some(&nodes_tick as _);
                        scope.spawn(move || {
                            let found =
                                Prover::new(table, control, true, tick).prove(position, target);
                            if found.is_some() {
                                control.probe_done.store(true, Ordering::Relaxed);
                            }
                            found
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().ok().flatten())
                    .collect()
            });
            answers.into_iter().flatten().next()
        };
        self.nodes += control.nodes.load(Ordering::Relaxed);
        result.or_else(|| {
            answer(Prover::new(&self.table, &control, false, None).known(position, target))
        })
    }

    /// The answer to "at least `target`?" if the table or the game knows it now, without search.
    pub fn known<G: Game>(&self, position: &G, target: i32) -> Option<bool> {
        let control = Control::new(&self.stop, None, 1);
        answer(Prover::new(&self.table, &control, false, None).known(position, target))
    }

    /// A move of `position` that keeps "at least `target`" true for its side to move, when the
    /// answer is yes: the table's proof first, a search where the table lost it. `None` when
    /// the answer is no, or when stopped before one is found.
    pub fn proving_move<G: Game>(&mut self, position: &G, target: i32) -> Option<G::Move> {
        let mut buffer = G::Buffer::default();
        position.generate(&mut buffer);
        let moves: Vec<G::Move> = G::moves(&mut buffer).to_vec();
        let control = Control::new(&self.stop, None, 1);
        let prover: Prover<'_, G> = Prover::new(&self.table, &control, false, None);
        let proves = |mv: G::Move, answer: Option<bool>| {
            let keeps = position.keeps_turn(mv);
            answer.map(|yes| yes == keeps)
        };
        let children: Vec<(G::Move, G, i32)> = moves
            .iter()
            .map(|&mv| {
                let mut child = *position;
                child.play(mv);
                (mv, child, child_target(position.keeps_turn(mv), target))
            })
            .collect();
        // Cheap first: a child the table or the game already decides.
        if let Some(&(mv, _, _)) = children.iter().find(|(mv, child, t)| {
            proves(*mv, answer(prover.known(child, *t))) == Some(true) || {
                child.is_over() && proves(*mv, Some(child.terminal_value() >= *t)) == Some(true)
            }
        }) {
            return Some(mv);
        }
        for (mv, child, t) in children {
            let found = if child.is_over() {
                Some(child.terminal_value() >= t)
            } else {
                self.at_least(&child, t)
            };
            if proves(mv, found) == Some(true) {
                return Some(mv);
            }
            found?;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::boardgame::{Method, SolveOptions, from_child, solve};

    /// A random game with transpositions (a few positions per depth, reached from many
    /// parents), moves that keep the turn, early ends and values in -5..=5.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    struct Random {
        seed: u64,
        depth: u8,
        id: u64,
        /// 0 or 1: the side to move; leaf values are from side 0's view.
        side: u8,
    }

    const WIDTH: u64 = 6;

    fn mix(mut z: u64) -> u64 {
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    impl Random {
        fn hash(&self, salt: u64) -> u64 {
            mix(self.seed ^ mix(self.id ^ mix(u64::from(self.depth) ^ mix(salt))))
        }
        fn max_depth(&self) -> u8 {
            6 + (mix(self.seed) % 4) as u8
        }
    }

    impl Game for Random {
        type Move = u8;
        type Buffer = Vec<u8>;
        const MIN_VALUE: i32 = -5;
        const MAX_VALUE: i32 = 5;
        fn key(&self) -> (u64, u64) {
            let packed = self.id << 16 | u64::from(self.depth) << 8 | u64::from(self.side);
            (mix(packed ^ self.seed), mix(packed.rotate_left(7) ^ 0x1234))
        }
        fn generate(&self, buffer: &mut Vec<u8>) {
            buffer.clear();
            if self.depth < self.max_depth() && !self.hash(1).is_multiple_of(7) {
                buffer.extend(0..1 + (self.hash(2) % 4) as u8);
            }
        }
        fn moves(buffer: &mut Vec<u8>) -> &mut [u8] {
            buffer
        }
        fn play(&mut self, mv: u8) {
            let keeps = self.keeps_turn(mv);
            self.id = self.hash(10 + u64::from(mv)) % WIDTH;
            self.depth += 1;
            if !keeps {
                self.side ^= 1;
            }
        }
        fn keeps_turn(&self, mv: u8) -> bool {
            self.hash(20 + u64::from(mv)).is_multiple_of(5)
        }
        fn terminal_value(&self) -> i32 {
            let value = (self.hash(3) % 11) as i32 - 5;
            if self.side == 0 { value } else { -value }
        }
        fn proof_numbers(&self) -> (u32, u32) {
            // Any numbers must do: only the order changes.
            (1 + (self.hash(4) % 3) as u32, 1 + (self.hash(5) % 3) as u32)
        }
        fn encode(mv: u8) -> u32 {
            u32::from(mv)
        }
        fn decode(code: u32) -> u8 {
            code as u8
        }
    }

    fn minimax<G: Game>(position: &G) -> i32 {
        let mut buffer = G::Buffer::default();
        position.generate(&mut buffer);
        let moves = G::moves(&mut buffer).to_vec();
        if moves.is_empty() {
            return position.terminal_value();
        }
        moves
            .into_iter()
            .map(|mv| {
                let mut child = *position;
                child.play(mv);
                from_child(position.keeps_turn(mv), minimax(&child))
            })
            .max()
            .unwrap_or(i32::MIN)
    }

    fn start(seed: u64) -> Random {
        Random {
            seed,
            depth: 0,
            id: 0,
            side: 0,
        }
    }

    #[test]
    fn every_question_agrees_with_minimax_on_one_and_two_threads() {
        for seed in 0..150 {
            let root = start(seed);
            let value = minimax(&root);
            for threads in [1, 2] {
                // A tiny table on some seeds: entries are overwritten and found again.
                let mut search = ProofSearch::new(threads, if seed % 3 == 0 { 0 } else { 1 });
                for target in -6..=6 {
                    assert_eq!(
                        search.at_least(&root, target),
                        Some(value >= target),
                        "seed {seed}, {threads} threads, at least {target} (value {value})"
                    );
                }
            }
        }
    }

    #[test]
    fn the_proof_number_solve_gives_the_value_root_moves_and_a_line_reaching_it() {
        for seed in 0..80 {
            let root = start(seed);
            let value = minimax(&root);
            for (threads, wdl) in [(1, false), (2, false), (1, true)] {
                let options = SolveOptions {
                    threads,
                    tt_mb: 1,
                    wdl,
                    method: Method::ProofNumbers,
                    ..SolveOptions::default()
                };
                let solution = solve(&root, &options, &|_| {});
                let shown = if wdl { value.signum() } else { value };
                assert_eq!(solution.value(), Some(shown), "seed {seed}");
                assert!(solution.complete);
                // The line is legal and ends the game with the value (its sign with wdl).
                let mut end = root;
                let mut sign = 1;
                for &mv in &solution.best_line {
                    let mut buffer = Vec::new();
                    end.generate(&mut buffer);
                    assert!(buffer.contains(&mv));
                    if !end.keeps_turn(mv) {
                        sign = -sign;
                    }
                    end.play(mv);
                }
                assert!(
                    end.is_over(),
                    "seed {seed}: the line stops short: {:?} {:?} {:?} {value}",
                    solution.best_line,
                    solution.lower,
                    solution.root_moves
                );
                let reached = sign * end.terminal_value();
                assert_eq!(if wdl { reached.signum() } else { reached }, shown);
                // Every root move's value, against minimax.
                let mut buffer = Vec::new();
                root.generate(&mut buffer);
                assert_eq!(solution.root_moves.len(), buffer.len());
                for m in &solution.root_moves {
                    let mut child = root;
                    child.play(m.mv);
                    let v = from_child(root.keeps_turn(m.mv), minimax(&child));
                    let v = if wdl { v.signum() } else { v };
                    assert_eq!((m.lower, m.upper), (v, v), "seed {seed}, move {}", m.mv);
                }
                if !wdl {
                    let alpha_beta = solve(
                        &root,
                        &SolveOptions {
                            threads: 1,
                            tt_mb: 1,
                            ..SolveOptions::default()
                        },
                        &|_| {},
                    );
                    assert_eq!(alpha_beta.value(), solution.value());
                }
            }
        }
    }

    #[test]
    fn a_node_limit_stops_with_what_is_proven() {
        let root = start(3);
        let mut search = ProofSearch::new(1, 1).with_node_limit(Some(0));
        // Decided without search, or unanswered: never a wrong answer.
        let value = minimax(&root);
        for target in -5..=5 {
            if let Some(yes) = search.at_least(&root, target) {
                assert_eq!(yes, value >= target);
            }
        }
        assert!(search.stopped());
    }
}
