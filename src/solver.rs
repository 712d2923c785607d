//! Stand-in solver (plain negamax), replaced by the real search.
//!
//! Exact values of positions: the final difference of unplaced squares under best play by both
//! sides, from the side to move's view. This file only fixes the public API
//! ([`SolveOptions`], [`solve`], [`Solution`]) with a simple, correct fail-soft alpha-beta
//! negamax (no transposition table, one thread), so that the command line and the tests can be
//! built now; the real search replaces it wholesale.

use crate::moves::{Move, MoveList};
use crate::player::Player;
use crate::position::Position;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The largest possible value: every square of the opponent unplaced, none of one's own.
const MAX_VALUE: i32 = crate::piece::SQUARES_PER_PLAYER as i32;

/// How to solve.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Worker threads; 0 = all cores.
    pub threads: usize,
    /// Transposition table memory in MiB.
    pub tt_mb: usize,
    /// Only win/draw/loss: values -1, 0, +1.
    pub wdl: bool,
    /// Stop after this long (the solution then holds what was proven).
    pub time_limit: Option<Duration>,
    /// Set (for example by Ctrl-C) to stop the search.
    pub stop: Arc<AtomicBool>,
    /// Also compute the exact value of every root move.
    pub root_values: bool,
}

impl Default for SolveOptions {
    fn default() -> SolveOptions {
        SolveOptions {
            threads: 0,
            tt_mb: 256,
            wdl: false,
            time_limit: None,
            stop: Arc::new(AtomicBool::new(false)),
            root_values: true,
        }
    }
}

/// Reported now and then while solving.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    pub nodes: u64,
    pub elapsed: Duration,
    /// Current proven bounds of the root value.
    pub lower: i32,
    pub upper: i32,
}

/// A root move with its proven value bounds (equal when exact).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootMove {
    pub mv: Move,
    pub lower: i32,
    pub upper: i32,
}

/// Search statistics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub nodes: u64,
    pub tt_probes: u64,
    pub tt_hits: u64,
    pub elapsed: Duration,
    pub threads: usize,
    pub tt_bytes: usize,
}

/// The result of [`solve`]. Values are from the side to move's view: the opponent's final
/// unplaced squares minus one's own, so +3 means the side to move wins by 3.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Proven bounds of the value; exact when equal.
    pub lower: i32,
    pub upper: i32,
    /// False when stopped by the time limit or the stop flag.
    pub complete: bool,
    /// A legal line from the root to the end of the game reaching the value.
    pub best_line: Vec<Move>,
    /// The root moves, best first.
    pub root_moves: Vec<RootMove>,
    pub stats: Stats,
}

impl Solution {
    /// Whether the value is proven exactly.
    pub fn is_exact(&self) -> bool {
        self.lower == self.upper
    }
}

/// Solves `position`, calling `progress` now and then.
pub fn solve(
    position: &Position,
    options: &SolveOptions,
    progress: &(dyn Fn(&Progress) + Sync),
) -> Solution {
    let start = Instant::now();
    let mut search = Search {
        nodes: 0,
        start,
        deadline: options.time_limit.map(|limit| start + limit),
        stop: &options.stop,
        wdl: options.wdl,
        progress,
        last_report: start,
        stopped: false,
        lower: -bound(options.wdl),
        upper: bound(options.wdl),
        children: Vec::new(),
        list: MoveList::new(),
    };
    let outcome = search.root(position, options.root_values);
    let stats = Stats {
        nodes: search.nodes,
        tt_probes: 0,
        tt_hits: 0,
        elapsed: start.elapsed(),
        threads: 1,
        tt_bytes: 0,
    };
    match outcome {
        Some((value, best_line, root_moves)) => Solution {
            lower: value,
            upper: value,
            complete: true,
            best_line,
            root_moves,
            stats,
        },
        None => Solution {
            lower: -bound(options.wdl),
            upper: bound(options.wdl),
            complete: false,
            best_line: Vec::new(),
            root_moves: Vec::new(),
            stats,
        },
    }
}

fn bound(wdl: bool) -> i32 {
    if wdl { 1 } else { MAX_VALUE }
}

/// The value of a finished game for the side to move.
fn terminal_value(position: &Position, wdl: bool) -> i32 {
    let me = position.to_move();
    let value =
        position.unplaced_squares(me.opponent()) as i32 - position.unplaced_squares(me) as i32;
    if wdl { value.signum() } else { value }
}

/// The difference of unplaced squares now, from `player`'s view: a cheap move-ordering score.
fn material(position: &Position, player: Player) -> i32 {
    position.unplaced_squares(player.opponent()) as i32 - position.unplaced_squares(player) as i32
}

struct Search<'a> {
    nodes: u64,
    start: Instant,
    deadline: Option<Instant>,
    stop: &'a AtomicBool,
    wdl: bool,
    progress: &'a (dyn Fn(&Progress) + Sync),
    last_report: Instant,
    stopped: bool,
    lower: i32,
    upper: i32,
    /// Children of each ply, reused.
    children: Vec<Vec<(i32, Move, Position)>>,
    list: MoveList,
}

type RootOutcome = (i32, Vec<Move>, Vec<RootMove>);

