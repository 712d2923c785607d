//! The territory view: for every cell of the board, who is likely to own or fill it when the game
//! ends, like the ownership map of Go programs' GUIs.
//!
//! [`territory`] plays [`TerritoryOptions::playouts`] games from the position to the end with the
//! playing engine ([`crate::engine::choose`], a node budget per move, level 6: seeded noise of up
//! to two squares per move for variety) and counts, for each cell, in how many of them it ended as Light's (covered by a Light building
//! or in Light's territory), Dark's (likewise) or neither's (the Cathedral, or empty and
//! unclaimed). The shares are the prediction.
//!
//! Cells whose owner can no longer change are **settled** ([`settled`]): a building, with the
//! territory joined to it, is safe when no region the opponent could ever claim around it can
//! hold it alone (two of its owner's buildings touch, or it touches a Cathedral that is itself
//! safe from both sides); their share is 1 for their owner whatever the playouts did. When the
//! game is over every cell is settled. In the solver's reach the position is also solved (within
//! the playouts' node budget); when that proves its value, the judgement is [`Judgement::Exact`]
//! and the map carries the value.
//!
//! With node budgets the map is the same on every machine and thread count for a given seed
//! (the playouts run in parallel, each with its own seeds, and are counted in order).
//! `docs/analysis.md`, "Territory view", has the measured accuracy and cost.

use crate::Player;
use crate::boardgame::Instant;
use crate::boardgame::{Rng, SolveOptions, solve};
use crate::cathedral::bitboard::Bitboard;
use crate::cathedral::cell::Cell;
use crate::cathedral::engine::{Judgement, MAX_LEVEL, PlayOptions, QUICK_PROOF_BUILDINGS, choose};
use crate::cathedral::policy::Policy;
use crate::cathedral::position::{CathedralStatus, Position};
use rayon::prelude::*;
use serde::Serialize;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// The default number of playouts.
pub const DEFAULT_PLAYOUTS: usize = 16;
/// The default node budget of each move of a playout.
pub const DEFAULT_NODES_PER_MOVE: u64 = 2_000;
/// The default engine level of the playouts before the endgame (its noise gives variety).
pub const DEFAULT_LEVEL: u8 = 6;

/// Who plays the playouts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Playout {
    /// The playing engine with `nodes_per_move` per move at `level` (and at full strength in
    /// the endgame with [`TerritoryOptions::exact_endgame`]).
    Engine,
    /// The fast sampling policy ([`crate::policy`]); `nodes_per_move` and `level` are unused.
    Policy,
}

/// How a territory map is computed.
#[derive(Clone, Debug)]
pub struct TerritoryOptions {
    /// Games played from the position to the end.
    pub playouts: usize,
    /// The engine's node budget per move (whatever the level).
    pub nodes_per_move: u64,
    /// Seeds every playout (each gets its own seeds from this one).
    pub seed: u64,
    /// The engine level before the endgame (1..=10): below 10 it adds seeded noise.
    pub level: u8,
    /// Who plays the playouts.
    pub playout: Playout,
    /// Whether the engine plays at full strength (no noise, the exact solver first) once the
    /// larger hand holds at most [`crate::engine::QUICK_PROOF_BUILDINGS`] buildings.
    pub exact_endgame: bool,
    /// Set to stop: the playouts finished so far are counted, the others dropped.
    pub stop: Arc<AtomicBool>,
    /// No playout is started or continued after this instant (a server's time cap); as `stop`.
    pub deadline: Option<Instant>,
}

impl Default for TerritoryOptions {
    fn default() -> Self {
        TerritoryOptions {
            playouts: DEFAULT_PLAYOUTS,
            nodes_per_move: DEFAULT_NODES_PER_MOVE,
            seed: 1,
            level: DEFAULT_LEVEL,
            playout: Playout::Engine,
            exact_endgame: false,
            stop: Arc::default(),
            deadline: None,
        }
    }
}

