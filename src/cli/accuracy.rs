//! `cathedral accuracy DIR`: the estimating search alone against exact values: its error, the
//! results it gets right, split by proof time, kind of value and buildings left, and
//! (`--check-moves`) what its chosen moves give up; positions with only their result proven are
//! audited against their bounds, and `--deeper` compares with a deeper search.

use super::ColorArg;
use super::shared::exit::{Exit, Failure};
use super::shared::input::load_position;
use super::shared::limits;
use super::shared::output::{emit_json, emit_text, keep_whole, new_table, right_align, style_for};
use super::shared::puzzle_dir::position_files;
use super::shared::search::ctrl_c_flag;
use cathedral::Move;
use cathedral::accuracy::{AccuracyOptions, AccuracyReport, Case, Slice, Truth, judge};
use cathedral::engine::eval::{Evaluation, Weights};
use cathedral::engine::network::Network;
use cathedral::legality::parse_move;
use cathedral::present::words::signed;
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct AccuracyArgs {
    /// A directory of position files with exact values (`solution:` blocks).
    pub dir: PathBuf,
    /// Nodes per position instead of a time: the same figures on every machine.
    #[arg(long, value_name = "N", value_parser = limits::budget)]
    pub nodes: Option<u64>,
    /// Time per position: seconds, or 500ms, 2s.
    #[arg(long, default_value = "1", value_name = "SECS", value_parser = limits::positive_seconds)]
    pub time: Duration,
    /// Also solve the position after each chosen move (at most SECS each) to measure what it
    /// gives up.
    #[arg(long, value_name = "SECS", value_parser = limits::positive_seconds)]
    pub check_moves: Option<Duration>,
    /// Also judge every position with N times the budget: the reference where nothing is
    /// proven (a file without a `solution:` block is then judged against it alone), and how
    /// much depth moves the estimate where something is.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(2..=1000))]
    pub deeper: Option<u32>,
    /// Leave out the files with nothing proven, neither a `solution:` nor `bounds:` (without
    /// --deeper they are refused), counted
    /// and named in the report.
    #[arg(long)]
    pub skip_unsolved: bool,
    /// Positions judged at once (each on one core; 0 = all cores).
    #[arg(long, default_value = "1", value_name = "N", value_parser = limits::threads)]
    pub jobs: usize,
    /// Table memory per position judged, in MiB.
    #[arg(long, default_value = "64", value_name = "N", value_parser = limits::table_mib)]
    pub tt_mb: usize,
    /// The evaluation to measure: the engine's own (`default`), the six linear features
    /// (`linear`) or the learned network (`network`).
    #[arg(long, value_enum, default_value_t)]
    pub eval: EvalArg,
    /// Measure the network of this weights file (as `examples/train_eval.rs` writes it) where
    /// the committed one judges, instead of --eval.
    #[arg(long, value_name = "FILE", conflicts_with = "eval")]
    pub weights: Option<PathBuf>,
    /// Print every position's figures and the summary as JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub color: ColorArg,
}

/// Which evaluation `accuracy` measures.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EvalArg {
    /// The engine's own.
    #[default]
    Default,
    /// The six features with their fitted weights.
    Linear,
    /// The learned network.
    Network,
}

impl EvalArg {
    fn evaluation(self) -> Evaluation {
        match self {
            EvalArg::Default => Evaluation::default(),
            EvalArg::Linear => Evaluation::Linear(Weights::default()),
            EvalArg::Network => Evaluation::Network,
        }
    }
}

/// The truth column: `+3` exact, `>= +1` a proven win, `-2..+5` bounds, `?` nothing proven.
fn truth_text(truth: Truth) -> String {
    match truth {
        Truth::Exact(v) => signed(v),
        Truth::Bounds {
            lower: Some(l),
            upper: Some(u),
        } => format!("{}..{}", signed(l), signed(u)),
        Truth::Bounds {
            lower: Some(l),
            upper: None,
        } => format!(">= {}", signed(l)),
        Truth::Bounds {
            lower: None,
            upper: Some(u),
        } => format!("<= {}", signed(u)),
        Truth::Bounds { .. } | Truth::Unknown => "?".to_string(),
    }
}

