//! `POST /api/territory`: the territory view of the position a game reaches
//! ([`crate::territory`]): for every cell, the shares of playouts in which Light
//! and Dark owned or covered it at the end, and whether it is settled already.

use super::Service;
use super::api::{ApiError, GAME, GameRequest, in_range, read, replay};
use super::engine::search;
use crate::boardgame::Instant;
use crate::territory::{
    DEFAULT_NODES_PER_MOVE, DEFAULT_PLAYOUTS, TerritoryOptions, territory as map_of,
};
use serde::Deserialize;
use std::ops::RangeInclusive;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The playouts a request may ask for.
const PLAYOUTS: RangeInclusive<u64> = 1..=64;
/// The nodes per move a request may ask for.
const NODES: RangeInclusive<u64> = 100..=200_000;

/// A game (as the other endpoints take it) and the map's settings.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct TerritoryRequest {
    #[serde(default)]
    rules: Option<String>,
    #[serde(default)]
    start: Option<String>,
    #[serde(default)]
    moves: Vec<String>,
    /// 1 to 64 (default 16).
    #[serde(default)]
    playouts: Option<i64>,
    /// 100 to 200,000 (default 2,000).
    #[serde(default)]
    nodes_per_move: Option<i64>,
    /// Any number (default 1): the same seed and settings give the same map.
    #[serde(default)]
    seed: Option<u64>,
}

/// The territory map of the position a game reaches, within the server's search time.
pub(crate) fn territory(
    service: &Service,
    body: &[u8],
    stop: &Arc<AtomicBool>,
) -> Result<serde_json::Value, ApiError> {
    let request: TerritoryRequest = read(body, &GAME)?;
    let playouts = in_range(
        "playouts",
        request.playouts,
        DEFAULT_PLAYOUTS as u64,
        PLAYOUTS,
    )? as usize;
    let nodes = in_range(
        "nodes_per_move",
        request.nodes_per_move,
        DEFAULT_NODES_PER_MOVE,
        NODES,
    )?;
    let seed = request.seed.unwrap_or(1);
    // The game as the other endpoints read it.
    let game: GameRequest = serde_json::from_value(serde_json::json!({
        "rules": request.rules,
        "start": request.start,
        "moves": request.moves,
    }))
    .map_err(|e| ApiError::new(500, e.to_string()))?;
    let (position, _) = replay(&game)?;
    let limit = Duration::from_millis(service.options.max_search_ms);
    let map = search(service, None, stop, move |stop| {
        map_of(
            &position,
            &TerritoryOptions {
                playouts,
                nodes_per_move: nodes,
                seed,
                stop,
                deadline: Some(Instant::now() + limit),
                ..TerritoryOptions::default()
            },
        )
    })?;
    if map.playouts == 0 && !map.complete {
        return Err(ApiError::new(
            503,
            format!(
                "no playout finished within the server's search time ({} s): ask for fewer nodes per move",
                limit.as_secs_f64()
            ),
        ));
    }
    super::to_json(&map)
}
