//! `cathedral sample`: late positions from policy games, written as position files by tier.

use super::shared::input::FileDiagnostic;
use super::shared::limits;
use super::shared::output::emit;
use cathedral::Rules;
use cathedral::analysis::words::count;
use cathedral::file::{self, PositionFile};
use cathedral::sampler::{Tier, buildings_left, sample};
use miette::{IntoDiagnostic, WrapErr, miette};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct SampleArgs {
    /// Number of positions.
    #[arg(long, default_value = "10", value_parser = limits::count)]
    pub count: usize,
    /// Buildings left per player: t3 (up to 3), t5 (4-5), t7 (6-7), t8 (8 or more).
    #[arg(long)]
    pub tier: Tier,
    /// Seed of the policy games; the same seed gives the same positions.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Rules preset: classic or moore1978.
    #[arg(long, default_value = "classic")]
    pub rules: Rules,
    /// Directory to write TIER-NN.yaml files into (created if missing).
    #[arg(short, long, value_name = "DIR")]
    pub output: PathBuf,
    /// Number of the first file.
    #[arg(long, default_value = "1", value_parser = limits::first)]
    pub first: usize,
    /// Overwrite existing files.
    #[arg(long)]
    pub force: bool,
}

pub fn run(args: &SampleArgs) -> miette::Result<()> {
    // Numbers padded to the widest one (at least two digits), so that the files sort in order.
    let width = (args.first + args.count - 1).to_string().len().max(2);
    let names: Vec<PathBuf> = (0..args.count)
        .map(|i| {
            args.output.join(format!(
                "{}-{:0width$}.yaml",
                args.tier.name(),
                args.first + i
            ))
        })
        .collect();
    if !args.force {
        let existing: Vec<String> = names
            .iter()
            .filter(|p| p.exists())
            .map(|p| p.display().to_string())
            .collect();
        if !existing.is_empty() {
            return Err(miette!(
                help =
                    "pass --force to overwrite them, or --first to number the new files after them",
                "not overwriting existing files: {}",
                existing.join(", ")
            ));
        }
    }
    let samples = sample(args.rules, args.tier, args.seed, args.count);
    if samples.len() < args.count {
        return Err(miette!(
            help = "try another --seed or tier",
            "found only {} positions of tier {} in {} games",
            samples.len(),
            args.tier,
            args.count * 50
        ));
    }
    std::fs::create_dir_all(&args.output)
        .into_diagnostic()
        .wrap_err_with(|| format!("cannot create {}", args.output.display()))?;
    let rules = args.rules.preset_name().unwrap_or("custom");
    let mut out = String::new();
    for (sample, path) in samples.iter().zip(&names) {
        let position = sample.position;
        let stem = path
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
        let left = buildings_left(&position);
        let mut file = PositionFile::from_position(position);
        file.meta.title = Some(format!(
            "Endgame {stem}: {} to move, {} left per player",
            position.to_move().title(),
            count(left, "building")
        ));
        file.meta.tags = vec!["bench".to_string(), args.tier.name().to_string()];
        file.meta.source = Some(format!(
            "cathedral sample --tier {} --seed {} --rules {rules}: policy game seed {:#018x}, ply {}",
            args.tier, args.seed, sample.game_seed, sample.ply
        ));
        file::save(path, &file, args.force).map_err(FileDiagnostic::from)?;
        out.push_str(&format!(
            "Wrote {} ({} to move, {left} buildings left, ply {})\n",
            path.display(),
            position.to_move(),
            sample.ply
        ));
    }
    emit(&out)
}
