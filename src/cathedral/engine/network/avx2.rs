//! The inference in AVX2 vectors of eight (x86-64 only, chosen at run time), with the same
//! operations in the same order as the plain one (`plain.rs`), so the same numbers.

use super::{LANES, MAX_HIDDEN1, Network};
use crate::cathedral::engine::inputs::SUMMARY;

impl Network {
    /// [`Network::estimate_plain`] in AVX2 vectors of eight, for the widths it is compiled for
    /// (a second layer of at most 32 units); `None` for others.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    pub(super) fn estimate_avx2(
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
    pub(super) fn estimate_second<const L: usize>(
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
    pub(super) fn estimate_vectors<const L: usize, const L2: usize>(
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
}
