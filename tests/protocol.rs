//! The engine protocol through a real child process: answers, errors that keep the engine
//! running, a search stopped on request, and matches against an engine run as a program.

use crate::common;

use cathedral::Rules;
use common::{cathedral, replay, stdout_of};

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("cathedral"))
            .arg("engine")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start the engine");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    /// Says `quit` and checks that the engine exits cleanly.
    fn quit(mut self) {
        self.send("quit");
        assert!(self.child.wait().expect("exit").success());
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("write");
        self.stdin.flush().expect("flush");
    }

    /// The answer's lines up to the first that starts with one of `ends`.
    fn answer(&mut self, ends: &[&str]) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(60))
                .unwrap_or_else(|_| panic!("no answer; so far {lines:?}"));
            let done = ends.iter().any(|e| line.starts_with(e));
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    fn ask(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        self.answer(&["ok", "error"])
    }
}

#[test]
fn a_session_answers_every_command() {
    let mut engine = Engine::start();
    let hello = engine.ask("hello");
    assert!(hello[0].starts_with("id name cathedral"), "{hello:?}");
    assert_eq!(hello[1], "id protocol 1");
    assert_eq!(engine.ask("rules classic"), ["ok"]);
    let moves = engine.ask("moves");
    assert!(moves[0].starts_with("moves "), "{moves:?}");
    let count: usize = moves[0].split_whitespace().nth(1).unwrap().parse().unwrap();
    assert_eq!(count, moves[0].split_whitespace().count() - 2);
    assert_eq!(
        engine.ask("position start moves light:cathedral:e5,f4,f5,f6,f7,g5"),
        ["ok"]
    );
    assert_eq!(engine.ask("play dark:castle:b2,b3,c2,d2,d3"), ["ok"]);
    let shown = engine.ask("show");
    assert!(shown[0].starts_with("position {"), "{shown:?}");
    let view: serde_json::Value = serde_json::from_str(&shown[0]["position ".len()..]).unwrap();
    assert_eq!(view["to_move"], "light");
    // go with a node budget: info lines, then the move, reproducibly.
    engine.send("go nodes 20000");
    let first = engine.answer(&["bestmove"]);
    assert!(
        first.iter().any(|l| l.starts_with("info depth 1 ")),
        "{first:?}"
    );
    let last = first.last().unwrap();
    assert!(last.contains(" estimate "), "{last}");
    let mv = last.split_whitespace().nth(1).unwrap().to_string();
    replay(
        Rules::CLASSIC,
        &[
            "light:cathedral:e5,f4,f5,f6,f7,g5",
            "dark:castle:b2,b3,c2,d2,d3",
            &mv,
        ],
    );
    engine.send("go nodes 20000");
    let without_time = |line: &str| {
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words.iter().position(|w| *w == "time").expect("a time");
        [&words[..at], &words[at + 2..]].concat().join(" ")
    };
    let again = engine.answer(&["bestmove"]);
    assert_eq!(without_time(again.last().unwrap()), without_time(last));
    assert_eq!(engine.ask("undo 2"), ["ok"]);
    engine.send("isready");
    assert_eq!(engine.answer(&["readyok"]), ["readyok"]);
    // An exact solve of a bench position.
    assert_eq!(engine.ask("position file puzzles/bench/t5-01.yaml"), ["ok"]);
    engine.send("solve");
    let solved = engine.answer(&["solution"]);
    assert!(
        solved
            .last()
            .unwrap()
            .starts_with("solution exact value +5 "),
        "{solved:?}"
    );
    engine.send("go time 5s");
    let exact = engine.answer(&["bestmove"]);
    assert!(
        exact.last().unwrap().contains(" value +5 exact "),
        "{exact:?}"
    );
    engine.send("quit");
    let status = engine.child.wait().expect("exit");
    assert!(status.success());
}

#[test]
fn malformed_commands_get_an_error_and_the_engine_goes_on() {
    let mut engine = Engine::start();
    for (line, expected) in [
        ("fly me to the moon", "is not a command"),
        ("go nodes lots", "not a budget"),
        ("set level 99", "out of range"),
        ("rules chess", "not a rule variant"),
        ("position file /no/such/file.yaml", "cannot read the file"),
        ("position file puzzles/bench", "cannot read"),
        ("play light:inn:z99", "cannot be played"),
        ("play light:cathedral:a1", "cannot be played"),
        ("undo", "cannot take back"),
        (
            "position start moves light:cathedral:e5,f4,f5,f6,f7,g5 dark:inn:e5,e6,d6",
            "move 2",
        ),
        ("\u{1b}[A", "not a command"),
    ] {
        let answer = engine.ask(line);
        assert_eq!(answer.len(), 1, "{line}: {answer:?}");
        assert!(answer[0].starts_with("error "), "{line}: {answer:?}");
        assert!(answer[0].contains(expected), "{line}: {answer:?}");
        assert!(!answer[0].contains("panicked"));
    }
    // A failed `position` left the position as it was: the empty board.
    let moves = engine.ask("moves");
    assert!(moves[0].contains("light:cathedral:"), "{moves:?}");
    // A very long line is refused whole.
    let long = format!("play {}", "x".repeat(100_000));
    let answer = engine.ask(&long);
    assert!(answer[0].contains("longer than"), "{answer:?}");
    engine.send("isready");
    assert_eq!(engine.answer(&["readyok"]), ["readyok"]);
    drop(engine.stdin);
    assert!(engine.child.wait().expect("exit").success());
}

