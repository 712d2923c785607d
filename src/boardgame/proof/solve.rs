//! The solver's proof-number method: the value of a position bracketed by "at least v?"
//! questions, every root move's value the same way, and a line that reaches the value, walked
//! along proven moves.

use super::ProofSearch;
use crate::boardgame::Game;
use crate::boardgame::instant::Instant;
use crate::boardgame::progress::{Progress, Tracker};
use crate::boardgame::solve::{RootMove, Solution, SolveOptions, Stats};

/// Proven bounds of `position`'s value, starting from its own bounds: the sign first ("at least
/// +1?", then if not "at least 0?"), then (unless `wdl`) the margin, by questions that double
/// their step away from the proven bound until an answer turns, then halve the interval left.
/// Stops early, with what is proven, when a question goes unanswered. `tick` sees the nodes of
/// every question so far, `on_bounds` every new pair of bounds.
fn bracket<G: Game>(
    search: &mut ProofSearch,
    position: &G,
    wdl: bool,
    tick: &(dyn Fn(u64) + Sync),
    on_bounds: &mut dyn FnMut(i32, i32),
) -> (i32, i32) {
    if position.is_over() {
        let value = position.terminal_value();
        return (value, value);
    }
    let (mut lower, mut upper) = position.bounds();
    let (mut step, mut bisecting) = (1, false);
    loop {
        on_bounds(lower, upper);
        if lower >= upper {
            break;
        }
        let sign_known = lower >= 1 || upper <= -1 || (lower, upper) == (0, 0);
        if wdl && sign_known {
            break;
        }
        let target = if lower <= 0 && upper >= 1 {
            1
        } else if lower <= -1 && upper >= 0 {
            0
        } else if bisecting {
            (lower + upper + 1) / 2
        } else if lower >= 1 {
            (lower + step).min(upper)
        } else {
            (upper - step + 1).max(lower + 1)
        };
        let done = search.nodes();
        let Some(yes) = search.ask(position, target, &|nodes| tick(done + nodes)) else {
            break;
        };
        if yes {
            lower = lower.max(target);
        } else {
            upper = upper.min(target - 1);
        }
        if sign_known && !bisecting {
            // Galloping on while the answers go the expected way (yes above 0, no below it).
            if yes == (lower < 1) {
                bisecting = true;
            } else {
                step *= 2;
            }
        }
    }
    (lower, upper)
}

/// [`crate::boardgame::solve`] by proof-number search ([`crate::boardgame::Method::ProofNumbers`]).
pub(crate) fn solve_by_proofs<G: Game>(
    position: &G,
    options: &SolveOptions,
    progress: &(dyn Fn(&Progress) + Sync),
) -> Solution<G::Move> {
    let start = Instant::now();
    let mut search = ProofSearch::new(options.threads, options.tt_mb)
        .with_stop(options.stop.clone())
        .with_time_limit(options.time_limit)
        .with_node_limit(options.max_nodes);
    let wdl = options.wdl;
    let tracker = Tracker::new(start, wdl, (G::MIN_VALUE, G::MAX_VALUE), progress);
    let shown = |v: i32| tracker.shown(v);
    let report = |nodes: u64| tracker.report(nodes);
    let (lower, upper) = bracket(&mut search, position, wdl, &report, &mut |lower, upper| {
        tracker.root_bounds(lower, upper);
    });
    let known = if wdl {
        (lower.signum() == upper.signum()).then_some(lower.signum())
    } else {
        (lower == upper).then_some(lower)
    };

    // The best line first: a solve stopped during the root moves still gives it.
    tracker.line();
    let best_line = known.map_or_else(Vec::new, |value| line(&mut search, position, value, wdl));

    let mut buffer = G::Buffer::default();
    position.generate(&mut buffer);
    let moves: Vec<G::Move> = G::moves(&mut buffer).to_vec();
    tracker.root_moves(moves.len());
    let root_values = options.root_values && options.window.is_none();
    let mut root_moves = Vec::with_capacity(moves.len());
    for &mv in &moves {
        let keeps = position.keeps_turn(mv);
        let mut child = *position;
        child.play(mv);
        let (lo, hi) = if root_values && !search.stopped() {
            bracket(&mut search, &child, wdl, &report, &mut |_, _| {})
        } else {
            child.bounds()
        };
        tracker.root_move_done();
        let (mut lo, mut hi) = if keeps { (lo, hi) } else { (-hi, -lo) };
        // No move is worth more than the root.
        hi = hi.min(upper);
        if let (Some(value), Some(&best)) = (known, best_line.first())
            && best == mv
        {
            (lo, hi) = if wdl {
                (lo.max(value), hi)
            } else {
                (value, value)
            };
        }
        root_moves.push(RootMove {
            mv,
            lower: shown(lo),
            upper: shown(hi.max(lo)),
        });
    }
    let first = best_line.first().copied();
    root_moves.sort_by_key(|m| std::cmp::Reverse((m.upper, m.lower, Some(m.mv) == first)));
    let complete = !search.stopped()
        && known.is_some()
        && root_moves
            .iter()
            .all(|m| m.lower == m.upper || !root_values);
    Solution {
        lower: shown(lower),
        upper: shown(upper),
        complete,
        best_so_far: first,
        best_line,
        root_moves,
        stats: Stats {
            nodes: search.nodes(),
            elapsed: start.elapsed(),
            threads: search.threads(),
            tt_bytes: search.table_bytes(),
            questions: search.questions(),
            ..Stats::default()
        },
    }
}

/// A line from `position` to the end of the game whose result is `value` (exact, or its sign
/// with `wdl`): at each position, a move proven to keep the value for the side to move.
/// Shorter (possibly empty) when stopped.
fn line<G: Game>(search: &mut ProofSearch, position: &G, value: i32, wdl: bool) -> Vec<G::Move> {
    let mut line = Vec::new();
    let mut position = *position;
    let mut value = value;
    loop {
        if position.is_over() || search.stopped() {
            return line;
        }
        // At least `value` for the mover: a move proven to keep it. (Every move keeps at most
        // `value`, the position's own value, so the one found keeps it exactly.) With `wdl`, a
        // win needs +1, a draw 0, and a lost position loses whatever it plays.
        let target = if wdl && value < 0 {
            G::MIN_VALUE
        } else {
            value
        };
        let Some(mv) = search.proving_move(&position, target) else {
            return line;
        };
        let keeps = position.keeps_turn(mv);
        line.push(mv);
        position.play(mv);
        value = if keeps { value } else { -value };
    }
}
