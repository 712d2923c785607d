//! A game clock, and how much of it one move may spend.

use std::time::Duration;

/// A player's clock before a move: the time left and the time each move adds back once made
/// (a Fischer increment).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the clock.
    pub remaining: Duration,
    /// Added after each move.
    pub increment: Duration,
}

/// What one move may spend: about `target`, and up to `limit` on a critical move (one whose best
/// move keeps changing or whose estimate falls as the search deepens).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Allotment {
    /// The time to aim at.
    pub target: Duration,
    /// The most the move may take; never more than the clock holds.
    pub limit: Duration,
}

impl Clock {
    /// A clock of `base` with `increment` per move.
    pub fn new(base: Duration, increment: Duration) -> Clock {
        Clock {
            remaining: base,
            increment,
        }
    }

    /// The share of this clock for the next move when about `moves_left` moves of the player's
    /// own still need thought: an even share of the time left plus most of the increment, and up
    /// to three times that (at most half the clock) for a critical move. A tenth of the clock (at
    /// most a second) is kept back for what the move costs around the search (the answer's way
    /// to the other side, a process's start), so that the engine never runs out.
    ///
    /// ```
    /// # use cathedral::boardgame::Clock;
    /// # use std::time::Duration;
    /// let clock = Clock::new(Duration::from_secs(60), Duration::from_secs(1));
    /// let share = clock.allot(10);
    /// assert!(share.target <= share.limit && share.limit <= clock.remaining);
    /// assert_eq!(share.target, Duration::from_millis(6_650)); // 59 s / 10 + 0.75 s
    /// ```
    pub fn allot(&self, moves_left: u32) -> Allotment {
        let reserve = (self.remaining / 10).min(Duration::from_secs(1));
        let usable = self.remaining.saturating_sub(reserve);
        let target = (usable / moves_left.max(1) + self.increment * 3 / 4).min(usable);
        let limit = (target * 3).min((usable / 2).max(target));
        Allotment { target, limit }
    }
}

impl std::fmt::Display for Clock {
    /// `60 s + 1 s`, in seconds with up to three decimals.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let seconds = |d: Duration| {
            let text = format!("{:.3}", d.as_secs_f64());
            text.trim_end_matches('0').trim_end_matches('.').to_string()
        };
        write!(
            f,
            "{} s + {} s",
            seconds(self.remaining),
            seconds(self.increment)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_stay_within_the_clock() {
        for remaining_ms in [0, 1, 15, 400, 1_000, 9_999, 60_000, 3_600_000] {
            for increment_ms in [0, 10, 1_000, 30_000] {
                for moves_left in [0, 1, 2, 7, 40] {
                    let clock = Clock::new(
                        Duration::from_millis(remaining_ms),
                        Duration::from_millis(increment_ms),
                    );
                    let share = clock.allot(moves_left);
                    assert!(
                        share.target <= share.limit,
                        "{clock}, {moves_left}: {share:?}"
                    );
                    assert!(
                        share.limit <= clock.remaining,
                        "{clock}, {moves_left}: {share:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_whole_game_of_targets_never_runs_out() {
        // Even if every move took its whole limit and the guess of the moves left were wrong.
        for moves_left_guess in [1, 3, 10] {
            let mut clock = Clock::new(Duration::from_secs(10), Duration::from_millis(100));
            for _ in 0..200 {
                let share = clock.allot(moves_left_guess);
                assert!(share.limit <= clock.remaining);
                clock.remaining = clock.remaining - share.limit + clock.increment;
            }
            assert!(clock.remaining > Duration::ZERO);
        }
    }

    #[test]
    fn more_moves_to_come_get_less_each() {
        let clock = Clock::new(Duration::from_secs(100), Duration::ZERO);
        assert!(clock.allot(20).target < clock.allot(5).target);
        assert_eq!(clock.allot(20).limit, clock.allot(20).target * 3);
        assert_eq!(clock.allot(5).limit, Duration::from_millis(49_500)); // half of 99 s
        assert_eq!(
            Clock::new(Duration::from_millis(1500), Duration::from_millis(250)).to_string(),
            "1.5 s + 0.25 s"
        );
    }
}
