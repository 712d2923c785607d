//! The territory view (`cathedral::analysis::territory`): shares that are probabilities, settled
//! cells that never change owner in real games, the same map for the same seed, the exact final
//! board where the end is forced; and `POST /api/territory` against a running `cathedral serve`.

use cathedral::analysis::territory::{
    Playout, TerritoryMap, TerritoryOptions, owners, settled, territory,
};
use cathedral::boardgame::{SolveOptions, solve};
use cathedral::engine::Judgement;
use cathedral::file::{GameRecord, load_records};
use cathedral::{Bitboard, Cell, MoveList, Player, Position};
use std::collections::HashSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

fn games() -> Vec<GameRecord> {
    let mut games = load_records(Path::new("docs/analysis/engine-games.yaml")).unwrap();
    games.extend(load_records(Path::new("docs/analysis/independent-games.yaml")).unwrap());
    games
}

fn small(seed: u64) -> TerritoryOptions {
    TerritoryOptions {
        playouts: 4,
        nodes_per_move: 300,
        seed,
        ..TerritoryOptions::default()
    }
}

fn check_shares(map: &TerritoryMap) {
    assert_eq!(map.cells.len(), 100);
    for (cell, entry) in Cell::all().zip(&map.cells) {
        assert_eq!(entry.cell, cell);
        assert!((0.0..=1.0).contains(&entry.light), "{entry:?}");
        assert!((0.0..=1.0).contains(&entry.dark), "{entry:?}");
        assert!(entry.light + entry.dark <= 1.0 + 1e-9, "{entry:?}");
        if entry.settled {
            assert!(
                [(1.0, 0.0), (0.0, 1.0), (0.0, 0.0)].contains(&(entry.light, entry.dark)),
                "{entry:?}"
            );
        }
    }
    let light: f64 = map.cells.iter().map(|c| c.light).sum();
    let dark: f64 = map.cells.iter().map(|c| c.dark).sum();
    assert!((light - map.light_expected).abs() < 1e-9);
    assert!((dark - map.dark_expected).abs() < 1e-9);
    assert!(map.light_expected + map.dark_expected <= 100.0 + 1e-9);
}

#[test]
fn shares_are_probabilities_and_buildings_that_touch_are_settled() {
    let game = &games()[0];
    let positions = game.positions();
    for ply in [0, 1, 8, 16] {
        let position = positions[ply];
        let map = territory(&position, &small(1));
        check_shares(&map);
        assert_eq!(map.playouts, 4);
        assert!(map.complete);
        if ply < 16 {
            assert_eq!(map.judgement, Judgement::Estimate, "ply {ply}");
            assert_eq!(map.value, None);
        } else {
            // In the solver's reach: proven within the playouts' budget, and rightly so.
            assert_eq!(map.judgement, Judgement::Exact, "ply {ply}");
            let solution = solve(&position, &SolveOptions::default(), &|_| {});
            let light = match position.to_move() {
                Player::Light => solution.lower,
                Player::Dark => -solution.lower,
            };
            assert_eq!(map.value, Some(light));
        }
        // Two buildings of one player that touch can never be captured: settled, theirs.
        for player in Player::BOTH {
            let side = position.side(player);
            for (i, &a) in side.buildings.iter().enumerate() {
                let touching = side
                    .buildings
                    .iter()
                    .enumerate()
                    .any(|(j, &b)| i != j && b.any() && a.dilate8().intersects(b));
                if !a.any() || !touching {
                    continue;
                }
                for cell in a.cells() {
                    let entry = map.at(cell);
                    assert!(entry.settled, "ply {ply}: {cell}");
                    let share = if player == Player::Light {
                        entry.light
                    } else {
                        entry.dark
                    };
                    assert_eq!(share, 1.0, "ply {ply}: {cell}");
                }
            }
        }
    }
    // Nothing on the board yet: nothing is settled.
    let map = territory(&positions[0], &small(1));
    assert!(map.cells.iter().all(|c| !c.settled));
    // By ply 16 some buildings touch.
    let map = territory(&positions[16], &small(1));
    assert!(map.cells.iter().filter(|c| c.settled).count() >= 10);
}

/// The soundness of `settled` on every position of 33 recorded games: a settled cell ends as
/// it is now, whatever is played.
#[test]
fn settled_cells_never_change_owner_in_recorded_games() {
    let mut checked = 0;
    for (g, game) in games().iter().enumerate() {
        let end = game.final_position();
        let [light_end, dark_end] = owners(&end);
        for (ply, position) in game.positions().iter().enumerate() {
            let ([light, dark], cathedral) = settled(position);
            assert!(light.is_subset(light_end), "game {g} ply {ply}: Light");
            assert!(dark.is_subset(dark_end), "game {g} ply {ply}: Dark");
            if cathedral {
                assert_eq!(end.cathedral(), position.cathedral(), "game {g} ply {ply}");
            }
            checked += (light | dark).count();
        }
    }
    assert!(checked > 10_000, "{checked}");
}

