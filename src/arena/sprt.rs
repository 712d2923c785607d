//! The sequential probability ratio test of a match, on game pairs (pentanomial statistics, as
//! fishtest runs it): after each pair, the log-likelihood ratio of "A is `elo1` stronger" against
//! "A is `elo0` stronger"; the test stops as soon as it crosses a bound.
//!
//! Each game scores 1, 1/2 or 0 for A (fewer, equal or more of the score unit than B: unplaced
//! squares in Cathedral); a pair's two games sum to 0, 1/2, 1, 3/2 or 2, the five outcomes
//! counted. The ratio is the generalised SPRT with maximum-likelihood estimates (fishtest's
//! method): with `p` the observed frequencies of the five pair scores `x` (0, 1/4, 1/2, 3/4, 1:
//! per game), each hypothesis' distribution is the one closest to `p` (in likelihood) whose mean
//! is that hypothesis' expected score `s = 1 / (1 + 10^(-elo / 400))`: `p_i / (1 + l (x_i - s))`
//! with `l` the root of `sum p_i (x_i - s) / (1 + l (x_i - s)) = 0`; then
//! `LLR = N sum p_i ln(p1_i / p0_i)` over `N` pairs. An outcome not seen yet counts 0.001, so
//! that every distribution is defined.
//!
//! ```
//! use cathedral::arena::{Sprt, SprtVerdict};
//! let mut test = Sprt::new(0.0, 200.0, 0.05, 0.05).unwrap();
//! // A wins both games of every pair: H1 (A is 200 Elo stronger) is accepted after 8 pairs.
//! let mut pairs = 0;
//! while test.verdict() == SprtVerdict::Continue {
//!     test.add_pair(4);
//!     pairs += 1;
//! }
//! assert_eq!(test.verdict(), SprtVerdict::AcceptH1);
//! assert_eq!(pairs, 8);
//! ```

use serde::Serialize;

/// A sequential test that cannot be set up: which setting is out of range.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
pub enum SprtError {
    /// An Elo bound that is not a number between -1000 and 1000.
    #[error("the Elo bounds must be numbers between -1000 and 1000")]
    EloOutOfRange,
    /// H1's bound not above H0's.
    #[error("elo1 ({elo1}) must be larger than elo0 ({elo0}): H1 says A is stronger than H0 does")]
    EloOrder {
        /// H0's Elo difference.
        elo0: f64,
        /// H1's Elo difference.
        elo1: f64,
    },
    /// An error rate outside (0, 0.5).
    #[error("{name} {rate} is out of range: expected above 0 and below 0.5")]
    ErrorRate {
        /// `alpha` or `beta`.
        name: &'static str,
        /// The rate given.
        rate: f64,
    },
}

/// What the test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SprtVerdict {
    /// Neither bound crossed: play on.
    Continue,
    /// The lower bound crossed: A is not `elo1` stronger (H0, `elo0`, accepted).
    AcceptH0,
    /// The upper bound crossed: A is `elo1` stronger (H1 accepted).
    AcceptH1,
}

/// A running SPRT.
#[derive(Clone, Debug, Serialize)]
pub struct Sprt {
    /// The Elo difference of H0.
    pub elo0: f64,
    /// The Elo difference of H1.
    pub elo1: f64,
    /// The false positive rate: accepting H1 when H0 holds.
    pub alpha: f64,
    /// The false negative rate: accepting H0 when H1 holds.
    pub beta: f64,
    /// Pairs by A's half-points over the two games: 0 (two losses) to 4 (two wins).
    pub pentanomial: [u64; 5],
    /// The log-likelihood ratio now.
    pub llr: f64,
    /// `ln(beta / (1 - alpha))`: H0 is accepted at or below it.
    pub lower_bound: f64,
    /// `ln((1 - beta) / alpha)`: H1 is accepted at or above it.
    pub upper_bound: f64,
    /// The verdict, fixed once a bound is crossed.
    pub verdict: SprtVerdict,
}

