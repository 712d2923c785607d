//! Rule variants. `docs/rules.md` says which rule sheet supports each reading.

use std::fmt;
use std::str::FromStr;

/// Whether enclosing a single building must remove it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Capture {
    /// Magnetic Travel / Classic sheets: "you MUST remove it from play IMMEDIATELY".
    #[default]
    Mandatory,
    /// Moore 1978: "he may remove the surrounded piece"; declining leaves the region unclaimed.
    Optional,
}

/// When a player may pass.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Pass {
    /// Only a player with no legal placement passes; the game ends when neither can place.
    #[default]
    Forced,
    /// Moore 1978: a player may pass on any turn; two passes in a row end the game.
    Voluntary,
}

/// What a player's first building move may do.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum FirstMove {
    /// The first move is legal even if it encloses a region, but claims nothing.
    #[default]
    NoClaim,
    /// A first move that divides the free cells into separate regions is illegal.
    NoEnclosure,
}

/// A complete rule variant.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Rules {
    /// Whether enclosing a single building must capture it.
    pub capture: Capture,
    /// When a player may pass.
    pub pass: Pass,
    /// What a player's first building move may do.
    pub first_move: FirstMove,
}

impl Rules {
    /// The Magnetic Travel / Classic rule sheets.
    pub const CLASSIC: Rules = Rules {
        capture: Capture::Mandatory,
        pass: Pass::Forced,
        first_move: FirstMove::NoClaim,
    };

    /// Robert Moore's 1978 description: optional capture and voluntary passing.
    pub const MOORE_1978: Rules = Rules {
        capture: Capture::Optional,
        pass: Pass::Voluntary,
        first_move: FirstMove::NoClaim,
    };

    /// Named presets, as written in position files.
    pub const PRESETS: [(&'static str, Rules); 2] = [
        ("classic", Rules::CLASSIC),
        ("moore1978", Rules::MOORE_1978),
    ];

    /// The preset name of these rules, if they are one.
    pub fn preset_name(self) -> Option<&'static str> {
        Rules::PRESETS
            .iter()
            .find(|(_, rules)| *rules == self)
            .map(|(name, _)| *name)
    }

    /// Every combination of the three options, for tests that must hold under every variant.
    pub fn all() -> impl Iterator<Item = Rules> {
        [Capture::Mandatory, Capture::Optional]
            .into_iter()
            .flat_map(|capture| {
                [Pass::Forced, Pass::Voluntary]
                    .into_iter()
                    .flat_map(move |pass| {
                        [FirstMove::NoClaim, FirstMove::NoEnclosure]
                            .into_iter()
                            .map(move |first_move| Rules {
                                capture,
                                pass,
                                first_move,
                            })
                    })
            })
    }
}

impl Capture {
    /// The option's value as written in files: `mandatory` or `optional`.
    pub const fn name(self) -> &'static str {
        match self {
            Capture::Mandatory => "mandatory",
            Capture::Optional => "optional",
        }
    }
}

impl Pass {
    /// The option's value as written in files: `forced` or `voluntary`.
    pub const fn name(self) -> &'static str {
        match self {
            Pass::Forced => "forced",
            Pass::Voluntary => "voluntary",
        }
    }
}

impl FirstMove {
    /// The option's value as written in files: `no-claim` or `no-enclosure`.
    pub const fn name(self) -> &'static str {
        match self {
            FirstMove::NoClaim => "no-claim",
            FirstMove::NoEnclosure => "no-enclosure",
        }
    }
}

/// `classic`, `moore1978`, or the three options: `capture: optional, pass: forced, first_move: no-claim`.
impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.preset_name() {
            Some(name) => f.write_str(name),
            None => write!(
                f,
                "capture: {}, pass: {}, first_move: {}",
                self.capture.name(),
                self.pass.name(),
                self.first_move.name()
            ),
        }
    }
}

/// A rule variant or rule option that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// The name is not a known preset.
    #[error("`{0}` is not a rule variant: expected `classic` or `moore1978`")]
    UnknownPreset(String),
    /// An option has a value it does not take.
    #[error("`{value}` is not a value of `{option}`: expected {expected}")]
    BadOption {
        /// The option's name: `capture`, `pass` or `first_move`.
        option: &'static str,
        /// The value as written.
        value: String,
        /// The values the option takes, for the message.
        expected: &'static str,
    },
}

impl FromStr for Rules {
    type Err = RulesError;
    fn from_str(s: &str) -> Result<Rules, RulesError> {
        let lower = s.trim().to_ascii_lowercase();
        Rules::PRESETS
            .iter()
            .find(|(name, _)| *name == lower)
            .map(|(_, rules)| *rules)
            .ok_or_else(|| RulesError::UnknownPreset(s.to_string()))
    }
}

impl FromStr for Capture {
    type Err = RulesError;
    fn from_str(s: &str) -> Result<Capture, RulesError> {
        match s.trim() {
            "mandatory" => Ok(Capture::Mandatory),
            "optional" => Ok(Capture::Optional),
            _ => Err(RulesError::BadOption {
                option: "capture",
                value: s.to_string(),
                expected: "`mandatory` or `optional`",
            }),
        }
    }
}

impl FromStr for Pass {
    type Err = RulesError;
    fn from_str(s: &str) -> Result<Pass, RulesError> {
        match s.trim() {
            "forced" => Ok(Pass::Forced),
            "voluntary" => Ok(Pass::Voluntary),
            _ => Err(RulesError::BadOption {
                option: "pass",
                value: s.to_string(),
                expected: "`forced` or `voluntary`",
            }),
        }
    }
}

impl FromStr for FirstMove {
    type Err = RulesError;
    fn from_str(s: &str) -> Result<FirstMove, RulesError> {
        match s.trim() {
            "no-claim" => Ok(FirstMove::NoClaim),
            "no-enclosure" => Ok(FirstMove::NoEnclosure),
            _ => Err(RulesError::BadOption {
                option: "first_move",
                value: s.to_string(),
                expected: "`no-claim` or `no-enclosure`",
            }),
        }
    }
}
