-- The play server's tables (src/play/store/): written in the SQL that SQLite and PostgreSQL
-- share. Times are milliseconds since the Unix epoch; ids are random text; JSON is text.
CREATE TABLE users (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    password_hash TEXT,
    created_ms BIGINT NOT NULL
);

CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id),
    csrf TEXT NOT NULL,
    expires_ms BIGINT NOT NULL
);

CREATE TABLE login_failures (
    name_key TEXT NOT NULL,
    at_ms BIGINT NOT NULL
);
CREATE INDEX login_failures_by_name ON login_failures (name_key, at_ms);

CREATE TABLE challenges (
    id TEXT PRIMARY KEY,
    from_user TEXT NOT NULL REFERENCES users (id),
    to_user TEXT REFERENCES users (id),
    listed BIGINT NOT NULL,
    spec TEXT NOT NULL,
    two_games BIGINT NOT NULL,
    first TEXT NOT NULL,
    status TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    game_id TEXT
);
CREATE INDEX challenges_open ON challenges (status, created_ms);

CREATE TABLE matches (
    id TEXT PRIMARY KEY,
    spec TEXT NOT NULL,
    player_1 TEXT NOT NULL REFERENCES users (id),
    player_2 TEXT NOT NULL REFERENCES users (id),
    result TEXT,
    aborted BIGINT NOT NULL
);

CREATE TABLE games (
    id TEXT PRIMARY KEY,
    spec TEXT NOT NULL,
    seats TEXT NOT NULL,
    start_ms BIGINT NOT NULL,
    match_id TEXT REFERENCES matches (id),
    match_round BIGINT,
    over BIGINT NOT NULL,
    ending TEXT
);
CREATE INDEX games_by_start ON games (start_ms);

-- Who played a game, for a player's list.
CREATE TABLE game_players (
    game_id TEXT NOT NULL REFERENCES games (id),
    user_id TEXT NOT NULL REFERENCES users (id),
    seat BIGINT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX game_players_by_user ON game_players (user_id);

-- A game is its events: (game, seq) is the key, so that two servers cannot both add event n.
CREATE TABLE events (
    game_id TEXT NOT NULL REFERENCES games (id),
    seq BIGINT NOT NULL,
    seat BIGINT,
    event TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE ratings (
    user_id TEXT NOT NULL REFERENCES users (id),
    variant TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    results BIGINT NOT NULL,
    PRIMARY KEY (user_id, variant)
);

CREATE TABLE rating_history (
    user_id TEXT NOT NULL REFERENCES users (id),
    variant TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL
);
CREATE INDEX rating_history_by_user ON rating_history (user_id, variant, at_ms);