impl Sprt {
    /// A new test of H0 `elo0` against H1 `elo1` with error rates `alpha` and `beta`; the error
    /// says which setting is out of range.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, SprtError> {
        if !(elo0.is_finite() && elo1.is_finite() && elo0.abs() < 1000.0 && elo1.abs() < 1000.0) {
            return Err(SprtError::EloOutOfRange);
        }
        if elo1 <= elo0 {
            return Err(SprtError::EloOrder { elo0, elo1 });
        }
        for (name, rate) in [("alpha", alpha), ("beta", beta)] {
            if !(rate > 0.0 && rate < 0.5) {
                return Err(SprtError::ErrorRate { name, rate });
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
            pentanomial: [0; 5],
            llr: 0.0,
            lower_bound: (beta / (1.0 - alpha)).ln(),
            upper_bound: ((1.0 - beta) / alpha).ln(),
            verdict: SprtVerdict::Continue,
        })
    }

    /// Counts a pair in which A scored `half_points` (0 to 4) over its two games, and updates
    /// the ratio and the verdict (which stays fixed once reached).
    pub fn add_pair(&mut self, half_points: usize) {
        self.pentanomial[half_points.min(4)] += 1;
        self.llr = llr(&self.pentanomial, self.elo0, self.elo1);
        if self.verdict == SprtVerdict::Continue {
            if self.llr >= self.upper_bound {
                self.verdict = SprtVerdict::AcceptH1;
            } else if self.llr <= self.lower_bound {
                self.verdict = SprtVerdict::AcceptH0;
            }
        }
    }

    /// The verdict so far.
    pub fn verdict(&self) -> SprtVerdict {
        self.verdict
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u64 {
        self.pentanomial.iter().sum()
    }

    /// `LLR +1.23 (-2.94, +2.94)`.
    pub fn ratio_text(&self) -> String {
        format!(
            "LLR {:+.2} ({:+.2}, {:+.2})",
            self.llr, self.lower_bound, self.upper_bound
        )
    }

    /// The verdict in a sentence.
    pub fn text(&self) -> String {
        let head = format!(
            "SPRT of H0 {:+} Elo against H1 {:+} Elo (alpha {}, beta {}), {}, pentanomial {:?}: {}",
            self.elo0,
            self.elo1,
            self.alpha,
            self.beta,
            crate::present::words::count(self.pairs() as i64, "pair"),
            self.pentanomial,
            self.ratio_text()
        );
        let verdict = match self.verdict {
            SprtVerdict::Continue => "no verdict yet (neither bound crossed)".to_string(),
            SprtVerdict::AcceptH0 => format!("H0 accepted: A is not {:+} Elo stronger", self.elo1),
            SprtVerdict::AcceptH1 => {
                format!("H1 accepted: A is {:+} Elo stronger or more", self.elo1)
            }
        };
        format!("{head}; {verdict}")
    }
}

