//! The learned evaluation: a small network over [`inputs`](crate::cathedral::engine::inputs), trained on exact values
//! (`examples/train_eval.rs`, `docs/engine.md`, "The learned evaluation"), read from the weights
//! committed beside this file.
//!
//! The estimate is `skip · x + b3 + w3 · relu(w2 · relu(w1 · x + b1) + b2)` in squares: a linear
//! part over the inputs, with the network learning what it misses.

use super::inputs::{Counting, INPUTS};
use std::fmt;
use std::sync::OnceLock;

#[cfg(target_arch = "x86_64")]
mod avx2;
mod plain;
mod weights;

/// The weights in use, as trained and written by `examples/train_eval.rs`.
const WEIGHTS_TEXT: &str = include_str!("../network.txt");

/// A network that reads [`INPUTS`] inputs through two hidden layers of rectified units.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    hidden1: usize,
    hidden2: usize,
    /// The first layer by input: `w1t[i * hidden1 + j]` is the weight of input `i` in unit `j`
    /// (so that inputs at 0, most of them in the endgame, cost nothing).
    w1t: Vec<f32>,
    b1: Vec<f32>,
    /// The second layer by unit: `w2[j * hidden1 + i]`.
    w2: Vec<f32>,
    b2: Vec<f32>,
    w3: Vec<f32>,
    b3: f32,
    skip: Vec<f32>,
    /// The first layer's rows of the summary's inputs (`w1t`'s first [`SUMMARY`](crate::cathedral::engine::inputs::SUMMARY) rows), then
    /// for each player's view, kind and [`HAND_STATES`] state the sum of the rows of the kind's
    /// first three inputs (in hand, fitting, safe), as that state sets them: one row added
    /// where three were ([`Network::summary_rows`]).
    rows1: Vec<f32>,
    /// The second layer by input, its units padded with zeros to a multiple of `LANES`:
    /// `w2t[i * padded + j]` is the weight of first-layer unit `i` in unit `j`, so that the
    /// layer is summed input by input in vectors of units, with no sum across a vector's lanes.
    w2t: Vec<f32>,
    /// `b2` and `w3` padded the same way (a padded unit is 0 and weighs 0).
    b2p: Vec<f32>,
    w3p: Vec<f32>,
    /// The first layer's rows of the planes' inputs (input `SUMMARY + k` is row `k`:
    /// `plane_rows[k * hidden1 + j]`) in fixed point, each [`Network::plane_unit`]: integer sums
    /// are the same in any order, so the accumulator's sums updated move by move are exactly the
    /// sums made afresh ([`accumulator`](crate::cathedral::engine::accumulator)).
    plane_rows: Vec<i32>,
    /// The planes' skip weights in the same fixed point.
    plane_skip: Vec<i32>,
    /// What one unit of `plane_rows` and `plane_skip` is worth: a power of two, as fine as the
    /// largest weight allows with every plane input at 1 (so that no sum overflows).
    plane_unit: f32,
    /// Inputs and outputs the trainer recorded, to check this inference against it.
    checks: Vec<([f32; INPUTS], f32)>,
    /// Whether the network reads the placements' counts: [`Counting::FitsOnly`] when every
    /// weight of theirs is 0, so that leaving them at 0 changes no estimate.
    counting: Counting,
}

/// The largest hidden layer the engine's evaluation takes.
const MAX_HIDDEN: usize = 256;

/// The widest first hidden layer (the last of `WIDTHS`).
pub const MAX_HIDDEN1: usize = 128;

/// The widths of the first hidden layer the inference is compiled for.
const WIDTHS: [usize; 4] = [16, 32, 64, 128];

/// The ways a kind's first three inputs (in hand, fitting somewhere, fitting in its owner's
/// territory) are set together when the kind is in hand: one or two in hand, times fitting
/// nowhere, fitting only where it can be taken away, fitting in the territory.
const HAND_STATES: usize = 6;

/// The inference's vectors: eight `f32` lanes (AVX2), and the plain inference sums in the same
/// lanes in the same order, so both give the same numbers.
const LANES: usize = 8;

/// A weights file that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("network weights, line {line}: {reason}")]
pub struct WeightsError {
    line: usize,
    reason: String,
}

/// A weights file that cannot be used: unreadable, or not a network.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The file could not be read.
    #[error("cannot read the network weights {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// The file was read but holds no network the engine takes.
    #[error("{path}: {source}")]
    Weights {
        /// The file.
        path: String,
        /// Where and why.
        source: WeightsError,
    },
}

