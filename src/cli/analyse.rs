//! `cathedral analyse GAME`: every move of a recorded game judged, mistakes marked, the turning
//! points found, a summary per player; as text, JSON or an HTML report with a value plot.

use super::ColorArg;
use super::replay::load_records;
use super::shared::exit::{Exit, Failure};
use super::shared::game::{which, with_game};
use super::shared::limits;
use super::shared::output::{
    emit_json, emit_text, is_stdout, keep_whole, new_table, refuse_input_as_output, right_align,
    show_progress, style_for, wrap_for_terminal, write_document,
};
use super::shared::search::ctrl_c_flag;
use cathedral::analysis::game::{GameAnalysis, PlayerSummary, analyse_game};
use cathedral::analysis::{Budget, Judge, REVIEW_TT_MB, Recheck};
use cathedral::engine::Judgement;
use cathedral::present::words::count;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct AnalyseArgs {
    /// Game record file (docs/game-record.md); `-` reads standard input.
    pub file: PathBuf,
    /// Which game of the file, from 1.
    #[arg(long, default_value = "1", value_name = "N")]
    pub game: usize,
    /// Analyse every game of the file and print one line per game.
    #[arg(long, conflicts_with = "game")]
    pub all: bool,
    /// Time to judge each position: seconds, or 500ms, 2s.
    #[arg(long, default_value = "1", value_name = "SECS", value_parser = limits::positive_seconds)]
    pub time_per_move: Duration,
    /// Nodes to judge each position, instead of a time: the same report on every machine.
    #[arg(long, value_name = "N", value_parser = limits::budget)]
    pub nodes_per_move: Option<u64>,
    /// Positions judged at once (0 = all cores).
    #[arg(long, default_value = "0", value_name = "N", value_parser = limits::threads)]
    pub threads: usize,
    /// Table memory per position judged, in MiB.
    #[arg(long, default_value_t = REVIEW_TT_MB, value_name = "N", value_parser = limits::table_mib)]
    pub tt_mb: usize,
    /// How the review's second stage judges the moves left in doubt.
    #[command(flatten)]
    pub recheck: RecheckArgs,
    /// Also write an HTML report with a board at each marked move and a plot of the value.
    #[arg(long, value_name = "OUT.html")]
    pub html: Option<PathBuf>,
    /// Also write the game (with --all, every game) as a record with the analysis's marks as
    /// glyphs (?!, ?, ??) and a comment on each marked move: what was best, what it gave up.
    #[arg(long, value_name = "OUT.yaml")]
    pub annotate: Option<PathBuf>,
    /// Overwrite the HTML report or the annotated record if it exists.
    #[arg(long)]
    pub force: bool,
    /// Print the analysis as JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub color: ColorArg,
}

/// The review's second stage (docs/analysis.md, "Two stages"): the moves the first judgements
/// leave in doubt judged again deeper.
#[derive(clap::Args, Debug, Clone)]
pub struct RecheckArgs {
    /// Judge each position once: no second, deeper look at the moves left in doubt.
    #[arg(long, conflicts_with_all = ["recheck_factor", "recheck_from", "recheck_unstable", "recheck_turns"])]
    pub single_stage: bool,
    /// How many times the budget the second stage judges with [default: the game's, 8 for
    /// Cathedral].
    #[arg(long, value_name = "N", value_parser = limits::recheck_factor)]
    pub recheck_factor: Option<u64>,
    /// Judge again every move whose first loss is at least this, in the game's units
    /// [default: 2 squares for Cathedral].
    #[arg(long, value_name = "LOSS", value_parser = limits::recheck_units)]
    pub recheck_from: Option<f64>,
    /// Judge again every move whose value before and the next position's own value differ by
    /// at least this [default: 3 squares for Cathedral].
    #[arg(long, value_name = "DIFF", value_parser = limits::recheck_units)]
    pub recheck_unstable: Option<f64>,
    /// Judge again every move whose first look turns the mover's result down and loses at least
    /// this, in the game's units [default: 2 squares for Cathedral].
    #[arg(long, value_name = "LOSS", value_parser = limits::recheck_units)]
    pub recheck_turns: Option<f64>,
}

