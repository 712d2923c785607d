//! Labels positions with exact values, for training the learned evaluation
//! (`examples/train_eval.rs`, `docs/engine.md`, "The learned evaluation").
//!
//! `cargo run --release --features tools --example eval_data -- OUT [games] [seed] [max-left] [max-nodes] [first-game] [min-left] [search-nodes] [search|playout] [policy|engine:NODES] [network:WEIGHTS[:BUILDINGS]]`
//!
//! Plays policy games `first-game..games` (the sampling policy, seeded like `cathedral sample`:
//! game `g` plays with `Rng::new(game_seed(seed, g))`), takes every position of each game with
//! at most `max-left` buildings in the larger hand that is not over, solves it exactly (one
//! thread per position, at most `max-nodes` nodes; positions over budget are left out) and
//! appends a line `game ply value key` to OUT for each: the game, the number of moves from its
//! start, the exact value for the side to move, and the position's Zobrist key in hex, by which
//! the trainer checks that replaying the game reaches the same position. Games are solved 64
//! at a time and written after each batch, so an interrupted run keeps what it found and goes on
//! with `first-game` set past the last game in OUT. OUT is never overwritten: lines are appended.
//!
//! Earlier in the game, where exact values cost minutes to hours, `search-nodes` above 0 labels
//! the positions with `min-left` to `max-left` buildings in the larger hand by the engine's
//! estimating search instead (the learned evaluation, `search-nodes` nodes, no solver): the
//! value, in hundredths of a square, is an estimate, and the header says so. Each generation of
//! the network so labels the data of the next (bootstrapping).
//!
//! With `playout` after `search-nodes`, such a position is labelled instead by where the
//! engine's own play leads: the engine (the network, `search-nodes` nodes a move, no solver)
//! plays both sides from it until the larger hand holds at most 7 buildings, and the exact
//! value there (solved within `max-nodes`; over budget, the position is left out), turned to
//! the labelled position's side to move, is the label. It knows the endgame exactly, where the
//! search's label only guesses it, at the price of the playout's own mistakes. The search's
//! estimate of the labelled position itself (the playout's first move) is appended to
//! `OUT.search` in the same form, so that the trainer can blend the two (as Stockfish's
//! trainer blends the evaluation and the game's result).
//!
//! With `engine:NODES` last, the games are the engine's own instead of the policy's: game `g`
//! opens with 2 to 6 moves of the sampling policy (how many, and which, drawn from the same
//! seed), then the engine at full strength plays both sides at `NODES` nodes a move (the
//! network, the exact solver taking over at the end, one thread: the same on every machine).
//! These are the positions the engine meets in its own play, closer and with more draws than
//! the policy's. Replaying them would mean searching again, so each game's moves are written
//! to OUT before its labels, on a line `# game g MOVE MOVE ...` that the trainer replays.
//!
//! With `network:WEIGHTS` last, the engine's searches (labels, playouts, engine games) evaluate
//! with that weights file instead of the committed network; `network:WEIGHTS:8` lets it judge
//! only up to 8 buildings in the larger hand (the linear features beyond), as a network trained
//! on exact values alone should. `examples/train_network.rs` runs the whole training with it.

use cathedral::boardgame::engine::SCALE;
use cathedral::boardgame::{Rng, SolveOptions, solve};
use cathedral::engine::eval::{Evaluation, NETWORK_BUILDINGS};
use cathedral::engine::network::Network;
use cathedral::engine::{PlayOptions, choose};
use cathedral::notation::format_move_with_player;
use cathedral::policy::{Policy, play_game};
use cathedral::sampler::{buildings_left, game_seed};
use cathedral::{Position, Rules};
use rayon::prelude::*;
use std::io::Write;
use std::sync::OnceLock;

/// The evaluation of every search this run makes (argument 11; the committed network by default).
static EVALUATION: OnceLock<Evaluation> = OnceLock::new();

fn evaluation() -> Evaluation {
    *EVALUATION.get_or_init(Evaluation::default)
}