impl Network {
    /// Reads a weights file (as [`Network::parse`] takes) for the rest of the program: a match
    /// or a report measuring a newly trained network reads one and evaluates with it until it
    /// ends.
    pub fn read(path: &std::path::Path) -> Result<&'static Network, ReadError> {
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| ReadError::Io {
            path: shown.clone(),
            source,
        })?;
        let network = Network::parse(&text).map_err(|source| ReadError::Weights {
            path: shown,
            source,
        })?;
        Ok(Box::leak(Box::new(network)))
    }

    /// The committed network.
    #[expect(
        clippy::expect_used,
        reason = "the committed weights are part of the source and read by the tests: they cannot be bad at run time"
    )]
    pub fn builtin() -> &'static Network {
        static NETWORK: OnceLock<Network> = OnceLock::new();
        NETWORK.get_or_init(|| {
            // The file is part of the source, checked by the tests; it cannot be bad at run time.
            Network::parse(WEIGHTS_TEXT).expect("the committed network weights read")
        })
    }

    /// The weights as the file holds them, `(name, rows, cols, numbers row by row)` for `w1`,
    /// `b1`, `w2`, `b2`, `w3`, `b3` and `skip` ([`Network::parse`]): what a trainer starts from
    /// to fine-tune this network.
    pub fn tensors(&self) -> Vec<(&'static str, usize, usize, Vec<f32>)> {
        let (h1, h2) = (self.hidden1, self.hidden2);
        let mut w1 = vec![0.0; h1 * INPUTS];
        for j in 0..h1 {
            for i in 0..INPUTS {
                w1[j * INPUTS + i] = self.w1t[i * h1 + j];
            }
        }
        vec![
            ("w1", h1, INPUTS, w1),
            ("b1", 1, h1, self.b1.clone()),
            ("w2", h2, h1, self.w2.clone()),
            ("b2", 1, h2, self.b2.clone()),
            ("w3", 1, h2, self.w3.clone()),
            ("b3", 1, 1, vec![self.b3]),
            ("skip", 1, INPUTS, self.skip.clone()),
        ]
    }

    /// The inputs this network needs computed: [`Counting::FitsOnly`] when all its weights of
    /// the placements' counts are 0 (a network trained without them), whose estimates are then
    /// the same with the counts left at 0, and cheaper.
    pub fn counting(&self) -> Counting {
        self.counting
    }

    /// Units of the first hidden layer.
    pub fn hidden1(&self) -> usize {
        self.hidden1
    }

    /// The inputs and outputs the trainer recorded with the weights.
    pub fn checks(&self) -> &[([f32; INPUTS], f32)] {
        &self.checks
    }
}

/// The first `H` sums of a view, the units of a first layer of `H`.
#[expect(
    clippy::expect_used,
    reason = "a network's first layer is at most MAX_HIDDEN1 wide (checked when its weights are read)"
)]
#[inline(always)]
pub(super) fn first<const H: usize>(sums: &mut [i32; MAX_HIDDEN1]) -> &mut [i32; H] {
    sums.first_chunk_mut::<H>()
        .expect("a first layer is at most MAX_HIDDEN1 wide")
}

impl fmt::Display for Network {
    /// The shape, as `97-64-32-1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{INPUTS}-{}-{}-1", self.hidden1, self.hidden2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::boardgame::Rng;
    use crate::cathedral::engine::inputs::{PER_PLAYER, SUMMARY};
    use crate::cathedral::piece::PLAYER_PIECES;