pub fn run(args: &AccuracyArgs) -> miette::Result<()> {
    let paths = position_files("directory", &args.dir)?;
    let mut cases = Vec::new();
    let mut left_out = Vec::new();
    for path in &paths {
        let file = load_position(path)?;
        let name = path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let (truth, proof_seconds, root_values) = match file.solution {
            // Only bounds: what an unfinished solve proved.
            None if file.bounds.is_some() => {
                let bounds = file.bounds.as_ref().map_or((0, 0), |b| (b.lower, b.upper));
                (
                    Truth::Unknown.within(bounds.0, bounds.1),
                    None,
                    HashMap::new(),
                )
            }
            Some(solution) => {
                // The file loaded, so every stored root move is legal here.
                let root_values: HashMap<Move, i32> = solution
                    .root_values
                    .iter()
                    .filter_map(|(text, &value)| {
                        parse_move(&file.position, text).ok().map(|mv| (mv, value))
                    })
                    .collect();
                let truth = if solution.wdl {
                    let result = Truth::of_result(solution.value);
                    file.bounds
                        .as_ref()
                        .map_or(result, |b| result.within(b.lower, b.upper))
                } else {
                    Truth::Exact(solution.value)
                };
                (truth, solution.seconds, root_values)
            }
            None if args.deeper.is_some() => (Truth::Unknown, None, HashMap::new()),
            None if args.skip_unsolved => {
                left_out.push(name);
                continue;
            }
            None => {
                return Err(Failure::new(
                    Exit::Input,
                    format!(
                        "{} has nothing proven to compare with (no `solution:` or `bounds:` block)",
                        path.display()
                    ),
                )
                .help("`cathedral solve FILE --yaml` writes the block to paste into the file; --deeper N compares with a deeper search instead, --skip-unsolved leaves such files out")
                .into());
            }
        };
        cases.push(Case {
            name,
            position: file.position,
            truth,
            proof_seconds,
            root_values,
        });
    }
    let stop = ctrl_c_flag();
    let options = AccuracyOptions {
        nodes: args.nodes,
        time: Some(args.time),
        tt_mb: args.tt_mb,
        check_moves: args.check_moves,
        deeper: args.deeper,
        stop: stop.clone(),
        evaluation: match &args.weights {
            Some(path) => Evaluation::Learned(
                Network::read(path).map_err(|e| Failure::new(Exit::Input, e.to_string()))?,
            ),
            None => args.eval.evaluation(),
        },
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs)
        .build()
        .map_err(|e| miette::miette!("cannot start {} jobs: {e}", args.jobs))?;
    let judged = pool.install(|| {
        cases
            .par_iter()
            .map(|case| judge(case, &options))
            .collect::<Vec<_>>()
    });
    if stop.load(Ordering::Relaxed) {
        return Err(Failure::new(Exit::Interrupted, "stopped by Ctrl-C").into());
    }
    let report = AccuracyReport::of(judged, args.deeper);
    if args.json {
        let mut value = serde_json::to_value(&report).map_err(|e| miette::miette!("{e}"))?;
        value["left_out"] = serde_json::json!(left_out);
        return emit_json(&value);
    }
    emit_text(&text(args, &report, &left_out))
}

