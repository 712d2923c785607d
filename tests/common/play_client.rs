//! A client of the play server (`serve --play`) over plain HTTP, one cookie like one browser,
//! for the tests that play on it (`play`, and `play_postgres` in the end-to-end binary).

use serde_json::{Value, json};
use std::io::{Read, Write};
use std::net::TcpStream;

/// A client of the play server with its own cookie, like one browser.
pub struct Client {
    pub address: String,
    pub cookie: Option<String>,
    pub csrf: Option<String>,
    pub bearer: Option<String>,
}

impl Client {
    pub fn new(url: &str) -> Client {
        Client {
            address: url.trim_start_matches("http://").to_string(),
            cookie: None,
            csrf: None,
            bearer: None,
        }
    }

    /// One request: the status, the body as JSON (or as a string when it is not JSON), and the
    /// raw head.
    pub fn raw(
        &mut self,
        method: &str,
        path: &str,
        body: &str,
        headers: &[(&str, &str)],
    ) -> (u16, Value, String) {
        let mut stream = TcpStream::connect(&self.address).unwrap();
        let mut head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n",
            self.address
        );
        if let Some(cookie) = &self.cookie {
            head += &format!("Cookie: cathedral_play={cookie}\r\n");
        }
        if let Some(token) = &self.bearer {
            head += &format!("Authorization: Bearer {token}\r\n");
        }
        for (name, value) in headers {
            head += &format!("{name}: {value}\r\n");
        }
        if method == "POST" {
            head += &format!("Content-Length: {}\r\n", body.len());
        }
        head += "\r\n";
        stream.write_all(head.as_bytes()).unwrap();
        stream.write_all(body.as_bytes()).unwrap();
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
        let answer = String::from_utf8_lossy(&answer).to_string();
        let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
        let status = head
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        for line in head.lines() {
            if let Some(value) = line.strip_prefix("set-cookie: cathedral_play=") {
                let token = value.split(';').next().unwrap_or_default();
                self.cookie = (!token.is_empty()).then(|| token.to_string());
            }
        }
        let value =
            serde_json::from_str(body.trim()).unwrap_or_else(|_| Value::String(body.to_string()));
        (status, value, head.to_string())
    }

    /// A change as the page sends it: JSON, with the session's CSRF token.
    pub fn post(&mut self, path: &str, body: Value) -> (u16, Value) {
        let csrf = self.csrf.clone().unwrap_or_default();
        let (status, value, _) = self.raw(
            "POST",
            path,
            &body.to_string(),
            &[
                ("Content-Type", "application/json"),
                ("X-CSRF-Token", &csrf),
            ],
        );
        if let Some(token) = value["csrf"].as_str() {
            self.csrf = Some(token.to_string());
        }
        (status, value)
    }

    pub fn get(&mut self, path: &str) -> (u16, Value) {
        let (status, value, _) = self.raw("GET", path, "", &[]);
        (status, value)
    }

    /// Signs in as a new guest.
    pub fn guest(url: &str) -> Client {
        let mut client = Client::new(url);
        let (status, me) = client.post("/play/api/guest", json!({}));
        assert_eq!(status, 200, "{me}");
        assert!(client.cookie.is_some(), "a session cookie is set");
        client
    }

    pub fn act(&mut self, game: &str, action: Value) -> (u16, Value) {
        self.post(&format!("/play/api/games/{game}"), action)
    }
}

/// A guest challenges another, who accepts: the single game's id, with the first player first.
pub fn started_game(one: &mut Client, two: &mut Client, time: &str) -> String {
    let (status, challenge) = one.post(
        "/play/api/challenges",
        json!({"game": "cathedral", "time": time, "two_games": false, "first": true}),
    );
    assert_eq!(status, 201, "{challenge}");
    let id = challenge["id"].as_str().unwrap();
    assert_eq!(challenge["link"], json!(format!("/play/#c/{id}")));
    let (status, accepted) = two.post(&format!("/play/api/challenges/{id}/accept"), json!({}));
    assert_eq!(status, 200, "{accepted}");
    accepted["game"].as_str().unwrap().to_string()
}

/// `cathedral bot` on `server` with `args`, two games, 2,000 nodes a move.
fn bot(server: &str, args: &[&str]) -> std::process::Child {
    std::process::Command::new(assert_cmd::cargo::cargo_bin("cathedral"))
        .args([
            "bot",
            "--server",
            server,
            "--password",
            "bot password",
            "--nodes",
            "2000",
            "--games",
            "2",
        ])
        .args(args)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

/// Two engine bots play a rated match of two games (3+2): `waiter` (level 2) on `waiter_url`
/// accepts the challenge of `challenger` (level 4) on `challenger_url`. What the challenger
/// printed, once both stopped with success after two games.
pub fn rated_bot_match(
    waiter_url: &str,
    waiter: &str,
    challenger_url: &str,
    challenger: &str,
) -> String {
    let waiting = bot(waiter_url, &["--name", waiter, "--level", "2"]);
    std::thread::sleep(std::time::Duration::from_millis(500));
    let challenging = bot(
        challenger_url,
        &[
            "--name",
            challenger,
            "--level",
            "4",
            "--challenge",
            waiter,
            "--rated",
            "--time",
            "3+2",
        ],
    );
    let challenging = challenging.wait_with_output().unwrap();
    let waiting = waiting.wait_with_output().unwrap();
    let said = String::from_utf8_lossy(&challenging.stdout).to_string();
    assert!(
        challenging.status.success() && waiting.status.success(),
        "{said}"
    );
    assert_eq!(said.matches("\ngame ").count(), 2, "two games: {said}");
    assert!(
        said.contains(&format!("{challenger}: 2 games played")),
        "{said}"
    );
    said
}
