//! Whole-game analysis (`cathedral analyse`): every position of a game judged (exactly when the
//! solver proves it, by the engine's estimate otherwise), what each move gave up, marks,
//! turning points, missed captures and claims in words, and a per-player summary.
//!
//! A review runs in two stages. First every position is judged once at the budget,
//! independently of the others (so the work runs in parallel and, with a node budget, gives the
//! same answer on every machine). A move's loss is the value of the position before it minus the
//! value the move leaves, both from the mover's view and from the same search. Then the moves
//! that first look leaves in doubt ([`in_doubt`]: a loss near or above a mark, or a next position
//! whose own value disagrees with the one the move got) are judged again with a deeper budget
//! ([`Recheck`]). The board's analysis, which reports move by move, runs the same two stages in
//! the game's order ([`Review`]) and reaches the same marks.

use crate::analysis::{Budget, Judge, Recheck};
use crate::boardgame::Judgement;
use crate::frontend::record_positions;
use rayon::prelude::*;
use serde::Serialize;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A move losing at least this many squares is an inaccuracy (`?!`).
pub const INACCURACY: f64 = 2.0;
/// A move losing at least this many squares is a mistake (`?`).
pub const MISTAKE: f64 = 4.0;
/// A move losing at least this many squares is a blunder (`??`).
pub const BLUNDER: f64 = 8.0;
/// An exact value is a draw when it is 0 (values are whole numbers); an estimate within this
/// many squares of 0 is read as a draw, as estimates are not that precise.
pub const DRAW_BAND: f64 = 1.5;

/// How bad a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mark {
    /// `?!`: lost [`INACCURACY`] squares or more.
    Inaccuracy,
    /// `?`: lost [`MISTAKE`] squares or more, or turned the result one step down (a win into a
    /// draw, a draw into a loss).
    Mistake,
    /// `??`: lost [`BLUNDER`] squares or more, or turned a win into a loss.
    Blunder,
}

impl Mark {
    /// `?!`, `?` or `??`.
    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }

    /// "inaccuracy", "mistake", "blunder".
    pub fn word(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }
}

/// Win, draw or loss for a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// Losing.
    Loss,
    /// Level.
    Draw,
    /// Winning.
    Win,
}

impl Outcome {
    /// The outcome a value (squares, from the player's view) stands for, read with Cathedral's
    /// draw band ([`DRAW_BAND`]).
    pub fn of(value: f64, judgement: Judgement) -> Outcome {
        Outcome::within(value, judgement, DRAW_BAND)
    }

    /// The outcome a value stands for: an exact value within 0.5 of 0 is a draw, an estimate
    /// within `band`.
    pub fn within(value: f64, judgement: Judgement, band: f64) -> Outcome {
        let band = match judgement {
            Judgement::Exact => 0.5,
            Judgement::Estimate => band,
        };
        if value > band {
            Outcome::Win
        } else if value < -band {
            Outcome::Loss
        } else {
            Outcome::Draw
        }
    }

    /// "a win", "a draw", "a loss".
    pub fn phrase(self) -> &'static str {
        match self {
            Outcome::Win => "a win",
            Outcome::Draw => "a draw",
            Outcome::Loss => "a loss",
        }
    }
}

/// The judgement of one position (`M`: the game's move).
#[derive(Clone, Debug, Serialize)]
pub struct Judged<M> {
    /// The value from the side to move's view, in the game's units.
    pub value: f64,
    /// Exact (proven) or an estimate.
    pub judgement: Judgement,
    /// The best move, in the notation; `None` when the game is over.
    pub best: Option<String>,
    /// The expected line from the best move.
    pub line: Vec<String>,
    /// The value of the move played here, from the same search as `value` (so the two compare
    /// like for like); `None` at the end of the game or when no search iteration finished.
    pub played_value: Option<f64>,
    /// The best move itself.
    #[serde(skip)]
    pub best_move: Option<M>,
    /// The nodes the judgement searched, where the game counts them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// Whether this is the review's second, deeper judgement ([`Recheck`]).
    pub deeper: bool,
}

