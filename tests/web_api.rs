//! The web server's JSON API against a running `cathedral serve`: answers, errors as JSON with
//! a 4xx status, request limits, the cap on concurrent searches, and a search stopped when its
//! client goes away.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common;

/// A running server and its address (`127.0.0.1:PORT`), spoken to over plain HTTP.
struct Server {
    _process: common::server::Server,
    address: String,
}

impl Server {
    fn start(args: &[&str]) -> Server {
        let (process, url) = common::server::serve(args);
        Server {
            _process: process,
            address: url.trim_start_matches("http://").to_string(),
        }
    }

    /// Sends a request and returns the status and the body.
    fn request(&self, method: &str, path: &str, content_type: &str, body: &str) -> (u16, String) {
        let response = self.response(method, path, content_type, body);
        let status = response[9..12].parse().unwrap();
        let body = response.split("\r\n\r\n").nth(1).unwrap_or("").to_string();
        (status, body)
    }

    /// Sends a request and returns the whole response: the status line, headers and body.
    fn response(&self, method: &str, path: &str, content_type: &str, body: &str) -> String {
        let mut stream = TcpStream::connect(&self.address).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.address,
            body.len()
        )
        // A server that refuses a body too large answers before reading it all and closes:
        // the rest of the write then fails (a broken pipe), and the answer is still there.
        .ok();
        let mut response = Vec::new();
        // A reset after the answer (the unread body) ends the read; what came is the answer.
        let _ = stream.read_to_end(&mut response);
        let response = String::from_utf8_lossy(&response).into_owned();
        assert!(response.starts_with("HTTP/1.1 "), "no answer: {response:?}");
        response
    }

    fn post(&self, path: &str, body: &str) -> (u16, serde_json::Value) {
        let (status, text) = self.request("POST", path, "application/json", body);
        (
            status,
            serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON: {text}")),
        )
    }
}

fn start_of(file: &str) -> String {
    serde_json::to_string(&std::fs::read_to_string(file).unwrap()).unwrap()
}

