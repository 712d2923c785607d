//! The solver against a plain reference minimax (no pruning, no table) on random small endgames
//! under every rule variant, by both methods, with one and two threads and in win/draw/loss
//! mode; every best line is replayed, every root move checked, and stopped solves must return
//! bounds holding the value.

use cathedral::SQUARES_PER_PLAYER;
use cathedral::boardgame::Game;
use cathedral::boardgame::{Method, Solution, SolveOptions, solve};
use cathedral::internals::final_ranges;
use cathedral::internals::split_value;
use cathedral::{Move, MoveList, Player, Position, Rules, table};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// SplitMix64, so that every position is a pure function of its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The final score from `player`'s view.
fn score(position: &Position, player: Player) -> i32 {
    position.unplaced_squares(player.opponent()) as i32 - position.unplaced_squares(player) as i32
}

/// Plain negamax over the whole tree, or `None` once more than `budget` nodes are visited.
fn reference(position: &Position, budget: &mut u64) -> Option<i32> {
    if *budget == 0 {
        return None;
    }
    *budget -= 1;
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    if moves.is_empty() {
        return Some(score(position, position.to_move()));
    }
    let mut best = i32::MIN;
    for &mv in &moves {
        let mut child = *position;
        child.play(mv);
        best = best.max(-reference(&child, budget)?);
    }
    Some(best)
}

/// How often the proven bounds were checked, and how often technique 3 was exactly tight.
#[derive(Default)]
struct BoundStats {
    nodes: u64,
    /// A player's proven least final unplaced squares was positive and reached.
    least_tight: u64,
    /// A player's proven most final unplaced squares was reached below the trivial 47.
    most_tight: u64,
    /// Nodes where technique 4 (two private packing problems) gave the value without search.
    split: u64,
    /// Nodes where technique 5 (packing into one's locked territory) lowered what the side to
    /// move can force, and where the lower bound it gave was the value itself.
    packing_bites: u64,
    packing_tight: u64,
}

/// The reference minimax again, checking at every node that the game's bounds hold the value and
/// that each player's final unplaced squares under perfect play lie in technique 3's range.
/// Returns the value and the final unplaced squares (Light, Dark) of one perfect line.
fn reference_checking_bounds(position: &Position, stats: &mut BoundStats) -> (i32, [i32; 2]) {
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    let result = if moves.is_empty() {
        let finals = Player::BOTH.map(|p| position.unplaced_squares(p) as i32);
        (score(position, position.to_move()), finals)
    } else {
        let mut best = (i32::MIN, [0; 2]);
        for &mv in &moves {
            let mut child = *position;
            child.play(mv);
            let (v, finals) = reference_checking_bounds(&child, stats);
            if -v > best.0 {
                best = (-v, finals);
            }
        }
        best
    };
    let (value, finals) = result;
    let (lower, upper) = Game::bounds(position);
    assert!(
        lower <= value && value <= upper,
        "bounds [{lower}, {upper}] miss {value}: {position:?}"
    );
    // The bounds asked for a window are true bounds too, whatever the window.
    for (alpha, beta) in [
        (value - 1, value + 1),
        (value, value + 1),
        (value - 1, value),
        (lower - 1, upper + 1),
        (value - 3, value - 2),
        (value + 2, value + 3),
    ] {
        let (window_lower, window_upper) = Game::window_bounds(position, alpha, beta);
        assert!(
            window_lower <= value && value <= window_upper,
            "bounds [{window_lower}, {window_upper}] for the window ({alpha}, {beta}) miss {value}: {position:?}"
        );
    }
    stats.nodes += 1;
    if let Some(split) = split_value(position) {
        assert_eq!(split, value, "packing split is wrong: {position:?}");
        stats.split += 1;
    }
    if let Some(ranges) = final_ranges(position) {
        let mine = ranges[position.to_move().index()];
        if mine.can_force < mine.at_most {
            stats.packing_bites += 1;
            stats.packing_tight += u64::from(lower == value);
        }
        for player in Player::BOTH {
            let range = ranges[player.index()];
            let last = finals[player.index()];
            // Any line's final unplaced squares lie in the range, a perfect line's included.
            assert!(
                range.at_least <= last && last <= range.at_most,
                "{player:?} ends with {last}, outside {range:?}: {position:?}"
            );
            stats.least_tight += (range.at_least > 0 && range.at_least == last) as u64;
            stats.most_tight +=
                (range.at_most < SQUARES_PER_PLAYER as i32 && range.at_most == last) as u64;
        }
    }
    result
}