/// One move of the game, judged.
#[derive(Clone, Debug, Serialize)]
#[serde(bound = "")]
pub struct PlyAnalysis<G: Judge> {
    /// The move's number, from 1.
    pub ply: usize,
    /// Who played it.
    pub mover: G::Seat,
    /// The move played, in the notation.
    pub played: String,
    /// The position before the move, judged from the mover's view.
    pub before: Judged<G::Move>,
    /// The value the move leaves, from the mover's view (the next position's value, negated).
    pub after_value: f64,
    /// Whether `after_value` is exact.
    pub after_judgement: Judgement,
    /// What the move gave up against the best move (never below 0): exact only when both
    /// values are.
    pub loss: f64,
    /// Whether `loss` rests on two exact values.
    pub loss_is_exact: bool,
    /// The mark, if the move lost enough.
    pub mark: Option<Mark>,
    /// The result the mover could reach before the move, and the one it can reach after.
    pub outcome_before: Outcome,
    /// See `outcome_before`.
    pub outcome_after: Outcome,
    /// Whether the move changed the result for the mover.
    pub turning_point: bool,
    /// Notes in words: what the move missed, what it allowed.
    pub notes: Vec<String>,
}

/// One player's summary.
#[derive(Clone, Debug, Default, Serialize)]
pub struct PlayerSummary {
    /// Moves the player made (passes included).
    pub moves: usize,
    /// The mean loss per move, in the game's units.
    pub average_loss: f64,
    /// Counts of marks.
    pub inaccuracies: usize,
    /// See `inaccuracies`.
    pub mistakes: usize,
    /// See `inaccuracies`.
    pub blunders: usize,
    /// Moves judged on two exact values.
    pub exact_moves: usize,
}

/// Every seat's summary, in seat order; as JSON, one key per seat (`light`, `dark`;
/// `player_1`...).
#[derive(Clone, Debug)]
pub struct Summaries<G: Judge>(pub Vec<(G::Seat, PlayerSummary)>);

impl<G: Judge> Serialize for Summaries<G> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (seat, summary) in &self.0 {
            map.serialize_entry(&G::seat_key(*seat), summary)?;
        }
        map.end()
    }
}

/// The analysis of a whole game.
#[derive(Clone, Debug, Serialize)]
#[serde(bound = "")]
pub struct GameAnalysis<G: Judge> {
    /// Every move (of an analysis stopped early, see [`assemble`]: every move whose two positions
    /// were judged).
    pub plies: Vec<PlyAnalysis<G>>,
    /// The final position's value from the side to move's view (exact: the game is over, or
    /// the solver proved it); of an analysis stopped early, the last position judged.
    pub end: Judged<G::Move>,
    /// Each seat's summary (Cathedral: `light` then `dark`).
    #[serde(flatten)]
    pub summaries: Summaries<G>,
    /// The moves (numbers) where the result changed.
    pub turning_points: Vec<usize>,
    /// The marks' thresholds in the game's units: inaccuracy, mistake, blunder.
    pub thresholds: [f64; 3],
    /// The game in two sentences, as every front end prints them: the biggest losses (exact or
    /// estimate beside each) and where the result changed hands ([`GameAnalysis::headlines`]).
    pub headlines: Vec<String>,
}

/// How many of the biggest losses the headlines name.
pub const BIGGEST_LOSSES: usize = 3;

impl<G: Judge> GameAnalysis<G> {
    /// The `n` marked moves that gave up most, the biggest first (the earlier of two equal).
    pub fn biggest_losses(&self, n: usize) -> Vec<&PlyAnalysis<G>> {
        biggest_losses(&self.plies, n)
    }

    /// The summary of `seat` (an empty one for a seat that did not play).
    pub fn summary(&self, seat: G::Seat) -> PlayerSummary {
        self.summaries
            .0
            .iter()
            .find(|(s, _)| *s == seat)
            .map(|(_, summary)| summary.clone())
            .unwrap_or_default()
    }
}

/// Whether a move turned the result for the mover: a change of outcome counts when both values
/// are exact, or when the move also lost at least [`INACCURACY`] squares (so that the noise of
/// estimates near a boundary does not make turning points).
pub fn turns_result(loss: f64, before: Outcome, after: Outcome, exact: bool) -> bool {
    turns_result_at(INACCURACY, loss, before, after, exact)
}

