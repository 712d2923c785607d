//! A sensible, fast playing policy: large buildings first, claiming and capturing when it can,
//! with a little seeded noise so that games differ. Used to sample realistic positions (the
//! endgame sampler, the puzzle generator), not to play well.
//!
//! Every legal move is scored by playing it on a copy of the position (with the no-op claim
//! sink, the same cost as the search's make-move): squares claimed, squares captured, the size of
//! the building placed, and a penalty for filling one's own territory. The best score wins; ties
//! and near-ties are broken by the noise. The same seed always gives the same choices.

use crate::boardgame::Rng;
use crate::cathedral::moves::{Move, MoveList};
use crate::cathedral::placement::table;
use crate::cathedral::position::Position;

/// The weights of the move score. Each term is in squares.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Policy {
    /// Per square of the building placed: prefers large buildings while they still fit.
    pub size: f64,
    /// Per square newly claimed (the captured building's cells included).
    pub claim: f64,
    /// Per square of opponent building captured (returned to the opponent's hand).
    pub capture: f64,
    /// Per square of own territory covered by the building (a wasted waiting move early on).
    pub own_territory: f64,
    /// Uniform noise in `[0, noise)` added to each score.
    pub noise: f64,
}

impl Default for Policy {
    fn default() -> Policy {
        Policy {
            size: 3.0,
            claim: 1.0,
            capture: 10.0,
            own_territory: 1.5,
            noise: 3.0,
        }
    }
}

/// What playing a move does, in squares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveEffect {
    /// Squares of the building placed; 0 for a pass.
    pub size: u32,
    /// Squares of territory the mover gains (the captured buildings' cells included).
    pub claimed: u32,
    /// Squares of opponent buildings captured (returned to the opponent's hand).
    pub captured: u32,
    /// Squares of the mover's own territory the building covers.
    pub own_territory_covered: u32,
}

/// Plays `mv` on a copy of `position` and measures it.
pub fn effect(position: &Position, mv: Move) -> MoveEffect {
    let Some(id) = mv.placement() else {
        return MoveEffect::default();
    };
    let mover = position.to_move();
    let opponent = mover.opponent();
    let placement = table().get(id);
    let before = position.side(mover);
    let mut after = *position;
    after.play(mv);
    let covered = (before.territory & placement.mask).count();
    let territory_after = after.side(mover).territory.count();
    let territory_before = before.territory.count() - covered;
    MoveEffect {
        size: placement.mask.count(),
        claimed: territory_after.saturating_sub(territory_before),
        captured: after
            .unplaced_squares(opponent)
            .saturating_sub(position.unplaced_squares(opponent)),
        own_territory_covered: covered,
    }
}

impl Policy {
    /// The score of a move's effect, without noise.
    pub fn score(&self, effect: &MoveEffect) -> f64 {
        self.size * effect.size as f64
            + self.claim * effect.claimed as f64
            + self.capture * effect.captured as f64
            - self.own_territory * effect.own_territory_covered as f64
    }

    /// The move this policy plays from `position`, or `None` when the game is over.
    pub fn choose(&self, position: &Position, rng: &mut Rng) -> Option<Move> {
        let mut list = MoveList::new();
        position.legal_moves(&mut list);
        self.choose_from(position, &list, rng)
    }

    /// Like [`Policy::choose`] with the legal moves already generated.
    pub fn choose_from(&self, position: &Position, list: &MoveList, rng: &mut Rng) -> Option<Move> {
        let mut best: Option<(f64, Move)> = None;
        for &mv in list {
            // A voluntary pass is the last resort; a forced pass is the only move anyway.
            let base = if mv.is_pass() {
                -1.0
            } else {
                self.score(&effect(position, mv))
            };
            let score = base + self.noise * rng.unit();
            if best.is_none_or(|(b, _)| score > b) {
                best = Some((score, mv));
            }
        }
        best.map(|(_, mv)| mv)
    }
}

