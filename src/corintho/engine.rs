//! A simple engine for any number of players: a paranoid search (every other player is assumed
//! to play against the side to move), depth-limited, with no estimate beyond the horizon but
//! the number of rows each side could still make. Estimating, not exact.

use super::board::LINES;
use super::moves::CorinthoMove;
use super::position::{CorinthoPosition, Outcome};

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

/// The value of `position` for player `me` (whoever is to move there) by the same search as
/// [`best_move`], `depth` plies deep: what `best_move` one ply up gives the move that leads here.
pub fn value_for(position: &CorinthoPosition, me: u8, depth: u32) -> i32 {
    paranoid(position, me, depth, -WIN - 1000, WIN + 1000)
}

fn paranoid(position: &CorinthoPosition, me: u8, depth: u32, mut alpha: i32, mut beta: i32) -> i32 {
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
        let value = paranoid(&child, me, depth - 1, alpha, beta);
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

/// Lines with two identically topped stacks and an empty third platform: threats for
/// whoever moves next. Counted for the searching player when it is to move, against it
/// otherwise.
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
