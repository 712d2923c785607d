//! Puzzles from played games (`cathedral generate --from`): every position of a game record
//! where the player to move had exactly one best move (the puzzle criteria of [`analyse`]) and
//! the move played lost squares or the result, proven by the solver, becomes a puzzle whose
//! tempting wrong move is the move played. With `all`, positions where the move played was
//! that one best move become puzzles too ("find the move that was played").
//!
//! Only positions with at most `max_buildings` buildings left in the larger hand are tried: the
//! solver cannot prove earlier ones in a useful time. A position it does not prove within the
//! budget is skipped and counted, never guessed.

use super::criteria::{AnalyseOptions, Analysis, Reject, analyse, solve_line};
use super::themes::explain_line;
use crate::boardgame::Instant;
use crate::cathedral::file::{GameRecord, PositionFile, PuzzleGame, PuzzleInfo, StoredSolution};
use crate::cathedral::moves::Move;
use crate::cathedral::notation::{format_line, format_move_with_player};
use crate::cathedral::position::Position;
use crate::cathedral::sampler::buildings_left;
use rayon::prelude::*;
use std::ops::ControlFlow;
use std::sync::atomic::Ordering;

/// The default of [`FromGameOptions::max_buildings`]: where the solver proves nearly every
/// position within a small budget ([`crate::engine::QUICK_PROOF_BUILDINGS`]).
pub const FROM_GAME_BUILDINGS: u32 = crate::cathedral::engine::QUICK_PROOF_BUILDINGS;

/// What to look for, and the budget.
#[derive(Clone, Debug)]
pub struct FromGameOptions {
    /// The criteria (the margin) and the solver budget of each position.
    pub analyse: AnalyseOptions,
    /// Also the positions where the move played was the one best move.
    pub all: bool,
    /// Try only positions with at most this many buildings left in the larger hand.
    pub max_buildings: u32,
    /// Positions analysed at once (0 = all cores); each solve has `analyse.threads`.
    pub threads: usize,
    /// Positions not started by then are skipped, and each solve ends by then at the latest.
    pub deadline: Option<Instant>,
    /// Only these moves, as (game, move) counted from 1 (`None`: every move): a longer search
    /// of the moves a shorter one did not prove.
    pub only: Option<Vec<(usize, usize)>>,
}

impl Default for FromGameOptions {
    fn default() -> Self {
        FromGameOptions {
            analyse: AnalyseOptions::default(),
            all: false,
            max_buildings: FROM_GAME_BUILDINGS,
            threads: 0,
            deadline: None,
            only: None,
        }
    }
}

/// A puzzle found in a game.
#[derive(Clone, Debug)]
pub struct GamePuzzle {
    /// The game's number in the record (1 = the first).
    pub game: usize,
    /// The number of the move to find: the move played there is the record's move `ply`
    /// (counted from 1, passes included).
    pub ply: usize,
    /// The record's event, round and players.
    pub event: Option<String>,
    /// The record's round.
    pub round: Option<String>,
    /// Who played Light.
    pub light: Option<String>,
    /// Who played Dark.
    pub dark: Option<String>,
    /// The position before the move and everything the criteria found.
    pub analysis: Analysis,
    /// The move played in the game.
    pub played: Move,
    /// Its exact value, from the mover's view.
    pub played_value: i32,
    /// Best play after it (the opponent first) to the end of the game.
    pub refutation: Vec<Move>,
}

impl GamePuzzle {
    /// Squares the move played gave away against the best move (0: it was the best move).
    pub fn loss(&self) -> i32 {
        self.analysis.value - self.played_value
    }

    /// Whether the move played lost the result: a win became a draw or a loss, or a draw a
    /// loss.
    pub fn lost_result(&self) -> bool {
        self.played_value.signum() < self.analysis.value.signum()
    }
}

/// What became of one position tried.
#[derive(Clone, Debug)]
enum Outcome {
    /// Not proven within the budget (`out_of_time`: the deadline cut it short): skipped.
    Unproven { out_of_time: bool },
    /// Proven, and not a puzzle: several best moves, one move, a pass (`why`), or (without
    /// `all`) the move played was the best (`why` is `None`).
    NotPuzzle { why: Option<Reject> },
    /// A puzzle.
    Puzzle(Box<GamePuzzle>),
}

