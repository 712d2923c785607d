//! Late positions sampled from policy games ([`Policy`]) or from games of the playing engine
//! against itself, sorted into difficulty tiers by the number of buildings left per player: the
//! benchmark suite `puzzles/bench/` comes from here.
//!
//! "Buildings left per player" is the larger of the two players' counts of buildings in hand.

use crate::boardgame::Rng;
pub use crate::cathedral::policy::{MoveEffect, Policy, effect, play_game};
use crate::cathedral::position::Position;
use crate::cathedral::rules::Rules;
use std::fmt;
use std::ops::ControlFlow;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};

/// Buildings left per player: the larger of the two hands, counted in buildings.
pub fn buildings_left(position: &Position) -> u32 {
    position.buildings_left()
}

/// A difficulty tier, by buildings left per player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Tier {
    /// Up to 3 buildings left.
    T3,
    /// 4 or 5.
    T5,
    /// 6 or 7.
    T7,
    /// 8 or 9.
    T8,
    /// 10 (sampled with 10 and 10, or 10 and 9: "9-10 per player").
    T10,
    /// 11 or more (sampled with 11 or 12 in the fuller hand: "11-12 per player").
    T12,
}

impl Tier {
    /// Every tier, fewest buildings left first.
    pub const ALL: [Tier; 6] = [Tier::T3, Tier::T5, Tier::T7, Tier::T8, Tier::T10, Tier::T12];

    /// The tier of a position.
    pub fn of(position: &Position) -> Tier {
        match buildings_left(position) {
            0..=3 => Tier::T3,
            4..=5 => Tier::T5,
            6..=7 => Tier::T7,
            8..=9 => Tier::T8,
            10 => Tier::T10,
            _ => Tier::T12,
        }
    }

    /// `t3`, `t5`, `t7`, `t8`, `t10`, `t12`: also the prefix of the benchmark file names.
    pub fn name(self) -> &'static str {
        match self {
            Tier::T3 => "t3",
            Tier::T5 => "t5",
            Tier::T7 => "t7",
            Tier::T8 => "t8",
            Tier::T10 => "t10",
            Tier::T12 => "t12",
        }
    }

    /// `up to 3`, `4-5`, `6-7`, `8-9`, `10`, `11 or more`.
    pub fn range_text(self) -> &'static str {
        match self {
            Tier::T3 => "up to 3",
            Tier::T5 => "4-5",
            Tier::T7 => "6-7",
            Tier::T8 => "8-9",
            Tier::T10 => "10",
            Tier::T12 => "11 or more",
        }
    }

    /// The buildings-left counts the sampler stops at for this tier (the tier's late end, so
    /// that positions are as late as the tier allows; `t3` skips the near-trivial 0 and 1).
    fn targets(self) -> &'static [u32] {
        match self {
            Tier::T3 => &[2, 3],
            Tier::T5 => &[4, 5],
            Tier::T7 => &[6, 7],
            Tier::T8 => &[8, 9],
            Tier::T10 => &[10],
            Tier::T12 => &[11, 12],
        }
    }
}

/// What a sampling run looks for: a difficulty tier, or an exact number of buildings left per
/// player (the accuracy suite's 9 to 12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Band {
    /// A tier's positions.
    Tier(Tier),
    /// Positions with exactly this many buildings left per player.
    Buildings(u32),
}

impl Band {
    /// The buildings-left counts the games stop at.
    fn targets(self) -> Vec<u32> {
        match self {
            Band::Tier(tier) => tier.targets().to_vec(),
            Band::Buildings(n) => vec![n],
        }
    }

    /// Whether a position the games stopped at belongs to the band.
    fn contains(self, position: &Position) -> bool {
        match self {
            Band::Tier(tier) => Tier::of(position) == tier,
            Band::Buildings(n) => buildings_left(position) == n,
        }
    }

    /// The prefix of the file names: the tier's name, or `b` and the count (`b09`).
    pub fn name(self) -> String {
        match self {
            Band::Tier(tier) => tier.name().to_string(),
            Band::Buildings(n) => format!("b{n:02}"),
        }
    }
}

impl fmt::Display for Band {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Band::Tier(tier) => write!(f, "{tier}"),
            Band::Buildings(n) => write!(
                f,
                "{} left per player",
                crate::present::words::count(*n, "building")
            ),
        }
    }
}

