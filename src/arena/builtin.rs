//! The built-in players as a match names them (`random`, `policy`, `greedy`,
//! `engine:level=4,nodes=500`): read from their specs with errors in words, and written back.
//! What each plays is the game's ([`MatchGame::builtin_move`](super::MatchGame::builtin_move)).

use crate::boardgame::Clock;
use crate::boardgame::engine::{TUNABLES, Tunables};
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// The strongest level, the default.
const MAX_LEVEL: u8 = 10;

/// How much a built-in engine may think per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// A time per move.
    Time(Duration),
    /// Nodes per move: reproducible on any machine.
    Nodes(u64),
    /// A game clock (the time at the start of a game and the increment per move), shared out by
    /// the engine; as a move's budget, the clock before that move.
    Clock(Clock),
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Budget::Time(t) => write!(f, "{} ms", t.as_millis()),
            Budget::Nodes(1) => write!(f, "1 node"),
            Budget::Nodes(n) => write!(f, "{n} nodes"),
            Budget::Clock(clock) => write!(f, "clock {clock}"),
        }
    }
}

/// A built-in player, as written on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuiltIn {
    /// A uniformly random legal move.
    Random,
    /// The sampling policy (biggest pieces and claims first, with noise).
    Policy,
    /// The greedy player: its biggest piece, claiming the most; ties broken at random.
    Greedy,
    /// The engine at a level, with an optional budget of its own.
    Engine {
        /// 1 (weakest) to 10 (full strength).
        level: u8,
        /// The budget; `None`: the match's.
        budget: Option<Budget>,
        /// The evaluation's weights.
        eval: EvalChoice,
        /// Whether the exact solver may take over.
        exact: bool,
        /// Threads of the search and the solver (1 to 64); with a node budget, one.
        threads: usize,
        /// On a clock, whether the engine spends more on critical moves (off: the same share
        /// for every move, to measure what the time management brings).
        manage: bool,
        /// The search's tunables (`late_moves=8`; a build with the `tune` feature), to test a
        /// new value against the declared one without a rebuild.
        tunables: Tunables,
    },
}

/// Which evaluation an engine plays with (to measure what each brought), by name: the game says
/// what each means, and a game without it refuses it ([`MatchGame::plays`](crate::arena::MatchGame::plays)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EvalChoice {
    /// The learned network (the engine's own).
    #[default]
    Network,
    /// The linear features with the weights fitted to exact values (the engine's own before the
    /// network).
    Fitted,
    /// The linear features with the first hand-set weights.
    Guessed,
    /// Squares in hand only.
    Material,
    /// A network read from a weights file (`weights=FILE`) where the committed one judges:
    /// to measure a newly trained network against it.
    Weights(WeightsFile),
}

/// A weights file, known by its path: its text is read with the spec (so that a missing file is
/// refused before any game), and the game reads its network from the text.
#[derive(Clone, Copy, Debug)]
pub struct WeightsFile {
    path: &'static str,
    text: &'static str,
}

impl WeightsFile {
    /// Reads the text of `path` for the rest of the program.
    pub fn read(path: &str) -> Result<WeightsFile, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read the network weights {path}: {e}"))?;
        Ok(WeightsFile {
            path: Box::leak(path.to_string().into_boxed_str()),
            text: Box::leak(text.into_boxed_str()),
        })
    }

    /// The path as given.
    pub fn path(&self) -> &'static str {
        self.path
    }

    /// The file's text, as read.
    pub fn text(&self) -> &'static str {
        self.text
    }
}

/// Two readings are the same choice only when they are one reading.
impl PartialEq for WeightsFile {
    fn eq(&self, other: &WeightsFile) -> bool {
        self.path == other.path && std::ptr::eq(self.text, other.text)
    }
}

impl Eq for WeightsFile {}

impl fmt::Display for EvalChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalChoice::Fitted => f.write_str("fitted eval"),
            EvalChoice::Guessed => f.write_str("guessed eval"),
            EvalChoice::Material => f.write_str("material eval"),
            EvalChoice::Network => f.write_str("network eval"),
            EvalChoice::Weights(file) => write!(f, "weights {}", file.path),
        }
    }
}

/// A player specification that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{text}` is not a player: {reason}")]
pub struct SpecError {
    text: String,
    reason: String,
}

