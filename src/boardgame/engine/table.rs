//! The engine's transposition table: depth-limited estimates, shared by the search threads
//! without locks.
//!
//! The solver's table ([`crate::boardgame::Table`]) holds proven bounds that never go stale; the
//! engine stores estimates that are only as good as the depth that found them, with the kind of
//! bound a window search gives. Buckets of two entries indexed by the 128-bit key's first half; a
//! new entry replaces the shallower of the two.
//!
//! Each entry is three words written one after the other with relaxed atomics: the entry's data
//! in two, and a check word (the key's second half XOR both data words). Threads may interleave
//! their writes to one entry; a reader then finds a check word that does not match and sees no
//! entry (the "lockless hashing" of Hyatt and Mann), so a torn entry is never used.

use std::sync::atomic::{AtomicU64, Ordering};

/// What a window search proved about its estimate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The estimate is exact for its depth.
    Exact,
    /// The estimate is at least the value (a cut-off).
    Lower,
    /// The estimate is at most the value (no move reached alpha).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The estimate, in [`super::SCALE`] units.
    pub value: i32,
    /// The remaining depth it was searched to.
    pub depth: i16,
    /// What kind of bound `value` is.
    pub bound: Bound,
    /// The best move found, encoded by [`crate::boardgame::Game::encode`].
    pub mv: Option<u32>,
}

