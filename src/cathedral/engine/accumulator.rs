//! The learned evaluation's accumulator (NNUE-style): the first layer's sums over the board's
//! planes ([`super::inputs::PLANES`]), kept for both players' views and updated by the cells a
//! move changed (the building placed, the territory claimed, a building captured) instead of
//! summed again at every horizon position.
//!
//! The sums are integers ([`Network`]'s plane rows in fixed point), so a sum updated move by move
//! is exactly the sum made afresh: the evaluation of a position does not depend on the line that
//! reached it, and the search is the same with or without the accumulator, only faster.

use super::network::{MAX_HIDDEN1, Network, first};
use crate::cathedral::bitboard::Bitboard;
use crate::cathedral::player::Player;
use crate::cathedral::position::Position;

/// The board's sets the planes are made of, whoever is to move: Light's buildings, Dark's, the
/// Cathedral, Light's territory, Dark's.
const SETS: usize = 5;

/// For each view (Light's, Dark's), the plane each set is: the side whose view it is first.
const PLANE_OF: [[usize; SETS]; 2] = [[0, 1, 2, 3, 4], [1, 0, 2, 4, 3]];

fn sets(position: &Position) -> [Bitboard; SETS] {
    let (light, dark) = (position.side(Player::Light), position.side(Player::Dark));
    [
        light.occupied,
        dark.occupied,
        position.cathedral(),
        light.territory,
        dark.territory,
    ]
}

/// The planes' part of the first layer for both views: what [`Network::estimate_summed`] adds to
/// the inputs' summary. Only the first `hidden1` entries of each view are used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlaneSums {
    views: [[i32; MAX_HIDDEN1]; 2],
    skips: [i32; 2],
    /// Whether the sums are a position's (an empty accumulator is not).
    valid: bool,
}

impl Default for PlaneSums {
    fn default() -> Self {
        PlaneSums {
            views: [[0; MAX_HIDDEN1]; 2],
            skips: [0; 2],
            valid: false,
        }
    }
}

impl PlaneSums {
    /// The sums of `position` for `network`, from scratch.
    pub fn of(network: &Network, position: &Position) -> PlaneSums {
        let mut sums = PlaneSums::default();
        sums.refresh(network, position);
        sums
    }

    /// Makes these the sums of `position`, from scratch.
    pub fn refresh(&mut self, network: &Network, position: &Position) {
        let h = network.hidden1();
        for view in &mut self.views {
            view[..h].fill(0);
        }
        self.skips = [0; 2];
        for (set, cells) in sets(position).into_iter().enumerate() {
            match h {
                16 => self.change::<16>(network, set, cells, 1),
                32 => self.change::<32>(network, set, cells, 1),
                64 => self.change::<64>(network, set, cells, 1),
                _ => self.change::<128>(network, set, cells, 1),
            }
        }
        self.valid = true;
    }

    /// Makes these the sums of `child`, a position reached from `parent` (whose sums are
    /// `from`) by one move: `from` changed by the cells that entered or left each set. The same
    /// sums as [`PlaneSums::refresh`] of `child`, exactly.
    pub fn update(
        &mut self,
        network: &Network,
        parent: &Position,
        from: &PlaneSums,
        child: &Position,
    ) {
        if !from.valid {
            self.refresh(network, child);
            return;
        }
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has just been found to support AVX2.
            return unsafe { self.update_avx2(network, parent, from, child) };
        }
        self.update_plain(network, parent, from, child)
    }

    /// [`PlaneSums::update_plain`] compiled for AVX2, whose eight-wide vectors add a row in
    /// four instructions for the committed network (the baseline's four-wide ones in eight).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn update_avx2(
        &mut self,
        network: &Network,
        parent: &Position,
        from: &PlaneSums,
        child: &Position,
    ) {
        self.update_plain(network, parent, from, child)
    }

    #[inline(always)]
    fn update_plain(
        &mut self,
        network: &Network,
        parent: &Position,
        from: &PlaneSums,
        child: &Position,
    ) {
        match network.hidden1() {
            16 => self.update_sized::<16>(network, parent, from, child),
            32 => self.update_sized::<32>(network, parent, from, child),
            64 => self.update_sized::<64>(network, parent, from, child),
            _ => self.update_sized::<128>(network, parent, from, child),
        }
    }

    /// The update with the first layer's width `H` known to the compiler, which then adds a row
    /// in whole vectors with no loop.
    #[inline(always)]
    fn update_sized<const H: usize>(
        &mut self,
        network: &Network,
        parent: &Position,
        from: &PlaneSums,
        child: &Position,
    ) {
        for (view, source) in self.views.iter_mut().zip(&from.views) {
            view[..H].copy_from_slice(&source[..H]);
        }
        self.skips = from.skips;
        let (before, after) = (sets(parent), sets(child));
        for set in 0..SETS {
            self.change::<H>(network, set, after[set] - before[set], 1);
            self.change::<H>(network, set, before[set] - after[set], -1);
        }
        self.valid = true;
    }

    /// Adds (`sign` 1) or removes (-1) the rows of `cells` of set `set` in both views.
    #[inline(always)]
    fn change<const H: usize>(
        &mut self,
        network: &Network,
        set: usize,
        cells: Bitboard,
        sign: i32,
    ) {
        for cell in cells.cells() {
            for (view, planes) in PLANE_OF.iter().enumerate() {
                let input = 100 * planes[set] + cell.index();
                network.add_plane_row::<H>(
                    input,
                    sign,
                    first(&mut self.views[view]),
                    &mut self.skips[view],
                );
            }
        }
    }

    /// The sums from `player`'s view (its own sets first) and their skip part, if these are a
    /// position's sums.
    pub fn view(&self, player: Player) -> Option<(&[i32; MAX_HIDDEN1], i32)> {
        self.valid
            .then(|| (&self.views[player.index()], self.skips[player.index()]))
    }

    /// Forgets the sums (an evaluation without a network keeps none).
    pub fn clear(&mut self) {
        self.valid = false;
    }
}
