//! Corintho for the front ends: [`Playable`] on [`CorinthoPosition`], so that every command
//! written once in [`crate::frontend`] works on Corintho positions.

use super::explain::{explain, player_name};
use super::file::{parse, to_yaml};
use super::{CorinthoMove, CorinthoPosition, CorinthoRules, Outcome, draw};
use crate::boardgame::{Method, Solution, SolveOptions, Stats};
use crate::files::FileError;
use crate::frontend::{
    Bundled, EngineChoice, EngineInfo, EngineRequest, Loaded, Playable, SvgRequest, TextStyle,
};
use crate::present::words::stats_text;
use serde::Serialize;

/// What a Corintho move did, in sentences.
#[derive(Clone, Debug)]
pub struct CorinthoExplanation {
    /// The move.
    pub mv: CorinthoMove,
    /// One sentence per fact.
    pub words: Vec<String>,
    /// The position after it.
    pub after: CorinthoPosition,
}

/// One explained move as data (`play --json`).
#[derive(Serialize)]
pub struct ExplanationView<'a> {
    /// The move in notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// One sentence per fact.
    pub explanation: &'a [String],
}

/// A Corintho position as data (`show --json`).
#[derive(Clone, Debug, Serialize)]
pub struct CorinthoView {
    /// Always `corintho`.
    pub game: &'static str,
    /// The file's title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The number of players.
    pub players: u8,
    /// The player to move, from 1.
    pub to_move: u8,
    /// `ongoing`, `won by player N` or `drawn`.
    pub outcome: String,
    /// The position file's text.
    pub yaml: String,
    /// Every legal move in notation.
    pub moves: Vec<String>,
}

/// A Corintho solve as data (`solve --json`): win/draw/loss for the side to move.
#[derive(Clone, Debug, Serialize)]
pub struct CorinthoSolveReport {
    /// Always `corintho`.
    pub game: &'static str,
    /// The player to move, from 1.
    pub to_move: u8,
    /// Proven lower bound (-1 loss, 0 draw, +1 win).
    pub lower: i32,
    /// Proven upper bound.
    pub upper: i32,
    /// The value when proven.
    pub value: Option<i32>,
    /// False when the search was stopped.
    pub complete: bool,
    /// A line that reaches the value.
    pub best_line: Vec<String>,
    /// Every root move's bounds (none with `--value-only`).
    pub root_moves: Vec<RootMoveBounds>,
    /// Positions searched.
    pub nodes: u64,
    /// Time taken.
    pub seconds: f64,
    /// Threads used.
    pub threads: usize,
    /// Who wins at the end of the best line, in words.
    #[serde(skip)]
    pub line_ends: Option<String>,
}

/// A root move's proven bounds.
#[derive(Clone, Debug, Serialize)]
pub struct RootMoveBounds {
    /// The move.
    #[serde(rename = "move")]
    pub mv: String,
    /// Proven lower bound.
    pub lower: i32,
    /// Proven upper bound.
    pub upper: i32,
}

fn value_word(value: i32) -> &'static str {
    match value {
        1 => "win",
        0 => "draw",
        _ => "loss",
    }
}

fn outcome_words(position: &CorinthoPosition) -> String {
    match position.outcome() {
        Outcome::Ongoing => "ongoing".to_string(),
        Outcome::Won(p) => format!("won by player {}", p + 1),
        Outcome::Drawn => "drawn".to_string(),
    }
}

impl Playable for CorinthoPosition {
    const NAME: &'static str = "corintho";
    const EXAMPLE_MOVES: &'static str = "`C@b1 a2-a1`";
    const MOVE_GROUP: &'static str = "kind";

    type MoveError = crate::corintho::CorinthoMoveError;
    type Explanation = CorinthoExplanation;
    type View = CorinthoView;
    type SolveReport = CorinthoSolveReport;

    fn fresh_start(&self) -> CorinthoPosition {
        CorinthoPosition::new(self.rules())
    }

