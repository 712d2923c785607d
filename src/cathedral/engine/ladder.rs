//! The ladder of levels: ten players of distinct, measured strength, from one a new player
//! beats to the engine at full strength. Declared once here; the board's level picker, Python's
//! opponents, the protocol's `level` and `cathedral match`'s `engine:level=N` all play these.
//!
//! A level below the top is a fixed player, the same on every machine: its search has a budget
//! of its own (the caller's budget only caps it), and on some moves it makes one of the errors
//! people make ([`Slip`]) instead of playing what its search found: it does not see a claim or
//! a capture it could make, it fills its own territory while the board still has room, or it
//! plays its biggest building where it claims the most, blind to what the opponent threatens.
//! Each draw comes from the game's seed, so games vary by seed and repeat with the same one.
//! Level 10 is the engine at the caller's budget, with the exact solver for the endgame.
//!
//! The Elo of each rung ([`Rung::elo`]) was measured by `cathedral ladder` (`docs/engine.md`,
//! "The ladder of levels"): matches of pairs with colours swapped between neighbouring levels,
//! chained up from the greedy player at 0 (the random player loses every pair to level 1).

use crate::boardgame::Rng;
use crate::cathedral::moves::{Move, MoveList};
use crate::cathedral::policy::{MoveEffect, effect};
use crate::cathedral::position::Position;

/// How much a rung searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Search {
    /// Every move judged by the evaluation of the position after it and a few plies more: the
    /// search to this depth (and no node budget of its own).
    Depth(u32),
    /// At most this many nodes.
    Nodes(u64),
    /// The caller's budget, whatever it is.
    Full,
}

/// One level of the ladder.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rung {
    /// 1 (weakest) to [`super::MAX_LEVEL`].
    pub level: u8,
    /// How much it searches.
    pub search: Search,
    /// Noise added to each root move's estimate, in hundredths of a square: it spreads its
    /// choice among the moves its search judges close.
    pub noise: i32,
    /// Chance per move of not seeing its claims and captures ([`Slip::MissesClaims`]).
    pub misses_claims: f64,
    /// Chance per move of filling its own territory ([`Slip::FillsOwn`]).
    pub fills_own: f64,
    /// Chance per move of ignoring the opponent's threats ([`Slip::IgnoresThreats`]).
    pub ignores_threats: f64,
    /// Whether the exact solver takes over its endgames.
    pub exact: bool,
    /// Its strength in Elo over the greedy player, as `cathedral ladder --games 400 --seed
    /// 31337` measured it (`docs/engine.md`, "The ladder of levels").
    pub elo: i32,
    /// Its name, a word or two, for a level picker.
    pub name: &'static str,
    /// The player it is, in a few words.
    pub summary: &'static str,
}

/// The ten levels, weakest first.
pub const LADDER: [Rung; 10] = [
    Rung {
        level: 1,
        search: Search::Depth(1),
        noise: 300,
        misses_claims: 0.4,
        fills_own: 0.2,
        ignores_threats: 0.3,
        exact: false,
        elo: -74,
        name: "beginner",
        summary: "a beginner: misses captures, fills its own territory",
    },
    Rung {
        level: 2,
        search: Search::Depth(1),
        noise: 225,
        misses_claims: 0.23,
        fills_own: 0.115,
        ignores_threats: 0.2,
        exact: false,
        elo: 61,
        name: "novice",
        summary: "a novice: often misses a capture or a threat",
    },
    Rung {
        level: 3,
        search: Search::Depth(1),
        noise: 110,
        misses_claims: 0.08,
        fills_own: 0.04,
        ignores_threats: 0.08,
        exact: false,
        elo: 324,
        name: "casual",
        summary: "a casual player: sees one move ahead, sometimes leaves a wall open",
    },
    Rung {
        level: 4,
        search: Search::Depth(2),
        noise: 125,
        misses_claims: 0.07,
        fills_own: 0.035,
        ignores_threats: 0.07,
        exact: false,
        elo: 557,
        name: "club",
        summary: "a club player: sees the reply, still slips",
    },
    Rung {
        level: 5,
        search: Search::Nodes(3_000),
        noise: 0,
        misses_claims: 0.01,
        fills_own: 0.005,
        ignores_threats: 0.01,
        exact: false,
        elo: 732,
        name: "strong club",
        summary: "a strong club player: reads a few moves, rarely slips",
    },
    Rung {
        level: 6,
        search: Search::Nodes(5_000),
        noise: 0,
        misses_claims: 0.0,
        fills_own: 0.0,
        ignores_threats: 0.0,
        exact: false,
        elo: 890,
        name: "expert",
        summary: "an expert: the engine at 5,000 nodes, no slips",
    },
    Rung {
        level: 7,
        search: Search::Nodes(10_000),
        noise: 0,
        misses_claims: 0.0,
        fills_own: 0.0,
        ignores_threats: 0.0,
        exact: false,
        elo: 1023,
        name: "master",
        summary: "a master: the engine at 10,000 nodes",
    },
    Rung {
        level: 8,
        search: Search::Nodes(20_000),
        noise: 0,
        misses_claims: 0.0,
        fills_own: 0.0,
        ignores_threats: 0.0,
        exact: false,
        elo: 1148,
        name: "engine 20k",
        summary: "the engine at 20,000 nodes",
    },
    Rung {
        level: 9,
        search: Search::Nodes(50_000),
        noise: 0,
        misses_claims: 0.0,
        fills_own: 0.0,
        ignores_threats: 0.0,
        exact: false,
        elo: 1299,
        name: "engine 50k",
        summary: "the engine at 50,000 nodes, without the solver",
    },
    Rung {
        level: 10,
        search: Search::Full,
        noise: 0,
        misses_claims: 0.0,
        fills_own: 0.0,
        ignores_threats: 0.0,
        exact: true,
        elo: 1499,
        name: "full strength",
        summary: "full strength: the whole budget and the exact solver",
    },
];

