//! `cathedral bench [DIR]`: solve every position of a benchmark directory, compare with the stored
//! values, time it per tier; `--record` writes the values of files that have none.

use super::ColorArg;
use super::shared::exit::{Exit, Failure};
use super::shared::input::{FileDiagnostic, load_position};
use super::shared::output::{
    emit_json, emit_text, new_table, quiet, right_align, solution_block, style_for,
};
use super::shared::puzzle_dir::position_files;
use super::shared::search::{SearchArgs, Spinner, ctrl_c_flag};
use cathedral::boardgame::engine::estimator;
use cathedral::boardgame::{SolveOptions, solve};
use cathedral::draw::terminal::RenderStyle;
use cathedral::notation::format_move_with_player;
use cathedral::present::words::{count, count_large, rate_text, signed, thousands, time_text};
use cathedral::report::{StoredCheck, check_stored, stored_solution};
use cathedral::sampler::Tier;
use miette::{IntoDiagnostic, WrapErr, miette};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::Duration;

/// The benchmark suite, relative to the working directory.
const DEFAULT_DIR: &str = "puzzles/bench";

/// Each position's time without `--time-limit`: the t10 tier's goal, so that a suite holding
/// positions not yet solved still ends.
const DEFAULT_LIMIT: Duration = Duration::from_secs(600);

#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Directory of position files.
    #[arg(default_value = DEFAULT_DIR)]
    pub dir: PathBuf,
    /// Write the computed value into files that have no `solution:` yet (and, without --wdl,
    /// the exact value over a stored win/draw/loss it agrees with).
    #[arg(long)]
    pub record: bool,
    /// With --record, also write the exact value after every legal move (`root_values:`, for
    /// `cathedral accuracy`), also into files whose stored value the solve proves again; the
    /// solve costs more.
    #[arg(long, requires = "record")]
    pub root_values: bool,
    /// Solve only the files without a stored value (with --record: go on with an interrupted
    /// recording); without --wdl, a stored win/draw/loss still lacks its value.
    #[arg(long)]
    pub only_missing: bool,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Print every position's result and the tier times as JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub color: ColorArg,
}

/// Appends the `solution:` block to the file's text, or puts it in place of the one there,
/// keeping everything else as written.
fn record(path: &Path, block: &str) -> miette::Result<()> {
    record_block(path, "solution", block)
}

/// What an unfinished solve proved, narrowing the bounds stored before (a solve with less time
/// than the last may prove less); `None` when it proves nothing new. A win/draw/loss solve's
/// bounds are results (-1 loss, 0 draw, 1 win): a loss at most is -1 square at most, a win at
/// least 1 square at least.
fn narrowed(
    stored: Option<&cathedral::file::StoredBounds>,
    solution: &cathedral::boardgame::Solution<cathedral::Move>,
    wdl: bool,
) -> Option<cathedral::file::StoredBounds> {
    let most = cathedral::SQUARES_PER_PLAYER as i32;
    let (lower, upper) = if wdl {
        let lower = match solution.lower {
            1.. => 1,
            0 => 0,
            _ => -most,
        };
        let upper = match solution.upper {
            ..=-1 => -1,
            0 => 0,
            _ => most,
        };
        (lower, upper)
    } else {
        (solution.lower.max(-most), solution.upper.min(most))
    };
    let (old_lower, old_upper) = stored.map_or((-most, most), |b| (b.lower, b.upper));
    let (lower, upper) = (lower.max(old_lower), upper.min(old_upper));
    if (lower, upper) == (old_lower, old_upper) || lower > upper {
        return None;
    }
    Some(cathedral::file::StoredBounds {
        lower,
        upper,
        nodes: Some(solution.stats.nodes),
        seconds: Some(seconds(solution.stats.elapsed)),
    })
}

