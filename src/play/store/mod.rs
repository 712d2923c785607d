//! Where the play server keeps what it must not lose: players, sessions, challenges, games as
//! their events, matches and ratings. [`Store`] is what the server needs of storage;
//! [`SqlStore`] keeps it in SQLite (one file, the default) or PostgreSQL (a URL, shared by
//! several servers), through one set of queries.
//!
//! Every change that belongs together is one call and one transaction: a move and what it
//! ends (the game, the match, the ratings); a challenge accepted and the game it starts. Two
//! servers acting on one game at once cannot both succeed: an event is stored under its game
//! and its number, and the second write of a number fails as [`StoreError::Conflict`].

mod sql;

pub use sql::SqlStore;

use super::game::{Ending, Event, GameSpec};
use super::pairing::MatchResult;
use super::rating::Rating;
use serde::{Deserialize, Serialize};
use std::future::Future;

/// What can go wrong in storage.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Someone else changed it first (another move, another accept): nothing was written.
    #[error("someone else changed this first")]
    Conflict,
    /// The name is already someone's.
    #[error("the name `{0}` is taken")]
    NameTaken(String),
    /// The database failed, in its words.
    #[error("the database failed: {0}")]
    Database(String),
    /// A stored value could not be read back.
    #[error("a stored value is damaged: {0}")]
    Damaged(String),
}

/// What kind of player an account is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum UserKind {
    /// Given on a first visit, without a password: kept as long as its session cookie.
    Guest,
    /// A name and a password.
    Account,
    /// A program, acting through a token (`docs/play.md`, "Bots").
    Bot,
}

impl UserKind {
    fn word(self) -> &'static str {
        match self {
            UserKind::Guest => "guest",
            UserKind::Account => "account",
            UserKind::Bot => "bot",
        }
    }

    fn read(word: &str) -> Result<UserKind, StoreError> {
        match word {
            "guest" => Ok(UserKind::Guest),
            "account" => Ok(UserKind::Account),
            "bot" => Ok(UserKind::Bot),
            other => Err(StoreError::Damaged(format!("user kind `{other}`"))),
        }
    }
}

/// A player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct User {
    /// Its id.
    pub id: String,
    /// The name shown.
    pub name: String,
    /// A guest, an account or a bot.
    pub kind: UserKind,
    /// When it was made.
    pub created_ms: u64,
}

/// A signed-in session: its player, the token every change must carry against cross-site
/// requests, and when it ends.
#[derive(Clone, Debug)]
pub struct Session {
    /// The player.
    pub user: User,
    /// The token every change must carry in `X-CSRF-Token`.
    pub csrf: String,
    /// When it ends.
    pub expires_ms: u64,
}

/// A challenge: to a named player, to whoever opens its link, or to anyone in the open list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Challenge {
    /// Its id.
    pub id: String,
    /// The challenger's id.
    pub from: String,
    /// The player challenged, `None` for a link or a seek.
    pub to: Option<String>,
    /// Listed in the open seeks.
    pub open: bool,
    /// What it is played under.
    pub spec: GameSpec,
    /// A match of two games with the colours swapped, or one game.
    pub two_games: bool,
    /// Whether the challenger moves first (in the first game), `None` for a random choice.
    pub first: Option<bool>,
    /// Where it stands.
    pub status: ChallengeStatus,
    /// When it was made.
    pub created_ms: u64,
    /// The game it started, once accepted.
    pub game: Option<String>,
}

/// Where a challenge stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ChallengeStatus {
    /// Waiting for an answer.
    Open,
    /// Accepted: its game started.
    Accepted,
    /// Declined by the player challenged.
    Declined,
    /// Withdrawn by the challenger.
    Cancelled,
}