impl RecheckArgs {
    /// The second stage asked for: the game's default with the options given over it; `None`
    /// with --single-stage, or for a game without one unless a factor is given.
    pub fn recheck<G: Judge>(&self) -> Option<Recheck> {
        Recheck::chosen::<G>(
            self.single_stage,
            self.recheck_factor,
            self.recheck_from,
            self.recheck_unstable,
            self.recheck_turns,
        )
    }
}

/// The record file's game, of whichever game the file declares (`game: corintho`).
pub fn run(args: &AnalyseArgs) -> miette::Result<()> {
    with_game!(which(None, Some(&args.file)), G => analyse::<G>(args))
}

fn analyse<G: Judge>(args: &AnalyseArgs) -> miette::Result<()>
where
    G::Record: Sync,
{
    if args.html.is_some() && !G::HTML_REPORT {
        return Err(Failure::new(
            Exit::Usage,
            format!(
                "--html writes Cathedral reports only: {} holds {} games; drop --html (the text and --json reports cover them)",
                args.file.display(),
                G::NAME
            ),
        )
        .into());
    }
    if args.annotate.is_some() && !G::ANNOTATE {
        return Err(Failure::new(
            Exit::Usage,
            format!(
                "--annotate writes Cathedral records only: {} holds {} games; drop --annotate",
                args.file.display(),
                G::NAME
            ),
        )
        .into());
    }
    if let (Some(html), Some(annotate)) = (&args.html, &args.annotate)
        && html == annotate
        && !is_stdout(Some(html))
    {
        return Err(Failure::new(
            Exit::Usage,
            format!(
                "--html and --annotate both name {}: give each its own file",
                html.display()
            ),
        )
        .into());
    }
    for out in [args.html.as_deref(), args.annotate.as_deref()]
        .into_iter()
        .flatten()
        .filter(|o| !is_stdout(Some(o)))
    {
        refuse_input_as_output(&[&args.file], out)?;
        if out.exists() && !args.force {
            return Err(super::shared::output::refuse_overwrite(out));
        }
    }
    if args.all && args.html.is_some() {
        return Err(Failure::new(
            Exit::Usage,
            "--html writes the report of one game: give --game N instead of --all",
        )
        .into());
    }
    let games = load_records::<G>(&args.file)?;
    let chosen: Vec<(usize, &G::Record)> = if args.all {
        games.iter().enumerate().map(|(i, g)| (i + 1, g)).collect()
    } else {
        let game = games.get(args.game.wrapping_sub(1)).ok_or_else(|| {
            Failure::new(
                Exit::Usage,
                format!(
                    "--game {}: {} holds {} game(s), numbered from 1",
                    args.game,
                    args.file.display(),
                    games.len()
                ),
            )
        })?;
        vec![(args.game, game)]
    };
    let stop = ctrl_c_flag();
    let budget = Budget {
        nodes: args.nodes_per_move,
        time: if args.nodes_per_move.is_some() {
            None
        } else {
            Some(args.time_per_move)
        },
        tt_mb: args.tt_mb,
        stop: Arc::clone(&stop),
        recheck: args.recheck.recheck::<G>(),
    };
    let positions: u64 = chosen
        .iter()
        .map(|(_, g)| G::record_moves(g).len() as u64 + 1)
        .sum();
    let bar = ProgressBar::with_draw_target(Some(positions), ProgressDrawTarget::hidden());
    if show_progress() {
        bar.set_draw_target(ProgressDrawTarget::stderr());
    }
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} judgements [{elapsed}, {eta} left]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()
        .map_err(|e| miette::miette!("cannot start {} threads: {e}", args.threads))?;
    let mut analyses = Vec::new();
    // The bar counts judgements: the second stage adds the moves it judges again.
    let mut later = positions;
    for (number, game) in &chosen {
        let before = bar.position();
        later -= G::record_moves(game).len() as u64 + 1;
        let analysis = pool.install(|| {
            analyse_game::<G>(game, &budget, &|done, total| {
                bar.set_length(before + total as u64 + later);
                bar.set_position(before + done as u64);
            })
        });
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            break;
        }
        analyses.push((*number, *game, analysis));
    }
    bar.finish_and_clear();
    if stop.load(std::sync::atomic::Ordering::Relaxed) {
        return Err(Failure::new(
            Exit::Interrupted,
            "stopped by Ctrl-C: the positions judged after it are unreliable, so no report is written",
        )
        .into());
    }
    if let (Some(out), Some((number, game, analysis))) = (&args.html, analyses.first())
        && let Some(html) = G::report_html(game, *number, analysis)
    {
        write_document(Some(out), &html, args.force)?;
    }
    if let Some(out) = &args.annotate {
        let annotated: Vec<G::Record> = analyses
            .iter()
            .filter_map(|(_, game, analysis)| G::annotated(game, analysis))
            .collect();
        write_document(Some(out), &G::records_text(&annotated), args.force)?;
    }
    if args.json {
        if args.all {
            let all: Vec<&GameAnalysis<G>> = analyses.iter().map(|(_, _, a)| a).collect();
            return emit_json(&all);
        }
        return emit_json(&analyses[0].2);
    }
    if args.all {
        return emit_text(&all_games_text::<G>(args, &analyses));
    }
    let (number, game, analysis) = &analyses[0];
    emit_text(&report_text::<G>(game, *number, args, analysis))
}

