//! Engine matches: games played in pairs with colours swapped, as the two-game match rules of the
//! Travel and World editions play them, and the statistics of a match (results per colour, pair
//! scores, square margins, an Elo difference with its interval).
//!
//! A pair's two games start from the same opening (a few seeded moves of the sampling policy,
//! so that pairs differ); in the first game contestant A is Light, who places the Cathedral; in
//! the second A is Dark. The pair goes to whoever left fewer squares unplaced over both games.

mod builtin;
pub mod chain;
mod contestant;
mod elo;
mod game;
mod runner;
mod sprt;
mod state;

pub use builtin::{Budget, BuiltIn, EvalChoice, SpecError, WeightsFile};
pub use contestant::{BuiltInPlayer, Contestant};
pub use elo::{Elo, elo, elo_of_score};
pub use game::MatchGame;
pub use runner::{MakeContestants, MatchRun, OnPair, Schedule, SprtOn, run_match};
pub use sprt::{Sprt, SprtError, SprtVerdict};

use crate::boardgame::Instant;
use crate::boardgame::{Clock, Rng, game_seed};
use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

/// More plies than any legal game has (Cathedral: at most 28 buildings each, the Cathedral and
/// passes that end the game): a guard against a contestant that passes for ever.
const MAX_PLIES: usize = 200;

/// How a match is played.
#[derive(Clone, Debug)]
pub struct MatchOptions<R> {
    /// The rules of every game.
    pub rules: R,
    /// Seeds the openings and the contestants' random choices.
    pub seed: u64,
    /// Plies of the seeded opening before the contestants play (2: the Cathedral and Dark's first
    /// building).
    pub opening_plies: usize,
    /// Each side's game clock at the start of a game, if the match is played on a clock: a side
    /// whose move takes longer than its clock holds loses the game on time.
    pub clock: Option<Clock>,
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct PlayedGame<G: MatchGame> {
    /// The pair's number, from 1.
    pub pair: usize,
    /// 1: A has the first seat (Light); 2: A has the second.
    pub game: usize,
    /// The names in the two seats, the first mover's first.
    pub names: [String; 2],
    /// The rules in words.
    pub rules: String,
    /// The seeded opening's length: the first `opening_plies` moves were played by neither.
    pub opening_plies: usize,
    /// Every move in the notation, the opening's included.
    pub moves: Vec<String>,
    /// The same moves.
    pub played: Vec<G::Move>,
    /// The rules.
    pub rule_set: G::Rules,
    /// Each seat's score at the end (lower is better: Cathedral's unplaced squares).
    pub scores: [u32; 2],
    /// The seat that forfeited and why (an error, an illegal move, no answer); its opponent
    /// then scores 0 and it scores [`MatchGame::FORFEIT_SCORE`].
    pub forfeit: Option<(usize, String)>,
}

impl<G: MatchGame> Serialize for PlayedGame<G> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("pair", &self.pair)?;
        map.serialize_entry("game", &self.game)?;
        map.serialize_entry(G::SEAT_KEYS[0], &self.names[0])?;
        map.serialize_entry(G::SEAT_KEYS[1], &self.names[1])?;
        map.serialize_entry("rules", &self.rules)?;
        map.serialize_entry("opening_plies", &self.opening_plies)?;
        map.serialize_entry("moves", &self.moves)?;
        map.serialize_entry(G::SCORE_KEYS[0], &self.scores[0])?;
        map.serialize_entry(G::SCORE_KEYS[1], &self.scores[1])?;
        map.serialize_entry(
            "forfeit",
            &self
                .forfeit
                .as_ref()
                .map(|(seat, why)| (G::SEAT_KEYS[*seat], why)),
        )?;
        map.end()
    }
}

impl<G: MatchGame> PlayedGame<G> {
    /// Whether contestant A had the first seat (Light).
    pub fn a_is_first(&self) -> bool {
        self.game == 1
    }

    /// A's and B's scores.
    pub fn a_and_b(&self) -> (u32, u32) {
        if self.a_is_first() {
            (self.scores[0], self.scores[1])
        } else {
            (self.scores[1], self.scores[0])
        }
    }

