//! The storage the solver's two tables share: a fixed array of buckets of two entries of `W`
//! atomic words each, indexed by a 128-bit key, read and written word by word with relaxed
//! atomics. What the words mean, how an entry is sealed against torn writes and which entry a
//! new one replaces is each table's own ([`super::tt::Table`], the proof table
//! `crate::boardgame::proof::ProofTable`); this is only where the words live.
//!
//! The engine's table (`crate::boardgame::engine::EngineTable`) is laid out otherwise on purpose:
//! its buckets are padded to a cache line and aligned to one, a power of two of them indexed by
//! mask, reused from one search to the next with a generation; it shares [`zeroed_atomics`] and
//! [`prefetch_words`] only.

use std::sync::atomic::{AtomicU64, Ordering};

/// Entries in a bucket: a new key may take either.
pub(crate) const BUCKET_ENTRIES: usize = 2;

/// Buckets of two entries of `W` words, at most the size asked for. Never grows.
pub(crate) struct Buckets<const W: usize> {
    words: Vec<AtomicU64>,
    buckets: u64,
}

impl<const W: usize> Buckets<W> {
    /// The bytes of one bucket.
    const BUCKET_BYTES: usize = W * BUCKET_ENTRIES * 8;

    /// Buckets in at most `megabytes` MiB (at least one), zeroed, their pages given by the system
    /// as they are first written.
    pub(crate) fn new(megabytes: usize) -> Buckets<W> {
        let buckets = (megabytes.saturating_mul(1 << 20) / Self::BUCKET_BYTES).max(1);
        Buckets {
            words: zeroed_atomics(buckets * BUCKET_ENTRIES * W),
            buckets: buckets as u64,
        }
    }

    /// Bytes held by the entries.
    pub(crate) fn bytes(&self) -> usize {
        self.words.len() * 8
    }

    /// Where the two entries of `key`'s bucket start, in words.
    #[inline]
    pub(crate) fn slots(&self, key: (u64, u64)) -> [usize; BUCKET_ENTRIES] {
        // Lemire's multiply-shift on the key's second half: uniform over any bucket count, no
        // power of two needed.
        let bucket = (((key.1 as u128) * (self.buckets as u128)) >> 64) as usize;
        let base = bucket * BUCKET_ENTRIES * W;
        std::array::from_fn(|i| base + i * W)
    }

    /// The words of the entry starting at `at` (a slot), each read on its own.
    #[inline]
    pub(crate) fn read(&self, at: usize) -> [u64; W] {
        // One bounds check for the entry, none for its words.
        let entry = &self.words[at..at + W];
        std::array::from_fn(|i| entry[i].load(Ordering::Relaxed))
    }

    /// Writes the words of the entry starting at `at` (a slot), first to last.
    #[inline]
    pub(crate) fn write(&self, at: usize, words: [u64; W]) {
        let entry = &self.words[at..at + W];
        for (slot, word) in entry.iter().zip(words) {
            slot.store(word, Ordering::Relaxed);
        }
    }

    /// Asks the processor to start loading `key`'s bucket. Only a hint.
    #[inline]
    pub(crate) fn prefetch(&self, key: (u64, u64)) {
        let [first, _] = self.slots(key);
        prefetch_words(&self.words[first..first + BUCKET_ENTRIES * W]);
    }

    /// Every entry's words, in order (to copy a table into another).
    pub(crate) fn entries(&self) -> impl Iterator<Item = [u64; W]> + '_ {
        (0..self.words.len())
            .step_by(W)
            .map(move |at| self.read(at))
    }
}

const _: () = assert!(
    std::mem::size_of::<AtomicU64>() == std::mem::size_of::<u64>()
        && std::mem::align_of::<AtomicU64>() == std::mem::align_of::<u64>()
);

