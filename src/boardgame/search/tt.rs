//! The transposition table: a fixed-size array of lock-free entries shared by every thread.
//!
//! Each entry is three `AtomicU64` words: `key.0 ^ seal(data)`, `key.1 ^ seal(data)` and `data`,
//! where [`seal`] scrambles the data word. A probe recomputes both key halves from the data word
//! and accepts the entry only if the whole 128-bit key matches, so a torn write (words of two
//! different stores) or an entry of another position is never taken for a hit. The seal is what
//! makes this hold for any keys: with the data word itself in the check words, a torn entry of two
//! stores differs from a real one by the XOR of their data words, a few low bits, and a game whose
//! keys are close together (the toy game of `tests/toy_game.rs` packs its state into the key's low
//! bits) could find another position's bounds under its own key. Entries hold proven lower and
//! upper bounds of the exact value and the best move; as every stored bound is true whatever the
//! window that found it, bounds for one key are merged by intersection. Buckets of two entries; a
//! new position replaces the entry whose subtree took less work.

use super::buckets::Buckets;

const ENTRY_WORDS: usize = 3;
/// Marks a written entry, so that an all-zero entry never matches the key `(0, 0)`.
const VALID: u64 = 1 << 63;

/// What a probe finds: proven bounds and the best move's code (`None` if unknown).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    pub lower: i32,
    pub upper: i32,
    pub mv: Option<u32>,
}

/// The shared table. Never grows after creation.
pub struct Table {
    buckets: Buckets<ENTRY_WORDS>,
}

#[inline]
fn pack(lower: i32, upper: i32, mv: Option<u32>, work: u32) -> u64 {
    let lower = (lower as i8 as u8) as u64;
    let upper = (upper as i8 as u8) as u64;
    let mv = mv.map_or(0, |m| (m as u64 & 0x7FFF_FFFF) + 1);
    VALID | (work.min(63) as u64) << 48 | mv << 16 | upper << 8 | lower
}

#[inline]
fn unpack(data: u64) -> (Hit, u32) {
    let lower = (data & 0xFF) as u8 as i8 as i32;
    let upper = (data >> 8 & 0xFF) as u8 as i8 as i32;
    let mv = (data >> 16 & 0xFFFF_FFFF) as u32;
    let work = (data >> 48 & 0x3F) as u32;
    (
        Hit {
            lower,
            upper,
            mv: mv.checked_sub(1),
        },
        work,
    )
}

