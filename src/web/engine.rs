//! The searches of the API: search slots and their time, a search stopped when its request goes
//! away, and the solve and best-move answers.

use super::AppState;
use super::api::{ApiError, BUSY_END, GAME, GameRequest, bad, in_range, read, replay};
use axum::Json;
use axum::extract::State;
use axum::extract::rejection::JsonRejection;
use axum::http::StatusCode;
use cathedral::Position;
use cathedral::bestmove::BestMoveReport;
use cathedral::boardgame::engine::estimator;
use cathedral::boardgame::{SolveOptions, solve as solve_position};
use cathedral::engine::{MAX_LEVEL, PlayOptions, choose};
use cathedral::legality::parse_move;
use cathedral::report::SolveReport;
use serde::Serialize;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Sets the flag when dropped: a request whose client went away is dropped by the server, and
/// its search stops.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// The answer when every search slot is taken: 503 with `Retry-After: 1`.
pub(crate) fn busy(state: &AppState) -> ApiError {
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        format!(
            "{} searches are running already, {BUSY_END}",
            state.options.max_searches
        ),
    )
}

/// The time a request may search: `time_ms` (1 or more; by default, and at most, the server's
/// longest search time), or a 400 for less than 1.
pub(crate) fn search_time(state: &AppState, asked: Option<i64>) -> Result<Duration, ApiError> {
    let most = state.options.max_search_ms;
    match asked {
        None => Ok(Duration::from_millis(most)),
        Some(ms) if ms >= 1 => Ok(Duration::from_millis((ms as u64).min(most))),
        Some(ms) => Err(bad(format!(
            "time_ms {ms} is out of range: expected 1 or more milliseconds (more than this server's longest search, {most}, is capped to it)"
        ))),
    }
}

/// Runs `work` on a blocking thread if a search slot is free (503 otherwise), stopping it when
/// the request is dropped.
pub(crate) async fn search<T: Send + 'static>(
    state: &AppState,
    work: impl FnOnce(Arc<AtomicBool>) -> T + Send + 'static,
) -> Result<T, ApiError> {
    search_within(state, None, work).await
}

/// The longest search that may take the slot kept for quick searches, in milliseconds.
pub(crate) const QUICK_MS: u64 = 2000;

/// As `search`, for a search of `time`: one of at most `QUICK_MS` takes the slot kept for quick
/// searches when every other is taken, so that the engine's move in play never waits for solves
/// running in other tabs.
pub(crate) async fn search_within<T: Send + 'static>(
    state: &AppState,
    time: Option<Duration>,
    work: impl FnOnce(Arc<AtomicBool>) -> T + Send + 'static,
) -> Result<T, ApiError> {
    let quick = time.is_some_and(|t| t <= Duration::from_millis(QUICK_MS));
    let _permit = match state.searches.try_acquire() {
        Ok(permit) => permit,
        Err(_) if quick => state.quick.try_acquire().map_err(|_| busy(state))?,
        Err(_) => return Err(busy(state)),
    };
    let stop = Arc::new(AtomicBool::new(false));
    let _guard = StopOnDrop(Arc::clone(&stop));
    tokio::task::spawn_blocking(move || work(stop))
        .await
        .map_err(|_| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "the search failed".into(),
            )
        })
}

/// A solve's report as the page shows it: the command line's JSON report, with the verdict in
/// words and each move of the best line explained.
#[derive(Serialize)]
pub(crate) struct SolveAnswer {
    #[serde(flatten)]
    report: SolveReport,
    verdict: String,
    line: Vec<cathedral::report::LineStep>,
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

/// How the server solves: one thread, a table of at most 64 MiB (starting at 4), the time given.
pub(crate) fn solve_options(
    position: &Position,
    time: Duration,
    stop: Arc<AtomicBool>,
) -> SolveOptions {
    SolveOptions {
        estimate: Some(estimator(position)),
        threads: 1,
        tt_mb: 64,
        initial_tt_mb: Some(4),
        time_limit: Some(time),
        stop,
        ..SolveOptions::default()
    }
}

/// The exact solve of the position a game reaches, within the request's time (capped).
pub(crate) async fn solve(
    State(state): State<Arc<AppState>>,
    body: Result<Json<serde_json::Value>, JsonRejection>,
) -> Result<Json<SolveAnswer>, ApiError> {
    let game: GameRequest = read(body, &GAME)?;
    let time = search_time(&state, game.time_ms)?;
    let (position, _) = replay(&game)?;
    let report = search(&state, move |stop| {
        let solution = solve_position(&position, &solve_options(&position, time, stop), &|_| {});
        SolveAnswer::new(SolveReport::new(&position, &solution, false))
    })
    .await?;
    Ok(Json(report))
}

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

pub(crate) async fn bestmove(
    State(state): State<Arc<AppState>>,
    body: Result<Json<serde_json::Value>, JsonRejection>,
) -> Result<Json<BestMoveAnswer>, ApiError> {
    let game: GameRequest = read(body, &GAME)?;
    let level = in_range(
        "level",
        game.level,
        u64::from(MAX_LEVEL),
        1..=u64::from(MAX_LEVEL),
    )? as u8;
    let candidates = in_range("candidates", game.candidates, 1, 1..=MAX_CANDIDATES)? as usize;
    let time = search_time(&state, game.time_ms)?;
    let (position, _) = replay(&game)?;
    let also = match &game.also {
        Some(text) => Some(parse_move(&position, text).map_err(|e| {
            bad(format!(
                "`also` (`{text}`) cannot be played in this position: {e}"
            ))
        })?),
        None => None,
    };
    let answer = search_within(&state, Some(time), move |stop| {
        let choice = choose(
            &position,
            &PlayOptions {
                time: Some(time),
                level,
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
                mv: cathedral::notation::format_move_with_player(&position, candidate.mv),
                value,
                loss: (report.value - value).max(0.0),
                line: cathedral::notation::format_line(&position, &candidate.pv),
            }
        });
        BestMoveAnswer { report, also }
    })
    .await?;
    Ok(Json(answer))
}
