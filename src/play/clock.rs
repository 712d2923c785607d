//! How long players may think: a live game's Fischer clock (a base time and an increment for
//! each move made) or a correspondence game's days per move, kept by the server from the times
//! it stamped on the moves. Times are milliseconds since the Unix epoch, passed in, so that
//! every rule here is a plain function of the record.

use serde::{Deserialize, Serialize};

/// The longest base time or increment a live clock takes (three hours).
pub const MAX_LIVE_MS: u64 = 3 * 60 * 60 * 1000;
/// The most days per move a correspondence game takes.
pub const MAX_DAYS: u32 = 14;
/// A day in milliseconds.
pub const DAY_MS: u64 = 24 * 60 * 60 * 1000;

/// A game's time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum TimeControl {
    /// A live game: each player starts with `base_ms` and gains `increment_ms` after each
    /// move they make.
    Live {
        /// Each player's time at the start.
        base_ms: u64,
        /// The time a player gains after each of their moves.
        increment_ms: u64,
    },
    /// A correspondence game: every move within `days` days of the turn's start.
    Correspondence {
        /// The days each move may take.
        days: u32,
    },
}

/// The presets the page offers: (name, base minutes, increment seconds).
pub const LIVE_PRESETS: [(&str, u64, u64); 4] = [
    ("bullet 1+1", 1, 1),
    ("blitz 3+2", 3, 2),
    ("rapid 10+5", 10, 5),
    ("classical 30+20", 30, 20),
];

/// A time control that cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlError {
    /// A live clock needs some time: a base of at least one second.
    #[error("a live clock needs some time: a base of at least one second")]
    NoTime,
    /// A live clock's base and increment are each at most three hours.
    #[error("a live clock's base and increment are each at most three hours")]
    TooLong,
    /// A correspondence game's days per move out of range.
    #[error("a correspondence game has 1 to {MAX_DAYS} days per move, not {0}")]
    Days(u32),
    /// Not a time control's text.
    #[error("`{0}` is not a time control: write minutes+seconds (`5+3`) or days (`3d`)")]
    Unreadable(String),
}

impl TimeControl {
    /// The control if it can be played, or why not.
    pub fn checked(self) -> Result<TimeControl, TimeControlError> {
        match self {
            TimeControl::Live { base_ms, .. } if base_ms < 1000 => Err(TimeControlError::NoTime),
            TimeControl::Live {
                base_ms,
                increment_ms,
            } if base_ms > MAX_LIVE_MS || increment_ms > MAX_LIVE_MS => {
                Err(TimeControlError::TooLong)
            }
            TimeControl::Correspondence { days } if !(1..=MAX_DAYS).contains(&days) => {
                Err(TimeControlError::Days(days))
            }
            checked => Ok(checked),
        }
    }

    /// Reads `5+3` (minutes + seconds of increment) or `3d` (days per move).
    ///
    /// ```
    /// use cathedral::play::TimeControl;
    /// assert_eq!("5+3".parse(), Ok(TimeControl::Live { base_ms: 300_000, increment_ms: 3_000 }));
    /// assert_eq!("2d".parse(), Ok(TimeControl::Correspondence { days: 2 }));
    /// assert!("0+0".parse::<TimeControl>().is_err());
    /// ```
    fn read(text: &str) -> Result<TimeControl, TimeControlError> {
        let unreadable = || TimeControlError::Unreadable(text.to_string());
        let text = text.trim();
        if let Some(days) = text.strip_suffix('d') {
            let days = days.trim().parse().map_err(|_| unreadable())?;
            return TimeControl::Correspondence { days }.checked();
        }
        let (base, increment) = text.split_once('+').ok_or_else(unreadable)?;
        let minutes: f64 = base.trim().parse().map_err(|_| unreadable())?;
        let seconds: u64 = increment.trim().parse().map_err(|_| unreadable())?;
        if !minutes.is_finite() || !(0.0..=180.0).contains(&minutes) {
            return Err(TimeControlError::TooLong);
        }
        TimeControl::Live {
            base_ms: (minutes * 60_000.0).round() as u64,
            increment_ms: seconds.saturating_mul(1000),
        }
        .checked()
    }

    /// The most a turn may last before the mover has no time left, given the time they had at
    /// its start.
    pub fn turn_limit_ms(self, left_at_start: u64) -> u64 {
        match self {
            TimeControl::Live { .. } => left_at_start,
            TimeControl::Correspondence { days } => u64::from(days) * DAY_MS,
        }
    }

    /// A seat's time after a move that took `spent` of the `left` it had.
    pub fn after_move(self, left: u64, spent: u64) -> u64 {
        match self {
            TimeControl::Live { increment_ms, .. } => left.saturating_sub(spent) + increment_ms,
            TimeControl::Correspondence { days } => u64::from(days) * DAY_MS,
        }
    }

    /// Each seat's time at the start.
    pub fn start_ms(self) -> u64 {
        match self {
            TimeControl::Live { base_ms, .. } => base_ms,
            TimeControl::Correspondence { days } => u64::from(days) * DAY_MS,
        }
    }

    /// Whether the game is live (a player is expected to stay at the board).
    pub fn is_live(self) -> bool {
        matches!(self, TimeControl::Live { .. })
    }
}

impl std::str::FromStr for TimeControl {
    type Err = TimeControlError;

    fn from_str(text: &str) -> Result<TimeControl, TimeControlError> {
        TimeControl::read(text)
    }
}

impl std::fmt::Display for TimeControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            TimeControl::Live {
                base_ms,
                increment_ms,
            } => {
                let minutes = base_ms as f64 / 60_000.0;
                write!(f, "{minutes}+{}", increment_ms / 1000)
            }
            TimeControl::Correspondence { days } => write!(f, "{days}d"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_read_and_write_back() {
        for text in ["5+3", "0.5+0", "180+0", "1d", "14d", "30+20"] {
            let control: TimeControl = text.parse().unwrap();
            assert_eq!(control.to_string(), text);
        }
        assert_eq!("0+5".parse::<TimeControl>(), Err(TimeControlError::NoTime));
        assert_eq!(
            "181+0".parse::<TimeControl>(),
            Err(TimeControlError::TooLong)
        );
        assert_eq!(
            "15d".parse::<TimeControl>(),
            Err(TimeControlError::Days(15))
        );
        assert!(matches!(
            "fast".parse::<TimeControl>(),
            Err(TimeControlError::Unreadable(_))
        ));
    }

    #[test]
    fn a_live_move_spends_and_gains_its_increment() {
        let control: TimeControl = "1+2".parse().unwrap();
        assert_eq!(control.start_ms(), 60_000);
        assert_eq!(control.after_move(60_000, 10_000), 52_000);
        assert_eq!(control.after_move(1_000, 5_000), 2_000);
        let post: TimeControl = "3d".parse().unwrap();
        assert_eq!(post.after_move(1, 2), 3 * DAY_MS);
    }
}