impl Entry {
    /// The two data words: value, depth, bound and a used mark in the first; the move and the
    /// key's first half's high bits (a second check) in the second.
    fn pack(self, key: (u64, u64)) -> (u64, u64) {
        let bound = match self.bound {
            Bound::Exact => 1u64,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        let has_move = u64::from(self.mv.is_some());
        let first = u64::from(self.value as u32)
            | u64::from(self.depth as u16) << 32
            | bound << 48
            | has_move << 56;
        let second = u64::from(self.mv.unwrap_or(0)) | (key.0 >> 32) << 32;
        (first, second)
    }

    fn unpack(first: u64, second: u64) -> Option<Entry> {
        let bound = match (first >> 48) & 0xFF {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        Some(Entry {
            value: first as u32 as i32,
            depth: (first >> 32) as u16 as i16,
            bound,
            mv: ((first >> 56) & 1 == 1).then_some(second as u32),
        })
    }
}

const BUCKET: usize = 2;
/// Words per entry: check, first data word, second data word.
const WORDS: usize = 3;
/// Words a bucket takes in memory: its entries', and padding to a cache line.
const LINE: usize = 8;

/// One bucket's entries in a cache line of its own, so that a probe reads one line (a bucket of
/// 48 bytes packed after another straddled two lines half the time).
#[repr(C, align(64))]
struct Bucket([AtomicU64; LINE]);

/// A table of `2^k` buckets, shared by reference between threads.
pub struct EngineTable {
    buckets: Vec<Bucket>,
    mask: usize,
}

impl EngineTable {
    /// A table of about `mib` MiB (at least one bucket).
    pub fn new(mib: usize) -> EngineTable {
        let bytes = mib.max(1) << 20;
        // The most buckets, a power of two, that fit (as many as when they were packed in 48
        // bytes, for a size in MiB that is a power of two: the same table, the same search).
        let fit = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let buckets = 1 << fit.ilog2();
        EngineTable {
            buckets: (0..buckets)
                .map(|_| Bucket(std::array::from_fn(|_| AtomicU64::new(0))))
                .collect(),
            mask: buckets - 1,
        }
    }

    /// The first word of each entry of `key`'s bucket, counted in words from the table's start.
    fn slots(&self, key: (u64, u64)) -> [usize; BUCKET] {
        let start = (key.0 as usize & self.mask) * LINE;
        std::array::from_fn(|i| start + i * WORDS)
    }

    /// The word `index` words from the table's start.
    #[inline(always)]
    fn word(&self, index: usize) -> &AtomicU64 {
        &self.buckets[index / LINE].0[index % LINE]
    }

    /// The entry at `slot` if it holds `key` and was not torn by another thread's write.
    fn read(&self, slot: usize, key: (u64, u64)) -> Option<Entry> {
        let check = self.word(slot).load(Ordering::Relaxed);
        let first = self.word(slot + 1).load(Ordering::Relaxed);
        let second = self.word(slot + 2).load(Ordering::Relaxed);
        if check ^ first ^ second != key.1 || second >> 32 != key.0 >> 32 {
            return None;
        }
        Entry::unpack(first, second)
    }

    /// The depth of whatever `slot` holds, `None` when empty (or torn).
    fn depth_at(&self, slot: usize) -> Option<i16> {
        let first = self.word(slot + 1).load(Ordering::Relaxed);
        let second = self.word(slot + 2).load(Ordering::Relaxed);
        Entry::unpack(first, second).map(|e| e.depth)
    }

    /// Asks the processor to start loading `key`'s bucket, so that a probe a little later finds
    /// it in the cache: the parent prefetches a child's bucket before the child's moves are made
    /// (a bucket read from memory was the table's cost). Changes nothing but the timing.
    #[inline]
    pub fn prefetch(&self, key: (u64, u64)) {
        prefetch(self.word(self.slots(key)[0]));
    }

    /// The entry for `key`, if stored.
    pub fn probe(&self, key: (u64, u64)) -> Option<Entry> {
        self.slots(key)
            .into_iter()
            .find_map(|slot| self.read(slot, key))
    }

    /// Stores a result; keeps the table move of an earlier entry when this one has none.
    pub fn store(&self, key: (u64, u64), value: i32, depth: i16, bound: Bound, mv: Option<u32>) {
        let slots = self.slots(key);
        // The slot already holding `key`, read once: its move is kept if the new result has none.
        let same = slots
            .iter()
            .find_map(|&slot| self.read(slot, key).map(|entry| (slot, entry)));
        let slot = same
            .map(|(slot, _)| slot)
            .or_else(|| slots.iter().copied().find(|&s| self.depth_at(s).is_none()))
            .unwrap_or_else(|| {
                // The shallower entry makes way.
                let depth = |s: usize| self.depth_at(s).unwrap_or(i16::MIN);
                if depth(slots[0]) <= depth(slots[1]) {
                    slots[0]
                } else {
                    slots[1]
                }
            });
        let old_move = same.and_then(|(_, entry)| entry.mv);
        let entry = Entry {
            value,
            depth,
            bound,
            mv: mv.or(old_move),
        };
        let (first, second) = entry.pack(key);
        self.word(slot)
            .store(key.1 ^ first ^ second, Ordering::Relaxed);
        self.word(slot + 1).store(first, Ordering::Relaxed);
        self.word(slot + 2).store(second, Ordering::Relaxed);
    }
}

/// Starts loading the cache line that holds `value` (nothing where the processor has no such
/// instruction in its baseline).
#[inline(always)]
pub(super) fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: a prefetch reads nothing and cannot fault; SSE is in the x86-64 baseline.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(value).cast::<i8>()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_is_a_cache_line_and_the_table_fits_its_size() {
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
        assert_eq!(std::mem::align_of::<Bucket>(), 64);
        for mib in [1, 3, 16, 64, 100, 256] {
            let table = EngineTable::new(mib);
            let bytes = table.buckets.len() * std::mem::size_of::<Bucket>();
            assert!(table.buckets.len().is_power_of_two());
            assert!(
                bytes <= mib << 20 && 2 * bytes > mib << 20,
                "{mib} MiB: {bytes}"
            );
            // As many buckets as the 48-byte ones had for a size that is a power of two.
            if mib.is_power_of_two() {
                assert_eq!(
                    table.buckets.len(),
                    ((mib << 20) / 48).next_power_of_two() / 2
                );
            }
        }
    }

    #[test]
    fn stores_and_finds_and_the_shallower_entry_makes_way() {
        let table = EngineTable::new(1);
        let same_bucket = |i: u64| (i << 40, i);
        table.store(same_bucket(1), 5, 3, Bound::Exact, Some(7));
        table.store(same_bucket(2), 6, 1, Bound::Lower, None);
        assert_eq!(table.probe(same_bucket(1)).map(|e| e.value), Some(5));
        assert_eq!(
            table.probe(same_bucket(2)).map(|e| e.bound),
            Some(Bound::Lower)
        );
        // A third key in the full bucket replaces the depth-1 entry.
        table.store(same_bucket(3), 7, 2, Bound::Upper, None);
        assert!(table.probe(same_bucket(2)).is_none());
        assert_eq!(table.probe(same_bucket(1)).map(|e| e.depth), Some(3));
        // A new result without a move keeps the old one's move.
        table.store(same_bucket(1), 9, 4, Bound::Exact, None);
        assert_eq!(table.probe(same_bucket(1)).and_then(|e| e.mv), Some(7));
    }

    #[test]
    fn entries_round_trip_every_field() {
        let table = EngineTable::new(1);
        let key = (0xDEAD_BEEF_0000_0001, 0x1234_5678_9ABC_DEF0);
        for (value, depth, bound, mv) in [
            (-1_000_000, 0, Bound::Upper, None),
            (4_700, 64, Bound::Exact, Some(0x7FFF_FFFF)),
            (-1, 1, Bound::Lower, Some(u32::MAX)),
            (0, i16::MAX, Bound::Exact, Some(0)),
        ] {
            let fresh = EngineTable::new(1);
            fresh.store(key, value, depth, bound, mv);
            let entry = fresh.probe(key).unwrap();
            assert_eq!(
                (entry.value, entry.depth, entry.bound, entry.mv),
                (value, depth, bound, mv)
            );
            table.store(key, value, depth, bound, mv);
        }
        // Another key of the same bucket with the same second half is not this entry.
        assert!(table.probe((key.0 ^ 1 << 40, key.1)).is_none());
        assert!(table.probe((key.0, key.1 ^ 1)).is_none());
    }

    /// Threads writing entries to the same buckets never make a reader see a torn one: every
    /// entry found is one that some thread stored for that key.
    #[test]
    fn concurrent_writes_never_show_a_torn_entry() {
        let table = EngineTable::new(1);
        // Value, depth and move all derive from the key, so a mix of two writes shows.
        let entry_of = |k: u64| (k as i32 * 3, (k % 50) as i16, Some(k as u32 ^ 0xABCD));
        std::thread::scope(|scope| {
            for t in 0..4u64 {
                let table = &table;
                scope.spawn(move || {
                    for round in 0..20_000u64 {
                        let k = (round * 7 + t) % 64;
                        let key = (k % 4, k.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
                        let (value, depth, mv) = entry_of(k);
                        table.store(key, value, depth, Bound::Exact, mv);
                        let probe = round % 64;
                        let probe_key = (probe % 4, probe.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
                        if let Some(e) = table.probe(probe_key) {
                            assert_eq!((e.value, e.depth, e.mv), entry_of(probe));
                        }
                    }
                });
            }
        });
    }
}
