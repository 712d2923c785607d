//! The play server (`serve --play`, docs/play.md) from outside, over HTTP as a browser or a bot
//! reaches it: bots playing a rated match end to end, what nobody may do, bad input, and no
//! acknowledged move lost to a killed server.

use crate::common::play_client::{Client, rated_bot_match, started_game};
use crate::common::server::{Server, serve};
use serde_json::json;

fn play_server(database: &std::path::Path) -> (Server, String) {
    serve(&["--play", "--database", database.to_str().unwrap()])
}

/// `count` legal moves of a classic game from the start, chosen by a seeded generator.
fn opening_moves(count: usize) -> Vec<String> {
    use cathedral::boardgame::Rng;
    use cathedral::frontend::Playable;
    let mut position = cathedral::Position::new(cathedral::Rules::CLASSIC);
    let mut rng = Rng::new(7);
    let mut moves = Vec::new();
    for _ in 0..count {
        let legal = Playable::legal_moves(&position);
        let mv = legal[rng.below(legal.len() as u64) as usize];
        moves.push(position.move_text(mv));
        position.play(mv);
    }
    moves
}

#[test]
fn two_bots_play_a_rated_match_end_to_end() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, url) = play_server(&dir.path().join("play.sqlite"));
    rated_bot_match(&url, "waiter", &url, "challenger");

    let mut watcher = Client::new(&url);
    let (status, listed) = watcher.get("/play/api/games?player=challenger&opponent=WAITER");
    assert_eq!(status, 200, "{listed}");
    let games = listed["games"].as_array().unwrap();
    assert_eq!(games.len(), 2);
    // Colours swapped: each bot moved first once.
    assert_eq!(games[0]["names"][0], games[1]["names"][1]);
    let (match_id, _) = (games[0]["in_match"][0].clone(), ());
    assert_eq!(games[1]["in_match"][0], match_id);

    // Rated as one result: each bot's rating moved once, in opposite directions (or both
    // stayed for a drawn match).
    let (_, one) = watcher.get("/play/api/players/challenger");
    let (_, two) = watcher.get("/play/api/players/waiter");
    assert_eq!(one["history"].as_array().unwrap().len(), 1, "{one}");
    assert_eq!(one["rating"]["results"], json!(1));
    let (a, b) = (
        one["rating"]["rating"].as_f64().unwrap(),
        two["rating"]["rating"].as_f64().unwrap(),
    );
    assert!(
        (a - 1500.0) * (b - 1500.0) <= 0.0 && (a + b - 3000.0).abs() < 1.0,
        "{a} {b}"
    );

    // The record downloads as a game record that the toolkit reads back.
    let game = games[1]["id"].as_str().unwrap();
    let (status, _, head) = watcher.raw("GET", &format!("/play/api/games/{game}/record"), "", &[]);
    assert_eq!(status, 200);
    assert!(
        head.to_ascii_lowercase()
            .contains("content-disposition: attachment"),
        "{head}"
    );
    let (_, record) = watcher.get(&format!("/play/api/games/{game}/record"));
    let text = record.as_str().unwrap().to_string();
    let file = dir.path().join("game.yaml");
    std::fs::write(&file, &text).unwrap();
    let replayed = crate::common::stdout_of(
        crate::common::cathedral().args(["replay", file.to_str().unwrap()]),
    );
    assert!(!replayed.is_empty(), "{text}");
    assert!(
        text.contains("waiter") && text.contains("challenger"),
        "{text}"
    );
}