#[test]
fn set_tune_changes_a_tunable_only_in_a_tune_build() {
    // The binary the tests run is built with the test run's features.
    let mut engine = Engine::start();
    for (line, expected) in [
        ("set tune futility 3", "`futility` is not a tunable"),
        (
            "set tune late_moves 0",
            "late_moves `0`: expected a whole number from 1 to 400",
        ),
        ("set tune late_moves many", "expected a whole number"),
        ("set tune late_moves", "needs a tunable and a value"),
    ] {
        let answer = engine.ask(line);
        assert_eq!(answer.len(), 1, "{line}: {answer:?}");
        assert!(answer[0].starts_with("error "), "{line}: {answer:?}");
        assert!(answer[0].contains(expected), "{line}: {answer:?}");
    }
    let answer = engine.ask("set tune late_moves 8");
    if cfg!(feature = "tune") {
        assert_eq!(answer, ["ok"]);
        engine.send("go nodes 2000");
        let go = engine.answer(&["bestmove", "error"]);
        assert!(go.last().unwrap().starts_with("bestmove "), "{go:?}");
    } else {
        assert_eq!(answer.len(), 1, "{answer:?}");
        assert!(answer[0].contains("the `tune` feature"), "{answer:?}");
    }
    engine.send("quit");
    assert!(engine.child.wait().expect("exit").success());
}

/// The move of an answer's last line (`bestmove MOVE ...`).
fn best_move(answer: &[String]) -> String {
    let last = answer.last().expect("an answer");
    last.split_whitespace()
        .nth(1)
        .unwrap_or_else(|| panic!("no move in {last:?}"))
        .to_string()
}

#[test]
fn stop_ends_a_long_search_with_a_move() {
    let mut engine = Engine::start();
    engine.send("go time 120s");
    // Let it start, then stop it.
    engine.answer(&["info depth 1 "]);
    let asked = Instant::now();
    engine.send("stop");
    let answer = engine.answer(&["bestmove"]);
    assert!(asked.elapsed() < Duration::from_secs(10));
    let mv = best_move(&answer);
    replay(Rules::CLASSIC, &[&mv]);
    engine.quit();
}

#[test]
fn a_match_against_an_engine_run_as_a_program_writes_replayable_records() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("games");
    let program = format!(
        "cmd:{} engine",
        assert_cmd::cargo::cargo_bin("cathedral").display()
    );
    let text = stdout_of(
        cathedral()
            .args([
                "match", "--a", &program, "--b", "greedy", "--games", "2", "--nodes", "3000", "-o",
            ])
            .arg(&out),
    );
    assert!(text.contains("Elo of A over B"), "{text}");
    assert!(text.contains("2 games in"), "{text}");
    let records: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(records.len(), 1, "one record file per pair");
    let games = cathedral::file::load_records(&records[0]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].light.as_deref(), Some("cathedral 0.1.0"));
    assert_eq!(games[1].dark.as_deref(), Some("cathedral 0.1.0"));
    for game in &games {
        // Reading replayed every move; the game was played out and states its result.
        assert!(game.final_position().is_game_over());
        assert!(!game.comment.as_deref().unwrap_or("").contains("forfeit"));
    }
    // The folder now holds files: a second run must not write over them.
    cathedral()
        .args([
            "match", "--a", "random", "--b", "greedy", "--games", "2", "-o",
        ])
        .arg(&out)
        .assert()
        .failure();
}

#[test]
fn go_on_a_clock_answers_within_its_share() {
    let mut engine = Engine::start();
    engine.send("position start moves light:cathedral:e4,e5,e6,d5,f5,e3");
    engine.answer(&["ok"]);
    let asked = Instant::now();
    engine.send("go clock 3s inc 0");
    let answer = engine.answer(&["bestmove"]);
    // A 3-second clock with 8 moves to think about: at most a third of it (1 s) for this move.
    assert!(asked.elapsed() < Duration::from_secs(3), "{answer:?}");
    let mv = best_move(&answer);
    replay(Rules::CLASSIC, &["light:cathedral:e4,e5,e6,d5,f5,e3", &mv]);
    engine.quit();
}

