//! Cathedral for the front ends: [`Playable`] on [`Position`], so that every command written
//! once in [`crate::frontend`] works on Cathedral positions.

use crate::boardgame::{Solution, SolveOptions, Stats};
use crate::cathedral::analysis::report::{LineStep, RootGroup, SolveReport};
use crate::cathedral::analysis::view::{PlayedMoveView, PositionView};
use crate::cathedral::bitboard::Bitboard;
use crate::cathedral::draw::svg::{SvgOptions, render_svg};
use crate::cathedral::draw::terminal::position_text;
use crate::cathedral::engine::{Judgement, PlayOptions, choose};
use crate::cathedral::explain::{MoveReport, explain_move};
use crate::cathedral::file::{self, FileError, PositionFile};
use crate::cathedral::moves::{Move, MoveList};
use crate::cathedral::placement::table;
use crate::cathedral::position::Position;
use crate::cathedral::rules::Rules;
use crate::cathedral::rules::{Capture, CathedralTiming, Claims, FirstMove, Pass, RulesError};
use crate::frontend::{
    Bundled, EngineChoice, EngineInfo, EngineRequest, Loaded, Playable, SolutionBlock, SvgRequest,
    TextStyle,
};
use crate::present::table::{keep_whole, new_table, right_align};
use crate::present::words::{bounds_text, outcome_word, stats_text};
use comfy_table::Table;
use serde::Serialize;

const MIDGAME_NAME: &str = "<bundled midgame example>";
const MIDGAME_YAML: &str = include_str!("../../puzzles/examples/midgame.yaml");
const SHOWCASE_NAME: &str = "<bundled showcase endgame>";
const SHOWCASE_YAML: &str = include_str!("../../puzzles/showcase.yaml");

/// Root moves listed without `--all`.
const ROOT_MOVES_SHOWN: usize = 10;

impl From<PositionFile> for Loaded<Position> {
    fn from(file: PositionFile) -> Loaded<Position> {
        Loaded {
            position: file.position,
            title: file.meta.title,
            stored_best_move: file.solution.and_then(|s| s.best_move),
        }
    }
}

impl Playable for Position {
    const NAME: &'static str = "cathedral";
    const EXAMPLE_MOVES: &'static str = "`dark:castle:c3,d3,e3,c4,e4`";
    const MOVE_GROUP: &'static str = "piece";
    const TUNABLE: bool = true;

    type MoveError = crate::cathedral::legality::Unplayable;
    type Explanation = MoveReport;
    type View = PositionView;
    type SolveReport = SolveReport;

    fn fresh_start(&self) -> Position {
        Position::new(self.rules())
    }

    fn bundled(which: Bundled) -> Loaded<Position> {
        let text = match which {
            Bundled::Start => return Loaded::of(Position::new(Rules::CLASSIC)),
            Bundled::Example => MIDGAME_YAML,
            Bundled::Endgame => SHOWCASE_YAML,
        };
        // The bundled files are checked by the tests: they always load.
        file::parse_str(Self::bundled_name(which), text)
            .map_or_else(|_| Loaded::of(Position::new(Rules::CLASSIC)), Loaded::from)
    }

