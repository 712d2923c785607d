//! `cathedral serve --play`: the play server's HTTP API and socket (`docs/play.md`), carrying
//! requests to the library's [`Play`] and its answers back. Sessions are HTTP-only cookies for
//! people and `Authorization: Bearer` tokens for bots; every change from a cookie session
//! carries the session's CSRF token in `X-CSRF-Token`, and a request from another site's page
//! (its `Origin`) is refused.

mod http;
mod socket;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use cathedral::play::{Offered, Play, SqlStore, TwoPlayer};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The largest request body or socket message the play server reads.
pub const MAX_MESSAGE: usize = 16 * 1024;

/// The games the play server offers: Cathedral under every preset (classic by default) and
/// two-player Corintho.
pub fn offered() -> Offered {
    Offered::new()
        .with(TwoPlayer::<cathedral::Position>::new(
            "cathedral",
            "classic",
            true,
        ))
        .with(TwoPlayer::<cathedral::corintho::CorinthoPosition>::new(
            "corintho", "standard", true,
        ))
}

/// What the play routes share: the server, and who is at which game on this instance.
pub struct Hub {
    pub play: Play<SqlStore>,
    /// When each game's mover runs out of time, as last seen: the timer's list.
    deadlines: Mutex<HashMap<String, u64>>,
    /// The players connected to each game's socket on this instance, and since when a
    /// player who left has been away.
    presence: Mutex<Presence>,
}

#[derive(Default)]
struct Presence {
    /// (game, player) -> open sockets.
    open: HashMap<(String, String), usize>,
    /// (game, player) -> when their last socket closed.
    left_at: HashMap<(String, String), u64>,
}

impl Hub {
    /// Opens the store at `database` and, for SQLite (one server), resumes the live games'
    /// clocks (docs/play.md, "Clocks").
    pub async fn open(database: &str) -> Result<Arc<Hub>, String> {
        let store = SqlStore::open(database)
            .await
            .map_err(|e| format!("cannot open the play database {database}: {e}"))?;
        let postgres = store.is_postgres();
        let hub = Arc::new(Hub {
            play: Play::new(store, offered()),
            deadlines: Mutex::new(HashMap::new()),
            presence: Mutex::new(Presence::default()),
        });
        if !postgres {
            hub.play.resume_all().await.map_err(|e| e.to_string())?;
        }
        hub.play.sweep().await.map_err(|e| e.to_string())?;
        for id in hub
            .play
            .store_games_in_play()
            .await
            .map_err(|e| e.to_string())?
        {
            if let Ok(view) = hub.play.view(&id, None).await {
                hub.note_deadline(&id, view.flag_at_ms);
            }
        }
        Ok(hub)
    }

    /// Remembers when game `id`'s mover runs out of time (`None`: no clock running).
    pub fn note_deadline(&self, id: &str, flag_at_ms: Option<u64>) {
        let mut deadlines = self.deadlines.lock().unwrap_or_else(|e| e.into_inner());
        match flag_at_ms {
            Some(at) => deadlines.insert(id.to_string(), at),
            None => deadlines.remove(id),
        };
    }

    /// Ends on time every game whose deadline has passed, every quarter second, for as long as
    /// the server runs (whichever instance sees a deadline first writes the result).
    pub async fn keep_time(self: Arc<Hub>) {
        loop {
            tokio::time::sleep(Duration::from_millis(250)).await;
            let now = self.play.now();
            let due: Vec<String> = {
                let deadlines = self.deadlines.lock().unwrap_or_else(|e| e.into_inner());
                deadlines
                    .iter()
                    .filter(|(_, at)| **at <= now)
                    .map(|(id, _)| id.clone())
                    .collect()
            };
            for id in due {
                // Viewing a game whose time is up ends it; its watchers hear of it.
                match self.play.view(&id, None).await {
                    Ok(view) => self.note_deadline(&id, view.flag_at_ms),
                    Err(_) => self.note_deadline(&id, None),
                }
            }
        }
    }

    fn joined(&self, game: &str, user: &str) {
        let mut presence = self.presence.lock().unwrap_or_else(|e| e.into_inner());
        let key = (game.to_string(), user.to_string());
        *presence.open.entry(key.clone()).or_default() += 1;
        presence.left_at.remove(&key);
    }

    fn left(&self, game: &str, user: &str) {
        let now = self.play.now();
        let mut presence = self.presence.lock().unwrap_or_else(|e| e.into_inner());
        let key = (game.to_string(), user.to_string());
        let open = presence.open.entry(key.clone()).or_default();
        *open = open.saturating_sub(1);
        if *open == 0 {
            presence.open.remove(&key);
            presence.left_at.insert(key, now);
        }
    }

    /// How long `user` has been away from `game` on this instance: 0 while a socket of theirs
    /// is open, since their last one closed, or since the game started if they never came.
    fn away_ms(&self, game: &str, user: &str, since_ms: u64) -> u64 {
        let now = self.play.now();
        let presence = self.presence.lock().unwrap_or_else(|e| e.into_inner());
        let key = (game.to_string(), user.to_string());
        if presence.open.contains_key(&key) {
            return 0;
        }
        now.saturating_sub(presence.left_at.get(&key).copied().unwrap_or(since_ms))
    }

    /// Whether `user` has a socket open on `game` here.
    fn present(&self, game: &str, user: &str) -> bool {
        let presence = self.presence.lock().unwrap_or_else(|e| e.into_inner());
        presence
            .open
            .contains_key(&(game.to_string(), user.to_string()))
    }
}

/// The play routes, under `/play`.
pub fn routes(hub: Arc<Hub>) -> Router {
    Router::new()
        .route("/play", get(http::page))
        .route("/play/", get(http::page))
        .route("/play/api/me", get(http::me))
        .route("/play/api/guest", post(http::guest))
        .route("/play/api/register", post(http::register))
        .route("/play/api/login", post(http::login))
        .route("/play/api/logout", post(http::logout))
        .route("/play/api/bots", post(http::register_bot))
        .route("/play/api/bots/login", post(http::bot_login))
        .route(
            "/play/api/challenges",
            get(http::challenges).post(http::challenge),
        )
        .route("/play/api/challenges/{id}", get(http::challenge_of))
        .route("/play/api/challenges/{id}/{verb}", post(http::answer))
        .route("/play/api/games", get(http::games))
        .route("/play/api/games/{id}", get(http::game).post(http::act))
        .route("/play/api/games/{id}/record", get(http::record))
        .route("/play/api/players/{name}", get(http::player))
        .route("/play/socket", get(socket::upgrade))
        .layer(DefaultBodyLimit::max(MAX_MESSAGE))
        .with_state(hub)
}
