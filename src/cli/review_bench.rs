//! `cathedral review-bench GAMES...`: how good the whole-game review is. Each game is reviewed
//! at the budgets asked for and by a reference review (a much deeper budget, the exact solver
//! wherever it proves a position); the table says how many of the reference's mistakes each
//! review misses, how many marks it gives that the reference does not, how far its losses are,
//! and what it costs (docs/analysis.md, "How good is a review").

use super::ColorArg;
use super::analyse::RecheckArgs;
use super::replay::load_records;
use super::shared::exit::{Exit, Failure};
use super::shared::game::{which, with_game};
use super::shared::limits;
use super::shared::output::{
    emit_json, emit_text, new_table, right_align, show_progress, style_for,
};
use super::shared::search::ctrl_c_flag;
use cathedral::analysis::bench::{Comparison, MarkRow, Verdict, compare, nodes, verdicts};
use cathedral::analysis::game::analyse_game;
use cathedral::analysis::{Budget, Judge, REVIEW_TT_MB, Recheck};
use cathedral::frontend::record_positions;
use cathedral::present::words::count;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

#[derive(clap::Args, Debug)]
pub struct ReviewBenchArgs {
    /// Game record files, or folders of them (`*.yaml`, read in name order), all of one game.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// The reviews' budgets, nodes per position, comma-separated: one review each.
    #[arg(long, default_value = "50000", value_name = "N,N...", value_delimiter = ',', value_parser = limits::budget)]
    pub nodes_per_move: Vec<u64>,
    /// Also measure each budget's review with one stage only, to show what the second brings.
    #[arg(long)]
    pub both: bool,
    /// The second stage of the reviews measured.
    #[command(flatten)]
    pub recheck: RecheckArgs,
    /// The reference review's budget, nodes per position (one stage).
    #[arg(long, default_value = "1000000", value_name = "N", value_parser = limits::budget)]
    pub reference_nodes: u64,
    /// Keep the reference review in this JSON file: read when it holds these games at this
    /// budget, written when it does not exist (never overwritten: remove it to start again).
    #[arg(long, value_name = "FILE.json")]
    pub reference: Option<PathBuf>,
    /// Positions judged at once (0 = all cores); each search has one thread.
    #[arg(long, default_value = "0", value_name = "N", value_parser = limits::threads)]
    pub threads: usize,
    /// Table memory per position judged, in MiB.
    #[arg(long, default_value_t = REVIEW_TT_MB, value_name = "N", value_parser = limits::table_mib)]
    pub tt_mb: usize,
    /// Print the figures as JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub color: ColorArg,
}

/// The reference review as kept on disk.
#[derive(Serialize, Deserialize)]
struct ReferenceFile {
    /// Its budget, nodes per position.
    reference_nodes: u64,
    /// Its games, in order.
    games: Vec<ReferenceGame>,
}

#[derive(Serialize, Deserialize)]
struct ReferenceGame {
    /// Where the game comes from: "FILE game N".
    source: String,
    /// The moves, in the notation: the reference is of these games and no others.
    moves: Vec<String>,
    /// The reference's judgement of each move.
    verdicts: Vec<Verdict>,
    /// Nodes the reference searched.
    nodes: Option<u64>,
    /// Seconds it took.
    seconds: f64,
}

/// One review measured.
#[derive(Serialize)]
struct Measured {
    /// The first stage's nodes per position.
    nodes_per_move: u64,
    /// The second stage, if any.
    recheck: Option<Recheck>,
    /// Against the reference.
    comparison: Comparison,
    /// Nodes searched in all (where the game counts them), per move judged.
    nodes: Option<u64>,
    nodes_per_judged_move: Option<f64>,
    /// Wall-clock seconds, at the threads given.
    seconds: f64,
}

#[derive(Serialize)]
struct Report {
    games: usize,
    moves: usize,
    reference_nodes: u64,
    reference_seconds: f64,
    reference_nodes_searched: Option<u64>,
    threads: usize,
    reviews: Vec<Measured>,
}

pub fn run(args: &ReviewBenchArgs) -> miette::Result<()> {
    let files = record_files(&args.paths)?;
    with_game!(which(None, Some(&files[0])), G => bench::<G>(args, &files))
}

/// The record files named, folders expanded to their `.yaml` files in name order.
fn record_files(paths: &[PathBuf]) -> miette::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut inside: Vec<PathBuf> = std::fs::read_dir(path)
                .map_err(|e| miette::miette!("cannot read the folder {}: {e}", path.display()))?
                .filter_map(|entry| entry.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "yaml" || x == "yml"))
                .collect();
            inside.sort();
            if inside.is_empty() {
                return Err(Failure::new(
                    Exit::Usage,
                    format!("{} holds no game records (*.yaml)", path.display()),
                )
                .into());
            }
            files.extend(inside);
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

/// Every game of `files`, with where it comes from.
fn load_games<G: Judge>(files: &[PathBuf]) -> miette::Result<Vec<(String, G::Record)>> {
    let mut games = Vec::new();
    for file in files {
        for (i, game) in load_records::<G>(file)?.into_iter().enumerate() {
            games.push((format!("{} game {}", file.display(), i + 1), game));
        }
    }
    if games.is_empty() {
        return Err(Failure::new(Exit::Usage, "the files hold no games to review").into());
    }
    Ok(games)
}