    /// The result in words: "Light wins by 3 squares (unplaced: Light 5, Dark 8)".
    pub fn result_text(&self) -> String {
        let [l, d] = self.scores;
        let [first, second] = G::SEATS;
        let head = match l.cmp(&d) {
            std::cmp::Ordering::Less => format!("{first} wins by {}", units::<G>(d - l)),
            std::cmp::Ordering::Greater => format!("{second} wins by {}", units::<G>(l - d)),
            std::cmp::Ordering::Equal => "a draw".to_string(),
        };
        let forfeit = match &self.forfeit {
            Some((seat, why)) => format!(", {} forfeits: {why}", G::SEATS[*seat]),
            None => String::new(),
        };
        format!(
            "{head} ({}: {first} {l}, {second} {d}){forfeit}",
            G::SCORE_NOUN
        )
    }

    /// The game as a game record.
    pub fn record(&self) -> G::Record {
        // A game from the start (an opening study's engine game) has no opening to mention.
        let mut comment = match self.opening_plies {
            0 => String::new(),
            1 => "The first move was a seeded opening, played by neither side.".to_string(),
            plies => {
                format!("The first {plies} moves were a seeded opening, played by neither side.")
            }
        };
        if let Some((seat, why)) = &self.forfeit {
            let forfeit = format!("{} forfeited: {why}.", G::SEATS[*seat]);
            comment = [comment, forfeit].join(" ").trim().to_string();
        }
        G::match_record(
            self.rule_set,
            &self.played,
            [&self.names[0], &self.names[1]],
            format!("pair {} game {}", self.pair, self.game),
            comment,
        )
    }
}

/// `n` in the score's unit: "1 square", "3 squares".
fn units<G: MatchGame>(n: u32) -> String {
    if n == 1 {
        format!("1 {}", G::UNIT[0])
    } else {
        format!("{n} {}", G::UNIT[1])
    }
}

/// A pair of games with colours swapped.
#[derive(Clone, Debug, Serialize)]
#[serde(bound = "")]
pub struct PairResult<G: MatchGame> {
    /// The pair's number, from 1.
    pub pair: usize,
    /// A in the first seat, then A in the second.
    pub games: [PlayedGame<G>; 2],
    /// A's score over both games.
    pub a_squares: u32,
    /// B's score over both games.
    pub b_squares: u32,
}

impl<G: MatchGame> PairResult<G> {
    /// A's half-points over the two games (0 to 4): each game won 2, drawn 1, lost 0, by
    /// comparing the two scores.
    pub fn a_half_points(&self) -> usize {
        self.games
            .iter()
            .map(|game| {
                let (a, b) = game.a_and_b();
                match a.cmp(&b) {
                    std::cmp::Ordering::Less => 2,
                    std::cmp::Ordering::Equal => 1,
                    std::cmp::Ordering::Greater => 0,
                }
            })
            .sum()
    }

    /// The pair in one line of at most 80 columns: `pair   3: A wins, unplaced A 0, B 31 (A as
    /// Light 0-17, as Dark 0-14)`.
    pub fn line(&self) -> String {
        let verdict = match self.a_score() {
            s if s > 0.75 => "A wins",
            s if s < 0.25 => "B wins",
            _ => "drawn",
        };
        let score = |game: &PlayedGame<G>| {
            let (a, b) = game.a_and_b();
            let forfeit = if game.forfeit.is_some() {
                " forfeit"
            } else {
                ""
            };
            format!("{a}-{b}{forfeit}")
        };
        format!(
            "pair {:>4}: {verdict}, {} A {}, B {} (A as {} {}, as {} {})\n",
            self.pair,
            G::SCORE_NOUN,
            self.a_squares,
            self.b_squares,
            G::SEATS[0],
            score(&self.games[0]),
            G::SEATS[1],
            score(&self.games[1])
        )
    }