/// One line per game: the result, each side's average loss and marks, the turning points.
fn all_games_text<G: Judge>(
    args: &AnalyseArgs,
    analyses: &[(usize, &G::Record, GameAnalysis<G>)],
) -> String {
    let mut table = new_table(style_for(args.color));
    // The seats of the first game: every game of a file has them (Corintho's player count may
    // differ from game to game, so the widest game's seats are taken).
    let seats: Vec<G::Seat> = analyses
        .iter()
        .map(|(_, _, a)| a.summaries.0.iter().map(|(s, _)| *s).collect::<Vec<_>>())
        .max_by_key(Vec::len)
        .unwrap_or_default();
    let titles: Vec<String> = seats.iter().map(|&s| G::seat_title(s)).collect();
    let mut header = vec!["game".to_string(), "result".to_string()];
    for title in &titles {
        header.push(format!("{title} loss"));
        header.push(format!("{title} marks"));
    }
    header.extend(["turns".to_string(), "exact".to_string()]);
    table.set_header(header);
    let marks = |s: &PlayerSummary| format!("{}/{}/{}", s.inaccuracies, s.mistakes, s.blunders);
    let mut sums = vec![0.0; seats.len()];
    for (number, game, analysis) in analyses {
        let mut row = vec![number.to_string(), G::result_short(game)];
        let mut exact = 0;
        for (i, &seat) in seats.iter().enumerate() {
            let summary = analysis.summary(seat);
            sums[i] += summary.average_loss;
            exact += summary.exact_moves;
            row.push(format!("{:.2}", summary.average_loss));
            row.push(marks(&summary));
        }
        row.push(analysis.turning_points.len().to_string());
        row.push(format!("{}/{}", exact, analysis.plies.len()));
        table.add_row(row);
    }
    let mut right: Vec<usize> = vec![0];
    right.extend((0..seats.len()).map(|i| 2 + 2 * i));
    right.push(2 + 2 * seats.len());
    right_align(&mut table, &right);
    let n = analyses.len().max(1) as f64;
    let means: Vec<String> = titles
        .iter()
        .zip(&sums)
        .map(|(title, sum)| format!("{title} {:.2}", sum / n))
        .collect();
    let legend = format!(
        "{}; loss: average {} given up per move; marks: inaccuracies/mistakes/blunders; turns: turning points; exact: moves judged on two proven values.",
        G::RESULT_LEGEND,
        G::UNITS
    );
    format!(
        "{}: {}\n{table}\n{}\nMean average loss: {} {} per move.\n",
        args.file.display(),
        count(analyses.len() as i64, "game"),
        wrap_for_terminal(&legend, "", ""),
        means.join(", "),
        G::UNITS
    )
}

fn value_text(value: f64, judgement: Judgement) -> String {
    match judgement {
        Judgement::Exact => format!("{value:+.0}"),
        Judgement::Estimate => format!("~{value:+.1}"),
    }
}