impl fmt::Display for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown tier name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{0}` is not a tier: expected t3 (up to 3 buildings left), t5 (4-5), t7 (6-7), t8 (8-9), t10 (10) or t12 (11-12)"
)]
pub struct ParseTierError(pub String);

impl FromStr for Tier {
    type Err = ParseTierError;
    fn from_str(s: &str) -> Result<Tier, ParseTierError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "t3" | "3" | "0-3" => Ok(Tier::T3),
            "t5" | "4-5" => Ok(Tier::T5),
            "t7" | "6-7" => Ok(Tier::T7),
            "t8" | "8-9" => Ok(Tier::T8),
            "t10" | "10" => Ok(Tier::T10),
            "t12" | "11-12" | "12" | "11+" => Ok(Tier::T12),
            _ => Err(ParseTierError(s.to_string())),
        }
    }
}

/// One sampled position and how to find it again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The sampled position.
    pub position: Position,
    /// The seed of the policy game it comes from (`play_game` with `Rng::new(game_seed)`).
    pub game_seed: u64,
    /// The number of moves played from the start of that game.
    pub ply: usize,
}

pub use crate::boardgame::game_seed;

/// Who plays the games that positions are sampled from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Players {
    /// The policy for both sides ([`Policy`]): fast, varied, weak.
    Policy,
    /// The playing engine against itself at a level with a node budget per move
    /// (deterministic), after an opening of [`ENGINE_OPENING_PLIES`] policy moves that makes the
    /// games differ.
    Engine {
        /// Nodes per move (at full strength; each level below halves them).
        nodes: u64,
        /// 1 to [`crate::cathedral::engine::MAX_LEVEL`] (full strength).
        level: u8,
    },
}

/// Policy moves that open an engine game (as `cathedral match` opens its pairs).
pub const ENGINE_OPENING_PLIES: usize = 2;

/// Plays one game from `start` until `stop` holds, with `players`.
fn play_sample_game(
    start: Position,
    players: Players,
    policy: &Policy,
    rng: &mut Rng,
    stop: impl Fn(&Position) -> bool,
) -> Vec<Position> {
    match players {
        Players::Policy => play_game(start, policy, rng, |p, _| stop(p)),
        Players::Engine { nodes, level } => {
            let mut positions = play_game(start, policy, rng, |p, ply| {
                ply >= ENGINE_OPENING_PLIES || stop(p)
            });
            let mut position = positions[positions.len() - 1];
            while !stop(&position) && !position.is_game_over() {
                let choice = crate::cathedral::engine::choose(
                    &position,
                    &crate::cathedral::engine::PlayOptions {
                        nodes: Some(nodes),
                        time: None,
                        tt_mb: 16,
                        exact: false,
                        level,
                        // Each level below halves the nodes, as the sampler's options say.
                        halving: true,
                        seed: rng.next_u64(),
                        ..Default::default()
                    },
                    &mut |_| {},
                );
                let Some(mv) = choice.best else { break };
                position.play(mv);
                positions.push(position);
            }
            positions
        }
    }
}

/// How a sampling run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SampleSummary {
    /// Positions found.
    pub found: usize,
    /// Policy games played.
    pub games: u64,
    /// Whether `stop` was set or the caller broke off.
    pub stopped: bool,
}

/// Plays games (of `players`) from the start until `count` distinct positions of `band` are found (or
/// `count * 50` games were tried), handing each to `on_found` at once. Each game stops at the
/// first position with at most a target number of buildings left per player (drawn from the
/// band's late end), and is kept if that position is in the band, not over, and the side to move
/// can place a building. Deterministic for a given `seed`; ends early when `stop` is set or
/// `on_found` breaks.
pub fn sample_each(
    rules: Rules,
    band: Band,
    seed: u64,
    count: usize,
    players: Players,
    stop: &AtomicBool,
    on_found: &mut dyn FnMut(&Sample) -> ControlFlow<()>,
) -> SampleSummary {
    let policy = Policy::default();
    let mut found: Vec<Position> = Vec::new();
    let mut game = 0u64;
    while found.len() < count && game < (count as u64).saturating_mul(50) {
        if stop.load(Ordering::Relaxed) {
            return SampleSummary {
                found: found.len(),
                games: game,
                stopped: true,
            };
        }
        let game_seed = game_seed(seed, game);
        game += 1;
        let mut rng = Rng::new(game_seed);
        let targets = band.targets();
        let target = targets[rng.below(targets.len() as u64) as usize];
        // t10 stops with 10 buildings in each hand or, one move later, 10 and 9: both sides to
        // move, "9-10 buildings left per player".
        let total = if band == Band::Tier(Tier::T10) {
            19 + rng.below(2) as u32
        } else {
            u32::MAX
        };
        let start = Position::new(rules);
        let positions = play_sample_game(start, players, &policy, &mut rng, |p| {
            buildings_left(p) <= target && p.buildings_in_hands() <= total
        });
        let ply = positions.len() - 1;
        let last = positions[ply];
        let fits = buildings_left(&last) <= target
            && band.contains(&last)
            && !last.is_game_over()
            && last.can_place(last.to_move());
        if fits && !found.contains(&last) {
            found.push(last);
            let sample = Sample {
                position: last,
                game_seed,
                ply,
            };
            if on_found(&sample).is_break() {
                return SampleSummary {
                    found: found.len(),
                    games: game,
                    stopped: true,
                };
            }
        }
    }
    SampleSummary {
        found: found.len(),
        games: game,
        stopped: false,
    }
}

/// The positions [`sample_each`] finds, all at once.
pub fn sample(rules: Rules, tier: Tier, seed: u64, count: usize) -> Vec<Sample> {
    let mut found = Vec::new();
    sample_each(
        rules,
        Band::Tier(tier),
        seed,
        count,
        Players::Policy,
        &AtomicBool::new(false),
        &mut |s| {
            found.push(*s);
            ControlFlow::Continue(())
        },
    );
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiers_parse_and_name() {
        for tier in Tier::ALL {
            assert_eq!(tier.name().parse::<Tier>(), Ok(tier));
        }
        assert_eq!("4-5".parse::<Tier>(), Ok(Tier::T5));
        assert!("t4".parse::<Tier>().is_err());
    }

    #[test]
    fn samples_are_in_their_tier_and_deterministic() {
        let a = sample(Rules::CLASSIC, Tier::T5, 11, 2);
        assert_eq!(a.len(), 2);
        for s in &a {
            assert_eq!(Tier::of(&s.position), Tier::T5);
            assert!(!s.position.is_game_over());
        }
        assert_eq!(a, sample(Rules::CLASSIC, Tier::T5, 11, 2));
    }

    /// t10: 9 or 10 buildings in each hand, one of them 10; both sides to move occur.
    #[test]
    fn t10_samples_hold_nine_or_ten_per_player() {
        let samples = sample(Rules::CLASSIC, Tier::T10, 1, 8);
        assert_eq!(samples.len(), 8);
        let mut movers = std::collections::HashSet::new();
        for s in &samples {
            let hands =
                crate::cathedral::player::Player::BOTH.map(|p| s.position.side(p).hand.buildings());
            assert!(hands.iter().all(|&h| (9..=10).contains(&h)), "{hands:?}");
            assert_eq!(buildings_left(&s.position), 10);
            assert_eq!(Tier::of(&s.position), Tier::T10);
            movers.insert(s.position.to_move());
        }
        assert_eq!(movers.len(), 2, "both sides to move");
    }

    /// Engine games: deterministic for a seed, in the tier, and not the policy's games.
    #[test]
    fn engine_games_are_sampled_deterministically() {
        let run = || {
            let mut found = Vec::new();
            sample_each(
                Rules::CLASSIC,
                Band::Tier(Tier::T10),
                3,
                2,
                Players::Engine {
                    nodes: 2_000,
                    level: 10,
                },
                &AtomicBool::new(false),
                &mut |s| {
                    found.push(*s);
                    ControlFlow::Continue(())
                },
            );
            found
        };
        let engine = run();
        assert_eq!(engine.len(), 2);
        assert_eq!(engine, run());
        assert!(engine.iter().all(|s| Tier::of(&s.position) == Tier::T10));
        let policy = sample(Rules::CLASSIC, Tier::T10, 3, 2);
        assert_ne!(
            engine.iter().map(|s| s.position).collect::<Vec<_>>(),
            policy.iter().map(|s| s.position).collect::<Vec<_>>()
        );
    }
}
