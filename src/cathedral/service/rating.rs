//! `POST /api/rating`: the learner's rating after one attempt at a puzzle, and the puzzle's, by
//! the library's Glicko-2 update ([`crate::puzzle::rating::update`]), so that the page keeps
//! no rating arithmetic of its own.

use super::api::{ApiError, Expected, bad, read};
use crate::puzzle::rating::{Glicko, START_DEVIATION, START_RATING, START_VOLATILITY, update};
use serde::{Deserialize, Serialize};
use std::ops::RangeInclusive;

/// The body of `/api/rating`.
const RATING_UPDATE: Expected = Expected {
    what: "a rating update",
    example: r#"{"learner": {"rating": 1500, "deviation": 350, "volatility": 0.06}, "puzzle": {"rating": 1650, "deviation": 80}, "solved": true}"#,
};

/// Ratings a request may carry.
const RATINGS: RangeInclusive<f64> = 0.0..=4000.0;
/// Deviations a request may carry.
const DEVIATIONS: RangeInclusive<f64> = 1.0..=START_DEVIATION;
/// Volatilities a request may carry.
const VOLATILITIES: RangeInclusive<f64> = 0.0001..=1.0;

/// A rating as sent: the deviation and volatility may be left out (350 and 0.06).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RatingIn {
    rating: f64,
    #[serde(default)]
    deviation: Option<f64>,
    #[serde(default)]
    volatility: Option<f64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RatingRequest {
    /// The learner's rating (a new learner: omitted, or 1500, 350, 0.06).
    #[serde(default)]
    learner: Option<RatingIn>,
    /// The puzzle's (its `glicko` from the puzzle list).
    puzzle: RatingIn,
    /// Whether the learner found the answer.
    solved: bool,
}

/// A rating as answered: the rating and deviation to one decimal, the volatility to six.
#[derive(Serialize)]
pub(crate) struct RatingOut {
    rating: f64,
    deviation: f64,
    volatility: f64,
}

impl From<Glicko> for RatingOut {
    fn from(g: Glicko) -> RatingOut {
        RatingOut {
            rating: (g.rating * 10.0).round() / 10.0,
            deviation: (g.deviation * 10.0).round() / 10.0,
            volatility: (g.volatility * 1e6).round() / 1e6,
        }
    }
}

#[derive(Serialize)]
pub(crate) struct RatingResponse {
    learner: RatingOut,
    puzzle: RatingOut,
}

/// `value` if it lies in `range`, or a 400 naming the field and the range.
fn checked(name: &str, value: f64, range: &RangeInclusive<f64>) -> Result<f64, ApiError> {
    if range.contains(&value) {
        Ok(value)
    } else {
        Err(bad(format!(
            "{name} {value} is out of range: expected {} to {}",
            range.start(),
            range.end()
        )))
    }
}

fn glicko(who: &str, given: Option<RatingIn>) -> Result<Glicko, ApiError> {
    let given = given.unwrap_or(RatingIn {
        rating: START_RATING,
        deviation: None,
        volatility: None,
    });
    Ok(Glicko {
        rating: checked(&format!("{who}.rating"), given.rating, &RATINGS)?,
        deviation: checked(
            &format!("{who}.deviation"),
            given.deviation.unwrap_or(START_DEVIATION),
            &DEVIATIONS,
        )?,
        volatility: checked(
            &format!("{who}.volatility"),
            given.volatility.unwrap_or(START_VOLATILITY),
            &VOLATILITIES,
        )?,
    })
}

/// Both ratings after one attempt: a solved puzzle is a win for the learner.
pub(crate) fn rating(body: &[u8]) -> Result<serde_json::Value, ApiError> {
    let request: RatingRequest = read(body, &RATING_UPDATE)?;
    let learner = glicko("learner", request.learner)?;
    let puzzle = glicko("puzzle", Some(request.puzzle))?;
    let (learner, puzzle) = update(learner, puzzle, request.solved);
    super::to_json(&RatingResponse {
        learner: learner.into(),
        puzzle: puzzle.into(),
    })
}
