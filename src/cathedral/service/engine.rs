//! The searches of the API: search slots and their time, a search stopped when its request goes
//! away, and the solve and best-move answers.

use super::Service;
use super::api::{ApiError, BUSY_END, GAME, GameRequest, bad, in_range, read, replay};
use crate::Position;
use crate::bestmove::BestMoveReport;
use crate::boardgame::engine::estimator;
use crate::boardgame::{SolveOptions, solve as solve_position};
use crate::engine::{MAX_LEVEL, PlayOptions, choose};
use crate::legality::parse_move;
use crate::report::SolveReport;
use serde::Serialize;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The answer when every search slot is taken: 503, worth trying again in a second.
pub(crate) fn busy(service: &Service) -> ApiError {
    ApiError::new(
        503,
        format!(
            "{} searches are running already, {BUSY_END}",
            service.options.max_searches
        ),
    )
}

/// The time a request may search: `time_ms` (1 or more; by default, and at most, the service's
/// longest search time), or a 400 for less than 1.
pub(crate) fn search_time(service: &Service, asked: Option<i64>) -> Result<Duration, ApiError> {
    let most = service.options.max_search_ms;
    match asked {
        None => Ok(Duration::from_millis(most)),
        Some(ms) if ms >= 1 => Ok(Duration::from_millis((ms as u64).min(most))),
        Some(ms) => Err(bad(format!(
            "time_ms {ms} is out of range: expected 1 or more milliseconds (more than this server's longest search, {most}, is capped to it)"
        ))),
    }
}

/// The longest search that may take the slot kept for quick searches, in milliseconds: a
/// transport may keep one for them, so that the engine's move in play never waits for long
/// solves running in other tabs.
pub const QUICK_MS: u64 = 2000;

/// Runs `work` with the request's stop flag in a search slot for a search of at most `time`
/// (`None`: bounded only by the longest search time), or the busy answer.
pub(crate) fn search<T>(
    service: &Service,
    time: Option<Duration>,
    stop: &Arc<AtomicBool>,
    work: impl FnOnce(Arc<AtomicBool>) -> T,
) -> Result<T, ApiError> {
    let _slot = service.slot(time)?;
    Ok(work(Arc::clone(stop)))
}

/// A solve's report as the page shows it: the command line's JSON report, with the verdict in
/// words and each move of the best line explained.
#[derive(Serialize)]
pub(crate) struct SolveAnswer {
    #[serde(flatten)]
    report: SolveReport,
    verdict: String,
    line: Vec<crate::report::LineStep>,
}

impl SolveAnswer {
    pub(crate) fn new(report: SolveReport) -> SolveAnswer {
        SolveAnswer {
            verdict: report.verdict.clone(),
            line: report.line.clone(),
            report,
        }
    }
}

/// How the service solves: one thread, a table of at most the service's `table_mb` (starting at
/// 4 MiB and grown as the solve needs), the time given.
pub(crate) fn solve_options(
    service: &Service,
    position: &Position,
    time: Duration,
    stop: Arc<AtomicBool>,
) -> SolveOptions {
    SolveOptions {
        estimate: Some(estimator(position)),
        threads: 1,
        tt_mb: service.options.table_mb.max(4),
        initial_tt_mb: Some(4),
        time_limit: Some(time),
        stop,
        ..SolveOptions::default()
    }
}

/// The exact solve of the position a game reaches, within the request's time (capped).
pub(crate) fn solve(
    service: &Service,
    body: &[u8],
    stop: &Arc<AtomicBool>,
) -> Result<serde_json::Value, ApiError> {
    let game: GameRequest = read(body, &GAME)?;
    let time = search_time(service, game.time_ms)?;
    let (position, _) = replay(&game)?;
    let report = search(service, None, stop, move |stop| {
        let options = solve_options(service, &position, time, stop);
        let solution = solve_position(&position, &options, &|_| {});
        SolveAnswer::new(SolveReport::new(&position, &solution, false))
    })?;
    super::to_json(&report)
}

/// The largest seed `bestmove` takes: JavaScript's largest safe whole number.
const MAX_SEED: u64 = (1 << 53) - 1;

/// The most ranked moves `bestmove` gives.
const MAX_CANDIDATES: u64 = 20;

/// The engine's move for the position a game reaches, with its `candidates` best moves ranked.
/// The engine's decision, and the value of the move asked for as `also`.
#[derive(Serialize)]
pub(crate) struct BestMoveAnswer {
    #[serde(flatten)]
    report: BestMoveReport,
    /// `also`'s value from the mover's view, exact or estimated as `judgement` says, from the
    /// same search; null when no `also` was asked, or when the search finished no iteration.
    also: Option<AlsoValue>,
}

#[derive(Serialize)]
pub(crate) struct AlsoValue {
    /// The move, in the notation with the player.
    mv: String,
    value: f64,
    /// What it loses against the best move, in squares (0 when it is as good).
    loss: f64,
    /// The expected line after it, starting with it: its second move is the answer it allows.
    line: Vec<String>,
}

pub(crate) fn bestmove(
    service: &Service,
    body: &[u8],
    stop: &Arc<AtomicBool>,
) -> Result<serde_json::Value, ApiError> {
    let game: GameRequest = read(body, &GAME)?;
    let level = in_range(
        "level",
        game.level,
        u64::from(MAX_LEVEL),
        1..=u64::from(MAX_LEVEL),
    )? as u8;
    let candidates = in_range("candidates", game.candidates, 1, 1..=MAX_CANDIDATES)? as usize;
    let seed = in_range("seed", game.seed, 0, 0..=MAX_SEED)?;
    let time = search_time(service, game.time_ms)?;
    let (position, _) = replay(&game)?;
    let also = match &game.also {
        Some(text) => Some(parse_move(&position, text).map_err(|e| {
            bad(format!(
                "`also` (`{text}`) cannot be played in this position: {e}"
            ))
        })?),
        None => None,
    };
    let answer = search(service, Some(time), stop, move |stop| {
        let choice = choose(
            &position,
            &PlayOptions {
                time: Some(time),
                level,
                seed,
                candidates,
                also,
                tt_mb: 32,
                stop,
                ..PlayOptions::default()
            },
            &mut |_| {},
        );
        let report = BestMoveReport::new(&position, &choice);
        let also = choice.also.as_ref().map(|candidate| {
            let value = f64::from(candidate.estimate) / 100.0;
            AlsoValue {
                mv: crate::notation::format_move_with_player(&position, candidate.mv),
                value,
                loss: (report.value - value).max(0.0),
                line: crate::notation::format_line(&position, &candidate.pv),
            }
        });
        BestMoveAnswer { report, also }
    })?;
    super::to_json(&answer)
}
