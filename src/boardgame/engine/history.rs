//! Move-ordering memory: killer moves per ply and a history of moves that caused cut-offs.

/// Two killer moves per ply: the last moves that refuted a window there.
pub struct Killers {
    slots: Vec<[Option<u32>; 2]>,
}

impl Killers {
    pub fn new() -> Killers {
        Killers { slots: Vec::new() }
    }

    /// The killers of `ply`.
    pub fn at(&self, ply: usize) -> [Option<u32>; 2] {
        self.slots.get(ply).copied().unwrap_or([None; 2])
    }

    /// Records a refutation at `ply`.
    pub fn add(&mut self, ply: usize, code: u32) {
        if self.slots.len() <= ply {
            self.slots.resize(ply + 1, [None; 2]);
        }
        let slot = &mut self.slots[ply];
        if slot[0] != Some(code) {
            slot[1] = slot[0];
            slot[0] = Some(code);
        }
    }
}

/// Cut-off counts by encoded move, weighted by the depth squared, halved as they grow.
pub struct History {
    /// Read for every move at every node the search orders: hashed with foldhash, not the
    /// standard library's SipHash (measured: SipHash was 4 % of the engine's time). The order of
    /// the entries never matters, so a fixed seed changes nothing but the speed.
    scores: std::collections::HashMap<u32, u32, foldhash::fast::FixedState>,
}

impl History {
    pub fn new() -> History {
        History {
            scores: std::collections::HashMap::default(),
        }
    }

    pub fn score(&self, code: u32) -> u32 {
        self.scores.get(&code).copied().unwrap_or(0)
    }

    pub fn reward(&mut self, code: u32, depth: i16) {
        let d = depth.max(1) as u32;
        let entry = self.scores.entry(code).or_insert(0);
        *entry = entry.saturating_add(d * d);
        if *entry > 1 << 20 {
            for v in self.scores.values_mut() {
                *v /= 2;
            }
        }
    }
}
