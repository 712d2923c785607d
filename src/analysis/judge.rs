//! The [`Judge`] trait: what whole-game analysis (`cathedral analyse`) and standings
//! (`cathedral standings`) need of a game whose games are recorded. The analysis itself
//! ([`crate::analysis::game`], [`crate::analysis::standings`]) is written once for every game.

use crate::analysis::game::{GameAnalysis, Judged};
use crate::frontend::Recorded;
use serde::Serialize;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The table memory of each judgement, in MiB, where the caller does not choose: the board's
/// analysis and `cathedral analyse` by default, so that the two give the same marks for the same
/// game and budget.
pub const REVIEW_TT_MB: usize = 32;

/// How long one position may be judged.
#[derive(Clone, Debug)]
pub struct Budget {
    /// Nodes per position (reproducible: the same judgement on every machine).
    pub nodes: Option<u64>,
    /// Time per position, when no node budget is given.
    pub time: Option<Duration>,
    /// Table memory per position, in MiB.
    pub tt_mb: usize,
    /// Set to stop the judging under way.
    pub stop: Arc<AtomicBool>,
    /// The review's second stage: the moves the first judgements leave in doubt judged again
    /// with a deeper budget (`None`: every position judged once).
    pub recheck: Option<Recheck>,
}

impl Budget {
    /// This budget `factor` times deeper (nodes or time), without a second stage of its own.
    pub fn deeper(&self, factor: u64) -> Budget {
        Budget {
            nodes: self.nodes.map(|n| n.saturating_mul(factor)),
            time: self
                .time
                .map(|t| t.saturating_mul(u32::try_from(factor).unwrap_or(u32::MAX))),
            tt_mb: self.tt_mb,
            stop: Arc::clone(&self.stop),
            recheck: None,
        }
    }
}

/// Which moves a review judges a second time, and how much deeper: a move whose loss is the
/// difference of two quick estimates is checked again where the quick look may be wrong (near or
/// above a mark's threshold, or where the next position's own judgement disagrees with the
/// value the move got in the search before it).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Recheck {
    /// The second judgement's budget, as a multiple of the first's.
    pub factor: u64,
    /// A move whose first loss is at least this is judged again (in the game's units).
    pub from_loss: f64,
    /// A move whose value in the search before it and the value the next position's own
    /// search gives differ by at least this is judged again (in the game's units).
    pub unstable: f64,
    /// A move whose first look turns the mover's result down (a win into a draw or a loss, a
    /// draw into a loss) and loses at least this is judged again (in the game's units): where a
    /// few tenths more loss make it a mistake or a blunder (an estimated result counts as
    /// turned only from an inaccuracy's loss).
    pub turns_from: f64,
}

impl Recheck {
    /// The second stage asked for: `G`'s default ([`Judge::RECHECK`]) with the settings given
    /// over it; `None` when `single_stage`, or for a game without a default when no setting is
    /// given (a game without one gets a factor of 8, from half an inaccuracy's loss, unstable by
    /// one inaccuracy, turning the result from half an inaccuracy's loss).
    /// The command line's `--single-stage`/`--recheck-*` and Python's `analyse` read it alike.
    pub fn chosen<G: Judge>(
        single_stage: bool,
        factor: Option<u64>,
        from_loss: Option<f64>,
        unstable: Option<f64>,
        turns_from: Option<f64>,
    ) -> Option<Recheck> {
        if single_stage {
            return None;
        }
        let given =
            factor.is_some() || from_loss.is_some() || unstable.is_some() || turns_from.is_some();
        let base = match G::RECHECK {
            Some(default) => default,
            None if given => Recheck {
                factor: 8,
                from_loss: G::THRESHOLDS[0] / 2.0,
                unstable: G::THRESHOLDS[0],
                turns_from: G::THRESHOLDS[0] / 2.0,
            },
            None => return None,
        };
        Some(Recheck {
            factor: factor.unwrap_or(base.factor),
            from_loss: from_loss.unwrap_or(base.from_loss),
            unstable: unstable.unwrap_or(base.unstable),
            turns_from: turns_from.unwrap_or(base.turns_from),
        })
    }
}

