//! Whether a value was proven or estimated: every value the toolkit shows says which.

/// What a decision rests on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Judgement {
    /// Proven by the exact solver: the move is optimal and the value is the game's value.
    Exact,
    /// The estimating search's judgement.
    Estimate,
}