/// [`turns_result`] with the inaccuracy threshold `inaccuracy`.
pub fn turns_result_at(
    inaccuracy: f64,
    loss: f64,
    before: Outcome,
    after: Outcome,
    exact: bool,
) -> bool {
    after < before && (exact || loss >= inaccuracy)
}

/// The mark of a move that lost `loss` squares and took the mover from `before` to `after`
/// (`exact`: both values proven).
pub fn mark_of(loss: f64, before: Outcome, after: Outcome, exact: bool) -> Option<Mark> {
    mark_at([INACCURACY, MISTAKE, BLUNDER], loss, before, after, exact)
}

/// [`mark_of`] with the thresholds `[inaccuracy, mistake, blunder]`.
pub fn mark_at(
    thresholds: [f64; 3],
    loss: f64,
    before: Outcome,
    after: Outcome,
    exact: bool,
) -> Option<Mark> {
    let [inaccuracy, mistake, blunder] = thresholds;
    let steps_down = if turns_result_at(inaccuracy, loss, before, after, exact) {
        (before as i32) - (after as i32)
    } else {
        0
    };
    if loss >= blunder || steps_down >= 2 {
        Some(Mark::Blunder)
    } else if loss >= mistake || steps_down == 1 {
        Some(Mark::Mistake)
    } else if loss >= inaccuracy {
        Some(Mark::Inaccuracy)
    } else {
        None
    }
}

/// Notes on a move: the game's own (missed captures, what it allows), else which move was
/// better and by how much.
fn notes<G: Judge>(
    position: &G,
    played: G::Move,
    before: &Judged<G::Move>,
    after: &Judged<G::Move>,
    loss: f64,
) -> Vec<String> {
    if loss < G::THRESHOLDS[0] {
        return Vec::new();
    }
    let best = before.best_move.filter(|&b| b != played);
    let mut notes = position.move_notes(played, best, after.best_move);
    if notes.is_empty()
        && let Some(best) = &before.best
    {
        notes.push(format!(
            "{} could have played {best} (value {:+.2} instead of {:+.2})",
            G::seat_title(position.seat_to_move()),
            before.value,
            before.value - loss
        ));
    }
    notes
}

