//! [`Store`] in SQL: SQLite (a file, in WAL mode, or `sqlite::memory:`) or PostgreSQL (a
//! `postgres://` URL), through sqlx's `Any` pool and queries in the SQL both share, `$1`
//! parameters included. The schema is `migrations/`, applied as the store opens.

use super::{
    Aftermath, Challenge, ChallengeStatus, GameFilter, GameSummary, Rated, RatingPoint, Session,
    Store, StoreError, StoredGame, StoredMatch, User, UserKind,
};
use crate::play::game::{Ending, Event, EventKind, GameSpec};
use crate::play::rating::{Rating, rate};
use sqlx::AnyPool;
use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::migrate::{Migration, MigrationType, Migrator};
use sqlx::{Any, Executor, Row, Transaction};
use std::borrow::Cow;
use tokio::sync::broadcast;

/// The channel PostgreSQL's `NOTIFY` carries changed games' ids on.
const CHANNEL: &str = "cathedral_play";

/// The play server's storage in SQLite or PostgreSQL.
pub struct SqlStore {
    pool: AnyPool,
    postgres: bool,
    changes: broadcast::Sender<String>,
}

fn database(error: sqlx::Error) -> StoreError {
    match error.as_database_error() {
        Some(db) if db.is_unique_violation() => StoreError::Conflict,
        _ => StoreError::Database(error.to_string()),
    }
}

fn damaged(what: &str, error: impl std::fmt::Display) -> StoreError {
    StoreError::Damaged(format!("{what}: {error}"))
}

fn to_i64(value: u64) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}

fn to_u64(value: i64) -> u64 {
    u64::try_from(value).unwrap_or(0)
}

fn json<T: serde::Serialize>(value: &T) -> String {
    // Only the play layer's own types are written, and they always serialize.
    serde_json::to_string(value).unwrap_or_default()
}

fn from_json<T: serde::de::DeserializeOwned>(what: &str, text: &str) -> Result<T, StoreError> {
    serde_json::from_str(text).map_err(|e| damaged(what, e))
}

fn get<'r, T: sqlx::Decode<'r, Any> + sqlx::Type<Any>>(
    row: &'r AnyRow,
    column: &str,
) -> Result<T, StoreError> {
    row.try_get(column).map_err(|e| damaged(column, e))
}

fn key(name: &str) -> String {
    name.to_lowercase()
}

impl SqlStore {
    /// Opens the database at `url` (`sqlite://FILE`, created if missing; `sqlite::memory:`; or
    /// `postgres://...`) and brings its schema up to date.
    pub async fn open(url: &str) -> Result<SqlStore, StoreError> {
        sqlx::any::install_default_drivers();
        let postgres = url.starts_with("postgres:") || url.starts_with("postgresql:");
        let memory = url.contains(":memory:");
        let sqlite_url = |url: &str| {
            if memory || url.contains('?') {
                url.to_string()
            } else {
                format!("{url}?mode=rwc")
            }
        };
        let url = if postgres {
            url.to_string()
        } else {
            sqlite_url(url)
        };
        let options = AnyPoolOptions::new()
            // One connection for a memory database: each would be a database of its own.
            .max_connections(if memory { 1 } else { 8 })
            .after_connect(move |connection, _| {
                Box::pin(async move {
                    if !postgres {
                        // WAL: readers never wait for the writer; a commit is on disk when it
                        // returns (synchronous FULL), so an acknowledged move survives a kill.
                        connection
                            .execute(
                                "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; \
                                 PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 10000;",
                            )
                            .await?;
                    }
                    Ok(())
                })
            });
        let pool = options.connect(&url).await.map_err(database)?;
        let migrator = Migrator {
            migrations: Cow::Owned(vec![Migration::new(
                1,
                Cow::Borrowed("play"),
                MigrationType::Simple,
                Cow::Borrowed(include_str!("migrations/0001_play.sql")),
                false,
            )]),
            ignore_missing: false,
            locking: true,
            no_tx: false,
        };
        migrator
            .run(&pool)
            .await
            .map_err(|e| StoreError::Database(format!("the schema could not be applied: {e}")))?;
        let (changes, _) = broadcast::channel(1024);
        if postgres {
            let mut listener = sqlx::postgres::PgListener::connect(&url)
                .await
                .map_err(database)?;
            listener.listen(CHANNEL).await.map_err(database)?;
            let sender = changes.clone();
            tokio::spawn(async move {
                // The listener reconnects by itself; a notice missed while it does is made up
                // by the clients, which ask for the game again when their socket reopens.
                loop {
                    match listener.recv().await {
                        Ok(notice) => {
                            let _ = sender.send(notice.payload().to_string());
                        }
                        Err(_) => tokio::time::sleep(std::time::Duration::from_millis(200)).await,
                    }
                }
            });
        }
        Ok(SqlStore {
            pool,
            postgres,
            changes,
        })
    }

