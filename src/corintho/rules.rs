//! The rule variants: where the sheet allows two readings, both are offered (docs/corintho.md).

use std::fmt;

/// What may be placed on an unoccupied platform (game play 1, building code 1, Fig. 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Placement {
    /// The sheet's words: any section on an UNOCCUPIED platform; stacking order binds stacks.
    #[default]
    Free,
    /// Only in stacking order: a base on an unoccupied platform, a column on a base-topped stack,
    /// a capital on a column-topped stack (every stack then stands on a base and never moves).
    Ordered,
}

/// How long the last placed or moved stack stays untouchable (building code 5). The same with
/// two players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Lock {
    /// Through the next player's turn only (a singular reading of the English text).
    Next,
    /// Through a full round: until its mover's next turn (the English "until the next players'
    /// turn has passed", a plural, and the French "avant le prochain tour complet").
    #[default]
    Round,
}

/// What answers a claim, a row just made (Winning the game; Modifying a row of 3, Figs. 4-6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Answer {
    /// The sheet's: the row must be *modified*: every claimed row broken (Fig. 6) or extended
    /// into a row of four (Fig. 4). A new row elsewhere leaves the claim standing unmodified.
    #[default]
    Modify,
    /// A new row anywhere answers too (and is a claim in turn).
    NewRow,
}

/// The rules a game is played by.
///
/// ```
/// use cathedral::corintho::{CorinthoRules, Placement};
/// let rules = CorinthoRules::for_players(2).unwrap();
/// assert_eq!(rules.placement, Placement::Free);
/// assert_eq!(rules.start_supply(), [4, 4, 4]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CorinthoRules {
    /// 2, 3 or 4.
    pub players: u8,
    /// Placement reading.
    pub placement: Placement,
    /// Lock reading (matters for 3 and 4 players).
    pub lock: Lock,
    /// Whether three base-topped stacks make a row ("identically topped sections": yes).
    pub base_rows: bool,
    /// What answers a claim.
    pub answer: Answer,
}

impl Default for CorinthoRules {
    /// The standard rules for two players.
    fn default() -> CorinthoRules {
        CorinthoRules {
            players: 2,
            placement: Placement::Free,
            lock: Lock::Round,
            base_rows: true,
            answer: Answer::Modify,
        }
    }
}

impl CorinthoRules {
    /// The standard rules for 2 to 4 players.
    pub fn for_players(players: u8) -> Option<CorinthoRules> {
        (2..=4).contains(&players).then_some(CorinthoRules {
            players,
            ..CorinthoRules::default()
        })
    }

    /// Each player's own sections at the start, per level: 4/4/4 for two, 2/2/2 otherwise.
    pub fn start_supply(&self) -> [u8; 3] {
        if self.players == 2 { [4; 3] } else { [2; 3] }
    }

    /// The shared extra sections at the start: 2/2/2 with three players, none otherwise.
    pub fn start_shared(&self) -> [u8; 3] {
        if self.players == 3 { [2; 3] } else { [0; 3] }
    }

    /// Every section of each level in the game.
    pub fn total(&self) -> [u8; 3] {
        let own = self.start_supply();
        let shared = self.start_shared();
        [0, 1, 2].map(|i| own[i] * self.players + shared[i])
    }

    /// How many of the last moves' destinations are locked for the side to move.
    pub fn locked_moves(&self) -> usize {
        match self.lock {
            Lock::Next => 1,
            Lock::Round => self.players as usize - 1,
        }
    }

    /// Whether a move that turned the claimed rows `claimed` into the rows `after` answers the
    /// claim: under [`Answer::Modify`] every claimed row is broken or extended by a new row
    /// into a row of four; under [`Answer::NewRow`] all are broken or any new row is made.
    pub fn answers(&self, claimed: u32, after: u32) -> bool {
        let new = after & !claimed;
        match self.answer {
            Answer::NewRow => new != 0 || after == 0,
            Answer::Modify => (0..super::board::LINES.len())
                .filter(|&i| claimed >> i & 1 != 0)
                .all(|i| after >> i & 1 == 0 || new & super::board::EXTENSIONS[i] != 0),
        }
    }

    /// The variants that differ from the standard rules, in file words.
    pub fn variant_words(&self) -> Vec<String> {
        let mut words = Vec::new();
        if self.placement == Placement::Ordered {
            words.push("placement: ordered".to_string());
        }
        if self.lock == Lock::Next {
            words.push("lock: next".to_string());
        }
        if !self.base_rows {
            words.push("base_rows: false".to_string());
        }
        if self.answer == Answer::NewRow {
            words.push("answer: new_row".to_string());
        }
        words
    }
}

impl fmt::Display for CorinthoRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} players", self.players)?;
        let words = self.variant_words();
        if !words.is_empty() {
            write!(f, " ({})", words.join(", "))?;
        }
        Ok(())
    }
}
