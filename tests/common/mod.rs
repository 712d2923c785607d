//! Helpers shared by the integration tests, the modules of the one test binary (`tests/main.rs`).

use assert_cmd::Command;
use cathedral::legality::parse_move;
use cathedral::{Position, Rules};

pub mod naive;
pub mod play_client;

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

pub mod server;