/// A playout move: uniform, or (with `big`) mostly among the largest pieces on offer.
fn pick(position: &Position, rng: &mut Rng, big: bool) -> Move {
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    let size = |mv: &Move| mv.placement().map_or(0, |id| table().get(id).piece.size());
    if big && rng.below(10) < 8 {
        let largest = moves.iter().map(size).max().unwrap_or(0);
        let top: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| size(m) == largest)
            .collect();
        return top[rng.below(top.len())];
    }
    moves.as_slice()[rng.below(moves.len())]
}

/// A random endgame: a playout to the end, then the earliest position from the end backwards
/// whose reference tree stays within `budget` nodes (few pieces and little space left). Returns
/// the position and its reference value.
fn endgame(rules: Rules, seed: u64, budget: u64) -> Option<(Position, i32)> {
    let mut rng = Rng(seed);
    let big = seed.is_multiple_of(2);
    let mut position = Position::new(rules);
    let mut history = vec![position];
    while !position.is_game_over() && history.len() < 200 {
        position.play(pick(&position, &mut rng, big));
        history.push(position);
    }
    // Walk back while the tree stays small; stop at a random point so depths vary.
    let stop_after = 1 + rng.below(20);
    let mut found = None;
    for (steps, candidate) in history.iter().rev().skip(1).enumerate() {
        let mut left = budget;
        match reference(candidate, &mut left) {
            Some(value) => found = Some((*candidate, value)),
            None => break,
        }
        if steps + 1 >= stop_after {
            break;
        }
    }
    found
}

fn options(threads: usize, wdl: bool) -> SolveOptions {
    SolveOptions {
        threads,
        tt_mb: 1,
        wdl,
        root_values: true,
        ..SolveOptions::default()
    }
}

/// Replays the best line: every move legal, the game over at the end, the final score the value.
fn check_line(position: &Position, solution: &Solution<Move>, wdl: bool) {
    let root = position.to_move();
    let mut at = *position;
    let mut moves = MoveList::new();
    for &mv in &solution.best_line {
        at.legal_moves(&mut moves);
        assert!(moves.contains(mv), "line move {mv:?} is illegal in {at:?}");
        at.play(mv);
    }
    assert!(at.is_game_over(), "the best line stops before the end");
    let final_score = score(&at, root);
    let expected = if wdl {
        final_score.signum()
    } else {
        final_score
    };
    assert_eq!(
        expected, solution.lower,
        "the best line does not reach the value"
    );
}

/// Each root move's value equals the reference value of its child, negated.
fn check_root_moves(position: &Position, solution: &Solution<Move>, wdl: bool) {
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    assert_eq!(solution.root_moves.len(), moves.len());
    for root_move in &solution.root_moves {
        assert!(moves.contains(root_move.mv));
        let mut child = *position;
        child.play(root_move.mv);
        let mut budget = u64::MAX;
        let v = -reference(&child, &mut budget).expect("no budget");
        let v = if wdl { v.signum() } else { v };
        assert_eq!(
            (root_move.lower, root_move.upper),
            (v, v),
            "root move {:?}",
            root_move.mv
        );
    }
    for pair in solution.root_moves.windows(2) {
        assert!(pair[0].lower >= pair[1].lower, "root moves not sorted");
    }
    if let Some(best) = solution.root_moves.first() {
        assert_eq!(best.lower, solution.lower);
    }
}