    /// A network of the given widths with seeded weights, as a weights file holds them.
    fn generated(h1: usize, h2: usize, rng: &mut Rng) -> Network {
        let mut numbers = |n: usize| {
            (0..n)
                .map(|_| format!("{:.6}", rng.below(2001) as f64 / 2000.0 - 0.5))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let text = format!(
            "w1 {h1} {INPUTS}\n{}\nb1 1 {h1}\n{}\nw2 {h2} {h1}\n{}\nb2 1 {h2}\n{}\nw3 1 {h2}\n{}\n\
             b3 1 1\n{}\nskip 1 {INPUTS}\n{}\n",
            numbers(h1 * INPUTS),
            numbers(h1),
            numbers(h2 * h1),
            numbers(h2),
            numbers(h2),
            numbers(1),
            numbers(INPUTS),
        );
        Network::parse(&text).expect("a generated network reads")
    }

    /// The rows [`Network::summary_rows`] lists and their values' bits, chosen as its first
    /// form chose them (a `match` on each kind's three values, every input compared to 0): the
    /// reference for the form that skips a kind not in hand by its bits and finds the state by
    /// arithmetic.
    fn matched_rows(summary: &[f32; SUMMARY]) -> Vec<(usize, u32)> {
        let mut rows = Vec::new();
        let mut push = |row: usize, x: f32| {
            if x != 0.0 {
                rows.push((row, x.to_bits()));
            }
        };
        for slot in 0..2 {
            let inputs = &summary[slot * PER_PLAYER..(slot + 1) * PER_PLAYER];
            for kind in 0..PLAYER_PIECES {
                let first = slot * PER_PLAYER + 4 * kind;
                let [count, fitting, safe, placements] = [0, 1, 2, 3].map(|i| inputs[4 * kind + i]);
                let state = match (count, fitting, safe) {
                    (1.0, 0.0, 0.0) => Some(0),
                    (1.0, 1.0, 0.0) => Some(1),
                    (1.0, 1.0, 1.0) => Some(2),
                    (2.0, 0.0, 0.0) => Some(3),
                    (2.0, 2.0, 0.0) => Some(4),
                    (2.0, 2.0, 2.0) => Some(5),
                    _ => None,
                };
                match state {
                    Some(state) => push(
                        SUMMARY + (slot * PLAYER_PIECES + kind) * HAND_STATES + state,
                        1.0,
                    ),
                    None => {
                        push(first, count);
                        push(first + 1, fitting);
                        push(first + 2, safe);
                    }
                }
                push(first + 3, placements);
            }
            for (i, &x) in inputs.iter().enumerate().skip(4 * PLAYER_PIECES) {
                push(slot * PER_PLAYER + i, x);
            }
        }
        push(SUMMARY - 1, summary[SUMMARY - 1]);
        rows
    }

    #[test]
    fn the_summary_rows_are_those_a_match_chooses() {
        let mut rng = Rng::new(50);
        let network = generated(32, 8, &mut rng);
        // Each kind's four values drawn from what positions give and what they never do: 0
        // and -0, the counts, a fraction, a negative.
        let values = [0.0, -0.0, 1.0, 2.0, 0.5, 3.0, -1.0];
        for _ in 0..20_000 {
            let mut summary = [0.0f32; SUMMARY];
            for slot in 0..2 {
                for kind in 0..PLAYER_PIECES {
                    let first = slot * PER_PLAYER + 4 * kind;
                    match rng.below(3) {
                        // Not in hand.
                        0 => {}
                        // A hand state, fitting or not, with placements or not.
                        1 => {
                            let count = (1 + rng.below(2)) as f32;
                            let level = rng.below(3);
                            summary[first] = count;
                            summary[first + 1] = if level >= 1 { count } else { 0.0 };
                            summary[first + 2] = if level >= 2 { count } else { 0.0 };
                            summary[first + 3] = rng.below(3) as f32 * 1.25;
                        }
                        // Anything.
                        _ => {
                            for i in 0..4 {
                                summary[first + i] =
                                    values[rng.below(values.len() as u64) as usize];
                            }
                        }
                    }
                }
                for i in 4 * PLAYER_PIECES..PER_PLAYER {
                    summary[slot * PER_PLAYER + i] =
                        values[rng.below(values.len() as u64) as usize];
                }
            }
            summary[SUMMARY - 1] = rng.below(2) as f32;
            let mut listed = Vec::new();
            network.summary_rows(&summary, |row, x| listed.push((row, x.to_bits())));
            assert_eq!(listed, matched_rows(&summary), "{summary:?}");
        }
    }

    #[test]
    fn the_vector_inference_gives_the_plain_ones_numbers() {
        let mut rng = Rng::new(49);
        let shapes = [
            (16, 8),
            (16, 3),
            (32, 32),
            (32, 5),
            (64, 17),
            (128, 24),
            (32, 40),
        ];
        for (h1, h2) in shapes {
            let network = generated(h1, h2, &mut rng);
            for _ in 0..200 {
                // Summaries with zeros where a kind is not in hand, the hand states a position
                // gives, other values (read input by input), and sums of any sign.
                let mut summary = [0.0f32; SUMMARY];
                for x in &mut summary {
                    if rng.below(4) > 0 {
                        *x = rng.below(4001) as f32 / 1000.0;
                    }
                }
                for slot in 0..2 {
                    for kind in 0..PLAYER_PIECES {
                        let first = slot * PER_PLAYER + 4 * kind;
                        let count = (1 + rng.below(2)) as f32;
                        let level = rng.below(4);
                        if level < 3 {
                            summary[first] = count;
                            summary[first + 1] = if level >= 1 { count } else { 0.0 };
                            summary[first + 2] = if level >= 2 { count } else { 0.0 };
                        }
                    }
                }
                let mut sums = [0i32; MAX_HIDDEN1];
                for s in &mut sums[..h1] {
                    *s = rng.below(1 << 24) as i32 - (1 << 23);
                }
                let skip = rng.below(1 << 24) as i32 - (1 << 23);
                let plain = network.estimate_plain(&summary, &sums, skip);
                assert!(plain.is_finite());
                assert_eq!(
                    network.estimate_summed(&summary, &sums, skip).to_bits(),
                    plain.to_bits(),
                    "{h1}-{h2}"
                );
            }
        }
    }
}
