//! The proof table: proof and disproof numbers of the positions a proof-number search has met,
//! shared lock-free by every thread.
//!
//! A question is a position and a target ("does the side to move reach at least `target`?"),
//! so the target is folded into the key: each target of one position has its own entry. Each
//! entry is four `AtomicU64` words: `key.0 ^ s`, `key.1 ^ s`, `numbers` and `extra`, where
//! `numbers` packs the proof and disproof numbers, `extra` the best move and the work, and `s`
//! seals both data words together (`seal(numbers ^ seal(extra))`). A probe accepts an entry
//! only if both key halves come back, so words of two different stores (a torn write, or a read
//! between the words of a write) are never taken for one entry, whatever the keys.
//!
//! Each check word once held one data word (`key.0 ^ numbers`, `key.1 ^ extra`). Two questions of
//! one position share their key's first half (only the target differs), so the first check word and
//! `numbers` of one and the second and `extra` of the other passed for the other's own entry: a
//! torn write in a bucket both used could give one target's proof to the other. The toy game of
//! `tests/toy_game.rs`, whose keys all share the first half, was solved wrongly on two threads
//! twice in 30,000 random rows (debug build) and once in 90,000 (release), and never in 90,000
//! since. Buckets of two entries (one cache line); a new question replaces the entry whose numbers
//! took less work, a decided entry counting as more work than any open one.

use crate::boardgame::search::buckets::Buckets;
use crate::boardgame::search::tt::seal;

const ENTRY_WORDS: usize = 4;
/// Marks a written entry, so that an all-zero entry never matches.
const VALID: u64 = 1 << 63;

/// A proof or disproof number that can never reach 0: the question is decided the other way.
pub const INFINITE: u32 = u32::MAX;

/// What a probe finds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Numbers {
    /// Proof number: 0 once the side to move is proven to reach the target.
    pub proof: u32,
    /// Disproof number: 0 once it is proven not to.
    pub disproof: u32,
    /// The move the search last went into (or proved with), as [`crate::boardgame::Game::encode`].
    pub mv: Option<u32>,
}

/// The shared table. Never grows after creation.
pub struct ProofTable {
    buckets: Buckets<ENTRY_WORDS>,
}

/// The table key of the question "does the position with `key` reach at least `target`?".
#[inline]
pub fn question_key(key: (u64, u64), target: i32) -> (u64, u64) {
    // A fixed odd multiplier spreads the small target over the whole word; the key's own bits
    // are already well mixed (`Game::key`).
    let spread = (target as i64 as u64 ^ 0x5555).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (key.0, key.1 ^ spread)
}

#[inline]
fn pack_extra(mv: Option<u32>, work: u32) -> u64 {
    let mv = mv.map_or(0, |m| (m as u64 & 0x7FFF_FFFF) + 1);
    VALID | (work.min(63) as u64) << 32 | mv
}

/// One seal of both data words: any change in either changes it all.
#[inline]
fn seal_both(numbers: u64, extra: u64) -> u64 {
    seal(numbers ^ seal(extra))
}

#[inline]
fn rank(numbers: u64, extra: u64) -> u32 {
    if extra & VALID == 0 {
        return 0;
    }
    let decided = numbers as u32 == 0 || (numbers >> 32) as u32 == 0;
    // Decided entries first (work + 64), then the open ones by work.
    (extra >> 32 & 0x3F) as u32 + if decided { 64 } else { 0 }
}

impl ProofTable {
    /// A table using at most `megabytes` MiB (at least one bucket). Its pages are given by the
    /// system as they are first written.
    pub fn new(megabytes: usize) -> ProofTable {
        ProofTable {
            buckets: Buckets::new(megabytes),
        }
    }

    /// Bytes held by the entries.
    pub fn bytes(&self) -> usize {
        self.buckets.bytes()
    }

    #[inline]
    fn matches(entry: [u64; ENTRY_WORDS], key: (u64, u64)) -> bool {
        let [a, b, numbers, extra] = entry;
        // An empty entry is passed over before the seal is computed.
        extra & VALID != 0 && {
            let seal = seal_both(numbers, extra);
            a ^ seal == key.0 && b ^ seal == key.1
        }
    }

    /// Asks the processor to start loading `key`'s bucket, so that a [`ProofTable::probe`]
    /// issued after some other work finds it in cache. Only a hint.
    #[inline]
    pub fn prefetch(&self, key: (u64, u64)) {
        self.buckets.prefetch(key);
    }

    /// The entry of exactly this question key ([`question_key`]), if the table holds one.
    #[inline]
    pub fn probe(&self, key: (u64, u64)) -> Option<Numbers> {
        self.buckets.slots(key).into_iter().find_map(|at| {
            let entry = self.buckets.read(at);
            Self::matches(entry, key).then(|| {
                let [_, _, numbers, extra] = entry;
                let mv = (extra & 0xFFFF_FFFF) as u32;
                Numbers {
                    proof: numbers as u32,
                    disproof: (numbers >> 32) as u32,
                    mv: mv.checked_sub(1),
                }
            })
        })
    }