    /// A's pair score: 1 when A's total is lower, 0.5 for equal totals, 0 otherwise.
    pub fn a_score(&self) -> f64 {
        match self.a_squares.cmp(&self.b_squares) {
            std::cmp::Ordering::Less => 1.0,
            std::cmp::Ordering::Equal => 0.5,
            std::cmp::Ordering::Greater => 0.0,
        }
    }
}

/// The seeded opening of pair `pair` (from 1): `plies` moves of the game's opening choice.
pub fn opening<G: MatchGame>(options: &MatchOptions<G::Rules>, pair: usize) -> Vec<G::Move> {
    let mut rng = Rng::new(game_seed(options.seed, pair as u64));
    let mut position = G::start_under(options.rules);
    let mut moves = Vec::new();
    for _ in 0..options.opening_plies {
        let Some(mv) = position.opening_move(&mut rng) else {
            break;
        };
        position.play(mv);
        moves.push(mv);
    }
    moves
}

/// The moves of a game, its end and the forfeit, if any: `(seat, why)`.
pub type GameOutcome<G> = (
    Vec<<G as crate::boardgame::Game>::Move>,
    G,
    Option<(usize, String)>,
);

/// Plays one game: `first` and `second` from the end of `opening`.
pub fn play_game<G: MatchGame>(
    first: &mut dyn Contestant<G>,
    second: &mut dyn Contestant<G>,
    options: &MatchOptions<G::Rules>,
    opening: &[G::Move],
    seed: u64,
) -> GameOutcome<G> {
    let mut position = G::start_under(options.rules);
    let mut moves = Vec::new();
    for &mv in opening {
        position.play(mv);
        moves.push(mv);
    }
    if let Err(why) = first.new_game(options.rules, seed) {
        return (moves, position, Some((0, why)));
    }
    if let Err(why) = second.new_game(options.rules, seed) {
        return (moves, position, Some((1, why)));
    }
    let mut clocks = [options.clock; 2];
    while !position.is_over() {
        let seat = position.seat_to_move();
        if moves.len() >= MAX_PLIES {
            return (
                moves,
                position,
                Some((seat, format!("the game passed {MAX_PLIES} plies"))),
            );
        }
        let contestant: &mut dyn Contestant<G> = if seat == 0 { &mut *first } else { &mut *second };
        let started = Instant::now();
        let mv = match contestant.choose(&moves, &position, clocks[seat]) {
            Ok(mv) => mv,
            Err(why) => return (moves, position, Some((seat, why))),
        };
        if let Some(clock) = &mut clocks[seat] {
            let spent = started.elapsed();
            if spent > clock.remaining {
                let why = format!(
                    "it lost on time: its move took {:.3} s with {:.3} s on its clock",
                    spent.as_secs_f64(),
                    clock.remaining.as_secs_f64()
                );
                return (moves, position, Some((seat, why)));
            }
            clock.remaining = clock.remaining - spent + clock.increment;
        }
        if !position.legal_moves().contains(&mv) {
            return (
                moves,
                position,
                Some((seat, "it chose an illegal move".to_string())),
            );
        }
        position.play(mv);
        moves.push(mv);
    }
    (moves, position, None)
}

/// Plays pair `pair` (from 1): A in the first seat, then A in the second, from the same opening.
pub fn play_pair<G: MatchGame>(
    a: &mut dyn Contestant<G>,
    b: &mut dyn Contestant<G>,
    options: &MatchOptions<G::Rules>,
    pair: usize,
) -> PairResult<G> {
    play_pair_from(a, b, options, pair, &opening::<G>(options, pair))
}

/// Plays pair `pair` (from 1) from the given opening instead of the seeded one (an opening
/// study's): A in the first seat, then A in the second. `opening` must be legal from the start
/// of a game under `options.rules`; `options.opening_plies` is not used.
pub fn play_pair_from<G: MatchGame>(
    a: &mut dyn Contestant<G>,
    b: &mut dyn Contestant<G>,
    options: &MatchOptions<G::Rules>,
    pair: usize,
    opening: &[G::Move],
) -> PairResult<G> {
    let first = play_match_game(a, b, options, pair, 1, opening);
    let second = play_match_game(b, a, options, pair, 2, opening);
    let (a1, b1) = first.a_and_b();
    let (a2, b2) = second.a_and_b();
    PairResult {
        pair,
        games: [first, second],
        a_squares: a1 + a2,
        b_squares: b1 + b2,
    }
}