impl Search<'_> {
    /// The legal moves of `position` with the positions they lead to, most promising first
    /// (the mover's immediate gain in unplaced squares: captures and large buildings).
    fn expand(&mut self, position: &Position) -> Vec<(i32, Move, Position)> {
        position.legal_moves(&mut self.list);
        let mover = position.to_move();
        let mut children = self.children.pop().unwrap_or_default();
        children.clear();
        for &mv in &self.list {
            let mut child = *position;
            child.play(mv);
            children.push((material(&child, mover), mv, child));
        }
        children.sort_by_key(|c| std::cmp::Reverse(c.0));
        children
    }

    fn check(&mut self) {
        if self.nodes & 0x3FF != 0 {
            return;
        }
        let now = Instant::now();
        if self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| now >= d) {
            self.stopped = true;
        }
        if now.duration_since(self.last_report) >= Duration::from_millis(100) {
            self.last_report = now;
            (self.progress)(&Progress {
                nodes: self.nodes,
                elapsed: now.duration_since(self.start),
                lower: self.lower,
                upper: self.upper,
            });
        }
    }

    /// Fail-soft alpha-beta; meaningless once `stopped`.
    fn negamax(&mut self, position: &Position, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        self.check();
        if self.stopped {
            return 0;
        }
        let children = self.expand(position);
        if children.is_empty() {
            self.children.push(children);
            return terminal_value(position, self.wdl);
        }
        // Every value is within the bounds, so `best` is always replaced by a real value.
        let mut best = -bound(self.wdl) - 1;
        for (_, _, child) in &children {
            let value = -self.negamax(child, -beta, -alpha);
            if self.stopped {
                best = 0;
                break;
            }
            best = best.max(value);
            alpha = alpha.max(value);
            if alpha >= beta {
                break;
            }
        }
        self.children.push(children);
        best
    }

    /// The root value, the best line and the root moves; `None` when stopped.
    fn root(&mut self, position: &Position, root_values: bool) -> Option<RootOutcome> {
        self.nodes += 1;
        let now = Instant::now();
        if self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| now >= d) {
            return None;
        }
        let children = self.expand(position);
        if children.is_empty() {
            return Some((terminal_value(position, self.wdl), Vec::new(), Vec::new()));
        }
        let max = bound(self.wdl);
        let mut root_moves = Vec::with_capacity(children.len());
        let mut best = -max;
        for (_, mv, child) in &children {
            // Exact values need the full window; otherwise only the best needs to be exact.
            let alpha = if root_values { -max } else { best };
            let value = -self.negamax(child, -max, -alpha);
            if self.stopped {
                return None;
            }
            let (lower, upper) = if root_values || value > best {
                (value, value)
            } else {
                (-max, value)
            };
            root_moves.push(RootMove {
                mv: *mv,
                lower,
                upper,
            });
            best = best.max(value);
            self.lower = best;
        }
        root_moves.sort_by_key(|r| std::cmp::Reverse((r.lower, r.upper)));
        let best_move = root_moves[0];
        let mut line = vec![best_move.mv];
        let mut current = *position;
        current.play(best_move.mv);
        let mut target = -best;
        // Follow moves that keep the value: a null-ish window around the target proves it.
        while !self.stopped {
            let children = self.expand(&current);
            let mut next = None;
            for (_, mv, child) in &children {
                let value = -self.negamax(child, -(target + 1), -(target - 1));
                if value == target {
                    next = Some((*mv, *child));
                    break;
                }
            }
            self.children.push(children);
            let Some((mv, child)) = next else { break };
            line.push(mv);
            current = child;
            target = -target;
        }
        if self.stopped {
            return None;
        }
        Some((best, line, root_moves))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn a_finished_game_is_its_score() {
        // Play a policy game to its end, then solve the last few plies.
        let mut rng = crate::policy::Rng::new(5);
        let game = crate::policy::play_game(
            Position::new(Rules::CLASSIC),
            &crate::policy::Policy::default(),
            &mut rng,
            |_, _| false,
        );
        let last = *game.last().unwrap();
        let solution = solve(&last, &SolveOptions::default(), &|_| {});
        assert!(solution.complete && solution.is_exact());
        assert_eq!(solution.lower, terminal_value(&last, false));
        assert!(solution.best_line.is_empty());
        // Three plies before the end: the best line replays to the value.
        let position = game[game.len() - 4];
        let solution = solve(&position, &SolveOptions::default(), &|_| {});
        assert!(solution.is_exact());
        let mut replay = position;
        for &mv in &solution.best_line {
            replay.play(mv);
        }
        assert!(replay.is_game_over());
        let value = material(&replay, position.to_move());
        assert_eq!(value, solution.lower);
        assert_eq!(solution.root_moves[0].lower, solution.lower);
    }

    #[test]
    fn a_time_limit_stops_a_deep_search_cleanly() {
        let mut rng = crate::policy::Rng::new(1);
        let game = crate::policy::play_game(
            Position::new(Rules::CLASSIC),
            &crate::policy::Policy::default(),
            &mut rng,
            |_, ply| ply >= 8,
        );
        let options = SolveOptions {
            time_limit: Some(Duration::from_millis(30)),
            ..SolveOptions::default()
        };
        let solution = solve(game.last().unwrap(), &options, &|_| {});
        assert!(!solution.complete);
        assert!(!solution.is_exact());
        assert!(solution.stats.elapsed < Duration::from_secs(5));
    }

    #[test]
    fn a_set_stop_flag_gives_trivial_bounds() {
        let options = SolveOptions::default();
        options.stop.store(true, Ordering::Relaxed);
        let mut position = Position::new(Rules::CLASSIC);
        let mut list = MoveList::new();
        position.legal_moves(&mut list);
        position.play(list.as_slice()[0]);
        let mut search_position = position;
        search_position.legal_moves(&mut list);
        search_position.play(list.as_slice()[0]);
        let solution = solve(&search_position, &options, &|_| {});
        assert!(!solution.complete);
        assert_eq!((solution.lower, solution.upper), (-47, 47));
    }
}
