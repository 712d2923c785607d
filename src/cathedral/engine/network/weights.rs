//! Reading a network's weights: the text `examples/train_eval.rs` writes, checked tensor by
//! tensor, and laid out for the two inferences (the planes' rows in fixed point, the second
//! layer padded to whole vectors).

use super::{HAND_STATES, LANES, MAX_HIDDEN, Network, WIDTHS, WeightsError};
use crate::cathedral::engine::inputs::{
    Counting, INPUTS, PER_PLAYER, PLANES, SUMMARY, placement_count_inputs,
};
use crate::cathedral::piece::PLAYER_PIECES;

impl Network {
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
}

/// The planes' rows and skip weights in fixed point, and the unit: the finest power of two with
/// which every plane input at 1 at once still sums within an `i32` (at most 2^-30).
pub(super) fn fixed_point(rows: &[f32], skip: &[f32]) -> (Vec<i32>, Vec<i32>, f32) {
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