    fn bundled_name(which: Bundled) -> &'static str {
        match which {
            Bundled::Start => "<the empty board>",
            Bundled::Example => MIDGAME_NAME,
            Bundled::Endgame => SHOWCASE_NAME,
        }
    }

    fn parse_file(name: &str, text: &str) -> Result<Loaded<Position>, FileError> {
        file::parse_str(name, text).map(Loaded::from)
    }

    fn file_text(&self, title: Option<&str>, source: Option<&str>) -> String {
        let mut file = PositionFile::from_position(*self);
        file.meta.title = title.map(str::to_string);
        file.meta.source = source.map(str::to_string);
        file::to_yaml(&file)
    }

    fn parse_move(&self, text: &str) -> Result<Move, crate::cathedral::legality::Unplayable> {
        crate::cathedral::legality::parse_move(self, text)
            .map_err(crate::cathedral::legality::Unplayable)
    }

    fn move_text(&self, mv: Move) -> String {
        crate::cathedral::notation::format_move(self, mv)
    }

    fn move_text_with_player(&self, mv: Move) -> String {
        crate::cathedral::notation::format_move_with_player(self, mv)
    }

    fn legal_moves(&self) -> Vec<Move> {
        let mut list = MoveList::new();
        Position::legal_moves(self, &mut list);
        list.iter().copied().collect()
    }

    fn move_group(&self, mv: Move) -> (usize, String) {
        mv.placement().map_or_else(
            || (usize::MAX, "pass".to_string()),
            |id| {
                let piece = table().get(id).piece;
                (piece.index(), piece.name().to_string())
            },
        )
    }

    fn side_to_move(&self) -> (serde_json::Value, String) {
        let player = self.to_move();
        (
            serde_json::to_value(player).unwrap_or_default(),
            player.to_string(),
        )
    }

    fn moves_notes(&self) -> Vec<String> {
        if self.is_game_over() {
            vec!["The game is over: no legal moves.".to_string()]
        } else {
            Vec::new()
        }
    }

    fn explain(&self, mv: Move) -> MoveReport {
        explain_move(self, mv)
    }

    fn after(explanation: &MoveReport) -> Position {
        explanation.after
    }

    fn explanation_text(report: &MoveReport, style: TextStyle) -> String {
        let text = report.to_string();
        if !style.color {
            return text;
        }
        let bold = anstyle::Style::new().bold();
        let claim = anstyle::AnsiColor::Green.on_default();
        let miss = anstyle::AnsiColor::Yellow.on_default();
        text.lines()
            .enumerate()
            .map(|(i, line)| {
                let s = match i {
                    0 => bold,
                    _ if line.trim_start().starts_with("claims") => claim,
                    _ => miss,
                };
                format!("{}{line}{}", s.render(), s.render_reset())
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn explanation_view(report: &MoveReport) -> impl Serialize + '_ {
        PlayedMoveView::of(report)
    }

    fn view(&self, title: Option<String>) -> PositionView {
        PositionView {
            title,
            ..PositionView::of(self)
        }
    }

    fn draw_text(&self, style: TextStyle) -> String {
        position_text(self, style)
    }

    fn draw_svg(&self, request: &SvgRequest<Move>) -> String {
        let highlight = request
            .highlight
            .and_then(Move::placement)
            .map_or(Bitboard::default(), |id| table().get(id).mask);
        render_svg(
            self,
            &SvgOptions {
                highlight,
                caption: request.caption.clone(),
                hands: request.hands,
            },
        )
    }

    fn start_with_rules(words: &[&str]) -> Result<Position, String> {
        rules_from_words(words).map(Position::new)
    }

    fn engine_choice(
        &self,
        request: &EngineRequest,
        info: &mut dyn FnMut(&EngineInfo<Move>),
    ) -> EngineChoice<Move> {
        let options = PlayOptions {
            nodes: request.nodes,
            time: request.time,
            clock: request.clock,
            threads: request.threads,
            seed: request.seed,
            level: request.level,
            tt_mb: request.tt_mb,
            stop: request.stop.clone(),
            tunables: request.tunables,
            ..PlayOptions::default()
        };
        let choice = choose(self, &options, &mut |progress| {
            info(&EngineInfo {
                depth: progress.depth,
                nodes: progress.nodes,
                elapsed: progress.elapsed,
                estimate: f64::from(progress.estimate) / 100.0,
                pv: progress.pv.clone(),
            });
        });
        let exact = choice.judgement == Judgement::Exact;
        let value = if exact {
            format!("{:+}", choice.value / 100)
        } else {
            format!("{:+.2}", f64::from(choice.value) / 100.0)
        };
        EngineChoice {
            best: choice.best,
            verdict: if exact {
                let squares = if (choice.value / 100).abs() == 1 {
                    "square"
                } else {
                    "squares"
                };
                format!("exact value {value} {squares}, proven")
            } else {
                format!("estimate {value} squares, not exact")
            },
            value,
            exact,
            depth: choice.depth,
            nodes: Some(choice.nodes),
            elapsed: choice.elapsed,
            pv: choice.pv,
        }
    }

    fn solve_options(&self, options: SolveOptions) -> SolveOptions {
        SolveOptions {
            estimate: Some(crate::boardgame::engine::estimator(self)),
            ..options
        }
    }

    fn solve_report(&self, solution: &Solution<Move>, wdl: bool) -> SolveReport {
        SolveReport::new(self, solution, wdl)
    }

    fn is_proven(report: &SolveReport) -> bool {
        report.value.is_some()
    }

    fn solve_text(
        report: &SolveReport,
        stats: &Stats,
        title: Option<&str>,
        all: bool,
        value_only: bool,
        style: TextStyle,
    ) -> String {
        let mut out = String::new();
        if let Some(title) = title {
            out.push_str(&format!("{title}\n\n"));
        }
        out.push_str(&report.verdict);
        out.push('\n');
        if !report.line.is_empty() {
            out.push_str(if report.wdl {
                "\nA line that keeps the result (its squares are not the exact score):\n"
            } else {
                "\nBest line:\n"
            });
            out.push_str(&format!("{}\n", line_table(&report.line, style)));
            out.push_str("\nFinal position:\n\n");
            out.push_str(&position_text(&report.final_position, style));
        } else if report.game_over {
            out.push_str("\nThe game is over: no moves to play.\n");
        } else if report.value.is_some() {
            out.push_str(
                "\nThe value is proven, but the search stopped before it wrote out the best line.\n",
            );
        }
        if report.line.is_empty()
            && let Some(mv) = &report.best_so_far
        {
            out.push_str(&format!("Best move so far (not proven): {mv}\n"));
        }
        let moves = report.root_moves.len();
        if value_only && moves > 0 {
            out.push_str(&format!(
                "\nThe values of the {} were not computed (--value-only).\n",
                crate::present::words::count(moves as i64, "root move")
            ));
        } else if moves > 0 {
            let limit = if all { usize::MAX } else { ROOT_MOVES_SHOWN };
            out.push_str(&format!(
                "\nRoot moves ({moves}), best first:\n{}\n",
                root_table(&report.root_groups, limit, style)
            ));
            if moves > limit {
                out.push_str(&format!(
                    "{limit} of {moves} moves shown; --all lists every move\n"
                ));
            }
        }
        out.push_str(&format!("\n{}\n", stats_text(stats)));
        out
    }

    fn solution_block(report: &SolveReport) -> SolutionBlock {
        match &report.solution {
            None => SolutionBlock::Unproven {
                lower: report.lower,
                upper: report.upper,
            },
            Some(stored) => match file::solution_yaml(stored) {
                Ok(text) => SolutionBlock::Block(text),
                Err(e) => SolutionBlock::Failed(format!("cannot write YAML: {e}")),
            },
        }
    }
}

/// One row per move of the best line.
fn line_table(line: &[LineStep], style: TextStyle) -> Table {
    let mut table = new_table(style);
    table.set_header([
        "ply",
        "mover",
        "move",
        "squares",
        "what it did",
        "Light unplaced",
        "Dark unplaced",
    ]);
    for step in line {
        table.add_row(vec![
            step.ply.to_string(),
            step.mover.title().to_string(),
            step.mv.clone(),
            step.squares.to_string(),
            step.effect.clone(),
            step.unplaced.light.to_string(),
            step.unplaced.dark.to_string(),
        ]);
    }
    right_align(&mut table, &[0, 3, 5, 6]);
    keep_whole(&mut table, 2);
    table
}

/// Root moves grouped by value, best first; at most `limit` moves listed.
fn root_table(groups: &[RootGroup], limit: usize, style: TextStyle) -> Table {
    let mut table = new_table(style);
    table.set_header(["value", "result", "moves", "which"]);
    let mut shown = 0;
    for group in groups {
        if shown >= limit {
            break;
        }
        let listed = &group.moves[..group.moves.len().min(limit - shown)];
        shown += listed.len();
        let mut which = listed.join("\n");
        if listed.len() < group.moves.len() {
            which.push_str(&format!(
                "\n... and {} more",
                group.moves.len() - listed.len()
            ));
        }
        table.add_row(vec![
            bounds_text(group.lower, group.upper),
            outcome_word(group.lower, group.upper).to_string(),
            group.moves.len().to_string(),
            which,
        ]);
    }
    right_align(&mut table, &[0, 2]);
    keep_whole(&mut table, 3);
    table
}

impl crate::frontend::Recorded for Position {
    type Record = file::GameRecord;

    fn parse_records(name: &str, text: &str) -> Result<Vec<file::GameRecord>, FileError> {
        file::parse_records(name, text)
    }

    fn records_text(records: &[file::GameRecord]) -> String {
        file::records_to_yaml(records)
    }

    fn new_record(start: Position, moves: &[Move]) -> file::GameRecord {
        file::GameRecord {
            rules: start.rules(),
            start: (start != Position::new(start.rules())).then_some(start),
            moves: recorded(moves),
            ..file::GameRecord::default()
        }
    }

    fn record_start(record: &file::GameRecord) -> Position {
        record.start_position()
    }

    fn record_moves(record: &file::GameRecord) -> Vec<Move> {
        record.moves.iter().map(|m| m.mv).collect()
    }

    fn extend_record(record: &mut file::GameRecord, moves: &[Move]) {
        record.moves.extend(recorded(moves));
    }

    fn move_comments(record: &file::GameRecord) -> Vec<Option<String>> {
        record.moves.iter().map(|m| m.comment.clone()).collect()
    }

    fn record_comment(record: &file::GameRecord) -> Option<&str> {
        record.comment.as_deref()
    }

    fn record_heading(game: &file::GameRecord, number: usize) -> String {
        let side = |name: &Option<String>, colour: &str| match name {
            Some(name) => format!("{name} ({colour})"),
            None => colour.to_string(),
        };
        let mut parts = vec![format!(
            "{} v {}",
            side(&game.light, "Light"),
            side(&game.dark, "Dark")
        )];
        parts.extend(
            [&game.event, &game.site, &game.date]
                .into_iter()
                .flatten()
                .cloned(),
        );
        if let Some(round) = &game.round {
            parts.push(format!("round {round}"));
        }
        format!("Game {number}: {}", parts.join(", "))
    }

    fn record_meta(record: &file::GameRecord) -> impl Serialize + '_ {
        RecordMeta {
            light: record.light.as_deref(),
            dark: record.dark.as_deref(),
            event: record.event.as_deref(),
        }
    }
}