impl ChallengeStatus {
    fn word(self) -> &'static str {
        match self {
            ChallengeStatus::Open => "open",
            ChallengeStatus::Accepted => "accepted",
            ChallengeStatus::Declined => "declined",
            ChallengeStatus::Cancelled => "cancelled",
        }
    }

    fn read(word: &str) -> Result<ChallengeStatus, StoreError> {
        match word {
            "open" => Ok(ChallengeStatus::Open),
            "accepted" => Ok(ChallengeStatus::Accepted),
            "declined" => Ok(ChallengeStatus::Declined),
            "cancelled" => Ok(ChallengeStatus::Cancelled),
            other => Err(StoreError::Damaged(format!("challenge status `{other}`"))),
        }
    }
}

/// A game as stored: its settings, its players by seat and its events.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    /// Its id.
    pub id: String,
    /// What it is played under.
    pub spec: GameSpec,
    /// The players' ids by seat.
    pub seats: Vec<String>,
    /// When it started.
    pub start_ms: u64,
    /// The match it belongs to and its round (0, 1), if any.
    pub in_match: Option<(String, usize)>,
    /// Its events, in order.
    pub events: Vec<Event>,
    /// How it ended, once over (kept beside the events for lists and searches).
    pub ending: Option<Ending>,
}

/// A match between two players: two games, colours swapped.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StoredMatch {
    /// Its id.
    pub id: String,
    /// What it is played under.
    pub spec: GameSpec,
    /// The players' ids: the first moves first in the first game.
    pub players: [String; 2],
    /// The games by round, as they start.
    pub games: Vec<String>,
    /// The result, once decided.
    pub result: Option<MatchResult>,
    /// Whether it was aborted (a game of it aborted): no result.
    pub aborted: bool,
}

/// What else a game's new events bring about, in the same transaction.
#[derive(Clone, Debug, PartialEq)]
pub enum Aftermath {
    /// Nothing: the game goes on (or ends outside a rated pair of results).
    Nothing,
    /// The game ended.
    Ended(Ending),
    /// The game ended and the next game of its match starts.
    NextGame(Ending, StoredGame),
    /// The game ended, and with it its match (`result`, or aborted with `None`); a rated result
    /// updates both players' ratings in `variant`.
    MatchOver {
        /// How the game ended.
        ending: Ending,
        /// The match.
        match_id: String,
        /// Its result, `None` when aborted.
        result: Option<MatchResult>,
        /// The rated result, when the match was rated.
        rated: Option<Rated>,
    },
    /// A single game ended with a rated result.
    RatedGame(Ending, Rated),
}

/// A rated result between two players.
#[derive(Clone, Debug, PartialEq)]
pub struct Rated {
    /// The game rated.
    pub variant: String,
    /// The players' ids.
    pub players: [String; 2],
    /// 0 or 1, `None` for a draw.
    pub winner: Option<usize>,
}

/// One line of a player's rating history.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RatingPoint {
    /// When (milliseconds since the Unix epoch).
    pub at_ms: u64,
    /// The rating after it.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
}

/// A finished or running game in a list.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameSummary {
    /// Its id.
    pub id: String,
    /// What it is played under.
    pub spec: GameSpec,
    /// The players' names by seat.
    pub names: Vec<String>,
    /// The players' ids by seat.
    pub seats: Vec<String>,
    /// When it started.
    pub start_ms: u64,
    /// How it ended, once over.
    pub ending: Option<Ending>,
    /// The match and round, if any.
    pub in_match: Option<(String, usize)>,
}

/// Which games a list wants.
#[derive(Clone, Debug, Default)]
pub struct GameFilter {
    /// Games this player played.
    pub player: Option<String>,
    /// ... against this one (by name, any case).
    pub opponent: Option<String>,
    /// Only games over (`Some(true)`) or in play (`Some(false)`).
    pub over: Option<bool>,
    /// Games started at or after this time.
    pub since_ms: Option<u64>,
    /// Games started before this time.
    pub until_ms: Option<u64>,
    /// At most this many, the newest first.
    pub limit: usize,
}

