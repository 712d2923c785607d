//! Ratings: Glicko-2 (Glickman 2012, through `skillratings`), one rating a player for each game,
//! updated by each rated result as one rating period of one result: a match of two games by its
//! total, or a single rated game.

use serde::{Deserialize, Serialize};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};

/// A player's rating in one game.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// The rating, 1500 at the start.
    pub rating: f64,
    /// Its deviation (350 at the start): about 95 % of players' strength lies within twice it.
    pub deviation: f64,
    /// How erratic the player's results are (0.06 at the start).
    pub volatility: f64,
    /// The rated results so far.
    pub results: u64,
}

impl Default for Rating {
    fn default() -> Rating {
        let start = Glicko2Rating::new();
        Rating {
            rating: start.rating,
            deviation: start.deviation,
            volatility: start.volatility,
            results: 0,
        }
    }
}

impl Rating {
    /// Whether the rating is still provisional: a deviation above 110, as lichess marks it.
    pub fn provisional(&self) -> bool {
        self.deviation > 110.0
    }

    fn glicko(&self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    fn from_glicko(glicko: Glicko2Rating, results: u64) -> Rating {
        Rating {
            rating: glicko.rating,
            deviation: glicko.deviation,
            volatility: glicko.volatility,
            results,
        }
    }
}

/// Both players' ratings after a result: `winner` 0 or 1, `None` for a draw.
///
/// ```
/// use cathedral::play::{Rating, rate};
/// let [winner, loser] = rate([Rating::default(), Rating::default()], Some(0));
/// assert!(winner.rating > 1500.0 && loser.rating < 1500.0);
/// assert_eq!((winner.results, loser.results), (1, 1));
/// ```
pub fn rate(players: [Rating; 2], winner: Option<usize>) -> [Rating; 2] {
    let outcome = match winner {
        Some(0) => Outcomes::WIN,
        Some(_) => Outcomes::LOSS,
        None => Outcomes::DRAW,
    };
    let (one, two) = glicko2(
        &players[0].glicko(),
        &players[1].glicko(),
        &outcome,
        &Glicko2Config::new(),
    );
    [
        Rating::from_glicko(one, players[0].results + 1),
        Rating::from_glicko(two, players[1].results + 1),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_draw_between_equals_moves_neither_and_narrows_both() {
        let [a, b] = rate([Rating::default(), Rating::default()], None);
        assert!((a.rating - 1500.0).abs() < 1e-9 && (b.rating - 1500.0).abs() < 1e-9);
        assert!(a.deviation < 350.0 && b.deviation < 350.0);
    }

    #[test]
    fn beating_a_stronger_player_gains_more() {
        let strong = Rating {
            rating: 1800.0,
            deviation: 80.0,
            ..Rating::default()
        };
        let [upset, _] = rate([Rating::default(), strong], Some(0));
        let [expected, _] = rate([strong, Rating::default()], Some(0));
        assert!(upset.rating - 1500.0 > expected.rating - 1800.0);
        assert!(!expected.provisional() && upset.provisional());
    }
}
