//! One protocol session: the position and settings, the command being searched, and the lines
//! each command answers. Searches run on their own thread so that `stop`, `isready` and `quit`
//! are answered while they think.

use super::command::{Command, Limits, Setting, Start};
use super::control::{Flow, Output, Searching, control, error};
use cathedral::boardgame::engine::Tunables;
use cathedral::boardgame::{Phase, SolveOptions};
use cathedral::frontend::{Bundled, EngineRequest, Playable, load_file};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The protocol's version, said by `hello`.
pub const PROTOCOL_VERSION: u32 = 1;

/// The state of one session of game `G`: the same commands and answers for every game.
pub struct Session<G: Playable> {
    out: Output,
    /// The start of a new game (`position start`): the empty board under the rules of `rules`,
    /// or the game's start.
    start: G,
    /// The start and every position after it (`positions.last()` is the current one), with
    /// the moves between them.
    positions: Vec<G>,
    moves: Vec<G::Move>,
    threads: usize,
    tt_mb: usize,
    level: u8,
    seed: u64,
    /// The search's tunables as `set tune` left them (a `tune` build only).
    tunables: Tunables,
    search: Searching,
    /// Whether `hello` says `id game NAME` (a session for another game than the default).
    names_game: bool,
}

/// `go` with no budget thinks this long.
const DEFAULT_TIME: Duration = Duration::from_secs(1);
/// Between two `info` lines of a solve.
const SOLVE_INFO_EVERY: Duration = Duration::from_millis(500);
/// The strongest level, the default.
const MAX_LEVEL: u8 = 10;

impl<G: Playable> Session<G> {
    /// A session at the start of a game, answering to `out`.
    pub fn new(out: Output) -> Session<G> {
        let start = G::bundled(Bundled::Start).position;
        Session {
            out,
            start,
            positions: vec![start],
            moves: Vec::new(),
            threads: 1,
            tt_mb: 64,
            level: MAX_LEVEL,
            seed: 0,
            tunables: Tunables::default(),
            search: Searching::default(),
            names_game: false,
        }
    }

    /// The same session, saying `id game NAME` in `hello` when `names_game` (the engine was
    /// started for another game than its default).
    pub fn naming_the_game(self, names_game: bool) -> Session<G> {
        Session { names_game, ..self }
    }