    /// Whether this is PostgreSQL (else SQLite).
    pub fn is_postgres(&self) -> bool {
        self.postgres
    }

    fn user_from(row: &AnyRow) -> Result<User, StoreError> {
        Ok(User {
            id: get(row, "id")?,
            name: get(row, "name")?,
            kind: UserKind::read(&get::<String>(row, "kind")?)?,
            created_ms: to_u64(get(row, "created_ms")?),
        })
    }

    fn rating_from(row: &AnyRow) -> Result<Rating, StoreError> {
        Ok(Rating {
            rating: get(row, "rating")?,
            deviation: get(row, "deviation")?,
            volatility: get(row, "volatility")?,
            results: to_u64(get(row, "results")?),
        })
    }

    fn challenge_from(row: &AnyRow) -> Result<Challenge, StoreError> {
        Ok(Challenge {
            id: get(row, "id")?,
            from: get(row, "from_user")?,
            to: get(row, "to_user")?,
            open: get::<i64>(row, "listed")? != 0,
            spec: from_json("challenge spec", &get::<String>(row, "spec")?)?,
            two_games: get::<i64>(row, "two_games")? != 0,
            first: from_json("challenge colour", &get::<String>(row, "first")?)?,
            status: ChallengeStatus::read(&get::<String>(row, "status")?)?,
            created_ms: to_u64(get(row, "created_ms")?),
            game: get(row, "game_id")?,
        })
    }

    async fn insert_game(
        transaction: &mut Transaction<'_, Any>,
        game: &StoredGame,
    ) -> Result<(), StoreError> {
        let (match_id, round) = match &game.in_match {
            Some((id, round)) => (Some(id.clone()), Some(*round as i64)),
            None => (None, None),
        };
        sqlx::query(
            "INSERT INTO games (id, spec, seats, start_ms, match_id, match_round, over, ending) \
             VALUES ($1, $2, $3, $4, $5, $6, 0, NULL)",
        )
        .bind(&game.id)
        .bind(json(&game.spec))
        .bind(json(&game.seats))
        .bind(to_i64(game.start_ms))
        .bind(match_id)
        .bind(round)
        .execute(&mut **transaction)
        .await
        .map_err(database)?;
        for (seat, user) in game.seats.iter().enumerate() {
            sqlx::query("INSERT INTO game_players (game_id, user_id, seat) VALUES ($1, $2, $3)")
                .bind(&game.id)
                .bind(user)
                .bind(seat as i64)
                .execute(&mut **transaction)
                .await
                .map_err(database)?;
        }
        Ok(())
    }

    async fn end_game(
        transaction: &mut Transaction<'_, Any>,
        game_id: &str,
        ending: &Ending,
    ) -> Result<(), StoreError> {
        sqlx::query("UPDATE games SET over = 1, ending = $1 WHERE id = $2")
            .bind(json(ending))
            .bind(game_id)
            .execute(&mut **transaction)
            .await
            .map_err(database)?;
        Ok(())
    }

