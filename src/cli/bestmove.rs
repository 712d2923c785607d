//! `cathedral bestmove FILE`: the engine's move, its value (exact when the solver proves it,
//! an estimate otherwise) and the expected line.

use super::ColorArg;
use super::GameName;
use super::shared::exit::{Exit, Failure};
use super::shared::game::{load, which, with_game};
use super::shared::input::{load_book, load_position};
use super::shared::limits;
use super::shared::output::{
    emit_json, emit_text, keep_whole, new_table, right_align, show_progress, style_for,
    wrap_for_terminal,
};
use super::shared::search::ctrl_c_flag;
use cathedral::bestmove::BestMoveReport;
use cathedral::boardgame::SolveOptions;
use cathedral::boardgame::engine::Tunables;
use cathedral::book::Book;
use cathedral::engine::{Judgement, MAX_LEVEL, PlayOptions, choose};
use cathedral::frontend::{EngineRequest, Playable};
use cathedral::notation::format_line;
use cathedral::present::words::{count, count_large, thousands};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::path::PathBuf;
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct BestMoveArgs {
    /// Position file (YAML); `-` reads standard input.
    pub file: PathBuf,
    /// Time to think: seconds, or 500ms, 30s, 2m. Ignored with --nodes.
    #[arg(long, default_value = "1", value_name = "SECS", value_parser = limits::positive_seconds)]
    pub time: Duration,
    /// A node budget instead of a time: with --seed the move is the same on every machine.
    #[arg(long, value_name = "N", value_parser = limits::budget)]
    pub nodes: Option<u64>,
    /// Threads of the exact try and the estimating search (0 = all cores); with --nodes, one.
    #[arg(long, default_value = "1", value_name = "N", value_parser = limits::threads)]
    pub threads: usize,
    /// Seeds the choices of levels below 10 (their noise and slips).
    #[arg(long, default_value = "0", value_name = "S")]
    pub seed: u64,
    /// Strength, a level of the engine's ladder: 1 (a beginner) to 10 (full strength); below 10
    /// a fixed player with a budget of its own (docs/engine.md, "The ladder of levels").
    #[arg(long, default_value = "10", value_name = "1..10", value_parser = limits::level)]
    pub level: u8,
    /// Table memory in MiB (1 to 65536), for the solver and the search each.
    #[arg(long, default_value = "64", value_name = "N", value_parser = limits::table_mib)]
    pub tt_mb: usize,
    /// The opening book: `bundled` (the opening study's, built in), `none`, or a book file. In a
    /// position of the book, at level 10, the book's move is played with its statistics instead
    /// of a search (docs/opening.md).
    #[arg(long, default_value = "bundled", value_name = "BOOK")]
    pub book: String,
    /// Print the decision as JSON.
    #[arg(long)]
    pub json: bool,
    /// The game: `corintho` for Corintho (also chosen by a FILE with `game: corintho`), played
    /// by a paranoid search of depth 1 + level / 3 for any number of players.
    #[arg(long, value_enum, value_name = "GAME")]
    pub game: Option<super::GameName>,
}

#[derive(clap::Args, Debug)]
pub struct AnalysePositionArgs {
    #[command(flatten)]
    pub engine: BestMoveArgs,
    /// How many of the best moves to rank with their values (1 to 50).
    #[arg(long, default_value = "5", value_name = "N", value_parser = candidates)]
    pub candidates: usize,
    #[command(flatten)]
    pub color: ColorArg,
}

fn candidates(text: &str) -> Result<usize, String> {
    let n = limits::count(text)?;
    if n > 50 {
        return Err(format!(
            "{n} is out of range: expected a number of moves from 1 to 50"
        ));
    }
    Ok(n)
}

