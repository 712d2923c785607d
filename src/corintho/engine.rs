//! A simple engine for any number of players: a paranoid search (every other player is assumed
//! to play against the side to move), depth-limited, with no estimate beyond the horizon but
//! the number of rows each side could still make. Estimating, not exact.

use super::board::LINES;
use super::moves::CorinthoMove;
use super::position::{CorinthoPosition, Outcome};
use crate::boardgame::Instant;
use std::sync::atomic::{AtomicBool, Ordering};

/// The moves a Corintho engine on a clock shares the time left over: games of two run to a few
/// dozen plies.
pub const CLOCK_MOVES: u32 = 20;

/// The paranoid engine's depth at a level (1 to 10): 1 + level / 3, so 4 at level 10.
pub fn engine_depth(level: u8) -> u32 {
    1 + u32::from(level.clamp(1, 10)) / 3
}

/// A won or lost position's value, from the searching player's view.
const WIN: i32 = 10_000;

/// The move the engine plays and its estimated value (from the mover's view: above `9000`, a
/// forced win found; below `-9000`, a loss).
///
/// ```
/// use cathedral::corintho::{CorinthoMove, CorinthoPosition, CorinthoRules};
/// use cathedral::corintho::engine::best_move;
/// let mut position = CorinthoPosition::new(CorinthoRules::for_players(3).unwrap());
/// for mv in ["C@b1", "K@a4", "B@d4", "C@c2"] {
///     position.play(CorinthoMove::parse(mv).unwrap());
/// }
/// // The second player must stop the column row b1 c2 d3.
/// let (mv, _) = best_move(&position, 2).unwrap();
/// assert!(matches!(mv, CorinthoMove::Place { .. }));
/// ```
pub fn best_move(position: &CorinthoPosition, depth: u32) -> Option<(CorinthoMove, i32)> {
    let me = position.to_move();
    let moves = position.legal_moves();
    let mut best: Option<(CorinthoMove, i32)> = None;
    let mut alpha = -WIN - 1000;
    for mv in moves {
        let mut child = *position;
        child.play(mv);
        let value = paranoid(&child, me, depth.saturating_sub(1), alpha, WIN + 1000);
        if best.is_none_or(|(_, v)| value > v) {
            best = Some((mv, value));
            alpha = alpha.max(value);
        }
    }
    best
}

/// What [`search`] found: the move and its value at the deepest depth it finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Searched {
    /// The move and its value (as [`best_move`] gives them); `None` when the game is over.
    pub best: Option<(CorinthoMove, i32)>,
    /// The deepest depth finished (0 when not even depth 1 was).
    pub depth: u32,
    /// Positions searched, the unfinished depth's included.
    pub nodes: u64,
}

/// Where a search must stop.
struct Limits<'a> {
    nodes: Option<u64>,
    deadline: Option<Instant>,
    stop: &'a AtomicBool,
    counted: u64,
    out: bool,
}

impl Limits<'_> {
    /// Counts a node; whether the budget is spent (checked every 1,024 nodes for the clock).
    fn spent(&mut self) -> bool {
        self.counted += 1;
        if self.out {
            return true;
        }
        let over_nodes = self.nodes.is_some_and(|n| self.counted > n);
        let checked = self.counted.is_multiple_of(1024);
        let over_time = checked && self.deadline.is_some_and(|d| Instant::now() >= d);
        let stopped = checked && self.stop.load(Ordering::Relaxed);
        self.out = over_nodes || over_time || stopped;
        self.out
    }
}