/// Appends the top-level block `key:` to the file's text, or puts it in place of the one
/// there, keeping everything else as written.
fn record_block(path: &Path, key: &str, block: &str) -> miette::Result<()> {
    let mut text = std::fs::read_to_string(path)
        .into_diagnostic()
        .wrap_err_with(|| format!("cannot read {}", path.display()))?;
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    let start = if text.starts_with(&format!("{key}:")) {
        Some(0)
    } else {
        text.find(&format!("\n{key}:")).map(|i| i + 1)
    };
    if let Some(start) = start {
        // The block ends at the next line that starts a top-level key (or a comment).
        let end = text[start..]
            .match_indices('\n')
            .map(|(i, _)| start + i + 1)
            .find(|&i| {
                text[i..]
                    .chars()
                    .next()
                    .is_some_and(|c| !c.is_whitespace() && c != '-')
            })
            .unwrap_or(text.len());
        text.replace_range(start..end, block);
    } else {
        text.push_str(block);
    }
    // Never write a file that would not load back.
    cathedral::file::parse_str(&path.display().to_string(), &text).map_err(|e| {
        miette!(
            "{}: the recorded {key} would not load back: {}",
            path.display(),
            e.message
        )
    })?;
    cathedral::file::write_atomically(path, text.as_bytes(), true).map_err(FileDiagnostic::from)?;
    Ok(())
}

/// Seconds to the millisecond, as `seconds:` stores them.
fn seconds(elapsed: Duration) -> f64 {
    (elapsed.as_secs_f64() * 1000.0).round() / 1000.0
}

/// Every root move's exact value, by the move with the player.
fn root_values(
    position: &cathedral::Position,
    solution: &cathedral::boardgame::Solution<cathedral::Move>,
) -> BTreeMap<String, i32> {
    solution
        .root_moves
        .iter()
        .map(|r| (format_move_with_player(position, r.mv), r.lower))
        .collect()
}

/// Records what an unfinished solve proved, where it narrows the stored bounds; whether it
/// did.
fn record_bounds(
    path: &Path,
    file: &cathedral::file::PositionFile,
    solution: &cathedral::boardgame::Solution<cathedral::Move>,
    wdl: bool,
    bounded: &mut Vec<String>,
) -> miette::Result<bool> {
    let Some(bounds) = narrowed(file.bounds.as_ref(), solution, wdl) else {
        return Ok(false);
    };
    let block =
        cathedral::file::bounds_yaml(&bounds).map_err(|e| miette!("cannot write YAML: {e}"))?;
    record_block(path, "bounds", &block)?;
    bounded.push(
        path.file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into()),
    );
    Ok(true)
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    let n = times.len();
    if n == 0 {
        Duration::ZERO
    } else if n % 2 == 1 {
        times[n / 2]
    } else {
        (times[n / 2 - 1] + times[n / 2]) / 2
    }
}

/// One position's result: a row of the table, an entry of `--json`.
#[derive(Serialize)]
struct Row {
    file: String,
    tier: &'static str,
    /// The exact value, when proven.
    value: Option<i32>,
    /// The proven bounds (equal when exact).
    lower: i32,
    upper: i32,
    stored: Option<i32>,
    /// `ok`, `ok, bounds recorded`, `mismatch`, `unproven`, `unproven, bounds recorded`,
    /// `recorded`, or `none` (no stored value).
    check: &'static str,
    seconds: f64,
    nodes: u64,
    nodes_per_second: f64,
    tt_hit_percent: Option<f64>,
}

/// The times of one tier.
#[derive(Serialize)]
struct TierRow {
    tier: &'static str,
    buildings_left: &'static str,
    positions: usize,
    unproven: usize,
    median_seconds: f64,
    max_seconds: f64,
}

/// The whole run, as `--json` prints it.
#[derive(Serialize)]
struct BenchReport {
    dir: String,
    positions: Vec<Row>,
    tiers: Vec<TierRow>,
    interrupted: bool,
}

