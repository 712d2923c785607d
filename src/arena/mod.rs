//! Engine matches: games played in pairs with colours swapped, as the two-game match rules of the
//! Travel and World editions play them, and the statistics of a match (results per colour, pair
//! scores, square margins, an Elo difference with its interval).
//!
//! A pair's two games start from the same opening (a few seeded moves of the sampling policy,
//! so that pairs differ); in the first game contestant A is Light, who places the Cathedral; in
//! the second A is Dark. The pair goes to whoever left fewer squares unplaced over both games.

mod contestant;
mod elo;

pub use contestant::{Budget, BuiltIn, BuiltInPlayer, Contestant, EvalChoice, SpecError};
pub use elo::{Elo, elo, elo_of_score};

use crate::boardgame::Rng;
use crate::cathedral::file::{GameRecord, RecordedMove};
use crate::cathedral::moves::{Move, MoveList};
use crate::cathedral::notation::format_move_with_player;
use crate::cathedral::piece::SQUARES_PER_PLAYER;
use crate::cathedral::player::Player;
use crate::cathedral::policy::Policy;
use crate::cathedral::position::Position;
use crate::cathedral::rules::Rules;
use crate::cathedral::sampler::game_seed;
use serde::Serialize;

/// More plies than any legal game has (at most 28 buildings each, the Cathedral and passes that
/// end the game): a guard against a contestant that passes for ever.
const MAX_PLIES: usize = 200;

/// How a match is played.
#[derive(Clone, Debug)]
pub struct MatchOptions {
    /// The rules of every game.
    pub rules: Rules,
    /// Seeds the openings and the contestants' random choices.
    pub seed: u64,
    /// Plies of the seeded opening before the contestants play (2: the Cathedral and Dark's first
    /// building).
    pub opening_plies: usize,
}

/// One finished game.
#[derive(Clone, Debug, Serialize)]
pub struct PlayedGame {
    /// The pair's number, from 1.
    pub pair: usize,
    /// 1: A is Light; 2: A is Dark.
    pub game: usize,
    /// Light's name.
    pub light: String,
    /// Dark's name.
    pub dark: String,
    /// The rules' preset name, or a description.
    pub rules: String,
    /// The seeded opening's length: the first `opening_plies` moves were played by neither.
    pub opening_plies: usize,
    /// Every move in the notation, the opening's included.
    pub moves: Vec<String>,
    /// The same moves.
    #[serde(skip)]
    pub played: Vec<Move>,
    /// The rules.
    #[serde(skip)]
    pub rule_set: Rules,
    /// Light's unplaced squares at the end.
    pub light_unplaced: u32,
    /// Dark's unplaced squares at the end.
    pub dark_unplaced: u32,
    /// The side that forfeited and why (an error, an illegal move, no answer); its opponent
    /// then counts no unplaced squares and it counts all of its own.
    pub forfeit: Option<(Player, String)>,
}

impl PlayedGame {
    /// Whether contestant A played Light.
    pub fn a_is_light(&self) -> bool {
        self.game == 1
    }

    /// A's and B's unplaced squares.
    pub fn unplaced(&self) -> (u32, u32) {
        if self.a_is_light() {
            (self.light_unplaced, self.dark_unplaced)
        } else {
            (self.dark_unplaced, self.light_unplaced)
        }
    }

    /// The result in words: "Light wins by 3 squares (Light 5 unplaced, Dark 8)".
    pub fn result_text(&self) -> String {
        let (l, d) = (self.light_unplaced, self.dark_unplaced);
        let head = match l.cmp(&d) {
            std::cmp::Ordering::Less => format!("Light wins by {}", squares(d - l)),
            std::cmp::Ordering::Greater => format!("Dark wins by {}", squares(l - d)),
            std::cmp::Ordering::Equal => "a draw".to_string(),
        };
        let forfeit = match &self.forfeit {
            Some((player, why)) => format!(", {} forfeits: {why}", player.title()),
            None => String::new(),
        };
        format!("{head} (unplaced: Light {l}, Dark {d}){forfeit}")
    }

