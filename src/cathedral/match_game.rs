//! Cathedral in the match runner: Light and Dark, scored by unplaced squares as the rule sheets
//! score a game; the sampling policy's seeded openings; the built-in players.

use crate::arena::{Budget, BuiltIn, MatchGame};
use crate::boardgame::Rng;
use crate::cathedral::engine::{PlayOptions, choose};
use crate::cathedral::file::{GameRecord, RecordedMove};
use crate::cathedral::moves::Move;
use crate::cathedral::piece::SQUARES_PER_PLAYER;
use crate::cathedral::player::Player;
use crate::cathedral::policy::Policy;
use crate::cathedral::position::Position;
use crate::cathedral::puzzle::greedy_choices;
use crate::cathedral::rules::Rules;

/// The protocol's words for `rules`: the preset's name, or the four options.
pub fn rules_words(rules: Rules) -> String {
    rules.preset_name().map_or_else(
        || {
            format!(
                "capture={} pass={} first-move={} cathedral={}",
                rules.capture.name(),
                rules.pass.name(),
                rules.first_move.name(),
                rules.cathedral.name()
            )
        },
        str::to_string,
    )
}

impl MatchGame for Position {
    type Rules = Rules;

    const SEATS: [&'static str; 2] = ["Light", "Dark"];
    const SEAT_KEYS: [&'static str; 2] = ["light", "dark"];
    const SCORE_KEYS: [&'static str; 2] = ["light_unplaced", "dark_unplaced"];
    const AS_SEAT_KEYS: [&'static str; 2] = ["as_light", "as_dark"];
    const SCORE_NOUN: &'static str = "unplaced";
    const UNIT: [&'static str; 2] = ["square", "squares"];
    const FORFEIT_SCORE: u32 = SQUARES_PER_PLAYER;

    fn match_rules(words: &str) -> Result<Rules, String> {
        words
            .parse()
            .map_err(|e: crate::cathedral::rules::RulesError| e.to_string())
    }

    fn start_under(rules: Rules) -> Position {
        Position::new(rules)
    }

    fn rules_text(rules: Rules) -> String {
        rules
            .preset_name()
            .map_or_else(|| format!("{rules:?}"), str::to_string)
    }

    fn seat_to_move(&self) -> usize {
        usize::from(self.to_move() == Player::Dark)
    }

    fn final_scores(&self) -> [u32; 2] {
        [
            self.unplaced_squares(Player::Light),
            self.unplaced_squares(Player::Dark),
        ]
    }

    fn opening_move(&self, rng: &mut Rng) -> Option<Move> {
        Policy::default().choose(self, rng)
    }

    fn plays(_kind: &BuiltIn) -> Result<(), String> {
        Ok(())
    }

    fn builtin_move(
        &self,
        kind: &BuiltIn,
        budget: Budget,
        tt_mb: usize,
        rng: &mut Rng,
        seed: u64,
    ) -> Option<Move> {
        match *kind {
            // The contestant draws a random move itself, for every game.
            BuiltIn::Random => None,
            BuiltIn::Policy => Policy::default().choose(self, rng),
            BuiltIn::Greedy => {
                let choices = greedy_choices(self);
                (!choices.is_empty()).then(|| choices[rng.below(choices.len() as u64) as usize])
            }
            BuiltIn::Engine {
                level,
                budget: own,
                eval,
                exact,
                threads,
                manage,
            } => {
                let (nodes, time, clock) = match own.unwrap_or(budget) {
                    Budget::Nodes(n) => (Some(n), None, None),
                    Budget::Time(t) => (None, Some(t), None),
                    Budget::Clock(clock) => (None, None, Some(clock)),
                };
                let choice = choose(
                    self,
                    &PlayOptions {
                        nodes,
                        time,
                        clock,
                        threads,
                        seed,
                        level,
                        tt_mb,
                        evaluation: eval.evaluation(),
                        exact,
                        manage_time: manage,
                        ..PlayOptions::default()
                    },
                    &mut |_| {},
                );
                choice.best
            }
        }
    }

    fn match_record(
        rules: Rules,
        moves: &[Move],
        names: [&str; 2],
        round: String,
        comment: String,
    ) -> GameRecord {
        GameRecord {
            event: Some("cathedral match".to_string()),
            round: Some(round),
            light: Some(names[0].to_string()),
            dark: Some(names[1].to_string()),
            comment: (!comment.is_empty()).then_some(comment),
            rules,
            moves: moves
                .iter()
                .map(|&mv| RecordedMove { mv, comment: None })
                .collect(),
            ..GameRecord::default()
        }
    }

    fn protocol_new_game(rules: Rules) -> Vec<String> {
        vec![format!("rules {}", rules_words(rules))]
    }
}
