//! The play server's logic, with no transport: [`Play`] signs players in, keeps challenges,
//! starts games and matches, checks every action against the game's rules and the server's
//! clock, and stores what it decided before it answers. A front end (`src/web/play/`) only
//! carries requests to it and its answers back.
//!
//! Each action reads the game from the store, replays it, decides, and writes the new events
//! and what they end in one transaction numbered after the last event: a second server (or a
//! second request) acting on the same game at the same moment fails to write and is told the
//! game moved on. An action is answered only after its transaction committed, so a move a
//! player saw confirmed survives the server being killed.

use super::accounts::{
    check_name, check_password, hash_password, new_id, secret, token_hash, verify_password,
};
use super::clock::TimeControl;
use super::game::{
    Action, Corrupt, EndReason, Ending, Event, EventKind, GameSpec, GameState, PlayedMove, Refusal,
};
use super::pairing::{MatchResult, match_result, seats_in_round};
use super::rating::Rating;
use super::store::{
    Aftermath, Challenge, ChallengeStatus, GameFilter, GameSummary, Rated, RatingPoint, Session,
    Store, StoreError, StoredGame, StoredMatch, User, UserKind,
};
use super::variant::Offered;
use serde::{Deserialize, Serialize};

/// How long a session lasts: 30 days (a guest's too: the cookie is the guest).
pub const SESSION_MS: u64 = 30 * 24 * 60 * 60 * 1000;
/// Failed sign-ins allowed for one name in [`LOGIN_WINDOW_MS`] before the next is refused.
pub const LOGIN_ATTEMPTS: u64 = 5;
/// The window failed sign-ins are counted in: 15 minutes.
pub const LOGIN_WINDOW_MS: u64 = 15 * 60 * 1000;

/// Why a request changes nothing.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// The game's rules refuse the action.
    #[error("{0}")]
    Refused(#[from] Refusal),
    /// The request cannot be done as asked, and why.
    #[error("{0}")]
    BadRequest(String),
    /// The player may not do this.
    #[error("{0}")]
    Forbidden(String),
    /// No such game, challenge or player.
    #[error("no such {0}")]
    NotFound(&'static str),
    /// The name or the password is wrong.
    #[error("the name or the password is wrong")]
    WrongLogin,
    /// Too many failed sign-ins for this name lately.
    #[error("too many failed sign-ins for this name: try again in {minutes} minutes")]
    Throttled {
        /// How long to wait.
        minutes: u64,
    },
    /// Someone else was first: reload and try again.
    #[error("someone else was first: reload and try again")]
    Conflict,
    /// The store failed.
    #[error("{0}")]
    Store(StoreError),
    /// A stored game cannot be replayed.
    #[error("{0}")]
    Corrupt(#[from] Corrupt),
}

impl From<StoreError> for PlayError {
    fn from(error: StoreError) -> PlayError {
        match error {
            StoreError::Conflict => PlayError::Conflict,
            StoreError::NameTaken(name) => {
                PlayError::BadRequest(format!("the name `{name}` is taken"))
            }
            other => PlayError::Store(other),
        }
    }
}

impl PlayError {
    /// The HTTP status a front end answers with.
    pub fn status(&self) -> u16 {
        match self {
            PlayError::Refused(Refusal::NotPlaying) | PlayError::Forbidden(_) => 403,
            PlayError::Refused(Refusal::Stale { .. }) | PlayError::Conflict => 409,
            PlayError::Refused(_) | PlayError::BadRequest(_) => 422,
            PlayError::NotFound(_) => 404,
            PlayError::WrongLogin => 401,
            PlayError::Throttled { .. } => 429,
            PlayError::Store(_) | PlayError::Corrupt(_) => 500,
        }
    }
}

/// A new session: the token for the cookie (or a bot's header) and the CSRF token.
#[derive(Clone, Debug, Serialize)]
pub struct SignedIn {
    /// The player.
    pub user: User,
    #[serde(skip)]
    /// The session's secret token (never shown in JSON).
    pub token: String,
    /// The token every change must carry in `X-CSRF-Token`.
    pub csrf: String,
}

/// A challenge as asked for.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChallengeRequest {
    /// The game (`cathedral`, `corintho`).
    pub game: String,
    /// Its rules; the game's default when absent.
    #[serde(default)]
    pub rules: Option<String>,
    /// The clock: `5+3` (minutes + seconds) or `3d` (days per move).
    pub time: String,
    /// Rated: accounts and bots only.
    #[serde(default)]
    pub rated: bool,
    /// A match of two games, colours swapped (the default), or one game.
    #[serde(default = "yes")]
    pub two_games: bool,
    /// The player challenged, by name; none: anyone with the link, or the open list.
    #[serde(default)]
    pub to: Option<String>,
    /// Listed in the open seeks (else only the link finds it).
    #[serde(default)]
    pub open: bool,
    /// The challenger moves first (in the first game): true, false, or random when absent.
    #[serde(default)]
    pub first: Option<bool>,
}

fn yes() -> bool {
    true
}

/// A player as a game shows them.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerView {
    /// Its id.
    pub id: String,
    /// The name shown.
    pub name: String,
    /// A guest, an account or a bot.
    pub kind: UserKind,
    /// Their rating in this game when the game started to be shown (not stored per game).
    pub rating: Option<f64>,
    /// Whether the rating is still provisional.
    pub provisional: bool,
}

