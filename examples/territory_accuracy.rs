//! How well the territory view (`cathedral::territory`) predicts the final board.
//!
//! `cargo run --release --features tools --example territory_accuracy -- [OPTIONS] RECORDS...`
//!
//! For every game of the record files (complete games, e.g. from `cathedral match -o DIR`) and
//! every ply of `--plies` that the game reaches, the map of the position after that ply is
//! computed and compared with the game's final board, cell by cell, on the cells that are empty
//! and unclaimed at that ply (the ones in question). Each cell's outcome is Light's, Dark's or
//! neither's. Printed per stage and method: the accuracy of the most likely owner, the Brier
//! score (the squared error summed over the three outcomes, 0 perfect, 2 confidently wrong) and
//! the time per map; and whether any settled cell ended otherwise (it must not).
//!
//! Methods: the engine playouts (the default of the library and the API), the sampling policy's
//! playouts (`--policy N,M`: with N and M playouts), and two baselines without playouts: every
//! cell neither's, and each cell the owner of the nearest building (by king steps; neither on a
//! tie or when the nearest is the Cathedral).
//!
//! Options (the library's defaults): `--plies 6,12,18,24`, `--playouts 16`, `--nodes 2000`,
//! `--level 6`, `--seed 1`,
//! `--policy 16,256` (empty to skip), `--games N` (at most N games in all), `--exact-endgame
//! on|off` (off; on: the engine at full strength from 8 buildings left), `--blend on` (also the average
//! of the engine's map and the policy's with 256 playouts).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a tool run by hand: a failure should stop it with what went wrong"
)]

use cathedral::file::load_records;
use cathedral::territory::{Playout, TerritoryMap, TerritoryOptions, owners, territory};
use cathedral::{Bitboard, Cell, Player, Position};
use std::time::{Duration, Instant};

/// Per cell: (light, dark) probabilities.
type Prediction = Vec<(f64, f64)>;

#[derive(Default, Clone)]
struct Score {
    cells: usize,
    right: usize,
    brier: f64,
    maps: usize,
    time: Duration,
    playouts: usize,
    nodes: u64,
}

impl Score {
    fn add(&mut self, prediction: &Prediction, truth: &[usize; 100], judged: Bitboard) {
        for cell in judged.cells() {
            let (l, d) = prediction[cell.index()];
            let p = [l, d, (1.0 - l - d).max(0.0)];
            // Most likely: ties go to neither, then Light.
            let guess = if p[2] >= p[0] && p[2] >= p[1] {
                2
            } else if p[0] >= p[1] {
                0
            } else {
                1
            };
            let t = truth[cell.index()];
            self.cells += 1;
            self.right += usize::from(guess == t);
            self.brier += (0..3)
                .map(|k| (p[k] - f64::from(u8::from(k == t))).powi(2))
                .sum::<f64>();
        }
        self.maps += 1;
    }

    fn line(&self, name: &str) -> String {
        let time = if self.time.is_zero() {
            "-".to_string()
        } else {
            format!(
                "{:.0} ms",
                self.time.as_secs_f64() * 1000.0 / self.maps.max(1) as f64
            )
        };
        let maps = self.maps.max(1) as f64;
        let work = if self.playouts == 0 {
            String::new()
        } else {
            format!(
                " ({:.1} playouts, {:.0}k nodes)",
                self.playouts as f64 / maps,
                self.nodes as f64 / maps / 1000.0
            )
        };
        format!(
            "  {name:<22} {:>5} cells  accuracy {:>5.1} %  Brier {:.3}  {time} per map{work}",
            self.cells,
            100.0 * self.right as f64 / self.cells.max(1) as f64,
            self.brier / self.cells.max(1) as f64,
        )
    }
}

fn shares(map: &TerritoryMap) -> Prediction {
    map.cells.iter().map(|c| (c.light, c.dark)).collect()
}

/// Every cell the owner of the nearest building (king steps), neither on a tie.
fn nearest(position: &Position) -> Prediction {
    let mut by_owner: Vec<(Cell, usize)> = Vec::new();
    for building in position.buildings() {
        let owner = match building.owner {
            Some(Player::Light) => 0,
            Some(Player::Dark) => 1,
            None => 2,
        };
        by_owner.extend(building.cells.cells().map(|c| (c, owner)));
    }
    Cell::all()
        .map(|cell| {
            let distance = |c: Cell| {
                (i32::from(c.file()) - i32::from(cell.file()))
                    .abs()
                    .max((i32::from(c.rank()) - i32::from(cell.rank())).abs())
            };
            let Some(best) = by_owner.iter().map(|&(c, _)| distance(c)).min() else {
                return (0.0, 0.0);
            };
            let mut nearest = by_owner.iter().filter(|&&(c, _)| distance(c) == best);
            let first = nearest.next().map_or(2, |&(_, o)| o);
            if nearest.any(|&(_, o)| o != first) {
                return (0.0, 0.0);
            }
            match first {
                0 => (1.0, 0.0),
                1 => (0.0, 1.0),
                _ => (0.0, 0.0),
            }
        })
        .collect()
}