    /// The game as a game record (`docs/game-record.md`).
    pub fn record(&self) -> GameRecord {
        let mut comment = format!(
            "The first {} moves were a seeded opening, played by neither side.",
            self.opening_plies
        );
        if let Some((player, why)) = &self.forfeit {
            comment.push_str(&format!(" {} forfeited: {why}.", player.title()));
        }
        GameRecord {
            event: Some("cathedral match".to_string()),
            round: Some(format!("pair {} game {}", self.pair, self.game)),
            light: Some(self.light.clone()),
            dark: Some(self.dark.clone()),
            comment: Some(comment),
            rules: self.rule_set,
            moves: self
                .played
                .iter()
                .map(|&mv| RecordedMove { mv, comment: None })
                .collect(),
            ..GameRecord::default()
        }
    }
}

fn squares(n: u32) -> String {
    if n == 1 {
        "1 square".to_string()
    } else {
        format!("{n} squares")
    }
}

/// A pair of games with colours swapped.
#[derive(Clone, Debug, Serialize)]
pub struct PairResult {
    /// The pair's number, from 1.
    pub pair: usize,
    /// A as Light, then A as Dark.
    pub games: [PlayedGame; 2],
    /// A's unplaced squares over both games.
    pub a_squares: u32,
    /// B's unplaced squares over both games.
    pub b_squares: u32,
}

impl PairResult {
    /// A's score: 1 when A left fewer squares unplaced, 0.5 for equal totals, 0 otherwise.
    pub fn a_score(&self) -> f64 {
        match self.a_squares.cmp(&self.b_squares) {
            std::cmp::Ordering::Less => 1.0,
            std::cmp::Ordering::Equal => 0.5,
            std::cmp::Ordering::Greater => 0.0,
        }
    }
}

/// The seeded opening of pair `pair` (from 1): `plies` moves of the sampling policy.
pub fn opening(options: &MatchOptions, pair: usize) -> Vec<Move> {
    let mut rng = Rng::new(game_seed(options.seed, pair as u64));
    let mut position = Position::new(options.rules);
    let mut moves = Vec::new();
    for _ in 0..options.opening_plies {
        let Some(mv) = Policy::default().choose(&position, &mut rng) else {
            break;
        };
        position.play(mv);
        moves.push(mv);
    }
    moves
}

/// Plays one game: `light` and `dark` from the end of `opening`.
pub fn play_game(
    light: &mut dyn Contestant,
    dark: &mut dyn Contestant,
    options: &MatchOptions,
    opening: &[Move],
    seed: u64,
) -> (Vec<Move>, Position, Option<(Player, String)>) {
    let start = Position::new(options.rules);
    let mut position = start;
    let mut moves = Vec::new();
    for &mv in opening {
        position.play(mv);
        moves.push(mv);
    }
    if let Err(why) = light.new_game(&start, seed) {
        return (moves, position, Some((Player::Light, why)));
    }
    if let Err(why) = dark.new_game(&start, seed) {
        return (moves, position, Some((Player::Dark, why)));
    }
    while !position.is_game_over() {
        let mover = position.to_move();
        if moves.len() >= MAX_PLIES {
            return (
                moves,
                position,
                Some((mover, format!("the game passed {MAX_PLIES} plies"))),
            );
        }
        let contestant: &mut dyn Contestant = match mover {
            Player::Light => light,
            Player::Dark => dark,
        };
        let mv = match contestant.choose(&moves, &position) {
            Ok(mv) => mv,
            Err(why) => return (moves, position, Some((mover, why))),
        };
        if !is_legal(&position, mv) {
            return (
                moves,
                position,
                Some((mover, "it chose an illegal move".to_string())),
            );
        }
        position.play(mv);
        moves.push(mv);
    }
    (moves, position, None)
}

fn is_legal(position: &Position, mv: Move) -> bool {
    let mut list = MoveList::new();
    position.legal_moves(&mut list);
    list.contains(mv)
}

