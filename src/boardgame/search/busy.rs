//! "Being searched" marks shared by the threads of one solve (the idea of ABDADA, simplified):
//! a thread about to search a child that another thread is searching right now puts it off
//! until its other children are done, so the two threads spread over different subtrees instead
//! of duplicating one. The marks only change the order in which a node's children are searched,
//! never which are searched, so they cannot change a result.
//!
//! A fixed array of atomic words indexed by the low half of a position's key, holding the high
//! half (with its low bit set, so that an empty slot never matches). Collisions and races only
//! lose marks or, rarely, defer a child needlessly.

use std::sync::atomic::{AtomicU64, Ordering};

pub struct Busy {
    slots: Box<[AtomicU64]>,
    mask: u64,
}

impl Busy {
    /// A table of `2^bits` marks.
    pub fn new(bits: u32) -> Busy {
        let len = 1usize << bits;
        Busy {
            slots: (0..len).map(|_| AtomicU64::new(0)).collect(),
            mask: len as u64 - 1,
        }
    }

    #[inline]
    fn slot(&self, key: (u64, u64)) -> (&AtomicU64, u64) {
        (&self.slots[(key.0 & self.mask) as usize], key.1 | 1)
    }

    /// Whether some thread is searching the position with `key`.
    #[inline]
    pub fn is_busy(&self, key: (u64, u64)) -> bool {
        let (slot, tag) = self.slot(key);
        slot.load(Ordering::Relaxed) == tag
    }

    /// Marks `key` as being searched.
    #[inline]
    pub fn enter(&self, key: (u64, u64)) {
        let (slot, tag) = self.slot(key);
        slot.store(tag, Ordering::Relaxed);
    }

    /// Removes the mark of `key`, unless another position has taken the slot since.
    #[inline]
    pub fn leave(&self, key: (u64, u64)) {
        let (slot, tag) = self.slot(key);
        let _ = slot.compare_exchange(tag, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_are_set_and_cleared_per_key() {
        let busy = Busy::new(4);
        let a = (3, 77);
        let b = (3 + 16, 91); // same slot, other key
        assert!(!busy.is_busy(a));
        busy.enter(a);
        assert!(busy.is_busy(a));
        assert!(!busy.is_busy(b));
        busy.leave(b); // not b's mark: stays
        assert!(busy.is_busy(a));
        busy.leave(a);
        assert!(!busy.is_busy(a));
        // An empty slot never matches, whatever the key.
        assert!(!busy.is_busy((5, 0)));
    }
}