    fn current(&self) -> G {
        self.positions.last().copied().unwrap_or(self.start)
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
                self.out.line(&format!("id protocol {PROTOCOL_VERSION}"));
                if self.names_game {
                    self.out.line(&format!("id game {}", G::NAME));
                }
                self.out.line("ok");
            }
            Command::Rules(words) => {
                let words: Vec<&str> = words.iter().map(String::as_str).collect();
                match G::start_with_rules(&words) {
                    Ok(start) => {
                        self.start = start;
                        self.positions = vec![start];
                        self.moves.clear();
                        self.out.line("ok");
                    }
                    Err(message) => self.error(&message),
                }
            }
            Command::Position { start, moves } => match self.set_position(&start, &moves) {
                Ok(()) => self.out.line("ok"),
                Err(message) => self.error(&message),
            },
            Command::Play(moves) => {
                let (positions, played) = (self.positions.clone(), self.moves.clone());
                match self.play(&moves) {
                    Ok(()) => self.out.line("ok"),
                    Err(message) => {
                        // All or nothing: a bad move leaves the position as it was.
                        self.positions = positions;
                        self.moves = played;
                        self.error(&message);
                    }
                }
            }
            Command::Undo(n) => {
                if n > self.moves.len() {
                    self.error(&format!(
                        "cannot take back {}: {} played since the start",
                        cathedral::present::words::count(n as i64, "move"),
                        self.moves.len()
                    ));
                } else {
                    self.positions.truncate(self.positions.len() - n);
                    self.moves.truncate(self.moves.len() - n);
                    self.out.line("ok");
                }
            }
            Command::Moves => {
                let position = self.current();
                let texts: Vec<String> = position
                    .legal_moves()
                    .into_iter()
                    .map(|mv| position.move_text_with_player(mv))
                    .collect();
                self.out
                    .line(format!("moves {} {}", texts.len(), texts.join(" ")).trim_end());
                self.out.line("ok");
            }
            Command::Show => match serde_json::to_string(&self.current().view(None)) {
                Ok(json) => {
                    self.out.line(&format!("position {json}"));
                    self.out.line("ok");
                }
                Err(e) => self.error(&format!("cannot describe the position: {e}")),
            },
            Command::Set(setting) => {
                match setting {
                    Setting::Threads(n) => self.threads = n,
                    Setting::TableMib(n) => self.tt_mb = n,
                    Setting::Level(n) => self.level = n,
                    Setting::Seed(n) => self.seed = n,
                    Setting::Tune { name, value } => {
                        if !G::TUNABLE {
                            self.error(&format!(
                                "{}'s engine has no tunables: it does not play with the generic search",
                                G::NAME
                            ));
                            return Flow::Continue;
                        }
                        if let Err(e) = self.tunables.set_number(name, value) {
                            self.error(&e.to_string());
                            return Flow::Continue;
                        }
                    }
                }
                self.out.line("ok");
            }
            Command::Go(limits) => self.go(limits),
            Command::Solve { limits, wdl } => self.solve(limits, wdl),
        }
        Flow::Continue
    }

    fn set_position(&mut self, start: &Start, moves: &[String]) -> Result<(), String> {
        let position = match start {
            Start::Initial => self.start,
            Start::File(path) => {
                let file = load_file::<G>(path).map_err(|e| {
                    let mut place = e.path.clone();
                    if let Some(line) = e.line {
                        place.push_str(&format!(":{line}"));
                        if let Some(column) = e.column {
                            place.push_str(&format!(":{column}"));
                        }
                    }
                    format!("{place}: {}", e.message)
                })?;
                file.position
            }
        };
        let (positions, played) = (
            std::mem::replace(&mut self.positions, vec![position]),
            std::mem::take(&mut self.moves),
        );
        match self.play(moves) {
            Ok(()) => {
                if let Start::File(_) = start {
                    // A file's rules are the game's from now on: `position start` starts
                    // under them.
                    self.start = position.fresh_start();
                }
                Ok(())
            }
            Err(message) => {
                self.positions = positions;
                self.moves = played;
                Err(message)
            }
        }
    }

    fn play(&mut self, moves: &[String]) -> Result<(), String> {
        for (i, text) in moves.iter().enumerate() {
            let mut position = self.current();
            let mv = position
                .parse_move(text)
                .map_err(|e| format!("move {} (`{text}`) cannot be played: {e}", i + 1))?;
            position.play(mv);
            self.positions.push(position);
            self.moves.push(mv);
        }
        Ok(())
    }

    fn go(&mut self, limits: Limits) {
        let position = self.current();
        let request = EngineRequest {
            nodes: limits.nodes,
            time: if (limits.nodes.is_some() || limits.clock.is_some()) && limits.time.is_none() {
                None
            } else {
                Some(limits.time.unwrap_or(DEFAULT_TIME))
            },
            clock: limits.clock,
            threads: self.threads,
            seed: self.seed,
            level: self.level,
            tt_mb: self.tt_mb,
            stop: Arc::default(),
            tunables: self.tunables,
        };
        let out = self.out.clone();
        self.search.start(move |stop| {
            let request = EngineRequest { stop, ..request };
            let choice = position.engine_choice(&request, &mut |info| {
                let millis = info.elapsed.as_millis().max(1);
                out.line(&format!(
                    "info depth {} nodes {} time {} nps {} estimate {:+.2} pv {}",
                    info.depth,
                    info.nodes,
                    info.elapsed.as_millis(),
                    u128::from(info.nodes) * 1000 / millis,
                    info.estimate,
                    position.line_text(&info.pv).join(" ")
                ));
            });
            let judgement = if choice.exact { "exact" } else { "estimate" };
            let best = choice.best.map_or_else(
                || "none".to_string(),
                |mv| position.move_text_with_player(mv),
            );
            let nodes = choice
                .nodes
                .map_or_else(String::new, |n| format!(" nodes {n}"));
            out.line(
                format!(
                    "bestmove {best} value {} {judgement} depth {}{nodes} time {} pv {}",
                    choice.value,
                    choice.depth,
                    choice.elapsed.as_millis(),
                    position.line_text(&choice.pv).join(" ")
                )
                .trim_end(),
            );
        });
    }

    fn solve(&mut self, limits: Limits, wdl: bool) {
        let position = self.current();
        if let Some(why) = position.unsolvable() {
            self.error(&why);
            return;
        }
        let options = position.solve_options(SolveOptions {
            threads: if limits.nodes.is_some() {
                1
            } else {
                self.threads
            },
            tt_mb: self.tt_mb,
            initial_tt_mb: Some(self.tt_mb.min(4)),
            wdl,
            time_limit: limits.time,
            stop: Arc::default(),
            root_values: false,
            max_nodes: limits.nodes,
            estimate: None,
            window: None,
            method: cathedral::boardgame::Method::Auto,
        });
        let out = self.out.clone();
        self.search.start(move |stop| {
            let options = SolveOptions { stop, ..options };
            let last = Mutex::new(Instant::now());
            let solution = position.solve_exactly(&options, &|progress| {
                let mut last = last.lock().unwrap_or_else(|e| e.into_inner());
                if last.elapsed() < SOLVE_INFO_EVERY {
                    return;
                }
                *last = Instant::now();
                let phase = match progress.phase {
                    Phase::Value => "value".to_string(),
                    Phase::RootMoves { done, total } => format!("root-moves {done}/{total}"),
                    Phase::Line => "line".to_string(),
                };
                out.line(&format!(
                    "info phase {phase} nodes {} time {} lower {:+} upper {:+}",
                    progress.nodes,
                    progress.elapsed.as_millis(),
                    progress.lower,
                    progress.upper
                ));
            });
            let stats = format!(
                "nodes {} time {}",
                solution.stats.nodes,
                solution.stats.elapsed.as_millis()
            );
            let line = position.line_text(&solution.best_line).join(" ");
            let answer = if solution.is_exact() && options.wdl {
                let result = match solution.lower {
                    v if v > 0 => "win",
                    0 => "draw",
                    _ => "loss",
                };
                format!("solution wdl {result} {stats} line {line}")
            } else if solution.is_exact() {
                format!(
                    "solution exact value {:+} {stats} line {line}",
                    solution.lower
                )
            } else {
                let best = solution.best_so_far.map_or_else(
                    || "none".to_string(),
                    |mv| position.move_text_with_player(mv),
                );
                format!(
                    "solution bounds {:+} {:+} {stats} best {best}",
                    solution.lower, solution.upper
                )
            };
            out.line(answer.trim_end());
        });
    }
}