/// Plays pair `pair` (from 1): A as Light, then A as Dark, from the same opening.
pub fn play_pair(
    a: &mut dyn Contestant,
    b: &mut dyn Contestant,
    options: &MatchOptions,
    pair: usize,
) -> PairResult {
    let opening = opening(options, pair);
    let rules = options
        .rules
        .preset_name()
        .map_or_else(|| format!("{:?}", options.rules), str::to_string);
    let mut record = |game: usize| {
        let seed = game_seed(options.seed ^ 0x9e37_79b9, (2 * pair + game) as u64);
        let (light, dark): (&mut dyn Contestant, &mut dyn Contestant) = if game == 1 {
            (&mut *a, &mut *b)
        } else {
            (&mut *b, &mut *a)
        };
        let (light_name, dark_name) = (light.name(), dark.name());
        let (moves, end, forfeit) = play_game(light, dark, options, &opening, seed);
        let mut replay = Position::new(options.rules);
        let texts = moves
            .iter()
            .map(|&mv| {
                let text = format_move_with_player(&replay, mv);
                replay.play(mv);
                text
            })
            .collect();
        let (mut light_unplaced, mut dark_unplaced) = (
            end.unplaced_squares(Player::Light),
            end.unplaced_squares(Player::Dark),
        );
        match &forfeit {
            Some((Player::Light, _)) => (light_unplaced, dark_unplaced) = (SQUARES_PER_PLAYER, 0),
            Some((Player::Dark, _)) => (light_unplaced, dark_unplaced) = (0, SQUARES_PER_PLAYER),
            None => {}
        }
        PlayedGame {
            pair,
            game,
            light: light_name,
            dark: dark_name,
            rules: rules.clone(),
            opening_plies: opening.len(),
            moves: texts,
            played: moves,
            rule_set: options.rules,
            light_unplaced,
            dark_unplaced,
            forfeit,
        }
    };
    let first = record(1);
    let second = record(2);
    let (a1, b1) = first.unplaced();
    let (a2, b2) = second.unplaced();
    PairResult {
        pair,
        games: [first, second],
        a_squares: a1 + a2,
        b_squares: b1 + b2,
    }
}

/// Wins, draws and losses of contestant A.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    /// A won.
    pub wins: usize,
    /// Equal.
    pub draws: usize,
    /// A lost.
    pub losses: usize,
}

impl Tally {
    fn add(&mut self, a: u32, b: u32) {
        match a.cmp(&b) {
            std::cmp::Ordering::Less => self.wins += 1,
            std::cmp::Ordering::Equal => self.draws += 1,
            std::cmp::Ordering::Greater => self.losses += 1,
        }
    }

    /// `12-3-5` (wins-draws-losses).
    pub fn text(&self) -> String {
        format!("{}-{}-{}", self.wins, self.draws, self.losses)
    }
}

/// A match's statistics, from A's view.
#[derive(Clone, Debug, Serialize)]
pub struct MatchSummary {
    /// A's name.
    pub a: String,
    /// B's name.
    pub b: String,
    /// Pairs played.
    pub pairs: usize,
    /// Pairs A won, drew, lost (by total unplaced squares).
    pub pair_results: Tally,
    /// A's share of the pair points (a drawn pair counts a half).
    pub pair_score: f64,
    /// Games A played as Light (placing the Cathedral).
    pub as_light: Tally,
    /// Games A played as Dark.
    pub as_dark: Tally,
    /// The mean of B's minus A's unplaced squares per game: positive when A places more.
    pub mean_margin: f64,
    /// The Elo difference of A over B from the pair scores, with its 95 % interval.
    pub elo: Elo,
    /// Games lost by forfeit (errors, illegal moves, no answer), by A and by B.
    pub forfeits: (usize, usize),
}