pub fn run(args: &BenchArgs) -> miette::Result<()> {
    // The default suite is found from anywhere: beside the sources this binary was built from.
    let built_in = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/bench");
    let dir = if args.dir == Path::new(DEFAULT_DIR) && !args.dir.exists() && built_in.exists() {
        built_in
    } else {
        args.dir.clone()
    };
    let files = position_files("benchmark directory", &dir)?;
    let stop = ctrl_c_flag();
    // The benchmark times the exact value and its best line; the values of every root move
    // (what `solve` tabulates) are extra work it does not measure.
    let options = SolveOptions {
        root_values: args.root_values,
        time_limit: args.search.time_limit.or(Some(DEFAULT_LIMIT)),
        ..args.search.options(stop.clone())
    };
    // Per tier: solve times and the number of positions not proven within the time limit.
    let mut times: BTreeMap<Tier, (Vec<Duration>, usize)> = BTreeMap::new();
    let mut rows: Vec<Row> = Vec::new();
    let mut mismatches = Vec::new();
    let mut recorded = Vec::new();
    // Positions not proven whose proven bounds were recorded.
    let mut bounded = Vec::new();
    for path in &files {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into(),
        );
        let file = load_position(path)?;
        // With --root-values, a stored value without root values is still missing them; a
        // stored win/draw/loss (`wdl: true`) still misses its exact value unless --wdl asks no
        // more.
        if args.only_missing
            && file.solution.as_ref().is_some_and(|s| {
                (!s.wdl || args.search.wdl) && (!args.root_values || !s.root_values.is_empty())
            })
        {
            continue;
        }
        let tier = Tier::of(&file.position);
        let spinner = Spinner::new(&format!("{name}: "));
        let options = SolveOptions {
            estimate: Some(estimator(&file.position)),
            ..options.clone()
        };
        let solution = solve(&file.position, &options, &|p| spinner.update(p));
        spinner.finish();
        let computed = stored_solution(&file.position, &solution, args.search.wdl);
        let value_text = match &computed {
            Some(s) => signed(s.value),
            None => format!("{}..{}", signed(solution.lower), signed(solution.upper)),
        };
        let stored = file.solution.as_ref();
        let check = match (stored, &computed) {
            (Some(s), _) => match check_stored(s, &solution, args.search.wdl) {
                StoredCheck::Agrees
                    if args.root_values
                        && s.root_values.is_empty()
                        && !s.wdl
                        && solution.complete
                        && solution.root_moves.iter().all(|r| r.is_exact()) =>
                {
                    // The stored value is proven again; the root values join it.
                    let mut with_roots = s.clone();
                    with_roots.root_values = root_values(&file.position, &solution);
                    with_roots.seconds = Some(seconds(solution.stats.elapsed));
                    record(path, &solution_block(&with_roots)?)?;
                    recorded.push(name.clone());
                    "recorded"
                }
                StoredCheck::Agrees
                    if args.record && s.wdl && !args.search.wdl && solution.complete =>
                {
                    // A stored win/draw/loss, its exact value now proven: the value replaces it.
                    let Some(mut exact) = computed.clone() else {
                        continue;
                    };
                    exact.seconds = Some(seconds(solution.stats.elapsed));
                    if args.root_values && solution.root_moves.iter().all(|r| r.is_exact()) {
                        exact.root_values = root_values(&file.position, &solution);
                    }
                    record(path, &solution_block(&exact)?)?;
                    recorded.push(name.clone());
                    "recorded"
                }
                StoredCheck::Agrees if args.record && s.wdl && !solution.is_exact() => {
                    // The stored result holds; what the solve proved of the margin is kept.
                    if record_bounds(path, &file, &solution, args.search.wdl, &mut bounded)? {
                        "ok, bounds recorded"
                    } else {
                        "ok"
                    }
                }
                StoredCheck::Agrees => "ok",
                StoredCheck::Unproven
                    if args.record
                        && record_bounds(
                            path,
                            &file,
                            &solution,
                            args.search.wdl,
                            &mut bounded,
                        )? =>
                {
                    "unproven, bounds recorded"
                }
                StoredCheck::Unproven => "unproven",
                StoredCheck::Mismatch => {
                    mismatches.push(format!(
                        "{name}: stored {}, computed {value_text}",
                        signed(s.value)
                    ));
                    "mismatch"
                }
            },
            (None, Some(c)) if args.record && solution.complete => {
                let mut c = c.clone();
                c.seconds = Some(seconds(solution.stats.elapsed));
                if args.root_values && solution.root_moves.iter().all(|r| r.is_exact()) {
                    c.root_values = root_values(&file.position, &solution);
                }
                record(path, &solution_block(&c)?)?;
                recorded.push(name.clone());
                "recorded"
            }
            (None, Some(_)) => "none",
            (None, None)
                if args.record
                    && record_bounds(path, &file, &solution, args.search.wdl, &mut bounded)? =>
            {
                "unproven, bounds recorded"
            }
            (None, None) => "unproven",
        };
        // A line per position as it finishes: a whole suite takes many minutes.
        if !quiet() {
            eprintln!(
                "{name}: {value_text} ({check}) in {}, {}",
                time_text(solution.stats.elapsed),
                count_large(solution.stats.nodes, "node")
            );
        }
        rows.push(Row {
            file: name,
            tier: tier.name(),
            value: computed.as_ref().map(|c| c.value),
            lower: solution.lower,
            upper: solution.upper,
            stored: stored.map(|s| s.value),
            check,
            seconds: solution.stats.elapsed.as_secs_f64(),
            nodes: solution.stats.nodes,
            nodes_per_second: solution.stats.nodes_per_second(),
            tt_hit_percent: solution.stats.hit_rate(),
        });
        let entry = times.entry(tier).or_default();
        entry.0.push(solution.stats.elapsed);
        entry.1 += usize::from(!solution.is_exact());
    }
    let tiers: Vec<TierRow> = times
        .into_iter()
        .map(|(tier, (mut list, unproven))| TierRow {
            tier: tier.name(),
            buildings_left: tier.range_text(),
            positions: list.len(),
            unproven,
            max_seconds: list.iter().max().copied().unwrap_or_default().as_secs_f64(),
            median_seconds: median(&mut list).as_secs_f64(),
        })
        .collect();
    let interrupted = stop.load(Ordering::Relaxed);
    let unproven: Vec<&str> = rows
        .iter()
        .filter(|r| r.check.starts_with("unproven"))
        .map(|r| r.file.as_str())
        .collect();
    let any_unproven = !unproven.is_empty();
    if args.json {
        emit_json(&BenchReport {
            dir: dir.display().to_string(),
            positions: rows,
            tiers,
            interrupted,
        })?;
    } else {
        let mut out = tables_text(&rows, &tiers, style_for(args.color));
        if interrupted {
            out.push_str("Stopped by Ctrl-C: not every position was solved.\n");
        }
        if !recorded.is_empty() {
            out.push_str(&format!(
                "Recorded {}: {}\n",
                count(recorded.len() as i64, "value"),
                recorded.join(", ")
            ));
        }
        if any_unproven {
            out.push_str(&format!(
                "Not proven within the time limit: {}\n",
                unproven.join(", ")
            ));
        }
        if !bounded.is_empty() {
            out.push_str(&format!(
                "Recorded the proven bounds of {}: {}\n",
                count(bounded.len() as i64, "unproven position"),
                bounded.join(", ")
            ));
        }
        emit_text(&out)?;
    }
    if mismatches.is_empty() {
        if interrupted {
            Err(Failure::new(Exit::Interrupted, "stopped by Ctrl-C").into())
        } else if any_unproven {
            Err(Failure::new(Exit::Unproven, "").into())
        } else {
            Ok(())
        }
    } else {
        Err(miette!(
            help = "a stored value is never overwritten; check the position and the solver",
            "{} differ{} from the computed one:\n  {}",
            count(mismatches.len() as i64, "stored value"),
            if mismatches.len() == 1 { "s" } else { "" },
            mismatches.join("\n  ")
        ))
    }
}

