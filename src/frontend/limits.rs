//! Every numeric option of the front ends, parsed and range-checked in one place: the command
//! line's value parsers (clap calls these, so a bad value is refused before any work starts, with
//! the option's name, what was given and what is expected), the engine protocol's settings and
//! the Python module check against the same functions and numbers.

use crate::boardgame::Clock;
use std::time::Duration;

/// The longest time limit accepted: a week.
pub const MAX_SECONDS: u64 = 7 * 24 * 3600;
/// The most worker threads accepted.
pub const MAX_THREADS: usize = 64;
/// The largest transposition table accepted, in MiB (64 GiB).
pub const MAX_TABLE_MIB: usize = 64 * 1024;
/// The largest node budget accepted.
pub const MAX_BUDGET: u64 = 1_000_000_000_000_000;

/// The most puzzles or positions one run may write.
pub const MAX_COUNT: usize = 10_000;

/// A duration: `30` or `30s` (seconds, fractions allowed), `500ms`, `2m`, `1h`; 0 included.
pub fn seconds(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let (number, unit) = match text.find(|c: char| c.is_ascii_alphabetic()) {
        Some(i) => text.split_at(i),
        None => (text, "s"),
    };
    let scale = match unit {
        "ms" => 0.001,
        "s" => 1.0,
        "m" | "min" => 60.0,
        "h" => 3600.0,
        _ => {
            return Err(format!(
                "`{text}` is not a duration: the unit must be ms, s, m or h (like 30s or 2m)"
            ));
        }
    };
    let value: f64 = number.trim().parse().map_err(|_| {
        format!("`{text}` is not a duration: expected a number of seconds, like 30, 2.5, 30s or 2m")
    })?;
    let secs = value * scale;
    if !secs.is_finite() || secs < 0.0 {
        return Err(format!(
            "`{text}` is not a duration: expected 0 or more seconds"
        ));
    }
    if secs > MAX_SECONDS as f64 {
        return Err(format!(
            "`{text}` is too long: at most a week ({MAX_SECONDS} s)"
        ));
    }
    Ok(Duration::from_secs_f64(secs))
}

/// A duration above 0 (a limit per solve that must be able to finish).
pub fn positive_seconds(text: &str) -> Result<Duration, String> {
    let duration = seconds(text)?;
    if duration.is_zero() {
        return Err(format!(
            "`{text}` leaves no time: expected more than 0 seconds"
        ));
    }
    Ok(duration)
}

/// A game clock, `BASE+INCREMENT` or `BASE` alone, each in [`seconds`]'s forms (`60+1`,
/// `2m+500ms`): the time at the start (more than 0) and the time each move adds back.
pub fn clock(text: &str) -> Result<Clock, String> {
    let (base, increment) = text.split_once('+').unwrap_or((text, "0"));
    let base = positive_seconds(base).map_err(|e| format!("the clock `{text}`: {e}"))?;
    let increment = seconds(increment).map_err(|e| format!("the clock `{text}`: {e}"))?;
    Ok(Clock::new(base, increment))
}

/// A whole number in `min..=max`, with the noun for messages.
pub fn whole<T>(text: &str, min: T, max: T, what: &str) -> Result<T, String>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy,
{
    let value: T = text.trim().parse().map_err(|_| {
        format!("`{text}` is not {what}: expected a whole number from {min} to {max}")
    })?;
    if value < min || value > max {
        return Err(format!(
            "{text} is out of range: expected {what} from {min} to {max}"
        ));
    }
    Ok(value)
}

/// Worker threads: 0 (all cores) to [`MAX_THREADS`].
pub fn threads(text: &str) -> Result<usize, String> {
    whole(text, 0, MAX_THREADS, "a number of threads (0 = all cores)")
}

/// Transposition table memory in MiB: 1 to [`MAX_TABLE_MIB`].
pub fn table_mib(text: &str) -> Result<usize, String> {
    whole(text, 1, MAX_TABLE_MIB, "a table size in MiB")
}

