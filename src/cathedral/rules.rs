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

/// When the Cathedral is placed.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum CathedralTiming {
    /// Every sheet: Light places the Cathedral, then Dark makes the first move.
    #[default]
    First,
    /// Tom Lehmann and Don Woods' change: Dark makes the first move on the empty board; Light then
    /// places the Cathedral along with its own first building, two placements in one turn.
    AfterFirstMove,
}

/// Which regions a building move claims (`docs/rules.md`, rule 4.7).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Claims {
    /// Every region of the mover's is evaluated after each of its building moves (after its
    /// first): a region enclosed earlier but not claimed (by a first move, or a declined capture)
    /// is claimed by the enclosing player's next building move, wherever it is placed. The
    /// reading of the independent engines this one was checked against.
    #[default]
    Standing,
    /// Only the regions the move itself closes (the parts of the region the building was placed
    /// in) are evaluated: a capture happens at once or not at all, as MT ("If not, it remains
    /// where it is") and World rule 5 ("tout de suite après le coup") say.
    AtOnce,
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
    /// When the Cathedral is placed.
    pub cathedral: CathedralTiming,
    /// Which regions a building move claims.
    pub claims: Claims,
}

impl Rules {
    /// The Magnetic Travel / Classic rule sheets.
    pub const CLASSIC: Rules = Rules {
        capture: Capture::Mandatory,
        pass: Pass::Forced,
        first_move: FirstMove::NoClaim,
        cathedral: CathedralTiming::First,
        claims: Claims::Standing,
    };

    /// Robert Moore's 1978 description: optional capture and voluntary passing.
    pub const MOORE_1978: Rules = Rules {
        capture: Capture::Optional,
        pass: Pass::Voluntary,
        first_move: FirstMove::NoClaim,
        cathedral: CathedralTiming::First,
        claims: Claims::Standing,
    };

    /// The classic rules with Tom Lehmann and Don Woods' change: the Cathedral is placed after
    /// Dark's first move, by Light, along with Light's first building.
    pub const LEHMANN_WOODS: Rules = Rules {
        cathedral: CathedralTiming::AfterFirstMove,
        ..Rules::CLASSIC
    };

    /// The classic rules read as the sheets' words say: a capture happens at once or never
    /// (MT: "you MUST remove it from play IMMEDIATELY. If not, it remains where it is and the
    /// space is still available to your opponent"), so only the regions a move closes are claimed.
    pub const SHEETS: Rules = Rules {
        claims: Claims::AtOnce,
        ..Rules::CLASSIC
    };

    /// Named presets, as written in position files.
    pub const PRESETS: [(&'static str, Rules); 4] = [
        ("classic", Rules::CLASSIC),
        ("moore1978", Rules::MOORE_1978),
        ("lehmann-woods", Rules::LEHMANN_WOODS),
        ("sheets", Rules::SHEETS),
    ];

    /// The preset name of these rules, if they are one.
    ///
    /// ```
    /// use cathedral::Rules;
    ///
    /// assert_eq!(Rules::CLASSIC.preset_name(), Some("classic"));
    /// // Every preset is one of the 32 combinations of the five options, named once.
    /// for (name, rules) in Rules::PRESETS {
    ///     assert_eq!(rules.preset_name(), Some(name));
    ///     assert!(Rules::all().any(|r| r == rules));
    /// }
    /// assert_eq!(Rules::all().count(), 32);
    /// ```
    pub fn preset_name(self) -> Option<&'static str> {
        Rules::PRESETS
            .iter()
            .find(|(_, rules)| *rules == self)
            .map(|(name, _)| *name)
    }

    /// Every combination of the five options (32), for tests that must hold under every
    /// variant. The first sixteen claim `standing`, and of those the first eight place the
    /// Cathedral first, as every sheet does; the next sixteen are the same with `at-once`.
    pub fn all() -> impl Iterator<Item = Rules> {
        [Claims::Standing, Claims::AtOnce]
            .into_iter()
            .flat_map(Rules::all_claiming)
    }

    /// The sixteen combinations of the other four options, with `claims`.
    fn all_claiming(claims: Claims) -> impl Iterator<Item = Rules> {
        let timings = [CathedralTiming::First, CathedralTiming::AfterFirstMove];
        timings.into_iter().flat_map(move |cathedral| {
            [Capture::Mandatory, Capture::Optional]
                .into_iter()
                .flat_map(move |capture| {
                    [Pass::Forced, Pass::Voluntary]
                        .into_iter()
                        .flat_map(move |pass| {
                            [FirstMove::NoClaim, FirstMove::NoEnclosure]
                                .into_iter()
                                .map(move |first_move| Rules {
                                    capture,
                                    pass,
                                    first_move,
                                    cathedral,
                                    claims,
                                })
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

impl CathedralTiming {
    /// The option's value as written in files: `first` or `after-first-move`.
    pub const fn name(self) -> &'static str {
        match self {
            CathedralTiming::First => "first",
            CathedralTiming::AfterFirstMove => "after-first-move",
        }
    }
}

impl Claims {
    /// The option's value as written in files: `standing` or `at-once`.
    pub const fn name(self) -> &'static str {
        match self {
            Claims::Standing => "standing",
            Claims::AtOnce => "at-once",
        }
    }
}

/// `classic`, `moore1978`, `lehmann-woods`, `sheets`, or the five options: `capture: optional,
/// pass: forced, first_move: no-claim, cathedral: first, claims: standing`.
impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.preset_name() {
            Some(name) => f.write_str(name),
            None => write!(
                f,
                "capture: {}, pass: {}, first_move: {}, cathedral: {}, claims: {}",
                self.capture.name(),
                self.pass.name(),
                self.first_move.name(),
                self.cathedral.name(),
                self.claims.name()
            ),
        }
    }
}

/// A rule variant or rule option that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// The name is not a known preset.
    #[error(
        "`{0}` is not a rule variant: expected `classic`, `moore1978`, `lehmann-woods` or `sheets`"
    )]
    UnknownPreset(String),
    /// An option has a value it does not take.
    #[error("`{value}` is not a value of `{option}`: expected {expected}")]
    BadOption {
        /// The option's name: `capture`, `pass`, `first_move`, `cathedral` or `claims`.
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

impl FromStr for CathedralTiming {
    type Err = RulesError;
    fn from_str(s: &str) -> Result<CathedralTiming, RulesError> {
        match s.trim() {
            "first" => Ok(CathedralTiming::First),
            "after-first-move" => Ok(CathedralTiming::AfterFirstMove),
            _ => Err(RulesError::BadOption {
                option: "cathedral",
                value: s.to_string(),
                expected: "`first` or `after-first-move`",
            }),
        }
    }
}

impl FromStr for Claims {
    type Err = RulesError;
    fn from_str(s: &str) -> Result<Claims, RulesError> {
        match s.trim() {
            "standing" => Ok(Claims::Standing),
            "at-once" => Ok(Claims::AtOnce),
            _ => Err(RulesError::BadOption {
                option: "claims",
                value: s.to_string(),
                expected: "`standing` or `at-once`",
            }),
        }
    }
}