/// A match as a game shows it.
#[derive(Clone, Debug, Serialize)]
pub struct MatchView {
    /// Its id.
    pub id: String,
    /// This game's round: 0 the first, 1 the second.
    pub round: usize,
    /// The games by round, as they start.
    pub games: Vec<String>,
    /// The players' names, the first moving first in the first game.
    pub players: [String; 2],
    /// The result, once decided.
    pub result: Option<MatchResult>,
    /// Whether it was aborted.
    pub aborted: bool,
}

/// A game as its players and watchers see it: what the page draws, and everything a bot needs.
#[derive(Clone, Debug, Serialize)]
pub struct GameView {
    /// Its id.
    pub id: String,
    /// What it is played under.
    pub spec: GameSpec,
    /// The time control in words (`5+3`, `3d`).
    pub time_text: String,
    /// The players by seat.
    pub seats: Vec<PlayerView>,
    /// The moves played.
    pub moves: Vec<PlayedMove>,
    /// The events so far: a front end drops an answer older than the view it shows.
    pub events: u64,
    /// The seat to move, `None` once over.
    pub to_move: Option<usize>,
    /// Each seat's time left at `now_ms`.
    pub clocks_ms: Vec<u64>,
    /// When the mover's time runs out.
    pub flag_at_ms: Option<u64>,
    /// The seat whose draw offer stands.
    pub offer: Option<usize>,
    /// How it ended, once over.
    pub ending: Option<Ending>,
    /// The result in words.
    pub result_text: Option<String>,
    /// The match it belongs to.
    pub in_match: Option<MatchView>,
    /// The viewer's seat, if they play.
    pub you: Option<usize>,
    /// Whether the viewer may still abort.
    pub may_abort: bool,
    /// Whether the game can be drawn by agreement.
    pub can_draw: bool,
    /// The server's time of this view.
    pub now_ms: u64,
}

/// The play server over a store, offering `games`.
pub struct Play<S: Store> {
    store: S,
    games: Offered,
    now: fn() -> u64,
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

impl<S: Store> Play<S> {
    /// The server over `store`, offering `games`, on the system's clock.
    pub fn new(store: S, games: Offered) -> Play<S> {
        Play {
            store,
            games,
            now: now_ms,
        }
    }

    /// The same on another clock (tests).
    pub fn with_clock(mut self, now: fn() -> u64) -> Play<S> {
        self.now = now;
        self
    }

    /// The store.
    pub fn store(&self) -> &S {
        &self.store
    }

    /// The games offered.
    pub fn offered(&self) -> &Offered {
        &self.games
    }

    /// The server's time now.
    pub fn now(&self) -> u64 {
        (self.now)()
    }

    async fn sign_in(&self, user: User) -> Result<SignedIn, PlayError> {
        let token = secret();
        let csrf = secret();
        let expires = self.now() + SESSION_MS;
        self.store
            .create_session(&token_hash(&token), &user.id, &csrf, expires)
            .await?;
        Ok(SignedIn { user, token, csrf })
    }

    /// A new guest, signed in: `guest-` and six characters.
    pub async fn guest(&self) -> Result<SignedIn, PlayError> {
        for _ in 0..5 {
            let id = new_id();
            let user = User {
                name: format!("guest-{}", &id[..6]),
                id,
                kind: UserKind::Guest,
                created_ms: self.now(),
            };
            match self.store.create_user(&user, None).await {
                Ok(()) => return self.sign_in(user).await,
                Err(StoreError::NameTaken(_)) => continue,
                Err(other) => return Err(other.into()),
            }
        }
        Err(PlayError::Conflict)
    }

    /// A new account, signed in; a guest who registers keeps their games (the same player).
    pub async fn register(
        &self,
        name: &str,
        password: &str,
        guest: Option<&User>,
    ) -> Result<SignedIn, PlayError> {
        check_name(name).map_err(|e| PlayError::BadRequest(e.to_string()))?;
        check_password(password).map_err(|e| PlayError::BadRequest(e.to_string()))?;
        let hash = hash_password(password);
        match guest.filter(|g| g.kind == UserKind::Guest) {
            Some(guest) => {
                self.store.promote_guest(&guest.id, name, &hash).await?;
                let user = User {
                    name: name.to_string(),
                    kind: UserKind::Account,
                    ..guest.clone()
                };
                self.sign_in(user).await
            }
            None => {
                let user = User {
                    id: new_id(),
                    name: name.to_string(),
                    kind: UserKind::Account,
                    created_ms: self.now(),
                };
                self.store.create_user(&user, Some(&hash)).await?;
                self.sign_in(user).await
            }
        }
    }