/// Who played a Cathedral game, and where (`replay --json`).
#[derive(Serialize)]
struct RecordMeta<'a> {
    light: Option<&'a str>,
    dark: Option<&'a str>,
    event: Option<&'a str>,
}

fn recorded(moves: &[Move]) -> Vec<file::RecordedMove> {
    moves
        .iter()
        .map(|&mv| file::RecordedMove::new(mv))
        .collect()
}

/// The rules the protocol's `rules` words name: a preset (`classic`, `moore1978`,
/// `lehmann-woods`, `sheets`) or options (`capture=optional pass=voluntary first-move=no-enclosure
/// cathedral=after-first-move claims=at-once`).
///
/// ```
/// use cathedral::{Position, Rules};
/// use cathedral::frontend::Playable;
/// assert_eq!(Position::start_with_rules(&["moore1978"]), Ok(Position::new(Rules::MOORE_1978)));
/// assert!(Position::start_with_rules(&["chess"]).unwrap_err().contains("not a rule variant"));
/// assert!(Position::start_with_rules(&["pass=sometimes"]).unwrap_err().contains("`forced` or `voluntary`"));
/// let at_once = Position::start_with_rules(&["claims=at-once"]).unwrap();
/// assert_eq!(at_once.rules(), Rules::SHEETS);
/// ```
fn rules_from_words(words: &[&str]) -> Result<Rules, String> {
    match words {
        [] => Err(
            "`rules` needs a variant: classic, moore1978, lehmann-woods, sheets, or capture=... pass=... first-move=... cathedral=... claims=..."
                .into(),
        ),
        [preset] if !preset.contains('=') => preset.parse().map_err(|e: RulesError| e.to_string()),
        options => {
            let mut rules = Rules::CLASSIC;
            for option in options {
                let (key, value) = option.split_once('=').ok_or_else(|| {
                    format!("`{option}` should be option=value, like pass=voluntary")
                })?;
                let err = |e: RulesError| e.to_string();
                match key {
                    "capture" => rules.capture = value.parse::<Capture>().map_err(err)?,
                    "pass" => rules.pass = value.parse::<Pass>().map_err(err)?,
                    "first-move" | "first_move" => {
                        rules.first_move = value.parse::<FirstMove>().map_err(err)?;
                    }
                    "cathedral" => {
                        rules.cathedral = value.parse::<CathedralTiming>().map_err(err)?;
                    }
                    "claims" => rules.claims = value.parse::<Claims>().map_err(err)?,
                    other => {
                        return Err(format!(
                            "`{other}` is not a rule option: expected capture, pass, first-move, cathedral or claims"
                        ));
                    }
                }
            }
            Ok(rules)
        }
    }
}
