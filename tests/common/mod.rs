//! Helpers shared by the integration tests. Each test binary uses a subset of them.
#![allow(dead_code)]

use assert_cmd::Command;
use cathedral::legality::parse_move;
use cathedral::{Position, Rules};

pub mod naive;

/// The `cathedral` binary, with colour settings of the environment removed.
pub fn cathedral() -> Command {
    let mut cmd = Command::cargo_bin("cathedral").expect("binary");
    cmd.env_remove("CLICOLOR_FORCE").env_remove("NO_COLOR");
    cmd
}

/// Runs `cmd`, which must succeed, and returns its standard output.
pub fn stdout_of(cmd: &mut Command) -> String {
    let output = cmd.assert().success().get_output().stdout.clone();
    String::from_utf8(output).expect("utf-8")
}

/// Runs `cmd`, which must succeed, and reads its standard output as JSON.
pub fn json_of(cmd: &mut Command) -> serde_json::Value {
    serde_json::from_str(&stdout_of(cmd)).expect("JSON")
}

/// The `.yaml` files of `dir`, sorted by name.
pub fn yaml_files(dir: &str) -> Vec<std::path::PathBuf> {
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .expect(dir)
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    paths.sort();
    paths
}

/// The position after playing `moves` (in notation) from the empty board under `rules`.
pub fn replay(rules: Rules, moves: &[&str]) -> Position {
    let mut position = Position::new(rules);
    for text in moves {
        let mv = parse_move(&position, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        position.play(mv);
    }
    position
}

/// Runs `cmd`, which must exit with `code`, and returns its standard output.
pub fn stdout_with(code: i32, cmd: &mut Command) -> String {
    let output = cmd.assert().code(code).get_output().stdout.clone();
    String::from_utf8(output).expect("utf-8")
}

/// Words of the YAML library, of serde or of Rust that must never reach a user.
pub const LEAKS: [&str; 24] = [
    "u8",
    "u16",
    "u32",
    "u64",
    "i32",
    "i64",
    "f64",
    "usize",
    "untagged",
    "enum",
    "struct",
    "Options",
    "from_str",
    "from_str_multiple",
    "budget",
    "serde",
    "Spanned",
    "DuplicateKeyPolicy",
    "ScalarBytes",
    "RawRules",
    "RawCathedral",
    "sequence start",
    "mapping start",
    "invalid type",
];

/// Headless Chromium for the browser tests (`tests/browser.rs`, `tests/site.rs`).
pub mod browser {
    use std::io::{BufRead, BufReader};
    use std::path::{Path, PathBuf};
    use std::process::{Child, Command, Stdio};

    /// A running `cathedral serve`, stopped when dropped.
    pub struct Server(pub Child);

    impl Drop for Server {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }

    /// Starts `cathedral serve --port 0` with `args`; returns it and its URL (no final slash).
    pub fn serve(args: &[&str]) -> (Server, String) {
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("cathedral"))
            .args(["serve", "--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .spawn()
            .expect("start the server");
        // Both lines the server prints, so that it never writes to a closed pipe.
        let (mut line, mut second) = (String::new(), String::new());
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        stdout.read_line(&mut line).unwrap();
        stdout.read_line(&mut second).unwrap();
        assert!(
            second.starts_with("Only this computer can reach it"),
            "{second}"
        );
        let url = line
            .split_whitespace()
            .find(|word| word.starts_with("http://"))
            .expect("the server prints its URL")
            .trim_end_matches('/')
            .to_string();
        assert!(url.starts_with("http://127.0.0.1:"), "{url}");
        (Server(child), url)
    }

    pub fn chromium() -> PathBuf {
        std::env::var_os("CHROMIUM")
            .map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from)
    }

    /// What is missing to run the browser tests from `dir` (tests/browser), if anything.
    pub fn missing(dir: &Path) -> Option<String> {
        if Command::new("node").arg("--version").output().is_err() {
            return Some("node is not installed".into());
        }
        if !chromium().exists() {
            return Some(format!(
                "{} is not installed (apt-get install chromium)",
                chromium().display()
            ));
        }
        if !dir.join("node_modules/playwright-core").exists() {
            return Some("playwright-core is not installed (npm ci in tests/browser)".into());
        }
        None
    }
}