    /// Signs in with a name and password; after [`LOGIN_ATTEMPTS`] failures for a name in
    /// [`LOGIN_WINDOW_MS`], every attempt is refused until the window has passed (the right
    /// password too, so that guessing gains nothing).
    pub async fn login(&self, name: &str, password: &str) -> Result<SignedIn, PlayError> {
        let now = self.now();
        let since = now.saturating_sub(LOGIN_WINDOW_MS);
        let throttled = PlayError::Throttled {
            minutes: LOGIN_WINDOW_MS / 60_000,
        };
        if self.store.login_failures(name, since).await? >= LOGIN_ATTEMPTS {
            return Err(throttled);
        }
        let found = self.store.user_by_name(name).await?;
        let good = match &found {
            Some((user, Some(hash))) if user.kind != UserKind::Guest => {
                verify_password(password, hash)
            }
            // The same work for a name that does not exist, so that timing tells nothing.
            _ => {
                let _ = verify_password(password, &hash_password("no such player"));
                false
            }
        };
        match found {
            Some((user, _)) if good => self.sign_in(user).await,
            _ => {
                self.store.login_failure(name, now, since).await?;
                Err(PlayError::WrongLogin)
            }
        }
    }

    /// A new bot account `name` with `password`: bots sign in like people, then send their
    /// session token as `Authorization: Bearer` (docs/play.md, "Bots").
    pub async fn register_bot(&self, name: &str, password: &str) -> Result<SignedIn, PlayError> {
        check_name(name).map_err(|e| PlayError::BadRequest(e.to_string()))?;
        check_password(password).map_err(|e| PlayError::BadRequest(e.to_string()))?;
        let user = User {
            id: new_id(),
            name: name.to_string(),
            kind: UserKind::Bot,
            created_ms: self.now(),
        };
        self.store
            .create_user(&user, Some(&hash_password(password)))
            .await?;
        self.sign_in(user).await
    }

    /// The session a token opens, if it is current.
    pub async fn session(&self, token: &str) -> Result<Option<Session>, PlayError> {
        if token.len() != 64 || !token.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Ok(None);
        }
        Ok(self.store.session(&token_hash(token), self.now()).await?)
    }

    /// Ends a session.
    pub async fn logout(&self, token: &str) -> Result<(), PlayError> {
        Ok(self.store.delete_session(&token_hash(token)).await?)
    }

    /// A challenge from `from`.
    pub async fn challenge(
        &self,
        from: &User,
        request: ChallengeRequest,
    ) -> Result<Challenge, PlayError> {
        let bad = PlayError::BadRequest;
        let variant = self.games.get(&request.game).map_err(bad)?;
        let rules = request
            .rules
            .clone()
            .unwrap_or_else(|| variant.default_rules().to_string());
        variant
            .start(&rules)
            .map_err(|e| bad(format!("these rules cannot be played: {e}")))?;
        let time: TimeControl = request
            .time
            .parse()
            .map_err(|e: super::clock::TimeControlError| bad(e.to_string()))?;
        if request.rated && from.kind == UserKind::Guest {
            return Err(bad(
                "a guest plays unrated games: make an account to play rated".into(),
            ));
        }
        let to = match &request.to {
            None => None,
            Some(name) => {
                let (user, _) = self
                    .store
                    .user_by_name(name)
                    .await?
                    .ok_or_else(|| bad(format!("nobody is called `{name}` here")))?;
                if user.id == from.id {
                    return Err(bad("you cannot challenge yourself".into()));
                }
                if request.rated && user.kind == UserKind::Guest {
                    return Err(bad(format!(
                        "{} is a guest and plays unrated games only",
                        user.name
                    )));
                }
                Some(user.id)
            }
        };
        let challenge = Challenge {
            id: new_id(),
            from: from.id.clone(),
            open: request.open && to.is_none(),
            to,
            spec: GameSpec {
                variant: variant.name().to_string(),
                rules,
                time,
                rated: request.rated,
            },
            two_games: request.two_games,
            first: request.first,
            status: ChallengeStatus::Open,
            created_ms: self.now(),
            game: None,
        };
        self.store.create_challenge(&challenge).await?;
        Ok(challenge)
    }

    async fn open_challenge(&self, id: &str) -> Result<Challenge, PlayError> {
        let challenge = self
            .store
            .challenge(id)
            .await?
            .ok_or(PlayError::NotFound("challenge"))?;
        if challenge.status != ChallengeStatus::Open {
            return Err(PlayError::BadRequest(format!(
                "this challenge is {} already",
                match challenge.status {
                    ChallengeStatus::Accepted => "accepted",
                    ChallengeStatus::Declined => "declined",
                    _ => "cancelled",
                }
            )));
        }
        Ok(challenge)
    }

    /// `by` accepts challenge `id`: its (first) game starts, and its id is returned.
    pub async fn accept(&self, by: &User, id: &str) -> Result<String, PlayError> {
        let challenge = self.open_challenge(id).await?;
        if challenge.from == by.id {
            return Err(PlayError::BadRequest(
                "you cannot accept your own challenge".into(),
            ));
        }
        if challenge.to.as_ref().is_some_and(|to| *to != by.id) {
            return Err(PlayError::Forbidden(
                "this challenge is for another player".into(),
            ));
        }
        if challenge.spec.rated && by.kind == UserKind::Guest {
            return Err(PlayError::BadRequest(
                "this game is rated: make an account to accept it".into(),
            ));
        }
        let challenger_first = match challenge.first {
            Some(first) => first,
            None => secret().as_bytes()[0].is_multiple_of(2),
        };
        let players = if challenger_first {
            [challenge.from.clone(), by.id.clone()]
        } else {
            [by.id.clone(), challenge.from.clone()]
        };
        let now = self.now();
        let in_match = challenge.two_games.then(|| StoredMatch {
            id: new_id(),
            spec: challenge.spec.clone(),
            players: players.clone(),
            games: Vec::new(),
            result: None,
            aborted: false,
        });
        let game = StoredGame {
            id: new_id(),
            spec: challenge.spec.clone(),
            seats: players.to_vec(),
            start_ms: now,
            in_match: in_match.as_ref().map(|m| (m.id.clone(), 0)),
            events: Vec::new(),
            ending: None,
        };
        self.store
            .accept_challenge(id, &game, in_match.as_ref())
            .await?;
        Ok(game.id)
    }