/// Plays game `game` (1 or 2) of pair `pair` from `opening`: `first` in the first seat, seeded
/// as [`play_pair`] seeds that game.
pub fn play_match_game<G: MatchGame>(
    first: &mut dyn Contestant<G>,
    second: &mut dyn Contestant<G>,
    options: &MatchOptions<G::Rules>,
    pair: usize,
    game: usize,
    opening: &[G::Move],
) -> PlayedGame<G> {
    let seed = game_seed(options.seed ^ 0x9e37_79b9, (2 * pair + game) as u64);
    let names = [first.name(), second.name()];
    let (moves, end, forfeit) = play_game(first, second, options, opening, seed);
    let start = G::start_under(options.rules);
    let texts = start.line_text(&moves);
    let scores = match &forfeit {
        Some((0, _)) => [G::FORFEIT_SCORE, 0],
        Some(_) => [0, G::FORFEIT_SCORE],
        None => end.final_scores(),
    };
    PlayedGame {
        pair,
        game,
        names,
        rules: G::rules_text(options.rules),
        opening_plies: opening.len(),
        moves: texts,
        played: moves,
        rule_set: options.rules,
        scores,
        forfeit,
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
#[derive(Clone, Debug)]
pub struct MatchSummary<G: MatchGame> {
    /// A's name.
    pub a: String,
    /// B's name.
    pub b: String,
    /// Pairs played.
    pub pairs: usize,
    /// Pairs A won, drew, lost (by total score).
    pub pair_results: Tally,
    /// A's share of the pair points (a drawn pair counts a half).
    pub pair_score: f64,
    /// Games A played in each seat.
    pub by_seat: [Tally; 2],
    /// The mean of B's minus A's score per game: positive when A does better.
    pub mean_margin: f64,
    /// The Elo difference of A over B from the pair scores, with its 95 % interval.
    pub elo: Elo,
    /// Games lost by forfeit (errors, illegal moves, no answer), by A and by B.
    pub forfeits: (usize, usize),
    game: std::marker::PhantomData<G>,
}

impl<G: MatchGame> Serialize for MatchSummary<G> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("a", &self.a)?;
        map.serialize_entry("b", &self.b)?;
        map.serialize_entry("pairs", &self.pairs)?;
        map.serialize_entry("pair_results", &self.pair_results)?;
        map.serialize_entry("pair_score", &self.pair_score)?;
        map.serialize_entry(G::AS_SEAT_KEYS[0], &self.by_seat[0])?;
        map.serialize_entry(G::AS_SEAT_KEYS[1], &self.by_seat[1])?;
        map.serialize_entry("mean_margin", &self.mean_margin)?;
        map.serialize_entry("elo", &self.elo)?;
        map.serialize_entry("forfeits", &self.forfeits)?;
        map.end()
    }
}

/// The statistics of `pairs`.
pub fn summarize<G: MatchGame>(a: &str, b: &str, pairs: &[PairResult<G>]) -> MatchSummary<G> {
    let mut summary = MatchSummary {
        a: a.to_string(),
        b: b.to_string(),
        pairs: pairs.len(),
        pair_results: Tally::default(),
        pair_score: 0.0,
        by_seat: [Tally::default(); 2],
        mean_margin: 0.0,
        elo: elo(&[]),
        forfeits: (0, 0),
        game: std::marker::PhantomData,
    };
    let mut margin = 0i64;
    for pair in pairs {
        summary.pair_results.add(pair.a_squares, pair.b_squares);
        for game in &pair.games {
            let (a_score, b_score) = game.a_and_b();
            let seat = usize::from(!game.a_is_first());
            summary.by_seat[seat].add(a_score, b_score);
            margin += i64::from(b_score) - i64::from(a_score);
            if let Some((forfeiter, _)) = &game.forfeit {
                if (*forfeiter == 0) == game.a_is_first() {
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
