//! Playing people: games between players on a server, kept as their events; Fischer and
//! correspondence clocks; matches of two games with the colours swapped, decided on the
//! combined score; Glicko-2 ratings; accounts, guests and bots. This layer names no game and no
//! transport: the games come in as [`Variant`]s, storage sits behind [`Store`] (SQLite or
//! PostgreSQL in [`SqlStore`]), and the web front end (`src/web/play/`) carries requests to
//! [`Play`] and its answers back. `docs/play.md` describes the server.

mod clock;
mod game;
mod pairing;
mod rating;
mod variant;

#[cfg(test)]
mod toy;

#[cfg(feature = "server")]
mod accounts;
#[cfg(feature = "server")]
mod message;
#[cfg(feature = "server")]
mod server;
#[cfg(feature = "server")]
mod store;

pub use clock::{DAY_MS, LIVE_PRESETS, MAX_DAYS, TimeControl, TimeControlError};
pub use game::{
    ABSENCE_CLAIM_MS, Action, Corrupt, EndReason, Ending, Event, EventKind, GameSpec, GameState,
    PlayedMove, Refusal,
};
pub use pairing::{MATCH_GAMES, MatchResult, match_result, seats_in_round};
pub use rating::{Rating, rate};
pub use variant::{Board, Offered, TwoPlayer, Variant};

#[cfg(feature = "server")]
pub use accounts::{AccountError, check_name, check_password};
#[cfg(feature = "server")]
pub use message::ClientMessage;
#[cfg(feature = "server")]
pub use server::{
    ChallengeRequest, GameView, LOGIN_ATTEMPTS, LOGIN_WINDOW_MS, MatchView, Play, PlayError,
    PlayerView, SESSION_MS, SignedIn, now_ms,
};
#[cfg(feature = "server")]
pub use store::{
    Aftermath, Challenge, ChallengeStatus, GameFilter, GameSummary, Rated, RatingPoint, Session,
    SqlStore, Store, StoreError, StoredGame, StoredMatch, User, UserKind,
};