/// What became of one move of a game: a puzzle, or why not. Every move of the games (or of
/// [`FromGameOptions::only`]) gets one, through [`FromGameEvent::Judged`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveVerdict {
    /// The move made a puzzle.
    Puzzle,
    /// Proven: the move played was as good as the best move (without `all`, no puzzle).
    PlayedBest,
    /// Proven, and no puzzle for this reason: another move as good (or nearly, by the
    /// margin), the only move, or a pass as the best move.
    NotPuzzle(Reject),
    /// The solver did not prove it within its budget for one position.
    Unproven,
    /// The search's time ran out before this position was proven (or tried).
    OutOfTime,
    /// Too early in the game for the solver: more buildings left in the larger hand than
    /// [`FromGameOptions::max_buildings`].
    TooEarly {
        /// Buildings left in the larger hand.
        buildings: u32,
        /// The most the search tries.
        limit: u32,
    },
    /// The move played was a pass (nothing to find), or the game was over.
    Passed,
}

impl MoveVerdict {
    /// Whether a longer search (more time, more nodes, more buildings) may still make a
    /// puzzle of it.
    pub fn unsettled(&self) -> bool {
        matches!(
            self,
            MoveVerdict::Unproven | MoveVerdict::OutOfTime | MoveVerdict::TooEarly { .. }
        )
    }

    /// Why the move made no puzzle, in a player's words ("another move was just as good: the
    /// puzzle would have no single answer").
    pub fn words(&self) -> String {
        match self {
            MoveVerdict::Puzzle => "it made a puzzle".into(),
            MoveVerdict::PlayedBest => {
                "proven as good as the best move: no squares lost once solved exactly".into()
            }
            MoveVerdict::NotPuzzle(Reject::NotUnique { gap: 0 }) => {
                "another move was just as good as the best: the puzzle would have no single answer"
                    .into()
            }
            MoveVerdict::NotPuzzle(Reject::NotUnique { gap }) => format!(
                "the second best move was only {} worse than the best: no clear answer",
                crate::present::words::count(*gap, "square")
            ),
            MoveVerdict::NotPuzzle(Reject::OnlyMove) => {
                "there was only one move to play: nothing to find".into()
            }
            MoveVerdict::NotPuzzle(Reject::Pass) => {
                "the best move was to pass: nothing to place".into()
            }
            MoveVerdict::NotPuzzle(Reject::GameOver) | MoveVerdict::Passed => {
                "a pass: nothing to find".into()
            }
            MoveVerdict::NotPuzzle(Reject::Unsolved) | MoveVerdict::Unproven => {
                "not proven in the time: the solver did not finish this position within its budget"
                    .into()
            }
            MoveVerdict::OutOfTime => {
                "not proven: the search's time ran out before this position was solved".into()
            }
            MoveVerdict::TooEarly { buildings, limit } => format!(
                "too early in the game to prove exactly: {buildings} buildings left in the larger hand, and the solver tries positions with {limit} at most"
            ),
        }
    }
}

/// One move's verdict: game and move counted from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveReport {
    /// The game's number in the record (1 = the first).
    pub game: usize,
    /// The record's move (counted from 1, passes included).
    pub ply: usize,
    /// A puzzle, or why not.
    pub verdict: MoveVerdict,
}

/// Counts so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FromGameProgress {
    /// Positions within the buildings limit, with a move played from them.
    pub candidates: usize,
    /// Positions tried so far.
    pub tried: usize,
    /// Positions tried and not proven within the budget (skipped, never guessed).
    pub skipped: usize,
    /// Positions proven and not a puzzle because another move was as good (or nearly, by the
    /// margin), there was only one move, or the best move was a pass.
    pub not_unique: usize,
    /// Positions proven where the move played was the one best move (puzzles with `all`).
    pub played_best: usize,
    /// Puzzles found so far.
    pub found: usize,
}