#[test]
fn nobody_acts_for_another_and_bad_input_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, url) = play_server(&dir.path().join("play.sqlite"));
    // The session is an HTTP-only cookie the page's scripts cannot read.
    let (status, _, head) = Client::new(&url).raw(
        "POST",
        "/play/api/guest",
        "{}",
        &[("Content-Type", "application/json")],
    );
    assert_eq!(status, 200);
    let cookie = head
        .lines()
        .find(|l| l.starts_with("set-cookie:"))
        .unwrap_or_default();
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"),
        "{head}"
    );
    let mut light = Client::guest(&url);
    let mut dark = Client::guest(&url);
    let mut eve = Client::guest(&url);
    let game = started_game(&mut light, &mut dark, "5+0");
    // Nothing of another player's session or password is in what anyone can read.
    let (_, me) = eve.get("/play/api/me");
    let (_, other) = eve.get(&format!("/play/api/games/{game}"));
    for secret in [light.cookie.clone().unwrap(), light.csrf.clone().unwrap()] {
        assert!(!other.to_string().contains(&secret) && !me.to_string().contains(&secret));
    }
    assert!(!other.to_string().contains("password"), "{other}");
    let first = opening_moves(2);
    assert_eq!(first.len(), 2, "{first:?}");
    let path = format!("/play/api/games/{game}");

    // Not your turn; not your game; not signed in; a forged session.
    let (status, refused) = dark.act(&game, json!({"action": "move", "text": first[0], "ply": 0}));
    assert_eq!(
        (status, refused["error"].as_str()),
        (422, Some("it is not your turn"))
    );
    let (status, _) = eve.act(&game, json!({"action": "resign"}));
    assert_eq!(status, 403);
    let mut nobody = Client::new(&url);
    let (status, _) = nobody.act(&game, json!({"action": "resign"}));
    assert_eq!(status, 401);
    let mut forged = Client::new(&url);
    forged.cookie = Some("0".repeat(64));
    let (status, _) = forged.act(&game, json!({"action": "resign"}));
    assert_eq!(status, 401);

    // CSRF: the right cookie without the page's token, or from another site's page.
    let body = json!({"action": "resign"}).to_string();
    let (status, refused, _) = light.raw(
        "POST",
        &path,
        &body,
        &[("Content-Type", "application/json")],
    );
    assert_eq!(status, 403, "{refused}");
    let csrf = light.csrf.clone().unwrap();
    let (status, _, _) = light.raw(
        "POST",
        &path,
        &body,
        &[
            ("Content-Type", "application/json"),
            ("X-CSRF-Token", &csrf),
            ("Origin", "http://evil.example"),
        ],
    );
    assert_eq!(status, 403);
    let (status, _, _) = light.raw(
        "POST",
        &path,
        &body,
        &[("Content-Type", "text/plain"), ("X-CSRF-Token", &csrf)],
    );
    assert_eq!(status, 415);

    // Bad input: not JSON, an unknown action, an illegal move, an oversized body.
    let (status, refused, _) = light.raw(
        "POST",
        &path,
        "{not json",
        &[
            ("Content-Type", "application/json"),
            ("X-CSRF-Token", &csrf),
        ],
    );
    assert_eq!(status, 400, "{refused}");
    let (status, _) = light.act(&game, json!({"action": "teleport"}));
    assert_eq!(status, 400);
    let (status, refused) = light.act(&game, json!({"action": "move", "text": "Z99", "ply": 0}));
    assert_eq!(status, 422);
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .starts_with("that move is not legal here"),
        "{refused}"
    );
    let big = format!(
        "{{\"action\":\"move\",\"text\":\"{}\",\"ply\":0}}",
        "x".repeat(20_000)
    );
    let (status, _, _) = light.raw(
        "POST",
        &path,
        &big,
        &[
            ("Content-Type", "application/json"),
            ("X-CSRF-Token", &csrf),
        ],
    );
    assert_eq!(status, 413);
    let (status, _) = light.get("/play/api/games/nosuchgame");
    assert_eq!(status, 404);
    let (_, view) = light.get(&path);
    assert_eq!(view["moves"], json!([]), "nothing above changed the game");

    // A move, then the same message replayed.
    let (status, view) = light.act(&game, json!({"action": "move", "text": first[0], "ply": 0}));
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["you"], json!(0));
    let (status, _) = light.act(&game, json!({"action": "move", "text": first[0], "ply": 0}));
    assert_eq!(status, 409);

    // A name with markup cannot be chosen; a wrong password is throttled after five tries.
    let (status, refused) = eve.post(
        "/play/api/register",
        json!({"name": "<script>", "password": "long enough"}),
    );
    assert_eq!(status, 422, "{refused}");
    let mut ada = Client::new(&url);
    let (status, _) = ada.post(
        "/play/api/register",
        json!({"name": "Ada", "password": "difference engine"}),
    );
    assert_eq!(status, 200);
    let mut guesser = Client::new(&url);
    for _ in 0..5 {
        let (status, _) = guesser.post(
            "/play/api/login",
            json!({"name": "ada", "password": "guess"}),
        );
        assert_eq!(status, 401);
    }
    let (status, refused) = guesser.post(
        "/play/api/login",
        json!({"name": "Ada", "password": "difference engine"}),
    );
    assert_eq!(status, 429, "{refused}");

    // Resign ends it; nothing more can be done in a finished game.
    let (status, view) = dark.act(&game, json!({"action": "resign"}));
    assert_eq!(status, 200);
    assert_eq!(view["ending"]["reason"]["kind"], json!("resigned"));
    let (status, _) = light.act(&game, json!({"action": "move", "text": first[1], "ply": 1}));
    assert_eq!(status, 422);
}

#[test]
fn a_killed_server_loses_no_acknowledged_move() {
    let dir = tempfile::tempdir().unwrap();
    let database = dir.path().join("play.sqlite");
    let (server, url) = play_server(&database);
    let mut light = Client::guest(&url);
    let mut dark = Client::guest(&url);
    let game = started_game(&mut light, &mut dark, "10+0");
    let moves = opening_moves(6);
    for (ply, text) in moves.iter().enumerate().take(5) {
        let player = if ply % 2 == 0 { &mut light } else { &mut dark };
        let (status, view) = player.act(&game, json!({"action": "move", "text": text, "ply": ply}));
        assert_eq!(status, 200, "{view}");
    }
    // SIGKILL, at once after the last acknowledgement.
    drop(server);
    let (_server, url) = play_server(&database);
    light.address = url.trim_start_matches("http://").to_string();
    dark.address = light.address.clone();
    let (_, view) = dark.get(&format!("/play/api/games/{game}"));
    let kept: Vec<&str> = view["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap())
        .collect();
    assert_eq!(
        kept,
        moves[..5].iter().map(String::as_str).collect::<Vec<_>>()
    );
    // The sessions survive too, and the game goes on; the mover's clock resumed at the restart.
    assert_eq!(view["you"], json!(1), "the same player after the restart");
    assert!(view["clocks_ms"][1].as_u64().unwrap() > 590_000, "{view}");
    let (status, _) = dark.act(&game, json!({"action": "move", "text": moves[5], "ply": 5}));
    assert_eq!(status, 200);
}
