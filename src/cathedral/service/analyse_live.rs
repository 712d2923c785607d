//! A whole-game analysis within the server's search time, and one that reports while it works:
//! `POST /api/analyse/live` answers with a stream of server-sent events (`started` with the
//! analysis's id, `progress` after each position judged with the move it completes, then `result`
//! with the same answer as `/api/analyse`). `POST /api/analyse/live/{id}/stop` stops it early; the
//! result then holds the moves judged so far. A client that goes away stops it too.
//!
//! The positions are judged one after the other on one thread, in the game's order, so that the
//! moves complete 1, 2, 3...; the whole analysis stops at the server's longest search time (a
//! deadline over all of it, not per position).

use super::Service;
use super::api::{ApiError, GAME, GameRequest, in_range, read, record_of};
use super::engine::{search, search_time};
use super::live::{Emit, LiveSearch, Running, event};
use crate::analysis::game::{GameAnalysis, Judged, PlyAnalysis, Review, assemble};
use crate::analysis::{Budget, Judge, REVIEW_TT_MB};
use crate::boardgame::{Instant, stop_after};
use crate::file::GameRecord;
use crate::{Move, Position};
use serde::Serialize;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The nodes per position an analysis may ask for.
const NODES: std::ops::RangeInclusive<u64> = 1..=2_000_000;
/// The nodes per position when the request does not say.
const DEFAULT_NODES: u64 = 50_000;

/// The answer of `/api/analyse` and the `result` event of `/api/analyse/live`.
#[derive(Serialize)]
pub(crate) struct AnalyseResponse {
    /// As `cathedral analyse --json`, of the moves whose two positions were judged (`end`: the
    /// last position judged); null when no position was.
    analysis: Option<GameAnalysis<Position>>,
    /// The value plot of the positions judged; null when none was.
    plot_svg: Option<String>,
    /// Whether every position was judged.
    complete: bool,
    /// Positions judged, and the game's positions (its moves and one).
    judged: usize,
    total: usize,
    /// Why an analysis ended early: `stopped` (asked to, or its client left), `time` (the
    /// server's longest search time); null when complete.
    stopped_reason: Option<&'static str>,
}

/// An analysis asked for, checked.
pub(crate) struct AnalyseRequest {
    record: GameRecord,
    nodes: u64,
    time: Duration,
}

impl AnalyseRequest {
    /// The analysis a request asks for: its game, `nodes_per_move` and `time_ms`, each checked.
    pub(crate) fn new(service: &Service, game: &GameRequest) -> Result<AnalyseRequest, ApiError> {
        let nodes = in_range("nodes_per_move", game.nodes_per_move, DEFAULT_NODES, NODES)?;
        let time = search_time(service, game.time_ms)?;
        Ok(AnalyseRequest {
            record: record_of(game)?,
            nodes,
            time,
        })
    }

    /// The positions to judge: the game's moves and one.
    fn total(&self) -> usize {
        self.record.moves.len() + 1
    }

    /// Judges the positions in order until all are, `stop` is set or the time is up, calling
    /// `progress` after each with the number judged and the move it completed (none for the
    /// first position). A position whose search was cut short counts as not judged.
    pub(crate) fn run(
        &self,
        stop: &Arc<AtomicBool>,
        progress: &mut dyn FnMut(usize, Option<PlyAnalysis<Position>>),
    ) -> AnalyseResponse {
        let start = Instant::now();
        // The deadline stops the search under way, not only the next one.
        let watchdog = stop_after(Arc::clone(stop), self.time);
        let positions = self.record.positions();
        let positions = positions.as_slice();
        let options = Budget {
            nodes: Some(self.nodes),
            time: None,
            tt_mb: REVIEW_TT_MB,
            stop: Arc::clone(stop),
            recheck: <Position as Judge>::RECHECK,
        };
        let mut review = Review::new(&self.record, positions, &options);
        while let Some(plies) = review.step() {
            if start.elapsed() >= self.time {
                break;
            }
            let judged = review.judged().len();
            if plies.is_empty() {
                progress(judged, None);
            }
            for ply in plies {
                progress(judged, Some(ply));
            }
        }
        let judged: Vec<Judged<Move>> = review.judged().to_vec();
        drop(watchdog);
        let total = self.total();
        let complete = judged.len() == total;
        let stopped_reason = match complete {
            true => None,
            false if start.elapsed() >= self.time => Some("time"),
            false => Some("stopped"),
        };
        let (analysis, plot_svg) = if judged.is_empty() {
            (None, None)
        } else {
            // The game up to the last position judged.
            let prefix = GameRecord {
                moves: self.record.moves[..judged.len() - 1].to_vec(),
                ..self.record.clone()
            };
            let analysis = assemble(&prefix, &judged);
            let plot = crate::draw::game_plot_svg(&prefix, &analysis);
            (Some(analysis), Some(plot))
        };
        AnalyseResponse {
            analysis,
            plot_svg,
            complete,
            judged: judged.len(),
            total,
            stopped_reason,
        }
    }
}

#[derive(Serialize)]
struct Started {
    id: u64,
    /// The positions to judge: the game's moves and one.
    total: usize,
    /// The moves to judge.
    moves: usize,
    /// The most time the analysis may take, in milliseconds.
    time_ms: u64,
}

#[derive(Serialize)]
struct Progress {
    /// Positions judged so far.
    judged: usize,
    total: usize,
    /// The move this position's judgement completed, as in the result's `analysis.plies`; null
    /// after the first position.
    ply: Option<PlyAnalysis<Position>>,
    elapsed_ms: u64,
}

/// Every move of the game judged (`cathedral analyse`), with the value plot, within the
/// service's search time: an analysis that runs out of time answers with the moves judged by then.
pub(crate) fn analyse(
    service: &Service,
    body: &[u8],
    stop: &Arc<AtomicBool>,
) -> Result<serde_json::Value, ApiError> {
    let game: GameRequest = read(body, &GAME)?;
    let request = AnalyseRequest::new(service, &game)?;
    let response = search(service, None, stop, move |stop| {
        request.run(&stop, &mut |_, _| {})
    })?;
    super::to_json(&response)
}

/// An analysis of a game that reports its progress and result.
pub(crate) fn analyse_live(service: &Arc<Service>, body: &[u8]) -> Result<LiveSearch, ApiError> {
    let game: GameRequest = read(body, &GAME)?;
    let request = AnalyseRequest::new(service, &game)?;
    let slot = service.slot(None)?;
    let running = Running::register(service);
    let stop = running.stop_flag();
    let started = event(
        "started",
        &Started {
            id: running.id(),
            total: request.total(),
            moves: request.record.moves.len(),
            time_ms: request.time.as_millis() as u64,
        },
    );
    let work = move |emit: &mut Emit| {
        let _slot = slot;
        let start = Instant::now();
        let total = request.total();
        let result = request.run(&stop, &mut |judged, ply| {
            emit(event(
                "progress",
                &Progress {
                    judged,
                    total,
                    ply,
                    elapsed_ms: start.elapsed().as_millis() as u64,
                },
            ));
        });
        emit(event("result", &result));
    };
    Ok(LiveSearch {
        started,
        running,
        work: Box::new(work),
    })
}
