//! Who plays in a match: the interface every contestant implements (a built-in player or an
//! outside engine), and the built-in players ready to play.

use super::builtin::{Budget, BuiltIn};
use super::game::MatchGame;
use crate::boardgame::{Clock, Rng};

/// A player in a match of game `G`. Each game starts with [`Contestant::new_game`]; then the
/// contestant is asked for a move whenever it is to move.
pub trait Contestant<G: MatchGame>: Send {
    /// The name written in reports and records.
    fn name(&self) -> String;

    /// A new game under `rules` begins; `seed` varies the contestant's random choices
    /// reproducibly.
    fn new_game(&mut self, rules: G::Rules, seed: u64) -> Result<(), String>;

    /// The move to play in `position`, reached from the game's start by `moves`, with `clock`
    /// on the contestant's clock in a match played on one. An error (a crash, an illegal move,
    /// no answer in time) forfeits the game.
    fn choose(
        &mut self,
        moves: &[G::Move],
        position: &G,
        clock: Option<Clock>,
    ) -> Result<G::Move, String>;
}

/// A built-in player ready to play, with the match's budget for engines without their own.
pub struct BuiltInPlayer {
    kind: BuiltIn,
    budget: Budget,
    rng: Rng,
    seed: u64,
    tt_mb: usize,
}

impl BuiltInPlayer {
    /// `kind`, thinking `budget` per move (engines without a budget of their own) with a table of
    /// `tt_mb` MiB.
    pub fn new(kind: BuiltIn, budget: Budget, tt_mb: usize) -> BuiltInPlayer {
        BuiltInPlayer {
            kind,
            budget,
            rng: Rng::new(0),
            seed: 0,
            tt_mb,
        }
    }
}

impl<G: MatchGame> Contestant<G> for BuiltInPlayer {
    fn name(&self) -> String {
        match self.kind {
            BuiltIn::Engine { budget: None, .. } => format!("{}, {}", self.kind, self.budget),
            kind => kind.to_string(),
        }
    }

    fn new_game(&mut self, _rules: G::Rules, seed: u64) -> Result<(), String> {
        self.rng = Rng::new(seed);
        self.seed = seed;
        Ok(())
    }

    fn choose(
        &mut self,
        _moves: &[G::Move],
        position: &G,
        clock: Option<Clock>,
    ) -> Result<G::Move, String> {
        let none = || "the game is over: there is no move to choose".to_string();
        match self.kind {
            BuiltIn::Random => {
                let moves = position.legal_moves();
                if moves.is_empty() {
                    return Err(none());
                }
                Ok(moves[self.rng.below(moves.len() as u64) as usize])
            }
            kind => {
                if matches!(kind, BuiltIn::Engine { .. }) {
                    self.seed = self.seed.wrapping_add(1);
                }
                // On a clock, the move's budget is what is left on it.
                let budget = match (self.budget, clock) {
                    (Budget::Clock(_), Some(now)) => Budget::Clock(now),
                    (budget, _) => budget,
                };
                position
                    .builtin_move(&kind, budget, self.tt_mb, &mut self.rng, self.seed)
                    .ok_or_else(none)
            }
        }
    }
}
