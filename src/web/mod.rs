//! `cathedral serve`: the web front end. A local HTTP server (axum on tokio) that serves the
//! page embedded in the binary and a JSON API over the library: a game as rules, an optional
//! start position and moves in; the position, its legal moves, what the last move did, the
//! solver's and the engine's answers out. The server keeps no game state: every request
//! carries its game, so a tab can be reloaded, duplicated or closed at any time.
//!
//! The page (`assets/`: `index.html` and its ES modules) is the board, the editor, the game
//! viewer and the trainer in one; `docs/web.md` describes both.

mod analyse_live;
mod api;
mod assets;
mod book;
mod engine;
mod live;
mod placements;
mod rating;
mod records;
mod territory;
mod trainer;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use std::collections::HashMap;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::{Arc, Mutex};
use tokio::sync::Semaphore;

/// The largest request body accepted: a game record of a long game is a few kilobytes.
pub const MAX_BODY: usize = 256 * 1024;

/// The largest record file the page may open (`/api/record/read`): a tournament's or a match's
/// record of several hundred games is a few hundred kilobytes.
pub const MAX_RECORD: usize = 16 * 1024 * 1024;

/// How the server runs.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// The port on 127.0.0.1 (0: any free port).
    pub port: u16,
    /// At most this many solves or engine searches at once; more get 503.
    pub max_searches: usize,
    /// The longest time one search may take, in milliseconds.
    pub max_search_ms: u64,
    /// The trainer's puzzles as (name, position file text); `None`: the shipped collection.
    pub puzzles: Option<Vec<(String, String)>>,
    /// Serve the page's files from this folder, read at each request, instead of the copy
    /// embedded in the binary (for working on the page).
    pub assets: Option<std::path::PathBuf>,
}

/// What every handler shares.
pub(crate) struct AppState {
    pub options: ServeOptions,
    pub searches: Arc<Semaphore>,
    /// One more slot, only for searches of at most `engine::QUICK_MS` (the engine's move in
    /// play, the evaluation, teaching): long solves never keep a player waiting for a move.
    pub quick: Arc<Semaphore>,
    /// The trainer's puzzles: (name, position file text).
    pub puzzles: Vec<(String, String)>,
    /// The live solves running, by id, with their stop flags.
    pub running: Mutex<HashMap<u64, Arc<AtomicBool>>>,
    pub next_id: AtomicU64,
}

/// The router: the page and the API.
pub fn router(options: ServeOptions) -> Router {
    let puzzles = options.puzzles.clone().unwrap_or_else(|| {
        trainer::TEACHING
            .iter()
            .map(|(name, text)| (name.to_string(), text.to_string()))
            .collect()
    });
    let state = Arc::new(AppState {
        searches: Arc::new(Semaphore::new(options.max_searches)),
        quick: Arc::new(Semaphore::new(1)),
        puzzles,
        running: Mutex::new(HashMap::new()),
        next_id: AtomicU64::new(1),
        options,
    });
    Router::new()
        .route("/", get(assets::index))
        .route("/favicon.svg", get(assets::favicon))
        .route("/favicon.ico", get(assets::favicon))
        .route("/assets/{name}", get(assets::asset))
        .route("/api/health", get(api::health))
        .route("/api/position", post(api::position))
        .route("/api/placements", post(placements::placements))
        .route("/api/solve", post(engine::solve))
        .route("/api/solve/live", post(live::solve_live))
        .route("/api/solve/live/{id}/stop", post(live::stop))
        .route("/api/bestmove", post(engine::bestmove))
        .route("/api/book", post(book::book))
        .route("/api/analyse", post(analyse_live::analyse))
        .route("/api/analyse/live", post(analyse_live::analyse_live))
        .route("/api/analyse/live/{id}/stop", post(analyse_live::stop))
        .route("/api/territory", post(territory::territory))
        .route("/api/rating", post(rating::rating))
        .route(
            "/api/record/read",
            post(records::read_record).layer(DefaultBodyLimit::max(MAX_RECORD)),
        )
        .route("/api/record/write", post(records::write_record))
        .route("/api/puzzles", get(trainer::list))
        .route("/api/puzzles/from-game", post(trainer::from_game))
        .route("/api/puzzles/answer", post(trainer::answer_start))
        .route("/api/puzzles/{name}", get(trainer::one))
        .route("/api/puzzles/{name}/answer", post(trainer::answer))
        .fallback(api::not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(state)
}

/// Serves on 127.0.0.1 until Ctrl-C, calling `ready` with the address once it listens.
pub fn serve(options: ServeOptions, ready: impl FnOnce(SocketAddr)) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    // The opening explorer's book is read once, off the request path, as the server starts.
    std::thread::spawn(|| {
        cathedral::book::Book::bundled();
    });
    runtime.block_on(async move {
        let listener =
            tokio::net::TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, options.port)))
                .await?;
        ready(listener.local_addr()?);
        axum::serve(listener, router(options))
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
    })
}