impl BuiltIn {
    /// The engine at `level` with every other setting as a spec leaves it: the match's budget,
    /// the network, the exact solver, one thread, its time management, the declared tunables.
    pub fn engine(level: u8) -> BuiltIn {
        BuiltIn::Engine {
            level,
            budget: None,
            eval: EvalChoice::default(),
            exact: true,
            threads: 1,
            manage: true,
            tunables: Tunables::default(),
        }
    }
}

impl FromStr for BuiltIn {
    type Err = SpecError;

    /// `random`, `policy`, `greedy`, `engine`, or `engine:level=5,nodes=20000,time=200ms`.
    fn from_str(text: &str) -> Result<BuiltIn, SpecError> {
        let bad = |reason: String| SpecError {
            text: text.to_string(),
            reason,
        };
        let (kind, settings) = text.split_once(':').unwrap_or((text, ""));
        match kind.trim() {
            "random" | "policy" | "greedy" if !settings.is_empty() => {
                Err(bad(format!("`{kind}` takes no settings")))
            }
            "random" => Ok(BuiltIn::Random),
            "policy" => Ok(BuiltIn::Policy),
            "greedy" => Ok(BuiltIn::Greedy),
            "engine" => {
                let mut level = MAX_LEVEL;
                let mut budget = None;
                let mut eval = EvalChoice::default();
                let mut exact = true;
                let mut threads = 1;
                let mut manage = true;
                let mut tunables = Tunables::default();
                for setting in settings.split(',').filter(|s| !s.trim().is_empty()) {
                    let (key, value) = setting
                        .split_once('=')
                        .ok_or_else(|| bad(format!("`{setting}` should be key=value")))?;
                    let value = value.trim();
                    match key.trim() {
                        "level" => {
                            level = value
                                .parse()
                                .ok()
                                .filter(|l| (1..=MAX_LEVEL).contains(l))
                                .ok_or_else(|| bad(format!("level `{value}`: expected 1 to 10")))?;
                        }
                        "nodes" => {
                            let nodes: u64 =
                                value.parse().ok().filter(|&n| n >= 1).ok_or_else(|| {
                                    bad(format!("nodes `{value}`: expected a whole number from 1"))
                                })?;
                            budget = Some(Budget::Nodes(nodes));
                        }
                        "time" => {
                            let millis = parse_millis(value).ok_or_else(|| {
                                bad(format!("time `{value}`: expected seconds or milliseconds, like 1, 0.5 or 200ms"))
                            })?;
                            budget = Some(Budget::Time(Duration::from_millis(millis)));
                        }
                        "eval" => {
                            eval = match value {
                                "fitted" => EvalChoice::Fitted,
                                "guessed" => EvalChoice::Guessed,
                                "material" => EvalChoice::Material,
                                "network" => EvalChoice::Network,
                                _ => {
                                    return Err(bad(format!(
                                        "eval `{value}`: expected fitted, guessed, material or network"
                                    )));
                                }
                            };
                        }
                        "exact" => exact = on_off(key.trim(), value).map_err(bad)?,
                        "manage" => manage = on_off(key.trim(), value).map_err(bad)?,
                        "threads" => {
                            threads = value
                                .parse()
                                .ok()
                                .filter(|t| (1..=64).contains(t))
                                .ok_or_else(|| {
                                    bad(format!("threads `{value}`: expected 1 to 64"))
                                })?;
                        }
                        "weights" => {
                            eval = EvalChoice::Weights(WeightsFile::read(value).map_err(bad)?);
                        }
                        tunable if TUNABLES.iter().any(|t| t.name == tunable) => {
                            tunables
                                .set(tunable, value)
                                .map_err(|e| bad(e.to_string()))?;
                        }
                        other => {
                            return Err(bad(format!(
                                "unknown setting `{other}`: expected level, nodes, time, eval, weights, exact, threads, manage or a tunable of the search ({})",
                                TUNABLES
                                    .iter()
                                    .map(|t| t.name)
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            )));
                        }
                    }
                }
                Ok(BuiltIn::Engine {
                    level,
                    budget,
                    eval,
                    exact,
                    threads,
                    manage,
                    tunables,
                })
            }
            other => Err(bad(format!(
                "unknown player `{other}`: expected random, policy, greedy, engine[:level=N,nodes=N,time=T] or cmd:COMMAND"
            ))),
        }
    }
}

/// A setting that is `on` or `off`.
fn on_off(key: &str, value: &str) -> Result<bool, String> {
    match value {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(format!("{key} `{value}`: expected on or off")),
    }
}