/// Argument 11: `network:WEIGHTS[:BUILDINGS]`, read once.
fn network_argument(text: &str) -> Evaluation {
    let fail = |why: String| -> ! {
        eprintln!("argument 11 ({text:?}): {why}");
        std::process::exit(2)
    };
    let Some(rest) = text.strip_prefix("network:") else {
        fail("expected `network:WEIGHTS` or `network:WEIGHTS:BUILDINGS`".into())
    };
    let (path, buildings) = match rest.rsplit_once(':').map(|(p, n)| (p, n.parse::<u32>())) {
        Some((path, Ok(n))) if !path.is_empty() => (path, Some(n)),
        _ => (rest, None),
    };
    let network = Network::read(std::path::Path::new(path)).unwrap_or_else(|e| fail(e.to_string()));
    match buildings {
        None => Evaluation::Learned(network),
        Some(buildings) if (1..=NETWORK_BUILDINGS).contains(&buildings) => {
            Evaluation::LearnedUpTo { network, buildings }
        }
        Some(buildings) => fail(format!(
            "{buildings} buildings: expected 1 to {NETWORK_BUILDINGS}, where the network may judge"
        )),
    }
}

fn arg<T: std::str::FromStr>(n: usize, default: T) -> T {
    match std::env::args().nth(n) {
        None => default,
        Some(text) => text.parse().unwrap_or_else(|_| {
            eprintln!("argument {n} ({text:?}) is not a number");
            std::process::exit(2)
        }),
    }
}

