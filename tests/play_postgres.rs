//! The play server on a shared PostgreSQL (docs/play.md, "Several servers"): two instances of
//! `serve --play` on one database, a game whose players are on different instances, a move made
//! through one reaching a socket on the other (LISTEN/NOTIFY), bots playing a rated match
//! across them, and an instance killed mid-game losing no acknowledged move.
//!
//! The database is the one `.ci/postgres-setup` starts (its URL in `target/postgres-url`) or
//! `CATHEDRAL_POSTGRES_URL`. Where there is none the test says so and passes, unless
//! `CATHEDRAL_POSTGRES_TESTS=1` demands it (as `.ci/run` does).

use crate::common::play_client::{Client, rated_bot_match, started_game};
use crate::common::server::serve;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

fn database() -> Option<String> {
    if let Ok(url) = std::env::var("CATHEDRAL_POSTGRES_URL") {
        return Some(url);
    }
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/postgres-url");
    std::fs::read_to_string(file)
        .ok()
        .map(|s| s.trim().to_string())
}

/// A name no earlier run used: the database outlives a test run.
fn fresh(name: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!("{name}{}", nanos % 1_000_000_000)
}

#[test]
fn two_servers_on_one_postgres_play_one_game() {
    let _alone = crate::one_at_a_time();
    let demanded = std::env::var("CATHEDRAL_POSTGRES_TESTS").is_ok_and(|v| v == "1");
    let Some(url) = database() else {
        assert!(
            !demanded,
            "CATHEDRAL_POSTGRES_TESTS=1 but no PostgreSQL (run .ci/postgres-setup)"
        );
        eprintln!("skipping the PostgreSQL tests: no database (run .ci/postgres-setup)");
        return;
    };
    let (one, one_url) = serve(&["--play", "--database", &url]);
    let (_two, two_url) = serve(&["--play", "--database", &url]);

    // Light signs in on the first server, Dark on the second; the game is one game.
    let mut light = Client::guest(&one_url);
    let mut dark = Client::guest(&two_url);
    let game = started_game(&mut light, &mut dark, "10+0");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let cookie = dark.cookie.clone().unwrap();
    let address = dark.address.clone();
    let watched = game.clone();
    // Dark's socket on the second server.
    let (mut socket, _) = runtime.block_on(async {
        let mut request = format!("ws://{address}/play/socket")
            .into_client_request()
            .unwrap();
        request.headers_mut().insert(
            "Cookie",
            format!("cathedral_play={cookie}").parse().unwrap(),
        );
        tokio_tungstenite::connect_async(request).await.unwrap()
    });
    let first_view = runtime.block_on(async {
        socket
            .send(Message::Text(
                json!({"type": "watch", "game": watched}).to_string().into(),
            ))
            .await
            .unwrap();
        next_game_message(&mut socket).await
    });
    assert_eq!(first_view["moves"], json!([]));
    assert_eq!(first_view["you"], json!(1));

    // A move through the first server reaches the socket on the second.
    let (_, start) = light.get(&format!("/play/api/games/{game}"));
    assert_eq!(start["moves"], json!([]));
    let opening = opening_move();
    let sent = Instant::now();
    let (status, view) = light.act(&game, json!({"action": "move", "text": opening, "ply": 0}));
    assert_eq!(status, 200, "{view}");
    let pushed = runtime.block_on(next_game_message(&mut socket));
    let latency = sent.elapsed();
    assert_eq!(pushed["moves"].as_array().unwrap().len(), 1, "{pushed}");
    assert_eq!(pushed["to_move"], json!(1));
    eprintln!("a move through one server reached a socket on the other in {latency:?}");

    // The first server killed: the second still has the move, and the game goes on there.
    drop(one);
    let (status, view) = dark.get(&format!("/play/api/games/{game}"));
    assert_eq!((status, view["moves"].as_array().unwrap().len()), (200, 1));
    let (status, _) = dark.act(&game, json!({"action": "resign"}));
    assert_eq!(status, 200);

    // Two bots, one on each server, play a rated match across them.
    let (_one_again, one_url) = serve(&["--play", "--database", &url]);
    let (waiter, challenger) = (fresh("wait"), fresh("chal"));
    rated_bot_match(&two_url, &waiter, &one_url, &challenger);
    let mut anyone = Client::new(&two_url);
    let (_, rated) = anyone.get(&format!("/play/api/players/{challenger}"));
    assert_eq!(rated["rating"]["results"], json!(1), "{rated}");
}

/// The next `game` message on the socket (within ten seconds).
async fn next_game_message<S>(socket: &mut S) -> Value
where
    S: StreamExt<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin,
{
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let message = tokio::time::timeout_at(deadline, socket.next())
            .await
            .expect("a game message within ten seconds")
            .expect("the socket open")
            .unwrap();
        if let Message::Text(text) = message {
            let value: Value = serde_json::from_str(&text).unwrap();
            if value["type"] == json!("game") {
                return value["game"].clone();
            }
        }
    }
}

fn opening_move() -> String {
    use cathedral::frontend::Playable;
    let position = cathedral::Position::new(cathedral::Rules::CLASSIC);
    let legal = Playable::legal_moves(&position);
    position.move_text(legal[legal.len() / 2])
}
