//! The engine protocol for Corintho (`cathedral engine --game corintho`): the same commands and
//! answers as Cathedral's session (`docs/protocol.md`), on Corintho positions. `go` asks the
//! paranoid engine (any number of players, an estimate); `solve` the exact solver (two players).

use super::command::{Command, Limits, Setting, Start};
use super::session::{Flow, Output, Searching, control, error};
use cathedral::boardgame::{SolveOptions, solve};
use cathedral::corintho::engine::best_move;
use cathedral::corintho::{CorinthoMove, CorinthoPosition, CorinthoRules, Outcome};

/// One Corintho session.
pub struct CorinthoSession {
    out: Output,
    /// The start and every position after it, with the moves between them.
    positions: Vec<CorinthoPosition>,
    moves: Vec<CorinthoMove>,
    threads: usize,
    tt_mb: usize,
    level: u8,
    search: Searching,
}

/// The engine's search depth at a level (1 to 10).
fn depth_of(level: u8) -> u32 {
    u32::from(level.clamp(1, 10)).div_ceil(2) + 1
}

fn start() -> CorinthoPosition {
    CorinthoPosition::new(CorinthoRules::for_players(2).expect("two players are a game"))
}

impl CorinthoSession {
    /// A session at the two-player start, answering to `out`.
    pub fn new(out: Output) -> CorinthoSession {
        CorinthoSession {
            out,
            positions: vec![start()],
            moves: Vec::new(),
            threads: 1,
            tt_mb: 64,
            level: 6,
            search: Searching::default(),
        }
    }

    fn current(&self) -> CorinthoPosition {
        self.positions.last().copied().unwrap_or_else(start)
    }

    fn error(&self, message: &str) {
        error(&self.out, message);
    }

    /// Stops the running search, if any, and waits until it has answered.
    pub fn stop(&mut self) {
        self.search.stop();
    }

    /// Reads and answers one line.
    pub fn handle(&mut self, line: &str) -> Flow {
        let command = match control(&self.out, &mut self.search, line) {
            Ok(command) => command,
            Err(flow) => return flow,
        };
        match command {
            Command::Quit | Command::IsReady | Command::Stop => {}
            Command::Hello => {
                self.out
                    .line(&format!("id name cathedral {}", env!("CARGO_PKG_VERSION")));
                self.out
                    .line(&format!("id protocol {}", super::session::PROTOCOL_VERSION));
                self.out.line("id game corintho");
                self.out.line("ok");
            }
            Command::Rules(_) => self.error(
                "`rules` sets Cathedral's rules; a Corintho game takes its rules from `position file FILE`",
            ),
            Command::Position { start: from, moves } => {
                let position = match &from {
                    Start::Initial => Ok(start()),
                    Start::File(path) => cathedral::corintho::file::load(path)
                        .map(|file| file.position)
                        .map_err(|e| {
                            let mut place = e.path.clone();
                            if let Some(line) = e.line {
                                place.push_str(&format!(":{line}"));
                                if let Some(column) = e.column {
                                    place.push_str(&format!(":{column}"));
                                }
                            }
                            format!("{place}: {}", e.message)
                        }),
                };
                match position {
                    Ok(position) => {
                        let saved = (
                            std::mem::replace(&mut self.positions, vec![position]),
                            std::mem::take(&mut self.moves),
                        );
                        match self.play(&moves) {
                            Ok(()) => self.out.line("ok"),
                            Err(message) => {
                                (self.positions, self.moves) = saved;
                                self.error(&message);
                            }
                        }
                    }
                    Err(message) => self.error(&message),
                }
            }
            Command::Play(moves) => {
                let saved = (self.positions.clone(), self.moves.clone());
                match self.play(&moves) {
                    Ok(()) => self.out.line("ok"),
                    Err(message) => {
                        (self.positions, self.moves) = saved;
                        self.error(&message);
                    }
                }
            }
            Command::Undo(n) => {
                if n > self.moves.len() {
                    self.error(&format!(
                        "cannot take back {n} moves: {} played since the start",
                        self.moves.len()
                    ));
                } else {
                    self.positions.truncate(self.positions.len() - n);
                    self.moves.truncate(self.moves.len() - n);
                    self.out.line("ok");
                }
            }
            Command::Moves => {
                let texts: Vec<String> = self
                    .current()
                    .legal_moves()
                    .iter()
                    .map(ToString::to_string)
                    .collect();
                self.out
                    .line(format!("moves {} {}", texts.len(), texts.join(" ")).trim_end());
                self.out.line("ok");
            }
            Command::Show => {
                let position = self.current();
                let outcome = match position.outcome() {
                    Outcome::Ongoing => "ongoing".to_string(),
                    Outcome::Won(p) => format!("won by player {}", p + 1),
                    Outcome::Drawn => "drawn".to_string(),
                };
                let view = serde_json::json!({
                    "game": "corintho",
                    "to_move": position.to_move() + 1,
                    "outcome": outcome,
                    "file": cathedral::corintho::file::to_yaml(&position, None),
                });
                self.out.line(&format!("position {view}"));
                self.out.line("ok");
            }
            Command::Set(setting) => {
                match setting {
                    Setting::Threads(n) => self.threads = n,
                    Setting::TableMib(n) => self.tt_mb = n,
                    Setting::Level(n) => self.level = n,
                    Setting::Seed(_) => {}
                }
                self.out.line("ok");
            }
            Command::Go(_) => self.go(),
            Command::Solve { limits, wdl: _ } => self.solve(limits),
        }
        Flow::Continue
    }