/// The table of positions and the table of tiers.
fn tables_text(rows: &[Row], tiers: &[TierRow], style: RenderStyle) -> String {
    let mut table = new_table(style);
    // Seven columns fit 80 columns with a t10 row's bounds and node count; the table hit rate
    // is in the JSON report.
    table.set_header([
        "position", "tier", "value", "stored", "time", "nodes", "nodes/s",
    ]);
    for row in rows {
        let stored = match (row.stored, row.check) {
            (Some(value), "mismatch") => format!("{} MISMATCH", signed(value)),
            (Some(value), check) => format!("{} {check}", signed(value)),
            (None, "recorded") => "recorded".to_string(),
            (None, _) => "-".to_string(),
        };
        table.add_row(vec![
            row.file.clone(),
            row.tier.to_string(),
            row.value.map_or_else(
                || format!("{}..{}", signed(row.lower), signed(row.upper)),
                signed,
            ),
            stored,
            time_text(Duration::from_secs_f64(row.seconds)),
            thousands(row.nodes),
            rate_text(row.nodes_per_second),
        ]);
    }
    right_align(&mut table, &[2, 4, 5, 6]);
    let mut out = format!("{table}\n\n");
    let mut tier_table = new_table(style);
    tier_table.set_header([
        "tier",
        "buildings left",
        "positions",
        "unproven",
        "median time",
        "max time",
    ]);
    for tier in tiers {
        tier_table.add_row(vec![
            tier.tier.to_string(),
            tier.buildings_left.to_string(),
            tier.positions.to_string(),
            tier.unproven.to_string(),
            time_text(Duration::from_secs_f64(tier.median_seconds)),
            time_text(Duration::from_secs_f64(tier.max_seconds)),
        ]);
    }
    out.push_str(&format!("{tier_table}\n"));
    out
}
