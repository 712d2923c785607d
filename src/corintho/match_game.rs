//! Corintho in the match runner (two players): a game scores in half-points dropped, 0 for a
//! win, 1 for a draw, 2 for a loss, so that a pair goes to whoever dropped fewer; seeded random
//! openings; the built-in `random` and `engine` (the paranoid search deepened up to the level's
//! depth within the budget).

use super::engine::{CLOCK_MOVES, engine_depth};
use super::record::CorinthoRecord;
use super::{CorinthoMove, CorinthoPosition, CorinthoRules, Outcome};
use crate::arena::{Budget, BuiltIn, EvalChoice, MatchGame};
use crate::boardgame::Rng;
use crate::boardgame::engine::Tunables;

impl MatchGame for CorinthoPosition {
    type Rules = CorinthoRules;

    const SEATS: [&'static str; 2] = ["player 1", "player 2"];
    const SEAT_KEYS: [&'static str; 2] = ["player_1", "player_2"];
    const SCORE_KEYS: [&'static str; 2] = ["player_1_dropped", "player_2_dropped"];
    const AS_SEAT_KEYS: [&'static str; 2] = ["as_player_1", "as_player_2"];
    const SCORE_NOUN: &'static str = "half-points dropped";
    const UNIT: [&'static str; 2] = ["half-point", "half-points"];
    const FORFEIT_SCORE: u32 = 2;

    fn match_rules(words: &str) -> Result<CorinthoRules, String> {
        match words {
            "classic" | "standard" => Ok(CorinthoRules::default()),
            _ => Err(
                "a Corintho match plays the standard two-player rules: `--rules standard`"
                    .to_string(),
            ),
        }
    }

    fn start_under(rules: CorinthoRules) -> CorinthoPosition {
        CorinthoPosition::new(rules)
    }

    fn rules_text(rules: CorinthoRules) -> String {
        let words = rules.variant_words();
        if words.is_empty() {
            format!("{} players", rules.players)
        } else {
            format!("{} players, {}", rules.players, words.join(", "))
        }
    }

    fn seat_to_move(&self) -> usize {
        usize::from(self.to_move())
    }

    fn final_scores(&self) -> [u32; 2] {
        match self.outcome() {
            Outcome::Won(0) => [0, 2],
            Outcome::Won(_) => [2, 0],
            Outcome::Drawn | Outcome::Ongoing => [1, 1],
        }
    }

    fn opening_move(&self, rng: &mut Rng) -> Option<CorinthoMove> {
        let moves = self.legal_moves();
        (!moves.is_empty()).then(|| moves[rng.below(moves.len() as u64) as usize])
    }

    fn plays(kind: &BuiltIn) -> Result<(), String> {
        match kind {
            BuiltIn::Random => Ok(()),
            BuiltIn::Engine {
                eval: EvalChoice::Network,
                exact: true,
                threads: 1,
                manage: true,
                tunables,
                ..
            } if *tunables == Tunables::default() => Ok(()),
            BuiltIn::Engine { .. } => Err(
                "the Corintho engine has no `eval`, `exact`, `threads` or `manage` settings and no tunables (it is a paranoid search of depth up to 1 + level / 3, one thread)"
                    .to_string(),
            ),
            BuiltIn::Policy | BuiltIn::Greedy => Err(format!(
                "`{kind}` plays Cathedral only: Corintho's built-in players are random and engine"
            )),
        }
    }

    fn builtin_move(
        &self,
        kind: &BuiltIn,
        budget: Budget,
        _tt_mb: usize,
        rng: &mut Rng,
        _seed: u64,
    ) -> Option<CorinthoMove> {
        match *kind {
            BuiltIn::Engine {
                level, budget: own, ..
            } => {
                let (nodes, deadline) = match own.unwrap_or(budget) {
                    Budget::Nodes(n) => (Some(n), None),
                    Budget::Time(t) => (None, Some(crate::boardgame::Instant::now() + t)),
                    Budget::Clock(clock) => (
                        None,
                        Some(crate::boardgame::Instant::now() + clock.allot(CLOCK_MOVES).target),
                    ),
                };
                let stop = std::sync::atomic::AtomicBool::new(false);
                super::engine::search(self, engine_depth(level), nodes, deadline, &stop)
                    .best
                    .map(|(mv, _)| mv)
            }
            _ => self.opening_move(rng),
        }
    }

    fn match_record(
        rules: CorinthoRules,
        moves: &[CorinthoMove],
        names: [&str; 2],
        round: String,
        comment: String,
    ) -> CorinthoRecord {
        let start = CorinthoPosition::new(rules);
        CorinthoRecord {
            event: Some("cathedral match".to_string()),
            round: Some(round),
            names: names.iter().map(|n| n.to_string()).collect(),
            comment: (!comment.is_empty()).then_some(comment),
            start: (rules != CorinthoRules::default()).then_some(start),
            moves: moves.iter().map(|&mv| (mv, None)).collect(),
            ..CorinthoRecord::default()
        }
    }

    fn protocol_new_game(_rules: CorinthoRules) -> Vec<String> {
        // `position start` is the two-player start, the only rules a match plays.
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    // The shared match runner (crate::arena) playing Corintho.
    use crate::arena::*;

    #[test]
    fn corintho_pairs_score_half_points_dropped() {
        use crate::corintho::{CorinthoPosition, CorinthoRules};
        let options = MatchOptions {
            rules: CorinthoRules::default(),
            seed: 5,
            opening_plies: 2,
            clock: None,
        };
        let engine = BuiltIn::engine(3);
        let mut a = BuiltInPlayer::new(engine, Budget::Nodes(100_000), 1);
        let mut b = BuiltInPlayer::new(BuiltIn::Random, Budget::Nodes(1), 1);
        let pair: PairResult<CorinthoPosition> = play_pair(&mut a, &mut b, &options, 1);
        for game in &pair.games {
            assert!(game.forfeit.is_none());
            let mut position = CorinthoPosition::new(CorinthoRules::default());
            for &mv in &game.played {
                position.play(mv);
            }
            assert!(crate::boardgame::Game::is_over(&position));
            assert_eq!(position.final_scores(), game.scores);
            assert!(matches!(game.scores, [0, 2] | [2, 0] | [1, 1]));
        }
        // The engine at depth 2 beats random moves.
        assert!(
            pair.a_squares < pair.b_squares,
            "{:?}",
            (pair.a_squares, pair.b_squares)
        );
        let json = serde_json::to_value(&pair).unwrap();
        assert!(json["games"][0]["player_1_dropped"].is_u64(), "{json}");
    }
}