    /// `by` declines a challenge addressed to them, or cancels their own.
    pub async fn close(&self, by: &User, id: &str) -> Result<ChallengeStatus, PlayError> {
        let challenge = self.open_challenge(id).await?;
        let status = if challenge.from == by.id {
            ChallengeStatus::Cancelled
        } else if challenge.to.as_ref() == Some(&by.id) {
            ChallengeStatus::Declined
        } else {
            return Err(PlayError::Forbidden(
                "only its two players can close a challenge".into(),
            ));
        };
        self.store.close_challenge(id, status).await?;
        Ok(status)
    }

    /// The open challenges `viewer` may see: the listed seeks, and theirs.
    pub async fn challenges(
        &self,
        viewer: Option<&User>,
    ) -> Result<Vec<(Challenge, String)>, PlayError> {
        let mut shown = Vec::new();
        for challenge in self
            .store
            .open_challenges(viewer.map(|u| u.id.as_str()))
            .await?
        {
            let name = self
                .store
                .user(&challenge.from)
                .await?
                .map_or_else(|| "?".into(), |u| u.name);
            shown.push((challenge, name));
        }
        Ok(shown)
    }

    async fn load(&self, id: &str) -> Result<(StoredGame, GameState), PlayError> {
        let stored = self
            .store
            .game(id)
            .await?
            .ok_or(PlayError::NotFound("game"))?;
        let variant = self
            .games
            .get(&stored.spec.variant)
            .map_err(|reason| Corrupt { seq: 0, reason })?;
        let state = GameState::replay(
            variant,
            stored.spec.clone(),
            stored.start_ms,
            &stored.events,
        )?;
        Ok((stored, state))
    }

    /// What a game's new events end in: the game, its match and the ratings.
    async fn aftermath(
        &self,
        stored: &StoredGame,
        state: &GameState,
        now: u64,
    ) -> Result<Aftermath, PlayError> {
        let Some(ending) = state.ending().cloned() else {
            return Ok(Aftermath::Nothing);
        };
        let aborted = matches!(ending.reason, EndReason::Aborted(_));
        let rated = |players: [String; 2], winner| Rated {
            variant: stored.spec.variant.clone(),
            players,
            winner,
        };
        let Some((match_id, round)) = &stored.in_match else {
            if stored.spec.rated && !aborted && stored.seats.len() == 2 {
                let players = [stored.seats[0].clone(), stored.seats[1].clone()];
                return Ok(Aftermath::RatedGame(
                    ending.clone(),
                    rated(players, ending.winner),
                ));
            }
            return Ok(Aftermath::Ended(ending));
        };
        let pair = self
            .store
            .match_of(match_id)
            .await?
            .ok_or(PlayError::NotFound("match"))?;
        if aborted {
            return Ok(Aftermath::MatchOver {
                ending,
                match_id: match_id.clone(),
                result: None,
                rated: None,
            });
        }
        if *round == 0 {
            let next = StoredGame {
                id: new_id(),
                spec: stored.spec.clone(),
                seats: seats_in_round(&pair.players, 1).to_vec(),
                start_ms: now,
                in_match: Some((match_id.clone(), 1)),
                events: Vec::new(),
                ending: None,
            };
            return Ok(Aftermath::NextGame(ending, next));
        }
        let first_id = pair.games.first().ok_or(PlayError::NotFound("game"))?;
        let first = self
            .store
            .game(first_id)
            .await?
            .ok_or(PlayError::NotFound("game"))?;
        let first_scores = first.ending.and_then(|e| e.scores).unwrap_or_default();
        let result = match_result(&[first_scores, ending.scores.clone().unwrap_or_default()]);
        let rated = stored
            .spec
            .rated
            .then(|| rated(pair.players.clone(), result.winner));
        Ok(Aftermath::MatchOver {
            ending,
            match_id: match_id.clone(),
            result: Some(result),
            rated,
        })
    }

    /// Writes `events` and what they end in.
    async fn commit(
        &self,
        stored: &StoredGame,
        state: &GameState,
        events: &[Event],
        now: u64,
    ) -> Result<GameState, PlayError> {
        let variant = self
            .games
            .get(&stored.spec.variant)
            .map_err(|reason| Corrupt { seq: 0, reason })?;
        let mut all = stored.events.clone();
        all.extend_from_slice(events);
        let after = GameState::replay(variant, state.spec().clone(), stored.start_ms, &all)?;
        let aftermath = self.aftermath(stored, &after, now).await?;
        self.store.append(&stored.id, events, &aftermath).await?;
        Ok(after)
    }

