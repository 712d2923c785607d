//! The [`Playable`] trait: what the front ends need of a game beyond what the solver needs.

use crate::boardgame::{Game, Solution, SolveOptions, Stats};
use crate::files::FileError;
use serde::Serialize;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// How text is drawn: box drawing or ASCII, colours or none (the terminal's style).
pub use crate::present::RenderStyle as TextStyle;

/// A position read from a file (or bundled), with what the file says about it.
#[derive(Clone, Debug)]
pub struct Loaded<G> {
    /// The position.
    pub position: G,
    /// The file's title, if it has one.
    pub title: Option<String>,
    /// The best move the file stores (`solution: best_move`), in the game's notation.
    pub stored_best_move: Option<String>,
}

impl<G> Loaded<G> {
    /// A position with nothing else known about it.
    pub fn of(position: G) -> Loaded<G> {
        Loaded {
            position,
            title: None,
            stored_best_move: None,
        }
    }
}

/// Which bundled position a command uses without a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bundled {
    /// The game's start (`play` with only moves).
    Start,
    /// A position to look at (`show`, `moves`, `perft`).
    Example,
    /// A position to solve (`solve`).
    Endgame,
}

/// What an SVG diagram shows besides the position.
#[derive(Clone, Debug, Default)]
pub struct SvgRequest<M> {
    /// Outline this move.
    pub highlight: Option<M>,
    /// A line of text under the board.
    pub caption: Option<String>,
    /// Draw what each player has left beside the board.
    pub hands: bool,
}

/// What `solve --yaml` can write for a report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolutionBlock {
    /// The game's files keep no solutions.
    Unsupported,
    /// The value is not proven: nothing to write.
    Unproven {
        /// Proven lower bound.
        lower: i32,
        /// Proven upper bound.
        upper: i32,
    },
    /// The block, ready to paste into the position file.
    Block(String),
    /// The block could not be written (the reason).
    Failed(String),
}

/// What the engine is asked for a move (`go`, `bestmove`).
#[derive(Clone, Debug, Default)]
pub struct EngineRequest {
    /// Playing strength, 1 (weakest) to 10.
    pub level: u8,
    /// Search at most this many nodes (reproducible), if the engine counts them.
    pub nodes: Option<u64>,
    /// Think at most this long, if the engine watches the clock.
    pub time: Option<Duration>,
    /// The side to move's game clock, shared out by the engine, instead of `time`.
    pub clock: Option<crate::boardgame::Clock>,
    /// Search threads (0: every core).
    pub threads: usize,
    /// Transposition table memory in MiB.
    pub tt_mb: usize,
    /// Seeds the noise of the weaker levels.
    pub seed: u64,
    /// Set to stop the search; it answers with what it has.
    pub stop: Arc<AtomicBool>,
    /// The search's tunable constants, for a game whose engine has them
    /// ([`Playable::TUNABLE`]); the declared ones unless a tuner changed them.
    pub tunables: crate::boardgame::engine::Tunables,
}

/// One progress report of the engine's search.
#[derive(Clone, Debug)]
pub struct EngineInfo<M> {
    /// Depth reached.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time spent.
    pub elapsed: Duration,
    /// The estimate so far, in the game's units, from the side to move's view.
    pub estimate: f64,
    /// The line it expects.
    pub pv: Vec<M>,
}

/// The engine's decision.
#[derive(Clone, Debug)]
pub struct EngineChoice<M> {
    /// The move, or `None` when the game is over.
    pub best: Option<M>,
    /// The value in the game's words (`+3`, `+1.25`).
    pub value: String,
    /// Whether the value is proven (else an estimate).
    pub exact: bool,
    /// The value in a sentence (`estimate +1.25, not exact`, `a forced win found`).
    pub verdict: String,
    /// Depth searched.
    pub depth: u32,
    /// Nodes searched, where the engine counts them.
    pub nodes: Option<u64>,
    /// Time spent.
    pub elapsed: Duration,
    /// The line it expects, the move first.
    pub pv: Vec<M>,
}

