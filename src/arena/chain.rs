//! Ratings chained through matches: each player measured against the one below it, each step's
//! Elo difference with its standard error, the ratings summed up from an anchor at 0 and their
//! errors added in quadrature (the steps are independent matches).

use super::elo::elo_of_score;
use serde::Serialize;

/// One match's Elo difference, from its pair scores (0, 0.5 or 1 each).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Step {
    /// A's mean pair score.
    pub score: f64,
    /// A's Elo over B.
    pub elo: f64,
    /// Its standard error (the delta method on the mean score's).
    pub error: f64,
}

/// The step of `scores`; `None` when there are fewer than two pairs or every pair went one way
/// (no finite difference explains a sweep, so nothing can be chained through it).
pub fn step(scores: &[f64]) -> Option<Step> {
    if scores.len() < 2 {
        return None;
    }
    let n = scores.len() as f64;
    let score = scores.iter().sum::<f64>() / n;
    let elo = elo_of_score(score)?;
    let variance = scores.iter().map(|s| (s - score).powi(2)).sum::<f64>() / (n - 1.0);
    // d elo / d score = 400 / (ln 10 * s (1 - s)).
    let slope = 400.0 / (std::f64::consts::LN_10 * score * (1.0 - score));
    Some(Step {
        score,
        elo,
        error: slope * (variance / n).sqrt(),
    })
}

/// A rating on a chain: its Elo over the anchor and its standard error.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Rating {
    /// Elo over the anchor.
    pub elo: f64,
    /// Its standard error.
    pub error: f64,
}

impl Rating {
    /// The anchor itself.
    pub const ANCHOR: Rating = Rating {
        elo: 0.0,
        error: 0.0,
    };

    /// The rating of the player that `step` measured as B, with A rated `self`.
    pub fn above(self, step: &Step) -> Rating {
        Rating {
            elo: self.elo - step.elo,
            error: self.error.hypot(step.error),
        }
    }

    /// The rating of the player that `step` measured as A, with B rated `self`.
    pub fn below(self, step: &Step) -> Rating {
        Rating {
            elo: self.elo + step.elo,
            error: self.error.hypot(step.error),
        }
    }

    /// `+120 ± 45` (the 95 % interval's half width).
    pub fn text(&self) -> String {
        format!("{:+.0} ± {:.0}", self.elo, 1.96 * self.error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_even_match_is_zero_with_a_known_error() {
        let scores = [1.0, 0.0, 1.0, 0.0, 0.5, 0.5];
        let s = step(&scores).unwrap();
        assert_eq!(s.score, 0.5);
        assert!(s.elo.abs() < 1e-9);
        // variance 0.2 (n - 1 = 5), slope 400 / (ln 10 / 4) = 694.9.
        let expected = 400.0 / (std::f64::consts::LN_10 * 0.25) * (0.2f64 / 6.0).sqrt();
        assert!((s.error - expected).abs() < 1e-9, "{}", s.error);
    }

    #[test]
    fn sweeps_and_single_pairs_cannot_be_chained() {
        assert_eq!(step(&[1.0, 1.0, 1.0]), None);
        assert_eq!(step(&[0.0, 0.0]), None);
        assert_eq!(step(&[0.5]), None);
    }

    #[test]
    fn ratings_chain_up_and_errors_add_in_quadrature() {
        // A scores 76 % over B: about +200.
        let mut scores = vec![1.0; 76];
        scores.extend(vec![0.0; 24]);
        let s = step(&scores).unwrap();
        assert!((s.elo - 200.24).abs() < 0.1, "{}", s.elo);
        let b = Rating::ANCHOR.above(&s);
        assert!((b.elo + s.elo).abs() < 1e-9);
        assert_eq!(b.error, s.error);
        let c = b.above(&s);
        assert!((c.elo + 2.0 * s.elo).abs() < 1e-9);
        assert!((c.error - s.error * 2f64.sqrt()).abs() < 1e-9);
        assert!((Rating::ANCHOR.below(&s).elo - s.elo).abs() < 1e-9);
        assert_eq!(
            Rating {
                elo: 120.4,
                error: 10.0
            }
            .text(),
            "+120 ± 20"
        );
    }
}
