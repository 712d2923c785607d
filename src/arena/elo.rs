//! The Elo difference that a score implies, with its 95 % interval.

use serde::Serialize;

/// An Elo difference with a 95 % confidence interval; the ends are `None` where the score
/// (or the end of its interval) is 0 % or 100 %, which no finite difference explains.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Elo {
    /// The difference itself.
    pub difference: Option<f64>,
    /// The interval's lower end.
    pub low: Option<f64>,
    /// The interval's upper end.
    pub high: Option<f64>,
}

/// The Elo difference of an expected score `s` (0 to 1): `400 log10(s / (1 - s))`.
pub fn elo_of_score(s: f64) -> Option<f64> {
    // Within rounding of 0 or 1 the difference is unbounded, not a huge number.
    const EDGE: f64 = 1e-9;
    (s > EDGE && s < 1.0 - EDGE).then(|| 400.0 * (s / (1.0 - s)).log10())
}

/// The Elo difference from `scores`, each 0, 0.5 or 1 (one per independent unit: a pair of
/// games), with the 95 % Wilson score interval of the mean score (which stays inside 0..1 and
/// still bounds a sweep from one side).
pub fn elo(scores: &[f64]) -> Elo {
    let n = scores.len() as f64;
    if scores.is_empty() {
        return Elo {
            difference: None,
            low: None,
            high: None,
        };
    }
    const Z: f64 = 1.96;
    let mean = scores.iter().sum::<f64>() / n;
    let z2 = Z * Z;
    let centre = (mean + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half_width = Z / (1.0 + z2 / n) * (mean * (1.0 - mean) / n + z2 / (4.0 * n * n)).sqrt();
    Elo {
        difference: elo_of_score(mean),
        low: elo_of_score((centre - half_width).max(0.0)),
        high: elo_of_score((centre + half_width).min(1.0)),
    }
}

impl Elo {
    /// `+120 (95 %: +80 to +165)`; a sweep reads `above +166 (95 %)`.
    pub fn text(&self) -> String {
        match (self.difference, self.low, self.high) {
            (None, Some(low), None) => return format!("above {low:+.0} (95 %; A won every pair)"),
            (None, None, Some(high)) => {
                return format!("below {high:+.0} (95 %; B won every pair)");
            }
            _ => {}
        }
        let show = |v: Option<f64>, none: &str| match v {
            Some(v) => format!("{v:+.0}"),
            None => none.to_string(),
        };
        let difference = match self.difference {
            Some(d) => format!("{d:+.0}"),
            None => "beyond measure (every pair went one way)".to_string(),
        };
        format!(
            "{difference} (95 %: {} to {})",
            show(self.low, "-inf"),
            show(self.high, "+inf")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        assert_eq!(elo_of_score(0.5), Some(0.0));
        let seventy_six = elo_of_score(0.76).unwrap();
        assert!((seventy_six - 200.0).abs() < 1.5, "{seventy_six}");
        assert_eq!(elo_of_score(1.0), None);
        let even = elo(&[1.0, 0.0, 0.5, 0.5]);
        assert_eq!(even.difference, Some(0.0));
        assert!(even.low.unwrap() < 0.0 && even.high.unwrap() > 0.0);
        let sweep = elo(&[1.0; 10]);
        assert_eq!(sweep.difference, None);
        assert_eq!(sweep.high, None);
        // Wilson: the lower end of 10 out of 10 is 10 / (10 + 1.96^2).
        let low = sweep.low.expect("a finite lower end");
        assert!((low - elo_of_score(10.0 / (10.0 + 1.96 * 1.96)).unwrap()).abs() < 1e-9);
        assert!(sweep.text().starts_with("above +16"), "{}", sweep.text());
        // Symmetric: swapping the sides negates everything.
        let a = elo(&[1.0, 1.0, 0.5, 0.0, 1.0]);
        let b = elo(&[0.0, 0.0, 0.5, 1.0, 0.0]);
        assert!((a.difference.unwrap() + b.difference.unwrap()).abs() < 1e-9);
        assert!((a.low.unwrap() + b.high.unwrap()).abs() < 1e-9);
    }
}
