//! The engine's transposition table: depth-limited estimates, one thread.
//!
//! The solver's table ([`crate::boardgame::Table`]) holds proven bounds that never go stale; the
//! engine stores estimates that are only as good as the depth that found them, with the kind of
//! bound a window search gives. Same indexing by the 128-bit key and the same two-entry buckets;
//! a new entry replaces the shallower of the two.

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
    key: (u64, u64),
    /// The estimate, in [`super::SCALE`] units.
    pub value: i32,
    /// The remaining depth it was searched to.
    pub depth: i16,
    /// What kind of bound `value` is.
    pub bound: Bound,
    /// The best move found, encoded by [`crate::boardgame::Game::encode`].
    pub mv: Option<u32>,
}

const BUCKET: usize = 2;

/// A table of `2^k` buckets.
pub struct EngineTable {
    entries: Vec<Option<Entry>>,
    mask: usize,
}

impl EngineTable {
    /// A table of about `mib` MiB (at least one bucket).
    pub fn new(mib: usize) -> EngineTable {
        let bytes = mib.max(1) << 20;
        let per_bucket = BUCKET * std::mem::size_of::<Option<Entry>>();
        let buckets = (bytes / per_bucket).max(1).next_power_of_two() / 2;
        let buckets = buckets.max(1);
        EngineTable {
            entries: vec![None; buckets * BUCKET],
            mask: buckets - 1,
        }
    }

    fn bucket(&self, key: (u64, u64)) -> usize {
        (key.0 as usize & self.mask) * BUCKET
    }

    /// The entry for `key`, if stored.
    pub fn probe(&self, key: (u64, u64)) -> Option<Entry> {
        let start = self.bucket(key);
        self.entries[start..start + BUCKET]
            .iter()
            .flatten()
            .find(|e| e.key == key)
            .copied()
    }

    /// Stores a result; keeps the table move of an earlier entry when this one has none.
    pub fn store(
        &mut self,
        key: (u64, u64),
        value: i32,
        depth: i16,
        bound: Bound,
        mv: Option<u32>,
    ) {
        let start = self.bucket(key);
        let bucket = &mut self.entries[start..start + BUCKET];
        let slot = bucket
            .iter()
            .position(|e| e.is_some_and(|e| e.key == key))
            .or_else(|| bucket.iter().position(Option::is_none))
            .unwrap_or_else(|| {
                // The shallower entry makes way.
                let depth = |i: usize| bucket[i].map_or(i16::MIN, |e| e.depth);
                if depth(0) <= depth(1) { 0 } else { 1 }
            });
        let old_move = bucket[slot].filter(|e| e.key == key).and_then(|e| e.mv);
        bucket[slot] = Some(Entry {
            key,
            value,
            depth,
            bound,
            mv: mv.or(old_move),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_and_the_shallower_entry_makes_way() {
        let mut table = EngineTable::new(1);
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
}
