//! The protocol's commands, read from one line each. Reading never panics: a line that is not a
//! command gets a message saying what was expected.

use cathedral::boardgame::Clock;
use cathedral::boardgame::engine::{TUNABLES, Tunables};
use cathedral::frontend::limits;
use std::path::PathBuf;
use std::time::Duration;

/// The longest line accepted, in bytes (a full game's moves fit many times over).
pub const MAX_LINE: usize = 64 * 1024;

/// Where `position` starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// The empty board under the current rules.
    Initial,
    /// A position file.
    File(PathBuf),
}

/// An engine setting of `set`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Setting {
    /// One of the search's tunables (`set tune NAME VALUE`), in a build with the `tune` feature.
    Tune {
        /// The tunable, by its declared name.
        name: &'static str,
        /// Its new value, in its declared range.
        value: i64,
    },
    /// Threads of the solver and the estimating search (0 = all cores).
    Threads(usize),
    /// Table memory in MiB.
    TableMib(usize),
    /// Playing strength 1..10 for `go`.
    Level(u8),
    /// Seeds the noise of levels below 10.
    Seed(u64),
}

/// A budget for `go` and `solve`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Think at most this long.
    pub time: Option<Duration>,
    /// Search at most this many nodes (reproducible).
    pub nodes: Option<u64>,
    /// The side to move's game clock (`clock T [inc T]`), shared out by the engine instead of a
    /// time per move.
    pub clock: Option<Clock>,
}

/// One command.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Identify the engine and its protocol version.
    Hello,
    /// Answer `readyok` (a ping).
    IsReady,
    /// Set the rules (the game reads the words); the position becomes the start.
    Rules(Vec<String>),
    /// Set the position: a start and moves from it.
    Position {
        /// The empty board or a file.
        start: Start,
        /// Moves played from the start, in the notation.
        moves: Vec<String>,
    },
    /// Play moves from the current position.
    Play(Vec<String>),
    /// Take back moves.
    Undo(usize),
    /// List the legal moves.
    Moves,
    /// Describe the current position.
    Show,
    /// Change a setting.
    Set(Setting),
    /// Choose a move within a budget.
    Go(Limits),
    /// Solve exactly within a budget.
    Solve {
        /// The budget.
        limits: Limits,
        /// Win/draw/loss only.
        wdl: bool,
    },
    /// Stop the running search.
    Stop,
    /// End the session.
    Quit,
}

/// The command words, for the message of an unknown one.
pub const COMMANDS: &str =
    "hello, isready, rules, position, play, undo, moves, show, set, go, solve, stop, quit";

/// Reads one line; `Ok(None)` for a blank line or a `#` comment.
pub fn parse(line: &str) -> Result<Option<Command>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let words =
        shell_words::split(line).map_err(|_| "a quotation mark is not closed".to_string())?;
    let (name, args) = words
        .split_first()
        .ok_or_else(|| "an empty command".to_string())?;
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let none = |command: Command| {
        if args.is_empty() {
            Ok(command)
        } else {
            Err(format!("`{name}` takes no arguments"))
        }
    };
    let command = match name.as_str() {
        "hello" => none(Command::Hello)?,
        "isready" => none(Command::IsReady)?,
        "moves" => none(Command::Moves)?,
        "show" => none(Command::Show)?,
        "stop" => none(Command::Stop)?,
        "quit" => none(Command::Quit)?,
        "rules" => Command::Rules(args.iter().map(|s| s.to_string()).collect()),
        "position" => position(&args)?,
        "play" => {
            if args.is_empty() {
                return Err(
                    "`play` needs at least one move, like `play light:inn:a1,a2,b2`".into(),
                );
            }
            Command::Play(args.iter().map(|s| s.to_string()).collect())
        }
        "undo" => match args.as_slice() {
            [] => Command::Undo(1),
            [n] => Command::Undo(
                n.parse()
                    .ok()
                    .filter(|&n| (1..=1000).contains(&n))
                    .ok_or_else(|| {
                        format!("`{n}` is not a number of moves to take back: expected 1 to 1000")
                    })?,
            ),
            _ => return Err("`undo` takes at most one number".into()),
        },
        "set" => Command::Set(setting(&args)?),
        "go" => Command::Go(budget(&args, false)?.0),
        "solve" => {
            let (limits, wdl) = budget(&args, true)?;
            Command::Solve { limits, wdl }
        }
        other => {
            return Err(format!(
                "`{other}` is not a command: expected one of {COMMANDS}"
            ));
        }
    };
    Ok(Some(command))
}

fn position(args: &[&str]) -> Result<Command, String> {
    let (start, rest) = match args {
        ["start", rest @ ..] => (Start::Initial, rest),
        ["file", path, rest @ ..] => (Start::File(PathBuf::from(path)), rest),
        ["file"] => return Err("`position file` needs a path".into()),
        _ => {
            return Err(
                "`position` needs `start` or `file PATH`, then optionally `moves M1 M2 ...`".into(),
            );
        }
    };
    let moves = match rest {
        [] => Vec::new(),
        ["moves", moves @ ..] => moves.iter().map(|s| s.to_string()).collect(),
        [other, ..] => {
            return Err(format!(
                "`{other}` after the start: expected `moves` and the moves"
            ));
        }
    };
    Ok(Command::Position { start, moves })
}