#[test]
fn a_match_on_a_clock_plays_out_its_games_in_time() {
    let program = format!(
        "cmd:{} engine",
        assert_cmd::cargo::cargo_bin("cathedral").display()
    );
    let text = stdout_of(cathedral().args([
        "match", "--a", &program, "--b", "engine", "--games", "2", "--clock", "4+0.1", "--json",
    ]));
    let report: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let summary = &report["summary"];
    assert_eq!(summary["forfeits"], serde_json::json!([0, 0]), "{text}");
    assert_eq!(summary["pairs"], 1, "{text}");
    assert!(
        summary["b"].as_str().unwrap().contains("clock 4 s + 0.1 s"),
        "{text}"
    );
}

#[test]
fn match_options_are_checked() {
    for args in [
        vec!["--a", "random", "--b", "greedy", "--games", "3"],
        vec!["--a", "random", "--b", "greedy", "--clock", "0+1"],
        vec!["--a", "random", "--b", "greedy", "--clock", "5+x"],
        vec![
            "--a", "random", "--b", "greedy", "--clock", "5", "--nodes", "100",
        ],
        vec!["--a", "stockfish", "--b", "greedy"],
        vec!["--a", "engine:level=12", "--b", "greedy"],
        vec!["--a", "cmd:", "--b", "greedy"],
    ] {
        cathedral().arg("match").args(&args).assert().code(2);
    }
    cathedral()
        .args([
            "match",
            "--a",
            "cmd:/no/such/engine",
            "--b",
            "greedy",
            "--games",
            "2",
        ])
        .assert()
        .code(3);
}

/// `cathedral engine --game corintho`: the same commands on Corintho positions.
#[test]
fn a_corintho_session_plays_and_solves() {
    let script = "hello\nposition start moves C@b1 K@a4\nmoves\nplay C@c2\ngo\nsolve\nplay Z@z9\nundo 9\nrules classic\nposition file puzzles/corintho/30-small-endgame-solved.yaml\nsolve\nquit\n";
    let output = assert_cmd::Command::cargo_bin("cathedral")
        .unwrap()
        .args(["engine", "--game", "corintho"])
        .write_stdin(script)
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.contains(&"id game corintho"), "{text}");
    let moves = lines.iter().find(|l| l.starts_with("moves ")).unwrap();
    // The protocol lists exactly the move generator's moves, in its notation.
    let mut position = cathedral::corintho::CorinthoPosition::new(
        cathedral::corintho::CorinthoRules::for_players(2).unwrap(),
    );
    for mv in ["C@b1", "K@a4"] {
        position.play(cathedral::corintho::CorinthoMove::parse(mv).unwrap());
    }
    assert_eq!(
        *moves,
        format!(
            "moves {} {}",
            position.legal_moves().len(),
            position
                .legal_moves()
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        )
    );
    // Two columns on b1 and c2: the engine completes the row on d3, and the solver proves it.
    assert!(
        lines.iter().any(|l| l.starts_with("bestmove C@d3 ")),
        "{text}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("solution wdl win ") && l.ends_with("line C@d3")),
        "{text}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("error move 1 (`Z@z9`) cannot be played")),
        "{text}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("error cannot take back 9 moves")),
        "{text}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("error `rules` sets Cathedral's rules")),
        "{text}"
    );
    // The rule case's stored result: a draw.
    assert!(
        lines.last().unwrap().starts_with("solution wdl draw "),
        "{text}"
    );
}

/// `rules sheets` (claims at once) reaches the session's position: the Dark Tavern enclosed by
/// Light's first building is not captured by Light's Tavern far away, as it is under `classic`.
#[test]
fn the_rules_words_take_claims_at_once() {
    let mut engine = Engine::start();
    let moves = "light:cathedral:e5,f4,f5,f6,f7,g5 dark:tavern:a1 light:inn:a2,b1,b2 dark:tavern:j10 light:tavern:e10";
    let mut dark_buildings = Vec::new();
    for rules in ["classic", "sheets", "claims=at-once"] {
        assert_eq!(engine.ask(&format!("rules {rules}")), ["ok"]);
        assert_eq!(engine.ask(&format!("position start moves {moves}")), ["ok"]);
        let shown = engine.ask("show");
        let view: serde_json::Value = serde_json::from_str(&shown[0]["position ".len()..]).unwrap();
        let expected_claims = if rules == "classic" {
            "standing"
        } else {
            "at-once"
        };
        assert_eq!(view["rules"]["claims"], expected_claims, "{rules}");
        dark_buildings.push(view["dark"]["buildings"].as_array().unwrap().len());
    }
    assert_eq!(
        dark_buildings,
        [1, 2, 2],
        "the Tavern a1 is captured only under classic"
    );
    let refused = engine.ask("rules claims=later");
    assert!(
        refused[0].contains("`standing` or `at-once`"),
        "{refused:?}"
    );
}