/// Plays `position` with `policy` until the game is over or `stop` says so; returns every
/// position reached, the first one included (`positions[ply]`).
pub fn play_game(
    start: Position,
    policy: &Policy,
    rng: &mut Rng,
    mut stop: impl FnMut(&Position, usize) -> bool,
) -> Vec<Position> {
    let mut positions = vec![start];
    let mut position = start;
    let mut list = MoveList::new();
    // A game has at most 29 building moves per side plus passes; the cap guards against a
    // voluntary-pass loop that cannot happen with a legal policy.
    for ply in 0..400 {
        if stop(&position, ply) {
            break;
        }
        position.legal_moves(&mut list);
        let Some(mv) = policy.choose_from(&position, &list, rng) else {
            break;
        };
        position.play(mv);
        positions.push(position);
    }
    positions
}

/// Positions for the tests of the move choosers (this policy, the ladder's slips).
#[cfg(test)]
pub(crate) mod fixtures {
    use crate::cathedral::legality::parse_move;
    use crate::cathedral::position::Position;
    use crate::cathedral::rules::Rules;

    /// Light's Tavern alone in the a10 corner, Dark to move: Dark's Inn at a9,b9,b10 captures it.
    pub(crate) const TAVERN_IN_THE_CORNER: [&str; 5] = [
        "cathedral:e7,d6,e6,f6,e5,e4",
        "dark:castle:a1,b1,c1,a2,c2",
        "light:square:h8,i8,h9,i9",
        "dark:bridge:d1,e1,f1",
        "light:tavern:a10",
    ];

    /// The classic start after `moves`.
    pub(crate) fn play_all(moves: &[&str]) -> Position {
        let mut position = Position::new(Rules::CLASSIC);
        for text in moves {
            position.play(parse_move(&position, text).expect(text));
        }
        position
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::{TAVERN_IN_THE_CORNER, play_all};
    use super::*;
    use crate::cathedral::legality::parse_move;
    use crate::cathedral::rules::Rules;

    #[test]
    fn rng_is_deterministic_and_spread() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        let xs: Vec<u64> = (0..5).map(|_| a.next_u64()).collect();
        let ys: Vec<u64> = (0..5).map(|_| b.next_u64()).collect();
        assert_eq!(xs, ys);
        assert_ne!(Rng::new(8).next_u64(), xs[0]);
        let mut r = Rng::new(1);
        for _ in 0..1000 {
            let u = r.unit();
            assert!((0.0..1.0).contains(&u));
            assert!(r.below(6) < 6);
        }
    }

    #[test]
    fn same_seed_same_game() {
        let policy = Policy::default();
        let game = |seed| {
            let mut rng = Rng::new(seed);
            play_game(
                Position::new(Rules::CLASSIC),
                &policy,
                &mut rng,
                |_, ply| ply >= 12,
            )
        };
        assert_eq!(game(42), game(42));
        assert_ne!(game(42), game(43));
    }

    #[test]
    fn prefers_a_capturing_move() {
        let position = play_all(&TAVERN_IN_THE_CORNER);
        let capture = parse_move(&position, "dark:inn:a9,b9,b10").unwrap();
        assert_eq!(effect(&position, capture).captured, 1);
        let policy = Policy::default();
        for seed in 0..20 {
            let mv = policy.choose(&position, &mut Rng::new(seed)).unwrap();
            let e = effect(&position, mv);
            assert!(e.captured > 0, "seed {seed}: {mv:?} captures nothing");
        }
    }

    #[test]
    fn plays_a_whole_game_to_the_end() {
        let mut rng = Rng::new(3);
        let game = play_game(
            Position::new(Rules::CLASSIC),
            &Policy::default(),
            &mut rng,
            |_, _| false,
        );
        assert!(game.last().unwrap().is_game_over());
        assert!(game.len() > 20);
    }
}