    fn bundled(_which: Bundled) -> Loaded<CorinthoPosition> {
        let rules = CorinthoRules::default();
        Loaded {
            title: Some("Corintho, two players: the start".to_string()),
            ..Loaded::of(CorinthoPosition::new(rules))
        }
    }

    fn bundled_name(_which: Bundled) -> &'static str {
        "<the two-player start>"
    }

    fn parse_file(name: &str, text: &str) -> Result<Loaded<CorinthoPosition>, FileError> {
        let file = parse(name, text)?;
        Ok(Loaded {
            position: file.position,
            title: file.title,
            stored_best_move: None,
        })
    }

    fn file_text(&self, title: Option<&str>, _source: Option<&str>) -> String {
        to_yaml(self, title)
    }

    fn parse_move(&self, text: &str) -> Result<CorinthoMove, crate::corintho::CorinthoMoveError> {
        self.read_move(text)
    }

    fn move_text(&self, mv: CorinthoMove) -> String {
        mv.to_string()
    }

    fn legal_moves(&self) -> Vec<CorinthoMove> {
        CorinthoPosition::legal_moves(self)
    }

    fn move_group(&self, mv: CorinthoMove) -> (usize, String) {
        match mv {
            CorinthoMove::Place { level, .. } => (level as usize, level.name().to_string()),
            CorinthoMove::Stack { .. } => (3, "stack".to_string()),
            CorinthoMove::Pass => (4, "pass".to_string()),
        }
    }

    fn side_to_move(&self) -> (serde_json::Value, String) {
        let player = self.to_move();
        (
            serde_json::Value::from(player + 1),
            format!("Player {}", player + 1),
        )
    }

    fn moves_notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        match self.outcome() {
            Outcome::Won(p) => notes.push(format!("The game is over: {} wins.", player_name(p))),
            Outcome::Drawn => notes.push("The game is over: drawn.".to_string()),
            Outcome::Ongoing => {}
        }
        if let Some(c) = self.claimant() {
            notes.push(format!(
                "Only the moves that modify the row of {} (a move that leaves it standing loses at once):",
                player_name(c)
            ));
        }
        notes
    }

    fn explain(&self, mv: CorinthoMove) -> CorinthoExplanation {
        let mut after = *self;
        after.play(mv);
        CorinthoExplanation {
            mv,
            words: explain(self, mv),
            after,
        }
    }

    fn after(explanation: &CorinthoExplanation) -> CorinthoPosition {
        explanation.after
    }

    fn explanation_text(explanation: &CorinthoExplanation, _style: TextStyle) -> String {
        let first = format!("{}: ", explanation.mv);
        textwrap::fill(
            &format!("{first}{}", explanation.words.join(" ")),
            textwrap::Options::new(75).subsequent_indent("   "),
        )
    }

    fn explanation_view(explanation: &CorinthoExplanation) -> impl Serialize + '_ {
        ExplanationView {
            mv: explanation.mv.to_string(),
            explanation: &explanation.words,
        }
    }

    fn view(&self, title: Option<String>) -> CorinthoView {
        CorinthoView {
            game: "corintho",
            title,
            players: self.rules().players,
            to_move: self.to_move() + 1,
            outcome: outcome_words(self),
            yaml: to_yaml(self, None),
            moves: self.legal_moves().iter().map(ToString::to_string).collect(),
        }
    }

    fn draw_text(&self, _style: TextStyle) -> String {
        draw::text(self)
    }

    fn draw_svg(&self, request: &SvgRequest<CorinthoMove>) -> String {
        draw::svg_with(
            self,
            request.caption.as_deref(),
            request.highlight,
            request.hands,
        )
    }

    fn engine_choice(
        &self,
        request: &EngineRequest,
        _info: &mut dyn FnMut(&EngineInfo<CorinthoMove>),
    ) -> EngineChoice<CorinthoMove> {
        // The paranoid search deepens up to the level's depth, within the node or time budget.
        let started = crate::boardgame::Instant::now();
        let found = super::engine::search(
            self,
            super::engine::engine_depth(request.level),
            request.nodes,
            request
                .time
                .or(request
                    .clock
                    .map(|c| c.allot(super::engine::CLOCK_MOVES).target))
                .map(|t| started + t),
            &request.stop,
        );
        let (best, depth) = (found.best, found.depth);
        let value = best.map_or(0, |(_, v)| v);
        EngineChoice {
            best: best.map(|(mv, _)| mv),
            value: format!("{value:+}"),
            exact: false,
            verdict: match value {
                v if v > 9000 => "a forced win found".to_string(),
                v if v < -9000 => "every move loses against the other players together".to_string(),
                v => format!("estimate {v:+} (threat lines), not exact"),
            },
            depth,
            nodes: Some(found.nodes),
            elapsed: started.elapsed(),
            pv: best.map(|(mv, _)| vec![mv]).unwrap_or_default(),
        }
    }

    fn unsolvable(&self) -> Option<String> {
        (self.rules().players != 2).then(|| {
            format!(
                "the exact solver plays two-player games; this position has {} players (`bestmove` has a paranoid engine for them)",
                self.rules().players
            )
        })
    }

    fn solve_options(&self, options: SolveOptions) -> SolveOptions {
        // Every value is a win, a draw or a loss, the question proof-number search answers
        // best (docs/solver.md, "Which method").
        let method = match options.method {
            Method::Auto => Method::ProofNumbers,
            chosen => chosen,
        };
        SolveOptions {
            wdl: true,
            method,
            ..options
        }
    }

    fn solve_exactly(
        &self,
        options: &SolveOptions,
        progress: &(dyn Fn(&crate::boardgame::Progress) + Sync),
    ) -> Solution<CorinthoMove> {
        super::Folded::solve(self, options, progress)
    }

    fn solve_report(&self, solution: &Solution<CorinthoMove>, _wdl: bool) -> CorinthoSolveReport {
        let mut end = *self;
        for &mv in &solution.best_line {
            end.play(mv);
        }
        CorinthoSolveReport {
            game: "corintho",
            to_move: self.to_move() + 1,
            lower: solution.lower,
            upper: solution.upper,
            value: solution.value(),
            complete: solution.complete,
            best_line: solution.best_line.iter().map(ToString::to_string).collect(),
            root_moves: solution
                .root_moves
                .iter()
                .map(|r| RootMoveBounds {
                    mv: r.mv.to_string(),
                    lower: r.lower,
                    upper: r.upper,
                })
                .collect(),
            nodes: solution.stats.nodes,
            seconds: solution.stats.elapsed.as_secs_f64(),
            threads: solution.stats.threads,
            line_ends: match end.outcome() {
                Outcome::Won(p) if !solution.best_line.is_empty() => {
                    Some(format!("{} winning", player_name(p)))
                }
                _ => None,
            },
        }
    }

    fn is_proven(report: &CorinthoSolveReport) -> bool {
        report.value.is_some()
    }

    fn solve_text(
        report: &CorinthoSolveReport,
        stats: &Stats,
        title: Option<&str>,
        _all: bool,
        value_only: bool,
        _style: TextStyle,
    ) -> String {
        let mover = format!("player {}", report.to_move);
        let mut out = String::new();
        if let Some(title) = title {
            out.push_str(&format!("{title}\n"));
        }
        match report.value {
            Some(v) => out.push_str(&format!(
                "Value: {} for {mover} (the side to move; {v} of -1, 0, +1), proven\n",
                value_word(v)
            )),
            None => out.push_str(&format!(
                "Not proven: the value for {mover} is between {} and {}\n",
                report.lower, report.upper
            )),
        }
        if !report.best_line.is_empty() {
            let text = format!(
                "Best line ({}): {}",
                crate::present::words::count(report.best_line.len() as i64, "ply"),
                report.best_line.join(" ")
            );
            out.push_str(&format!(
                "{}\n",
                textwrap::fill(&text, textwrap::Options::new(78).subsequent_indent("  "))
            ));
            if let Some(ends) = &report.line_ends {
                out.push_str(&format!("  ends with {ends}\n"));
            }
        }
        if value_only && !report.root_moves.is_empty() {
            out.push_str(&format!(
                "The values of the {} were not computed (--value-only).\n",
                crate::present::words::count(report.root_moves.len() as i64, "root move")
            ));
        } else {
            for v in [1, 0, -1] {
                let moves: Vec<&str> = report
                    .root_moves
                    .iter()
                    .filter(|r| r.lower == r.upper && r.lower == v)
                    .map(|r| r.mv.as_str())
                    .collect();
                if !moves.is_empty() {
                    out.push_str(&format!("{:<5} ({:>2}): ", value_word(v), moves.len()));
                    out.push_str(
                        &textwrap::fill(&moves.join(" "), 64).replace('\n', "\n            "),
                    );
                    out.push('\n');
                }
            }
        }
        out.push_str(&format!("{}\n", textwrap::fill(&stats_text(stats), 78)));
        out
    }
}