fn check_variant(variant: usize, count: u64) {
    let mut bound_stats = BoundStats::default();
    // Endgames whose root is already split: the solver answers them without search.
    let mut split_roots = 0;
    let rules = Rules::all()
        .nth(variant)
        .expect("a variant of `Rules::all`");
    let mut checked = 0;
    let mut seed = variant as u64 * 1_000_003;
    let mut nonzero = 0;
    while checked < count {
        seed += 1;
        let Some((position, value)) = endgame(rules, seed, 30_000) else {
            continue;
        };
        checked += 1;
        nonzero += (value != 0) as u32;
        let (checked_value, _) = reference_checking_bounds(&position, &mut bound_stats);
        assert_eq!(checked_value, value);
        split_roots += split_value(&position).is_some() as u64;
        // Both methods: alpha-beta three ways, proof-number search (docs/solver.md) exact on
        // one thread and win/draw/loss on two.
        for (threads, wdl, method) in [
            (1, false, Method::AlphaBeta),
            (2, false, Method::AlphaBeta),
            (1, true, Method::AlphaBeta),
            (1, false, Method::ProofNumbers),
            (2, true, Method::ProofNumbers),
        ] {
            let options = SolveOptions {
                method,
                ..options(threads, wdl)
            };
            let solution = solve(&position, &options, &|_| {});
            let expected = if wdl { value.signum() } else { value };
            assert!(solution.complete, "seed {seed}: incomplete");
            assert_eq!(
                (solution.lower, solution.upper),
                (expected, expected),
                "seed {seed}, rules {rules}, threads {threads}, wdl {wdl}, {method:?}: {position:?}"
            );
            check_line(&position, &solution, wdl);
            // Root moves too, with two threads as well (they are then split between threads).
            check_root_moves(&position, &solution, wdl);
        }
    }
    assert!(
        nonzero > 0,
        "every endgame was a draw: the test would prove little"
    );
    // Technique 4 must have given values, or the check above proves nothing.
    eprintln!(
        "variant {variant}: {} reference nodes, technique 4 at {} ({split_roots} roots), technique 3 tight at {} / {}",
        bound_stats.nodes, bound_stats.split, bound_stats.least_tight, bound_stats.most_tight
    );
    assert!(
        bound_stats.split > 0,
        "technique 4 never applied in {} nodes",
        bound_stats.nodes
    );
    // Technique 5 must give the exact value somewhere, so that packing one square more fails.
    eprintln!(
        "variant {variant}: technique 5 applied at {} nodes, its lower bound the value at {}",
        bound_stats.packing_bites, bound_stats.packing_tight
    );
    assert!(
        bound_stats.packing_tight > 0,
        "technique 5 never tight: {} nodes, {} applied",
        bound_stats.nodes,
        bound_stats.packing_bites
    );
    // Technique 3's bounds must be reached exactly somewhere, so that an off-by-one tightening
    // either of them fails the checks above.
    assert!(
        bound_stats.least_tight > 0 && bound_stats.most_tight > 0,
        "technique 3 never tight: {} nodes, {} least, {} most",
        bound_stats.nodes,
        bound_stats.least_tight,
        bound_stats.most_tight
    );
}

// 8 variants x 130 endgames = 1,040 endgames, each solved five ways.
const PER_VARIANT: u64 = 130;

#[test]
fn exact_classic_variants() {
    for variant in 0..2 {
        check_variant(variant, PER_VARIANT);
    }
}

#[test]
fn exact_voluntary_pass_variants() {
    for variant in 2..4 {
        check_variant(variant, PER_VARIANT);
    }
}

#[test]
fn exact_optional_capture_variants() {
    for variant in 4..6 {
        check_variant(variant, PER_VARIANT);
    }
}

#[test]
fn exact_moore_variants() {
    for variant in 6..8 {
        check_variant(variant, PER_VARIANT);
    }
}

// The same eight under `claims: at-once` (variants 16 to 23 of `Rules::all`), where regions
// closed by a first move or a declined capture stay open: 8 x 40 endgames more.
const PER_AT_ONCE_VARIANT: u64 = 40;

#[test]
fn exact_at_once_variants_mandatory_capture() {
    for variant in 16..20 {
        check_variant(variant, PER_AT_ONCE_VARIANT);
    }
}

#[test]
fn exact_at_once_variants_optional_capture() {
    for variant in 20..24 {
        check_variant(variant, PER_AT_ONCE_VARIANT);
    }
}

/// A position large enough that a stopped solve cannot have finished.
fn larger_endgame() -> (Position, i32) {
    let rules = Rules::CLASSIC;
    (1..)
        .find_map(|seed| endgame(rules, seed * 7919, 200_000).filter(|(p, _)| p.count_moves() > 3))
        .expect("some endgame")
}