/// Analyses `record` with `budget` per position, in the review's two stages (its
/// [`Budget::recheck`]), calling `progress` with the number of judgements made so far and their
/// total (which grows by the moves the second stage judges again).
pub fn analyse_game<G: Judge>(
    record: &G::Record,
    budget: &Budget,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> GameAnalysis<G>
where
    G::Record: Sync,
{
    let positions = record_positions::<G>(record);
    let moves = G::record_moves(record);
    let done = AtomicUsize::new(0);
    let total = AtomicUsize::new(positions.len());
    let mut judged: Vec<Judged<G::Move>> = (0..positions.len())
        .into_par_iter()
        .map(|i| {
            let judged = positions[i].judge(moves.get(i).copied(), budget);
            progress(
                done.fetch_add(1, Ordering::Relaxed) + 1,
                total.load(Ordering::Relaxed),
            );
            judged
        })
        .collect();
    if let Some(recheck) = &budget.recheck
        && !budget.stop.load(Ordering::Relaxed)
    {
        let doubted: Vec<usize> = (0..judged.len().saturating_sub(1))
            .filter(|&i| in_doubt(&positions, i, &judged[i], &judged[i + 1], recheck))
            .collect();
        total.fetch_add(doubted.len(), Ordering::Relaxed);
        let deep = budget.deeper(recheck.factor);
        let again: Vec<(usize, Judged<G::Move>)> = doubted
            .into_par_iter()
            .map(|i| {
                let judgement = rejudge(&positions[i], moves[i], &deep);
                progress(
                    done.fetch_add(1, Ordering::Relaxed) + 1,
                    total.load(Ordering::Relaxed),
                );
                (i, judgement)
            })
            .collect();
        for (i, judgement) in again {
            judged[i] = judgement;
        }
    }
    assemble(record, &judged)
}

/// Position `position` judged again with `deep`, the move `played` there valued in the same
/// search; marked as the second stage's.
fn rejudge<G: Judge>(position: &G, played: G::Move, deep: &Budget) -> Judged<G::Move> {
    Judged {
        deeper: true,
        ..position.judge(Some(played), deep)
    }
}

/// Whether the first judgements of the positions before and after move `i` (`before`, `next`)
/// leave its loss in doubt, so that [`Recheck`] judges position `i` again: not when the loss is
/// exact or the position before it is proven (a deeper search cannot change it); otherwise when
/// the loss reaches `from_loss`, or `turns_from` where the move turns the mover's result down,
/// or the value the move got in the search before it and the next position's own value differ
/// by `unstable` or more.
pub fn in_doubt<G: Judge>(
    positions: &[G],
    i: usize,
    before: &Judged<G::Move>,
    next: &Judged<G::Move>,
    recheck: &Recheck,
) -> bool {
    if before.judgement == Judgement::Exact {
        return false;
    }
    let keeps_turn = positions
        .get(i + 1)
        .is_some_and(|after| after.seat_to_move() == positions[i].seat_to_move());
    let next_view = if keeps_turn { next.value } else { -next.value };
    let Some(played) = before.played_value else {
        return true;
    };
    let loss = (before.value - played).max(0.0);
    let turns = Outcome::within(played, before.judgement, G::DRAW_BAND)
        < Outcome::within(before.value, before.judgement, G::DRAW_BAND);
    loss >= recheck.from_loss
        || (turns && loss >= recheck.turns_from)
        || (played - next_view).abs() >= recheck.unstable
}

/// A review made in the game's order, one position after another, for a front end that shows
/// each move as soon as its marks are final: the same two stages and the same marks as
/// [`analyse_game`] (a move is settled once the position after it is too, so each move is
/// reported one position after it is first judged).
pub struct Review<'a, G: Judge> {
    record: &'a G::Record,
    positions: &'a [G],
    budget: &'a Budget,
    judged: Vec<Judged<G::Move>>,
}

impl<'a, G: Judge> Review<'a, G> {
    /// A review of `record` (its `positions` are [`record_positions`]) within `budget` per
    /// position.
    pub fn new(record: &'a G::Record, positions: &'a [G], budget: &'a Budget) -> Self {
        Review {
            record,
            positions,
            budget,
            judged: Vec::with_capacity(positions.len()),
        }
    }

    /// Positions judged so far.
    pub fn judged(&self) -> &[Judged<G::Move>] {
        &self.judged
    }

    /// Judges the next position (and the one before it again where its move is in doubt).
    /// Returns the moves this settles: none, one, or at the last position the last two. `None`
    /// when every position is judged or the budget's `stop` was set meanwhile (what was judged
    /// before stays).
    pub fn step(&mut self) -> Option<Vec<PlyAnalysis<G>>> {
        let i = self.judged.len();
        if i >= self.positions.len() || self.budget.stop.load(Ordering::Relaxed) {
            return None;
        }
        let moves = G::record_moves(self.record);
        let judgement = self.positions[i].judge(moves.get(i).copied(), self.budget);
        if self.budget.stop.load(Ordering::Relaxed) {
            return None;
        }
        if let Some(recheck) = &self.budget.recheck
            && i > 0
            && in_doubt(
                self.positions,
                i - 1,
                &self.judged[i - 1],
                &judgement,
                recheck,
            )
        {
            let again = rejudge(
                &self.positions[i - 1],
                moves[i - 1],
                &self.budget.deeper(recheck.factor),
            );
            if self.budget.stop.load(Ordering::Relaxed) {
                return None;
            }
            self.judged[i - 1] = again;
        }
        self.judged.push(judgement);
        let settled = |ply: usize, judged: &[Judged<G::Move>]| {
            ply_analysis(
                self.record,
                self.positions,
                ply,
                &judged[ply],
                &judged[ply + 1],
            )
        };
        let mut plies = Vec::new();
        if i >= 2 {
            plies.push(settled(i - 2, &self.judged));
        }
        if i + 1 == self.positions.len() && i >= 1 {
            plies.push(settled(i - 1, &self.judged));
        }
        Some(plies)
    }
}

