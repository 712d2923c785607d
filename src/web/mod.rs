//! `cathedral serve`: the web front end. A local HTTP server (axum on tokio) that serves the
//! page embedded in the binary and the library's JSON service ([`cathedral::service`]) over
//! HTTP: a game as rules, an optional start position and moves in; the position, its legal
//! moves, what the last move did, the solver's and the engine's answers out. The server keeps no
//! game state: every request carries its game, so a tab can be reloaded, duplicated or closed
//! at any time. The browser build (`src/wasm/`) serves the same service from a Web Worker.
//!
//! The page (`assets/`: `index.html` and its ES modules) is the board, the editor, the game
//! viewer and the trainer in one; `docs/web.md` describes both.

mod api;
mod assets;
pub mod play;
pub mod site;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::get;
use cathedral::service::{MAX_RECORD, Service, ServiceOptions, Slots};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

/// How the server runs.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// The address to listen on: 127.0.0.1 for this computer only, 0.0.0.0 (or `::`) for the
    /// network (a container).
    pub bind: std::net::IpAddr,
    /// The port (0: any free port).
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
    /// Also serve the play server (`/play`, docs/play.md) on this database: `sqlite://FILE` or
    /// `postgres://...`.
    pub play: Option<String>,
}

/// What every handler shares.
pub(crate) struct AppState {
    pub options: ServeOptions,
    pub service: Arc<Service>,
}

/// The server's search slots: `max_searches`, and one more only for searches of at most
/// `QUICK_MS` (the engine's move in play, the evaluation, teaching), so that long solves never
/// keep a player waiting for a move.
struct Semaphores {
    searches: Arc<Semaphore>,
    quick: Arc<Semaphore>,
}

impl Slots for Semaphores {
    fn take(&self, time: Option<Duration>) -> Option<Box<dyn Send>> {
        let quick = time.is_some_and(|t| t <= Duration::from_millis(cathedral::service::QUICK_MS));
        match Arc::clone(&self.searches).try_acquire_owned() {
            Ok(permit) => Some(Box::new(permit)),
            Err(_) if quick => Arc::clone(&self.quick)
                .try_acquire_owned()
                .ok()
                .map(|permit| Box::new(permit) as Box<dyn Send>),
            Err(_) => None,
        }
    }
}

/// The router: the page and the API.
pub fn router(options: ServeOptions) -> Router {
    let service = Service::new(
        ServiceOptions {
            max_searches: options.max_searches,
            max_search_ms: options.max_search_ms,
            puzzles: options.puzzles.clone(),
            engine: "server",
            table_mb: cathedral::service::DEFAULT_TABLE_MB,
        },
        Box::new(Semaphores {
            searches: Arc::new(Semaphore::new(options.max_searches)),
            quick: Arc::new(Semaphore::new(1)),
        }),
    );
    let state = Arc::new(AppState {
        service: Arc::new(service),
        options,
    });
    Router::new()
        .route("/", get(assets::index))
        .route("/favicon.svg", get(assets::favicon))
        .route("/favicon.ico", get(assets::favicon))
        .route("/assets/{name}", get(assets::asset))
        .route("/api/{*path}", get(api::get).post(api::post))
        .fallback(api::not_found)
        // The service refuses a body above its own limit for each endpoint (MAX_BODY, or
        // MAX_RECORD for a record file), in words; this keeps larger ones off the server.
        .layer(DefaultBodyLimit::max(MAX_RECORD))
        .with_state(state)
}

/// Serves on `options.bind` until Ctrl-C (or, on Unix, SIGTERM, as a container is stopped),
/// calling `ready` with the address once it listens.
pub fn serve(options: ServeOptions, ready: impl FnOnce(SocketAddr)) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    // The opening explorer's book is read once, off the request path, as the server starts.
    std::thread::spawn(|| {
        cathedral::book::Book::bundled();
    });
    runtime.block_on(async move {
        let mut app = router(options.clone());
        if let Some(database) = &options.play {
            let hub = play::Hub::open(database)
                .await
                .map_err(std::io::Error::other)?;
            tokio::spawn(std::sync::Arc::clone(&hub).keep_time());
            app = play::routes(hub).merge(app);
        }
        let listener =
            tokio::net::TcpListener::bind(SocketAddr::from((options.bind, options.port))).await?;
        ready(listener.local_addr()?);
        axum::serve(listener, app)
            .with_graceful_shutdown(stopped())
            .await
    })
}

/// Resolves when the server is asked to stop: Ctrl-C, or SIGTERM on Unix (what `docker stop`
/// sends; as the container's first process the server would otherwise ignore it).
async fn stopped() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut terminate) => {
                tokio::select! {
                    () = interrupt => {}
                    _ = terminate.recv() => {}
                }
            }
            Err(_) => interrupt.await,
        }
    }
    #[cfg(not(unix))]
    interrupt.await;
}