impl crate::frontend::Recorded for CorinthoPosition {
    type Record = super::record::CorinthoRecord;

    fn parse_records(
        name: &str,
        text: &str,
    ) -> Result<Vec<super::record::CorinthoRecord>, FileError> {
        super::record::parse_records(name, text)
    }

    fn records_text(records: &[super::record::CorinthoRecord]) -> String {
        super::record::records_to_yaml(records)
    }

    fn new_record(
        start: CorinthoPosition,
        moves: &[CorinthoMove],
    ) -> super::record::CorinthoRecord {
        super::record::CorinthoRecord {
            start: (start != CorinthoPosition::new(CorinthoRules::default())).then_some(start),
            moves: moves.iter().map(|&mv| (mv, None)).collect(),
            ..super::record::CorinthoRecord::default()
        }
    }

    fn record_start(record: &super::record::CorinthoRecord) -> CorinthoPosition {
        record.start_position()
    }

    fn record_moves(record: &super::record::CorinthoRecord) -> Vec<CorinthoMove> {
        record.moves.iter().map(|(mv, _)| *mv).collect()
    }

    fn extend_record(record: &mut super::record::CorinthoRecord, moves: &[CorinthoMove]) {
        record.moves.extend(moves.iter().map(|&mv| (mv, None)));
    }