/// Move `i` of `record` (from 0) judged, from the judgements of the position before it
/// (`before`) and after it (`next`); `positions` are [`record_positions`].
pub fn ply_analysis<G: Judge>(
    record: &G::Record,
    positions: &[G],
    i: usize,
    before: &Judged<G::Move>,
    next: &Judged<G::Move>,
) -> PlyAnalysis<G> {
    let position = &positions[i];
    let played = G::record_moves(record)[i];
    // Two proven values compare exactly; otherwise the played move is measured in the same
    // search as the best one (two separate searches may stop at depths of different parity
    // and disagree by squares in the opening).
    let loss_is_exact = before.judgement == Judgement::Exact && next.judgement == Judgement::Exact;
    // The mover may move again (Light's Cathedral and first building under Lehmann-Woods).
    let keeps_turn = positions
        .get(i + 1)
        .is_some_and(|after| after.seat_to_move() == position.seat_to_move());
    let (after_value, after_judgement) = match before.played_value {
        Some(value) if !loss_is_exact => (value, before.judgement),
        _ if keeps_turn => (next.value, next.judgement),
        _ => (-next.value, next.judgement),
    };
    let loss = (before.value - after_value).max(0.0);
    let outcome_before = Outcome::within(before.value, before.judgement, G::DRAW_BAND);
    let outcome_after = Outcome::within(after_value, after_judgement, G::DRAW_BAND);
    PlyAnalysis {
        ply: i + 1,
        mover: position.seat_to_move(),
        played: position.move_text_with_player(played),
        before: before.clone(),
        after_value,
        after_judgement,
        loss,
        loss_is_exact,
        mark: mark_at(
            G::THRESHOLDS,
            loss,
            outcome_before,
            outcome_after,
            loss_is_exact,
        ),
        outcome_before,
        outcome_after,
        turning_point: turns_result_at(
            G::THRESHOLDS[0],
            loss,
            outcome_before,
            outcome_after,
            loss_is_exact,
        ),
        notes: notes(position, played, before, next, loss),
    }
}

/// The `n` marked moves of `plies` that gave up most, the biggest first.
fn biggest_losses<G: Judge>(plies: &[PlyAnalysis<G>], n: usize) -> Vec<&PlyAnalysis<G>> {
    let mut marked: Vec<&PlyAnalysis<G>> = plies.iter().filter(|p| p.mark.is_some()).collect();
    marked.sort_by(|a, b| b.loss.total_cmp(&a.loss).then(a.ply.cmp(&b.ply)));
    marked.truncate(n);
    marked
}

/// The game in two sentences: "Biggest losses: 23. Dark (9.2 squares, estimate); ..." and
/// "The result changed hands at 14. Dark (a win into a draw)." (or that no move changed it).
fn headlines<G: Judge>(plies: &[PlyAnalysis<G>]) -> Vec<String> {
    let mut out = Vec::new();
    let biggest: Vec<String> = biggest_losses(plies, BIGGEST_LOSSES)
        .iter()
        .map(|p| {
            format!(
                "{}. {} ({:.1} {}, {})",
                p.ply,
                G::seat_title(p.mover),
                p.loss,
                G::UNITS,
                if p.loss_is_exact { "exact" } else { "estimate" }
            )
        })
        .collect();
    if biggest.is_empty() {
        out.push("No move was marked: nobody gave up as much as an inaccuracy.".to_string());
    } else {
        out.push(format!("Biggest losses: {}.", biggest.join("; ")));
    }
    let turns: Vec<String> = plies
        .iter()
        .filter(|p| p.turning_point)
        .map(|p| {
            format!(
                "{}. {} ({} into {}{})",
                p.ply,
                G::seat_title(p.mover),
                p.outcome_before.phrase(),
                p.outcome_after.phrase(),
                if p.loss_is_exact {
                    ", exact"
                } else {
                    ", estimate"
                }
            )
        })
        .collect();
    if turns.is_empty() {
        out.push("No move changed the result.".to_string());
    } else {
        out.push(format!("The result changed hands at {}.", turns.join("; ")));
    }
    out
}