/// The moves of `record`, in the notation.
fn move_texts<G: Judge>(record: &G::Record) -> Vec<String> {
    let positions = record_positions::<G>(record);
    G::record_moves(record)
        .iter()
        .zip(&positions)
        .map(|(&mv, position)| position.move_text(mv))
        .collect()
}

/// One game reviewed: each move's verdict, the nodes searched, the seconds taken.
type GameReview = (Vec<Verdict>, Option<u64>, f64);

/// Reviews every game with `budget`, one after another (each game's positions in parallel in
/// `pool`), ticking `bar` per position judged. `None` when stopped.
fn review_all<G: Judge>(
    games: &[(String, G::Record)],
    budget: &Budget,
    pool: &rayon::ThreadPool,
    bar: &ProgressBar,
    stop: &AtomicBool,
) -> Option<Vec<GameReview>>
where
    G::Record: Sync,
{
    let mut out = Vec::new();
    for (_, game) in games {
        let start = Instant::now();
        let analysis = pool.install(|| analyse_game::<G>(game, budget, &|_, _| {}));
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        bar.inc(G::record_moves(game).len() as u64 + 1);
        out.push((
            verdicts(&analysis),
            nodes(&analysis),
            start.elapsed().as_secs_f64(),
        ));
    }
    Some(out)
}

fn interrupted() -> miette::Report {
    Failure::new(
        Exit::Interrupted,
        "stopped by Ctrl-C: no figures are written (a reference file is written only once whole)",
    )
    .into()
}

fn bench<G: Judge>(args: &ReviewBenchArgs, files: &[PathBuf]) -> miette::Result<()>
where
    G::Record: Sync,
{
    let games = load_games::<G>(files)?;
    if let Some(path) = &args.reference {
        for file in files {
            super::shared::output::refuse_input_as_output(&[file.as_path()], path)?;
        }
    }
    let stop = ctrl_c_flag();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()
        .map_err(|e| miette::miette!("cannot start {} threads: {e}", args.threads))?;
    let threads = pool.current_num_threads();
    let budget = |nodes: u64, recheck: Option<Recheck>| Budget {
        nodes: Some(nodes),
        time: None,
        tt_mb: args.tt_mb,
        stop: Arc::clone(&stop),
        recheck,
    };
    let positions: u64 = games
        .iter()
        .map(|(_, g)| G::record_moves(g).len() as u64 + 1)
        .sum();
    let recheck = args.recheck.recheck::<G>();
    let mut configs: Vec<(u64, Option<Recheck>)> = Vec::new();
    for &nodes in &args.nodes_per_move {
        if args.both && recheck.is_some() {
            configs.push((nodes, None));
        }
        configs.push((nodes, recheck));
    }
    let reference = match args.reference.as_deref().filter(|p| p.exists()) {
        Some(path) => Some(read_reference::<G>(path, &games, args.reference_nodes)?),
        None => None,
    };
    let reviews_to_run = configs.len() as u64 + u64::from(reference.is_none());
    let bar = ProgressBar::with_draw_target(
        Some(positions * reviews_to_run),
        ProgressDrawTarget::hidden(),
    );
    if show_progress() {
        bar.set_draw_target(ProgressDrawTarget::stderr());
    }
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:30} {pos}/{len} positions reviewed [{elapsed}, {eta} left] {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let reference = match reference {
        Some(reference) => reference,
        None => {
            bar.set_message("reference");
            let judged = review_all::<G>(
                &games,
                &budget(args.reference_nodes, None),
                &pool,
                &bar,
                &stop,
            )
            .ok_or_else(interrupted)?;
            let file = ReferenceFile {
                reference_nodes: args.reference_nodes,
                games: games
                    .iter()
                    .zip(judged)
                    .map(
                        |((source, game), (verdicts, nodes, seconds))| ReferenceGame {
                            source: source.clone(),
                            moves: move_texts::<G>(game),
                            verdicts,
                            nodes,
                            seconds,
                        },
                    )
                    .collect(),
            };
            if let Some(path) = &args.reference {
                let text = serde_json::to_string_pretty(&file)
                    .map_err(|e| miette::miette!("cannot write the reference: {e}"))?;
                super::shared::output::write_document(Some(path), &text, false)?;
            }
            file
        }
    };
    let reference_verdicts: Vec<Vec<Verdict>> =
        reference.games.iter().map(|g| g.verdicts.clone()).collect();
    let mut reviews = Vec::new();
    for (nodes_per_move, recheck) in configs {
        bar.set_message(format!("{nodes_per_move} nodes"));
        let start = Instant::now();
        let judged = review_all::<G>(&games, &budget(nodes_per_move, recheck), &pool, &bar, &stop)
            .ok_or_else(interrupted)?;
        let seconds = start.elapsed().as_secs_f64();
        let verdicts: Vec<Vec<Verdict>> = judged.iter().map(|(v, _, _)| v.clone()).collect();
        let comparison = compare(&verdicts, &reference_verdicts)
            .map_err(|e| miette::miette!("the reference does not match the games: {e}"))?;
        let nodes: Option<u64> = judged.iter().map(|(_, n, _)| *n).sum();
        reviews.push(Measured {
            nodes_per_move,
            recheck,
            nodes_per_judged_move: nodes.map(|n| n as f64 / positions as f64),
            nodes,
            comparison,
            seconds,
        });
    }
    bar.finish_and_clear();
    let report = Report {
        games: games.len(),
        moves: reference_verdicts.iter().map(Vec::len).sum(),
        reference_nodes: reference.reference_nodes,
        reference_seconds: reference.games.iter().map(|g| g.seconds).sum(),
        reference_nodes_searched: reference.games.iter().map(|g| g.nodes).sum(),
        threads,
        reviews,
    };
    if args.json {
        return emit_json(&report);
    }
    emit_text(&report_text::<G>(args, &report))
}