fn main() {
    let mut plies = vec![6usize, 12, 18, 24];
    let defaults = TerritoryOptions::default();
    let mut playouts = defaults.playouts;
    let mut nodes = defaults.nodes_per_move;
    let mut level = defaults.level;
    let mut seed = defaults.seed;
    let mut policy = vec![16usize, 256];
    let mut max_games = usize::MAX;
    let mut exact_endgame = defaults.exact_endgame;
    let mut blend = false;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    let list = |text: String| -> Vec<usize> {
        text.split(',')
            .filter(|s| !s.is_empty())
            .map(|s| s.parse().expect("a number"))
            .collect()
    };
    while let Some(arg) = args.next() {
        let mut value = || args.next().expect("a value after the option");
        match arg.as_str() {
            "--plies" => plies = list(value()),
            "--playouts" => playouts = value().parse().expect("a number"),
            "--nodes" => nodes = value().parse().expect("a number"),
            "--level" => level = value().parse().expect("a number"),
            "--seed" => seed = value().parse().expect("a number"),
            "--policy" => policy = list(value()),
            "--games" => max_games = value().parse().expect("a number"),
            "--exact-endgame" => exact_endgame = value() != "off",
            "--blend" => blend = value() != "off",
            _ => files.push(arg),
        }
    }
    assert!(!files.is_empty(), "name one or more game record files");
    let mut games = Vec::new();
    for file in &files {
        let records = load_records(std::path::Path::new(file)).unwrap_or_else(|e| panic!("{e}"));
        games.extend(
            records
                .into_iter()
                .filter(|g| g.final_position().is_game_over()),
        );
    }
    games.truncate(max_games);
    println!(
        "{} games; engine playouts: {playouts} x {nodes} nodes per move, level {level}, exact endgame {exact_endgame}, seed {seed}; threads {}",
        games.len(),
        rayon::current_num_threads()
    );
    let mut methods: Vec<(String, Option<(Playout, usize)>)> = vec![
        ("every cell neither".into(), None),
        ("nearest building".into(), None),
        (
            format!("engine, {playouts} playouts"),
            Some((Playout::Engine, playouts)),
        ),
    ];
    for &n in &policy {
        methods.push((format!("policy, {n} playouts"), Some((Playout::Policy, n))));
    }
    if blend {
        methods.push(("engine + policy 256".into(), None));
    }
    let mut total = vec![Score::default(); methods.len()];
    let mut broken = 0;
    for &ply in &plies {
        let mut scores = vec![Score::default(); methods.len()];
        let mut positions = 0;
        for game in &games {
            let positions_of = game.positions();
            if ply >= positions_of.len() - 1 {
                continue;
            }
            positions += 1;
            let position = positions_of[ply];
            let end = owners(&game.final_position());
            let mut truth = [2usize; 100];
            for cell in end[0].cells() {
                truth[cell.index()] = 0;
            }
            for cell in end[1].cells() {
                truth[cell.index()] = 1;
            }
            let [l, d] = owners(&position);
            let judged = Bitboard::FULL - l - d - position.cathedral();
            for (k, (_, method)) in methods.iter().enumerate() {
                let start = Instant::now();
                let prediction = match method {
                    None if k == 0 => vec![(0.0, 0.0); 100],
                    None if k == 1 => nearest(&position),
                    None => {
                        let run = |playout, playouts| {
                            shares(&territory(
                                &position,
                                &TerritoryOptions {
                                    playouts,
                                    nodes_per_move: nodes,
                                    seed,
                                    level,
                                    playout,
                                    exact_endgame,
                                    ..TerritoryOptions::default()
                                },
                            ))
                        };
                        let (a, b) = (run(Playout::Engine, playouts), run(Playout::Policy, 256));
                        a.iter()
                            .zip(&b)
                            .map(|(x, y)| ((x.0 + y.0) / 2.0, (x.1 + y.1) / 2.0))
                            .collect()
                    }
                    Some((playout, n)) => {
                        let map = territory(
                            &position,
                            &TerritoryOptions {
                                playouts: *n,
                                nodes_per_move: nodes,
                                seed,
                                level,
                                playout: *playout,
                                exact_endgame,
                                ..TerritoryOptions::default()
                            },
                        );
                        scores[k].playouts += map.playouts;
                        scores[k].nodes += map.nodes;
                        broken += map
                            .cells
                            .iter()
                            .filter(|c| {
                                c.settled
                                    && truth[c.cell.index()]
                                        != if c.light == 1.0 {
                                            0
                                        } else if c.dark == 1.0 {
                                            1
                                        } else {
                                            2
                                        }
                            })
                            .count();
                        shares(&map)
                    }
                };
                if method.is_some() || k > 1 {
                    scores[k].time += start.elapsed();
                }
                scores[k].add(&prediction, &truth, judged);
            }
        }
        println!("after ply {ply} ({positions} positions):");
        for (k, (name, _)) in methods.iter().enumerate() {
            println!("{}", scores[k].line(name));
            total[k].cells += scores[k].cells;
            total[k].right += scores[k].right;
            total[k].brier += scores[k].brier;
            total[k].maps += scores[k].maps;
            total[k].time += scores[k].time;
            total[k].playouts += scores[k].playouts;
            total[k].nodes += scores[k].nodes;
        }
    }
    println!("all stages:");
    for (k, (name, _)) in methods.iter().enumerate() {
        println!("{}", total[k].line(name));
    }
    println!("settled cells that ended otherwise: {broken}");
}