/// The analysis of `record` from the judgements of its first positions, in order (at least
/// one): every move whose two positions are judged, the summaries of those moves, and `end` the
/// last position judged. With every position judged, the analysis of the whole game.
///
/// # Panics
///
/// When `judged` is empty or longer than the game's positions.
pub fn assemble<G: Judge>(record: &G::Record, judged: &[Judged<G::Move>]) -> GameAnalysis<G> {
    let positions = record_positions::<G>(record);
    assert!(!judged.is_empty() && judged.len() <= positions.len());
    let plies: Vec<PlyAnalysis<G>> = judged
        .windows(2)
        .enumerate()
        .map(|(i, pair)| ply_analysis(record, &positions, i, &pair[0], &pair[1]))
        .collect();
    let summary = |seat: G::Seat| {
        let mut summary = PlayerSummary::default();
        let mut sum = 0.0;
        for ply in plies.iter().filter(|p| p.mover == seat) {
            summary.moves += 1;
            sum += ply.loss;
            summary.exact_moves += usize::from(ply.loss_is_exact);
            match ply.mark {
                Some(Mark::Inaccuracy) => summary.inaccuracies += 1,
                Some(Mark::Mistake) => summary.mistakes += 1,
                Some(Mark::Blunder) => summary.blunders += 1,
                None => {}
            }
        }
        if summary.moves > 0 {
            summary.average_loss = sum / summary.moves as f64;
        }
        summary
    };
    let seats = G::seats(&positions[0]);
    GameAnalysis {
        turning_points: plies
            .iter()
            .filter(|p| p.turning_point)
            .map(|p| p.ply)
            .collect(),
        summaries: Summaries(seats.into_iter().map(|s| (s, summary(s))).collect()),
        end: judged[judged.len() - 1].clone(),
        thresholds: G::THRESHOLDS,
        headlines: headlines(&plies),
        plies,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_follow_their_thresholds() {
        use Outcome::*;
        for exact in [true, false] {
            assert_eq!(mark_of(1.99, Win, Win, exact), None);
            assert_eq!(mark_of(2.0, Win, Win, exact), Some(Mark::Inaccuracy));
            assert_eq!(mark_of(3.99, Win, Win, exact), Some(Mark::Inaccuracy));
            assert_eq!(mark_of(4.0, Win, Win, exact), Some(Mark::Mistake));
            assert_eq!(mark_of(7.99, Loss, Loss, exact), Some(Mark::Mistake));
            assert_eq!(mark_of(8.0, Win, Win, exact), Some(Mark::Blunder));
            // Losing enough squares to change the result is a mistake (one step) or a
            // blunder (two).
            assert_eq!(mark_of(2.0, Win, Draw, exact), Some(Mark::Mistake));
            assert_eq!(mark_of(2.0, Win, Loss, exact), Some(Mark::Blunder));
        }
        // A proven result turned down counts whatever the squares; an estimated one only with
        // a real loss.
        assert_eq!(mark_of(1.0, Win, Draw, true), Some(Mark::Mistake));
        assert_eq!(mark_of(1.0, Draw, Loss, true), Some(Mark::Mistake));
        assert_eq!(mark_of(1.0, Win, Loss, true), Some(Mark::Blunder));
        assert_eq!(mark_of(1.0, Win, Draw, false), None);
        assert!(turns_result(1.0, Win, Draw, true));
        assert!(!turns_result(1.0, Win, Draw, false));
        assert!(!turns_result(9.0, Win, Win, true));
        assert_eq!(Outcome::of(0.5, Judgement::Exact), Draw);
        assert_eq!(Outcome::of(1.0, Judgement::Exact), Win);
        assert_eq!(Outcome::of(1.5, Judgement::Estimate), Draw);
        assert_eq!(Outcome::of(1.51, Judgement::Estimate), Win);
        assert_eq!(Outcome::of(-1.51, Judgement::Estimate), Loss);
    }
}
