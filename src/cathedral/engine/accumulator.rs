//! The learned evaluation's accumulator (NNUE-style): the first layer's sums over the board's
//! planes ([`super::inputs::PLANES`]), kept for both players' views and updated by the cells a
//! move changed (the building placed, the territory claimed, a building captured) instead of
//! summed again at every horizon position.
//!
//! The sums are integers ([`Network`]'s plane rows in fixed point), so a sum updated move by move
//! is exactly the sum made afresh: the evaluation of a position does not depend on the line that
//! reached it, and the search is the same with or without the accumulator, only faster.

use super::network::{MAX_HIDDEN1, Network};
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
            self.change(network, set, cells, 1);
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
        let h = network.hidden1();
        for (view, source) in self.views.iter_mut().zip(&from.views) {
            view[..h].copy_from_slice(&source[..h]);
        }
        self.skips = from.skips;
        let (before, after) = (sets(parent), sets(child));
        for set in 0..SETS {
            self.change(network, set, after[set] - before[set], 1);
            self.change(network, set, before[set] - after[set], -1);
        }
        self.valid = true;
    }

    /// Adds (`sign` 1) or removes (-1) the rows of `cells` of set `set` in both views.
    fn change(&mut self, network: &Network, set: usize, cells: Bitboard, sign: i32) {
        for cell in cells.cells() {
            for (view, planes) in PLANE_OF.iter().enumerate() {
                let input = 100 * planes[set] + cell.index();
                network.add_plane_row(input, sign, &mut self.views[view], &mut self.skips[view]);
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