/// One cell of the map.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct CellShare {
    /// The cell, `a1`..`j10`.
    pub cell: Cell,
    /// The share of playouts in which Light owned or covered it at the end, 0 to 1.
    pub light: f64,
    /// Dark's share; `light + dark <= 1`, the rest is neither's.
    pub dark: f64,
    /// Whether its owner can no longer change (shares 0 or 1).
    pub settled: bool,
}

/// The territory map of a position: plain data, serialised as the web API's answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TerritoryMap {
    /// Playouts counted (fewer than asked when stopped; see `complete`).
    pub playouts: usize,
    /// The node budget per move.
    pub nodes_per_move: u64,
    /// The seed.
    pub seed: u64,
    /// Every cell, a1, b1, .., j1, a2, .., j10.
    pub cells: Vec<CellShare>,
    /// Cells Light is expected to own or cover at the end (the sum of its shares).
    pub light_expected: f64,
    /// Dark's.
    pub dark_expected: f64,
    /// `exact` when the game is over or the exact solver proved the position's value (within
    /// `playouts * nodes_per_move` nodes, tried once the larger hand holds at most
    /// [`crate::engine::QUICK_PROOF_BUILDINGS`] buildings), `estimate` otherwise. The shares
    /// come from the playouts either way (or, at full strength in the endgame, from an
    /// optimal game).
    pub judgement: Judgement,
    /// When `exact`: Light's margin at the end of perfect play, in squares (Dark's unplaced
    /// squares minus Light's; negative when Dark wins). `null` otherwise.
    pub value: Option<i32>,
    /// Whether every playout asked for was played (false when stopped or out of time).
    pub complete: bool,
    /// Engine nodes spent, all playouts together.
    #[serde(skip)]
    pub nodes: u64,
}

impl TerritoryMap {
    /// The entry of `cell`.
    pub fn at(&self, cell: Cell) -> &CellShare {
        &self.cells[cell.index()]
    }
}

/// Cells owned at the end of a game (or now): each player's buildings and territory.
pub fn owners(position: &Position) -> [Bitboard; 2] {
    Player::BOTH.map(|player| {
        let side = position.side(player);
        side.occupied | side.territory
    })
}

/// The cells of each player whose owner can no longer change, and whether the Cathedral's
/// cells stay neither's, by a sound test (it may miss some).
///
/// Buildings leave the board only when captured, alone in a region the opponent encloses; a
/// player's territory is lost only with a building of the player's in that region. The cells
/// of one player's buildings and territory that touch (8-connected) stay in one region of the
/// opponent's for as long as none of them changes; so such a group with two buildings can
/// never be captured or claimed, and neither can a group with one building touching a
/// Cathedral that the other player cannot capture either. The test keeps the largest set of
/// groups (and the Cathedral) that protect each other this way: the first capture among them
/// would need a region holding one of them alone, and none exists.
pub fn settled(position: &Position) -> ([Bitboard; 2], bool) {
    if position.is_game_over() {
        let [light, dark] = owners(position);
        return ([light, dark], true);
    }
    let cathedral = if position.cathedral_status() == CathedralStatus::OnBoard {
        position.cathedral()
    } else {
        Bitboard::EMPTY
    };
    // Per player: (cells of the group, buildings in it, whether it touches the Cathedral).
    let groups: [Vec<(Bitboard, usize, bool)>; 2] = Player::BOTH.map(|player| {
        let side = position.side(player);
        (side.occupied | side.territory)
            .components8()
            .map(|group| {
                let buildings = side
                    .buildings
                    .iter()
                    .filter(|b| b.intersects(group))
                    .count();
                (group, buildings, group.dilate8().intersects(cathedral))
            })
            .collect()
    });
    // Greatest fixed point: assume every candidate safe, drop what is not protected.
    let mut safe: [Vec<bool>; 2] = [0, 1].map(|p| groups[p].iter().map(|g| g.1 >= 1).collect());
    let mut cathedral_safe = cathedral.any();
    loop {
        let mut changed = false;
        for p in 0..2 {
            for (i, &(_, buildings, touches)) in groups[p].iter().enumerate() {
                let ok = buildings >= 2 || (buildings == 1 && touches && cathedral_safe);
                if safe[p][i] && !ok {
                    safe[p][i] = false;
                    changed = true;
                }
            }
        }
        // The Cathedral is safe from a player when a safe group of the other touches it.
        let protected = |p: usize| {
            groups[p]
                .iter()
                .zip(&safe[p])
                .any(|(g, &s)| s && g.1 >= 1 && g.2)
        };
        if cathedral_safe && !(protected(0) && protected(1)) {
            cathedral_safe = false;
            changed = true;
        }
        if !changed {
            break;
        }
    }
    let cells = [0, 1].map(|p| {
        groups[p]
            .iter()
            .zip(&safe[p])
            .filter(|(_, s)| **s)
            .fold(Bitboard::EMPTY, |all, (g, _)| all | g.0)
    });
    (cells, cathedral_safe)
}

