//! The network's inference in plain Rust: the form every target runs (the browser's), the
//! trainer's dense form, and the `f64` reference the tests hold both to. The AVX2 kernels
//! (`avx2.rs`) compute the same numbers in the same order.

use super::{HAND_STATES, LANES, MAX_HIDDEN, MAX_HIDDEN1, Network, first};
use crate::cathedral::engine::inputs::{INPUTS, PER_PLAYER, SUMMARY, SparseInputs};
use crate::cathedral::piece::PLAYER_PIECES;

impl Network {
    /// Adds (`sign` 1) or removes (-1) the row of plane input `k` (input `SUMMARY + k`) to the
    /// sums of a view ([`PlaneSums`](crate::cathedral::engine::accumulator::PlaneSums)), in fixed point, `H` the first layer's
    /// width. Wrapping: a sum that went out of range on the way would come back exactly (none
    /// does, [`fixed_point`](super::weights::fixed_point)).
    #[inline(always)]
    pub(in crate::cathedral::engine) fn add_plane_row<const H: usize>(
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
    pub(super) fn summary_rows(&self, summary: &[f32; SUMMARY], mut add: impl FnMut(usize, f32)) {
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
    /// ([`PlaneSums::view`](crate::cathedral::engine::accumulator::PlaneSums::view)): what the engine's search calls.
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

    /// The last sums of the estimate, the same for both inferences: the lanes in order, the
    /// summary's inputs past its last full vector, the planes' part of the linear part, `b3`.
    #[inline(always)]
    pub(super) fn output(&self, lanes: [f32; LANES], summary: &[f32; SUMMARY], skip: i32) -> f32 {
        let mut out = lanes.iter().fold(0.0f32, |sum, &lane| sum + lane);
        let tail = SUMMARY / LANES * LANES;
        for (x, w) in summary[tail..].iter().zip(&self.skip[tail..SUMMARY]) {
            out += x * w;
        }
        out += skip as f32 * self.plane_unit;
        out + self.b3
    }

    #[inline(always)]
    pub(super) fn estimate_plain(
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
    pub(super) fn estimate_sized<const H: usize>(
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
}