    fn move_comments(record: &super::record::CorinthoRecord) -> Vec<Option<String>> {
        record.moves.iter().map(|(_, c)| c.clone()).collect()
    }

    fn record_comment(record: &super::record::CorinthoRecord) -> Option<&str> {
        record.comment.as_deref()
    }

    fn record_heading(record: &super::record::CorinthoRecord, number: usize) -> String {
        let players = record.start_position().rules().players;
        let sides: Vec<String> = (0..players as usize)
            .map(|p| match record.names.get(p) {
                Some(name) => format!("{name} (player {})", p + 1),
                None => format!("player {}", p + 1),
            })
            .collect();
        let mut parts = vec![sides.join(" v ")];
        parts.extend(
            [&record.event, &record.site, &record.date]
                .into_iter()
                .flatten()
                .cloned(),
        );
        if let Some(round) = &record.round {
            parts.push(format!("round {round}"));
        }
        format!("Game {number}: {}", parts.join(", "))
    }

    fn record_meta(record: &super::record::CorinthoRecord) -> impl Serialize + '_ {
        RecordMeta {
            names: &record.names,
            event: record.event.as_deref(),
        }
    }
}

/// Who played a Corintho game, and where (`replay --json`).
#[derive(Serialize)]
struct RecordMeta<'a> {
    names: &'a [String],
    event: Option<&'a str>,
}
