//! `cathedral accuracy DIR`: the estimating search alone against exact values: its error, the
//! results it gets right, and (`--check-moves`) what its chosen moves give up.

use super::ColorWhen;
use super::shared::exit::{Exit, Failure};
use super::shared::input::load_position;
use super::shared::limits;
use super::shared::output::{emit, emit_json, keep_whole, new_table, right_align, style_for};
use super::shared::puzzle_dir::position_files;
use super::shared::search::ctrl_c_flag;
use cathedral::Move;
use cathedral::accuracy::{AccuracyOptions, AccuracyReport, judge};
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
    #[arg(long, value_enum, default_value_t)]
    pub color: ColorWhen,
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

pub fn run(args: &AccuracyArgs) -> miette::Result<()> {
    let paths = position_files("directory", &args.dir)?;
    let mut positions = Vec::new();
    for path in &paths {
        let file = load_position(path)?;
        let name = path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        match file.solution {
            Some(solution) if !solution.wdl => {
                // The file loaded, so every stored root move is legal here.
                let root_values: HashMap<Move, i32> = solution
                    .root_values
                    .iter()
                    .filter_map(|(text, &value)| {
                        parse_move(&file.position, text).ok().map(|mv| (mv, value))
                    })
                    .collect();
                positions.push((name, file.position, solution.value, root_values))
            }
            _ => {
                return Err(Failure::new(
                    Exit::Input,
                    format!(
                        "{} has no exact value to compare with (a `solution:` block with its value in squares)",
                        path.display()
                    ),
                )
                .help("`cathedral solve FILE --yaml` writes the block to paste into the file")
                .into());
            }
        }
    }
    let stop = ctrl_c_flag();
    let options = AccuracyOptions {
        nodes: args.nodes,
        time: Some(args.time),
        tt_mb: args.tt_mb,
        check_moves: args.check_moves,
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
        positions
            .par_iter()
            .map(|(name, position, exact, roots)| judge(name, position, *exact, roots, &options))
            .collect::<Vec<_>>()
    });
    if stop.load(Ordering::Relaxed) {
        return Err(Failure::new(Exit::Interrupted, "stopped by Ctrl-C").into());
    }
    let report = AccuracyReport::of(judged);
    if args.json {
        return emit_json(&report);
    }
    let mut table = new_table(style_for(args.color));
    table.set_header([
        "position",
        "exact / estimate",
        "error",
        "result",
        "move chosen",
        "loss",
    ]);
    for p in &report.positions {
        table.add_row(vec![
            // Without the extension: every name is a position file's.
            p.name.strip_suffix(".yaml").unwrap_or(&p.name).to_string(),
            format!("{} / {:+.2}", signed(p.exact), p.estimate),
            format!("{:.2}", p.error),
            if p.result_right { "right" } else { "wrong" }.to_string(),
            // The side to move's, so without the player: the column stays narrow.
            p.chosen
                .as_deref()
                .map(|mv| mv.split_once(':').map_or(mv, |(_, rest)| rest))
                .unwrap_or_default()
                .to_string(),
            p.loss.map_or_else(|| "-".to_string(), |l| l.to_string()),
        ]);
    }
    right_align(&mut table, &[1, 2, 5]);
    keep_whole(&mut table, 0);
    keep_whole(&mut table, 4);
    let budget = match args.nodes {
        Some(n) => format!("{n} nodes"),
        None => format!("{} ms", args.time.as_millis()),
    };
    let mut out = format!(
        "{table}\nThe estimating search alone, {budget} per position, against the exact values (squares, the side to move's view):\n"
    );
    out.push_str(&format!(
        "mean absolute error {:.2} squares; result right in {:.1} % of {} positions\n",
        report.mean_absolute_error,
        100.0 * report.result_right,
        report.positions.len()
    ));
    if let (Some(optimal), Some(loss)) = (report.optimal, report.mean_loss) {
        let by_roots = match report.moves_checked_by_root_values {
            0 => String::new(),
            n if n == report.moves_checked => " (by their stored root values)".to_string(),
            n => format!(" ({n} by their stored root values)"),
        };
        out.push_str(&format!(
            "chosen move optimal in {:.1} % of the {} positions checked{by_roots}; mean loss {:.2} squares\n",
            100.0 * optimal,
            report.moves_checked,
            loss
        ));
    } else if args.check_moves.is_some() {
        out.push_str("no chosen move could be checked within the time given\n");
    }
    emit(&out)
}
