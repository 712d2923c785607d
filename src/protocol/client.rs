//! The client side of the protocol: another program that speaks it, run as a child process and
//! asked for moves, so that any engine can play a match against ours.

use cathedral::arena::{Budget, Contestant, MatchGame};
use cathedral::boardgame::Clock;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

/// How long a command other than `go` may take to be answered.
const ANSWER_TIME: Duration = Duration::from_secs(10);
/// What `go` may take beyond its budget before the engine is deemed lost.
const GRACE: Duration = Duration::from_secs(10);

/// A program speaking the protocol, run as a child process.
pub struct ExternalEngine {
    command: String,
    name: String,
    budget: Budget,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl ExternalEngine {
    /// Starts `command` (split like a shell would, without running one) and greets it.
    pub fn start(command: &str, budget: Budget) -> Result<ExternalEngine, String> {
        let words = shell_words::split(command)
            .map_err(|_| format!("`{command}`: a quotation mark is not closed"))?;
        let (program, args) = words
            .split_first()
            .ok_or_else(|| "an empty engine command".to_string())?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start `{command}`: {e}"))?;
        let stdin = child.stdin.take().ok_or("no standard input")?;
        let stdout = child.stdout.take().ok_or("no standard output")?;
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = ExternalEngine {
            command: command.to_string(),
            name: command.to_string(),
            budget,
            child,
            stdin,
            lines,
        };
        let answer = engine.ask("hello", ANSWER_TIME, |l| l == "ok")?;
        if let Some(name) = answer.iter().find_map(|l| l.strip_prefix("id name ")) {
            engine.name = name.trim().to_string();
        }
        Ok(engine)
    }

    /// Sends `line` and collects the answer's lines up to and including the one `last` accepts;
    /// an `error` line, silence for `wait`, or a closed output is an error.
    fn ask(
        &mut self,
        line: &str,
        wait: Duration,
        last: impl Fn(&str) -> bool,
    ) -> Result<Vec<String>, String> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| format!("`{}` stopped reading: {e}", self.command))?;
        let mut answer = Vec::new();
        let deadline = std::time::Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(reply) => {
                    if let Some(message) = reply.strip_prefix("error") {
                        return Err(format!("answered `{line}` with an error:{message}"));
                    }
                    let done = last(&reply);
                    answer.push(reply);
                    if done {
                        return Ok(answer);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!(
                        "did not answer `{line}` within {} s",
                        wait.as_secs()
                    ));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!("`{}` ended while answering `{line}`", self.command));
                }
            }
        }
    }
}

impl<G: MatchGame> Contestant<G> for ExternalEngine {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self, rules: G::Rules, _seed: u64) -> Result<(), String> {
        for line in G::protocol_new_game(rules) {
            self.ask(&line, ANSWER_TIME, |l| l == "ok")?;
        }
        Ok(())
    }

    fn choose(
        &mut self,
        moves: &[G::Move],
        position: &G,
        clock: Option<Clock>,
    ) -> Result<G::Move, String> {
        let start = position.fresh_start();
        let mut line = "position start".to_string();
        if !moves.is_empty() {
            line.push_str(" moves ");
            line.push_str(&start.line_text(moves).join(" "));
        }
        self.ask(&line, ANSWER_TIME, |l| l == "ok")?;
        let (go, wait) = match self.budget {
            Budget::Time(t) => (format!("go time {}ms", t.as_millis().max(1)), t + GRACE),
            Budget::Nodes(n) => (format!("go nodes {n}"), Duration::from_secs(600)),
            Budget::Clock(start) => {
                let now = clock.unwrap_or(start);
                (
                    format!(
                        "go clock {}ms inc {}ms",
                        now.remaining.as_millis(),
                        now.increment.as_millis()
                    ),
                    // The match runner judges the time; waiting longer only lets it say so.
                    now.remaining + GRACE,
                )
            }
        };
        let answer = self.ask(&go, wait, |l| l.starts_with("bestmove "))?;
        let last = answer.last().map(String::as_str).unwrap_or_default();
        let text = last
            .split_whitespace()
            .nth(1)
            .ok_or_else(|| format!("`{last}` names no move"))?;
        position
            .parse_move(text)
            .map_err(|e| format!("its move `{text}` cannot be played: {e}"))
    }
}

impl Drop for ExternalEngine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        for _ in 0..20 {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(25));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
