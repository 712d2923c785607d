//! Values and counts in words: the one place that says "wins by 3 squares", "+3", "-2..+5",
//! "1,234,567 nodes" or "12.3 ms", so every front end says them the same way.

use crate::boardgame::{Phase, Progress, Stats};
use std::time::Duration;

/// `""` for one, `"s"` for any other count: `format!("{n} square{}", plural(n))`.
pub fn plural(count: impl Into<i64>) -> &'static str {
    if count.into() == 1 { "" } else { "s" }
}

/// A count with its noun: `1 square`, `3 squares`.
pub fn count(n: impl Into<i64>, noun: &str) -> String {
    let n = n.into();
    format!("{n} {noun}{}", plural(n))
}

/// A count that may run large, with its noun and thousands separated: `1 node`,
/// `1,234,567 nodes`.
pub fn count_large(n: u64, noun: &str) -> String {
    format!("{} {noun}{}", thousands(n), if n == 1 { "" } else { "s" })
}

/// A value with its sign: `+3`, `0`, `-2`.
///
/// ```
/// use cathedral::present::words::{bounds_text, signed};
/// assert_eq!(signed(3), "+3");
/// assert_eq!(bounds_text(-2, 5), "-2..+5");
/// ```
pub fn signed(value: i32) -> String {
    if value > 0 {
        format!("+{value}")
    } else {
        value.to_string()
    }
}

/// `+3` for an exact value, `-2..+5` for bounds.
pub fn bounds_text(lower: i32, upper: i32) -> String {
    if lower == upper {
        signed(lower)
    } else {
        format!("{}..{}", signed(lower), signed(upper))
    }
}

/// The outcome of proven bounds for the side to move: `win`, `loss`, `draw` or `unproven`.
pub fn outcome_word(lower: i32, upper: i32) -> &'static str {
    if lower > 0 {
        "win"
    } else if upper < 0 {
        "loss"
    } else if lower == 0 && upper == 0 {
        "draw"
    } else {
        "unproven"
    }
}

/// An exact value as a result: `wins by 3 squares`, `draws`, `loses by 1 square`.
pub fn result_phrase(value: i32) -> String {
    match value {
        v if v > 0 => format!("wins by {}", count(v, "square")),
        0 => "draws".to_string(),
        v => format!("loses by {}", count(-v, "square")),
    }
}

/// `1,234,567`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `850`, `12.3 k`, `4.56 M` (per second).
pub fn rate_text(rate: f64) -> String {
    if rate >= 1e6 {
        format!("{:.2} M", rate / 1e6)
    } else if rate >= 1e3 {
        format!("{:.1} k", rate / 1e3)
    } else {
        format!("{rate:.0}")
    }
}

/// `1.23 s`, `12.0 ms`.
pub fn time_text(elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64();
    if secs >= 1.0 {
        format!("{secs:.2} s")
    } else {
        format!("{:.1} ms", secs * 1e3)
    }
}

/// The table hit rate in percent, or `-` without look-ups.
pub fn hit_rate_text(stats: &Stats) -> String {
    stats
        .hit_rate()
        .map_or_else(|| "-".to_string(), |rate| format!("{rate:.1}%"))
}

/// One sentence on what a solve cost: nodes, time, speed, table hits (or, for proof-number
/// search, the questions asked), threads, table size.
pub fn stats_text(stats: &Stats) -> String {
    if stats.questions > 0 {
        // Proof-number search: its table holds proof numbers, not looked up as bounds are.
        return format!(
            "Searched {} in {} ({} nodes/s) by proof-number search, asking {} (\"at least v?\"); {}; table {:.0} MiB",
            count_large(stats.nodes, "node"),
            time_text(stats.elapsed),
            rate_text(stats.nodes_per_second()),
            count(i64::from(stats.questions), "question"),
            count(stats.threads as i64, "thread"),
            stats.tt_bytes as f64 / (1024.0 * 1024.0)
        );
    }
    format!(
        "Searched {} in {} ({} nodes/s); table hit rate {} ({} of {}); {}; table {:.0} MiB",
        count_large(stats.nodes, "node"),
        time_text(stats.elapsed),
        rate_text(stats.nodes_per_second()),
        hit_rate_text(stats),
        thousands(stats.tt_hits),
        count_large(stats.tt_probes, "probe"),
        count(stats.threads as i64, "thread"),
        stats.tt_bytes as f64 / (1024.0 * 1024.0)
    )
}

/// A running solve in one line: the phase, nodes, speed, the proven bounds so far, time.
pub fn progress_text(progress: &Progress) -> String {
    let seconds = progress.elapsed.as_secs_f64();
    let phase = match progress.phase {
        Phase::Value => "value".to_string(),
        Phase::RootMoves { done, total } => format!("root moves {done}/{total}"),
        Phase::Line => "best line".to_string(),
    };
    format!(
        "{phase}: {} nodes, {}/s, value in {}..{}, {:.0} s",
        thousands(progress.nodes),
        rate_text(progress.nodes as f64 / seconds.max(1e-9)),
        signed(progress.lower),
        signed(progress.upper),
        seconds
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_values_in_words() {
        assert_eq!(count(1, "square"), "1 square");
        assert_eq!(count(0, "square"), "0 squares");
        assert_eq!(count_large(1, "node"), "1 node");
        assert_eq!(count_large(1234567, "node"), "1,234,567 nodes");
        assert_eq!(count_large(0, "probe"), "0 probes");
        assert_eq!(result_phrase(-1), "loses by 1 square");
        assert_eq!(result_phrase(4), "wins by 4 squares");
        assert_eq!(thousands(1234567), "1,234,567");
        assert_eq!(thousands(999), "999");
        assert_eq!(outcome_word(-3, 2), "unproven");
        assert_eq!(time_text(Duration::from_millis(12)), "12.0 ms");
    }
}
