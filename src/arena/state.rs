//! A pair read back from its JSON (what `PairResult` serialises to): the form a pair travels in
//! between processes (Python's pickles, Ray's tasks). Every move is replayed from the start, so a
//! state that does not match its game is refused, never trusted.

use super::{MatchGame, PairResult, PlayedGame};
use serde_json::Value;

impl<G: MatchGame> PairResult<G> {
    /// The pair `value` holds, under the rules `rules` names; what is missing or cannot be
    /// played, in words.
    pub fn from_json(rules: &str, value: &Value) -> Result<PairResult<G>, String> {
        let bad = |what: &str| format!("a pair's state lacks {what}");
        let rule_set = G::match_rules(rules)?;
        let number =
            |v: &Value, key: &str| v.get(key).and_then(Value::as_u64).ok_or_else(|| bad(key));
        let text = |v: &Value, key: &str| {
            v.get(key)
                .and_then(Value::as_str)
                .map(str::to_string)
                .ok_or_else(|| bad(key))
        };
        let games = value
            .get("games")
            .and_then(Value::as_array)
            .filter(|games| games.len() == 2)
            .ok_or_else(|| bad("its two games"))?;
        let mut played = Vec::with_capacity(2);
        for game in games {
            let moves: Vec<String> = game
                .get("moves")
                .and_then(Value::as_array)
                .ok_or_else(|| bad("moves"))?
                .iter()
                .map(|m| m.as_str().map(str::to_string).ok_or_else(|| bad("moves")))
                .collect::<Result<_, String>>()?;
            let mut position = G::start_under(rule_set);
            let mut line = Vec::with_capacity(moves.len());
            for text in &moves {
                let mv = position
                    .parse_move(text)
                    .map_err(|why| format!("a pair's move `{text}`: {why}"))?;
                position.play(mv);
                line.push(mv);
            }
            let forfeit = match game.get("forfeit") {
                Some(Value::Array(entry)) => {
                    let seat_key = entry
                        .first()
                        .and_then(Value::as_str)
                        .ok_or_else(|| bad("forfeit"))?;
                    let seat = G::SEAT_KEYS
                        .iter()
                        .position(|k| *k == seat_key)
                        .ok_or_else(|| bad("forfeit"))?;
                    let why = entry
                        .get(1)
                        .and_then(Value::as_str)
                        .ok_or_else(|| bad("forfeit"))?;
                    Some((seat, why.to_string()))
                }
                _ => None,
            };
            played.push(PlayedGame::<G> {
                pair: number(game, "pair")? as usize,
                game: number(game, "game")? as usize,
                names: [text(game, G::SEAT_KEYS[0])?, text(game, G::SEAT_KEYS[1])?],
                rules: text(game, "rules")?,
                opening_plies: number(game, "opening_plies")? as usize,
                moves,
                played: line,
                rule_set,
                scores: [
                    number(game, G::SCORE_KEYS[0])? as u32,
                    number(game, G::SCORE_KEYS[1])? as u32,
                ],
                forfeit,
            });
        }
        let second = played.pop().ok_or_else(|| bad("its games"))?;
        let first = played.pop().ok_or_else(|| bad("its games"))?;
        Ok(PairResult {
            pair: number(value, "pair")? as usize,
            games: [first, second],
            a_squares: number(value, "a_squares")? as u32,
            b_squares: number(value, "b_squares")? as u32,
        })
    }
}