/// How many puzzles or positions to write: 1 to [`MAX_COUNT`].
pub fn count(text: &str) -> Result<usize, String> {
    whole(text, 1, MAX_COUNT, "a count")
}

/// The number of the first file written: 1 to 1,000,000.
pub fn first(text: &str) -> Result<usize, String> {
    whole(text, 1, 1_000_000, "a file number")
}

/// A node or candidate budget: 1 to 10^15.
pub fn budget(text: &str) -> Result<u64, String> {
    whole(text, 1, MAX_BUDGET, "a budget")
}

/// An engine level: 1 (weakest) to 10 (full strength).
pub fn level(text: &str) -> Result<u8, String> {
    whole(text, 1, 10, "a level")
}

/// A perft depth: 0 to 20.
pub fn depth(text: &str) -> Result<u32, String> {
    whole(text, 0, 20, "a depth")
}

/// A number of match games: even (pairs with colours swapped), 1 to [`MAX_COUNT`].
pub fn even_games(text: &str) -> Result<usize, String> {
    let games = count(text)?;
    if games % 2 == 1 {
        return Err(format!(
            "{games} is odd: games are played in pairs with colours swapped, so give an even number"
        ));
    }
    Ok(games)
}

/// The two Elo hypotheses of a sequential test, `ELO0,ELO1`, with `ELO0 < ELO1`.
pub fn elo_bounds(text: &str) -> Result<(f64, f64), String> {
    let (low, high) = text
        .split_once(',')
        .ok_or_else(|| format!("`{text}`: expected two Elo differences, like 0,10"))?;
    let number = |t: &str| {
        t.trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && v.abs() < 1000.0)
            .ok_or_else(|| format!("`{t}` is not an Elo difference between -1000 and 1000"))
    };
    let (elo0, elo1) = (number(low)?, number(high)?);
    if elo1 <= elo0 {
        return Err(format!(
            "ELO1 ({elo1}) must be larger than ELO0 ({elo0}): H1 says A is the stronger"
        ));
    }
    Ok((elo0, elo1))
}

/// A recheck factor: how many times deeper the review's second stage judges (2 to 1000).
pub fn recheck_factor(text: &str) -> Result<u64, String> {
    whole(text, 2, 1000, "a factor")
}

/// A loss or a difference of values at which the review judges a move again: 0 to 100, in the
/// game's units.
pub fn recheck_units(text: &str) -> Result<f64, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|v| (0.0..=100.0).contains(v))
        .ok_or_else(|| {
            format!("`{text}` is out of range: expected a number from 0 to 100, like 1.5")
        })
}

/// A sequential test's error rate: above 0 and below 0.5.
pub fn error_rate(text: &str) -> Result<f64, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|p| *p > 0.0 && *p < 0.5)
        .ok_or_else(|| {
            format!("`{text}` is out of range: expected a rate above 0 and below 0.5, like 0.05")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_in_every_form_and_out_of_range() {
        assert_eq!(seconds("30"), Ok(Duration::from_secs(30)));
        assert_eq!(seconds("2.5"), Ok(Duration::from_millis(2500)));
        assert_eq!(seconds("10s"), Ok(Duration::from_secs(10)));
        assert_eq!(seconds("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(seconds("1h"), Ok(Duration::from_secs(3600)));
        assert_eq!(seconds("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(seconds("0"), Ok(Duration::ZERO));
        assert!(positive_seconds("0").is_err());
        for bad in ["1e30", "-1", "nan", "inf", "10x", "", "s", "8d"] {
            assert!(seconds(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn whole_numbers_in_range() {
        assert_eq!(threads("0"), Ok(0));
        assert!(threads("10000").is_err());
        assert!(table_mib("0").is_err());
        assert!(table_mib("18446744073709551615").is_err());
        assert_eq!(table_mib("512"), Ok(512));
        assert!(count("0").is_err());
        assert!(depth("21").is_err());
    }
}