fn setting(args: &[&str]) -> Result<Setting, String> {
    if let ["tune", rest @ ..] = args {
        return tune(rest);
    }
    let [name, value] = args else {
        return Err("`set` needs a name and a value, like `set level 5`".into());
    };
    match *name {
        "threads" => Ok(Setting::Threads(limits::threads(value)?)),
        "tt-mb" => Ok(Setting::TableMib(limits::table_mib(value)?)),
        "level" => Ok(Setting::Level(limits::level(value)?)),
        "seed" => value.parse().map(Setting::Seed).map_err(|_| {
            format!(
                "`{value}` is not a seed: expected a whole number from 0 to {}",
                u64::MAX
            )
        }),
        other => Err(format!(
            "`{other}` is not a setting: expected threads, tt-mb, level, seed or tune"
        )),
    }
}

/// `set tune NAME VALUE`: checked against the declared tunables (name, range, and whether this
/// build can set one) as it is read, so that a refused value leaves the session as it was.
fn tune(args: &[&str]) -> Result<Setting, String> {
    let [name, value] = args else {
        return Err("`set tune` needs a tunable and a value, like `set tune late_moves 8`".into());
    };
    let mut check = Tunables::default();
    check.set(name, value).map_err(|e| e.to_string())?;
    let tunable = TUNABLES
        .iter()
        .find(|t| t.name == *name)
        .ok_or_else(|| format!("`{name}` is not a tunable"))?;
    let value = check.get(tunable.name).unwrap_or(tunable.default);
    Ok(Setting::Tune {
        name: tunable.name,
        value,
    })
}

/// `time SECS`, `nodes N` and, for `solve`, `wdl` (for `go`, `clock SECS [inc SECS]` instead of
/// `time`), in any order.
fn budget(args: &[&str], allow_wdl: bool) -> Result<(Limits, bool), String> {
    let mut limits = Limits::default();
    let mut wdl = false;
    let mut increment = None;
    let not_a_budget = |word: &str| {
        format!(
            "`{word}` is not a budget: expected {}",
            if allow_wdl {
                "`time SECS`, `nodes N` or `wdl`"
            } else {
                "`time SECS`, `nodes N` or `clock SECS [inc SECS]`"
            }
        )
    };
    let mut rest = args.iter();
    while let Some(&word) = rest.next() {
        match word {
            // `solve` proves; only `go` plays on a clock.
            "clock" | "inc" if allow_wdl => return Err(not_a_budget(word)),
            "time" | "nodes" | "clock" | "inc" => {
                let value = rest
                    .next()
                    .ok_or_else(|| format!("`{word}` needs a value"))?;
                match word {
                    "time" => limits.time = Some(limits::positive_seconds(value)?),
                    "nodes" => limits.nodes = Some(limits::budget(value)?),
                    "clock" => {
                        limits.clock =
                            Some(Clock::new(limits::positive_seconds(value)?, Duration::ZERO))
                    }
                    _ => increment = Some(limits::seconds(value)?),
                }
            }
            "wdl" if allow_wdl => wdl = true,
            other => return Err(not_a_budget(other)),
        }
    }
    match (&mut limits.clock, increment) {
        (Some(clock), Some(increment)) => clock.increment = increment,
        (None, Some(_)) => return Err("`inc` needs a `clock`: `clock SECS inc SECS`".to_string()),
        _ => {}
    }
    if limits.clock.is_some() && limits.time.is_some() {
        return Err(
            "`time` and `clock` are two budgets: give a time per move or the clock".to_string(),
        );
    }
    Ok((limits, wdl))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_read() {
        assert_eq!(parse("  # a comment"), Ok(None));
        assert_eq!(parse(""), Ok(None));
        assert_eq!(parse("hello"), Ok(Some(Command::Hello)));
        assert_eq!(
            parse("position start moves light:cathedral:a1 dark:inn:c3"),
            Ok(Some(Command::Position {
                start: Start::Initial,
                moves: vec!["light:cathedral:a1".into(), "dark:inn:c3".into()],
            }))
        );
        assert_eq!(
            parse("position file \"my games/a.yaml\""),
            Ok(Some(Command::Position {
                start: Start::File("my games/a.yaml".into()),
                moves: vec![],
            }))
        );
        assert_eq!(
            parse("go nodes 5000 time 2s"),
            Ok(Some(Command::Go(Limits {
                time: Some(Duration::from_secs(2)),
                nodes: Some(5000),
                clock: None,
            })))
        );
        assert_eq!(
            parse("go clock 55.5s inc 500ms"),
            Ok(Some(Command::Go(Limits {
                time: None,
                nodes: None,
                clock: Some(Clock::new(
                    Duration::from_millis(55_500),
                    Duration::from_millis(500)
                )),
            })))
        );
        assert_eq!(
            parse("rules pass=voluntary"),
            Ok(Some(Command::Rules(vec!["pass=voluntary".to_string()])))
        );
        assert_eq!(
            parse("set level 3"),
            Ok(Some(Command::Set(Setting::Level(3))))
        );
        assert_eq!(parse("undo 2"), Ok(Some(Command::Undo(2))));
    }

    #[test]
    fn bad_commands_say_what_was_expected() {
        for (line, expected) in [
            ("fly", "is not a command"),
            ("hello there", "takes no arguments"),
            ("go time", "needs a value"),
            ("go time -3", "duration"),
            ("go nodes 0", "out of range"),
            ("go depth 3", "not a budget"),
            ("go wdl", "not a budget"),
            ("go inc 1s", "`inc` needs a `clock`"),
            ("go clock 0", "leaves no time"),
            ("go clock 30s time 1s", "two budgets"),
            ("solve clock 30s", "not a budget"),
            ("set level 11", "out of range"),
            ("set colour red", "not a setting"),
            ("position", "needs `start`"),
            ("position start inn", "expected `moves`"),
            ("position file \"unclosed", "quotation mark"),
            ("undo 0", "expected 1 to 1000"),
            ("play", "at least one move"),
        ] {
            let error = parse(line).expect_err(line);
            assert!(error.contains(expected), "{line}: {error}");
        }
    }
}