/// A recorded game that the analysis can judge and the standings can score.
///
/// Values are always from the side to move's view, as `f64` in the game's units (Cathedral:
/// squares; Corintho: +1 win, 0 draw, -1 loss), and labelled exact or estimate.
pub trait Judge: Recorded {
    /// A player's seat (Cathedral's Light or Dark; Corintho's player 1 to 4); serialised as
    /// `analyse --json` writes a move's `mover`.
    type Seat: Copy + Eq + Serialize + Send + Sync + std::fmt::Debug + 'static;

    /// The marks' thresholds, in the game's units: a move giving up at least this much is an
    /// inaccuracy (`?!`), a mistake (`?`), a blunder (`??`).
    const THRESHOLDS: [f64; 3];
    /// An estimate within this much of 0 is read as a draw (an exact value within 0.5).
    const DRAW_BAND: f64;
    /// The review's second stage by default ([`Recheck`]): which moves are judged again, and
    /// how much deeper. `None`: each position is judged once.
    const RECHECK: Option<Recheck> = None;
    /// The units, in words (`squares`, `points`).
    const UNITS: &'static str;
    /// The sentence under the analysis table that says what the values are.
    const VALUE_LEGEND: &'static str;
    /// What `analyse --all`'s result column holds.
    const RESULT_LEGEND: &'static str;
    /// Whether `analyse --html` can write a report of this game.
    const HTML_REPORT: bool = false;
    /// Whether `analyse --annotate` can write this game's records with the analysis's marks.
    const ANNOTATE: bool = false;
    /// The per-player score's column in the standings (`unplaced`).
    const SCORE_COLUMN: &'static str;
    /// The score in words after "Tied on" (`squares`).
    const SCORE_WORDS: &'static str;
    /// The sentence under the standings table that says how players are ranked.
    const STANDINGS_LEGEND: &'static str;

    /// Judges `position`, and the move `played` there (if any), within `budget`. The judgement
    /// is exact when the game is over.
    fn judge(&self, played: Option<Self::Move>, budget: &Budget) -> Judged<Self::Move>;

    /// Notes in words on `played`, a move that gave up at least an inaccuracy: what `best` (the
    /// best move here) had and `played` lacks, what `reply` (the opponent's best answer to
    /// `played`) gains. Empty: the analysis says which move was better and by how much.
    fn move_notes(
        &self,
        _played: Self::Move,
        _best: Option<Self::Move>,
        _reply: Option<Self::Move>,
    ) -> Vec<String> {
        Vec::new()
    }

    /// The seats of a game from `start`, in their order of play.
    fn seats(start: &Self) -> Vec<Self::Seat>;
    /// The seat to move here.
    fn seat_to_move(&self) -> Self::Seat;
    /// A seat's title (`Light`, `Player 1`).
    fn seat_title(seat: Self::Seat) -> String;
    /// A seat's key in `analyse --json`'s per-player summaries (`light`, `player_1`).
    fn seat_key(seat: Self::Seat) -> String;

    /// The result line of a finished game (`Result: Light 3, Dark 0 unplaced squares.`).
    fn result_line(record: &Self::Record) -> Option<String>;
    /// The result in a few characters (`3-0`, `unfinished`).
    fn result_short(record: &Self::Record) -> String;

    /// The players' names in seat order, `None` when one is missing.
    fn player_names(record: &Self::Record) -> Option<Vec<String>>;
    /// Each seat's score of a finished game (lower is better), `None` while it is unfinished.
    fn scores(record: &Self::Record) -> Option<Vec<u32>>;

    /// `record` with the analysis's marks on its moves as the record's annotation marks, and
    /// a comment in words on each marked move (when [`Judge::ANNOTATE`]).
    fn annotated(_record: &Self::Record, _analysis: &GameAnalysis<Self>) -> Option<Self::Record> {
        None
    }

    /// The HTML report of game `number` (when [`Judge::HTML_REPORT`]).
    fn report_html(
        _record: &Self::Record,
        _number: usize,
        _analysis: &GameAnalysis<Self>,
    ) -> Option<String> {
        None
    }
}
