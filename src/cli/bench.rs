//! `cathedral bench [DIR]`: solve every position of a benchmark directory, compare with the stored
//! values, time it per tier; `--record` writes the values of files that have none.

use super::ColorWhen;
use super::shared::exit::{Exit, Failure};
use super::shared::input::{FileDiagnostic, load_position};
use super::shared::output::{emit, new_table, quiet, right_align, solution_block, style_for};
use super::shared::search::{SearchArgs, Spinner, ctrl_c_flag};
use cathedral::analysis::report::{StoredCheck, check_stored, stored_solution};
use cathedral::analysis::words::{count, hit_rate_text, rate_text, signed, thousands, time_text};
use cathedral::boardgame::{SolveOptions, solve};
use cathedral::sampler::Tier;
use miette::{IntoDiagnostic, WrapErr, miette};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::Duration;

/// The benchmark suite, relative to the working directory.
const DEFAULT_DIR: &str = "puzzles/bench";

#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Directory of position files.
    #[arg(default_value = DEFAULT_DIR)]
    pub dir: PathBuf,
    /// Write the computed value into files that have no `solution:` yet.
    #[arg(long)]
    pub record: bool,
    #[command(flatten)]
    pub search: SearchArgs,
    #[arg(long, value_enum, default_value_t)]
    pub color: ColorWhen,
}

/// The position files of `dir`, by name.
fn position_files(dir: &Path) -> miette::Result<Vec<PathBuf>> {
    let entries = std::fs::read_dir(dir).map_err(|e| {
        Failure::new(
            Exit::Input,
            format!("cannot read the benchmark directory {}: {e}", dir.display()),
        )
    })?;
    let mut files = Vec::new();
    for entry in entries {
        let path = entry.into_diagnostic()?.path();
        if path.is_file() && path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
            files.push(path);
        }
    }
    files.sort();
    if files.is_empty() {
        return Err(Failure::new(
            Exit::Input,
            format!("{} holds no position files (*.yaml)", dir.display()),
        )
        .into());
    }
    Ok(files)
}

/// Appends the `solution:` block to the file's text, keeping everything else as written.
fn record(path: &Path, block: &str) -> miette::Result<()> {
    let mut text = std::fs::read_to_string(path)
        .into_diagnostic()
        .wrap_err_with(|| format!("cannot read {}", path.display()))?;
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(block);
    // Never write a file that would not load back.
    cathedral::file::parse_str(&path.display().to_string(), &text).map_err(|e| {
        miette!(
            "{}: the recorded solution would not load back: {}",
            path.display(),
            e.message
        )
    })?;
    cathedral::file::write_atomically(path, text.as_bytes(), true).map_err(FileDiagnostic::from)?;
    Ok(())
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

pub fn run(args: &BenchArgs) -> miette::Result<()> {
    // The default suite is found from anywhere: beside the sources this binary was built from.
    let built_in = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/bench");
    let dir = if args.dir == Path::new(DEFAULT_DIR) && !args.dir.exists() && built_in.exists() {
        built_in
    } else {
        args.dir.clone()
    };
    let files = position_files(&dir)?;
    let stop = ctrl_c_flag();
    // The benchmark times the exact value and its best line; the values of every root move
    // (what `solve` tabulates) are extra work it does not measure.
    let options = SolveOptions {
        root_values: false,
        ..args.search.options(stop.clone())
    };
    let style = style_for(args.color);
    let mut table = new_table(style);
    table.set_header([
        "position", "tier", "value", "stored", "check", "time", "nodes", "nodes/s", "TT hits",
    ]);
    // Per tier: solve times and the number of positions not proven within the time limit.
    let mut times: BTreeMap<Tier, (Vec<Duration>, usize)> = BTreeMap::new();
    let mut mismatches = Vec::new();
    let mut unproven = Vec::new();
    let mut recorded = Vec::new();
    for path in &files {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into(),
        );
        let file = load_position(path)?;
        let tier = Tier::of(&file.position);
        let spinner = Spinner::new(&format!("{name}: "));
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
                StoredCheck::Agrees => "ok".to_string(),
                StoredCheck::Unproven => {
                    unproven.push(name.clone());
                    "unproven".to_string()
                }
                StoredCheck::Mismatch => {
                    mismatches.push(format!(
                        "{name}: stored {}, computed {value_text}",
                        signed(s.value)
                    ));
                    "MISMATCH".to_string()
                }
            },
            (None, Some(c)) if args.record && solution.complete => {
                record(path, &solution_block(c)?)?;
                recorded.push(name.clone());
                "recorded".to_string()
            }
            (None, Some(_)) => "-".to_string(),
            (None, None) => {
                unproven.push(name.clone());
                "unproven".to_string()
            }
        };
        // A line per position as it finishes: a whole suite takes many minutes.
        if !quiet() {
            eprintln!(
                "{name}: {value_text} ({check}) in {}, {} nodes",
                time_text(solution.stats.elapsed),
                thousands(solution.stats.nodes)
            );
        }
        table.add_row(vec![
            name.clone(),
            tier.name().to_string(),
            value_text,
            stored.map_or_else(|| "-".to_string(), |s| signed(s.value)),
            check,
            time_text(solution.stats.elapsed),
            thousands(solution.stats.nodes),
            rate_text(solution.stats.nodes_per_second()),
            hit_rate_text(&solution.stats),
        ]);
        let entry = times.entry(tier).or_default();
        entry.0.push(solution.stats.elapsed);
        entry.1 += usize::from(!solution.is_exact());
    }
    right_align(&mut table, &[2, 3, 5, 6, 7, 8]);
    let mut out = format!("{table}\n\n");
    let mut tiers = new_table(style);
    tiers.set_header([
        "tier",
        "buildings left",
        "positions",
        "unproven",
        "median time",
        "max time",
    ]);
    for (tier, (mut list, unproven_count)) in times {
        let max = list.iter().max().copied().unwrap_or_default();
        tiers.add_row(vec![
            tier.name().to_string(),
            tier.range_text().to_string(),
            list.len().to_string(),
            unproven_count.to_string(),
            time_text(median(&mut list)),
            time_text(max),
        ]);
    }
    out.push_str(&format!("{tiers}\n"));
    if stop.load(Ordering::Relaxed) {
        out.push_str("Stopped by Ctrl-C: not every position was solved.\n");
    }
    if !recorded.is_empty() {
        out.push_str(&format!(
            "Recorded {}: {}\n",
            count(recorded.len() as i64, "value"),
            recorded.join(", ")
        ));
    }
    if !unproven.is_empty() {
        out.push_str(&format!(
            "Not proven within the time limit: {}\n",
            unproven.join(", ")
        ));
    }
    emit(&out)?;
    if mismatches.is_empty() {
        if stop.load(Ordering::Relaxed) {
            Err(Failure::new(Exit::Interrupted, "stopped by Ctrl-C").into())
        } else if !unproven.is_empty() {
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