#[test]
fn stopped_solves_return_true_bounds() {
    let (position, value) = larger_endgame();
    // A pre-set stop flag.
    let stopped = SolveOptions {
        stop: Arc::new(AtomicBool::new(true)),
        ..options(1, false)
    };
    let solution = solve(&position, &stopped, &|_| {});
    assert!(!solution.complete);
    assert!(solution.lower <= value && value <= solution.upper);
    assert!(solution.best_line.is_empty() || solution.is_exact());
    for m in &solution.root_moves {
        assert!(m.lower <= m.upper);
    }
    // Tiny time limits, single and two threads, exact and wdl.
    for micros in [1, 50, 200, 1000] {
        for (threads, wdl) in [(1, false), (2, false), (1, true)] {
            let timed = SolveOptions {
                time_limit: Some(Duration::from_micros(micros)),
                ..options(threads, wdl)
            };
            let solution = solve(&position, &timed, &|_| {});
            let v = if wdl { value.signum() } else { value };
            assert!(
                solution.lower <= v && v <= solution.upper,
                "{micros} µs: [{}, {}] misses {v}",
                solution.lower,
                solution.upper
            );
            if solution.is_exact() && !solution.best_line.is_empty() {
                check_line(&position, &solution, wdl);
            }
        }
    }
}

#[test]
fn values_stay_within_the_score_range() {
    let (position, _) = larger_endgame();
    let solution = solve(&position, &options(1, false), &|_| {});
    let max = SQUARES_PER_PLAYER as i32;
    assert!(solution.is_exact());
    assert!((-max..=max).contains(&solution.lower));
    check_line(&position, &solution, false);
}

/// A solve with a window decides the value against it exactly as the full solve's value says:
/// at most alpha, at least beta, or the exact value between, on every bench position of tiers
/// t3 and t5 and windows all around their values.
#[test]
fn windowed_solves_decide_the_value_against_the_window() {
    let mut checked = 0;
    for tier in ["t3", "t5"] {
        for n in 1..=10 {
            let path = format!("puzzles/bench/{tier}-{n:02}.yaml");
            let position = cathedral::file::load(std::path::Path::new(&path))
                .unwrap_or_else(|e| panic!("{e}"))
                .position;
            let options = SolveOptions {
                threads: 1,
                tt_mb: 16,
                root_values: false,
                ..SolveOptions::default()
            };
            let value = solve(&position, &options, &|_| {})
                .value()
                .expect("no limit");
            for (alpha, beta) in [
                (value - 3, value - 1),
                (value - 1, value),
                (value - 1, value + 1),
                (value, value + 1),
                (value + 1, value + 4),
                (-60, 60),
            ] {
                let windowed = solve(
                    &position,
                    &SolveOptions {
                        window: Some((alpha, beta)),
                        ..options.clone()
                    },
                    &|_| {},
                );
                let what = format!("{path}, value {value}, window ({alpha}, {beta})");
                assert!(windowed.complete, "{what}");
                assert!(windowed.lower <= value && value <= windowed.upper, "{what}");
                if value <= alpha {
                    assert!(windowed.upper <= alpha, "{what}");
                } else if value >= beta {
                    assert!(windowed.lower >= beta, "{what}");
                } else {
                    assert_eq!(windowed.value(), Some(value), "{what}");
                    assert!(!windowed.best_line.is_empty(), "{what}");
                }
                assert!(windowed.root_moves.iter().all(|m| m.lower <= m.upper));
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 120);
}

/// A solve cut during its root moves (here by a node budget just above what the value and its
/// line need) still reports the proven value, the best move and its line, and that move's own
/// value (issue 47: an interrupted `solve --json` once gave the value with no best move).
#[test]
fn a_solve_cut_after_its_value_keeps_the_best_move_and_line() {
    let file = cathedral::file::load(std::path::Path::new("puzzles/bench/t8-01.yaml")).unwrap();
    let position = file.position;
    let value_only = solve(
        &position,
        &SolveOptions {
            root_values: false,
            threads: 1,
            ..SolveOptions::default()
        },
        &|_| {},
    );
    assert!(value_only.complete && !value_only.best_line.is_empty());
    let cut = solve(
        &position,
        &SolveOptions {
            max_nodes: Some(value_only.stats.nodes + 1000),
            threads: 1,
            ..SolveOptions::default()
        },
        &|_| {},
    );
    assert!(!cut.complete, "the root moves take more than the budget");
    assert_eq!((cut.lower, cut.upper), (value_only.lower, value_only.upper));
    let best = *cut.best_line.first().expect("a best move");
    let mut replay = position;
    for &mv in &cut.best_line {
        let mut moves = MoveList::new();
        replay.legal_moves(&mut moves);
        assert!(moves.as_slice().contains(&mv), "the line replays");
        replay.play(mv);
    }
    let root = cut.root_moves.iter().find(|m| m.mv == best).unwrap();
    assert_eq!((root.lower, root.upper), (cut.lower, cut.lower));
}