    /// Both players' new ratings after a rated result, read and written in the transaction.
    async fn rate_in(
        &self,
        transaction: &mut Transaction<'_, Any>,
        rated: &Rated,
        at_ms: u64,
    ) -> Result<(), StoreError> {
        let start = Rating::default();
        let mut now = [start; 2];
        for (i, player) in rated.players.iter().enumerate() {
            sqlx::query(
                "INSERT INTO ratings (user_id, variant, rating, deviation, volatility, results) \
                 VALUES ($1, $2, $3, $4, $5, 0) ON CONFLICT (user_id, variant) DO NOTHING",
            )
            .bind(player)
            .bind(&rated.variant)
            .bind(start.rating)
            .bind(start.deviation)
            .bind(start.volatility)
            .execute(&mut **transaction)
            .await
            .map_err(database)?;
            // PostgreSQL: the row stays locked to this transaction until it commits, so that
            // two results at once for one player are rated one after the other. (SQLite has
            // one writer at a time.)
            let lock = if self.postgres { " FOR UPDATE" } else { "" };
            let row = sqlx::query(&format!(
                "SELECT rating, deviation, volatility, results FROM ratings \
                 WHERE user_id = $1 AND variant = $2{lock}"
            ))
            .bind(player)
            .bind(&rated.variant)
            .fetch_one(&mut **transaction)
            .await
            .map_err(database)?;
            now[i] = SqlStore::rating_from(&row)?;
        }
        let after = rate(now, rated.winner);
        for (player, rating) in rated.players.iter().zip(after) {
            sqlx::query(
                "UPDATE ratings SET rating = $1, deviation = $2, volatility = $3, results = $4 \
                 WHERE user_id = $5 AND variant = $6",
            )
            .bind(rating.rating)
            .bind(rating.deviation)
            .bind(rating.volatility)
            .bind(to_i64(rating.results))
            .bind(player)
            .bind(&rated.variant)
            .execute(&mut **transaction)
            .await
            .map_err(database)?;
            sqlx::query(
                "INSERT INTO rating_history (user_id, variant, at_ms, rating, deviation) \
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(player)
            .bind(&rated.variant)
            .bind(to_i64(at_ms))
            .bind(rating.rating)
            .bind(rating.deviation)
            .execute(&mut **transaction)
            .await
            .map_err(database)?;
        }
        Ok(())
    }

    async fn finish_match(
        transaction: &mut Transaction<'_, Any>,
        match_id: &str,
        result: Option<&crate::play::MatchResult>,
    ) -> Result<(), StoreError> {
        sqlx::query("UPDATE matches SET result = $1, aborted = $2 WHERE id = $3")
            .bind(result.map(json))
            .bind(i64::from(result.is_none()))
            .bind(match_id)
            .execute(&mut **transaction)
            .await
            .map_err(database)?;
        Ok(())
    }

    /// Tells the servers sharing the store that `game_id` changed: in the transaction on
    /// PostgreSQL (delivered at its commit), after it here on SQLite.
    async fn notify(
        &self,
        transaction: &mut Transaction<'_, Any>,
        game_id: &str,
    ) -> Result<(), StoreError> {
        if self.postgres {
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(CHANNEL)
                .bind(game_id)
                .execute(&mut **transaction)
                .await
                .map_err(database)?;
        }
        Ok(())
    }

    fn notified_locally(&self, game_id: &str) {
        if !self.postgres {
            let _ = self.changes.send(game_id.to_string());
        }
    }
}

impl Store for SqlStore {
    async fn create_user(
        &self,
        user: &User,
        password_hash: Option<&str>,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO users (id, name, name_key, kind, password_hash, created_ms) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(&user.id)
        .bind(&user.name)
        .bind(key(&user.name))
        .bind(user.kind.word())
        .bind(password_hash.map(str::to_string))
        .bind(to_i64(user.created_ms))
        .execute(&self.pool)
        .await
        .map(drop)
        .map_err(|e| match database(e) {
            StoreError::Conflict => StoreError::NameTaken(user.name.clone()),
            other => other,
        })
    }

