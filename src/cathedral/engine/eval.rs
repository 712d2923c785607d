//! The evaluation: an estimate of the final score difference from features of a position that
//! Cathedral players count, combined by weights fitted to exact values (`docs/engine.md`).

use crate::boardgame::engine::{Evaluate, SCALE};
use crate::cathedral::placement::{ShiftedCells, table};
use crate::cathedral::player::Player;
use crate::cathedral::position::Position;

use super::accumulator::PlaneSums;
use super::inputs::{SparseInputs, summary_counting};
use super::network::Network;

/// Number of features.
pub const FEATURES: usize = 6;

/// The features of a position, each from the side to move's view (own minus opponent's), in
/// squares unless said otherwise.
///
/// 0. `material`: the opponent's unplaced squares minus one's own: the final value if no one
///    placed again.
/// 1. `fit`: squares in hand whose kind still fits somewhere one may place, one's own minus the
///    opponent's: what each can still hope to place.
/// 2. `territory`: empty cells of one's own territory minus the opponent's: room only its owner
///    can use (for waiting moves and the last pieces).
/// 3. `room`: the squares of one's fitting pieces that one's own territory could hold
///    (the smaller of the two counts), minus the opponent's: placements nobody can take away.
/// 4. `tempo`: 1: the side to move's advantage (or disadvantage) of moving first.
/// 5. `mobility`: the natural logarithm of one plus the number of placements one has, minus the
///    opponent's: freedom to choose, and fewer ways for the opponent to fill the board.
pub fn features(position: &Position) -> [f64; FEATURES] {
    if position.cathedral_to_place() {
        return [0.0, 0.0, 0.0, 0.0, 1.0, 0.0];
    }
    let me = position.to_move();
    let per_player = |player: Player| {
        let side = position.side(player);
        let reach = reach(position, player);
        let fit = f64::from(reach.fitting_squares);
        let territory = f64::from(side.territory.count());
        (
            f64::from(side.hand.squares()),
            fit,
            territory,
            fit.min(territory),
            f64::from(reach.placements).ln_1p(),
        )
    };
    let (mine, theirs) = (per_player(me), per_player(me.opponent()));
    [
        theirs.0 - mine.0,
        mine.1 - theirs.1,
        mine.2 - theirs.2,
        mine.3 - theirs.3,
        1.0,
        mine.4 - theirs.4,
    ]
}

/// What a player could still place now.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reach {
    /// Squares in hand whose kind fits somewhere on the cells free for the player.
    pub fitting_squares: u32,
    /// Placements of the kinds in hand (each kind once, whatever its count).
    pub placements: u32,
}

/// What `player` could place on the cells free for it now, whoever is to move.
pub fn reach(position: &Position, player: Player) -> Reach {
    let table = table();
    let side = position.side(player);
    let shifted = ShiftedCells::new(position.free_for(player));
    let mut reach = Reach::default();
    for piece in side.hand.kinds() {
        let placements = table.piece(Some(player), piece).count_in(&shifted);
        if placements > 0 {
            reach.fitting_squares += piece.size() * u32::from(side.hand.count(piece));
            reach.placements += placements;
        }
    }
    reach
}

/// The weights of [`features`], fitted by least squares to exact values of solved positions
/// (`cargo run --release --example fit_eval`, `docs/engine.md`).
pub const WEIGHTS: [f64; FEATURES] = [1.002, 0.323, 0.099, 0.426, 0.461, 0.037];

/// The estimate of `position` with `weights`, in squares.
pub fn estimate(position: &Position, weights: &[f64; FEATURES]) -> f64 {
    features(position)
        .iter()
        .zip(weights)
        .map(|(f, w)| f * w)
        .sum()
}

/// The evaluation's weights: [`WEIGHTS`] by default.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights(pub [f64; FEATURES]);

impl Default for Weights {
    fn default() -> Self {
        Weights(WEIGHTS)
    }
}