/// The report in words and tables.
fn text(args: &AccuracyArgs, report: &AccuracyReport, left_out: &[String]) -> String {
    let mut table = new_table(style_for(args.color));
    let mut header = vec![
        "position",
        "proven / estimate",
        "error",
        "result",
        "move chosen",
        "loss",
    ];
    if args.deeper.is_some() {
        header.push("deeper");
    }
    table.set_header(header);
    for p in &report.positions {
        let mut row = vec![
            // Without the extension: every name is a position file's.
            p.name.strip_suffix(".yaml").unwrap_or(&p.name).to_string(),
            format!("{} / {:+.2}", truth_text(p.truth), p.estimate),
            // For bounds: how far outside them the estimate lies.
            match (p.error, p.outside) {
                (Some(e), _) => format!("{e:.2}"),
                (None, Some(o)) if o > 0.0 => format!("{o:.2} out"),
                (None, Some(_)) => "in".to_string(),
                (None, None) => "-".to_string(),
            },
            match p.result_right {
                Some(true) => "right",
                Some(false) => "wrong",
                None => "-",
            }
            .to_string(),
            // The side to move's, so without the player: the column stays narrow.
            p.chosen
                .as_deref()
                .map(|mv| mv.split_once(':').map_or(mv, |(_, rest)| rest))
                .unwrap_or_default()
                .to_string(),
            p.loss.map_or_else(|| "-".to_string(), |l| l.to_string()),
        ];
        if args.deeper.is_some() {
            row.push(p.deeper.map_or_else(String::new, |d| format!("{d:+.2}")));
        }
        table.add_row(row);
    }
    right_align(&mut table, &[1, 2, 5, 6]);
    keep_whole(&mut table, 0);
    keep_whole(&mut table, 4);
    let budget = match args.nodes {
        Some(1) => "1 node".to_string(),
        Some(n) => format!("{n} nodes"),
        None => format!("{} ms", args.time.as_millis()),
    };
    let mut out = format!(
        "{table}\nThe estimating search alone, {budget} per position, against what is proven (squares, the side to move's view):\n"
    );
    if report.exact_positions > 0 {
        let fit = match (report.slope, report.intercept) {
            (Some(slope), Some(intercept)) => {
                format!("; estimate = {slope:.2} x exact {intercept:+.2} (least squares)")
            }
            _ => String::new(),
        };
        out.push_str(&format!(
            "mean absolute error {:.2} squares; result right in {:.1} % of {} with exact values{fit}\n",
            report.mean_absolute_error,
            100.0 * report.result_right,
            cathedral::present::words::count(report.exact_positions as i64, "position")
        ));
        let mut split = new_table(style_for(args.color));
        // Short headers: the table fits 80 columns (the line below says what they mean).
        let mut header = vec!["part", "n", "error", "bias", "right", "slope"];
        if args.deeper.is_some() {
            header.push("vs deeper");
        }
        split.set_header(header);
        let parts = [
            &report.by_proof_time,
            &report.by_value,
            &report.by_buildings,
        ];
        for part in parts {
            // A split into one part says nothing the line above does not.
            if part.len() < 2 {
                continue;
            }
            for s in part {
                split.add_row(slice_row(s, args.deeper.is_some()));
            }
        }
        if split.row_count() > 0 {
            right_align(&mut split, &[1, 2, 3, 4, 5, 6]);
            out.push_str(&format!(
                "{split}\n(error: mean |estimate - exact|; bias: mean estimate - exact; right: results right; slope: of the estimate against the exact value{})\n",
                if args.deeper.is_some() { "; vs deeper: mean |estimate - deeper estimate|" } else { "" }
            ));
        }
    }
    if report.exact_positions > 0 {
        // Whether an estimate near 0 means a draw as often as the data says.
        let mut bands = new_table(style_for(args.color));
        bands.set_header(["estimate", "n", "exact wins", "draws", "losses"]);
        for b in report.calibration.iter().filter(|b| b.positions > 0) {
            bands.add_row(vec![
                b.estimates.clone(),
                b.positions.to_string(),
                b.wins.to_string(),
                b.draws.to_string(),
                b.losses.to_string(),
            ]);
        }
        right_align(&mut bands, &[1, 2, 3, 4]);
        out.push_str(&format!(
            "What the estimate's bands hold (from -0.5 to +0.5 it reads as a draw):\n{bands}\n"
        ));
    }
    if let (Some(optimal), Some(loss)) = (report.optimal, report.mean_loss) {
        let by_roots = match report.moves_checked_by_root_values {
            0 => String::new(),
            n if n == report.moves_checked => " (by their stored root values)".to_string(),
            n => format!(" ({n} by their stored root values)"),
        };
        out.push_str(&format!(
            "chosen move optimal in {:.1} % of the {} checked{by_roots}; mean loss {:.2} squares\n",
            100.0 * optimal,
            cathedral::present::words::count(report.moves_checked as i64, "position"),
            loss
        ));
    } else if args.check_moves.is_some() {
        out.push_str("no chosen move could be checked within the time given\n");
    }
    if let Some(audit) = &report.bounds {
        let right = audit.result_right.map_or_else(String::new, |r| {
            format!(
                "; of the {} whose result is proven, the estimate gets it right in {:.1} %",
                audit.result_fixed,
                100.0 * r
            )
        });
        out.push_str(&format!(
            "{} position{} with only bounds proven: {} estimate{} outside them (certainly wrong), {:.2} squares outside on average{right}\n",
            audit.positions,
            plural(audit.positions),
            audit.outside,
            if audit.outside == 1 { " lies" } else { "s lie" },
            audit.mean_outside
        ));
    }
    if report.deeper_by_buildings.len() > 1 {
        let mut by = new_table(style_for(args.color));
        by.set_header(["positions", "n", "difference", "bias", "agree", "slope"]);
        for d in &report.deeper_by_buildings {
            by.add_row(vec![
                d.label.clone(),
                d.positions.to_string(),
                format!("{:.2}", d.mean_absolute_difference),
                format!("{:+.2}", d.mean_signed_difference),
                format!("{:.1} %", 100.0 * d.result_agrees),
                d.slope
                    .map_or_else(|| "-".to_string(), |v| format!("{v:.2}")),
            ]);
        }
        right_align(&mut by, &[1, 2, 3, 4, 5]);
        out.push_str(&format!(
            "Against the deeper search, by buildings left (difference: mean |estimate - deeper|; bias: mean estimate - deeper; agree: same result):\n{by}\n"
        ));
    }
    if let Some(d) = &report.deeper {
        out.push_str(&format!(
            "against the same search with {}x the budget (an estimate, not a truth), on {}: mean difference {:.2} squares (estimate - deeper {:+.2}), result agrees in {:.1} %{}\n",
            d.factor,
            cathedral::present::words::count(d.positions as i64, "position"),
            d.mean_absolute_difference,
            d.mean_signed_difference,
            100.0 * d.result_agrees,
            d.slope
                .map_or_else(String::new, |s| format!(", slope {s:.2}"))
        ));
    }
    if !left_out.is_empty() {
        out.push_str(&format!(
            "left out, nothing proven: {} file{} ({})\n",
            left_out.len(),
            plural(left_out.len()),
            left_out.join(", ")
        ));
    }
    out
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn slice_row(s: &Slice, deeper: bool) -> Vec<String> {
    let mut row = vec![
        s.label.clone(),
        s.positions.to_string(),
        format!("{:.2}", s.mean_absolute_error),
        format!("{:+.2}", s.mean_signed_error),
        format!("{:.1} %", 100.0 * s.result_right),
        s.slope
            .map_or_else(|| "-".to_string(), |v| format!("{v:.2}")),
    ];
    if deeper {
        row.push(
            s.mean_deeper_difference
                .map_or_else(|| "-".to_string(), |v| format!("{v:.2}")),
        );
    }
    row
}