fn main() -> std::io::Result<()> {
    let Some(out) = std::env::args().nth(1) else {
        eprintln!(
            "usage: eval_data OUT [games] [seed] [max-left] [max-nodes] [first-game]\n(lines are appended to OUT)"
        );
        std::process::exit(2)
    };
    let games: u64 = arg(2, 2000);
    let seed: u64 = arg(3, 41);
    let max_left: u32 = arg(4, 8);
    let max_nodes: u64 = arg(5, 1_000_000);
    let first: u64 = arg(6, 0);
    let min_left: u32 = arg(7, 0);
    let search_nodes: u64 = arg(8, 0);
    let playout = match std::env::args().nth(9).as_deref() {
        None | Some("search") => false,
        Some("playout") if min_left > PLAYOUT_LEAF => true,
        Some("playout") => {
            eprintln!(
                "playout: min-left (argument 7) must be above {PLAYOUT_LEAF}, where a playout stops"
            );
            std::process::exit(2)
        }
        Some(other) => {
            eprintln!("argument 9 ({other:?}) is `search` or `playout`");
            std::process::exit(2)
        }
    };
    let engine_nodes: Option<u64> = match std::env::args().nth(10).as_deref() {
        None | Some("policy") => None,
        Some(text) => match text.strip_prefix("engine:").map(str::parse) {
            Some(Ok(nodes)) if nodes > 0 => Some(nodes),
            _ => {
                eprintln!(
                    "argument 10 ({text:?}) is `policy` or `engine:NODES` (a whole number above 0)"
                );
                std::process::exit(2)
            }
        },
    };
    let network_text = match std::env::args().nth(11) {
        None => "the network".to_string(),
        Some(text) => {
            let _ = EVALUATION.set(network_argument(&text));
            format!("the network of {}", &text["network:".len()..])
        }
    };
    if engine_nodes.is_some() && playout {
        eprintln!("engine games are not labelled by playouts: use `search` as argument 9");
        std::process::exit(2)
    }
    let games_text = match engine_nodes {
        None => "policy games".to_string(),
        Some(nodes) => format!(
            "engine games at {nodes} nodes a move with {network_text} after 2 to 6 policy moves (each game's moves on its `# game` line)"
        ),
    };
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&out)?;
    let mut search_file = if playout && search_nodes > 0 {
        let mut search_file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(format!("{out}.search"))?;
        if first == 0 {
            writeln!(
                search_file,
                "# eval_data: {games_text}, seed {seed}, {min_left} to {max_left} buildings in the larger hand, estimates by the search at {search_nodes} nodes with {network_text} (the playouts' first moves); game ply value key"
            )?;
        }
        Some(search_file)
    } else {
        None
    };
    if first == 0 {
        if search_nodes > 0 && playout {
            writeln!(
                file,
                "# eval_data: {games_text}, seed {seed}, {min_left} to {max_left} buildings in the larger hand, labelled by the exact value (at most {max_nodes} nodes) where the engine's play at {search_nodes} nodes a move reaches {PLAYOUT_LEAF} buildings; game ply value key"
            )?;
        } else if search_nodes == 0 {
            writeln!(
                file,
                "# eval_data: {games_text}, seed {seed}, at most {max_left} buildings in the larger hand, at most {max_nodes} nodes; game ply value key"
            )?;
        } else {
            writeln!(
                file,
                "# eval_data: {games_text}, seed {seed}, {min_left} to {max_left} buildings in the larger hand, estimates by the search at {search_nodes} nodes with {network_text}; game ply value key"
            )?;
        }
    }
    let policy = Policy::default();
    let started = std::time::Instant::now();
    let (mut kept, mut dropped) = (0usize, 0usize);
    let mut game = first;
    while game < games {
        let batch: Vec<u64> = (game..games.min(game + 64)).collect();
        // Each game's positions, and for an engine game its moves' line.
        let played: Vec<(u64, Vec<Position>, Option<String>)> = batch
            .par_iter()
            .map(|&g| {
                let mut rng = Rng::new(game_seed(seed, g));
                match engine_nodes {
                    None => {
                        let positions =
                            play_game(Position::new(Rules::CLASSIC), &policy, &mut rng, |_, _| {
                                false
                            });
                        (g, positions, None)
                    }
                    Some(nodes) => {
                        let (positions, moves) = engine_game(&policy, &mut rng, nodes, g);
                        (
                            g,
                            positions,
                            Some(format!("# game {g} {}", moves.join(" "))),
                        )
                    }
                }
            })
            .collect();
        let positions: Vec<(u64, usize, Position)> = played
            .iter()
            .flat_map(|(g, positions, _)| {
                let g = *g;
                positions
                    .iter()
                    .copied()
                    .enumerate()
                    .filter(|(_, p)| {
                        !p.is_game_over()
                            && !p.cathedral_to_place()
                            && (min_left..=max_left).contains(&buildings_left(p))
                    })
                    .map(move |(ply, p)| (g, ply, p))
            })
            .collect();
        // Each label, and in playout mode the search's label of the same position beside it.
        let solved: Vec<Option<(String, Option<String>)>> = positions
            .par_iter()
            .map(|(g, ply, position)| {
                if search_nodes > 0 && playout {
                    let key = position.key().halves().0;
                    return playout_value(position, search_nodes, max_nodes).map(
                        |(estimate, value)| {
                            let estimate = f64::from(estimate) / f64::from(SCALE);
                            (
                                format!("{g} {ply} {value} {key:x}"),
                                Some(format!("{g} {ply} {estimate:.2} {key:x}")),
                            )
                        },
                    );
                }
                if search_nodes > 0 {
                    let choice = choose(position, &search_options(search_nodes), &mut |_| {});
                    return Some((
                        format!(
                            "{g} {ply} {:.2} {:x}",
                            f64::from(choice.value) / f64::from(SCALE),
                            position.key().halves().0
                        ),
                        None,
                    ));
                }
                let solution = solve(position, &solve_options(max_nodes), &|_| {});
                solution.value().map(|value| {
                    let key = position.key().halves().0;
                    (format!("{g} {ply} {value} {key:x}"), None)
                })
            })
            .collect();
        // A batch's games before its labels, so that the trainer meets each game's moves before
        // the positions it reaches.
        for (_, _, moves) in &played {
            if let Some(moves) = moves {
                writeln!(file, "{moves}")?;
            }
        }
        for line in &solved {
            match line {
                Some((line, search_line)) => {
                    writeln!(file, "{line}")?;
                    if let (Some(search_line), Some(search_file)) = (search_line, &mut search_file)
                    {
                        writeln!(search_file, "{search_line}")?;
                    }
                    kept += 1;
                }
                None => dropped += 1,
            }
        }
        file.flush()?;
        if let Some(search_file) = search_file.as_mut() {
            search_file.flush()?;
        }
        game = batch.last().map_or(games, |g| g + 1);
        eprintln!(
            "games {first}..{game}: {kept} positions labelled, {dropped} over {max_nodes} nodes, {:.0} s",
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

/// The exact solver, one thread, at most `max_nodes` nodes.
fn solve_options(max_nodes: u64) -> SolveOptions {
    SolveOptions {
        threads: 1,
        tt_mb: 16,
        max_nodes: Some(max_nodes),
        ..SolveOptions::default()
    }
}

/// Game `g` of the engine's own play: 2 to 6 moves of the sampling policy, then the engine at
/// full strength (`nodes` nodes a move, one thread, seeded by the game) for both sides to the
/// end. Returns every position reached, the first one included, and the moves in the notation.
fn engine_game(policy: &Policy, rng: &mut Rng, nodes: u64, g: u64) -> (Vec<Position>, Vec<String>) {
    let mut position = Position::new(Rules::CLASSIC);
    let (mut positions, mut moves) = (vec![position], Vec::new());
    let opening = 2 + rng.next_u64() % 5;
    let options = PlayOptions {
        nodes: Some(nodes),
        time: None,
        threads: 1,
        seed: g,
        tt_mb: 16,
        evaluation: evaluation(),
        ..PlayOptions::default()
    };
    // A game has at most 29 building moves per side plus passes (as in `play_game`).
    for ply in 0..400 {
        if position.is_game_over() {
            break;
        }
        let mv = if ply < opening {
            policy.choose(&position, rng)
        } else {
            choose(&position, &options, &mut |_| {}).best
        };
        let Some(mv) = mv else { break };
        moves.push(format_move_with_player(&position, mv));
        position.play(mv);
        positions.push(position);
    }
    (positions, moves)
}

/// The estimating search alone (the network, no solver), at `nodes` nodes.
fn search_options(nodes: u64) -> PlayOptions {
    PlayOptions {
        nodes: Some(nodes),
        time: None,
        exact: false,
        evaluation: evaluation(),
        tt_mb: 16,
        ..PlayOptions::default()
    }
}

/// The exact value, for `start`'s side to move, of the position where the engine's play from
/// `start` (`search_nodes` nodes a move, both sides) first has at most [`PLAYOUT_LEAF`]
/// buildings in the larger hand, or ends, after the search's estimate of `start` (its first
/// decision); `None` when that position is not solved within `max_nodes`.
fn playout_value(start: &Position, search_nodes: u64, max_nodes: u64) -> Option<(i32, i32)> {
    let mut position = *start;
    let mut estimate = None;
    while !position.is_game_over() && buildings_left(&position) > PLAYOUT_LEAF {
        let choice = choose(&position, &search_options(search_nodes), &mut |_| {});
        estimate.get_or_insert(choice.value);
        position.play(choice.best?);
    }
    let value = solve(&position, &solve_options(max_nodes), &|_| {}).value()?;
    let value = if position.to_move() == start.to_move() {
        value
    } else {
        -value
    };
    // min-left is above the leaf (checked with the arguments), so the playout made at least one
    // decision.
    Some((estimate?, value))
}

/// Buildings in the larger hand where a playout stops and the solver takes over: in a first try
/// of two games at 1,000,000 nodes, 3 of 21 positions were over budget at 8 buildings and none
/// at 7 (docs/engine.md, "Labels from playouts").
const PLAYOUT_LEAF: u32 = 7;