pub fn run(args: &BestMoveArgs) -> miette::Result<()> {
    let game = which(args.game, Some(&args.file));
    if game != GameName::Cathedral {
        return with_game!(game, G => engine_choice::<G>(args));
    }
    let (_, report) = decide(args, 1)?;
    if args.json {
        return emit_json(&report);
    }
    let Some(best) = &report.best_move else {
        return emit_text("The game is over: there is no move to make.\n");
    };
    let mut out = format!(
        "Best move: {best}\n{}\n",
        wrap_for_terminal(&report.verdict, "", "")
    );
    if let Some(explanation) = &report.explanation {
        for line in explanation.lines() {
            let depth = line.len() - line.trim_start().len();
            let first = " ".repeat(2 + depth);
            let rest = " ".repeat(4 + depth);
            out.push_str(&wrap_for_terminal(line.trim_start(), &first, &rest));
            out.push('\n');
        }
    }
    if report.line.len() > 1 {
        out.push_str(&wrap_for_terminal(
            &report.line.join(" "),
            "Line: ",
            "      ",
        ));
        out.push('\n');
    }
    out.push_str(&format!("{}\n", report.stats_text()));
    emit_text(&out)
}

/// `cathedral analyse-position`: the value and the best moves ranked.
pub fn run_analysis(args: &AnalysePositionArgs) -> miette::Result<()> {
    let game = which(args.engine.game, Some(&args.engine.file));
    if game != GameName::Cathedral {
        return with_game!(game, G => solver_ranking::<G>(args));
    }
    let (_, report) = decide(&args.engine, args.candidates)?;
    if args.engine.json {
        return emit_json(&report);
    }
    if report.best_move.is_none() {
        return emit_text("The game is over: there is no move to make.\n");
    }
    if let Some(book) = &report.book {
        return emit_text(&book_table(&report, book, args));
    }
    let exact = report.judgement == Judgement::Exact;
    let mut table = new_table(style_for(args.color));
    table.set_header([
        "#",
        "move",
        if exact { "value" } else { "estimate" },
        "expected line",
    ]);
    for (rank, candidate) in report.candidates.iter().enumerate() {
        let value = if exact {
            format!("{:+}", candidate.value)
        } else {
            format!("{:+.2}", candidate.value)
        };
        table.add_row(vec![
            (rank + 1).to_string(),
            candidate.mv.clone(),
            value,
            candidate
                .line
                .iter()
                .skip(1)
                .take(3)
                .cloned()
                .collect::<Vec<_>>()
                .join(" "),
        ]);
    }
    right_align(&mut table, &[0, 2]);
    keep_whole(&mut table, 1);
    let note = if exact {
        "Exact values: the final square difference with best play, the mover's view."
    } else {
        "Estimates, not proven: the final square difference, the mover's view."
    };
    emit_text(&format!(
        "{}\n{table}\n{note}\n{}\n",
        report.verdict,
        report.stats_text()
    ))
}

/// `analyse-position` in a position of the opening book: the book's moves ranked with their
/// games, mean margin and worst result.
fn book_table(
    report: &BestMoveReport,
    book: &cathedral::bestmove::BookReport,
    args: &AnalysePositionArgs,
) -> String {
    let mut table = new_table(style_for(args.color));
    table.set_header(["#", "move", "mean", "games", "worst"]);
    for (rank, m) in book.moves.iter().take(args.candidates).enumerate() {
        table.add_row(vec![
            (rank + 1).to_string(),
            m.text.clone(),
            format!("{:+.2}", m.margin),
            m.games.to_string(),
            format!("{:+}", m.worst),
        ]);
    }
    right_align(&mut table, &[0, 2, 3, 4]);
    keep_whole(&mut table, 1);
    let note = format!(
        "From the opening book ({} of its {} here; --book none searches instead): the mean final square difference of the opening study's games through each move at {} nodes a move, and the worst of them, the mover's view. Estimates, not proven (docs/opening.md).",
        book.moves.len().min(args.candidates),
        count(book.moves.len() as i64, "move"),
        thousands(book.nodes_per_move)
    );
    format!(
        "{}\n{table}\n{}\n",
        wrap_for_terminal(&report.verdict, "", ""),
        wrap_for_terminal(&note, "", "")
    )
}

