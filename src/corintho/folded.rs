//! The two-player game for the exact solver with two levers of its own (docs/corintho.md, "The
//! start: what is proven"):
//!
//! - **symmetry folding**: the position is always kept as the least of its 8 images under the
//!   square's symmetries ([`CorinthoPosition::canonical`]), so that the 8 images of a position
//!   share one table entry. The table's move is then a move of that very image (the table
//!   verifies the whole key, and the image is the same whichever way the search got there), so
//!   the solver may play it as it is;
//! - **an immediate-win test**: a side to move with a move that leaves the opponent no answer
//!   to a claim is proven to win without search ([`CorinthoPosition::wins_at_once`], in
//!   [`Game::bounds`]). Such a node stores no move in the table, so the best line a solve
//!   writes out may take long to find there: the value does not.
//!
//! Moves of a solution are moves of the folded positions along it; [`Folded::unfold_line`]
//! turns a line back into moves of the position the solve started from.

use super::moves::CorinthoMove;
use super::position::CorinthoPosition;
use crate::boardgame::{Game, Progress, RootMove, Solution, SolveOptions};

/// A two-player position for the solver, kept folded (with `symmetry`) and tested for an
/// immediate win (with `knowledge`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Folded {
    position: CorinthoPosition,
    symmetry: bool,
    knowledge: bool,
}

impl Folded {
    /// Both levers.
    pub fn new(position: CorinthoPosition) -> Folded {
        Folded::with(position, true, true)
    }

    /// The levers chosen one by one (to measure them).
    pub fn with(position: CorinthoPosition, symmetry: bool, knowledge: bool) -> Folded {
        let position = if symmetry {
            position.canonical().0
        } else {
            position
        };
        Folded {
            position,
            symmetry,
            knowledge,
        }
    }

    /// The position as the solver sees it (an image of the one it was made from).
    pub fn position(&self) -> &CorinthoPosition {
        &self.position
    }

    /// The moves of `line`, a line of moves of folded positions from `Folded::new(start)` (a
    /// solution's best line), as moves of `start` and the positions it leads to.
    pub fn unfold_line(start: &CorinthoPosition, line: &[CorinthoMove]) -> Vec<CorinthoMove> {
        let mut out = Vec::new();
        let mut plain = *start;
        let mut folded = Folded::new(*start);
        for &mv in line {
            folded.play_move(mv);
            let target = folded.position;
            let Some(found) = plain.legal_moves().into_iter().find(|&m| {
                let mut child = plain;
                child.play(m);
                child.canonical().0 == target
            }) else {
                break;
            };
            plain.play(found);
            out.push(found);
        }
        out
    }

    /// Solves `start` on its folded form and returns the solution in moves of `start`: the best
    /// line unfolded, every root move of `start` with the bounds of the folded move that leads
    /// to the same position up to symmetry.
    pub fn solve(
        start: &CorinthoPosition,
        options: &SolveOptions,
        progress: &(dyn Fn(&Progress) + Sync),
    ) -> Solution<CorinthoMove> {
        let folded = Folded::new(*start);
        let solution = crate::boardgame::solve(&folded, options, progress);
        let image_after = |from: &CorinthoPosition, mv: CorinthoMove| {
            let mut child = *from;
            child.play(mv);
            child.canonical().0
        };
        let bounds_by_image: Vec<(CorinthoPosition, i32, i32)> = solution
            .root_moves
            .iter()
            .map(|r| (image_after(&folded.position, r.mv), r.lower, r.upper))
            .collect();
        let best_line = Folded::unfold_line(start, &solution.best_line);
        let first = best_line.first().copied();
        let mut root_moves: Vec<RootMove<CorinthoMove>> = start
            .legal_moves()
            .into_iter()
            .filter_map(|mv| {
                let image = image_after(start, mv);
                let &(_, lower, upper) = bounds_by_image.iter().find(|(i, _, _)| *i == image)?;
                Some(RootMove { mv, lower, upper })
            })
            .collect();
        root_moves.sort_by_key(|m| std::cmp::Reverse((m.upper, m.lower, Some(m.mv) == first)));
        let best_so_far = first.or_else(|| {
            let image = image_after(&folded.position, solution.best_so_far?);
            start
                .legal_moves()
                .into_iter()
                .find(|&mv| image_after(start, mv) == image)
        });
        Solution {
            best_line,
            best_so_far,
            root_moves,
            ..solution
        }
    }

    fn play_move(&mut self, mv: CorinthoMove) {
        self.position.play(mv);
        if self.symmetry {
            self.position = self.position.canonical().0;
        }
    }
}

impl Game for Folded {
    type Move = CorinthoMove;
    type Buffer = Vec<CorinthoMove>;

    const MIN_VALUE: i32 = -1;
    const MAX_VALUE: i32 = 1;

    fn key(&self) -> (u64, u64) {
        Game::key(&self.position)
    }

    fn generate(&self, buffer: &mut Vec<CorinthoMove>) {
        self.position.generate(buffer);
    }

    fn moves(buffer: &mut Vec<CorinthoMove>) -> &mut [CorinthoMove] {
        buffer
    }

    fn play(&mut self, mv: CorinthoMove) {
        self.play_move(mv);
    }

    fn terminal_value(&self) -> i32 {
        Game::terminal_value(&self.position)
    }

    fn bounds(&self) -> (i32, i32) {
        // Measured better than listing only the winning move in `generate` (docs/performance.md,
        // "Corintho"): the table's move is played before the moves are generated, and bounds are
        // asked before it.
        if self.knowledge && self.position.wins_at_once() {
            (1, 1)
        } else {
            (-1, 1)
        }
    }

    fn move_score(&self, mv: CorinthoMove) -> i32 {
        Game::move_score(&self.position, mv)
    }

    fn proof_numbers(&self) -> (u32, u32) {
        // A side that must answer a claim has few moves (only the answers count), so few leaves
        // disprove it: such children are tried first where the parent wants a proof. Measured
        // (docs/performance.md, "Proof-number search against alpha-beta"): 20 instead of 19 of
        // 30 fresh positions proven within 1.5 M nodes, 40 % fewer nodes on those proven
        // within 300,000.
        (
            1,
            if self.position.claimant().is_some() {
                1
            } else {
                4
            },
        )
    }

    fn encode(mv: CorinthoMove) -> u32 {
        mv.encode()
    }

    fn decode(code: u32) -> CorinthoMove {
        CorinthoMove::decode(code)
    }
}