/// The rung of `level` (clamped to 1..=10).
pub fn rung(level: u8) -> &'static Rung {
    &LADDER[usize::from(level.clamp(1, LADDER.len() as u8)) - 1]
}

/// An error people make, which the weaker levels make on some moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slip {
    /// It does not see the claims and captures it could make: it places its biggest building
    /// where it claims nothing.
    MissesClaims,
    /// It fills its own territory (space nobody else can take) while it could still place
    /// outside it: its biggest building that fits wholly inside.
    FillsOwn,
    /// It follows its own plan blind to the opponent's threats, leaving walls open: its
    /// biggest building where it claims the most.
    IgnoresThreats,
}

impl Slip {
    /// The error in words.
    pub fn describe(self) -> &'static str {
        match self {
            Slip::MissesClaims => "missed a claim or a capture",
            Slip::FillsOwn => "filled its own territory",
            Slip::IgnoresThreats => "ignored the opponent's threats",
        }
    }
}

/// Mixed into the game's seed for the slips' draws, so that they do not follow the search's
/// noise.
const SLIP_SALT: u64 = 0x51ab_5eed_c0de_0001;

/// The slip `rung` makes in `position` on this move, if it makes one: drawn from `seed` and the
/// position (the same seed and position, the same slip). `None` also where the drawn error is
/// no error here (nothing to claim, no territory to fill) or at the Cathedral's placement.
pub fn slip(rung: &Rung, position: &Position, seed: u64) -> Option<(Slip, Move)> {
    if position.cathedral_to_place() || position.is_game_over() {
        return None;
    }
    let mut rng = Rng::new(seed ^ position.key().0 ^ SLIP_SALT);
    let draw = rng.unit();
    let kind = if draw < rung.misses_claims {
        Slip::MissesClaims
    } else if draw < rung.misses_claims + rung.fills_own {
        Slip::FillsOwn
    } else if draw < rung.misses_claims + rung.fills_own + rung.ignores_threats {
        Slip::IgnoresThreats
    } else {
        return None;
    };
    let mut list = MoveList::new();
    position.legal_moves(&mut list);
    let moves: Vec<(Move, MoveEffect)> = list
        .iter()
        .filter(|m| !m.is_pass())
        .map(|&m| (m, effect(position, m)))
        .collect();
    let chosen = match kind {
        Slip::MissesClaims => {
            // Only an error where some move claims.
            if !moves.iter().any(|(_, e)| e.claimed > 0) {
                return None;
            }
            biggest(&moves, &mut rng, |e| e.claimed == 0, |e| e.size)
        }
        Slip::FillsOwn => {
            // Only an error while the board still has room outside its territory.
            if !moves.iter().any(|(_, e)| e.own_territory_covered == 0) {
                return None;
            }
            biggest(
                &moves,
                &mut rng,
                |e| e.own_territory_covered == e.size && e.claimed == 0,
                |e| e.size,
            )
        }
        // The greedy player's key (`puzzle::greedy::key`: size, then squares claimed, which stay
        // below 128), on the effects already measured here; the puzzle module uses the engine,
        // so the engine does not call into it.
        Slip::IgnoresThreats => biggest(&moves, &mut rng, |_| true, |e| e.size * 128 + e.claimed),
    };
    chosen.map(|mv| (kind, mv))
}

