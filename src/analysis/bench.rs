//! How good a review is (`cathedral review-bench`): its marks against a reference review's (a
//! much deeper budget, the exact solver wherever it proves a position), move by move. What a
//! player is told rests on it: the mistakes the review misses, the marks it gives that the
//! reference does not, how far its losses are from the reference's, and what it costs.

use crate::analysis::Judge;
use crate::analysis::game::{GameAnalysis, Mark};
use serde::{Deserialize, Serialize};

/// One move as a review judged it: all the benchmark compares.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    /// What the move gave up, in the game's units.
    pub loss: f64,
    /// Whether the loss rests on two proven values.
    pub exact: bool,
    /// The mark, if any.
    pub mark: Option<Mark>,
    /// Whether the position before it was judged a second time, deeper.
    pub deeper: bool,
}

/// Every move of one game, in order.
pub fn verdicts<G: Judge>(analysis: &GameAnalysis<G>) -> Vec<Verdict> {
    analysis
        .plies
        .iter()
        .map(|ply| Verdict {
            loss: ply.loss,
            exact: ply.loss_is_exact,
            mark: ply.mark,
            deeper: ply.before.deeper,
        })
        .collect()
}

/// The nodes a review of one game searched, where the game counts them.
pub fn nodes<G: Judge>(analysis: &GameAnalysis<G>) -> Option<u64> {
    analysis
        .plies
        .iter()
        .map(|ply| ply.before.nodes)
        .chain(std::iter::once(analysis.end.nodes))
        .sum()
}

/// How the review did on the moves the reference marks at least `level`.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct MarkRow {
    /// The reference's moves at `level` or worse.
    pub reference: usize,
    /// Of those, the review marks at `level` or worse.
    pub found: usize,
    /// Of those, the review marks lower than `level` (`reference - found`).
    pub missed: usize,
    /// Of the missed, the review marks not at all.
    pub unmarked: usize,
    /// Moves the review marks at `level` or worse that the reference marks lower.
    pub false_marks: usize,
    /// Of the false marks, those the reference does not mark at all.
    pub false_unmarked: usize,
}

impl MarkRow {
    /// The share of the reference's moves the review missed (0 when it marks none).
    pub fn miss_rate(&self) -> f64 {
        if self.reference == 0 {
            0.0
        } else {
            self.missed as f64 / self.reference as f64
        }
    }
}

/// A review against its reference, over games.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Comparison {
    /// Moves compared.
    pub moves: usize,
    /// Moves the reference marks as inaccuracies or worse.
    pub inaccuracies: MarkRow,
    /// As mistakes or worse: the goal's row.
    pub mistakes: MarkRow,
    /// As blunders.
    pub blunders: MarkRow,
    /// Mistakes or worse the reference proves (both values exact).
    pub proven_mistakes: MarkRow,
    /// The mean of |review's loss - reference's loss| over every move.
    pub mean_error: f64,
    /// The mean of (review's loss - reference's loss): below 0, the review's losses are low.
    pub bias: f64,
    /// As `mean_error`, over the moves the reference marks.
    pub mean_error_marked: f64,
    /// As `bias`, over the moves the reference marks.
    pub bias_marked: f64,
    /// Moves whose position the review judged a second time.
    pub judged_again: usize,
}

/// Whether `mark` is `level` or worse.
fn at_least(mark: Option<Mark>, level: Mark) -> bool {
    mark.is_some_and(|m| m >= level)
}