/// A game the front ends can show, play, count, solve and draw. Every method is about one
/// position; the commands in [`crate::frontend`] put them together the same way for every game.
pub trait Playable: Game + Sized + 'static {
    /// The game's name, as `--game` and a file's `game:` key spell it.
    const NAME: &'static str;
    /// Moves to show in an error that asks for moves (`dark:castle:c3,d3,e3,c4,e4`).
    const EXAMPLE_MOVES: &'static str;
    /// What a group of `moves` is, as a column heading (`piece`).
    const MOVE_GROUP: &'static str;
    /// Whether the engine plays with the generic search and so reads
    /// [`EngineRequest::tunables`] (`docs/engine.md`, "Tunables").
    const TUNABLE: bool = false;

    /// Why a written move cannot be played here, in the game's words (not a move, or not
    /// legal): its `Display` is what a front end prints after naming the move, and the value
    /// itself says which rule refused it.
    type MoveError: std::error::Error + Send + Sync + 'static;
    /// What explaining a move gives (words for people and data for JSON).
    type Explanation;
    /// The position as data: `show --json`, `play --json`'s final position.
    type View: Serialize;
    /// A solve as data: `solve --json`.
    type SolveReport: Serialize;

    /// The start of a new game under this position's rules (the protocol's `position start`
    /// after a file).
    fn fresh_start(&self) -> Self;
    /// A bundled position: the start, an example to look at, an endgame to solve.
    fn bundled(which: Bundled) -> Loaded<Self>;
    /// The bundled position's name in messages (`<bundled showcase endgame>`).
    fn bundled_name(which: Bundled) -> &'static str;
    /// Reads a position file's text; `name` labels errors (file, line, column).
    fn parse_file(name: &str, text: &str) -> Result<Loaded<Self>, FileError>;
    /// The position file's text for this position, with its `title` and `source` (where it came
    /// from).
    fn file_text(&self, title: Option<&str>, source: Option<&str>) -> String;

    /// Reads a move in the game's notation and checks that it is legal here; the error says
    /// why not, in the game's words.
    fn parse_move(&self, text: &str) -> Result<Self::Move, Self::MoveError>;
    /// A legal move in the game's canonical notation.
    fn move_text(&self, mv: Self::Move) -> String;
    /// A legal move as the engine protocol writes it (with the player where the notation has
    /// one).
    fn move_text_with_player(&self, mv: Self::Move) -> String {
        self.move_text(mv)
    }
    /// A line of moves from this position in the protocol's notation.
    fn line_text(&self, line: &[Self::Move]) -> Vec<String> {
        let mut position = *self;
        line.iter()
            .map(|&mv| {
                let text = position.move_text_with_player(mv);
                position.play(mv);
                text
            })
            .collect()
    }
    /// Every legal move, in the order `moves` lists them.
    fn legal_moves(&self) -> Vec<Self::Move>;
    /// The group a move is listed in by `moves` (a piece's name, `pass`) and the group's rank
    /// (smaller first).
    fn move_group(&self, mv: Self::Move) -> (usize, String);
    /// The side to move as JSON data and as a title (`"light"`, `Light`).
    fn side_to_move(&self) -> (serde_json::Value, String);
    /// Sentences `moves` prints before the list (the game is over, a row must be answered).
    fn moves_notes(&self) -> Vec<String>;

    /// Plays `mv` (legal here) and says what it did.
    fn explain(&self, mv: Self::Move) -> Self::Explanation;
    /// The position after the explained move.
    fn after(explanation: &Self::Explanation) -> Self;
    /// The explanation as text (without its number), in `style`.
    fn explanation_text(explanation: &Self::Explanation, style: TextStyle) -> String;
    /// The explanation as data: one element of `play --json`'s `moves`.
    fn explanation_view(explanation: &Self::Explanation) -> impl Serialize + '_;

    /// The position as data; `title` is the file's.
    fn view(&self, title: Option<String>) -> Self::View;
    /// The position drawn as text.
    fn draw_text(&self, style: TextStyle) -> String;
    /// The position drawn as an SVG document.
    fn draw_svg(&self, request: &SvgRequest<Self::Move>) -> String;

    /// The start of a game under the rules the words name (the protocol's `rules`); the error
    /// says what was expected.
    fn start_with_rules(_words: &[&str]) -> Result<Self, String> {
        Err(format!(
            "`rules` sets Cathedral's rules; a {} game takes its rules from `position file FILE`",
            Self::NAME
        ))
    }

    /// The engine's move (`go`), reporting progress to `info`.
    fn engine_choice(
        &self,
        request: &EngineRequest,
        info: &mut dyn FnMut(&EngineInfo<Self::Move>),
    ) -> EngineChoice<Self::Move>;

    /// Why the exact solver cannot solve this position, if it cannot (three players).
    fn unsolvable(&self) -> Option<String> {
        None
    }
    /// The solver's options for this position, from the command's (an estimate to order moves
    /// by, win/draw/loss for a game whose values are only that).
    fn solve_options(&self, options: SolveOptions) -> SolveOptions {
        options
    }
    /// Solves this position with `options` (already passed through
    /// [`Playable::solve_options`]): the generic solver on the position itself, unless the game
    /// has a better form of it for the solver (Corintho folds the square's symmetries).
    fn solve_exactly(
        &self,
        options: &SolveOptions,
        progress: &(dyn Fn(&crate::boardgame::Progress) + Sync),
    ) -> Solution<Self::Move> {
        crate::boardgame::solve(self, options, progress)
    }
    /// The report of a solve of this position (`wdl`: only win/draw/loss was asked).
    fn solve_report(&self, solution: &Solution<Self::Move>, wdl: bool) -> Self::SolveReport;
    /// Whether the report's value is proven exactly.
    fn is_proven(report: &Self::SolveReport) -> bool;
    /// The report as text; `all`: every root move, `value_only`: root moves were skipped.
    fn solve_text(
        report: &Self::SolveReport,
        stats: &Stats,
        title: Option<&str>,
        all: bool,
        value_only: bool,
        style: TextStyle,
    ) -> String;
    /// The `solution:` block `solve --yaml` prints.
    fn solution_block(_report: &Self::SolveReport) -> SolutionBlock {
        SolutionBlock::Unsupported
    }
}
