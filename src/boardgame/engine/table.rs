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
use std::sync::{Mutex, MutexGuard};

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
    /// The two data words: value, depth, bound, a used mark and the table's generation in the
    /// first; the move and the key's first half's high bits (a second check) in the second.
    fn pack(self, key: (u64, u64), generation: u64) -> (u64, u64) {
        let bound = match self.bound {
            Bound::Exact => 1u64,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        let has_move = u64::from(self.mv.is_some());
        let first = u64::from(self.value as u32)
            | u64::from(self.depth as u16) << 32
            | bound << 48
            | has_move << 56
            | generation << GENERATION_SHIFT;
        let second = u64::from(self.mv.unwrap_or(0)) | (key.0 >> 32) << 32;
        (first, second)
    }

    /// The entry of the two data words if they are of `generation`'s search.
    fn unpack(first: u64, second: u64, generation: u64) -> Option<Entry> {
        if first >> GENERATION_SHIFT != generation {
            return None;
        }
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
/// Bytes of a bucket: one cache line, so that a probe reads one line (a bucket of 48 bytes
/// packed after another straddled two lines half the time).
const BUCKET_BYTES: usize = LINE * 8;
/// The fewest buckets a search with a node budget gets (4 MiB, of which it touches only what it
/// uses): the first iteration searches every root move whatever the budget, a few thousand
/// nodes on a full board's hundreds of placements.
const MIN_BUCKETS: usize = 1 << 16;
/// Generations an entry can be stamped with (the first data word's top 7 bits).
const GENERATIONS: u64 = 1 << 7;
/// Where the generation sits in the first data word.
const GENERATION_SHIFT: u32 = 57;

/// A table of buckets shared by reference between the threads of one search, and kept by whoever
/// searches many times ([`EngineTable::begin`] starts each search).
///
/// A search's cost should follow its budget, not the table's size: the memory comes zeroed from
/// the operating system, which provides the pages only when first touched (a search of 200
/// nodes touches a few hundred cache lines of a 64 MiB table), and a search of `n` nodes uses
/// only as many buckets as `n` entries need ([`EngineTable::buckets_for`]). Between searches
/// the table is emptied by a new generation: an entry stamped with another generation is not
/// seen (and counts as a free slot), so a kept table answers exactly as a fresh one of the same
/// size, without writing a byte. Once the generations wrap around, the memory is given back
/// and taken fresh (zeroed again, lazily).
pub struct EngineTable {
    /// The words, zeroed; bucket 0 starts at `start`, on a cache line.
    words: Vec<AtomicU64>,
    start: usize,
    /// Buckets allocated (a power of two).
    capacity: usize,
    /// Buckets in use by the current search, less one (a power of two, less one).
    mask: usize,
    /// The generation of the current search's entries.
    generation: u64,
}

impl EngineTable {
    /// A table of about `mib` MiB (a power of two of buckets that fits, at least one), all in
    /// use.
    #[cfg(test)]
    pub fn new(mib: usize) -> EngineTable {
        Self::with_capacity(Self::buckets_in(mib))
    }

    /// A table for one search with a table of `mib` MiB and a budget of `nodes`, using as many
    /// buckets as [`EngineTable::buckets_for`] says, emptied. A small one (up to [`KEPT_BUCKETS`]
    /// buckets) is lent from the tables kept for reuse and goes back there when dropped: searches
    /// of a few hundred nodes, called thousands of times by a training loop or a match, then
    /// touch only warm memory.
    pub fn lend(mib: usize, nodes: Option<u64>) -> Lent {
        let buckets = Self::buckets_for(mib, nodes);
        let kept = buckets <= KEPT_BUCKETS;
        let table = kept
            .then(|| kept_tables().pop())
            .flatten()
            .unwrap_or_else(|| {
                EngineTable::with_capacity(if kept { KEPT_BUCKETS } else { buckets })
            });
        let mut lent = Lent { table, kept };
        lent.table.begin(buckets);
        lent
    }

    /// A table of `capacity` buckets (a power of two), all in use.
    fn with_capacity(capacity: usize) -> EngineTable {
        let (words, start) = Self::allocate(capacity);
        EngineTable {
            words,
            start,
            capacity,
            mask: capacity - 1,
            generation: 0,
        }
    }

    /// A table of no memory, what a kept table leaves behind.
    fn empty() -> EngineTable {
        EngineTable {
            words: Vec::new(),
            start: 0,
            capacity: 0,
            mask: 0,
            generation: 0,
        }
    }

    /// The most buckets, a power of two, that fit in `mib` MiB (as many as when they were
    /// packed in 48 bytes, for a size in MiB that is a power of two: the same table, the same
    /// search).
    fn buckets_in(mib: usize) -> usize {
        let fit = (mib.max(1).saturating_mul(1 << 20) / BUCKET_BYTES).max(1);
        1usize << fit.ilog2()
    }

    /// The buckets a search with a table of `mib` MiB and a budget of `nodes` uses: the table's,
    /// or, for a node budget, four buckets (eight entries) per node, rounded up to a power of
    /// two and at least [`MIN_BUCKETS`], if that is fewer. A search stores at most one entry
    /// per node, so at an eighth of an entry per slot it finds a free slot almost always (a
    /// bucket is asked for a third entry about once in 500).
    pub fn buckets_for(mib: usize, nodes: Option<u64>) -> usize {
        let whole = Self::buckets_in(mib);
        match nodes {
            Some(n) => {
                let wanted = usize::try_from(n.saturating_mul(4))
                    .unwrap_or(usize::MAX)
                    .checked_next_power_of_two()
                    .unwrap_or(usize::MAX);
                wanted.max(MIN_BUCKETS).min(whole)
            }
            None => whole,
        }
    }

    /// `buckets` buckets of zeroed words, the first on a cache line.
    fn allocate(buckets: usize) -> (Vec<AtomicU64>, usize) {
        let words = crate::boardgame::search::buckets::zeroed_atomics(buckets * LINE + LINE - 1);
        let misalignment = (words.as_ptr() as usize / 8) % LINE;
        (words, (LINE - misalignment) % LINE)
    }

    /// Readies the table for a new search that uses `buckets` buckets (a power of two, as
    /// [`EngineTable::buckets_for`] gives; more than the table has are taken by allocating
    /// anew): what earlier searches stored is no longer seen.
    pub fn begin(&mut self, buckets: usize) {
        let buckets = buckets.max(1).next_power_of_two();
        self.generation += 1;
        if buckets > self.capacity || self.generation == GENERATIONS {
            let capacity = buckets.max(self.capacity);
            // The old memory goes first: two big tables at once could exhaust it.
            self.words = Vec::new();
            (self.words, self.start) = Self::allocate(capacity);
            self.capacity = capacity;
            self.generation = 0;
        }
        self.mask = buckets - 1;
    }

    /// Buckets in use by the current search.
    #[cfg(test)]
    pub fn buckets(&self) -> usize {
        self.mask + 1
    }

    /// The first word of each entry of `key`'s bucket, counted in words from the table's start.
    fn slots(&self, key: (u64, u64)) -> [usize; BUCKET] {
        let start = (key.0 as usize & self.mask) * LINE;
        std::array::from_fn(|i| start + i * WORDS)
    }

    /// The word `index` words from the table's start.
    #[inline(always)]
    fn word(&self, index: usize) -> &AtomicU64 {
        &self.words[self.start + index]
    }

    /// The entry at `slot` if it holds `key` and was not torn by another thread's write.
    fn read(&self, slot: usize, key: (u64, u64)) -> Option<Entry> {
        let check = self.word(slot).load(Ordering::Relaxed);
        let first = self.word(slot + 1).load(Ordering::Relaxed);
        let second = self.word(slot + 2).load(Ordering::Relaxed);
        if check ^ first ^ second != key.1 || second >> 32 != key.0 >> 32 {
            return None;
        }
        Entry::unpack(first, second, self.generation)
    }

    /// The depth of whatever `slot` holds, `None` when empty (or torn).
    fn depth_at(&self, slot: usize) -> Option<i16> {
        let first = self.word(slot + 1).load(Ordering::Relaxed);
        let second = self.word(slot + 2).load(Ordering::Relaxed);
        Entry::unpack(first, second, self.generation).map(|e| e.depth)
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
        let (first, second) = entry.pack(key, self.generation);
        self.word(slot)
            .store(key.1 ^ first ^ second, Ordering::Relaxed);
        self.word(slot + 1).store(first, Ordering::Relaxed);
        self.word(slot + 2).store(second, Ordering::Relaxed);
    }
}

/// The largest table kept for reuse, in buckets (16 MiB: a search of up to 65,536 nodes). A
/// larger one costs its pages as the search touches them, a small part of what it searches.
pub const KEPT_BUCKETS: usize = 1 << 18;

/// The tables kept for reuse: at most one per core, each of [`KEPT_BUCKETS`] buckets.
static KEPT: Mutex<Vec<EngineTable>> = Mutex::new(Vec::new());

fn kept_tables() -> MutexGuard<'static, Vec<EngineTable>> {
    // A search that panicked has left a table that is emptied before use: it stands.
    KEPT.lock().unwrap_or_else(|e| e.into_inner())
}

/// A table lent to one search ([`EngineTable::lend`]).
pub struct Lent {
    table: EngineTable,
    /// Whether the table goes back to the kept ones when dropped.
    kept: bool,
}

impl std::ops::Deref for Lent {
    type Target = EngineTable;
    fn deref(&self) -> &EngineTable {
        &self.table
    }
}

impl Drop for Lent {
    fn drop(&mut self) {
        if !self.kept {
            return;
        }
        let cores = crate::boardgame::thread_count(0);
        let mut kept = kept_tables();
        if kept.len() < cores {
            kept.push(std::mem::replace(&mut self.table, EngineTable::empty()));
        }
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
    fn buckets_are_cache_lines_and_the_table_fits_its_size() {
        for mib in [1, 3, 16, 64, 100, 256] {
            let table = EngineTable::new(mib);
            assert_eq!(table.word(0).as_ptr() as usize % 64, 0, "on a cache line");
            let bytes = table.buckets() * BUCKET_BYTES;
            assert!(table.buckets().is_power_of_two());
            assert!(table.words.len() >= table.start + table.buckets() * LINE);
            assert!(
                bytes <= mib << 20 && 2 * bytes > mib << 20,
                "{mib} MiB: {bytes}"
            );
            // As many buckets as the 48-byte ones had for a size that is a power of two.
            if mib.is_power_of_two() {
                assert_eq!(table.buckets(), ((mib << 20) / 48).next_power_of_two() / 2);
            }
        }
    }

    #[test]
    fn a_node_budget_takes_four_buckets_a_node_within_the_table() {
        assert_eq!(EngineTable::buckets_for(64, None), 1 << 20);
        assert_eq!(EngineTable::buckets_for(64, Some(1)), MIN_BUCKETS);
        assert_eq!(EngineTable::buckets_for(64, Some(2_000)), MIN_BUCKETS);
        assert_eq!(EngineTable::buckets_for(64, Some(20_000)), 1 << 17);
        assert_eq!(EngineTable::buckets_for(64, Some(1_000_000)), 1 << 20);
        assert_eq!(EngineTable::buckets_for(2, Some(1)), 1 << 15);
        assert_eq!(EngineTable::buckets_for(4, Some(1_000_000)), 1 << 16);
        assert_eq!(EngineTable::buckets_for(64, Some(u64::MAX)), 1 << 20);
    }

    /// A kept table begun again answers as a fresh one: nothing stored before is found, and
    /// every slot is free again, over more searches than there are generations.
    #[test]
    fn a_new_search_sees_nothing_of_the_last_and_finds_every_slot_free() {
        let mut table = EngineTable::new(1);
        let same_bucket = |i: u64| (i << 40, i);
        for search in 0..3 * GENERATIONS {
            table.begin(1 << 10);
            let (a, b) = (same_bucket(2 * search + 1), same_bucket(2 * search + 2));
            let last = same_bucket(2 * search.max(1) - 1);
            assert!(table.probe(last).is_none(), "search {search}");
            // Were the last search's two entries still taking the slots, `b` would replace the
            // shallower `a`.
            table.store(a, 5, 1, Bound::Exact, Some(7));
            table.store(b, 6, 2, Bound::Exact, None);
            assert_eq!(table.probe(a).map(|e| e.value), Some(5), "search {search}");
            assert_eq!(table.probe(b).map(|e| e.value), Some(6), "search {search}");
        }
        // A larger search than the table was made for gets a larger table.
        table.begin(1 << 16);
        assert_eq!(table.buckets(), 1 << 16);
        assert!(table.probe(same_bucket(1)).is_none());
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