/// Compares `review` with `reference`, game by game and move by move.
///
/// # Errors
///
/// When the two do not hold the same games: a different number of games, or of moves in one.
pub fn compare(review: &[Vec<Verdict>], reference: &[Vec<Verdict>]) -> Result<Comparison, String> {
    if review.len() != reference.len() {
        return Err(format!(
            "the review holds {} games and the reference {}",
            review.len(),
            reference.len()
        ));
    }
    let mut pairs = Vec::new();
    for (i, (ours, theirs)) in review.iter().zip(reference).enumerate() {
        if ours.len() != theirs.len() {
            return Err(format!(
                "game {}: the review judged {} moves and the reference {}",
                i + 1,
                ours.len(),
                theirs.len()
            ));
        }
        pairs.extend(ours.iter().zip(theirs));
    }
    let row = |level: Mark, only: &dyn Fn(&Verdict) -> bool| {
        let mut row = MarkRow::default();
        for (ours, theirs) in &pairs {
            let in_reference = at_least(theirs.mark, level) && only(theirs);
            if in_reference {
                row.reference += 1;
                if at_least(ours.mark, level) {
                    row.found += 1;
                } else {
                    row.missed += 1;
                    row.unmarked += usize::from(ours.mark.is_none());
                }
            } else if at_least(ours.mark, level) && !at_least(theirs.mark, level) {
                row.false_marks += 1;
                row.false_unmarked += usize::from(theirs.mark.is_none());
            }
        }
        row
    };
    let all = |_: &Verdict| true;
    let mean = |values: &mut dyn Iterator<Item = f64>| {
        let (sum, n) = values.fold((0.0, 0usize), |(s, n), v| (s + v, n + 1));
        if n == 0 { 0.0 } else { sum / n as f64 }
    };
    let marked: Vec<_> = pairs.iter().filter(|(_, r)| r.mark.is_some()).collect();
    Ok(Comparison {
        moves: pairs.len(),
        inaccuracies: row(Mark::Inaccuracy, &all),
        mistakes: row(Mark::Mistake, &all),
        blunders: row(Mark::Blunder, &all),
        proven_mistakes: MarkRow {
            // A proven mistake the review marks lower is missed; a false mark is not the
            // proof's to count (the reference proves only some moves).
            false_marks: 0,
            false_unmarked: 0,
            ..row(Mark::Mistake, &|v: &Verdict| v.exact)
        },
        mean_error: mean(&mut pairs.iter().map(|(o, r)| (o.loss - r.loss).abs())),
        bias: mean(&mut pairs.iter().map(|(o, r)| o.loss - r.loss)),
        mean_error_marked: mean(&mut marked.iter().map(|(o, r)| (o.loss - r.loss).abs())),
        bias_marked: mean(&mut marked.iter().map(|(o, r)| o.loss - r.loss)),
        judged_again: pairs.iter().filter(|(o, _)| o.deeper).count(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(loss: f64, mark: Option<Mark>) -> Verdict {
        Verdict {
            loss,
            exact: false,
            mark,
            deeper: false,
        }
    }

    #[test]
    fn misses_false_marks_and_errors_are_counted_move_by_move() {
        use Mark::*;
        let reference = vec![vec![
            v(9.0, Some(Blunder)),
            v(5.0, Some(Mistake)),
            v(0.0, None),
            v(2.5, Some(Inaccuracy)),
            Verdict {
                exact: true,
                ..v(4.0, Some(Mistake))
            },
        ]];
        let review = vec![vec![
            v(5.0, Some(Mistake)),
            v(1.0, None),
            v(4.5, Some(Mistake)),
            v(2.5, Some(Inaccuracy)),
            v(3.0, Some(Inaccuracy)),
        ]];
        let c = compare(&review, &reference).unwrap();
        assert_eq!(c.moves, 5);
        // Mistakes or worse: moves 1, 2 and 5 in the reference; move 1 found (as a mistake),
        // 2 unmarked, 5 marked lower; move 3 a false mark the reference does not mark.
        assert_eq!(
            c.mistakes,
            MarkRow {
                reference: 3,
                found: 1,
                missed: 2,
                unmarked: 1,
                false_marks: 1,
                false_unmarked: 1,
            }
        );
        assert_eq!(c.blunders.missed, 1);
        assert_eq!(c.proven_mistakes.reference, 1);
        assert_eq!(c.proven_mistakes.missed, 1);
        assert_eq!(c.inaccuracies.reference, 4);
        assert_eq!(c.inaccuracies.missed, 1);
        assert!((c.mistakes.miss_rate() - 2.0 / 3.0).abs() < 1e-12);
        // |−4| + |−4| + 4.5 + 0 + |−1| over 5 moves; signed −4.5 / 5.
        assert!((c.mean_error - 13.5 / 5.0).abs() < 1e-12);
        assert!((c.bias - (-4.5 / 5.0)).abs() < 1e-12);
        assert!((c.bias_marked - (-9.0 / 4.0)).abs() < 1e-12);
    }

    #[test]
    fn different_games_are_refused_in_words() {
        let one = vec![vec![v(0.0, None)]];
        let two = vec![vec![v(0.0, None), v(0.0, None)]];
        assert!(compare(&one, &two).unwrap_err().contains("game 1"));
        assert!(compare(&one, &[]).unwrap_err().contains("1 games"));
    }
}