    /// Ends the game on time if its mover's time is up now: whoever looks first writes it.
    async fn flag_if_due(
        &self,
        stored: &StoredGame,
        state: GameState,
        now: u64,
    ) -> Result<GameState, PlayError> {
        match state.timeout(now) {
            None => Ok(state),
            Some(timeout) => match self.commit(stored, &state, &[timeout], now).await {
                Ok(after) => Ok(after),
                // Another request or server wrote it (or a move) first: read what is there.
                Err(PlayError::Conflict) => Box::pin(self.load(&stored.id)).await.map(|(_, s)| s),
                Err(other) => Err(other),
            },
        }
    }

    /// The game `id` as `viewer` sees it (ending it on time first if it is due).
    pub async fn view(&self, id: &str, viewer: Option<&User>) -> Result<GameView, PlayError> {
        let (stored, state) = self.load(id).await?;
        let now = self.now();
        let state = self.flag_if_due(&stored, state, now).await?;
        self.shown(&stored, &state, viewer, now).await
    }

    /// `by` asks for `action` in game `id`; the game after it, or why nothing changed.
    pub async fn act(&self, by: &User, id: &str, action: &Action) -> Result<GameView, PlayError> {
        let (stored, state) = self.load(id).await?;
        let seat = stored
            .seats
            .iter()
            .position(|s| *s == by.id)
            .ok_or(PlayError::Refused(Refusal::NotPlaying))?;
        let now = self.now();
        let state = self.flag_if_due(&stored, state, now).await?;
        if state.ending().is_some() {
            return Err(PlayError::Refused(Refusal::Over));
        }
        let events = state.decide(seat, action, now)?;
        let after = self.commit(&stored, &state, &events, now).await?;
        let mut stored = stored;
        stored.events.extend(events);
        self.shown(&stored, &after, Some(by), now).await
    }

    /// Marks every live game in play as resumed now: the server was down, and the time its
    /// movers were away is not charged (docs/play.md, "Clocks"). Only for a store that one
    /// server uses (SQLite): several servers sharing PostgreSQL never stop all at once.
    pub async fn resume_all(&self) -> Result<usize, PlayError> {
        let now = self.now();
        let mut resumed = 0;
        for id in self.store.games_in_play().await? {
            let Ok((_, state)) = self.load(&id).await else {
                continue;
            };
            if !state.spec().time.is_live() || state.ending().is_some() {
                continue;
            }
            let event = Event {
                seq: state.events(),
                seat: None,
                kind: EventKind::Resume,
                at_ms: now,
            };
            if self
                .store
                .append(&id, &[event], &Aftermath::Nothing)
                .await
                .is_ok()
            {
                resumed += 1;
            }
        }
        Ok(resumed)
    }

    /// Ends on time every game in play whose mover's time is up; returns when the next one is
    /// due, for the front end's timer.
    pub async fn sweep(&self) -> Result<Option<u64>, PlayError> {
        let now = self.now();
        let mut next: Option<u64> = None;
        for id in self.store.games_in_play().await? {
            let Ok((stored, state)) = self.load(&id).await else {
                continue;
            };
            let state = self.flag_if_due(&stored, state, now).await?;
            if let Some(flag) = state.flag_at_ms() {
                next = Some(next.map_or(flag, |n| n.min(flag)));
            }
        }
        Ok(next)
    }

    async fn player_view(&self, id: &str, variant: &str) -> Result<PlayerView, PlayError> {
        let user = self.store.user(id).await?;
        let rating: Rating = self.store.rating(id, variant).await?;
        Ok(match user {
            Some(user) => PlayerView {
                id: user.id,
                name: user.name,
                kind: user.kind,
                rating: (user.kind != UserKind::Guest).then_some(rating.rating.round()),
                provisional: rating.provisional(),
            },
            None => PlayerView {
                id: id.to_string(),
                name: "?".into(),
                kind: UserKind::Guest,
                rating: None,
                provisional: true,
            },
        })
    }

    async fn shown(
        &self,
        stored: &StoredGame,
        state: &GameState,
        viewer: Option<&User>,
        now: u64,
    ) -> Result<GameView, PlayError> {
        let mut seats = Vec::new();
        for id in &stored.seats {
            seats.push(self.player_view(id, &stored.spec.variant).await?);
        }
        let in_match = match &stored.in_match {
            None => None,
            Some((id, round)) => {
                let pair = self
                    .store
                    .match_of(id)
                    .await?
                    .ok_or(PlayError::NotFound("match"))?;
                let mut names = [String::new(), String::new()];
                for (name, player) in names.iter_mut().zip(&pair.players) {
                    *name = self
                        .store
                        .user(player)
                        .await?
                        .map_or_else(|| "?".into(), |u| u.name);
                }
                Some(MatchView {
                    id: pair.id,
                    round: *round,
                    games: pair.games,
                    players: names,
                    result: pair.result,
                    aborted: pair.aborted,
                })
            }
        };
        let you = viewer.and_then(|v| stored.seats.iter().position(|s| *s == v.id));
        let can_draw = self
            .games
            .get(&stored.spec.variant)
            .is_ok_and(|v| v.can_draw());
        Ok(GameView {
            id: stored.id.clone(),
            time_text: state.spec().time.to_string(),
            spec: state.spec().clone(),
            result_text: state
                .ending()
                .map(|e| result_text(e, &seats, state.score_words())),
            seats,
            moves: state.moves().to_vec(),
            events: state.events(),
            to_move: state.to_move(),
            clocks_ms: state.clocks_at(now),
            flag_at_ms: state.flag_at_ms(),
            offer: state.offer(),
            ending: state.ending().cloned(),
            in_match,
            you,
            may_abort: you.is_some_and(|seat| state.may_abort(seat)),
            can_draw,
            now_ms: now,
        })
    }