/// [`best_move`] deepened one ply at a time up to `max_depth`, within at most `nodes` positions
/// and until `deadline`, or until `stop` is set: the move of the deepest depth finished (depth
/// 1 always finishes, so a move is always given while the game goes on). With a node budget and
/// no deadline the answer is the same on every machine.
///
/// ```
/// use cathedral::corintho::engine::{best_move, search};
/// use cathedral::corintho::{CorinthoPosition, CorinthoRules};
/// use std::sync::atomic::AtomicBool;
/// let start = CorinthoPosition::new(CorinthoRules::default());
/// let found = search(&start, 3, None, None, &AtomicBool::new(false));
/// assert_eq!((found.depth, found.best), (3, best_move(&start, 3)));
/// let cut = search(&start, 3, Some(100), None, &AtomicBool::new(false));
/// assert_eq!(cut.depth, 1); // depth 2 needs more than 100 positions
/// ```
pub fn search(
    position: &CorinthoPosition,
    max_depth: u32,
    nodes: Option<u64>,
    deadline: Option<Instant>,
    stop: &AtomicBool,
) -> Searched {
    let mut limits = Limits {
        nodes,
        deadline,
        stop,
        counted: 0,
        out: false,
    };
    let mut found = Searched {
        best: None,
        depth: 0,
        nodes: 0,
    };
    for depth in 1..=max_depth.max(1) {
        // Depth 1 is never cut: a move is always found.
        let cut = depth > 1;
        let me = position.to_move();
        let mut best: Option<(CorinthoMove, i32)> = None;
        let mut alpha = -WIN - 1000;
        for mv in position.legal_moves() {
            let mut child = *position;
            child.play(mv);
            let value = paranoid_within(&child, me, depth - 1, alpha, WIN + 1000, &mut limits, cut);
            if cut && limits.out {
                break;
            }
            if best.is_none_or(|(_, v)| value > v) {
                best = Some((mv, value));
                alpha = alpha.max(value);
            }
        }
        if cut && limits.out {
            break;
        }
        found.best = best;
        found.depth = depth;
        if best.is_none_or(|(_, v)| v.abs() > 9000) {
            // The game is over, or a forced result is found: deeper cannot change it.
            break;
        }
    }
    found.nodes = limits.counted;
    found
}

/// [`paranoid`] counting nodes against `limits`; when `cut` and the budget is spent, returns at
/// once with a meaningless value (the caller throws the depth away).
fn paranoid_within(
    position: &CorinthoPosition,
    me: u8,
    depth: u32,
    mut alpha: i32,
    mut beta: i32,
    limits: &mut Limits,
    cut: bool,
) -> i32 {
    if limits.spent() && cut {
        return 0;
    }
    match position.outcome() {
        Outcome::Won(p) if p == me => return WIN + depth as i32,
        Outcome::Won(_) => return -WIN - depth as i32,
        Outcome::Drawn => return 0,
        Outcome::Ongoing => {}
    }
    if depth == 0 {
        return estimate(position, me);
    }
    let maximising = position.to_move() == me;
    for mv in position.legal_moves() {
        let mut child = *position;
        child.play(mv);
        let value = paranoid_within(&child, me, depth - 1, alpha, beta, limits, cut);
        if cut && limits.out {
            return 0;
        }
        if maximising {
            alpha = alpha.max(value);
        } else {
            beta = beta.min(value);
        }
        if alpha >= beta {
            break;
        }
    }
    if maximising { alpha } else { beta }
}

/// The value of `position` for player `me` (whoever is to move there) by the same search as
/// [`best_move`], `depth` plies deep: what `best_move` one ply up gives the move that leads here.
pub fn value_for(position: &CorinthoPosition, me: u8, depth: u32) -> i32 {
    paranoid(position, me, depth, -WIN - 1000, WIN + 1000)
}

/// The paranoid value of `position` for `me`, `depth` plies deep, with no budget.
fn paranoid(position: &CorinthoPosition, me: u8, depth: u32, alpha: i32, beta: i32) -> i32 {
    let never = AtomicBool::new(false);
    let mut unlimited = Limits {
        nodes: None,
        deadline: None,
        stop: &never,
        counted: 0,
        out: false,
    };
    paranoid_within(position, me, depth, alpha, beta, &mut unlimited, false)
}

/// Lines with two identically topped stacks and an empty third platform: threats for
/// whoever moves next. Counted for the searching player when it is to move, against it
/// otherwise.
#[expect(
    clippy::expect_used,
    reason = "every line of LINES names squares 0..16"
)]
fn estimate(position: &CorinthoPosition, me: u8) -> i32 {
    let board = position.board();
    let mut threats = 0;
    for line in LINES {
        let stacks =
            line.map(|s| board.get(super::board::Square::new(s as usize).expect("square")));
        let empty = stacks.iter().filter(|s| s.is_empty()).count();
        if empty == 1 {
            let tops: Vec<_> = stacks.iter().filter_map(|s| s.top()).collect();
            if tops[0] == tops[1] {
                threats += 1;
            }
        }
    }
    if position.to_move() == me {
        threats
    } else {
        -threats
    }
}