    fn play(&mut self, moves: &[String]) -> Result<(), String> {
        for (i, text) in moves.iter().enumerate() {
            let mut position = self.current();
            let fail = |why: String| format!("move {} (`{text}`) cannot be played: {why}", i + 1);
            let mv = CorinthoMove::parse(text).map_err(fail)?;
            position.check(mv).map_err(fail)?;
            position.play(mv);
            self.positions.push(position);
            self.moves.push(mv);
        }
        Ok(())
    }

    /// The paranoid engine's move at the level's depth (it is not interrupted: its depth bounds it).
    fn go(&mut self) {
        let position = self.current();
        let depth = depth_of(self.level);
        let out = self.out.clone();
        self.search.start(move |_| {
            let started = std::time::Instant::now();
            match best_move(&position, depth) {
                Some((mv, value)) => out.line(&format!(
                    "bestmove {mv} value {:+} estimate depth {depth} time {}",
                    value,
                    started.elapsed().as_millis()
                )),
                None => out.line("bestmove none"),
            }
        });
    }

    /// The exact solve (two players): win, draw or loss for the side to move.
    fn solve(&mut self, limits: Limits) {
        let position = self.current();
        if position.rules().players != 2 {
            self.error(
                "the exact solver plays two-player Corintho only; `go` gives the engine's move",
            );
            return;
        }
        let options = SolveOptions {
            threads: if limits.nodes.is_some() {
                1
            } else {
                self.threads
            },
            tt_mb: self.tt_mb,
            initial_tt_mb: Some(self.tt_mb.min(4)),
            time_limit: limits.time,
            root_values: false,
            max_nodes: limits.nodes,
            ..SolveOptions::default()
        };
        let out = self.out.clone();
        self.search.start(move |stop| {
            let options = SolveOptions { stop, ..options };
            let solution = solve(&position, &options, &|_| {});
            let stats = format!(
                "nodes {} time {}",
                solution.stats.nodes,
                solution.stats.elapsed.as_millis()
            );
            let line: Vec<String> = solution.best_line.iter().map(ToString::to_string).collect();
            let answer = if solution.is_exact() {
                let result = match solution.lower {
                    v if v > 0 => "win",
                    0 => "draw",
                    _ => "loss",
                };
                format!("solution wdl {result} {stats} line {}", line.join(" "))
            } else {
                let best = solution
                    .best_so_far
                    .map_or_else(|| "none".to_string(), |mv| mv.to_string());
                format!(
                    "solution bounds {:+} {:+} {stats} best {best}",
                    solution.lower, solution.upper
                )
            };
            out.line(answer.trim_end());
        });
    }
}
