//! The learned evaluation: a small network over [`super::inputs`], trained on exact values
//! (`examples/train_eval.rs`, `docs/engine.md`, "The learned evaluation"), read from the weights
//! committed beside this file.
//!
//! The estimate is `skip · x + b3 + w3 · relu(w2 · relu(w1 · x + b1) + b2)` in squares: a linear
//! part over the inputs, with the network learning what it misses.

use super::inputs::{
    Counting, INPUTS, PER_PLAYER, PLANES, SUMMARY, SparseInputs, placement_count_inputs,
};
use crate::cathedral::piece::PLAYER_PIECES;
use std::fmt;
use std::sync::OnceLock;

/// The weights in use, as trained and written by `examples/train_eval.rs`.
const WEIGHTS_TEXT: &str = include_str!("network.txt");

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
    /// The first layer's rows of the summary's inputs (`w1t`'s first [`SUMMARY`] rows), then
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
    /// sums made afresh ([`super::accumulator`]).
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

    /// Reads weights in the format `examples/train_eval.rs` writes: `#` comment lines, then for
    /// each tensor a line `NAME ROWS COLS` and its `ROWS * COLS` numbers, row by row (`w1`
    /// `H1 x INPUTS`, `b1` `1 x H1`, `w2` `H2 x H1`, `b2` `1 x H2`, `w3` `1 x H2`, `b3` `1 x 1`,
    /// `skip` `1 x INPUTS`), and any number of `check` tensors `1 x (INPUTS + 1)`: inputs and the
    /// output the trainer computed for them.
    pub fn parse(text: &str) -> Result<Network, WeightsError> {
        let mut tensors: Vec<(String, usize, usize, Vec<f32>, usize)> = Vec::new();
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
        while let Some((line, header)) = lines.next() {
            let error = |reason: String| WeightsError { line, reason };
            let parts: Vec<&str> = header.split_whitespace().collect();
            let [name, rows, cols] = parts[..] else {
                return Err(error(format!(
                    "expected `NAME ROWS COLS`, found `{header}`"
                )));
            };
            let size = |t: &str| {
                t.parse::<usize>()
                    .ok()
                    .filter(|&n| (1..=4096).contains(&n))
                    .ok_or_else(|| error(format!("`{t}` is not a size from 1 to 4096")))
            };
            let (rows, cols) = (size(rows)?, size(cols)?);
            let mut values = Vec::with_capacity(rows * cols);
            while values.len() < rows * cols {
                let Some((at, text)) = lines.next() else {
                    return Err(error(format!(
                        "`{name}` ends after {} of its {} numbers",
                        values.len(),
                        rows * cols
                    )));
                };
                for word in text.split_whitespace() {
                    let value: f32 = word.parse().map_err(|_| WeightsError {
                        line: at,
                        reason: format!("`{word}` is not a number"),
                    })?;
                    if !value.is_finite() {
                        return Err(WeightsError {
                            line: at,
                            reason: format!("`{word}` is not finite"),
                        });
                    }
                    values.push(value);
                }
            }
            if values.len() != rows * cols {
                return Err(error(format!(
                    "`{name}` has {} numbers, not {}",
                    values.len(),
                    rows * cols
                )));
            }
            tensors.push((name.to_string(), rows, cols, values, line));
        }
        let take = |name: &str, rows: Option<usize>, cols: usize| {
            let found = tensors.iter().find(|t| t.0 == name).ok_or(WeightsError {
                line: text.lines().count(),
                reason: format!("no tensor `{name}`"),
            })?;
            if rows.is_some_and(|r| r != found.1) || found.2 != cols {
                return Err(WeightsError {
                    line: found.4,
                    reason: format!(
                        "`{name}` is {} x {}, expected {} x {cols}",
                        found.1,
                        found.2,
                        rows.map_or("H".to_string(), |r| r.to_string())
                    ),
                });
            }
            Ok((found.1, found.3.clone()))
        };
        let (hidden1, w1) = take("w1", None, INPUTS)?;
        let (_, b1) = take("b1", Some(1), hidden1)?;
        let (hidden2, w2) = take("w2", None, hidden1)?;
        if !WIDTHS.contains(&hidden1) || hidden2 > MAX_HIDDEN {
            return Err(WeightsError {
                line: 1,
                reason: format!(
                    "hidden layers of {hidden1} and {hidden2}: the first must have 16, 32, 64 or \
                     128 units, the second at most {MAX_HIDDEN}"
                ),
            });
        }
        let (_, b2) = take("b2", Some(1), hidden2)?;
        let (_, w3) = take("w3", Some(1), hidden2)?;
        let (_, b3) = take("b3", Some(1), 1)?;
        let (_, skip) = take("skip", Some(1), INPUTS)?;
        let mut w1t = vec![0.0; INPUTS * hidden1];
        for j in 0..hidden1 {
            for i in 0..INPUTS {
                w1t[i * hidden1 + j] = w1[j * INPUTS + i];
            }
        }
        let (plane_rows, plane_skip, plane_unit) =
            fixed_point(&w1t[SUMMARY * hidden1..], &skip[SUMMARY..]);
        let reads_counts = placement_count_inputs().any(|i| {
            skip[i] != 0.0
                || w1t[i * hidden1..(i + 1) * hidden1]
                    .iter()
                    .any(|&w| w != 0.0)
        });
        let counting = if reads_counts {
            Counting::All
        } else {
            Counting::FitsOnly
        };
        let mut rows1 = w1t[..SUMMARY * hidden1].to_vec();
        for slot in 0..2 {
            for kind in 0..PLAYER_PIECES {
                let first = slot * PER_PLAYER + 4 * kind;
                for state in 0..HAND_STATES {
                    let (count, level) = ((state / 3 + 1) as f32, state % 3);
                    rows1.extend((0..hidden1).map(|j| {
                        (0..=level).fold(0.0, |sum, input| {
                            sum + count * w1t[(first + input) * hidden1 + j]
                        })
                    }));
                }
            }
        }
        let padded = hidden2.div_ceil(LANES) * LANES;
        let mut w2t = vec![0.0; hidden1 * padded];
        for j in 0..hidden2 {
            for i in 0..hidden1 {
                w2t[i * padded + j] = w2[j * hidden1 + i];
            }
        }
        let pad = |v: &[f32]| {
            let mut out = v.to_vec();
            out.resize(padded, 0.0);
            out
        };
        let (b2p, w3p) = (pad(&b2), pad(&w3));
        let checks = tensors
            .iter()
            .filter(|t| t.0 == "check")
            .map(|t| {
                if t.1 != 1 || t.2 != INPUTS + 1 {
                    return Err(WeightsError {
                        line: t.4,
                        reason: format!(
                            "`check` is {} x {}, expected 1 x {}",
                            t.1,
                            t.2,
                            INPUTS + 1
                        ),
                    });
                }
                let mut x = [0.0; INPUTS];
                x.copy_from_slice(&t.3[..INPUTS]);
                Ok((x, t.3[INPUTS]))
            })
            .collect::<Result<_, _>>()?;
        Ok(Network {
            hidden1,
            hidden2,
            w1t,
            b1,
            w2,
            b2,
            w3,
            b3: b3[0],
            skip,
            rows1,
            w2t,
            b2p,
            w3p,
            plane_rows,
            plane_skip,
            plane_unit,
            checks,
            counting,
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

    /// Adds (`sign` 1) or removes (-1) the row of plane input `k` (input `SUMMARY + k`) to the
    /// sums of a view ([`super::accumulator::PlaneSums`]), in fixed point, `H` the first layer's
    /// width. Wrapping: a sum that went out of range on the way would come back exactly (none
    /// does, [`fixed_point`]).
    #[inline(always)]
    pub(super) fn add_plane_row<const H: usize>(
        &self,
        k: usize,
        sign: i32,
        sums: &mut [i32; H],
        skip: &mut i32,
    ) {
        let row = &self.plane_rows[k * H..(k + 1) * H];
        // In blocks of eight lanes, which the compiler makes whole vectors (the width unrolled
        // one unit at a time stayed scalar: measured, twice the update's time); two loops
        // without a multiplication: the baseline x86-64 has no vector multiply of 32-bit
        // integers (measured: emulating it was a third of the update's time).
        let blocks = sums.as_chunks_mut::<LANES>().0.iter_mut();
        let rows = row.as_chunks::<LANES>().0;
        if sign > 0 {
            for (block, w) in blocks.zip(rows) {
                *block = std::array::from_fn(|i| block[i].wrapping_add(w[i]));
            }
            *skip = skip.wrapping_add(self.plane_skip[k]);
        } else {
            for (block, w) in blocks.zip(rows) {
                *block = std::array::from_fn(|i| block[i].wrapping_sub(w[i]));
            }
            *skip = skip.wrapping_sub(self.plane_skip[k]);
        }
    }

    /// The estimate for dense inputs `x`, in squares for the side to move (the trainer's form;
    /// the engine calls [`Network::estimate`], which reads only the inputs that are not 0).
    pub fn forward(&self, x: &[f32; INPUTS]) -> f32 {
        let mut h1 = self.b1.clone();
        for (i, &xi) in x.iter().enumerate() {
            if xi != 0.0 {
                let row = &self.w1t[i * self.hidden1..(i + 1) * self.hidden1];
                for (h, w) in h1.iter_mut().zip(row) {
                    *h += xi * w;
                }
            }
        }
        for h in &mut h1 {
            *h = h.max(0.0);
        }
        let mut out = self.b3;
        for j in 0..self.hidden2 {
            let row = &self.w2[j * self.hidden1..(j + 1) * self.hidden1];
            let h2 = self.b2[j] + row.iter().zip(&h1).map(|(w, h)| w * h).sum::<f32>();
            out += self.w3[j] * h2.max(0.0);
        }
        out + self.skip.iter().zip(x).map(|(w, x)| w * x).sum::<f32>()
    }

    /// The estimate from [`SparseInputs`]: the same as [`Network::forward`] of the dense inputs
    /// up to rounding (the planes' rows in fixed point), and exactly the same as
    /// [`Network::estimate_summed`] with the accumulator's sums of the same position.
    pub fn estimate(&self, inputs: &SparseInputs) -> f32 {
        let mut sums = [0i32; MAX_HIDDEN1];
        let mut skip = 0i32;
        let rows = inputs.active().iter().map(|&i| usize::from(i) - SUMMARY);
        match self.hidden1 {
            16 => rows.for_each(|k| self.add_plane_row::<16>(k, 1, first(&mut sums), &mut skip)),
            32 => rows.for_each(|k| self.add_plane_row::<32>(k, 1, first(&mut sums), &mut skip)),
            64 => rows.for_each(|k| self.add_plane_row::<64>(k, 1, first(&mut sums), &mut skip)),
            _ => rows.for_each(|k| self.add_plane_row::<128>(k, 1, first(&mut sums), &mut skip)),
        }
        self.estimate_summed(&inputs.summary, &sums, skip)
    }

    /// The first layer's rows to add for `summary`, each with its input's value, in order: for
    /// each player and kind, one row of [`Network::rows1`] for the kind's first three inputs
    /// (value 1) where they hold one of the [`HAND_STATES`] (the inputs' own rows otherwise,
    /// none where all three are 0), then its placements' row; the totals; the side to move.
    /// Inputs at 0 add nothing. Each row is handed to `add` as it is found (measured: filling a
    /// list first, zeroed at each evaluation, was a tenth of the inference).
    #[inline(always)]
    fn summary_rows(&self, summary: &[f32; SUMMARY], mut add: impl FnMut(usize, f32)) {
        let mut push = |row: usize, x: f32| {
            if x != 0.0 {
                add(row, x);
            }
        };
        for slot in 0..2 {
            let inputs = &summary[slot * PER_PLAYER..(slot + 1) * PER_PLAYER];
            for kind in 0..PLAYER_PIECES {
                let first = slot * PER_PLAYER + 4 * kind;
                let [count, fitting, safe, placements] = [0, 1, 2, 3].map(|i| inputs[4 * kind + i]);
                // A kind not in hand: its four inputs are +0 and add nothing, found by one test
                // of their bits instead of six comparisons (-0 is left to them; measured: the
                // inference 15 % faster, `benches/evaluation.rs`; held to the comparisons by
                // `the_summary_rows_are_those_a_match_chooses`).
                if [count, fitting, safe, placements].map(f32::to_bits) == [0; 4] {
                    continue;
                }
                // The state (c, 0, 0), (c, c, 0) or (c, c, c) with c 1 or 2, found by
                // arithmetic instead of a branch on which (measured: 3 % faster again).
                let (fits_not, fits) = (fitting == 0.0, fitting == count);
                let (safe_not, safe_all) = (safe == 0.0, safe == count);
                let is_state = ((count == 1.0) | (count == 2.0))
                    & ((fits_not & safe_not) | (fits & (safe_not | safe_all)));
                let state =
                    usize::from(count == 2.0) * 3 + usize::from(!fits_not) + usize::from(!safe_not);
                match is_state.then_some(state) {
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
            let totals = 4 * PLAYER_PIECES;
            for (i, &x) in inputs.iter().enumerate().skip(totals) {
                push(slot * PER_PLAYER + i, x);
            }
        }
        push(SUMMARY - 1, summary[SUMMARY - 1]);
    }

    /// The estimate from the inputs' summary and the planes' sums of the side to move's view
    /// ([`super::accumulator::PlaneSums::view`]): what the engine's search calls.
    ///
    /// The order of the sums, the same in the AVX2 inference and the plain one (the browser's),
    /// so that both give the same numbers from the same inputs: the first layer by the rows of
    /// `Network::summary_rows`, in order; the second input by input in vectors of `LANES`
    /// units; the linear part over the summary in `LANES` lanes, then the output's products
    /// added to those lanes, the lanes summed in order, the summary's last inputs, the planes'
    /// part and `b3` last. No fused multiply-adds: the browser has none.
    pub fn estimate_summed(
        &self,
        summary: &[f32; SUMMARY],
        sums: &[i32; MAX_HIDDEN1],
        skip: i32,
    ) -> f32 {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has just been found to support AVX2.
            if let Some(estimate) = unsafe { self.estimate_avx2(summary, sums, skip) } {
                return estimate;
            }
        }
        self.estimate_plain(summary, sums, skip)
    }

    /// [`Network::estimate_plain`] in AVX2 vectors of eight, for the widths it is compiled for
    /// (a second layer of at most 32 units); `None` for others.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn estimate_avx2(
        &self,
        summary: &[f32; SUMMARY],
        sums: &[i32; MAX_HIDDEN1],
        skip: i32,
    ) -> Option<f32> {
        match self.hidden1 {
            16 => self.estimate_second::<2>(summary, sums, skip),
            32 => self.estimate_second::<4>(summary, sums, skip),
            64 => self.estimate_second::<8>(summary, sums, skip),
            _ => self.estimate_second::<16>(summary, sums, skip),
        }
    }

    /// [`Network::estimate_avx2`] with the first layer's vectors `L` known, choosing the
    /// second's.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn estimate_second<const L: usize>(
        &self,
        summary: &[f32; SUMMARY],
        sums: &[i32; MAX_HIDDEN1],
        skip: i32,
    ) -> Option<f32> {
        Some(match self.w3p.len() / LANES {
            1 => self.estimate_vectors::<L, 1>(summary, sums, skip),
            2 => self.estimate_vectors::<L, 2>(summary, sums, skip),
            3 => self.estimate_vectors::<L, 3>(summary, sums, skip),
            4 => self.estimate_vectors::<L, 4>(summary, sums, skip),
            _ => return None,
        })
    }

    /// The estimate in `L` vectors of eight for the first layer and `L2` for the second, which
    /// stay in registers while the rows are added (measured: the compiler kept the plain form's
    /// layer in memory, storing it back after every row). The same operations in the same order
    /// as [`Network::estimate_sized`], so the same numbers.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn estimate_vectors<const L: usize, const L2: usize>(
        &self,
        summary: &[f32; SUMMARY],
        sums: &[i32; MAX_HIDDEN1],
        skip: i32,
    ) -> f32 {
        use std::arch::x86_64::{
            __m256, __m256i, _mm256_add_ps, _mm256_cvtepi32_ps, _mm256_loadu_ps,
            _mm256_loadu_si256, _mm256_max_ps, _mm256_mul_ps, _mm256_set1_ps, _mm256_setzero_ps,
            _mm256_storeu_ps,
        };
        let load = |row: &[[f32; LANES]], l: usize| {
            // SAFETY: `row[l]` is eight floats, what an unaligned load reads.
            unsafe { _mm256_loadu_ps(row[l].as_ptr()) }
        };
        let (rows, _) = self.rows1.as_chunks::<LANES>();
        let (b1, _) = self.b1.as_chunks::<LANES>();
        let (sums, _) = sums.as_chunks::<LANES>();
        let mut h1: [__m256; L] = [_mm256_setzero_ps(); L];
        for (l, h) in h1.iter_mut().enumerate() {
            *h = load(b1, l);
        }
        self.summary_rows(summary, |i, x| {
            let row = &rows[i * L..(i + 1) * L];
            if x == 1.0 {
                // A hand state's row: times 1 is the row itself, bit for bit.
                for (l, h) in h1.iter_mut().enumerate() {
                    *h = _mm256_add_ps(*h, load(row, l));
                }
            } else {
                let x8 = _mm256_set1_ps(x);
                for (l, h) in h1.iter_mut().enumerate() {
                    *h = _mm256_add_ps(*h, _mm256_mul_ps(x8, load(row, l)));
                }
            }
        });
        let unit = _mm256_set1_ps(self.plane_unit);
        for (h, sum) in h1.iter_mut().zip(sums) {
            // SAFETY: `sum` is eight integers, what an unaligned load reads.
            let sum = unsafe { _mm256_loadu_si256(sum.as_ptr().cast::<__m256i>()) };
            let h_sum = _mm256_add_ps(*h, _mm256_mul_ps(_mm256_cvtepi32_ps(sum), unit));
            *h = _mm256_max_ps(h_sum, _mm256_setzero_ps());
        }
        let mut units = [[0.0f32; LANES]; L];
        for (lanes, h) in units.iter_mut().zip(&h1) {
            // SAFETY: `lanes` is eight floats, what an unaligned store writes.
            unsafe { _mm256_storeu_ps(lanes.as_mut_ptr(), *h) };
        }
        let (w2t, _) = self.w2t.as_chunks::<LANES>();
        let mut h2: [__m256; L2] = [_mm256_setzero_ps(); L2];
        for (i, &unit) in units.as_flattened().iter().enumerate() {
            let row = &w2t[i * L2..(i + 1) * L2];
            let u8 = _mm256_set1_ps(unit);
            for (m, h) in h2.iter_mut().enumerate() {
                *h = _mm256_add_ps(*h, _mm256_mul_ps(u8, load(row, m)));
            }
        }
        let (xs, _) = summary.as_chunks::<LANES>();
        let (skips, _) = self.skip.as_chunks::<LANES>();
        let mut lanes = _mm256_setzero_ps();
        for (c, x) in xs.iter().enumerate() {
            // SAFETY: `x` is eight floats, what an unaligned load reads.
            let x = unsafe { _mm256_loadu_ps(x.as_ptr()) };
            lanes = _mm256_add_ps(lanes, _mm256_mul_ps(x, load(skips, c)));
        }
        let (b2, _) = self.b2p.as_chunks::<LANES>();
        let (w3, _) = self.w3p.as_chunks::<LANES>();
        for (m, h) in h2.iter().enumerate() {
            let h = _mm256_max_ps(_mm256_add_ps(*h, load(b2, m)), _mm256_setzero_ps());
            lanes = _mm256_add_ps(lanes, _mm256_mul_ps(load(w3, m), h));
        }
        let mut out = [0.0f32; LANES];
        // SAFETY: `out` is eight floats, what an unaligned store writes.
        unsafe { _mm256_storeu_ps(out.as_mut_ptr(), lanes) };
        self.output(out, summary, skip)
    }

    /// The last sums of the estimate, the same for both inferences: the lanes in order, the
    /// summary's inputs past its last full vector, the planes' part of the linear part, `b3`.
    #[inline(always)]
    fn output(&self, lanes: [f32; LANES], summary: &[f32; SUMMARY], skip: i32) -> f32 {
        let mut out = lanes.iter().fold(0.0f32, |sum, &lane| sum + lane);
        let tail = SUMMARY / LANES * LANES;
        for (x, w) in summary[tail..].iter().zip(&self.skip[tail..SUMMARY]) {
            out += x * w;
        }
        out += skip as f32 * self.plane_unit;
        out + self.b3
    }

    #[inline(always)]
    fn estimate_plain(
        &self,
        summary: &[f32; SUMMARY],
        sums: &[i32; MAX_HIDDEN1],
        skip: i32,
    ) -> f32 {
        match self.hidden1 {
            16 => self.estimate_sized::<16>(summary, sums, skip),
            32 => self.estimate_sized::<32>(summary, sums, skip),
            64 => self.estimate_sized::<64>(summary, sums, skip),
            _ => self.estimate_sized::<128>(summary, sums, skip),
        }
    }

    /// The estimate with the first hidden layer's width known to the compiler, which then keeps
    /// the layer in registers while it adds the inputs' rows; every sum in the order of
    /// [`Network::estimate_summed`], lane by lane.
    #[inline(always)]
    fn estimate_sized<const H: usize>(
        &self,
        summary: &[f32; SUMMARY],
        sums: &[i32; MAX_HIDDEN1],
        skip: i32,
    ) -> f32 {
        let relu = |v: f32| if v > 0.0 { v } else { 0.0 };
        let (rows, _) = self.rows1.as_chunks::<H>();
        let mut h1 = [0.0f32; H];
        h1.copy_from_slice(&self.b1);
        self.summary_rows(summary, |i, x| {
            for (h, w) in h1.iter_mut().zip(&rows[i]) {
                *h += x * w;
            }
        });
        for (h, &sum) in h1.iter_mut().zip(sums) {
            *h = relu(*h + sum as f32 * self.plane_unit);
        }
        let padded = self.w3p.len();
        let mut h2 = [0.0f32; MAX_HIDDEN];
        let h2 = &mut h2[..padded];
        for (&unit, row) in h1.iter().zip(self.w2t.chunks_exact(padded)) {
            for (h, w) in h2.iter_mut().zip(row) {
                *h += unit * w;
            }
        }
        let mut lanes = [0.0f32; LANES];
        let (xs, _) = summary.as_chunks::<LANES>();
        for (x, w) in xs.iter().zip(self.skip.as_chunks::<LANES>().0) {
            for ((lane, x), w) in lanes.iter_mut().zip(x).zip(w) {
                *lane += x * w;
            }
        }
        for ((h, b2), w3) in h2
            .as_chunks::<LANES>()
            .0
            .iter()
            .zip(self.b2p.as_chunks::<LANES>().0)
            .zip(self.w3p.as_chunks::<LANES>().0)
        {
            for (((lane, h), b), w) in lanes.iter_mut().zip(h).zip(b2).zip(w3) {
                *lane += w * relu(h + b);
            }
        }
        self.output(lanes, summary, skip)
    }

    /// The same estimate computed plainly, in `f64`, from the layers as written: the reference
    /// the tests hold [`Network::forward`] to.
    pub fn forward_reference(&self, x: &[f32; INPUTS]) -> f64 {
        let relu = |v: f64| if v > 0.0 { v } else { 0.0 };
        let h1: Vec<f64> = (0..self.hidden1)
            .map(|j| {
                let mut sum = f64::from(self.b1[j]);
                for (i, &xi) in x.iter().enumerate() {
                    sum += f64::from(self.w1t[i * self.hidden1 + j]) * f64::from(xi);
                }
                relu(sum)
            })
            .collect();
        let mut out = f64::from(self.b3);
        for j in 0..self.hidden2 {
            let mut sum = f64::from(self.b2[j]);
            for (i, h) in h1.iter().enumerate() {
                sum += f64::from(self.w2[j * self.hidden1 + i]) * h;
            }
            out += f64::from(self.w3[j]) * relu(sum);
        }
        for (w, &xi) in self.skip.iter().zip(x) {
            out += f64::from(*w) * f64::from(xi);
        }
        out
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

/// The planes' rows and skip weights in fixed point, and the unit: the finest power of two with
/// which every plane input at 1 at once still sums within an `i32` (at most 2^-30).
fn fixed_point(rows: &[f32], skip: &[f32]) -> (Vec<i32>, Vec<i32>, f32) {
    let largest = rows
        .iter()
        .chain(skip)
        .fold(0.0f64, |m, w| m.max(f64::from(w.abs())));
    let most = largest * (PLANES * 100) as f64;
    let mut exponent = 30;
    while exponent > -30 && most * 2f64.powi(exponent) >= f64::from(i32::MAX) {
        exponent -= 1;
    }
    let scale = 2f64.powi(exponent);
    let quantize = |w: &f32| (f64::from(*w) * scale).round() as i32;
    (
        rows.iter().map(quantize).collect(),
        skip.iter().map(quantize).collect(),
        2f64.powi(-exponent) as f32,
    )
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
