//! The play server under load (docs/play.md, "Load"): starts `cathedral serve --play` on a fresh
//! database, signs in two guests for each of GAMES games, starts them all at once (live 30+0
//! clocks, single games), and has every player answer each of its turns at once with a random
//! legal move over its own socket, until every game is over or SECONDS have passed. Prints the
//! moves made, the move's round trip (sent to the server's "done") as median, 90th and 99th
//! percentile, the server's CPU time and its peak memory.
//!
//! ```sh
//! cargo build --release && cargo run --release --features bench-play --example play_load -- \
//!     target/release/cathedral GAMES SECONDS [DATABASE]
//! ```
//!
//! DATABASE is a SQLite file (a fresh temporary one by default) or a PostgreSQL URL (its tables
//! are used as they are: give it an empty database, or one only the bench uses).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a tool run by hand: a failure should stop it with what went wrong"
)]

use cathedral::boardgame::Rng;
use cathedral::frontend::Playable;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// One POST: the status, the cookie set and the JSON body.
async fn post(
    address: &str,
    path: &str,
    cookie: Option<&str>,
    csrf: &str,
    body: &Value,
) -> (u16, Option<String>, Value) {
    let mut stream = tokio::net::TcpStream::connect(address)
        .await
        .expect("the server");
    let text = body.to_string();
    let cookie = cookie
        .map(|c| format!("Cookie: cathedral_play={c}\r\n"))
        .unwrap_or_default();
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nX-CSRF-Token: {csrf}\r\n{cookie}Content-Length: {}\r\nConnection: close\r\n\r\n{text}",
        text.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.unwrap();
    let answer = String::from_utf8_lossy(&answer).to_string();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let set = head
        .lines()
        .find_map(|l| l.strip_prefix("set-cookie: cathedral_play="))
        .map(|v| v.split(';').next().unwrap_or("").to_string());
    (
        status,
        set,
        serde_json::from_str(body.trim()).unwrap_or(Value::Null),
    )
}

struct Player {
    cookie: String,
    csrf: String,
}

async fn guest(address: &str) -> Player {
    let (status, cookie, body) = post(address, "/play/api/guest", None, "", &json!({})).await;
    assert_eq!(status, 200, "{body}");
    Player {
        cookie: cookie.unwrap(),
        csrf: body["csrf"].as_str().unwrap().to_string(),
    }
}

/// Plays `seat` of game `id` over a socket: every turn a random legal move. Round trips in ms
/// go to `times`.
async fn play(
    address: String,
    player: Player,
    id: String,
    seat: u64,
    seed: u64,
    times: Arc<Mutex<Vec<f64>>>,
    until: Instant,
) -> usize {
    let mut request = format!("ws://{address}/play/socket")
        .into_client_request()
        .unwrap();
    request.headers_mut().insert(
        "Cookie",
        format!("cathedral_play={}", player.cookie).parse().unwrap(),
    );
    let (mut socket, _) = tokio_tungstenite::connect_async(request)
        .await
        .expect("the socket");
    socket
        .send(Message::Text(
            json!({"type": "watch", "game": id}).to_string().into(),
        ))
        .await
        .unwrap();
    let mut rng = Rng::new(seed);
    let mut sent: Option<(u64, Instant)> = None;
    let mut moves = 0;
    let mut last_events = 0;
    loop {
        let remaining = until.saturating_duration_since(Instant::now());
        let Ok(Some(Ok(message))) = tokio::time::timeout(remaining, socket.next()).await else {
            break;
        };
        let Message::Text(text) = message else {
            continue;
        };
        let value: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        match value["type"].as_str() {
            Some("done") => {
                if let Some((_, at)) = sent.take() {
                    times
                        .lock()
                        .unwrap()
                        .push(at.elapsed().as_secs_f64() * 1000.0);
                }
            }
            Some("refused") => sent = None,
            Some("game") => {
                let view = &value["game"];
                if view["ending"].is_object() {
                    break;
                }
                let events = view["events"].as_u64().unwrap_or(0);
                if view["to_move"].as_u64() != Some(seat) || events < last_events || sent.is_some()
                {
                    continue;
                }
                last_events = events;
                let mut position = cathedral::Position::new(cathedral::Rules::CLASSIC);
                for m in view["moves"].as_array().unwrap() {
                    let mv = Playable::parse_move(&position, m["text"].as_str().unwrap()).unwrap();
                    position.play(mv);
                }
                let legal = Playable::legal_moves(&position);
                let mv = legal[rng.below(legal.len() as u64) as usize];
                let ply = view["moves"].as_array().unwrap().len();
                let action = json!({"type": "act", "game": id, "action": {"action": "move", "text": position.move_text(mv), "ply": ply}, "ref": ply});
                sent = Some((ply as u64, Instant::now()));
                socket
                    .send(Message::Text(action.to_string().into()))
                    .await
                    .unwrap();
                moves += 1;
            }
            _ => {}
        }
    }
    moves
}