fn summary_line(name: &str, summary: &PlayerSummary, units: &str) -> String {
    format!(
        "{name}: {}, average loss {:.2} {units}; {}, {}, {} ({} judged exactly)",
        count(summary.moves as i64, "move"),
        summary.average_loss,
        if summary.inaccuracies == 1 {
            "1 inaccuracy".to_string()
        } else {
            format!("{} inaccuracies", summary.inaccuracies)
        },
        count(summary.mistakes as i64, "mistake"),
        count(summary.blunders as i64, "blunder"),
        summary.exact_moves
    )
}

fn report_text<G: Judge>(
    game: &G::Record,
    number: usize,
    args: &AnalyseArgs,
    analysis: &GameAnalysis<G>,
) -> String {
    let style = style_for(args.color);
    let mut out = format!("{}\n", G::record_heading(game, number));
    if let Some(line) = G::result_line(game) {
        out.push_str(&line);
        out.push('\n');
    }
    if analysis.plies.is_empty() {
        out.push_str(&format!(
            "The game has no moves to judge; its start is worth {} to {} ({}).\n",
            value_text(analysis.end.value, analysis.end.judgement),
            G::seat_title(G::record_start(game).seat_to_move()),
            match analysis.end.judgement {
                Judgement::Exact => "exact",
                Judgement::Estimate => "estimate",
            }
        ));
        return out;
    }
    let mut table = new_table(style);
    table.set_header(["#", "move", "before", "loss", ""]);
    for ply in &analysis.plies {
        table.add_row(vec![
            ply.ply.to_string(),
            ply.played.clone(),
            value_text(ply.before.value, ply.before.judgement),
            if ply.loss >= 0.05 {
                format!("{:.1}", ply.loss)
            } else {
                String::new()
            },
            ply.mark.map_or(String::new(), |m| m.symbol().to_string()),
        ]);
    }
    right_align(&mut table, &[0, 2, 3]);
    keep_whole(&mut table, 1);
    out.push_str(&format!("{table}\n"));
    out.push_str(&wrap_for_terminal(G::VALUE_LEGEND, "", ""));
    out.push('\n');
    let marked: Vec<_> = analysis
        .plies
        .iter()
        .filter_map(|p| p.mark.map(|mark| (p, mark)))
        .collect();
    if !marked.is_empty() {
        out.push_str("\nMarked moves:\n");
        for (ply, mark) in marked {
            let head = format!(
                "{}. {} {} ({}, gives up {:.1} {}{}){}",
                ply.ply,
                ply.played,
                mark.symbol(),
                mark.word(),
                ply.loss,
                G::UNITS,
                if ply.loss_is_exact {
                    ", exact"
                } else if ply.before.deeper {
                    ", estimate, judged again deeper"
                } else {
                    ", estimate"
                },
                ply.before
                    .best
                    .as_ref()
                    .map(|b| format!("; best was {b}"))
                    .unwrap_or_default()
            );
            out.push_str(&wrap_for_terminal(&head, "", "   "));
            out.push('\n');
            for note in &ply.notes {
                out.push_str(&wrap_for_terminal(note, "   - ", "     "));
                out.push('\n');
            }
        }
    }
    if !analysis.turning_points.is_empty() {
        out.push_str("\nTurning points:\n");
        for ply in analysis.plies.iter().filter(|p| p.turning_point) {
            let line = format!(
                "{}. {}: {} turns {} into {}",
                ply.ply,
                ply.played,
                G::seat_title(ply.mover),
                ply.outcome_before.phrase(),
                ply.outcome_after.phrase()
            );
            out.push_str(&wrap_for_terminal(&line, "", "   "));
            out.push('\n');
        }
    }
    // The biggest losses (the turning points are listed above, move by move).
    if let Some(biggest) = analysis.headlines.first() {
        out.push('\n');
        out.push_str(&wrap_for_terminal(biggest, "", "  "));
        out.push('\n');
    }
    out.push('\n');
    for (seat, summary) in &analysis.summaries.0 {
        let line = summary_line(&G::seat_title(*seat), summary, G::UNITS);
        out.push_str(&wrap_for_terminal(&line, "", "  "));
        out.push('\n');
    }
    out
}
