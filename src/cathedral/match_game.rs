//! Cathedral in the match runner: Light and Dark, scored by unplaced squares as the rule sheets
//! score a game; the sampling policy's seeded openings; the built-in players.

use crate::arena::{Budget, BuiltIn, EvalChoice, MatchGame};
use crate::boardgame::Rng;
use crate::cathedral::engine::eval::{Evaluation, Weights};
use crate::cathedral::engine::network::{Network, ReadError};
use crate::cathedral::engine::{PlayOptions, choose};
use crate::cathedral::file::{GameRecord, RecordedMove};
use crate::cathedral::moves::Move;
use crate::cathedral::piece::SQUARES_PER_PLAYER;
use crate::cathedral::player::Player;
use crate::cathedral::policy::Policy;
use crate::cathedral::position::Position;
use crate::cathedral::puzzle::greedy_choices;
use crate::cathedral::rules::Rules;

/// The protocol's words for `rules`: the preset's name, or the five options.
pub fn rules_words(rules: Rules) -> String {
    rules.preset_name().map_or_else(
        || {
            format!(
                "capture={} pass={} first-move={} cathedral={} claims={}",
                rules.capture.name(),
                rules.pass.name(),
                rules.first_move.name(),
                rules.cathedral.name(),
                rules.claims.name()
            )
        },
        str::to_string,
    )
}

/// Cathedral's evaluation for a match's `eval=` choice. A weights file's network is read from
/// its text once, the first time it is asked for, and kept for the rest of the program.
pub fn evaluation(choice: EvalChoice) -> Result<Evaluation, ReadError> {
    use std::sync::Mutex;
    // One network per reading of a file (its text's address), as `WeightsFile` compares.
    static READ: Mutex<Vec<(usize, &'static Network)>> = Mutex::new(Vec::new());
    Ok(match choice {
        EvalChoice::Fitted => Evaluation::Linear(Weights::default()),
        EvalChoice::Guessed => Evaluation::Linear(Weights::GUESSED),
        EvalChoice::Material => Evaluation::Linear(Weights::MATERIAL),
        EvalChoice::Network => Evaluation::Network,
        EvalChoice::Weights(file) => {
            let key = file.text().as_ptr() as usize;
            let mut read = READ.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            let network = match read.iter().find(|(k, _)| *k == key) {
                Some(&(_, network)) => network,
                None => {
                    let network =
                        Network::parse(file.text()).map_err(|source| ReadError::Weights {
                            path: file.path().to_string(),
                            source,
                        })?;
                    let network: &'static Network = Box::leak(Box::new(network));
                    read.push((key, network));
                    network
                }
            };
            Evaluation::Learned(network)
        }
    })
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

    fn plays(kind: &BuiltIn) -> Result<(), String> {
        match kind {
            // A weights file's network is read here, before any game, and kept.
            BuiltIn::Engine { eval, .. } => evaluation(*eval).map(drop).map_err(|e| e.to_string()),
            _ => Ok(()),
        }
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
                tunables,
            } => {
                let (nodes, time, clock) = match own.unwrap_or(budget) {
                    Budget::Nodes(n) => (Some(n), None, None),
                    Budget::Time(t) => (None, Some(t), None),
                    Budget::Clock(clock) => (None, None, Some(clock)),
                };
                // `plays` read the network already; a file that cannot be read forfeits.
                let evaluation = evaluation(eval).ok()?;
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
                        evaluation,
                        exact,
                        manage_time: manage,
                        tunables,
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
            moves: moves.iter().map(|&mv| RecordedMove::new(mv)).collect(),
            ..GameRecord::default()
        }
    }

    fn protocol_new_game(rules: Rules) -> Vec<String> {
        vec![format!("rules {}", rules_words(rules))]
    }
}

#[cfg(test)]
mod tests {
    // The shared match runner (crate::arena) playing Cathedral.
    use super::*;
    use crate::arena::*;
    use crate::boardgame::Clock;
    use crate::boardgame::engine::Tunables;
    use crate::cathedral::moves::Move;
    use crate::cathedral::piece::SQUARES_PER_PLAYER;
    use crate::cathedral::player::Player;
    use crate::cathedral::position::Position;
    use crate::cathedral::rules::Rules;

    fn options() -> MatchOptions<Rules> {
        MatchOptions {
            rules: Rules::CLASSIC,
            seed: 7,
            opening_plies: 2,
            clock: None,
        }
    }

    #[test]
    fn a_pair_swaps_colours_from_one_opening() {
        let mut a = BuiltInPlayer::new(BuiltIn::Greedy, Budget::Nodes(1), 1);
        let mut b = BuiltInPlayer::new(BuiltIn::Random, Budget::Nodes(1), 1);
        let pair: PairResult<Position> = play_pair(&mut a, &mut b, &options(), 3);
        assert_eq!(pair.games[0].names[0], "greedy");
        assert_eq!(pair.games[1].names[0], "random");
        assert_eq!(pair.games[0].moves[..2], pair.games[1].moves[..2]);
        for game in &pair.games {
            assert!(game.forfeit.is_none());
            // The record replays to the result it states.
            let mut position = Position::new(Rules::CLASSIC);
            for text in &game.moves {
                let mv = crate::cathedral::legality::parse_move(&position, text).unwrap();
                position.play(mv);
            }
            assert!(position.is_game_over());
            assert_eq!(
                [
                    position.unplaced_squares(Player::Light),
                    position.unplaced_squares(Player::Dark)
                ],
                game.scores
            );
        }
        let (a1, b1) = pair.games[0].a_and_b();
        let (a2, b2) = pair.games[1].a_and_b();
        assert_eq!((pair.a_squares, pair.b_squares), (a1 + a2, b1 + b2));
        // Reproducible.
        let again: PairResult<Position> = play_pair(&mut a, &mut b, &options(), 3);
        assert_eq!(again.games[0].moves, pair.games[0].moves);
        assert_eq!(again.games[1].moves, pair.games[1].moves);
        // Another pair, another opening.
        let other: PairResult<Position> = play_pair(&mut a, &mut b, &options(), 4);
        assert_ne!(other.games[0].moves[..2], pair.games[0].moves[..2]);
    }

