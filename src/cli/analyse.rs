//! `cathedral analyse GAME`: every move of a recorded game judged, mistakes marked, the turning
//! points found, a summary per player; as text, JSON or an HTML report with a value plot.

use super::ColorWhen;
use super::shared::exit::{Exit, Failure};
use super::shared::input::load_records;
use super::shared::limits;
use super::shared::output::{
    emit, emit_json, is_stdout, keep_whole, new_table, refuse_input_as_output, right_align,
    show_progress, style_for, wrap_for_terminal, write_document,
};
use super::shared::search::ctrl_c_flag;
use cathedral::analysis::game::{GameAnalysis, PlayerSummary, analyse_game};
use cathedral::analysis::words::count;
use cathedral::engine::{Judgement, PlayOptions};
use cathedral::file::GameRecord;
use cathedral::frontend::Recorded;
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
    #[arg(long, default_value = "32", value_name = "N", value_parser = limits::table_mib)]
    pub tt_mb: usize,
    /// Also write an HTML report with a board at each marked move and a plot of the value.
    #[arg(long, value_name = "OUT.html")]
    pub html: Option<PathBuf>,
    /// Overwrite the HTML file if it exists.
    #[arg(long)]
    pub force: bool,
    /// Print the analysis as JSON.
    #[arg(long)]
    pub json: bool,
    /// Colour: auto, always, never.
    #[arg(long, value_enum, default_value_t)]
    pub color: ColorWhen,
}

pub fn run(args: &AnalyseArgs) -> miette::Result<()> {
    if let Some(out) = args.html.as_deref().filter(|o| !is_stdout(Some(o))) {
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
    let games = load_records(&args.file)?;
    let chosen: Vec<(usize, &GameRecord)> = if args.all {
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
    let options = PlayOptions {
        nodes: args.nodes_per_move,
        time: if args.nodes_per_move.is_some() {
            None
        } else {
            Some(args.time_per_move)
        },
        threads: 1,
        tt_mb: args.tt_mb,
        stop: Arc::clone(&stop),
        ..PlayOptions::default()
    };
    let positions: u64 = chosen.iter().map(|(_, g)| g.moves.len() as u64 + 1).sum();
    let bar = ProgressBar::with_draw_target(Some(positions), ProgressDrawTarget::hidden());
    if show_progress() {
        bar.set_draw_target(ProgressDrawTarget::stderr());
    }
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:30} {pos}/{len} positions judged [{elapsed}, {eta} left]",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()
        .map_err(|e| miette::miette!("cannot start {} threads: {e}", args.threads))?;
    let mut analyses = Vec::new();
    for (number, game) in &chosen {
        let before = bar.position();
        let analysis = pool.install(|| {
            analyse_game(game, &options, &|done, _| {
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
    if let (Some(out), Some((number, game, analysis))) = (&args.html, analyses.first()) {
        let html = cathedral::present::game_report_html(game, *number, analysis);
        write_document(Some(out), &html, args.force)?;
    }
    if args.json {
        if args.all {
            let all: Vec<&GameAnalysis> = analyses.iter().map(|(_, _, a)| a).collect();
            return emit_json(&all);
        }
        return emit_json(&analyses[0].2);
    }
    if args.all {
        return emit(&all_games_text(args, &analyses));
    }
    let (number, game, analysis) = &analyses[0];
    emit(&report_text(game, *number, args, analysis))
}

/// One line per game: the result, each side's average loss and marks, the turning points.
fn all_games_text(args: &AnalyseArgs, analyses: &[(usize, &GameRecord, GameAnalysis)]) -> String {
    let mut table = new_table(style_for(args.color));
    table.set_header([
        "game",
        "result",
        "Light loss",
        "Light marks",
        "Dark loss",
        "Dark marks",
        "turns",
        "exact",
    ]);
    let marks = |s: &PlayerSummary| format!("{}/{}/{}", s.inaccuracies, s.mistakes, s.blunders);
    let (mut light_sum, mut dark_sum) = (0.0, 0.0);
    for (number, game, analysis) in analyses {
        let result = match game.result() {
            Some((l, d)) => format!("{l}-{d}"),
            None => "unfinished".to_string(),
        };
        light_sum += analysis.light.average_loss;
        dark_sum += analysis.dark.average_loss;
        table.add_row(vec![
            number.to_string(),
            result,
            format!("{:.2}", analysis.light.average_loss),
            marks(&analysis.light),
            format!("{:.2}", analysis.dark.average_loss),
            marks(&analysis.dark),
            analysis.turning_points.len().to_string(),
            format!(
                "{}/{}",
                analysis.light.exact_moves + analysis.dark.exact_moves,
                analysis.plies.len()
            ),
        ]);
    }
    right_align(&mut table, &[0, 2, 4, 6]);
    let n = analyses.len().max(1) as f64;
    format!(
        "{}: {} games\n{table}\nresult: Light-Dark unplaced squares; loss: average squares given up per move; marks: inaccuracies/mistakes/blunders; turns: turning points; exact: moves judged on two proven values.\nMean average loss: Light {:.2}, Dark {:.2} squares per move.\n",
        args.file.display(),
        analyses.len(),
        light_sum / n,
        dark_sum / n
    )
}

fn value_text(value: f64, judgement: Judgement) -> String {
    match judgement {
        Judgement::Exact => format!("{value:+.0}"),
        Judgement::Estimate => format!("~{value:+.1}"),
    }
}

fn summary_line(name: &str, summary: &PlayerSummary) -> String {
    format!(
        "{name}: {}, average loss {:.2} squares; {}, {}, {} ({} judged exactly)",
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

fn report_text(
    game: &GameRecord,
    number: usize,
    args: &AnalyseArgs,
    analysis: &GameAnalysis,
) -> String {
    let style = style_for(args.color);
    let mut out = format!("{}\n", cathedral::Position::record_heading(game, number));
    if let Some((light, dark)) = game.result() {
        out.push_str(&format!(
            "Result: Light {light}, Dark {dark} unplaced squares.\n"
        ));
    }
    if analysis.plies.is_empty() {
        out.push_str(&format!(
            "The game has no moves to judge; its start is worth {} to {} ({}).\n",
            value_text(analysis.end.value, analysis.end.judgement),
            game.start_position().to_move().title(),
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
    out.push_str(
        "Values are the mover's, in squares: exact (+3) when the solver proved them, ~ estimates otherwise.\n",
    );
    let marked: Vec<_> = analysis
        .plies
        .iter()
        .filter_map(|p| p.mark.map(|mark| (p, mark)))
        .collect();
    if !marked.is_empty() {
        out.push_str("\nMarked moves:\n");
        for (ply, mark) in marked {
            let head = format!(
                "{}. {} {} ({}, gives up {:.1} squares{}){}",
                ply.ply,
                ply.played,
                mark.symbol(),
                mark.word(),
                ply.loss,
                if ply.loss_is_exact { ", exact" } else { "" },
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
                ply.mover.title(),
                ply.outcome_before.phrase(),
                ply.outcome_after.phrase()
            );
            out.push_str(&wrap_for_terminal(&line, "", "   "));
            out.push('\n');
        }
    }
    out.push('\n');
    for (name, summary) in [("Light", &analysis.light), ("Dark", &analysis.dark)] {
        out.push_str(&wrap_for_terminal(&summary_line(name, summary), "", "  "));
        out.push('\n');
    }
    out
}