    async fn user_by_name(&self, name: &str) -> Result<Option<(User, Option<String>)>, StoreError> {
        let row = sqlx::query(
            "SELECT id, name, kind, created_ms, password_hash FROM users WHERE name_key = $1",
        )
        .bind(key(name))
        .fetch_optional(&self.pool)
        .await
        .map_err(database)?;
        row.map(|row| Ok((SqlStore::user_from(&row)?, get(&row, "password_hash")?)))
            .transpose()
    }

    async fn user(&self, id: &str) -> Result<Option<User>, StoreError> {
        let row = sqlx::query("SELECT id, name, kind, created_ms FROM users WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await
            .map_err(database)?;
        row.as_ref().map(SqlStore::user_from).transpose()
    }

    async fn promote_guest(
        &self,
        id: &str,
        name: &str,
        password_hash: &str,
    ) -> Result<(), StoreError> {
        let done = sqlx::query(
            "UPDATE users SET name = $1, name_key = $2, kind = 'account', password_hash = $3 \
             WHERE id = $4 AND kind = 'guest'",
        )
        .bind(name)
        .bind(key(name))
        .bind(password_hash)
        .bind(id)
        .execute(&self.pool)
        .await
        .map_err(|e| match database(e) {
            StoreError::Conflict => StoreError::NameTaken(name.to_string()),
            other => other,
        })?;
        if done.rows_affected() == 1 {
            Ok(())
        } else {
            Err(StoreError::Conflict)
        }
    }

    async fn create_session(
        &self,
        token_hash: &str,
        user_id: &str,
        csrf: &str,
        expires_ms: u64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO sessions (token_hash, user_id, csrf, expires_ms) VALUES ($1, $2, $3, $4)",
        )
        .bind(token_hash)
        .bind(user_id)
        .bind(csrf)
        .bind(to_i64(expires_ms))
        .execute(&self.pool)
        .await
        .map(drop)
        .map_err(database)
    }

    async fn session(&self, token_hash: &str, now_ms: u64) -> Result<Option<Session>, StoreError> {
        let row = sqlx::query(
            "SELECT u.id, u.name, u.kind, u.created_ms, s.csrf, s.expires_ms \
             FROM sessions s JOIN users u ON u.id = s.user_id \
             WHERE s.token_hash = $1 AND s.expires_ms > $2",
        )
        .bind(token_hash)
        .bind(to_i64(now_ms))
        .fetch_optional(&self.pool)
        .await
        .map_err(database)?;
        row.map(|row| {
            Ok(Session {
                user: SqlStore::user_from(&row)?,
                csrf: get(&row, "csrf")?,
                expires_ms: to_u64(get(&row, "expires_ms")?),
            })
        })
        .transpose()
    }

    async fn delete_session(&self, token_hash: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
            .bind(token_hash)
            .execute(&self.pool)
            .await
            .map(drop)
            .map_err(database)
    }

    async fn login_failure(
        &self,
        name: &str,
        at_ms: u64,
        since_ms: u64,
    ) -> Result<u64, StoreError> {
        sqlx::query("INSERT INTO login_failures (name_key, at_ms) VALUES ($1, $2)")
            .bind(key(name))
            .bind(to_i64(at_ms))
            .execute(&self.pool)
            .await
            .map_err(database)?;
        self.login_failures(name, since_ms).await
    }