/// What [`from_games_each`] reports as it goes.
#[derive(Debug)]
pub enum FromGameEvent<'a> {
    /// A new puzzle, in game and move order.
    Found(&'a GamePuzzle),
    /// After every batch of positions.
    Progress(FromGameProgress),
    /// What became of a move: first every move not tried (a pass, too early), then each move
    /// tried as its batch ends, and at a stop or the deadline every move left untried.
    Judged(MoveReport),
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FromGameSummary {
    /// Positions in the games, with a move played from them.
    pub positions: usize,
    /// The counts at the end.
    pub counts: FromGameProgress,
    /// Whether it stopped early: the stop flag, the deadline, or the caller.
    pub stopped: bool,
}

/// One position to try.
struct Candidate<'a> {
    game: usize,
    ply: usize,
    record: &'a GameRecord,
    position: Position,
    played: Move,
}

fn judge(candidate: &Candidate<'_>, options: &FromGameOptions) -> Outcome {
    let mut analyse_options = options.analyse.clone();
    if let Some(deadline) = options.deadline {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Outcome::Unproven { out_of_time: true };
        }
        analyse_options.time_limit = analyse_options.time_limit.min(left);
    }
    // Unproven: the deadline's fault if it has come (the per-position budget's otherwise).
    let unproven = || Outcome::Unproven {
        out_of_time: options.deadline.is_some_and(|d| Instant::now() >= d),
    };
    let analysis = match analyse(&candidate.position, &analyse_options) {
        Ok(analysis) => analysis,
        Err(Reject::Unsolved) => return unproven(),
        Err(why) => return Outcome::NotPuzzle { why: Some(why) },
    };
    let (played_value, refutation) = if candidate.played == analysis.best_move {
        (analysis.value, analysis.best_line[1..].to_vec())
    } else {
        let mut after = candidate.position;
        after.play(candidate.played);
        match solve_line(&after, &analyse_options) {
            Some((child, line, _)) => (-child, line),
            None => return unproven(),
        }
    };
    let played_best = played_value >= analysis.value;
    if played_best && !options.all {
        return Outcome::NotPuzzle { why: None };
    }
    let record = candidate.record;
    Outcome::Puzzle(Box::new(GamePuzzle {
        game: candidate.game,
        ply: candidate.ply,
        event: record.event.clone(),
        round: record.round.clone(),
        light: record.light.clone(),
        dark: record.dark.clone(),
        analysis,
        played: candidate.played,
        played_value,
        refutation,
    }))
}

/// The positions of `records` that [`from_games_each`] tries, the verdicts on the moves it
/// does not try (passes, too early), and how many positions the games have in all (each with a
/// move played from it).
fn candidates<'a>(
    records: &'a [GameRecord],
    options: &FromGameOptions,
) -> (Vec<Candidate<'a>>, Vec<MoveReport>, usize) {
    let max_buildings = options.max_buildings;
    let mut out = Vec::new();
    let mut untried = Vec::new();
    let mut positions = 0;
    for (index, record) in records.iter().enumerate() {
        let mut position = record.start_position();
        for (ply, recorded) in record.moves.iter().enumerate() {
            positions += 1;
            let asked = options
                .only
                .as_ref()
                .is_none_or(|only| only.contains(&(index + 1, ply + 1)));
            let left = buildings_left(&position);
            let not_tried = if recorded.mv.is_pass() || position.is_game_over() {
                Some(MoveVerdict::Passed)
            } else if left > max_buildings {
                Some(MoveVerdict::TooEarly {
                    buildings: left,
                    limit: max_buildings,
                })
            } else {
                None
            };
            if let (true, Some(verdict)) = (asked, not_tried) {
                untried.push(MoveReport {
                    game: index + 1,
                    ply: ply + 1,
                    verdict,
                });
            }
            if asked && not_tried.is_none() {
                out.push(Candidate {
                    game: index + 1,
                    ply: ply + 1,
                    record,
                    position,
                    played: recorded.mv,
                });
            }
            position.play(recorded.mv);
        }
    }
    (out, untried, positions)
}

