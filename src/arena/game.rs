//! What a match needs of a two-player game beyond its records: the seats, the score, a seeded
//! opening and the built-in players' moves.

use super::builtin::{Budget, BuiltIn};
use crate::boardgame::Rng;
use crate::frontend::Recorded;

/// A two-player game the match runner plays. Scores are per seat and lower is better
/// (Cathedral: unplaced squares); a pair goes to the contestant with the lower total.
pub trait MatchGame: Recorded {
    /// The rules a match is played under.
    type Rules: Copy + std::fmt::Debug + Send + Sync;

    /// The seats as titles, the first mover first (`Light`, `Dark`).
    const SEATS: [&'static str; 2];
    /// The seats as JSON keys (`light`, `dark`).
    const SEAT_KEYS: [&'static str; 2];
    /// Each seat's score as a JSON key (`light_unplaced`).
    const SCORE_KEYS: [&'static str; 2];
    /// Each seat's games as a JSON key of the summary (`as_light`).
    const AS_SEAT_KEYS: [&'static str; 2];
    /// What the score counts, as a column heading (`unplaced`).
    const SCORE_NOUN: &'static str;
    /// The score's unit, singular and plural (`square`, `squares`).
    const UNIT: [&'static str; 2];
    /// The score of a seat that forfeits (its opponent scores 0).
    const FORFEIT_SCORE: u32;

    /// The rules `--rules` names (the error says what was expected).
    fn match_rules(words: &str) -> Result<Self::Rules, String>;
    /// The start of a game under `rules`.
    fn start_under(rules: Self::Rules) -> Self;
    /// The rules in a word or a few (`classic`).
    fn rules_text(rules: Self::Rules) -> String;
    /// The seat to move (0 or 1).
    fn seat_to_move(&self) -> usize;
    /// Each seat's score in a finished game.
    fn final_scores(&self) -> [u32; 2];
    /// A move of the seeded opening, or `None` when there is none.
    fn opening_move(&self, rng: &mut Rng) -> Option<Self::Move>;
    /// Whether the built-in player `kind` plays this game (the reason if not).
    fn plays(kind: &BuiltIn) -> Result<(), String>;
    /// The move of a built-in player other than `random`, thinking `budget` with a table of
    /// `tt_mb` MiB; `rng` and `seed` vary its choices reproducibly.
    fn builtin_move(
        &self,
        kind: &BuiltIn,
        budget: Budget,
        tt_mb: usize,
        rng: &mut Rng,
        seed: u64,
    ) -> Option<Self::Move>;
    /// The record of a match game: `names` by seat, `round` and `comment` in words.
    fn match_record(
        rules: Self::Rules,
        moves: &[Self::Move],
        names: [&str; 2],
        round: String,
        comment: String,
    ) -> Self::Record;
    /// The protocol lines that start a game under `rules` for an outside engine (`rules
    /// classic`).
    fn protocol_new_game(rules: Self::Rules) -> Vec<String>;
}