/// The reference in `path`, checked to be of `games` at `nodes` per position.
fn read_reference<G: Judge>(
    path: &Path,
    games: &[(String, G::Record)],
    nodes: u64,
) -> miette::Result<ReferenceFile> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| miette::miette!("cannot read the reference {}: {e}", path.display()))?;
    let file: ReferenceFile = serde_json::from_str(&text).map_err(|e| {
        Failure::new(
            Exit::Usage,
            format!(
                "{} is not a reference review written by review-bench: {e}",
                path.display()
            ),
        )
    })?;
    let mismatch = |why: String| -> miette::Report {
        Failure::new(
            Exit::Usage,
            format!(
                "{} is the reference of other games or another budget ({why}): give another --reference file, or remove this one to review again",
                path.display()
            ),
        )
        .into()
    };
    if file.reference_nodes != nodes {
        return Err(mismatch(format!(
            "it was made at {} nodes per position, --reference-nodes is {nodes}",
            file.reference_nodes
        )));
    }
    if file.games.len() != games.len() {
        return Err(mismatch(format!(
            "it holds {} games, the files {}",
            file.games.len(),
            games.len()
        )));
    }
    for (kept, (source, game)) in file.games.iter().zip(games) {
        if kept.moves != move_texts::<G>(game) || kept.verdicts.len() != kept.moves.len() {
            return Err(mismatch(format!(
                "its game from {} is not {source}",
                kept.source
            )));
        }
    }
    Ok(file)
}

/// "3/40 (7.5 %)": missed of the reference's.
fn missed(row: &MarkRow) -> String {
    if row.reference == 0 {
        return "0/0".to_string();
    }
    format!(
        "{}/{} ({:.1} %)",
        row.missed,
        row.reference,
        100.0 * row.miss_rate()
    )
}

fn report_text<G: Judge>(args: &ReviewBenchArgs, report: &Report) -> String {
    let mut table = new_table(style_for(args.color));
    table.set_header([
        "review",
        "judged again",
        "? missed",
        "?? missed",
        "proven ? missed",
        "false ?",
        "false ?!",
        "|error|",
        "bias",
        "nodes/move",
        "time",
    ]);
    for review in &report.reviews {
        let c = &review.comparison;
        let name = match review.recheck {
            None => format!("{} one stage", review.nodes_per_move),
            Some(r) => format!(
                "{} + x{} (loss {}, turns {}, unstable {})",
                review.nodes_per_move, r.factor, r.from_loss, r.turns_from, r.unstable
            ),
        };
        table.add_row(vec![
            name,
            format!(
                "{} ({:.0} %)",
                c.judged_again,
                100.0 * c.judged_again as f64 / c.moves.max(1) as f64
            ),
            missed(&c.mistakes),
            missed(&c.blunders),
            missed(&c.proven_mistakes),
            c.mistakes.false_marks.to_string(),
            c.inaccuracies.false_marks.to_string(),
            format!("{:.2}", c.mean_error),
            format!("{:+.2}", c.bias),
            review
                .nodes_per_judged_move
                .map_or("-".to_string(), |n| format!("{n:.0}")),
            format!("{:.1} s", review.seconds),
        ]);
    }
    right_align(&mut table, &[1, 5, 6, 7, 8, 9, 10]);
    let legend = format!(
        "Against a reference review at {} nodes per position (one stage; exact wherever the solver proves a position). ? missed: the reference's mistakes and blunders the review marks lower (?? missed: its blunders; proven: those on two exact values); false ?: moves the review marks a mistake or worse and the reference lower; false ?!: the same for inaccuracies; |error|, bias: the mean difference of the losses, in {}, over every move; time: wall-clock at {}.",
        report.reference_nodes,
        G::UNITS,
        count(report.threads as i64, "thread")
    );
    format!(
        "{} ({}), reviewed against the reference ({:.0} s to make):\n{table}\n{}\n",
        count(report.games as i64, "game"),
        count(report.moves as i64, "move"),
        report.reference_seconds,
        super::shared::output::wrap_for_terminal(&legend, "", "")
    )
}