/// A bijective scramble of an entry's data (the finaliser of SplitMix64): entries that differ in
/// any bit have seals that differ in about half of theirs, so words of two stores that differ
/// only in their data never pass for one entry.
#[inline]
pub(crate) fn seal(data: u64) -> u64 {
    let mut z = data ^ (data >> 30);
    z = z.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Table {
    /// A table using at most `megabytes` MiB (at least one bucket).
    pub fn new(megabytes: usize) -> Table {
        Table {
            buckets: Buckets::new(megabytes),
        }
    }

    /// Bytes held by the entries.
    pub fn bytes(&self) -> usize {
        self.buckets.bytes()
    }

    #[inline]
    fn matches(entry: [u64; ENTRY_WORDS], key: (u64, u64)) -> bool {
        let [a, b, data] = entry;
        // An empty entry is passed over before the seal is computed.
        data & VALID != 0 && {
            let seal = seal(data);
            a ^ seal == key.0 && b ^ seal == key.1
        }
    }

    /// Copies every entry into `other` (merged with what it holds), for moving to a larger
    /// table. Only while no thread stores into `self`.
    pub fn copy_into(&self, other: &Table) {
        for [a, b, data] in self.buckets.entries() {
            if data & VALID != 0 {
                let (hit, work) = unpack(data);
                let seal = seal(data);
                other.store((a ^ seal, b ^ seal), hit.lower, hit.upper, hit.mv, work);
            }
        }
    }

    /// Asks the processor to start loading `key`'s bucket, so that a [`Table::probe`] issued
    /// after some other work finds it in cache instead of waiting for memory. Only a hint.
    #[inline]
    pub fn prefetch(&self, key: (u64, u64)) {
        self.buckets.prefetch(key);
    }

    /// The entry of exactly this key, if the table holds one.
    #[inline]
    pub fn probe(&self, key: (u64, u64)) -> Option<Hit> {
        self.buckets.slots(key).into_iter().find_map(|at| {
            let entry = self.buckets.read(at);
            Self::matches(entry, key).then(|| unpack(entry[2]).0)
        })
    }

    /// Records proven bounds (intersected with any bounds already known for this key), the best
    /// move and the work (log2 of the nodes) the result took.
    pub fn store(&self, key: (u64, u64), lower: i32, upper: i32, mv: Option<u32>, work: u32) {
        let slots = self.buckets.slots(key);
        let mut target = slots[0];
        let mut least_work = u32::MAX;
        let (mut lower, mut upper, mut mv, mut work) = (lower, upper, mv, work);
        for at in slots {
            let entry = self.buckets.read(at);
            if Self::matches(entry, key) {
                let (old, old_work) = unpack(entry[2]);
                lower = lower.max(old.lower);
                upper = upper.min(old.upper);
                mv = mv.or(old.mv);
                work = work.max(old_work);
                target = at;
                break;
            }
            let entry_work = if entry[2] & VALID == 0 {
                0
            } else {
                unpack(entry[2]).1
            };
            if entry_work < least_work {
                least_work = entry_work;
                target = at;
            }
        }
        let data = pack(lower, upper, mv, work);
        let seal = seal(data);
        self.buckets
            .write(target, [key.0 ^ seal, key.1 ^ seal, data]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::boardgame::search::buckets::{keys_near, word_mixes};

    #[test]
    fn store_probe_merge() {
        let table = Table::new(1);
        assert!(table.bytes() <= 1 << 20);
        let key = (0x1234, 0xABCD_0000_0000_0000);
        assert_eq!(table.probe(key), None);
        table.store(key, -3, 40, Some(77), 5);
        assert_eq!(
            table.probe(key),
            Some(Hit {
                lower: -3,
                upper: 40,
                mv: Some(77)
            })
        );
        table.store(key, -47, 12, None, 2);
        assert_eq!(
            table.probe(key),
            Some(Hit {
                lower: -3,
                upper: 12,
                mv: Some(77)
            })
        );
        // A key differing in one half only is a miss.
        assert_eq!(table.probe((0x1235, key.1)), None);
        assert_eq!(table.probe((0, 0)), None);
    }

    #[test]
    fn copying_into_a_larger_table_keeps_every_entry() {
        let small = Table::new(1);
        let keys: Vec<(u64, u64)> = (1..2000u64)
            .map(|i| (i.wrapping_mul(0x9E37_79B9_7F4A_7C15), i))
            .collect();
        for (i, &key) in keys.iter().enumerate() {
            small.store(key, -(i as i32 % 40), 40, Some(i as u32), 3);
        }
        let large = Table::new(8);
        small.copy_into(&large);
        for &key in &keys {
            assert_eq!(large.probe(key), small.probe(key), "{key:?}");
        }
    }

    /// Every mix of the words of two stores into one slot (a torn write, or two writes
    /// interleaved) is one of the two entries whole or no entry, even for keys that differ only
    /// in a few low bits: no key near either passes for one with the other's bounds.
    #[test]
    fn words_of_two_stores_never_pass_for_an_entry() {
        let pairs = [
            ((7, 0x0001_028A), (7, 0x0001_0288)),
            ((7, 0x0001_0200), (7, 0x0001_0205)),
            ((0x1234_5678, 0x9ABC), (0x1234_5678 ^ 0x0101, 0x9ABC)),
        ];
        let bounds = [((-5, -5), (-7, -7)), ((0, 3), (2, 3)), ((1, 1), (5, 5))];
        for (k1, k2) in pairs {
            for ((l1, u1), (l2, u2)) in bounds {
                let (one, two) = (Table::new(0), Table::new(0));
                one.store(k1, l1, u1, None, 2);
                two.store(k2, l2, u2, None, 2);
                let first = one.buckets.read(0);
                let second = two.buckets.read(0);
                for now in word_mixes(first, second) {
                    let mixed = Table::new(0);
                    mixed.buckets.write(0, now);
                    for key in keys_near([k1, k2]) {
                        let Some(hit) = mixed.probe(key) else {
                            continue;
                        };
                        let found = (key, hit.lower, hit.upper);
                        assert!(
                            (found == (k1, l1, u1) && now == first)
                                || (found == (k2, l2, u2) && now == second),
                            "{now:x?}: {found:?} passed"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn torn_entry_is_rejected() {
        let table = Table::new(1);
        let a = (11, 1 << 40);
        table.store(a, 1, 2, None, 1);
        // Simulate a torn write: the data word of another store lands alone.
        let [at, _] = table.buckets.slots(a);
        let [x, y, _] = table.buckets.read(at);
        table.buckets.write(at, [x, y, pack(-5, 5, Some(3), 1)]);
        assert_eq!(table.probe(a), None);
    }
}