/// The statistics of `pairs`.
pub fn summarize(a: &str, b: &str, pairs: &[PairResult]) -> MatchSummary {
    let mut summary = MatchSummary {
        a: a.to_string(),
        b: b.to_string(),
        pairs: pairs.len(),
        pair_results: Tally::default(),
        pair_score: 0.0,
        as_light: Tally::default(),
        as_dark: Tally::default(),
        mean_margin: 0.0,
        elo: elo(&[]),
        forfeits: (0, 0),
    };
    let mut margin = 0i64;
    for pair in pairs {
        summary.pair_results.add(pair.a_squares, pair.b_squares);
        for game in &pair.games {
            let (a_left, b_left) = game.unplaced();
            if game.a_is_light() {
                summary.as_light.add(a_left, b_left);
            } else {
                summary.as_dark.add(a_left, b_left);
            }
            margin += i64::from(b_left) - i64::from(a_left);
            if let Some((player, _)) = &game.forfeit {
                if (*player == Player::Light) == game.a_is_light() {
                    summary.forfeits.0 += 1;
                } else {
                    summary.forfeits.1 += 1;
                }
            }
        }
    }
    let scores: Vec<f64> = pairs.iter().map(PairResult::a_score).collect();
    if !pairs.is_empty() {
        summary.pair_score = scores.iter().sum::<f64>() / scores.len() as f64;
        summary.mean_margin = margin as f64 / (2 * pairs.len()) as f64;
    }
    summary.elo = elo(&scores);
    summary
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options() -> MatchOptions {
        MatchOptions {
            rules: Rules::CLASSIC,
            seed: 7,
            opening_plies: 2,
        }
    }

    #[test]
    fn a_pair_swaps_colours_from_one_opening() {
        let mut a = BuiltInPlayer::new(BuiltIn::Greedy, Budget::Nodes(1), 1);
        let mut b = BuiltInPlayer::new(BuiltIn::Random, Budget::Nodes(1), 1);
        let pair = play_pair(&mut a, &mut b, &options(), 3);
        assert_eq!(pair.games[0].light, "greedy");
        assert_eq!(pair.games[1].light, "random");
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
                position.unplaced_squares(Player::Light),
                game.light_unplaced
            );
            assert_eq!(position.unplaced_squares(Player::Dark), game.dark_unplaced);
        }
        let (a1, b1) = pair.games[0].unplaced();
        let (a2, b2) = pair.games[1].unplaced();
        assert_eq!((pair.a_squares, pair.b_squares), (a1 + a2, b1 + b2));
        // Reproducible.
        let again = play_pair(&mut a, &mut b, &options(), 3);
        assert_eq!(again.games[0].moves, pair.games[0].moves);
        assert_eq!(again.games[1].moves, pair.games[1].moves);
        // Another pair, another opening.
        let other = play_pair(&mut a, &mut b, &options(), 4);
        assert_ne!(other.games[0].moves[..2], pair.games[0].moves[..2]);
    }

    struct Cheater;
    impl Contestant for Cheater {
        fn name(&self) -> String {
            "cheater".into()
        }
        fn new_game(&mut self, _: &Position, _: u64) -> Result<(), String> {
            Ok(())
        }
        fn choose(&mut self, _: &[Move], _: &Position) -> Result<Move, String> {
            Ok(Move::PASS)
        }
    }

    #[test]
    fn an_illegal_move_forfeits() {
        let mut a = Cheater;
        let mut b = BuiltInPlayer::new(BuiltIn::Greedy, Budget::Nodes(1), 1);
        let pair = play_pair(&mut a, &mut b, &options(), 1);
        for game in &pair.games {
            let (player, why) = game.forfeit.clone().expect("a pass with placements left");
            assert_eq!(player == Player::Light, game.a_is_light(), "{why}");
        }
        assert_eq!(
            (pair.a_squares, pair.b_squares),
            (2 * SQUARES_PER_PLAYER, 0)
        );
        let summary = summarize("cheater", "greedy", &[pair]);
        assert_eq!(summary.forfeits, (2, 0));
        assert_eq!(summary.pair_results.losses, 1);
    }
}