    async fn login_failures(&self, name: &str, since_ms: u64) -> Result<u64, StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM login_failures WHERE name_key = $1 AND at_ms >= $2",
        )
        .bind(key(name))
        .bind(to_i64(since_ms))
        .fetch_one(&self.pool)
        .await
        .map_err(database)?;
        Ok(to_u64(get(&row, "n")?))
    }

    async fn create_challenge(&self, challenge: &Challenge) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO challenges (id, from_user, to_user, listed, spec, two_games, first, \
             status, created_ms, game_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, NULL)",
        )
        .bind(&challenge.id)
        .bind(&challenge.from)
        .bind(challenge.to.clone())
        .bind(i64::from(challenge.open))
        .bind(json(&challenge.spec))
        .bind(i64::from(challenge.two_games))
        .bind(json(&challenge.first))
        .bind(challenge.status.word())
        .bind(to_i64(challenge.created_ms))
        .execute(&self.pool)
        .await
        .map(drop)
        .map_err(database)
    }

    async fn challenge(&self, id: &str) -> Result<Option<Challenge>, StoreError> {
        let row = sqlx::query("SELECT * FROM challenges WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await
            .map_err(database)?;
        row.as_ref().map(SqlStore::challenge_from).transpose()
    }

    async fn open_challenges(&self, user: Option<&str>) -> Result<Vec<Challenge>, StoreError> {
        let rows = sqlx::query(
            "SELECT * FROM challenges WHERE status = 'open' \
             AND (listed = 1 OR to_user = $1 OR from_user = $1) \
             ORDER BY created_ms DESC LIMIT 200",
        )
        .bind(user.unwrap_or("").to_string())
        .fetch_all(&self.pool)
        .await
        .map_err(database)?;
        rows.iter().map(SqlStore::challenge_from).collect()
    }

    async fn close_challenge(&self, id: &str, status: ChallengeStatus) -> Result<(), StoreError> {
        let done =
            sqlx::query("UPDATE challenges SET status = $1 WHERE id = $2 AND status = 'open'")
                .bind(status.word())
                .bind(id)
                .execute(&self.pool)
                .await
                .map_err(database)?;
        if done.rows_affected() == 1 {
            Ok(())
        } else {
            Err(StoreError::Conflict)
        }
    }

    async fn accept_challenge(
        &self,
        id: &str,
        game: &StoredGame,
        in_match: Option<&StoredMatch>,
    ) -> Result<(), StoreError> {
        let mut transaction = self.pool.begin().await.map_err(database)?;
        // The write first: on SQLite it takes the database's write lock before anything is
        // read, and a second accept finds the challenge no longer open.
        let done = sqlx::query(
            "UPDATE challenges SET status = 'accepted', game_id = $1 WHERE id = $2 AND status = 'open'",
        )
        .bind(&game.id)
        .bind(id)
        .execute(&mut *transaction)
        .await
        .map_err(database)?;
        if done.rows_affected() != 1 {
            return Err(StoreError::Conflict);
        }
        if let Some(pair) = in_match {
            sqlx::query(
                "INSERT INTO matches (id, spec, player_1, player_2, result, aborted) \
                 VALUES ($1, $2, $3, $4, NULL, 0)",
            )
            .bind(&pair.id)
            .bind(json(&pair.spec))
            .bind(&pair.players[0])
            .bind(&pair.players[1])
            .execute(&mut *transaction)
            .await
            .map_err(database)?;
        }
        SqlStore::insert_game(&mut transaction, game).await?;
        self.notify(&mut transaction, &game.id).await?;
        transaction.commit().await.map_err(database)?;
        self.notified_locally(&game.id);
        Ok(())
    }

    async fn game(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        let Some(row) = sqlx::query("SELECT * FROM games WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await
            .map_err(database)?
        else {
            return Ok(None);
        };
        let rows = sqlx::query(
            "SELECT seq, seat, event, at_ms FROM events WHERE game_id = $1 ORDER BY seq",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await
        .map_err(database)?;
        let events = rows
            .iter()
            .map(|row| {
                Ok(Event {
                    seq: to_u64(get(row, "seq")?),
                    seat: get::<Option<i64>>(row, "seat")?.map(|s| s as usize),
                    kind: from_json::<EventKind>("event", &get::<String>(row, "event")?)?,
                    at_ms: to_u64(get(row, "at_ms")?),
                })
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        let match_id: Option<String> = get(&row, "match_id")?;
        let round: Option<i64> = get(&row, "match_round")?;
        let ending: Option<String> = get(&row, "ending")?;
        Ok(Some(StoredGame {
            id: get(&row, "id")?,
            spec: from_json::<GameSpec>("game spec", &get::<String>(&row, "spec")?)?,
            seats: from_json("seats", &get::<String>(&row, "seats")?)?,
            start_ms: to_u64(get(&row, "start_ms")?),
            in_match: match_id.map(|id| (id, round.unwrap_or(0) as usize)),
            events,
            ending: ending.map(|text| from_json("ending", &text)).transpose()?,
        }))
    }

    async fn append(
        &self,
        game_id: &str,
        events: &[Event],
        aftermath: &Aftermath,
    ) -> Result<(), StoreError> {
        let mut transaction = self.pool.begin().await.map_err(database)?;
        for event in events {
            sqlx::query(
                "INSERT INTO events (game_id, seq, seat, event, at_ms) VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(game_id)
            .bind(to_i64(event.seq))
            .bind(event.seat.map(|s| s as i64))
            .bind(json(&event.kind))
            .bind(to_i64(event.at_ms))
            .execute(&mut *transaction)
            .await
            .map_err(database)?;
        }
        let at_ms = events.last().map_or(0, |e| e.at_ms);
        match aftermath {
            Aftermath::Nothing => {}
            Aftermath::Ended(ending) => {
                SqlStore::end_game(&mut transaction, game_id, ending).await?
            }
            Aftermath::NextGame(ending, next) => {
                SqlStore::end_game(&mut transaction, game_id, ending).await?;
                SqlStore::insert_game(&mut transaction, next).await?;
                self.notify(&mut transaction, &next.id).await?;
            }
            Aftermath::MatchOver {
                ending,
                match_id,
                result,
                rated,
            } => {
                SqlStore::end_game(&mut transaction, game_id, ending).await?;
                SqlStore::finish_match(&mut transaction, match_id, result.as_ref()).await?;
                if let Some(rated) = rated {
                    self.rate_in(&mut transaction, rated, at_ms).await?;
                }
            }
            Aftermath::RatedGame(ending, rated) => {
                SqlStore::end_game(&mut transaction, game_id, ending).await?;
                self.rate_in(&mut transaction, rated, at_ms).await?;
            }
        }
        self.notify(&mut transaction, game_id).await?;
        transaction.commit().await.map_err(database)?;
        if let Aftermath::NextGame(_, next) = aftermath {
            self.notified_locally(&next.id);
        }
        self.notified_locally(game_id);
        Ok(())
    }

    async fn games(&self, filter: &GameFilter) -> Result<Vec<GameSummary>, StoreError> {
        let mut sql = String::from(
            "SELECT g.id, g.spec, g.seats, g.start_ms, g.match_id, g.match_round, g.ending \
             FROM games g WHERE 1 = 1",
        );
        let mut binds: Vec<String> = Vec::new();
        let mut numbers: Vec<i64> = Vec::new();
        if let Some(player) = &filter.player {
            binds.push(player.clone());
            sql += &format!(
                " AND EXISTS (SELECT 1 FROM game_players p WHERE p.game_id = g.id AND p.user_id = ${})",
                binds.len()
            );
        }
        if let Some(opponent) = &filter.opponent {
            binds.push(key(opponent));
            sql += &format!(
                " AND EXISTS (SELECT 1 FROM game_players p JOIN users u ON u.id = p.user_id \
                 WHERE p.game_id = g.id AND u.name_key = ${})",
                binds.len()
            );
        }
        if let Some(over) = filter.over {
            sql += if over {
                " AND g.over = 1"
            } else {
                " AND g.over = 0"
            };
        }
        let texts = binds.len();
        if let Some(since) = filter.since_ms {
            numbers.push(to_i64(since));
            sql += &format!(" AND g.start_ms >= ${}", texts + numbers.len());
        }
        if let Some(until) = filter.until_ms {
            numbers.push(to_i64(until));
            sql += &format!(" AND g.start_ms < ${}", texts + numbers.len());
        }
        sql += &format!(
            " ORDER BY g.start_ms DESC LIMIT {}",
            filter.limit.clamp(1, 500)
        );
        let mut query = sqlx::query(&sql);
        for bind in binds {
            query = query.bind(bind);
        }
        for number in numbers {
            query = query.bind(number);
        }
        let rows = query.fetch_all(&self.pool).await.map_err(database)?;
        let mut games = Vec::with_capacity(rows.len());
        for row in &rows {
            let seats: Vec<String> = from_json("seats", &get::<String>(row, "seats")?)?;
            let mut names = Vec::with_capacity(seats.len());
            for seat in &seats {
                names.push(
                    self.user(seat)
                        .await?
                        .map_or_else(|| "?".to_string(), |u| u.name),
                );
            }
            let match_id: Option<String> = get(row, "match_id")?;
            let round: Option<i64> = get(row, "match_round")?;
            let ending: Option<String> = get(row, "ending")?;
            games.push(GameSummary {
                id: get(row, "id")?,
                spec: from_json("game spec", &get::<String>(row, "spec")?)?,
                names,
                seats,
                start_ms: to_u64(get(row, "start_ms")?),
                ending: ending.map(|text| from_json("ending", &text)).transpose()?,
                in_match: match_id.map(|id| (id, round.unwrap_or(0) as usize)),
            });
        }
        Ok(games)
    }

    async fn games_in_play(&self) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query("SELECT id FROM games WHERE over = 0")
            .fetch_all(&self.pool)
            .await
            .map_err(database)?;
        rows.iter().map(|row| get(row, "id")).collect()
    }

    async fn match_of(&self, id: &str) -> Result<Option<StoredMatch>, StoreError> {
        let Some(row) = sqlx::query("SELECT * FROM matches WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await
            .map_err(database)?
        else {
            return Ok(None);
        };
        let games = sqlx::query("SELECT id FROM games WHERE match_id = $1 ORDER BY match_round")
            .bind(id)
            .fetch_all(&self.pool)
            .await
            .map_err(database)?
            .iter()
            .map(|row| get(row, "id"))
            .collect::<Result<Vec<String>, _>>()?;
        let result: Option<String> = get(&row, "result")?;
        Ok(Some(StoredMatch {
            id: get(&row, "id")?,
            spec: from_json("match spec", &get::<String>(&row, "spec")?)?,
            players: [get(&row, "player_1")?, get(&row, "player_2")?],
            games,
            result: result
                .map(|text| from_json("match result", &text))
                .transpose()?,
            aborted: get::<i64>(&row, "aborted")? != 0,
        }))
    }

    async fn rating(&self, user_id: &str, variant: &str) -> Result<Rating, StoreError> {
        let row = sqlx::query(
            "SELECT rating, deviation, volatility, results FROM ratings WHERE user_id = $1 AND variant = $2",
        )
        .bind(user_id)
        .bind(variant)
        .fetch_optional(&self.pool)
        .await
        .map_err(database)?;
        row.as_ref()
            .map_or_else(|| Ok(Rating::default()), SqlStore::rating_from)
    }

    async fn rating_history(
        &self,
        user_id: &str,
        variant: &str,
    ) -> Result<Vec<RatingPoint>, StoreError> {
        let rows = sqlx::query(
            "SELECT at_ms, rating, deviation FROM rating_history \
             WHERE user_id = $1 AND variant = $2 ORDER BY at_ms LIMIT 1000",
        )
        .bind(user_id)
        .bind(variant)
        .fetch_all(&self.pool)
        .await
        .map_err(database)?;
        rows.iter()
            .map(|row| {
                Ok(RatingPoint {
                    at_ms: to_u64(get(row, "at_ms")?),
                    rating: get(row, "rating")?,
                    deviation: get(row, "deviation")?,
                })
            })
            .collect()
    }

    fn subscribe(&self) -> broadcast::Receiver<String> {
        self.changes.subscribe()
    }
}