    /// The challenge `id` with its challenger's name.
    pub async fn store_challenge(
        &self,
        id: &str,
    ) -> Result<Option<(Challenge, String)>, PlayError> {
        let Some(challenge) = self.store.challenge(id).await? else {
            return Ok(None);
        };
        let name = self
            .store
            .user(&challenge.from)
            .await?
            .map_or_else(|| "?".into(), |u| u.name);
        Ok(Some((challenge, name)))
    }

    /// Game `id` as the game's record file: the players by seat, the round of its match, the
    /// clock and the result in the comment.
    pub async fn record(&self, id: &str) -> Result<String, PlayError> {
        let (stored, state) = self.load(id).await?;
        let view = self.shown(&stored, &state, None, self.now()).await?;
        let names: Vec<String> = view.seats.iter().map(|p| p.name.clone()).collect();
        let round = match &stored.in_match {
            Some((_, round)) => format!("{} of 2", round + 1),
            None => "single game".to_string(),
        };
        let mut comment = format!(
            "played on a cathedral play server, game {id}, clock {}{}",
            view.time_text,
            if stored.spec.rated { ", rated" } else { "" }
        );
        if let Some(result) = &view.result_text {
            comment += &format!("; {result}");
        }
        Ok(state.record(&names, round, comment))
    }

    /// The ids of the games in play.
    pub async fn store_games_in_play(&self) -> Result<Vec<String>, PlayError> {
        Ok(self.store.games_in_play().await?)
    }

    /// The games a filter wants.
    pub async fn games(&self, filter: &GameFilter) -> Result<Vec<GameSummary>, PlayError> {
        Ok(self.store.games(filter).await?)
    }

    /// A player by name, their rating and its history in `variant`.
    pub async fn player(
        &self,
        name: &str,
        variant: &str,
    ) -> Result<(User, Rating, Vec<RatingPoint>), PlayError> {
        let (user, _) = self
            .store
            .user_by_name(name)
            .await?
            .ok_or(PlayError::NotFound("player"))?;
        let rating = self.store.rating(&user.id, variant).await?;
        let history = self.store.rating_history(&user.id, variant).await?;
        Ok((user, rating, history))
    }
}