fn process_figures(pid: u32) -> (f64, u64) {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let fields: Vec<&str> = stat
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    let cpu = (ticks(11) + ticks(12)) / 100.0;
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let peak = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0);
    (cpu, peak)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (binary, games, seconds) = match args.as_slice() {
        [_, binary, games, seconds, ..] => (
            binary.clone(),
            games.parse::<usize>().expect("GAMES"),
            seconds.parse::<u64>().expect("SECONDS"),
        ),
        _ => {
            eprintln!("usage: play_load CATHEDRAL_BINARY GAMES SECONDS [DATABASE]");
            std::process::exit(2);
        }
    };
    let dir = tempfile::tempdir().unwrap();
    let database = args
        .get(4)
        .cloned()
        .unwrap_or_else(|| dir.path().join("load.sqlite").display().to_string());
    let mut server = std::process::Command::new(&binary)
        .args(["serve", "--play", "--port", "0", "--database", &database])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("start the server");
    let mut lines = BufReader::new(server.stdout.take().unwrap());
    let mut first = String::new();
    lines.read_line(&mut first).unwrap();
    for _ in 0..2 {
        lines.read_line(&mut String::new()).unwrap();
    }
    let address = first
        .split("http://")
        .nth(1)
        .unwrap()
        .trim()
        .trim_end_matches('/')
        .to_string();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let times = Arc::new(Mutex::new(Vec::new()));
    let (cpu_before, _) = process_figures(server.id());
    let started = Instant::now();
    let moves: usize = runtime.block_on(async {
        let mut tasks = Vec::new();
        for n in 0..games {
            let (a, b) = (guest(&address).await, guest(&address).await);
            let (status, _, challenge) = post(
                &address,
                "/play/api/challenges",
                Some(&a.cookie),
                &a.csrf,
                &json!({"game": "cathedral", "time": "30+0", "two_games": false, "first": true}),
            )
            .await;
            assert_eq!(status, 201, "{challenge}");
            let path = format!(
                "/play/api/challenges/{}/accept",
                challenge["id"].as_str().unwrap()
            );
            let (status, _, accepted) =
                post(&address, &path, Some(&b.cookie), &b.csrf, &json!({})).await;
            assert_eq!(status, 200, "{accepted}");
            let id = accepted["game"].as_str().unwrap().to_string();
            let until = Instant::now() + Duration::from_secs(seconds);
            for (seat, player) in [(0, a), (1, b)] {
                tasks.push(tokio::spawn(play(
                    address.clone(),
                    player,
                    id.clone(),
                    seat,
                    (n * 2) as u64 + seat,
                    Arc::clone(&times),
                    until,
                )));
            }
        }
        let mut moves = 0;
        for task in tasks {
            moves += task.await.unwrap_or(0);
        }
        moves
    });
    let wall = started.elapsed().as_secs_f64();
    let (cpu_after, peak_kib) = process_figures(server.id());
    let _ = server.kill();
    let _ = server.wait();
    let mut times = times.lock().unwrap().clone();
    times.sort_by(f64::total_cmp);
    let at = |q: f64| {
        times
            .get(((times.len() as f64 - 1.0) * q).round() as usize)
            .copied()
            .unwrap_or(f64::NAN)
    };
    println!(
        "{games} games at once on {}: {moves} moves in {wall:.1} s ({:.0} moves/s); round trip median {:.1} ms, p90 {:.1} ms, p99 {:.1} ms; server CPU {:.1} s ({:.0} % of one core), peak memory {} MiB",
        if database.starts_with("postgres") {
            "PostgreSQL"
        } else {
            "SQLite"
        },
        moves as f64 / wall,
        at(0.5),
        at(0.9),
        at(0.99),
        cpu_after - cpu_before,
        100.0 * (cpu_after - cpu_before) / wall,
        peak_kib / 1024
    );
}