/// The expected score of an Elo difference.
fn score_of(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The pair scores of the five outcomes, per game.
const SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// The distribution closest to `p` (maximum likelihood) whose mean score is `s`.
fn closest_with_mean(p: &[f64; 5], s: f64) -> [f64; 5] {
    let d: Vec<f64> = SCORES.iter().map(|x| x - s).collect();
    // 1 + l d_i must stay positive: l between -1 / max d and -1 / min d.
    let d_max = d.iter().cloned().fold(f64::MIN, f64::max);
    let d_min = d.iter().cloned().fold(f64::MAX, f64::min);
    let (mut low, mut high) = (-1.0 / d_max, -1.0 / d_min);
    let f = |l: f64| (0..5).map(|i| p[i] * d[i] / (1.0 + l * d[i])).sum::<f64>();
    // f falls from +infinity to -infinity between the ends: bisect to its root.
    for _ in 0..200 {
        let mid = 0.5 * (low + high);
        if f(mid) > 0.0 {
            low = mid;
        } else {
            high = mid;
        }
    }
    let l = 0.5 * (low + high);
    let mut q = [0.0; 5];
    for i in 0..5 {
        q[i] = p[i] / (1.0 + l * d[i]);
    }
    let total: f64 = q.iter().sum();
    q.map(|v| v / total)
}

/// The log-likelihood ratio of H1 over H0 from pentanomial counts (see the module
/// documentation).
fn llr(counts: &[u64; 5], elo0: f64, elo1: f64) -> f64 {
    const UNSEEN: f64 = 1e-3;
    let pairs = counts.iter().sum::<u64>() as f64;
    if pairs == 0.0 {
        return 0.0;
    }
    let weights = counts.map(|c| if c == 0 { UNSEEN } else { c as f64 });
    let total: f64 = weights.iter().sum();
    let p = weights.map(|w| w / total);
    let p0 = closest_with_mean(&p, score_of(elo0));
    let p1 = closest_with_mean(&p, score_of(elo1));
    pairs * (0..5).map(|i| p[i] * (p1[i] / p0[i]).ln()).sum::<f64>()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_and_ranges() {
        let test = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        assert!((test.upper_bound - 2.944).abs() < 1e-3);
        assert!((test.lower_bound + 2.944).abs() < 1e-3);
        assert!(Sprt::new(10.0, 0.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 10.0, 0.0, 0.05).is_err());
        assert!(Sprt::new(0.0, 10.0, 0.05, 0.5).is_err());
        assert!(Sprt::new(f64::NAN, 10.0, 0.05, 0.05).is_err());
    }

    #[test]
    fn the_ratio_follows_the_score() {
        // Equal play: the mean score is 1/2, below the midpoint of s0 and s1 for elo1 > 0, so
        // the ratio falls and H0 is accepted.
        let mut even = Sprt::new(0.0, 20.0, 0.05, 0.05).unwrap();
        for i in 0..10_000 {
            even.add_pair([1, 2, 3, 2][i % 4]);
            if even.verdict() != SprtVerdict::Continue {
                break;
            }
        }
        assert_eq!(even.verdict(), SprtVerdict::AcceptH0);
        // With many pairs and close hypotheses the ratio is that of the normal approximation,
        // N (s1 - s0) (2m - s0 - s1) / (2v): here 4,000 pairs with mean 0.5125 and variance
        // 0.0717.
        let counts = [300, 900, 1500, 900, 400];
        let n = 4000.0;
        let mean = (0..5).map(|i| counts[i] as f64 * SCORES[i]).sum::<f64>() / n;
        let variance = (0..5)
            .map(|i| counts[i] as f64 * (SCORES[i] - mean).powi(2))
            .sum::<f64>()
            / n;
        let (s0, s1) = (score_of(0.0), score_of(10.0));
        let normal = n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance);
        let exact = llr(&counts, 0.0, 10.0);
        assert!(
            (exact - normal).abs() < 0.02 * normal.abs(),
            "{exact} {normal}"
        );
        // The closest distribution has the mean asked for.
        let q = closest_with_mean(&[0.1, 0.2, 0.3, 0.2, 0.2], 0.6);
        let mean: f64 = (0..5).map(|i| q[i] * SCORES[i]).sum();
        assert!((mean - 0.6).abs() < 1e-9 && (q.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    }

    #[test]
    fn one_pair_decides_nothing() {
        // A single won pair is far from enough evidence for 200 Elo at 5 % error rates.
        let mut test = Sprt::new(0.0, 200.0, 0.05, 0.05).unwrap();
        test.add_pair(4);
        assert_eq!(test.verdict(), SprtVerdict::Continue, "{}", test.llr);
        assert!(test.llr > 0.0);
    }

    #[test]
    fn a_verdict_stays() {
        let mut test = Sprt::new(0.0, 50.0, 0.05, 0.05).unwrap();
        while test.verdict() == SprtVerdict::Continue {
            test.add_pair(4);
        }
        test.add_pair(0);
        assert_eq!(test.verdict(), SprtVerdict::AcceptH1);
    }
}