#[test]
fn the_api_answers_and_refuses_in_words() {
    let server = Server::start(&[]);
    let (status, page) = server.request("GET", "/", "text/plain", "");
    assert_eq!(status, 200);
    assert!(page.contains("<html"));
    assert!(
        page.contains(r#"name="viewport""#),
        "a phone needs the viewport tag"
    );
    // The page's modules, style and icon, each with its media type; nothing outside the folder.
    for (path, media) in [
        ("/assets/app.js", "text/javascript"),
        ("/assets/state.js", "text/javascript"),
        ("/assets/style.css", "text/css"),
        ("/favicon.svg", "image/svg+xml"),
    ] {
        let response = server.response("GET", path, "text/plain", "");
        assert!(response.starts_with("HTTP/1.1 200"), "{path}: {response}");
        assert!(
            response
                .to_ascii_lowercase()
                .contains(&format!("content-type: {media}")),
            "{path}: {response}"
        );
    }
    for path in [
        "/assets/nothing.js",
        "/assets/..%2FCargo.toml",
        "/assets/.hidden",
    ] {
        let (status, body) = server.request("GET", path, "text/plain", "");
        assert_eq!(status, 404, "{path}: {body}");
        assert!(body.contains("no such file of the page"), "{path}: {body}");
    }
    let (status, body) = server.post(
        "/api/position",
        r#"{"moves": ["light:cathedral:e5,f4,f5,f6,f7,g5", "dark:castle:b2,b3,c2,d2,d3"]}"#,
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["position"]["to_move"], "light");
    assert!(body["svg"].as_str().unwrap().starts_with("<svg"));
    assert!(body["moves"]["total"].as_u64().unwrap() > 100);
    assert!(
        body["last_move"]["text"]
            .as_str()
            .unwrap()
            .contains("Dark Castle")
    );
    // Errors: each a 4xx with a message in words.
    for (body, status, words) in [
        (r#"{"moves": ["light:inn:a1"]}"#, 400, "cannot be played"),
        (
            r#"{"moves": ["light:cathedral:e5,f4,f5,f6,f7,g5", "dark:inn:e5,e6,d6"]}"#,
            400,
            "move 2",
        ),
        (r#"{"mvs": []}"#, 422, "not a game"),
        (r#"{"rules": "chess"}"#, 400, "not a rule variant"),
        (
            r#"{"start": "to_move: purple"}"#,
            400,
            "start:1:10: `purple` is not a player",
        ),
        (r#"{"moves": ["#, 400, "not a game"),
        (
            "[1, 2]",
            422,
            "the body must be a JSON object: a game like {",
        ),
        ("[]", 422, "the body must be a JSON object"),
        ("\"moves\"", 422, "the body must be a JSON object"),
        (r#"{"moves": 5}"#, 422, "not a game"),
    ] {
        let (got, reply) = server.post("/api/position", body);
        assert_eq!(got, status, "{body}: {reply}");
        assert!(
            reply["error"].as_str().unwrap().contains(words),
            "{body}: {reply}"
        );
        // A move that cannot be played is numbered, so that the page can show the game up to
        // the move before it; no other error names a move.
        let refused = if words == "cannot be played" {
            Some(1)
        } else if words == "move 2" {
            Some(2)
        } else {
            None
        };
        assert_eq!(reply["refused_move"].as_u64(), refused, "{body}: {reply}");
    }
    let (status, text) = server.request("POST", "/api/position", "text/plain", "{}");
    assert_eq!(status, 415, "{text}");
    let big = format!(r#"{{"moves": ["{}"]}}"#, "x".repeat(300 * 1024));
    let (status, text) = server.request("POST", "/api/position", "application/json", &big);
    assert_eq!(status, 413, "{text}");
    let (status, text) = server.request("GET", "/etc/passwd", "text/plain", "");
    assert_eq!(status, 404);
    assert!(text.contains("no such page"));
    // The solver and the engine.
    let (status, body) = server.post(
        "/api/solve",
        &format!(r#"{{"start": {}}}"#, start_of("puzzles/bench/t5-01.yaml")),
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["value"], 5);
    let (status, body) = server.post(
        "/api/bestmove",
        r#"{"moves": [], "time_ms": 200, "level": 3}"#,
    );
    assert_eq!(status, 200, "{body}");
    assert!(
        body["best_move"]
            .as_str()
            .unwrap()
            .starts_with("light:cathedral:")
    );
    // The weaker levels' choices follow the seed the page sends for each game: over a few
    // seeds level 1 does not always play the same move; the same seed repeats its move.
    let after_cathedral =
        r#""moves": ["light:cathedral:e5,f4,f5,f6,f7,g5"], "time_ms": 2000, "level": 1"#;
    let mut replies = std::collections::BTreeSet::new();
    for seed in 0..10 {
        let (status, body) = server.post(
            "/api/bestmove",
            &format!("{{{after_cathedral}, \"seed\": {seed}}}"),
        );
        assert_eq!(status, 200, "{body}");
        replies.insert(body["best_move"].as_str().unwrap().to_string());
    }
    assert!(replies.len() > 1, "{replies:?}");
    let once = server.post(
        "/api/bestmove",
        &format!("{{{after_cathedral}, \"seed\": 7}}"),
    );
    let again = server.post(
        "/api/bestmove",
        &format!("{{{after_cathedral}, \"seed\": 7}}"),
    );
    assert_eq!(once.1["best_move"], again.1["best_move"]);
    // The engine's best moves ranked with their values, for the candidate list.
    let (status, body) = server.post(
        "/api/bestmove",
        r#"{"moves": ["light:cathedral:e5,f4,f5,f6,f7,g5"], "time_ms": 300, "candidates": 3}"#,
    );
    assert_eq!(status, 200, "{body}");
    let candidates = body["candidates"].as_array().unwrap();
    assert_eq!(candidates.len(), 3, "{body}");
    assert_eq!(candidates[0]["mv"], body["best_move"], "{body}");
    assert!(candidates.iter().all(|c| c["value"].is_number()), "{body}");
    assert!(body["also"].is_null(), "{body}");
    // `also`: the value of another move from the same search, and what it loses against the best.
    let (status, body) = server.post(
        "/api/bestmove",
        r#"{"moves": ["light:cathedral:e5,f4,f5,f6,f7,g5"], "time_ms": 300, "also": "tavern:a1"}"#,
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["also"]["mv"], "dark:tavern:a1", "{body}");
    let (best, also) = (
        body["value"].as_f64().unwrap(),
        body["also"]["value"].as_f64().unwrap(),
    );
    assert!(also <= best, "{body}");
    assert!((body["also"]["loss"].as_f64().unwrap() - (best - also)).abs() < 1e-9);
    assert_eq!(body["also"]["line"][0], "dark:tavern:a1", "{body}");
    let (status, body) = server.post(
        "/api/bestmove",
        r#"{"moves": ["light:cathedral:e5,f4,f5,f6,f7,g5"], "also": "tavern:e5"}"#,
    );
    assert_eq!(status, 400, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("e5 is already covered"),
        "{body}"
    );
    // Numbers out of range: a 400 naming the range.
    for (path, body, words) in [
        (
            "/api/bestmove",
            r#"{"level": 11}"#,
            "level 11 is out of range: expected 1 to 10",
        ),
        ("/api/bestmove", r#"{"level": -1}"#, "expected 1 to 10"),
        (
            "/api/bestmove",
            r#"{"seed": -1}"#,
            "seed -1 is out of range: expected 0 to 9007199254740991",
        ),
        (
            "/api/bestmove",
            r#"{"candidates": 0}"#,
            "candidates 0 is out of range: expected 1 to 20",
        ),
        ("/api/bestmove", r#"{"candidates": 21}"#, "expected 1 to 20"),
        (
            "/api/bestmove",
            r#"{"time_ms": 0}"#,
            "time_ms 0 is out of range: expected 1 or more",
        ),
        (
            "/api/solve",
            r#"{"time_ms": -5}"#,
            "time_ms -5 is out of range",
        ),
        (
            "/api/solve/live",
            r#"{"time_ms": 0}"#,
            "time_ms 0 is out of range",
        ),
        (
            "/api/analyse",
            r#"{"nodes_per_move": 0}"#,
            "nodes_per_move 0 is out of range: expected 1 to 2000000",
        ),
        (
            "/api/analyse/live",
            r#"{"nodes_per_move": 2000001}"#,
            "expected 1 to 2000000",
        ),
    ] {
        let (status, reply) = server.post(path, body);
        assert_eq!(status, 400, "{path} {body}: {reply}");
        assert!(
            reply["error"].as_str().unwrap().contains(words),
            "{path} {body}: {reply}"
        );
    }
    // Each endpoint says what it expected, and refuses a body that is not an object.
    for (path, body, status, words) in [
        (
            "/api/solve",
            "[]",
            422,
            "the body must be a JSON object: a game like {",
        ),
        (
            "/api/analyse/live",
            "[]",
            422,
            "the body must be a JSON object: a game like {",
        ),
        (
            "/api/record/read",
            "[]",
            422,
            r#"must be a JSON object: a game record's text like {"text": "#,
        ),
        (
            "/api/record/read",
            r#"{"txt": "moves: []"}"#,
            422,
            "unknown field `txt`",
        ),
        (
            "/api/record/read",
            r#"{"txt": "moves: []"}"#,
            422,
            r#"expected JSON like {"text": "#,
        ),
        (
            "/api/record/read",
            r#"{"text": "#,
            400,
            r#"expected JSON like {"text": "#,
        ),
        (
            "/api/puzzles/puzzle-001/answer",
            "[]",
            422,
            r#"must be a JSON object: an answer like {"move": "#,
        ),
        (
            "/api/puzzles/puzzle-001/answer",
            r#"{"mv": "x"}"#,
            422,
            "unknown field `mv`",
        ),
        (
            "/api/puzzles/puzzle-001/answer",
            r#"{"mv": "x"}"#,
            422,
            r#"{"move": "<a move in the notation>"}"#,
        ),
    ] {
        let (got, reply) = server.post(path, body);
        assert_eq!(got, status, "{path} {body}: {reply}");
        let error = reply["error"].as_str().unwrap();
        assert!(error.contains(words), "{path} {body}: {reply}");
        if path != "/api/solve" && path != "/api/analyse/live" {
            assert!(!error.contains("\"rules\""), "{path} {body}: {reply}");
        }
    }
    // A whole game judged: every move, with the value plot.
    let (status, body) = server.post(
        "/api/analyse",
        r#"{"moves": ["light:cathedral:e5,f4,f5,f6,f7,g5", "dark:castle:b2,b3,c2,d2,d3", "light:infirmary:h2,i1,i2,i3,j2"], "nodes_per_move": 2000}"#,
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["analysis"]["plies"].as_array().unwrap().len(), 3);
    assert!(body["plot_svg"].as_str().unwrap().starts_with("<svg"));
    assert_eq!(body["complete"], true);
    assert_eq!(body["judged"], 4);
    assert_eq!(body["total"], 4);
    assert!(body["stopped_reason"].is_null());
    let (status, body) = server.post("/api/analyse", r#"{"moves": [], "nodes_per_move": 0}"#);
    assert_eq!(status, 400, "{body}");
    // Records: read (every move checked, errors located) and written back canonically.
    let example = std::fs::read_to_string("puzzles/games/example.yaml").unwrap();
    let (status, body) = server.post(
        "/api/record/read",
        &serde_json::json!({ "text": example }).to_string(),
    );
    assert_eq!(status, 200, "{body}");
    let game = &body["games"][0];
    assert_eq!(game["light"], "Ann");
    assert_eq!(game["moves"].as_array().unwrap().len(), 4);
    assert_eq!(game["comments"][2], "a corner claim in the making");
    let (status, body) = server.post(
        "/api/record/write",
        &serde_json::json!({ "rules": "classic", "moves": game["moves"] }).to_string(),
    );
    assert_eq!(status, 200, "{body}");
    let written = body["text"].as_str().unwrap();
    let again = cathedral::file::parse_records("written", written).unwrap();
    assert_eq!(again[0].moves.len(), 4);
    // The metadata and the comments go back into a saved record as they came out.
    assert_eq!(game["meta"]["light"], "Ann");
    let (status, body) = server.post(
        "/api/record/write",
        &serde_json::json!({ "rules": "classic", "moves": game["moves"], "meta": game["meta"], "comments": game["comments"] }).to_string(),
    );
    assert_eq!(status, 200, "{body}");
    let again = cathedral::file::parse_records("written", body["text"].as_str().unwrap()).unwrap();
    assert_eq!(again[0].light.as_deref(), Some("Ann"));
    assert_eq!(again[0].event, game["event"].as_str().map(str::to_string));
    assert_eq!(
        again[0].moves[2].comment.as_deref(),
        Some("a corner claim in the making")
    );
    let (status, body) = server.post(
        "/api/record/write",
        r#"{"moves": [], "comments": ["one too many"]}"#,
    );
    assert_eq!(status, 400, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("at most one comment per move"),
        "{body}"
    );
    let (status, body) = server.post(
        "/api/record/read",
        r#"{"text": "moves:\n- light:cathedral:e5,f4,f5,f6,f7,g5\n- dark:inn:e5,e6,d6\n"}"#,
    );
    assert_eq!(status, 400, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .starts_with("record:3:3: move 2"),
        "{body}"
    );
}

#[test]
fn a_record_of_hundreds_of_games_opens_and_a_huge_one_is_refused_in_words() {
    let server = Server::start(&[]);
    let one = std::fs::read_to_string("puzzles/games/example.yaml").unwrap();
    // 1,000 games, about 0.5 MB: more than the 256 KiB of any other request.
    let many = vec![one.as_str(); 1000].join("---\n");
    assert!(many.len() > 256 * 1024);
    let body = serde_json::json!({ "text": many }).to_string();
    let (status, answer) = server.post("/api/record/read", &body);
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["games"].as_array().unwrap().len(), 1000);
    // Past 16 MiB: the words say what is wrong, not a request size.
    let huge = serde_json::json!({ "text": "#".repeat(17 * 1024 * 1024) }).to_string();
    let (status, answer) = server.post("/api/record/read", &huge);
    assert_eq!(status, 413, "{answer}");
    assert_eq!(
        answer["error"],
        "the file is too large to open here (more than 16 MiB)"
    );
    // Other requests keep their limit.
    let (status, answer) = server.post("/api/position", &body);
    assert_eq!(status, 413, "{answer}");
}

#[test]
fn records_carry_marks_and_variations_both_ways() {
    let server = Server::start(&[]);
    // A variation to move 2 with a variation to its own second move (move 3), and a second
    // variation to move 2.
    let text = "moves:
- 1. light:cathedral:e5,f4,f5,f6,f7,g5 !?
- move: 2. dark:castle:b2,b3,c2,d2,d3
  comment: solid
  variations:
  - - 2. dark:inn:a1,a2,b2 ?!
    - move: 3. light:inn:j10,j9,i9
      mark: \"!\"
      variations:
      - - 3. light:tavern:j1
        - 4. dark:tavern:a10 ??
  - - dark:inn:a10,a9,b9
- 3. light:infirmary:h2,i1,i2,i3,j2
";
    let (status, body) = server.post(
        "/api/record/read",
        &serde_json::json!({ "text": text }).to_string(),
    );
    assert_eq!(status, 200, "{body}");
    let game = &body["games"][0];
    assert_eq!(game["marks"], serde_json::json!(["!?", null, null]));
    assert_eq!(game["comments"][1], "solid");
    assert_eq!(
        game["variations"],
        serde_json::json!([
            {
                "ply": 2,
                "moves": ["dark:inn:a1,a2,b2", "light:inn:i9,j9,j10"],
                "comments": [null, null],
                "marks": ["?!", "!"],
                "shapes": [[], []],
                "variations": [{
                    "ply": 3,
                    "moves": ["light:tavern:j1", "dark:tavern:a10"],
                    "comments": [null, null],
                    "marks": [null, "??"],
                    "shapes": [[], []],
                    "variations": []
                }]
            },
            {
                "ply": 2,
                "moves": ["dark:inn:a9,a10,b9"],
                "comments": [null],
                "marks": [null],
                "shapes": [[]],
                "variations": []
            }
        ])
    );
    // Sent back as they came, they are written into the record: the same games.
    let request = serde_json::json!({
        "rules": "classic",
        "moves": game["moves"],
        "comments": game["comments"],
        "marks": game["marks"],
        "variations": game["variations"],
    });
    let (status, written) = server.post("/api/record/write", &request.to_string());
    assert_eq!(status, 200, "{written}");
    let written = written["text"].as_str().unwrap();
    assert_eq!(
        cathedral::file::parse_records("written", written).unwrap(),
        cathedral::file::parse_records("sent", text).unwrap()
    );
    // Words for marks are taken; every variation move is checked, errors say where in words.
    let refused = |change: &dyn Fn(&mut serde_json::Value)| {
        let mut request = request.clone();
        change(&mut request);
        let (status, body) = server.post("/api/record/write", &request.to_string());
        assert_eq!(status, 400, "{body}");
        assert!(body["refused_move"].is_null(), "{body}");
        body["error"].as_str().unwrap().to_string()
    };
    let error = refused(&|r| r["variations"][0]["moves"][1] = "light:inn:a1,a2,b2".into());
    assert!(
        error.starts_with(
            "move 3 of variation 1 to move 2 (`light:inn:a1,a2,b2`) cannot be played: "
        ),
        "{error}"
    );
    let error = refused(&|r| {
        r["variations"][0]["variations"][0]["moves"][1] = "dark:tavern:j1".into();
    });
    assert!(
        error.starts_with(
            "move 4 of the variation to move 3 in variation 1 to move 2 (`dark:tavern:j1`) cannot be played: "
        ),
        "{error}"
    );
    let error = refused(&|r| r["variations"][1]["ply"] = 4.into());
    assert!(
        error.starts_with("the variation to move 4: there is no move 4 for it to replace (the game has moves 1 to 3"),
        "{error}"
    );
    let error = refused(&|r| r["variations"][0]["variations"][0]["ply"] = 4.into());
    assert!(
        error.starts_with(
            "the variation to move 4 in variation 1 to move 2: there is no move 4 for it to replace (variation 1 to move 2 has moves 2 to 3;"
        ),
        "{error}"
    );
    let error = refused(&|r| r["marks"][2] = "!!!".into());
    assert!(
        error.starts_with(
            "the mark of move 3: `!!!` is not a mark: expected `!`, `?`, `!?`, `?!`, `!!` or `??`"
        ),
        "{error}"
    );
    let error = refused(&|r| r["variations"][1]["marks"] = serde_json::json!([null, "!"]));
    assert!(
        error.contains(
            "variation 2 to move 2: 2 marks for its 1 move: expected at most one mark per move"
        ),
        "{error}"
    );
    let error = refused(&|r| r["variations"][1]["moves"] = serde_json::json!([]));
    assert!(
        error.contains("variation 2 to move 2 has no moves"),
        "{error}"
    );
    let mut words = request.clone();
    words["marks"] = serde_json::json!(["interesting", "", "blunder"]);
    let (status, body) = server.post("/api/record/write", &words.to_string());
    assert_eq!(status, 200, "{body}");
    let again = cathedral::file::parse_records("w", body["text"].as_str().unwrap()).unwrap();
    let marks: Vec<_> = again[0].moves.iter().map(|m| m.mark).collect();
    use cathedral::file::Mark;
    assert_eq!(marks, [Some(Mark::Interesting), None, Some(Mark::Blunder)]);
    // A variation takes only its own fields.
    let mut unknown = request.clone();
    unknown["variations"][0]["note"] = "hm".into();
    let (status, body) = server.post("/api/record/write", &unknown.to_string());
    assert_eq!(status, 422, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("unknown field `note`"),
        "{body}"
    );
}

#[test]
fn records_carry_shapes_both_ways_and_refuse_a_bad_one_in_words() {
    let server = Server::start(&[]);
    let text = "shapes: [e5]
moves:
- light:cathedral:e5,f4,f5,f6,f7,g5
- move: dark:castle:b2,b3,c2,d2,d3
  shapes: [a1, red:d3-d5]
  variations:
  - - move: dark:inn:a1,a2,b2
      shapes: [blue:j10-a10]
";
    let (status, body) = server.post(
        "/api/record/read",
        &serde_json::json!({ "text": text }).to_string(),
    );
    assert_eq!(status, 200, "{body}");
    let game = &body["games"][0];
    assert_eq!(game["start_shapes"], serde_json::json!(["e5"]));
    assert_eq!(game["shapes"], serde_json::json!([[], ["a1", "red:d3-d5"]]));
    assert_eq!(
        game["variations"][0]["shapes"],
        serde_json::json!([["blue:j10-a10"]])
    );
    // Sent back as they came (as the page does), they are written into the record.
    let request = serde_json::json!({
        "rules": "classic",
        "moves": game["moves"],
        "shapes": game["shapes"],
        "start_shapes": game["start_shapes"],
        "variations": game["variations"],
    });
    let (status, written) = server.post("/api/record/write", &request.to_string());
    assert_eq!(status, 200, "{written}");
    assert_eq!(
        cathedral::file::parse_records("written", written["text"].as_str().unwrap()).unwrap(),
        cathedral::file::parse_records("sent", text).unwrap()
    );
    let refused = |change: &dyn Fn(&mut serde_json::Value)| {
        let mut request = request.clone();
        change(&mut request);
        let (status, body) = server.post("/api/record/write", &request.to_string());
        assert_eq!(status, 400, "{body}");
        body["error"].as_str().unwrap().to_string()
    };
    let error = refused(&|r| r["shapes"][1][1] = "red:d3-k5".into());
    assert!(
        error.starts_with("the shapes of move 2: `red:d3-k5` is not a shape: `k5` is not a cell"),
        "{error}"
    );
    let error = refused(&|r| r["start_shapes"] = serde_json::json!(["e5", "red:e5"]));
    assert!(
        error.starts_with("the shapes of the start position: `red:e5` is drawn twice"),
        "{error}"
    );
    let error = refused(&|r| r["variations"][0]["shapes"][0][0] = "j10-j10".into());
    assert!(
        error.starts_with(
            "the shapes of move 2 of the variation to move 2: `j10-j10` is not a shape"
        ),
        "{error}"
    );
    let error = refused(&|r| r["shapes"] = serde_json::json!([[], [], []]));
    assert!(
        error.contains(
            "3 lists of shapes for 2 moves: expected at most one list of shapes per move"
        ),
        "{error}"
    );
}

#[test]
fn searches_are_capped_and_stop_when_their_client_goes_away() {
    let server = Server::start(&["--max-searches", "1", "--max-search-time", "60s"]);
    let hard = format!(
        r#"{{"start": {}, "time_ms": 60000}}"#,
        start_of("puzzles/bench/t8-06.yaml")
    );
    // A long solve holds the only slot...
    let mut stream = TcpStream::connect(&server.address).unwrap();
    write!(
        stream,
        "POST /api/solve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{hard}",
        hard.len()
    )
    .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    let (status, body) = server.post("/api/solve", &hard);
    assert_eq!(status, 503, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("searches are running")
    );
    // The engine's move in play (a search of at most 2 s) still gets an answer, from the slot
    // kept for quick searches; a longer engine search is refused like the solve.
    let quick = format!(
        r#"{{"start": {}, "time_ms": 300, "level": 3}}"#,
        start_of("puzzles/bench/t8-06.yaml")
    );
    let (status, body) = server.post("/api/bestmove", &quick);
    assert_eq!(status, 200, "{body}");
    assert!(body["best_move"].is_string(), "{body}");
    let slow = format!(
        r#"{{"start": {}, "time_ms": 5000}}"#,
        start_of("puzzles/bench/t8-06.yaml")
    );
    let (status, body) = server.post("/api/bestmove", &slow);
    assert_eq!(status, 503, "{body}");
    // The page tries again after the second the answer asks for.
    let response = server.response("POST", "/api/analyse/live", "application/json", "{}");
    assert!(response.starts_with("HTTP/1.1 503"), "{response}");
    assert!(
        response
            .to_ascii_lowercase()
            .contains("\r\nretry-after: 1\r\n"),
        "{response}"
    );
    // ...until its client goes away: the slot is free again at once.
    drop(stream);
    let asked = Instant::now();
    loop {
        let (status, body) = server.post(
            "/api/solve",
            &format!(r#"{{"start": {}}}"#, start_of("puzzles/bench/t5-01.yaml")),
        );
        if status == 200 {
            assert_eq!(body["value"], 5);
            break;
        }
        assert!(
            asked.elapsed() < Duration::from_secs(10),
            "the abandoned solve still holds the slot: {body}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn the_trainer_serves_the_shipped_puzzles_and_checks_answers_exactly() {
    let server = Server::start(&[]);
    let (status, list) = server.request("GET", "/api/puzzles", "text/plain", "");
    assert_eq!(status, 200);
    let list: serde_json::Value = serde_json::from_str(&list).unwrap();
    let shipped = std::fs::read_dir("puzzles/teaching")
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "yaml")
        })
        .count();
    assert_eq!(list.as_array().unwrap().len(), shipped);
    let file =
        cathedral::file::load(std::path::Path::new("puzzles/teaching/puzzle-001.yaml")).unwrap();
    let solution = file
        .solution
        .clone()
        .expect("a shipped puzzle has its solution");
    let (status, one) = server.request("GET", "/api/puzzles/puzzle-001", "text/plain", "");
    assert_eq!(status, 200);
    let one: serde_json::Value = serde_json::from_str(&one).unwrap();
    assert_eq!(
        one["question"],
        file.puzzle.as_ref().unwrap().question.as_str()
    );
    // The stored answer is right; another legal move is wrong, with its loss and refutation.
    let (status, verdict) = server.post(
        "/api/puzzles/puzzle-001/answer",
        &serde_json::json!({ "move": solution.best_move.clone().unwrap() }).to_string(),
    );
    assert_eq!(status, 200, "{verdict}");
    assert_eq!(verdict["correct"], true);
    assert_eq!(verdict["loss"], 0);
    let mut moves = cathedral::MoveList::new();
    file.position.legal_moves(&mut moves);
    let best =
        cathedral::legality::parse_move(&file.position, solution.best_move.as_deref().unwrap())
            .unwrap();
    let other = moves
        .iter()
        .copied()
        .find(|&m| m != best)
        .expect("another move");
    let text = cathedral::notation::format_move_with_player(&file.position, other);
    let (status, verdict) = server.post(
        "/api/puzzles/puzzle-001/answer",
        &serde_json::json!({ "move": text }).to_string(),
    );
    assert_eq!(status, 200, "{verdict}");
    // A teaching puzzle has one best move by a margin: any other is wrong.
    assert_eq!(verdict["correct"], false, "{verdict}");
    assert!(verdict["loss"].as_i64().unwrap() > 0, "{verdict}");
    assert!(
        !verdict["reply_line"].as_array().unwrap().is_empty(),
        "{verdict}"
    );
    let (status, body) = server.post(
        "/api/puzzles/puzzle-001/answer",
        r#"{"move": "light:inn:z1"}"#,
    );
    assert_eq!(status, 400, "{body}");
    let (status, _) = server.request("GET", "/api/puzzles/puzzle-999", "text/plain", "");
    assert_eq!(status, 404);
}

#[test]
fn the_trainer_can_serve_a_folder_of_puzzles_instead() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["puzzle-003.yaml", "puzzle-007.yaml"] {
        std::fs::copy(format!("puzzles/teaching/{name}"), dir.path().join(name)).unwrap();
    }
    std::fs::write(dir.path().join("notes.yaml"), "to_move: light\n").unwrap();
    let folder = dir.path().to_str().unwrap().to_string();
    let server = Server::start(&["--puzzles", &folder]);
    let (status, list) = server.request("GET", "/api/puzzles", "text/plain", "");
    assert_eq!(status, 200);
    let list: serde_json::Value = serde_json::from_str(&list).unwrap();
    let names: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["puzzle-003", "puzzle-007"], "only the puzzle files");
    drop(server);
    // A folder without puzzles is refused at start.
    let empty = tempfile::tempdir().unwrap();
    let status = Command::new(assert_cmd::cargo::cargo_bin("cathedral"))
        .args(["serve", "--port", "0", "--puzzles"])
        .arg(empty.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(3));
}

#[test]
fn placements_are_legal_or_refused_with_the_reason() {
    let server = Server::start(&[]);
    let game = r#""moves": ["light:cathedral:e5,f4,f5,f6,f7,g5", "dark:inn:a2,b2,b3", "light:inn:i9,i10,j9", "dark:tavern:b1"]"#;
    let (status, body) = server.post(
        "/api/placements",
        &format!(r#"{{{game}, "piece": "tavern"}}"#),
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["owner"], "light");
    let placements = body["placements"].as_array().unwrap();
    assert_eq!(placements.len(), 100, "a Tavern fits on every cell");
    let on = |cell: &str| {
        placements
            .iter()
            .find(|p| p["cells"] == serde_json::json!([cell]))
            .unwrap()
    };
    assert_eq!(on("e2")["legal"], true);
    assert_eq!(on("a1")["code"], "opponent-territory");
    assert_eq!(
        on("a1")["reason"],
        "a1 is Dark's territory: Light may not build there"
    );
    assert_eq!(on("b1")["code"], "occupied");
    assert_eq!(on("f5")["reason"], "f5 is already covered by Cathedral");
    // The legal ones are exactly the legal moves of that building.
    let (_, position) = server.post("/api/position", &format!("{{{game}}}"));
    let legal = placements.iter().filter(|p| p["legal"] == true).count();
    assert_eq!(
        legal as u64,
        position["moves"]["per_piece"]["tavern"].as_u64().unwrap()
    );
    // The editor asks for any player's building on free cells, whoever is to move.
    let (status, body) = server.post(
        "/api/placements",
        &format!(r#"{{{game}, "piece": "tavern", "owner": "dark"}}"#),
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["owner"], "dark");
    let free = body["placements"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["legal"] == true)
        .count();
    assert_eq!(free, 100 - 6 - 3 - 3 - 1, "every free cell");
    for (extra, words) in [
        (r#""piece": "queen""#, "queen"),
        (r#""piece": "tavern", "owner": "green""#, "not a player"),
        (r#""moves": []"#, "say which building"),
    ] {
        let (status, body) = server.post("/api/placements", &format!("{{{extra}}}"));
        assert_eq!(status, 400, "{extra}: {body}");
        assert!(
            body["error"].as_str().unwrap().contains(words),
            "{extra}: {body}"
        );
    }
}

/// The events of a streamed response: (name, data).
fn events(text: &str) -> Vec<(String, serde_json::Value)> {
    text.split("\n\n")
        .filter_map(|block| {
            let name = block.lines().find_map(|l| l.strip_prefix("event: "))?;
            let data = block.lines().find_map(|l| l.strip_prefix("data: "))?;
            Some((name.to_string(), serde_json::from_str(data).unwrap()))
        })
        .collect()
}

#[test]
fn a_live_solve_streams_progress_and_stops_on_request() {
    let server = Server::start(&["--max-searches", "1", "--max-search-time", "60s"]);
    // A short solve: started, then the result with the stored value and the line explained.
    let (status, text) = server.request(
        "POST",
        "/api/solve/live",
        "application/json",
        &format!(r#"{{"start": {}}}"#, start_of("puzzles/bench/t5-01.yaml")),
    );
    assert_eq!(status, 200, "{text}");
    let got = events(&text);
    assert_eq!(got[0].0, "started");
    let (name, result) = got.last().unwrap();
    assert_eq!(name, "result");
    assert_eq!(result["value"], 5);
    assert!(
        result["verdict"]
            .as_str()
            .unwrap()
            .contains("to move wins by 5")
    );
    assert_eq!(
        result["line"].as_array().unwrap().len(),
        result["best_line"].as_array().unwrap().len()
    );
    // A long one: progress while it works; Stop ends it with what was proven so far.
    let hard = format!(
        r#"{{"start": {}, "time_ms": 60000}}"#,
        start_of("puzzles/bench/t8-06.yaml")
    );
    let mut stream = TcpStream::connect(&server.address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    write!(
        stream,
        "POST /api/solve/live HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{hard}",
        hard.len()
    )
    .unwrap();
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut seen = String::new();
    let mut line = String::new();
    while !seen.contains("event: progress") {
        line.clear();
        assert!(reader.read_line(&mut line).unwrap() > 0, "{seen}");
        seen.push_str(&line);
    }
    let id = seen
        .split("\"id\":")
        .nth(1)
        .and_then(|rest| rest.split([',', '}']).next())
        .unwrap()
        .to_string();
    // The slot is taken while it runs.
    let (status, _) = server.post("/api/solve", &hard);
    assert_eq!(status, 503);
    let stopped_at = Instant::now();
    let (status, body) = server.post(&format!("/api/solve/live/{id}/stop"), "{}");
    assert_eq!(status, 200, "{body}");
    let mut rest = String::new();
    reader.read_to_string(&mut rest).unwrap();
    assert!(stopped_at.elapsed() < Duration::from_secs(10));
    seen.push_str(&rest);
    let got = events(&seen);
    let progress = got.iter().find(|(n, _)| n == "progress").unwrap();
    assert!(progress.1["nodes"].as_u64().unwrap() > 0);
    let (name, result) = got.last().unwrap();
    assert_eq!(name, "result", "{seen}");
    assert_eq!(result["complete"], false);
    assert!(result["lower"].as_i64().unwrap() <= result["upper"].as_i64().unwrap());
    let (status, body) = server.post(&format!("/api/solve/live/{id}/stop"), "{}");
    assert_eq!(status, 404, "a finished solve: {body}");
    // A live solve whose client leaves frees its slot.
    let mut stream = TcpStream::connect(&server.address).unwrap();
    write!(
        stream,
        "POST /api/solve/live HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{hard}",
        hard.len()
    )
    .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    drop(stream);
    let left = Instant::now();
    loop {
        let (status, body) = server.post(
            "/api/solve",
            &format!(r#"{{"start": {}}}"#, start_of("puzzles/bench/t3-01.yaml")),
        );
        if status == 200 {
            break;
        }
        assert!(
            left.elapsed() < Duration::from_secs(10),
            "the abandoned live solve still holds the slot: {body}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A game of `moves` moves from the empty board: the first legal move each time.
fn first_moves(moves: usize) -> Vec<String> {
    let mut position = cathedral::Position::new(cathedral::Rules::CLASSIC);
    let mut played = Vec::new();
    while played.len() < moves && !position.is_game_over() {
        let mut list = cathedral::MoveList::new();
        position.legal_moves(&mut list);
        let mv = list.iter().copied().next().unwrap();
        played.push(cathedral::notation::format_move_with_player(&position, mv));
        position.play(mv);
    }
    played
}

/// Starts a streamed request; returns the reader of its response.
fn start_stream(server: &Server, path: &str, body: &str) -> BufReader<TcpStream> {
    let mut stream = TcpStream::connect(&server.address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    write!(
        stream,
        "POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    BufReader::new(stream)
}

/// Reads a stream until `until` is in what was read; returns all that was read.
fn read_until(reader: &mut BufReader<TcpStream>, until: &str) -> String {
    let mut seen = String::new();
    let mut line = String::new();
    while !seen.contains(until) {
        line.clear();
        assert!(reader.read_line(&mut line).unwrap() > 0, "{seen}");
        seen.push_str(&line);
    }
    seen
}

#[test]
fn a_live_analysis_streams_each_move_judged_and_stops_on_request_or_in_time() {
    let server = Server::start(&["--max-searches", "1", "--max-search-time", "60s"]);
    // A short game: every move judged in order, then the same analysis as /api/analyse.
    let game = serde_json::json!({ "moves": first_moves(4), "nodes_per_move": 2000 });
    let (status, text) = server.request(
        "POST",
        "/api/analyse/live",
        "application/json",
        &game.to_string(),
    );
    assert_eq!(status, 200, "{text}");
    let got = events(&text);
    assert_eq!(got[0].0, "started", "{text}");
    assert_eq!(got[0].1["total"], 5, "{text}");
    assert_eq!(got[0].1["moves"], 4, "{text}");
    assert_eq!(got[0].1["time_ms"], 60000, "{text}");
    let progress: Vec<&serde_json::Value> = got
        .iter()
        .filter(|(n, _)| n == "progress")
        .map(|(_, d)| d)
        .collect();
    // A move is settled (and streamed) once the position after it is judged and its doubts are
    // cleared by the second stage: the moves come in order, each once, the last two with the
    // last position.
    let streamed: Vec<&serde_json::Value> = progress
        .iter()
        .filter(|e| !e["ply"].is_null())
        .map(|e| &e["ply"])
        .collect();
    let numbers: Vec<u64> = streamed
        .iter()
        .map(|p| p["ply"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, [1, 2, 3, 4], "the moves complete in order: {text}");
    for pair in progress.windows(2) {
        assert!(
            pair[0]["judged"].as_u64() <= pair[1]["judged"].as_u64(),
            "{text}"
        );
    }
    for event in &progress {
        assert_eq!(event["total"], 5, "{text}");
    }
    assert_eq!(progress[0]["judged"], 1, "{text}");
    assert!(progress[0]["ply"].is_null(), "{text}");
    assert_eq!(progress.last().unwrap()["judged"], 5, "{text}");
    let (name, result) = got.last().unwrap();
    assert_eq!(name, "result", "{text}");
    assert_eq!(result["complete"], true, "{text}");
    assert_eq!(result["judged"], 5);
    assert!(result["stopped_reason"].is_null());
    let plies = result["analysis"]["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 4);
    for (ply, streamed) in plies.iter().zip(&streamed) {
        assert_eq!(ply, *streamed, "a move as it was streamed");
    }
    // With a node budget the answer is the same as the one-shot analysis's.
    let (status, whole) = server.post("/api/analyse", &game.to_string());
    assert_eq!(status, 200, "{whole}");
    assert_eq!(whole["analysis"], result["analysis"]);
    assert_eq!(whole["plot_svg"], result["plot_svg"]);

    // A long one: Stop ends it with the moves judged so far.
    let moves = first_moves(30);
    let total = moves.len() as u64 + 1;
    let long = serde_json::json!({ "moves": moves, "nodes_per_move": 2_000_000 });
    let mut reader = start_stream(&server, "/api/analyse/live", &long.to_string());
    let mut seen = read_until(&mut reader, "event: progress");
    let id = seen
        .split("\"id\":")
        .nth(1)
        .and_then(|rest| rest.split([',', '}']).next())
        .unwrap()
        .to_string();
    // The slot is taken while it runs.
    let (status, _) = server.post("/api/analyse", &long.to_string());
    assert_eq!(status, 503);
    let stopped_at = Instant::now();
    let (status, body) = server.post(&format!("/api/analyse/live/{id}/stop"), "{}");
    assert_eq!(status, 200, "{body}");
    let mut rest = String::new();
    reader.read_to_string(&mut rest).unwrap();
    assert!(stopped_at.elapsed() < Duration::from_secs(10));
    seen.push_str(&rest);
    let got = events(&seen);
    let (name, result) = got.last().unwrap();
    assert_eq!(name, "result", "{seen}");
    assert_eq!(result["complete"], false, "{seen}");
    assert_eq!(result["stopped_reason"], "stopped", "{seen}");
    let judged = result["judged"].as_u64().unwrap();
    assert!(judged >= 1 && judged < total, "{seen}");
    assert_eq!(result["total"], total);
    assert_eq!(
        result["analysis"]["plies"].as_array().unwrap().len() as u64,
        judged - 1,
        "the moves whose two positions were judged: {seen}"
    );
    assert!(result["plot_svg"].as_str().unwrap().starts_with("<svg"));
    let (status, body) = server.post(&format!("/api/analyse/live/{id}/stop"), "{}");
    assert_eq!(status, 404, "a finished analysis: {body}");
    assert!(body["error"].as_str().unwrap().contains("no analysis"));
    drop(server);

    // The server's longest search time bounds the whole analysis, not each position.
    let server = Server::start(&["--max-searches", "1", "--max-search-time", "2s"]);
    for path in ["/api/analyse/live", "/api/analyse"] {
        let asked = Instant::now();
        let (status, text) = server.request("POST", path, "application/json", &long.to_string());
        assert_eq!(status, 200, "{text}");
        assert!(
            asked.elapsed() < Duration::from_secs(8),
            "{path}: {:?}",
            asked.elapsed()
        );
        let result = if path == "/api/analyse" {
            serde_json::from_str(&text).unwrap()
        } else {
            events(&text).last().unwrap().1.clone()
        };
        assert_eq!(result["complete"], false, "{path}: {result}");
        assert_eq!(result["stopped_reason"], "time", "{path}: {result}");
        assert!(
            result["judged"].as_u64().unwrap() < total,
            "{path}: {result}"
        );
    }
}

#[test]
fn a_stopped_solve_claims_no_result() {
    let server = Server::start(&[]);
    let start = start_of("puzzles/bench/t8-03.yaml");
    // From too short to finish to long enough: a solve that did not finish claims no result, and
    // a value whose line was not written out before the stop says so.
    let mut stopped = 0;
    for time_ms in [1, 5, 20, 50, 100, 200, 400] {
        let (status, body) = server.post(
            "/api/solve",
            &format!(r#"{{"start": {start}, "time_ms": {time_ms}}}"#),
        );
        assert_eq!(status, 200, "{body}");
        let verdict = body["verdict"].as_str().unwrap();
        if body["value"].is_null() {
            stopped += 1;
            assert_eq!(body["complete"], false, "{body}");
            assert!(verdict.contains("not proven"), "{time_ms} ms: {verdict}");
            for claim in ["wins", "draws", "loses"] {
                assert!(!verdict.contains(claim), "{time_ms} ms: {verdict}");
            }
            assert!(body["solution"].is_null(), "{body}");
        } else if body["line"].as_array().unwrap().is_empty() {
            // The bounds met (proven) but the time ran out before the line was written out:
            // the verdict says exactly that, and no solution block is offered.
            assert!(
                verdict.contains("proven: the bounds met")
                    && verdict.contains("before it wrote out the best line"),
                "{time_ms} ms: a value without its line must say why: {verdict}"
            );
            assert!(body["solution"].is_null(), "{body}");
        }
    }
    assert!(stopped > 0, "no solve stopped early");
}

/// The territory view (`docs/analysis.md`, "Territory view"): every cell, shares that are
/// probabilities, the same map for the same seed, errors in words.
#[test]
fn the_territory_view_answers_every_cell_and_refuses_in_words() {
    let server = Server::start(&[]);
    let game = r#""moves": ["light:cathedral:e5,f4,f5,f6,f7,g5", "dark:castle:b2,b3,c2,d2,d3", "light:infirmary:h2,i1,i2,i3,j2", "dark:tower:h9,h10,i8,i9,j8"]"#;
    let (status, body) = server.post(
        "/api/territory",
        &format!(r#"{{{game}, "playouts": 4, "nodes_per_move": 300, "seed": 5}}"#),
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["playouts"], 4);
    assert_eq!(body["nodes_per_move"], 300);
    assert_eq!(body["seed"], 5);
    assert_eq!(body["judgement"], "estimate");
    assert_eq!(body["complete"], true);
    let cells = body["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 100);
    assert_eq!(cells[0]["cell"], "a1");
    assert_eq!(cells[1]["cell"], "b1");
    assert_eq!(cells[99]["cell"], "j10");
    for cell in cells {
        let (light, dark) = (
            cell["light"].as_f64().unwrap(),
            cell["dark"].as_f64().unwrap(),
        );
        assert!(
            light >= 0.0 && dark >= 0.0 && light + dark <= 1.0 + 1e-9,
            "{cell}"
        );
        assert!(cell["settled"].is_boolean());
    }
    let expected: f64 = cells.iter().map(|c| c["light"].as_f64().unwrap()).sum();
    assert!((body["light_expected"].as_f64().unwrap() - expected).abs() < 1e-6);
    assert!(body["dark_expected"].as_f64().unwrap() > 0.0);
    // The same request, the same map; the defaults answer too.
    let (_, again) = server.post(
        "/api/territory",
        &format!(r#"{{{game}, "playouts": 4, "nodes_per_move": 300, "seed": 5}}"#),
    );
    assert_eq!(again, body);
    let (status, body) = server.post("/api/territory", r#"{"nodes_per_move": 100}"#);
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["playouts"], 16);
    assert_eq!(body["seed"], 1);
    // Errors: a status and words.
    for (request, status, words) in [
        (
            r#"{"playouts": 0}"#,
            400,
            "playouts 0 is out of range: expected 1 to 64",
        ),
        (r#"{"playouts": 65}"#, 400, "expected 1 to 64"),
        (r#"{"playouts": -1}"#, 400, "out of range"),
        (
            r#"{"nodes_per_move": 99}"#,
            400,
            "nodes_per_move 99 is out of range: expected 100 to 200000",
        ),
        (r#"{"nodes_per_move": 200001}"#, 400, "out of range"),
        (r#"{"moves": ["light:inn:a1"]}"#, 400, "cannot be played"),
        (r#"{"rules": "chess"}"#, 400, "not a rule variant"),
        ("[1, 2]", 422, "must be a JSON object"),
        (r#""moves""#, 422, "must be a JSON object"),
        (r#"{"playouts": "many"}"#, 422, "not a game"),
        (r#"{"time_ms": 100}"#, 422, "not a game"),
    ] {
        let (got, reply) = server.post("/api/territory", request);
        assert_eq!(got, status, "{request}: {reply}");
        let error = reply["error"].as_str().unwrap_or_default();
        assert!(error.contains(words), "{request}: {error}");
    }
}

#[test]
fn puzzles_from_a_game_are_made_at_once_and_their_answers_checked() {
    let server = Server::start(&[]);
    // The hand-made record of tests/puzzles_from_games.rs: Light blunders at move 21.
    let games =
        cathedral::file::load_records(std::path::Path::new("tests/data/blunder-games.yaml"))
            .unwrap();
    let body = |game: usize, all: bool| {
        serde_json::json!({ "rules": "classic", "moves": games[game].move_texts(), "all": all })
            .to_string()
    };
    let (status, made) = server.post("/api/puzzles/from-game", &body(0, false));
    assert_eq!(status, 200, "{made}");
    let puzzles = made["puzzles"].as_array().unwrap();
    assert_eq!(puzzles.len(), 1, "{made}");
    let puzzle = &puzzles[0];
    assert_eq!(puzzle["ply"], 21);
    assert_eq!(puzzle["mover"], "light");
    assert_eq!(puzzle["best"], "light:stable:g1,h1");
    assert_eq!(puzzle["played"], "light:inn:a4,a5,b5");
    assert_eq!(puzzle["loss"], 2);
    assert_eq!(
        puzzle["question"],
        "Light to play and lose by only 7 squares"
    );
    assert!(!puzzle["hints"].as_array().unwrap().is_empty());
    assert!(puzzle["difficulty"].is_string() && puzzle["themes"].is_array());
    let tried = made["tried"].as_u64().unwrap();
    assert!(
        tried > 1 && made["skipped"].as_u64().unwrap() < tried,
        "{made}"
    );
    // Its start is a puzzle file: it loads, with the move played and the game's move number.
    let start = puzzle["start"].as_str().unwrap();
    let file = cathedral::file::parse_str("start", start).unwrap();
    let game = file.puzzle.unwrap().game.unwrap();
    assert_eq!((game.move_number, game.played_value), (21, -9));
    // ... and the game starts from it on the board.
    let (status, position) = server.post(
        "/api/position",
        &serde_json::json!({ "start": start }).to_string(),
    );
    assert_eq!(status, 200, "{position}");
    // With all, the move found over the board counts too (game 2's last move).
    let (status, all) = server.post("/api/puzzles/from-game", &body(1, true));
    assert_eq!(status, 200, "{all}");
    let last = all["puzzles"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["ply"] == 25)
        .expect("the move played was the one best move");
    assert_eq!(last["loss"], 0);
    assert_eq!(last["best"], last["played"]);

    // Every move gets a verdict in words (issue 75): the blunder made the puzzle, the opening
    // moves were too early, passes have nothing to find; a longer search is offered only where
    // it may still make a puzzle.
    let moves = made["moves"].as_array().unwrap();
    assert_eq!(moves.len(), games[0].moves.len(), "{made}");
    let at = |ply: usize| &moves[ply - 1];
    assert_eq!(at(21)["verdict"], "puzzle");
    assert_eq!(at(1)["verdict"], "too-early");
    assert_eq!(
        at(1)["reason"],
        "too early in the game to prove exactly: 14 buildings left in the larger hand, and the solver tries positions with 8 at most"
    );
    assert_eq!(
        at(1)["longer"],
        false,
        "14 buildings: beyond a longer search too"
    );
    assert_eq!(at(25)["verdict"], "pass");
    assert_eq!(at(16)["verdict"], "not-unique");
    assert_eq!(
        at(16)["reason"],
        "another move was just as good as the best: the puzzle would have no single answer"
    );
    for m in moves {
        let unsettled = ["unproven", "out-of-time"].contains(&m["verdict"].as_str().unwrap());
        if unsettled {
            assert_eq!(m["longer"], true, "{m}");
        }
    }
    assert_eq!(made["longer"], false);
    // A longer search of the moves asked for only: each move once, its verdict, no longer
    // search offered after it.
    let (status, longer) = server.post(
        "/api/puzzles/from-game",
        &serde_json::json!({ "rules": "classic", "moves": games[0].move_texts(), "longer": true, "plies": [21, 1, 21] })
            .to_string(),
    );
    assert_eq!(status, 200, "{longer}");
    assert_eq!(longer["longer"], true);
    let asked: Vec<_> = longer["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["ply"].as_u64().unwrap(),
                m["verdict"].as_str().unwrap().to_string(),
                m["longer"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        asked,
        [
            (1, "too-early".to_string(), false),
            (21, "puzzle".to_string(), false)
        ]
    );
    assert_eq!(longer["puzzles"].as_array().unwrap().len(), 1);
    assert_eq!(longer["puzzles"][0]["ply"], 21);

    // The answer to a puzzle sent with it: the same verdict as a shipped puzzle's.
    let answer = |mv: &str| {
        server.post(
            "/api/puzzles/answer",
            &serde_json::json!({ "start": start, "move": mv }).to_string(),
        )
    };
    let (status, verdict) = answer("light:inn:a4,a5,b5");
    assert_eq!(status, 200, "{verdict}");
    assert_eq!(verdict["correct"], false);
    assert_eq!(verdict["loss"], 2);
    assert_eq!(verdict["best_value"], -7);
    assert_eq!(verdict["played_value"], -9);
    assert_eq!(
        verdict["reply_moves"].as_array().unwrap().len(),
        game.refutation.len()
    );
    let (status, verdict) = answer("light:stable:g1,h1");
    assert_eq!(status, 200, "{verdict}");
    assert_eq!(verdict["correct"], true);
    assert_eq!(verdict["loss"], 0);
    let shipped = std::fs::read_to_string("puzzles/teaching/puzzle-001.yaml").unwrap();
    let best = cathedral::file::parse_str("p", &shipped)
        .unwrap()
        .solution
        .unwrap()
        .best_move
        .unwrap();
    let (status, by_name) = server.post(
        "/api/puzzles/puzzle-001/answer",
        &serde_json::json!({ "move": best }).to_string(),
    );
    assert_eq!(status, 200, "{by_name}");
    let (_, by_start) = server.post(
        "/api/puzzles/answer",
        &serde_json::json!({ "start": shipped, "move": best }).to_string(),
    );
    // The shipped puzzle's verdict comes from its stored blocks, the posted one is solved again
    // (a posted file's claims are not trusted): the same verdict and values; the lines may be
    // different optimal lines.
    for field in [
        "correct",
        "loss",
        "best_value",
        "played_value",
        "best",
        "played",
    ] {
        assert_eq!(
            by_name[field], by_start[field],
            "{field}: {by_name} {by_start}"
        );
    }
    let illegal = serde_json::json!({ "start": shipped, "move": "light:inn:z1" }).to_string();

    // Errors: a status and words.
    for (path, request, status, words) in [
        ("from-game", r#"{"all": "yes"}"#, 422, "not a game"),
        (
            "from-game",
            r#"{"moves": [], "colour": 1}"#,
            422,
            "not a game",
        ),
        (
            "from-game",
            r#"{"moves": ["light:inn:z1"]}"#,
            400,
            "cannot be played",
        ),
        (
            "from-game",
            r#"{"time_ms": 0}"#,
            400,
            "time_ms 0 is out of range",
        ),
        ("from-game", "[1]", 422, "must be a JSON object"),
        (
            "from-game",
            r#"{"moves": [], "longer": 1}"#,
            422,
            "`longer` must be true or false",
        ),
        (
            "from-game",
            r#"{"moves": ["light:cathedral:e5,f4,f5,f6,f7,g5"], "plies": [2]}"#,
            422,
            "`plies` holds 2, not a move of this game (1 to 1)",
        ),
        (
            "from-game",
            r#"{"moves": [], "plies": "all"}"#,
            422,
            "`plies` must be a list of move numbers",
        ),
        (
            "answer",
            r#"{"start": "to_move: blue", "move": "light:tavern:a1"}"#,
            400,
            "the start does not load",
        ),
        (
            "answer",
            r#"{"move": "light:tavern:a1"}"#,
            422,
            "not a puzzle and an answer",
        ),
        ("answer", illegal.as_str(), 400, "cannot be played here"),
    ] {
        let (got, reply) = server.post(&format!("/api/puzzles/{path}"), request);
        assert_eq!(got, status, "{path} {request}: {reply}");
        let error = reply["error"].as_str().unwrap_or_default();
        assert!(error.contains(words), "{path} {request}: {error}");
    }
}

/// The learner's rating update (`docs/puzzles.md`, "Ratings").
#[test]
fn the_rating_endpoint_answers_and_refuses_in_words() {
    let server = Server::start(&[]);
    let body = |solved: bool| {
        format!(
            r#"{{"learner": {{"rating": 1500, "deviation": 350, "volatility": 0.06}}, "puzzle": {{"rating": 1700, "deviation": 80}}, "solved": {solved}}}"#
        )
    };
    let (status, won) = server.post("/api/rating", &body(true));
    assert_eq!(status, 200, "{won}");
    let expected = cathedral::puzzle::rating::update(
        cathedral::puzzle::rating::Glicko::LEARNER,
        cathedral::puzzle::rating::Glicko {
            rating: 1700.0,
            deviation: 80.0,
            volatility: 0.06,
        },
        true,
    );
    let close = |json: &serde_json::Value, want: f64| (json.as_f64().unwrap() - want).abs() < 0.06;
    assert!(close(&won["learner"]["rating"], expected.0.rating), "{won}");
    assert!(
        close(&won["learner"]["deviation"], expected.0.deviation),
        "{won}"
    );
    assert!(close(&won["puzzle"]["rating"], expected.1.rating), "{won}");
    assert!(won["learner"]["volatility"].as_f64().unwrap() > 0.0);
    assert!(won["learner"]["rating"].as_f64().unwrap() > 1500.0);
    assert!(won["puzzle"]["rating"].as_f64().unwrap() < 1700.0);
    let (_, lost) = server.post("/api/rating", &body(false));
    assert!(
        lost["learner"]["rating"].as_f64().unwrap() < 1500.0,
        "{lost}"
    );
    // A new learner may leave its rating out.
    let (status, new) = server.post(
        "/api/rating",
        r#"{"puzzle": {"rating": 1700, "deviation": 80}, "solved": true}"#,
    );
    assert_eq!(status, 200, "{new}");
    assert_eq!(new["learner"], won["learner"]);
    for (request, words) in [
        (
            r#"{"learner": {"rating": 9000}, "puzzle": {"rating": 1500}, "solved": true}"#,
            "learner.rating 9000 is out of range: expected 0 to 4000",
        ),
        (
            r#"{"puzzle": {"rating": 1500, "deviation": 0}, "solved": true}"#,
            "puzzle.deviation 0 is out of range",
        ),
        (
            r#"{"puzzle": {"rating": 1500, "volatility": 2}, "solved": true}"#,
            "puzzle.volatility 2 is out of range",
        ),
        (
            r#"{"puzzle": {"rating": 1500}}"#,
            "the body is not a rating update",
        ),
        (
            r#"{"puzzle": {"rating": "high"}, "solved": true}"#,
            "the body is not a rating update",
        ),
        ("[1, 2]", "the body must be a JSON object"),
    ] {
        let (status, answer) = server.post("/api/rating", request);
        assert!((400..500).contains(&status), "{request}: {status}");
        let error = answer["error"].as_str().unwrap_or_default();
        assert!(error.contains(words), "{request}: {error}");
    }
}

/// A server whose standard output is closed before it prints its address keeps serving (it once
/// panicked on the broken pipe and died).
#[test]
fn the_server_survives_a_closed_standard_output() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("cathedral"))
        .args(["serve", "--port", &port.to_string()])
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the server");
    drop(child.stdout.take());
    let server = Server {
        _process: common::server::Server(child),
        address: format!("127.0.0.1:{port}"),
    };
    let started = Instant::now();
    let (status, body) = loop {
        match TcpStream::connect(&server.address) {
            Ok(_) => break server.request("GET", "/api/health", "text/plain", ""),
            Err(_) if started.elapsed() < Duration::from_secs(30) => {
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(e) => panic!("the server never listened: {e}"),
        }
    };
    assert_eq!(status, 200, "{body}");
    std::thread::sleep(Duration::from_millis(200));
    let (status, _) = server.request("GET", "/api/health", "text/plain", "");
    assert_eq!(
        status, 200,
        "the server still serves after its output closed"
    );
}

/// The opening explorer's endpoint: the book's moves at the start and after one of them, the
/// book's own move first among equals, nothing out of the book, a bad move refused.
#[test]
fn the_opening_book_is_served_for_the_explorer() {
    let server = Server::start(&[]);
    let (status, start) = server.post("/api/book", r#"{"moves": []}"#);
    assert_eq!(status, 200, "{start}");
    assert_eq!(start["in_book"], true);
    assert_eq!(start["mover"], "light");
    let moves = start["moves"].as_array().expect("moves");
    assert_eq!(moves.len(), 224, "every Cathedral placement");
    assert!(
        moves
            .windows(2)
            .all(|w| w[0]["margin"].as_f64() >= w[1]["margin"].as_f64())
    );
    let choice = start["choice"]
        .as_str()
        .expect("the book's move")
        .to_string();
    let (_, after) = server.post("/api/book", &format!(r#"{{"moves": ["{choice}"]}}"#));
    assert_eq!(after["in_book"], true);
    assert_eq!(after["mover"], "dark");
    assert!(
        after["moves"][0]["move"]
            .as_str()
            .unwrap()
            .starts_with("dark:")
    );
    let (_, out) = server.post(
        "/api/book",
        &format!(
            r#"{{"start": {}, "moves": []}}"#,
            start_of("puzzles/bench/t5-01.yaml")
        ),
    );
    assert_eq!(out["in_book"], false);
    assert!(out["moves"].as_array().unwrap().is_empty() && out["choice"].is_null());
    let (status, bad) = server.post("/api/book", r#"{"moves": ["dark:tavern:a1"]}"#);
    assert_eq!(status, 400, "{bad}");
}

#[test]
fn studies_are_served_and_their_answers_judged_by_the_rules_and_the_solver() {
    let server = Server::start(&[]);
    let (status, list) = server.request("GET", "/api/studies", "text/plain", "");
    assert_eq!(status, 200, "{list}");
    let list: serde_json::Value = serde_json::from_str(&list).unwrap();
    let mut lessons: Vec<String> = std::fs::read_dir("puzzles/learn")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    lessons.sort();
    let names: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, lessons, "the course in the order of its file names");
    let name = "02-walls-and-territory";
    let path = format!("puzzles/learn/{name}.yaml");
    let study = cathedral::file::load_study(std::path::Path::new(&path)).unwrap();
    let (status, view) = server.request("GET", &format!("/api/studies/{name}"), "text/plain", "");
    assert_eq!(status, 200, "{view}");
    let view: serde_json::Value = serde_json::from_str(&view).unwrap();
    let chapters = view["chapters"].as_array().unwrap();
    assert_eq!(chapters.len(), study.chapters.len());

    // An owned question: its cells are not sent; the rules engine judges the answer.
    let owned = chapters
        .iter()
        .find(|c| c["question"]["find"] == "owned")
        .expect("an owned question");
    assert!(owned["question"].get("cells").is_none(), "{owned}");
    let body = |cells: &[&str]| {
        serde_json::json!({
            "find": "owned",
            "start": owned["start"],
            "moves": owned["moves"],
            "after": owned["question"]["after"],
            "player": owned["question"]["player"],
            "cells": cells,
        })
        .to_string()
    };
    let (status, right) = server.post("/api/studies/answer", &body(&["a1", "a2", "b1", "b2"]));
    assert_eq!(status, 200, "{right}");
    assert_eq!(right["correct"], true, "{right}");
    let (_, wrong) = server.post("/api/studies/answer", &body(&["a1", "c5"]));
    assert_eq!(wrong["correct"], false, "{wrong}");
    assert_eq!(wrong["wrong"], serde_json::json!(["c5"]), "{wrong}");
    assert_eq!(
        wrong["missing"],
        serde_json::json!(["a2", "b1", "b2"]),
        "{wrong}"
    );
    let (status, refused) = server.post("/api/studies/answer", &body(&["k1"]));
    assert_eq!(status, 400, "{refused}");

    // A "find the move" question: the accepted move is right; a move the solver finds worse
    // is wrong, with its loss and its refutation.
    let (index, chapter) = chapters
        .iter()
        .enumerate()
        .find(|(_, c)| c["question"]["find"] == "move")
        .expect("a move question");
    let answer = chapter["question"]["answers"][0]
        .as_str()
        .unwrap()
        .to_string();
    let ask = |mv: &str| {
        server.post(
            "/api/studies/answer",
            &serde_json::json!({
                "find": "move",
                "start": chapter["start"],
                "moves": chapter["moves"],
                "answers": chapter["question"]["answers"],
                "move": mv,
            })
            .to_string(),
        )
    };
    let (status, verdict) = ask(&answer);
    assert_eq!(status, 200, "{verdict}");
    assert_eq!(verdict["correct"], true, "{verdict}");
    assert_eq!(verdict["accepted"], true, "{verdict}");
    let checked = cathedral::study_check::check_study(
        &study,
        &cathedral::study_check::StudyCheckOptions::default(),
    );
    let position = study.chapters[index].position;
    let mut moves = cathedral::MoveList::new();
    position.legal_moves(&mut moves);
    let worse = moves
        .iter()
        .map(|&m| cathedral::notation::format_move_with_player(&position, m))
        .find(|m| *m != answer && !checked[index].also_best.contains(m))
        .expect("a move that is not best");
    let (status, verdict) = ask(&worse);
    assert_eq!(status, 200, "{verdict}");
    assert_eq!(verdict["correct"], false, "{verdict}");
    assert_eq!(verdict["accepted"], false, "{verdict}");
    assert!(verdict["loss"].as_i64().unwrap() > 0, "{verdict}");

    // A study from its text; a broken one is refused with its line and column.
    let text = std::fs::read_to_string(&path).unwrap();
    let (status, read) = server.post(
        "/api/studies/read",
        &serde_json::json!({ "text": text }).to_string(),
    );
    assert_eq!(status, 200, "{read}");
    assert_eq!(read["chapters"], view["chapters"]);
    let broken = text.replacen("dark:tavern:g5", "dark:tavern:z5", 1);
    let (status, refused) = server.post(
        "/api/studies/read",
        &serde_json::json!({ "text": broken }).to_string(),
    );
    assert_eq!(status, 422, "{refused}");
    let message = refused["error"].as_str().unwrap();
    assert!(
        message.starts_with("study:") && message.contains("z5"),
        "{message}"
    );
    let (status, _) = server.request("GET", "/api/studies/nothing", "text/plain", "");
    assert_eq!(status, 404);

    // A "legal" question: the moves sent in the order of their notation (not the file's lists),
    // each judged by the rules engine with the rule that refuses it.
    let (_, placing) = server.request("GET", "/api/studies/01-placing-buildings", "text/plain", "");
    let placing: serde_json::Value = serde_json::from_str(&placing).unwrap();
    let chapter = &placing["chapters"][0];
    let moves: Vec<String> = serde_json::from_value(chapter["question"]["moves"].clone()).unwrap();
    let mut sorted = moves.clone();
    sorted.sort();
    assert_eq!(moves, sorted);
    let legal = |chosen: &[&str]| {
        server.post(
            "/api/studies/answer",
            &serde_json::json!({"find": "legal", "moves": chapter["moves"], "candidates": moves, "chosen": chosen})
                .to_string(),
        )
    };
    let (status, right) = legal(&[
        "light:cathedral:b2,c1,c2,c3,c4,d2",
        "light:cathedral:e5,f4,f5,f6,f7,g5",
    ]);
    assert_eq!(status, 200, "{right}");
    assert_eq!(right["correct"], true, "{right}");
    let (_, wrong) = legal(&["light:tavern:a1"]);
    assert_eq!(wrong["correct"], false, "{wrong}");
    let tavern = wrong["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["move"] == "light:tavern:a1")
        .unwrap();
    assert_eq!(tavern["legal"], false);
    assert_eq!(tavern["chosen"], true);
    assert!(
        tavern["reason"].as_str().unwrap().contains("Cathedral"),
        "{tavern}"
    );
    let (status, _) = legal(&["dark:castle:a1,a2,b2,c1,c2"]);
    assert_eq!(status, 400, "a chosen move that is not a candidate");

    // A "result" question: judged by the squares left unplaced.
    let (_, end) = server.request(
        "GET",
        "/api/studies/05-passing-and-the-end",
        "text/plain",
        "",
    );
    let end: serde_json::Value = serde_json::from_str(&end).unwrap();
    let chapter = &end["chapters"][1];
    assert_eq!(chapter["question"]["find"], "result");
    assert!(
        chapter["question"].get("winner").is_none(),
        "the answer is not sent"
    );
    let result = |winner: &str, margin: u32| {
        server.post(
            "/api/studies/answer",
            &serde_json::json!({"find": "result", "moves": chapter["moves"], "winner": winner, "margin": margin})
                .to_string(),
        )
    };
    let (status, right) = result("dark", 7);
    assert_eq!(status, 200, "{right}");
    assert_eq!(right["correct"], true, "{right}");
    assert_eq!(
        (
            right["light_unplaced"].as_u64(),
            right["dark_unplaced"].as_u64()
        ),
        (Some(7), Some(0))
    );
    let (_, wrong) = result("dark", 6);
    assert_eq!(wrong["correct"], false, "{wrong}");
    assert_eq!(wrong["words"], "Dark wins by 7 squares");
    let (status, _) = result("nobody", 1);
    assert_eq!(status, 400);
    // Before the end of the game there is no result to ask for.
    let (status, _) = server.post(
        "/api/studies/answer",
        r#"{"find": "result", "moves": [], "winner": "draw", "margin": 0}"#,
    );
    assert_eq!(status, 400);
}

#[test]
fn the_boards_analysis_gives_the_marks_of_cathedral_analyse() {
    let server = Server::start(&["--max-searches", "1", "--max-search-time", "60s"]);
    let moves = first_moves(20);
    let game = serde_json::json!({ "moves": moves, "nodes_per_move": 3000 });
    let (status, board) = server.post("/api/analyse", &game.to_string());
    assert_eq!(status, 200, "{board}");
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("game.yaml");
    std::fs::write(
        &record,
        format!(
            "moves:\n{}",
            moves.iter().map(|m| format!("- {m}\n")).collect::<String>()
        ),
    )
    .unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_cathedral"))
        .arg("analyse")
        .arg(&record)
        .args(["--nodes-per-move", "3000", "--json"])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let cli: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let plies = |v: &serde_json::Value| v.as_array().unwrap().clone();
    let (ours, theirs) = (plies(&board["analysis"]["plies"]), plies(&cli["plies"]));
    assert_eq!(ours.len(), 20);
    for (a, b) in ours.iter().zip(&theirs) {
        for field in ["loss", "mark", "loss_is_exact", "played"] {
            assert_eq!(a[field], b[field], "move {}: {field}", a["ply"]);
        }
        assert_eq!(
            a["before"]["deeper"], b["before"]["deeper"],
            "move {}",
            a["ply"]
        );
    }
}