/// How one playout ended.
struct Ending {
    owners: [Bitboard; 2],
    nodes: u64,
}

/// A seed for playout `index` (splitmix64 of the seed and the index).
fn playout_seed(seed: u64, index: usize) -> u64 {
    let mut rng = Rng::new(seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    rng.next_u64()
}

fn out_of_time(options: &TerritoryOptions) -> bool {
    options.stop.load(Ordering::Relaxed) || options.deadline.is_some_and(|d| Instant::now() >= d)
}

/// Plays one game to the end; `None` when stopped first.
fn playout(position: &Position, options: &TerritoryOptions, seed: u64) -> Option<Ending> {
    let mut rng = Rng::new(seed);
    let mut position = *position;
    let mut nodes = 0;
    let policy = Policy::default();
    // A game has at most 29 building moves per side plus passes.
    for _ in 0..400 {
        if position.is_game_over() {
            return Some(Ending {
                owners: owners(&position),
                nodes,
            });
        }
        if out_of_time(options) {
            return None;
        }
        let mv = match options.playout {
            Playout::Policy => policy.choose(&position, &mut rng)?,
            Playout::Engine => {
                let left = Player::BOTH
                    .map(|p| position.side(p).hand.buildings())
                    .into_iter()
                    .max()
                    .unwrap_or(0);
                let level = if options.exact_endgame && left <= QUICK_PROOF_BUILDINGS {
                    MAX_LEVEL
                } else {
                    options.level.clamp(1, MAX_LEVEL)
                };
                // The halving levels halve the budget per level below the top: give it back.
                let below = u32::from(MAX_LEVEL - level);
                let choice = choose(
                    &position,
                    &PlayOptions {
                        nodes: Some(options.nodes_per_move.max(1).saturating_mul(1 << below)),
                        time: None,
                        threads: 1,
                        seed: rng.next_u64(),
                        level,
                        // The map's accuracy was measured with the halving levels' noise.
                        halving: true,
                        tt_mb: 2,
                        stop: Arc::clone(&options.stop),
                        exact: true,
                        ..PlayOptions::default()
                    },
                    &mut |_| {},
                );
                nodes += choice.nodes;
                choice.best?
            }
        };
        position.play(mv);
    }
    None
}

/// Light's margin at the end of perfect play, if the exact solver proves it within
/// `playouts * nodes_per_move` nodes (tried only in the solver's reach).
fn prove(position: &Position, options: &TerritoryOptions) -> Option<i32> {
    let left = Player::BOTH
        .map(|p| position.side(p).hand.buildings())
        .into_iter()
        .max()
        .unwrap_or(0);
    if position.cathedral_to_place() || left > QUICK_PROOF_BUILDINGS || out_of_time(options) {
        return None;
    }
    let budget = options
        .nodes_per_move
        .max(1)
        .saturating_mul(options.playouts.max(1) as u64);
    let solution = solve(
        position,
        &SolveOptions {
            threads: 1,
            tt_mb: 16,
            initial_tt_mb: Some(2),
            wdl: false,
            time_limit: options
                .deadline
                .map(|d| d.saturating_duration_since(Instant::now())),
            stop: Arc::clone(&options.stop),
            root_values: false,
            max_nodes: Some(budget),
            estimate: None,
            window: None,
            method: crate::boardgame::Method::AlphaBeta,
        },
        &|_| {},
    );
    solution.is_exact().then(|| match position.to_move() {
        Player::Light => solution.lower,
        Player::Dark => -solution.lower,
    })
}

/// The territory map of `position` (see the module's documentation).
pub fn territory(position: &Position, options: &TerritoryOptions) -> TerritoryMap {
    let (settled_cells, cathedral_settled) = settled(position);
    let over = position.is_game_over();
    // At full strength the engine has no noise: from an endgame position every playout is the
    // same game, so one is played and counted for all.
    let deterministic = options.playout == Playout::Engine && {
        let left = Player::BOTH
            .map(|p| position.side(p).hand.buildings())
            .into_iter()
            .max()
            .unwrap_or(0);
        (options.exact_endgame && left <= QUICK_PROOF_BUILDINGS) || options.level >= MAX_LEVEL
    };
    let asked = if over { 0 } else { options.playouts };
    let played = if deterministic { asked.min(1) } else { asked };
    let endings: Vec<Option<Ending>> = (0..played)
        .into_par_iter()
        .map(|i| playout(position, options, playout_seed(options.seed, i)))
        .collect();
    let endings: Vec<Ending> = endings.into_iter().map_while(|e| e).collect();
    let weight = if deterministic { asked } else { 1 };
    let counted = endings.len() * weight;
    let complete = over || endings.len() == played;
    let mut light = [0usize; 100];
    let mut dark = [0usize; 100];
    for ending in &endings {
        for cell in ending.owners[0].cells() {
            light[cell.index()] += weight;
        }
        for cell in ending.owners[1].cells() {
            dark[cell.index()] += weight;
        }
    }
    let cells: Vec<CellShare> = Cell::all()
        .map(|cell| {
            let i = cell.index();
            let (l, d, settled) = if over {
                (
                    f64::from(u8::from(settled_cells[0].contains(cell))),
                    f64::from(u8::from(settled_cells[1].contains(cell))),
                    true,
                )
            } else if settled_cells[0].contains(cell) {
                (1.0, 0.0, true)
            } else if settled_cells[1].contains(cell) {
                (0.0, 1.0, true)
            } else if cathedral_settled && position.cathedral().contains(cell) {
                (0.0, 0.0, true)
            } else if counted == 0 {
                (0.0, 0.0, false)
            } else {
                (
                    light[i] as f64 / counted as f64,
                    dark[i] as f64 / counted as f64,
                    false,
                )
            };
            CellShare {
                cell,
                light: l,
                dark: d,
                settled,
            }
        })
        .collect();
    let proven = if over {
        let light = position.unplaced_squares(Player::Light) as i32;
        Some(position.unplaced_squares(Player::Dark) as i32 - light)
    } else {
        prove(position, options)
    };
    TerritoryMap {
        playouts: if over { options.playouts } else { counted },
        nodes_per_move: options.nodes_per_move,
        seed: options.seed,
        light_expected: cells.iter().map(|c| c.light).sum(),
        dark_expected: cells.iter().map(|c| c.dark).sum(),
        cells,
        value: proven,
        judgement: if proven.is_some() {
            Judgement::Exact
        } else {
            Judgement::Estimate
        },
        complete,
        nodes: endings.iter().map(|e| e.nodes).sum(),
    }
}
