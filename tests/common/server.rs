//! A `cathedral serve` of this build on a free port, for the tests that talk to the board's
//! server (`web_api`) or drive it in a browser (the end-to-end binary).

use std::io::{BufRead, BufReader};
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
    // Every line the server prints at start (two, three with the play server), so that it
    // never writes to a closed pipe.
    let mut line = String::new();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    stdout.read_line(&mut line).unwrap();
    loop {
        let mut next = String::new();
        assert!(
            stdout.read_line(&mut next).unwrap() > 0,
            "the server stopped: {line}"
        );
        if next.starts_with("Only this computer can reach it") {
            break;
        }
        assert!(next.starts_with("Play people and bots"), "{next}");
    }
    let url = line
        .split_whitespace()
        .find(|word| word.starts_with("http://"))
        .expect("the server prints its URL")
        .trim_end_matches('/')
        .to_string();
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    (Server(child), url)
}