    /// Records the numbers of a question, its move and the work (log2 of the nodes) they took.
    /// A decided question stays decided: open numbers never replace a proof or a disproof.
    pub fn store(&self, key: (u64, u64), numbers: Numbers, work: u32) {
        let slots = self.buckets.slots(key);
        let mut target = slots[0];
        let mut least = u32::MAX;
        for at in slots {
            let entry = self.buckets.read(at);
            if Self::matches(entry, key) {
                let [_, _, old, _] = entry;
                let old_decided = old as u32 == 0 || (old >> 32) as u32 == 0;
                if old_decided && numbers.proof != 0 && numbers.disproof != 0 {
                    return;
                }
                target = at;
                break;
            }
            let r = rank(entry[2], entry[3]);
            if r < least {
                least = r;
                target = at;
            }
        }
        let packed = numbers.proof as u64 | (numbers.disproof as u64) << 32;
        let extra = pack_extra(numbers.mv, work);
        let seal = seal_both(packed, extra);
        self.buckets
            .write(target, [key.0 ^ seal, key.1 ^ seal, packed, extra]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::boardgame::search::buckets::{keys_near, word_mixes};

    fn numbers(proof: u32, disproof: u32, mv: Option<u32>) -> Numbers {
        Numbers {
            proof,
            disproof,
            mv,
        }
    }

    #[test]
    fn store_probe_and_targets_apart() {
        let table = ProofTable::new(1);
        let key = (0x1234, 0xABCD_0000_0000_0000);
        let at_1 = question_key(key, 1);
        let at_0 = question_key(key, 0);
        assert_ne!(at_1, at_0);
        assert_eq!(table.probe(at_1), None);
        table.store(at_1, numbers(3, 7, Some(12)), 4);
        assert_eq!(table.probe(at_1), Some(numbers(3, 7, Some(12))));
        assert_eq!(table.probe(at_0), None);
        // Newer open numbers replace older ones.
        table.store(at_1, numbers(5, 9, None), 5);
        assert_eq!(table.probe(at_1), Some(numbers(5, 9, None)));
        // A proof stays: open numbers that a slower thread stores afterwards are dropped.
        table.store(at_1, numbers(0, INFINITE, Some(2)), 6);
        table.store(at_1, numbers(4, 4, None), 7);
        assert_eq!(table.probe(at_1), Some(numbers(0, INFINITE, Some(2))));
    }

    #[test]
    fn a_torn_entry_is_rejected() {
        let table = ProofTable::new(1);
        let key = question_key((11, 1 << 40), 0);
        table.store(key, numbers(1, 2, None), 1);
        let [at, _] = table.buckets.slots(key);
        let [a, b, _, extra] = table.buckets.read(at);
        table.buckets.write(at, [a, b, 77 | 5 << 32, extra]);
        assert_eq!(table.probe(key), None);
    }

    /// Every mix of the words of two stores into one slot, as a torn write or two interleaved
    /// writes would leave them, is one of the two entries whole or no entry: no question near
    /// either passes for one with the other's numbers.
    #[test]
    fn words_of_two_stores_never_pass_for_an_entry() {
        let position = (0xDEAD_BEEF, 0x0123_4567_89AB_CDEF);
        let pairs = [
            // Two targets of one position: the first key halves are equal.
            (question_key(position, 1), question_key(position, 0)),
            (question_key(position, -3), question_key(position, 4)),
            // Keys that differ in a few low bits of the second half only (the toy game's).
            ((7, 0x0001_028A), (7, 0x0001_0288)),
        ];
        let writes = [
            (numbers(0, INFINITE, Some(1)), numbers(INFINITE, 0, Some(1))),
            (numbers(3, 5, None), numbers(0, INFINITE, Some(9))),
            (numbers(0, INFINITE, None), numbers(0, INFINITE, Some(2))),
        ];
        for (k1, k2) in pairs {
            for (n1, n2) in writes {
                // One bucket: both keys land in its first entry.
                let (one, two) = (ProofTable::new(0), ProofTable::new(0));
                one.store(k1, n1, 3);
                two.store(k2, n2, 3);
                let first = one.buckets.read(0);
                let second = two.buckets.read(0);
                for now in word_mixes(first, second) {
                    let mixed = ProofTable::new(0);
                    mixed.buckets.write(0, now);
                    for key in keys_near([k1, k2]) {
                        let Some(found) = mixed.probe(key) else {
                            continue;
                        };
                        assert!(
                            (key, found) == (k1, n1) && now == first
                                || (key, found) == (k2, n2) && now == second,
                            "{now:x?}: {key:?} passed with {found:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn decided_entries_outlive_open_ones() {
        // One bucket: every key lands in it.
        let table = ProofTable::new(0);
        let proven = (1, 1);
        table.store(proven, numbers(0, INFINITE, None), 0);
        for i in 2..50 {
            table.store((i, i), numbers(2, 3, None), 30);
        }
        assert!(table.probe(proven).is_some());
    }
}