/// A game's result in words: "Ada wins by 4 squares unplaced", "Ada resigned", "drawn".
fn result_text(ending: &Ending, seats: &[PlayerView], (noun, unit): (&str, &str)) -> String {
    let name = |seat: usize| seats.get(seat).map_or("?", |p| p.name.as_str());
    match ending.reason {
        EndReason::Aborted(seat) => format!("aborted by {}", name(seat)),
        EndReason::Agreed => "drawn by agreement".into(),
        EndReason::Resigned(seat) => format!("{} resigned", name(seat)),
        EndReason::Time(seat) => format!("{} ran out of time", name(seat)),
        EndReason::Left(seat) => format!("{} left the game", name(seat)),
        EndReason::Finished => {
            let scores = ending.scores.clone().unwrap_or_default();
            let listed: Vec<String> = scores
                .iter()
                .enumerate()
                .map(|(seat, score)| format!("{} {score}", name(seat)))
                .collect();
            match ending.winner {
                Some(seat) => format!(
                    "{} wins ({noun}: {}; {unit})",
                    name(seat),
                    listed.join(", ")
                ),
                None => format!("drawn ({noun}: {}; {unit})", listed.join(", ")),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::Offered;
    use crate::play::toy::Nim;
    use std::sync::atomic::{AtomicU64, Ordering};

    async fn server() -> Play<crate::play::SqlStore> {
        let store = crate::play::SqlStore::open("sqlite::memory:")
            .await
            .unwrap();
        Play::new(store, Offered::new().with(Nim))
    }

    fn request(time: &str, rated: bool, two_games: bool) -> ChallengeRequest {
        ChallengeRequest {
            game: "nim".into(),
            rules: None,
            time: time.into(),
            rated,
            two_games,
            to: None,
            open: true,
            first: Some(true),
        }
    }

    async fn play_out(
        play: &Play<crate::play::SqlStore>,
        game: &str,
        players: [&User; 2],
        takes: &[&str],
    ) -> GameView {
        let mut view = play.view(game, None).await.unwrap();
        for take in takes {
            let seat = view.to_move.unwrap();
            let action = Action::Move {
                text: take.to_string(),
                ply: view.moves.len(),
            };
            view = play.act(players[seat], game, &action).await.unwrap();
        }
        view
    }

    #[tokio::test]
    async fn accounts_sign_in_and_failed_sign_ins_are_throttled() {
        let play = server().await;
        let guest = play.guest().await.unwrap();
        assert!(guest.user.name.starts_with("guest-"));
        let session = play.session(&guest.token).await.unwrap().unwrap();
        assert_eq!(session.user, guest.user);
        assert!(
            play.session(&"0".repeat(64)).await.unwrap().is_none(),
            "a forged token"
        );
        assert!(play.session("not hex").await.unwrap().is_none());

        // The guest registers and stays the same player.
        let ada = play
            .register("Ada", "difference engine", Some(&guest.user))
            .await
            .unwrap();
        assert_eq!(
            (ada.user.id.as_str(), ada.user.kind),
            (guest.user.id.as_str(), UserKind::Account)
        );
        assert!(matches!(
            play.register("ada", "another one", None).await,
            Err(PlayError::BadRequest(_))
        ));
        assert!(matches!(
            play.register("<b>", "password!", None).await,
            Err(PlayError::BadRequest(_))
        ));

        assert!(play.login("Ada", "difference engine").await.is_ok());
        for _ in 0..LOGIN_ATTEMPTS {
            assert!(matches!(
                play.login("ada", "wrong").await,
                Err(PlayError::WrongLogin)
            ));
        }
        // Throttled now, even with the right password.
        assert!(matches!(
            play.login("Ada", "difference engine").await,
            Err(PlayError::Throttled { .. })
        ));
        assert!(play.login("Nobody", "whatever1").await.is_err());

        play.logout(&ada.token).await.unwrap();
        assert!(play.session(&ada.token).await.unwrap().is_none());
    }

    #[tokio::test]
    async fn a_rated_match_of_two_games_swaps_colours_and_rates_the_total() {
        let play = server().await;
        let ada = play
            .register("Ada", "difference engine", None)
            .await
            .unwrap()
            .user;
        let bob = play
            .register("Bob", "analytical engine", None)
            .await
            .unwrap()
            .user;
        let guest = play.guest().await.unwrap().user;

        let challenge = play
            .challenge(&ada, request("5+0", true, true))
            .await
            .unwrap();
        assert!(matches!(
            play.accept(&ada, &challenge.id).await,
            Err(PlayError::BadRequest(_))
        ));
        assert!(
            matches!(
                play.accept(&guest, &challenge.id).await,
                Err(PlayError::BadRequest(_))
            ),
            "rated: no guests"
        );
        let first = play.accept(&bob, &challenge.id).await.unwrap();
        assert!(
            matches!(
                play.accept(&bob, &challenge.id).await,
                Err(PlayError::BadRequest(_))
            ),
            "accepted once"
        );

        // Game 1: Ada (seat 0) takes the last stone: Ada 0, Bob 1.
        let view = play.view(&first, Some(&bob)).await.unwrap();
        assert_eq!((view.you, view.seats[0].name.as_str()), (Some(1), "Ada"));
        assert!(matches!(
            play.act(&guest, &first, &Action::Resign).await,
            Err(PlayError::Refused(Refusal::NotPlaying))
        ));
        let over = play_out(&play, &first, [&ada, &bob], &["1", "2", "1", "2", "1"]).await;
        assert_eq!(over.ending.as_ref().unwrap().scores, Some(vec![0, 1]));
        let pair = over.in_match.unwrap();
        assert_eq!(
            pair.games.len(),
            2,
            "the second game started with the first's end"
        );

        // Game 2: Bob moves first; Bob resigns: Bob scores the forfeit (7) as seat 0.
        let second = &pair.games[1];
        let view = play.view(second, Some(&bob)).await.unwrap();
        assert_eq!((view.you, view.to_move), (Some(0), Some(0)));
        let done = play.act(&bob, second, &Action::Resign).await.unwrap();
        let result = done.in_match.unwrap().result.unwrap();
        assert_eq!((result.totals, result.winner), ([0, 8], Some(0)));

        let (_, ada_rating, history) = play.player("ada", "nim").await.unwrap();
        let (_, bob_rating, _) = play.player("Bob", "nim").await.unwrap();
        assert!(ada_rating.rating > 1500.0 && bob_rating.rating < 1500.0);
        assert_eq!(
            (ada_rating.results, history.len()),
            (1, 1),
            "one rated result: the match"
        );
        let listed = play
            .games(&GameFilter {
                player: Some(ada.id.clone()),
                opponent: Some("BOB".into()),
                limit: 10,
                ..GameFilter::default()
            })
            .await
            .unwrap();
        assert_eq!(listed.len(), 2);
    }

    #[tokio::test]
    async fn two_moves_at_once_for_one_turn_store_one() {
        let play = server().await;
        let ada = play.guest().await.unwrap().user;
        let bob = play.guest().await.unwrap().user;
        let challenge = play
            .challenge(&ada, request("5+0", false, false))
            .await
            .unwrap();
        let game = play.accept(&bob, &challenge.id).await.unwrap();
        let one = Action::Move {
            text: "1".into(),
            ply: 0,
        };
        let two = Action::Move {
            text: "2".into(),
            ply: 0,
        };
        let (a, b) = tokio::join!(play.act(&ada, &game, &one), play.act(&ada, &game, &two));
        assert!(a.is_ok() != b.is_ok(), "exactly one of {a:?} and {b:?}");
        let view = play.view(&game, None).await.unwrap();
        assert_eq!(view.moves.len(), 1);
        assert!(
            matches!(
                play.act(&ada, &game, &one).await,
                Err(PlayError::Refused(Refusal::Stale { .. }))
            ),
            "the same move again is a replay"
        );
    }

    static SESSION_CLOCK: AtomicU64 = AtomicU64::new(1_000_000);
    fn session_clock() -> u64 {
        SESSION_CLOCK.load(Ordering::SeqCst)
    }

    #[tokio::test]
    async fn a_session_ends_when_it_expires() {
        let play = server().await.with_clock(session_clock);
        let guest = play.guest().await.unwrap();
        SESSION_CLOCK.fetch_add(SESSION_MS - 1, Ordering::SeqCst);
        assert!(play.session(&guest.token).await.unwrap().is_some());
        SESSION_CLOCK.fetch_add(1, Ordering::SeqCst);
        assert!(
            play.session(&guest.token).await.unwrap().is_none(),
            "expired"
        );
    }

    static CLOCK: AtomicU64 = AtomicU64::new(1_000_000);
    fn test_clock() -> u64 {
        CLOCK.load(Ordering::SeqCst)
    }

    #[tokio::test]
    async fn time_runs_out_on_the_server_clock_and_a_restart_resumes() {
        let play = server().await.with_clock(test_clock);
        let ada = play.guest().await.unwrap().user;
        let bob = play.guest().await.unwrap().user;
        let challenge = play
            .challenge(&ada, request("1+0", false, false))
            .await
            .unwrap();
        let game = play.accept(&bob, &challenge.id).await.unwrap();
        play.act(
            &ada,
            &game,
            &Action::Move {
                text: "1".into(),
                ply: 0,
            },
        )
        .await
        .unwrap();
        CLOCK.fetch_add(30_000, Ordering::SeqCst);
        assert_eq!(play.resume_all().await.unwrap(), 1);
        // Bob's turn counts from the resume: 60 s from here.
        CLOCK.fetch_add(59_000, Ordering::SeqCst);
        assert_eq!(
            play.sweep().await.unwrap().map(|at| at - test_clock()),
            Some(1_000)
        );
        CLOCK.fetch_add(1_000, Ordering::SeqCst);
        assert_eq!(play.sweep().await.unwrap(), None);
        let view = play.view(&game, None).await.unwrap();
        assert_eq!(view.ending.unwrap().reason, EndReason::Time(1));
        assert!(matches!(
            play.act(
                &bob,
                &game,
                &Action::Move {
                    text: "1".into(),
                    ply: 1
                }
            )
            .await,
            Err(PlayError::Refused(Refusal::Over))
        ));
    }

    #[tokio::test]
    async fn challenges_are_checked_and_closed_by_their_players_only() {
        let play = server().await;
        let ada = play
            .register("Ada", "difference engine", None)
            .await
            .unwrap()
            .user;
        let bob = play.guest().await.unwrap().user;
        let eve = play.guest().await.unwrap().user;
        let bad = |mut r: ChallengeRequest, f: fn(&mut ChallengeRequest)| {
            f(&mut r);
            r
        };
        for wrong in [
            bad(request("5+0", false, true), |r| r.game = "chess".into()),
            bad(request("5+0", false, true), |r| {
                r.rules = Some("odd".into())
            }),
            bad(request("99d", false, true), |_| {}),
            bad(request("5+0", false, true), |r| {
                r.to = Some("Nobody".into())
            }),
            bad(request("5+0", false, true), |r| r.to = Some("ada".into())),
        ] {
            assert!(matches!(
                play.challenge(&ada, wrong).await,
                Err(PlayError::BadRequest(_))
            ));
        }
        assert!(
            matches!(
                play.challenge(&bob, request("5+0", true, true)).await,
                Err(PlayError::BadRequest(_))
            ),
            "guests play unrated"
        );
        let mut direct = request("5+0", false, true);
        direct.to = Some(bob.name.clone());
        let to_bob = play.challenge(&ada, direct).await.unwrap();
        assert!(!to_bob.open, "a challenge to a player is not listed");
        assert!(matches!(
            play.accept(&eve, &to_bob.id).await,
            Err(PlayError::Forbidden(_))
        ));
        assert!(matches!(
            play.close(&eve, &to_bob.id).await,
            Err(PlayError::Forbidden(_))
        ));
        assert_eq!(
            play.close(&bob, &to_bob.id).await.unwrap(),
            ChallengeStatus::Declined
        );
        let seek = play
            .challenge(&ada, request("3d", false, false))
            .await
            .unwrap();
        let seen = play.challenges(Some(&eve)).await.unwrap();
        assert_eq!(seen.len(), 1);
        assert_eq!(
            (seen[0].0.id.as_str(), seen[0].1.as_str()),
            (seek.id.as_str(), "Ada")
        );
        assert_eq!(
            play.close(&ada, &seek.id).await.unwrap(),
            ChallengeStatus::Cancelled
        );
        assert!(play.challenges(Some(&eve)).await.unwrap().is_empty());
    }
}