/// Tries every position of `records` within the buildings limit, handing each puzzle to
/// `on_event` as soon as its batch is analysed, in game and move order (with
/// [`FromGameOptions::only`], the fewest buildings left first). Stops early on the stop
/// flag (`analyse.stop`), at the deadline or when `on_event` breaks; positions not tried then
/// count as skipped. Every puzzle reported is proven.
pub fn from_games_each(
    records: &[GameRecord],
    options: &FromGameOptions,
    on_event: &mut dyn FnMut(FromGameEvent<'_>) -> ControlFlow<()>,
) -> FromGameSummary {
    let threads = crate::boardgame::thread_count(options.threads);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .ok();
    let (mut list, untried, positions) = candidates(records, options);
    // The moves asked for again (a longer search): the quickest to prove first, the fewest
    // buildings left, so that a hard early one does not take the time of the others.
    if options.only.is_some() {
        list.sort_by_key(|c| (buildings_left(&c.position), c.game, c.ply));
    }
    let mut counts = FromGameProgress {
        candidates: list.len(),
        ..FromGameProgress::default()
    };
    let stopped = || {
        options.analyse.stop.load(Ordering::Relaxed)
            || options.deadline.is_some_and(|d| Instant::now() >= d)
    };
    let finish = |mut counts: FromGameProgress, stopped: bool| {
        // Positions never tried were not proven either.
        counts.skipped += counts.candidates - counts.tried;
        counts.tried = counts.candidates;
        FromGameSummary {
            positions,
            counts,
            stopped,
        }
    };
    let judged = |candidate: &Candidate<'_>, verdict| {
        FromGameEvent::Judged(MoveReport {
            game: candidate.game,
            ply: candidate.ply,
            verdict,
        })
    };
    for report in untried {
        if on_event(FromGameEvent::Judged(report)).is_break() {
            return finish(counts, true);
        }
    }
    for (at, chunk) in list.chunks(threads.max(1)).enumerate() {
        if stopped() {
            // The moves left: the time ran out before them.
            for candidate in &list[at * threads.max(1)..] {
                if on_event(judged(candidate, MoveVerdict::OutOfTime)).is_break() {
                    break;
                }
            }
            return finish(counts, true);
        }
        let run = || -> Vec<Outcome> {
            chunk
                .par_iter()
                .map(|candidate| judge(candidate, options))
                .collect()
        };
        let outcomes = match &pool {
            Some(pool) => pool.install(run),
            None => run(),
        };
        for (candidate, outcome) in chunk.iter().zip(outcomes) {
            counts.tried += 1;
            let verdict = match &outcome {
                Outcome::Unproven { out_of_time: true } => MoveVerdict::OutOfTime,
                Outcome::Unproven { out_of_time: false } => MoveVerdict::Unproven,
                Outcome::NotPuzzle { why: None } => MoveVerdict::PlayedBest,
                Outcome::NotPuzzle { why: Some(why) } => MoveVerdict::NotPuzzle(*why),
                Outcome::Puzzle(_) => MoveVerdict::Puzzle,
            };
            match outcome {
                Outcome::Unproven { .. } => counts.skipped += 1,
                Outcome::NotPuzzle { why: None } => counts.played_best += 1,
                Outcome::NotPuzzle { why: Some(_) } => counts.not_unique += 1,
                Outcome::Puzzle(puzzle) => {
                    if puzzle.loss() == 0 {
                        counts.played_best += 1;
                    }
                    counts.found += 1;
                    if on_event(FromGameEvent::Found(&puzzle)).is_break() {
                        return finish(counts, true);
                    }
                }
            }
            if on_event(judged(candidate, verdict)).is_break() {
                return finish(counts, true);
            }
        }
        if on_event(FromGameEvent::Progress(counts)).is_break() {
            return finish(counts, true);
        }
    }
    let stopped = options.analyse.stop.load(Ordering::Relaxed);
    finish(counts, stopped)
}

/// Every puzzle of `records` (see [`from_games_each`]), with the counts.
pub fn from_games(
    records: &[GameRecord],
    options: &FromGameOptions,
) -> (Vec<GamePuzzle>, FromGameSummary) {
    let (found, summary, _) = from_games_judged(records, options);
    (found, summary)
}

/// Every puzzle of `records` (see [`from_games_each`]), with the counts and what became of
/// each move, in game and move order.
pub fn from_games_judged(
    records: &[GameRecord],
    options: &FromGameOptions,
) -> (Vec<GamePuzzle>, FromGameSummary, Vec<MoveReport>) {
    let mut found = Vec::new();
    let mut reports = Vec::new();
    let summary = from_games_each(records, options, &mut |event| {
        match event {
            FromGameEvent::Found(puzzle) => found.push(puzzle.clone()),
            FromGameEvent::Judged(report) => reports.push(report),
            FromGameEvent::Progress(_) => {}
        }
        ControlFlow::Continue(())
    });
    found.sort_by_key(|p: &GamePuzzle| (p.game, p.ply));
    reports.sort_by_key(|r| (r.game, r.ply));
    (found, summary, reports)
}