/// Among the moves whose effect `keep` accepts, one with the highest `key`, drawn at random
/// among equals.
fn biggest(
    moves: &[(Move, MoveEffect)],
    rng: &mut Rng,
    keep: impl Fn(&MoveEffect) -> bool,
    key: impl Fn(&MoveEffect) -> u32,
) -> Option<Move> {
    let kept: Vec<&(Move, MoveEffect)> = moves.iter().filter(|(_, e)| keep(e)).collect();
    let best = kept.iter().map(|(_, e)| key(e)).max()?;
    let top: Vec<Move> = kept
        .iter()
        .filter(|(_, e)| key(e) == best)
        .map(|(m, _)| *m)
        .collect();
    Some(top[rng.below(top.len() as u64) as usize])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cathedral::policy::fixtures::{TAVERN_IN_THE_CORNER, play_all};
    use crate::cathedral::rules::Rules;

    #[test]
    fn the_ladder_is_in_order_and_weakens_monotonically() {
        for (i, rung) in LADDER.iter().enumerate() {
            assert_eq!(usize::from(rung.level), i + 1);
            assert!(rung.misses_claims + rung.fills_own + rung.ignores_threats < 1.0);
        }
        // Each rung searches at least as much as the one below, and where it searches as much,
        // it errs no more.
        let budget = |r: &Rung| match r.search {
            Search::Depth(d) => u64::from(d),
            Search::Nodes(n) => 1_000 + n,
            Search::Full => u64::MAX,
        };
        for pair in LADDER.windows(2) {
            let [weak, strong] = pair else { unreachable!() };
            assert!(budget(strong) >= budget(weak), "level {}", strong.level);
            if budget(strong) == budget(weak) {
                assert!(strong.noise <= weak.noise, "level {}", strong.level);
                assert!(strong.misses_claims <= weak.misses_claims);
                assert!(strong.fills_own <= weak.fills_own);
                assert!(strong.ignores_threats <= weak.ignores_threats);
            }
            assert!(strong.elo >= weak.elo, "level {}", strong.level);
        }
        assert_eq!(rung(0).level, 1);
        assert_eq!(rung(200).level, 10);
        assert_eq!(rung(10).search, Search::Full);
    }

    #[test]
    fn a_missed_capture_is_a_move_that_claims_nothing() {
        let position = play_all(&TAVERN_IN_THE_CORNER);
        let always = Rung {
            misses_claims: 0.999,
            ..LADDER[0]
        };
        for seed in 0..20 {
            let (kind, mv) = slip(&always, &position, seed).expect("a claim to miss");
            assert_eq!(kind, Slip::MissesClaims);
            let e = effect(&position, mv);
            assert_eq!(e.claimed, 0, "seed {seed}");
            assert_eq!(e.captured, 0);
        }
        // The same seed, the same slip; the full-strength rung never slips.
        assert_eq!(slip(&always, &position, 3), slip(&always, &position, 3));
        for seed in 0..50 {
            assert_eq!(slip(rung(10), &position, seed), None);
        }
    }

    #[test]
    fn no_slip_on_the_cathedral_and_none_that_is_no_error() {
        let start = Position::new(Rules::CLASSIC);
        let always = Rung {
            ignores_threats: 0.999,
            ..LADDER[0]
        };
        assert_eq!(slip(&always, &start, 1), None);
        // Nothing can be claimed after the Cathedral alone: missing a claim is no error.
        let position = play_all(&["cathedral:e7,d6,e6,f6,e5,e4"]);
        let blind = Rung {
            misses_claims: 0.999,
            ..LADDER[0]
        };
        for seed in 0..10 {
            if let Some((_, mv)) = slip(&blind, &position, seed) {
                panic!("slipped with {mv:?} where nothing could be claimed");
            }
        }
        // Nor filling a territory it does not have.
        let filler = Rung {
            fills_own: 0.999,
            misses_claims: 0.0,
            ..LADDER[0]
        };
        assert_eq!(slip(&filler, &position, 1), None);
    }

    #[test]
    fn ignoring_threats_plays_the_biggest_building() {
        let position = play_all(&["cathedral:e7,d6,e6,f6,e5,e4"]);
        let blind = Rung {
            ignores_threats: 0.999,
            misses_claims: 0.0,
            fills_own: 0.0,
            ..LADDER[0]
        };
        let biggest = (0..20)
            .filter_map(|seed| slip(&blind, &position, seed))
            .map(|(_, mv)| effect(&position, mv).size)
            .collect::<Vec<_>>();
        assert_eq!(biggest.len(), 20);
        assert!(biggest.iter().all(|&s| s == 5), "{biggest:?}");
    }
}