/// `200ms`, `1.5`, `2s` as milliseconds (at least 1, at most an hour).
fn parse_millis(text: &str) -> Option<u64> {
    let (number, scale) = if let Some(n) = text.strip_suffix("ms") {
        (n, 1.0)
    } else if let Some(n) = text.strip_suffix('s') {
        (n, 1000.0)
    } else {
        (text, 1000.0)
    };
    let millis = number.trim().parse::<f64>().ok()? * scale;
    (millis.is_finite() && (1.0..=3_600_000.0).contains(&millis)).then(|| millis.round() as u64)
}

impl fmt::Display for BuiltIn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuiltIn::Random => f.write_str("random"),
            BuiltIn::Policy => f.write_str("policy"),
            BuiltIn::Greedy => f.write_str("greedy"),
            BuiltIn::Engine {
                level,
                budget,
                eval,
                exact,
                threads,
                manage,
                tunables,
            } => {
                write!(f, "engine level {level}")?;
                if *threads > 1 {
                    write!(f, ", {threads} threads")?;
                }
                if *eval != EvalChoice::default() {
                    write!(f, ", {eval}")?;
                }
                if !exact {
                    write!(f, ", no exact solver")?;
                }
                if !manage {
                    write!(f, ", the same time for every move")?;
                }
                if *tunables != Tunables::default() {
                    write!(f, ", {tunables}")?;
                }
                if let Some(budget) = budget {
                    write!(f, ", {budget}")?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_read_and_refuse() {
        assert_eq!("greedy".parse(), Ok(BuiltIn::Greedy));
        assert_eq!(
            "engine:level=4,nodes=500".parse(),
            Ok(BuiltIn::Engine {
                level: 4,
                budget: Some(Budget::Nodes(500)),
                eval: EvalChoice::default(),
                exact: true,
                threads: 1,
                manage: true,
                tunables: Tunables::default(),
            })
        );
        assert_eq!(
            "engine:time=200ms".parse(),
            Ok(BuiltIn::Engine {
                level: MAX_LEVEL,
                budget: Some(Budget::Time(Duration::from_millis(200))),
                eval: EvalChoice::default(),
                exact: true,
                threads: 1,
                manage: true,
                tunables: Tunables::default(),
            })
        );
        assert_eq!(
            "engine:eval=material,exact=off"
                .parse::<BuiltIn>()
                .map(|b| b.to_string()),
            Ok("engine level 10, material eval, no exact solver".to_string())
        );
        assert_eq!(
            "engine:threads=2,time=1"
                .parse::<BuiltIn>()
                .map(|b| b.to_string()),
            Ok("engine level 10, 2 threads, 1000 ms".to_string())
        );
        let weights = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
        let read = format!("engine:weights={weights}").parse::<BuiltIn>();
        assert_eq!(
            read.as_ref().map(|b| b.to_string()),
            Ok(format!("engine level 10, weights {weights}"))
        );
        let missing = "engine:weights=no-such-file.txt".parse::<BuiltIn>();
        assert!(
            missing
                .as_ref()
                .is_err_and(|e| e.to_string().contains("no-such-file.txt")),
            "{missing:?}"
        );
        // A tunable of the search: set in a `tune` build, refused in words otherwise.
        let tuned = "engine:late_moves=8,nodes=500".parse::<BuiltIn>();
        if Tunables::settable() {
            assert_eq!(
                tuned.as_ref().map(|b| b.to_string()),
                Ok("engine level 10, late_moves=8, 500 nodes".to_string())
            );
        } else {
            let refused = tuned.unwrap_err().to_string();
            assert!(refused.contains("the `tune` feature"), "{refused}");
        }
        let unknown = "engine:depth=3".parse::<BuiltIn>().unwrap_err().to_string();
        assert!(
            unknown.contains("a tunable of the search (picked, futile_depth"),
            "{unknown}"
        );
        assert_eq!(BuiltIn::engine(10), "engine".parse().unwrap());
        for bad in [
            "engine:late_moves=0",
            "engine:futile_margin=lots",
            "engine:threads=0",
            "engine:threads=65",
            "engine:level=11",
            "engine:level=0",
            "engine:nodes=0",
            "engine:time=-1",
            "engine:depth=3",
            "engine:level",
            "engine:eval=magic",
            "engine:exact=maybe",
            "greedy:level=2",
            "alphazero",
        ] {
            assert!(bad.parse::<BuiltIn>().is_err(), "{bad} was accepted");
        }
    }
}