    struct Cheater;
    impl Contestant<Position> for Cheater {
        fn name(&self) -> String {
            "cheater".into()
        }
        fn new_game(&mut self, _: Rules, _: u64) -> Result<(), String> {
            Ok(())
        }
        fn choose(&mut self, _: &[Move], _: &Position, _: Option<Clock>) -> Result<Move, String> {
            Ok(Move::PASS)
        }
    }

    /// Plays the greedy player's move after thinking longer than its clock allows from the
    /// third move on.
    struct Dawdler(usize);
    impl Contestant<Position> for Dawdler {
        fn name(&self) -> String {
            "dawdler".into()
        }
        fn new_game(&mut self, _: Rules, _: u64) -> Result<(), String> {
            self.0 = 0;
            Ok(())
        }
        fn choose(
            &mut self,
            _: &[Move],
            position: &Position,
            clock: Option<Clock>,
        ) -> Result<Move, String> {
            self.0 += 1;
            let clock = clock.ok_or("no clock")?;
            if self.0 >= 3 {
                std::thread::sleep(clock.remaining + std::time::Duration::from_millis(5));
            }
            Ok(crate::cathedral::puzzle::greedy_choices(position)[0])
        }
    }

    #[test]
    fn a_side_whose_clock_runs_out_loses_on_time() {
        use std::time::Duration;
        let options = MatchOptions {
            clock: Some(Clock::new(
                Duration::from_millis(400),
                Duration::from_millis(50),
            )),
            ..options()
        };
        let mut a = Dawdler(0);
        let mut b = BuiltInPlayer::new(
            BuiltIn::engine(10),
            Budget::Clock(options.clock.expect("set above")),
            1,
        );
        let pair = play_pair(&mut a, &mut b, &options, 1);
        for game in &pair.games {
            let (seat, why) = game.forfeit.clone().expect("the dawdler runs out");
            assert_eq!(seat == 0, game.a_is_first(), "{why}");
            assert!(why.contains("lost on time"), "{why}");
            // The dawdler made its first two moves in time; the engine all of its own.
            let dawdler_moves = game.moves.len() - options.opening_plies;
            assert!(dawdler_moves >= 4, "{dawdler_moves}");
        }
    }

    #[test]
    fn an_illegal_move_forfeits() {
        let mut a = Cheater;
        let mut b = BuiltInPlayer::new(BuiltIn::Greedy, Budget::Nodes(1), 1);
        let pair = play_pair(&mut a, &mut b, &options(), 1);
        for game in &pair.games {
            let (seat, why) = game.forfeit.clone().expect("a pass with placements left");
            assert_eq!(seat == 0, game.a_is_first(), "{why}");
        }
        assert_eq!(
            (pair.a_squares, pair.b_squares),
            (2 * SQUARES_PER_PLAYER, 0)
        );
        let summary = summarize("cheater", "greedy", &[pair]);
        assert_eq!(summary.forfeits, (2, 0));
        assert_eq!(summary.pair_results.losses, 1);
    }

    #[test]
    fn a_weights_file_is_read_once_as_the_engine_reads_it() {
        let weights = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/src/cathedral/engine/network.txt"
        );
        let read = format!("engine:weights={weights}").parse::<BuiltIn>();
        assert_eq!(
            read.as_ref().map(|b| b.to_string()),
            Ok(format!("engine level 10, weights {weights}"))
        );
        let Ok(BuiltIn::Engine { eval, .. }) = read else {
            panic!("{read:?}")
        };
        // The committed weights read from their file are the built-in network.
        let network = match evaluation(eval).expect("the committed weights") {
            Evaluation::Learned(network) => network,
            other => panic!("{other:?}"),
        };
        assert_eq!(network, Network::builtin());
        // The same reading gives the same network; a file that is no network is refused.
        let Ok(Evaluation::Learned(again)) = evaluation(eval) else {
            panic!("read again")
        };
        assert!(std::ptr::eq(again, network), "read once");
        let cargo = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
        let Ok(BuiltIn::Engine { eval, .. }) = format!("engine:weights={cargo}").parse() else {
            panic!("a readable file")
        };
        let refused = <Position as MatchGame>::plays(&BuiltIn::Engine {
            level: 10,
            budget: None,
            eval,
            exact: true,
            threads: 1,
            manage: true,
            tunables: Tunables::default(),
        });
        assert!(
            refused.as_ref().is_err_and(|e| e.contains("Cargo.toml")),
            "{refused:?}"
        );
    }
}