/// `analyse-position` for a game without Cathedral's ranked report: the exact solver within
/// the budget (`--time` or `--nodes`), every root move's value (exact where proven, bounds
/// otherwise), as `solve` prints it.
fn solver_ranking<G: Playable>(args: &AnalysePositionArgs) -> miette::Result<()> {
    let engine = &args.engine;
    let loaded = load::<G>(&engine.file)?;
    let request = request(engine);
    let options = SolveOptions {
        threads: engine.threads,
        tt_mb: engine.tt_mb,
        time_limit: request.time,
        max_nodes: request.nodes,
        stop: request.stop,
        root_values: true,
        ..SolveOptions::default()
    };
    let (report, solution) = cathedral::frontend::solve(&loaded.position, &options, &|_| {})
        .map_err(|why| {
            Failure::new(Exit::Input, why).help("`bestmove` plays any number of players")
        })?;
    if engine.json {
        return emit_json(&report);
    }
    emit_text(&cathedral::frontend::solve_text(
        &loaded,
        &report,
        &solution,
        true,
        false,
        style_for(args.color),
    ))
}

/// `bestmove` for a game without Cathedral's ranked report: the engine's choice
/// ([`Playable::engine_choice`]) in words or JSON.
fn engine_choice<G: Playable>(args: &BestMoveArgs) -> miette::Result<()> {
    let position = load::<G>(&args.file)?.position;
    let report = cathedral::frontend::bestmove(&position, &request(args));
    if args.json {
        return emit_json(&report);
    }
    match &report.best_move {
        Some(best) => emit_text(&format!("Best move: {best}\n{}\n", report.verdict)),
        None => emit_text("The game is over: there is no move to make.\n"),
    }
}

/// What the options ask of the engine: a node budget, else the time; Ctrl-C stops it.
fn request(args: &BestMoveArgs) -> EngineRequest {
    EngineRequest {
        level: args.level.min(MAX_LEVEL),
        nodes: args.nodes,
        time: if args.nodes.is_some() {
            None
        } else {
            Some(args.time)
        },
        clock: None,
        threads: args.threads,
        tt_mb: args.tt_mb,
        seed: args.seed,
        stop: ctrl_c_flag(),
        tunables: Tunables::default(),
    }
}

fn decide(
    args: &BestMoveArgs,
    candidates: usize,
) -> miette::Result<(cathedral::Position, BestMoveReport)> {
    let file = load_position(&args.file)?;
    let position = file.position;
    if args.level == MAX_LEVEL {
        let owned;
        let book = match args.book.as_str() {
            "none" => None,
            "bundled" => Book::bundled_for(&position),
            path => {
                owned = load_book(std::path::Path::new(path))?;
                Some(&owned)
            }
        };
        if let Some(report) = book.and_then(|b| BestMoveReport::from_book(&position, b, candidates))
        {
            return Ok((position, report));
        }
    }
    let request = request(args);
    let options = PlayOptions {
        nodes: request.nodes,
        time: request.time,
        threads: request.threads,
        seed: request.seed,
        level: request.level,
        tt_mb: request.tt_mb,
        stop: request.stop,
        candidates,
        ..PlayOptions::default()
    };
    // The search's progress on one line that is cleared at the end (a terminal only).
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
    if show_progress() && !args.json {
        bar.set_draw_target(ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("{spinner} {wide_msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        bar.set_message("thinking (Ctrl-C stops with the best move so far)");
        bar.enable_steady_tick(Duration::from_millis(120));
    }
    let choice = choose(&position, &options, &mut |info| {
        bar.set_message(format!(
            "depth {}, {}, estimate {:+.2}: {}",
            info.depth,
            count_large(info.nodes, "node"),
            f64::from(info.estimate) / 100.0,
            format_line(&position, &info.pv).join(" ")
        ));
    });
    bar.finish_and_clear();
    Ok((position, BestMoveReport::new(&position, &choice)))
}