/// `n` zeroed atomics from zeroed memory, so that the operating system provides the pages lazily
/// instead of the table writing every byte up front.
pub(crate) fn zeroed_atomics(n: usize) -> Vec<AtomicU64> {
    let mut words = std::mem::ManuallyDrop::new(vec![0u64; n]);
    let (ptr, len, capacity) = (words.as_mut_ptr(), words.len(), words.capacity());
    // SAFETY: `AtomicU64` has the same size, alignment and bit validity as `u64` (checked above),
    // the allocation is handed over whole and the original vector is never used or dropped again.
    let words = unsafe { Vec::from_raw_parts(ptr.cast::<AtomicU64>(), len, capacity) };
    advise_huge_pages(&words);
    words
}

/// Asks the processor to start loading the cache lines of `words` (a table's bucket: its first
/// and last word, so that a bucket across two lines is loaded whole). Only a hint.
#[inline]
pub(crate) fn prefetch_words(words: &[AtomicU64]) {
    #[cfg(target_arch = "x86_64")]
    if let (Some(first), Some(last)) = (words.first(), words.last()) {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: SSE is part of every x86-64 target, and a prefetch never faults nor changes
        // memory; both addresses lie inside `words`.
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>(first.as_ptr().cast::<i8>());
            _mm_prefetch::<_MM_HINT_T0>(last.as_ptr().cast::<i8>());
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = words;
}

/// Asks Linux to back the table with 2 MiB pages: 512 times fewer page faults when the table
/// is first touched (two threads faulting 4 KiB pages at once spend most of a short solve in the
/// kernel) and fewer TLB misses on probes. Only advice: if the kernel says no, nothing changes.
#[cfg(target_os = "linux")]
fn advise_huge_pages(words: &[AtomicU64]) {
    const PAGE: usize = 4096;
    let start = words.as_ptr() as usize;
    let end = start + std::mem::size_of_val(words);
    // madvise needs a page-aligned start; the allocation's first bytes may share a page.
    let aligned = start.next_multiple_of(PAGE);
    if aligned < end {
        // SAFETY: the range lies inside the live allocation of `words`; MADV_HUGEPAGE changes
        // neither its contents nor its validity.
        unsafe {
            libc::madvise(
                aligned as *mut libc::c_void,
                end - aligned,
                libc::MADV_HUGEPAGE,
            );
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_words: &[AtomicU64]) {}

/// For the tables' tests: every mix of the words of two entries, as a torn write or two
/// interleaved writes leave them (word `i` from `second` where bit `i` of the mask is set).
#[cfg(test)]
pub(crate) fn word_mixes<const W: usize>(
    first: [u64; W],
    second: [u64; W],
) -> impl Iterator<Item = [u64; W]> {
    (0..1u32 << W).map(move |mask| {
        std::array::from_fn(|i| {
            if mask >> i & 1 == 0 {
                first[i]
            } else {
                second[i]
            }
        })
    })
}

/// For the tables' tests: the two keys and every key that differs from one of them in the low
/// 12 bits of one half.
#[cfg(test)]
pub(crate) fn keys_near(keys: [(u64, u64); 2]) -> impl Iterator<Item = (u64, u64)> {
    (0..1u64 << 12).flat_map(move |delta| {
        keys.into_iter()
            .flat_map(move |(a, b)| [(a ^ delta, b), (a, b ^ delta)])
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_fit_their_size_and_keys_find_their_two_slots() {
        for megabytes in [0, 1, 3] {
            let three = Buckets::<3>::new(megabytes);
            let four = Buckets::<4>::new(megabytes);
            assert!(three.bytes() <= (megabytes << 20).max(48));
            assert!(four.bytes() <= (megabytes << 20).max(64));
            for key in [(0, 0), (1, u64::MAX), (u64::MAX, 1 << 63)] {
                let [a, b] = four.slots(key);
                assert_eq!(b, a + 4);
                assert_eq!(a % 8, 0);
                assert!(b + 4 <= four.words.len());
            }
        }
        // Written words read back, and the entries list them in order.
        let table = Buckets::<3>::new(0);
        let [a, b] = table.slots((9, 9));
        table.write(b, [1, 2, 3]);
        assert_eq!(table.read(b), [1, 2, 3]);
        assert_eq!(table.read(a), [0, 0, 0]);
        assert_eq!(table.entries().collect::<Vec<_>>(), [[0, 0, 0], [1, 2, 3]]);
    }
}