/// "Light (Ann) played light:inn:a1,a2,b2, losing 3 squares and the game" and the like.
pub fn played_words(puzzle: &GamePuzzle) -> String {
    let position = &puzzle.analysis.position;
    let mover = position.to_move();
    let name = match mover {
        crate::Player::Light => puzzle.light.as_deref(),
        crate::Player::Dark => puzzle.dark.as_deref(),
    };
    let who = match name {
        Some(name) => format!("{} ({name})", mover.title()),
        None => mover.title().to_string(),
    };
    let played = format_move_with_player(position, puzzle.played);
    let loss = puzzle.loss();
    if loss == 0 {
        return format!("{who} found it: {played}");
    }
    let squares = crate::present::words::count(loss, "square");
    let result = if puzzle.lost_result() {
        match (puzzle.analysis.value.signum(), puzzle.played_value.signum()) {
            (1, 0) => " and the win (a draw instead)",
            (1, _) => " and the win",
            _ => " and the draw",
        }
    } else {
        ""
    };
    format!("{who} played {played}, giving away {squares}{result}")
}

/// The puzzle file of a puzzle from a game, titled `title`: the position before the move, the
/// `puzzle:` block with its `game:` (the game, the move, the players, the move played with its
/// value and refutation) and the `solution:` block as `generate` writes it.
pub fn game_puzzle_file(puzzle: &GamePuzzle, title: String, margin: i32) -> PositionFile {
    let analysis = &puzzle.analysis;
    let position = analysis.position;
    let line = format_line(&position, &analysis.best_line);
    let explanations = explain_line(&position, &analysis.best_line)
        .iter()
        .map(|r| r.to_string())
        .collect();
    let mut after = position;
    after.play(puzzle.played);
    let mut file = PositionFile::from_position(position);
    file.meta.title = Some(title);
    file.meta.tags = vec!["puzzle".to_string(), "from-game".to_string()];
    let players = match (&puzzle.light, &puzzle.dark) {
        (Some(l), Some(d)) => format!(" ({l} v {d})"),
        _ => String::new(),
    };
    let event = [puzzle.event.as_deref(), puzzle.round.as_deref()]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(", ");
    let event = if event.is_empty() {
        String::new()
    } else {
        format!(", {event}")
    };
    file.meta.description = Some(format!(
        "Game {}{players}{event}, move {}: {}.",
        puzzle.game,
        puzzle.ply,
        played_words(puzzle)
    ));
    file.meta.source = Some(format!(
        "cathedral generate --from (cathedral {}): game {}, move {}",
        env!("CARGO_PKG_VERSION"),
        puzzle.game,
        puzzle.ply
    ));
    // Filled field by field: the block may gain fields this command leaves at their default.
    let info = file.puzzle.insert(PuzzleInfo::default());
    info.question = super::question(position.to_move(), analysis.value);
    info.themes = analysis
        .themes
        .iter()
        .map(|t| t.name().to_string())
        .collect();
    info.difficulty = analysis.difficulty.name().to_string();
    info.rating = Some(analysis.features.rating());
    info.effort = Some(analysis.features.nodes);
    info.margin = margin;
    info.game = Some(PuzzleGame {
        number: puzzle.game as u32,
        move_number: puzzle.ply as u32,
        event: puzzle.event.clone(),
        round: puzzle.round.clone(),
        light: puzzle.light.clone(),
        dark: puzzle.dark.clone(),
        played: format_move_with_player(&position, puzzle.played),
        played_value: puzzle.played_value,
        refutation: format_line(&after, &puzzle.refutation),
    });
    file.solution = Some(StoredSolution {
        value: analysis.value,
        wdl: false,
        best_move: line.first().cloned(),
        best_line: line,
        nodes: None,
        explanations,
        ..StoredSolution::default()
    });
    file
}