impl Weights {
    /// Material only: the squares left in hand, as if no one placed again (a baseline).
    pub const MATERIAL: Weights = Weights([1.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
    /// The first weights, set by hand before any fit (kept to measure what the fit gained).
    pub const GUESSED: Weights = Weights([1.0, 0.5, 0.2, 0.3, 0.0, 0.0]);
}

/// The most buildings in the larger hand of a position the network judges: those of its
/// training data (`examples/eval_data.rs`).
pub const NETWORK_BUILDINGS: u32 = 13;

/// The most buildings in the larger hand of a position whose proven bounds the search asks for
/// ([`Evaluate::bounds_worth_asking`]). Counted (`docs/engine.md`, "Proven bounds in the
/// search"): with 10 or more buildings the bounds decided under one node in a thousand, with 9
/// three in a thousand (frontier position b11-01), with 8 one in ten to fifteen, with 7 one in
/// five; asking everywhere cost a quarter more time a node at the frontier.
pub const BOUNDS_BUILDINGS: u32 = 8;

/// The most buildings in the larger hand of a principal horizon position the search tries to
/// solve exactly ([`Evaluate::horizon_solve_budget`], `docs/engine.md`, "Small solves at the
/// principal horizon"), and the solver's nodes it may take there: chosen on the accuracy suite's
/// draws (6 to 8 buildings, 200 or 1,000 nodes).
pub const SMALL_SOLVE_BUILDINGS: u32 = 7;
/// See [`SMALL_SOLVE_BUILDINGS`].
pub const SMALL_SOLVE_NODES: u64 = 1000;

/// The same for a null-window scout at the horizon (`docs/engine.md`, "Small solves in the
/// scouts"): there are many more of them, so smaller positions and a smaller budget, chosen on
/// the suite's draws (4 to 6 buildings, 50 to 1,000 nodes).
pub const SCOUT_SOLVE_BUILDINGS: u32 = 5;
/// See [`SCOUT_SOLVE_BUILDINGS`].
pub const SCOUT_SOLVE_NODES: u64 = 100;

/// Which evaluation the search uses: the network by default (it beat the linear features at 1 s
/// per move, `docs/engine.md`, "The learned evaluation").
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub enum Evaluation {
    /// The six features of [`features`] with these weights.
    Linear(Weights),
    /// The learned network ([`super::network::Network::builtin`]) for positions with at most
    /// [`NETWORK_BUILDINGS`] buildings in the larger hand, the linear features with
    /// [`WEIGHTS`] before.
    #[default]
    Network,
    /// Another network (read from a weights file, [`Network::read`]) in the same place as
    /// the committed one: to measure a newly trained network against it.
    Learned(&'static Network),
    /// A network that judges only up to `buildings` buildings in the larger hand, the linear
    /// features with [`WEIGHTS`] beyond: a network trained on exact values alone (at most 8
    /// buildings), labelling the next generation's data before it knows the earlier game
    /// (`examples/train_network.rs`).
    LearnedUpTo {
        /// The network.
        network: &'static Network,
        /// The most buildings in the larger hand it judges.
        buildings: u32,
    },
}

impl Evaluation {
    /// The network the search keeps an accumulator for, if any.
    fn network(&self) -> Option<&'static Network> {
        match self {
            Evaluation::Linear(_) => None,
            Evaluation::Learned(network) | Evaluation::LearnedUpTo { network, .. } => Some(network),
            Evaluation::Network => Some(Network::builtin()),
        }
    }

    /// The network that judges `position`, if one does. The network learned from positions with
    /// at most NETWORK_BUILDINGS buildings in the larger hand; beyond, it guesses (measured: it
    /// lost every pair at 1 s per move when it judged the opening too), so the linear features
    /// judge there.
    fn network_for(&self, position: &Position) -> Option<&'static Network> {
        let reach = match self {
            Evaluation::LearnedUpTo { buildings, .. } => (*buildings).min(NETWORK_BUILDINGS),
            _ => NETWORK_BUILDINGS,
        };
        self.network()
            .filter(|_| !position.cathedral_to_place() && position.buildings_left() <= reach)
    }

    /// The same estimate as [`Evaluation::estimate`], exactly, with the planes' sums of
    /// `position` kept by the search (`sums`, [`PlaneSums::update`]) instead of summed again.
    pub fn estimate_accumulated(&self, position: &Position, sums: &PlaneSums) -> f64 {
        match (self.network_for(position), sums.view(position.to_move())) {
            (Some(network), Some((view, skip))) => f64::from(network.estimate_summed(
                &summary_counting(position, network.counting()),
                view,
                skip,
            )),
            _ => self.estimate(position),
        }
    }

    /// The estimate of `position`, in squares for the side to move.
    pub fn estimate(&self, position: &Position) -> f64 {
        match (self.network_for(position), self) {
            (Some(network), _) => {
                f64::from(network.estimate(&SparseInputs::counting(position, network.counting())))
            }
            (None, Evaluation::Linear(weights)) => estimate(position, &weights.0),
            (None, _) => estimate(position, &WEIGHTS),
        }
    }
}

impl Evaluate for Position {
    type Params = Evaluation;

    fn evaluate(&self, evaluation: &Evaluation) -> i32 {
        (evaluation.estimate(self) * f64::from(SCALE)).round() as i32
    }

    /// The network's first layer over the board's planes (NNUE-style, `docs/engine.md`).
    type Accumulator = PlaneSums;

    fn accumulate(&self, evaluation: &Evaluation, out: &mut PlaneSums) {
        match evaluation.network() {
            Some(network) => out.refresh(network, self),
            None => out.clear(),
        }
    }

    fn accumulate_from(
        &self,
        parent: &Position,
        from: &PlaneSums,
        evaluation: &Evaluation,
        out: &mut PlaneSums,
    ) {
        match evaluation.network() {
            Some(network) => out.update(network, parent, from, self),
            None => out.clear(),
        }
    }

    fn evaluate_accumulated(&self, sums: &PlaneSums, evaluation: &Evaluation) -> i32 {
        (evaluation.estimate_accumulated(self, sums) * f64::from(SCALE)).round() as i32
    }

    /// Only with at most [`BOUNDS_BUILDINGS`] buildings in the larger hand.
    fn bounds_worth_asking(&self) -> bool {
        self.buildings_left() <= BOUNDS_BUILDINGS
    }

    /// [`SMALL_SOLVE_NODES`] on the principal line with at most [`SMALL_SOLVE_BUILDINGS`]
    /// buildings in the larger hand, [`SCOUT_SOLVE_NODES`] in a scout with at most
    /// [`SCOUT_SOLVE_BUILDINGS`].
    fn horizon_solve_budget(&self, principal: bool) -> u64 {
        let left = self.buildings_left();
        match principal {
            true if left <= SMALL_SOLVE_BUILDINGS => SMALL_SOLVE_NODES,
            false if left <= SCOUT_SOLVE_BUILDINGS => SCOUT_SOLVE_NODES,
            _ => 0,
        }
    }

    fn worth_remembering(evaluation: &Evaluation) -> bool {
        evaluation.network().is_some()
    }

    /// Every ply places a building or passes; a player passes only while the other still
    /// places (or, passing voluntarily, once before the game ends), so the plies left are at
    /// most twice the buildings in hand (the Cathedral included) and two more.
    fn max_plies_left(&self) -> u32 {
        let buildings: u32 = [Player::Light, Player::Dark]
            .iter()
            .map(|&p| self.side(p).hand.buildings())
            .sum();
        2 * (buildings + u32::from(self.cathedral_to_place())) + 2
    }
}