#[test]
fn the_same_seed_gives_the_same_map() {
    let position = games()[1].positions()[10];
    let a = territory(&position, &small(7));
    let b = territory(&position, &small(7));
    assert_eq!(a, b);
    assert_eq!(a.nodes, b.nodes);
    let seeds: HashSet<String> = (1..=4)
        .map(|seed| format!("{:?}", territory(&position, &small(seed)).cells))
        .collect();
    assert!(seeds.len() > 1, "four seeds, one map");
    // The policy's playouts too.
    let policy = TerritoryOptions {
        playout: Playout::Policy,
        playouts: 32,
        ..small(3)
    };
    assert_eq!(territory(&position, &policy), territory(&position, &policy));
}

/// Every final ownership reachable from `position` by any legal play, or `None` beyond `budget`
/// positions.
fn endings(position: &Position, budget: &mut u64, out: &mut HashSet<[Bitboard; 2]>) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    if position.is_game_over() {
        out.insert(owners(position));
        return true;
    }
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    moves.iter().all(|&mv| {
        let mut next = *position;
        next.play(mv);
        endings(&next, budget, out)
    })
}

#[test]
fn a_forced_end_gives_the_exact_final_board() {
    let mut found = 0;
    for game in games() {
        let positions = game.positions();
        for back in 1..=4 {
            let Some(&position) = positions.len().checked_sub(1 + back).map(|i| &positions[i])
            else {
                continue;
            };
            let mut seen = HashSet::new();
            if !endings(&position, &mut 20_000, &mut seen) || seen.len() != 1 {
                continue;
            }
            let [light, dark] = *seen.iter().next().unwrap();
            let map = territory(&position, &small(1));
            check_shares(&map);
            for entry in &map.cells {
                let expected = (
                    f64::from(u8::from(light.contains(entry.cell))),
                    f64::from(u8::from(dark.contains(entry.cell))),
                );
                assert_eq!((entry.light, entry.dark), expected, "{}", entry.cell);
            }
            assert_eq!(map.light_expected, f64::from(light.count()));
            assert_eq!(map.dark_expected, f64::from(dark.count()));
            found += 1;
        }
    }
    assert!(found >= 10, "only {found} forced ends");
}

#[test]
fn a_finished_game_is_settled_and_exact() {
    let game = &games()[0];
    let end = game.final_position();
    assert!(end.is_game_over());
    let map = territory(&end, &small(1));
    check_shares(&map);
    assert_eq!(map.judgement, Judgement::Exact);
    assert!(map.complete);
    assert!(map.cells.iter().all(|c| c.settled));
    let [light, dark] = owners(&end);
    assert_eq!(map.light_expected, f64::from(light.count()));
    assert_eq!(map.dark_expected, f64::from(dark.count()));
}

#[test]
fn a_stopped_map_counts_what_finished() {
    let position = games()[0].positions()[6];
    let options = small(1);
    options
        .stop
        .store(true, std::sync::atomic::Ordering::Relaxed);
    let map = territory(&position, &options);
    assert_eq!(map.playouts, 0);
    assert!(!map.complete);
    check_shares(&map);
}

// ----- the web API ----------------------------------------------------------------------------

struct Server {
    child: Child,
    address: String,
}

impl Server {
    fn start() -> Server {
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("cathedral"))
            .args(["serve", "--port", "0"])
            .stdout(Stdio::piped())
            .spawn()
            .expect("start the server");
        let (mut line, mut second) = (String::new(), String::new());
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        stdout.read_line(&mut line).unwrap();
        stdout.read_line(&mut second).unwrap();
        let address = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .expect("an address")
            .to_string();
        Server { child, address }
    }

    fn post(&self, path: &str, body: &str) -> (u16, serde_json::Value) {
        let mut stream = TcpStream::connect(&self.address).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(120)))
            .unwrap();
        write!(
            stream,
            "POST {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.address,
            body.len()
        )
        .unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        let status = response[9..12].parse().unwrap();
        let text = response.split("\r\n\r\n").nth(1).unwrap_or("");
        let json = serde_json::from_str(text).unwrap_or_else(|_| panic!("not JSON: {text}"));
        (status, json)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn the_api_answers_with_every_cell_and_refuses_in_words() {
    let server = Server::start();
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