/// What the play server needs of storage.
pub trait Store: Send + Sync + 'static {
    /// Adds a player; refuses a name someone has (in any case).
    fn create_user(
        &self,
        user: &User,
        password_hash: Option<&str>,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;
    /// The player called `name` (any case), with their password's hash.
    fn user_by_name(
        &self,
        name: &str,
    ) -> impl Future<Output = Result<Option<(User, Option<String>)>, StoreError>> + Send;
    /// The player `id`.
    fn user(&self, id: &str) -> impl Future<Output = Result<Option<User>, StoreError>> + Send;
    /// Turns a guest into an account: a new name and a password's hash.
    fn promote_guest(
        &self,
        id: &str,
        name: &str,
        password_hash: &str,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Keeps a session: the hash of its token, never the token.
    fn create_session(
        &self,
        token_hash: &str,
        user_id: &str,
        csrf: &str,
        expires_ms: u64,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;
    /// The session whose token hashes to `token_hash`, if it has not expired at `now_ms`.
    fn session(
        &self,
        token_hash: &str,
        now_ms: u64,
    ) -> impl Future<Output = Result<Option<Session>, StoreError>> + Send;
    /// Ends a session.
    fn delete_session(
        &self,
        token_hash: &str,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Notes a failed sign-in for `name` (any case) and says how many there were since
    /// `since_ms`, this one included.
    fn login_failure(
        &self,
        name: &str,
        at_ms: u64,
        since_ms: u64,
    ) -> impl Future<Output = Result<u64, StoreError>> + Send;
    /// The failed sign-ins for `name` since `since_ms`.
    fn login_failures(
        &self,
        name: &str,
        since_ms: u64,
    ) -> impl Future<Output = Result<u64, StoreError>> + Send;

    /// Adds a challenge.
    fn create_challenge(
        &self,
        challenge: &Challenge,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;
    /// The challenge `id`.
    fn challenge(
        &self,
        id: &str,
    ) -> impl Future<Output = Result<Option<Challenge>, StoreError>> + Send;
    /// The open challenges listed or addressed to `user`, the newest first.
    fn open_challenges(
        &self,
        user: Option<&str>,
    ) -> impl Future<Output = Result<Vec<Challenge>, StoreError>> + Send;
    /// Closes an open challenge as `status`; `Conflict` if it was no longer open.
    fn close_challenge(
        &self,
        id: &str,
        status: ChallengeStatus,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;
    /// Accepts an open challenge and starts its first game (and its match), in one
    /// transaction; `Conflict` if it was no longer open.
    fn accept_challenge(
        &self,
        id: &str,
        game: &StoredGame,
        in_match: Option<&StoredMatch>,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// The game `id` with its events.
    fn game(&self, id: &str)
    -> impl Future<Output = Result<Option<StoredGame>, StoreError>> + Send;
    /// Adds `events` (numbered from the game's next) and what they bring about, in one
    /// transaction; `Conflict` if an event of that number exists (someone was first).
    fn append(
        &self,
        game_id: &str,
        events: &[Event],
        aftermath: &Aftermath,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;
    /// The games a filter wants, the newest first.
    fn games(
        &self,
        filter: &GameFilter,
    ) -> impl Future<Output = Result<Vec<GameSummary>, StoreError>> + Send;
    /// The ids of the games in play.
    fn games_in_play(&self) -> impl Future<Output = Result<Vec<String>, StoreError>> + Send;
    /// The match `id`.
    fn match_of(
        &self,
        id: &str,
    ) -> impl Future<Output = Result<Option<StoredMatch>, StoreError>> + Send;

    /// A player's rating in a game (the start rating if none yet).
    fn rating(
        &self,
        user_id: &str,
        variant: &str,
    ) -> impl Future<Output = Result<Rating, StoreError>> + Send;
    /// A player's rating history in a game, the oldest first.
    fn rating_history(
        &self,
        user_id: &str,
        variant: &str,
    ) -> impl Future<Output = Result<Vec<RatingPoint>, StoreError>> + Send;

    /// Tells every server sharing this store that game `id` changed (delivered to
    /// [`Store::subscribe`]rs once its transaction has committed).
    fn subscribe(&self) -> tokio::sync::broadcast::Receiver<String>;
}
