//! `cathedral sample`: late positions from policy or engine games, written as position files by
//! tier.

use super::shared::exit::{Exit, Failure};
use super::shared::input::FileDiagnostic;
use super::shared::limits;
use super::shared::output::{emit_json, emit_text};
use super::shared::search::ctrl_c_flag;
use cathedral::Rules;
use cathedral::file::{self, PositionFile};
use cathedral::present::words::count;
use cathedral::sampler::{Band, Players, Sample, Tier, buildings_left, sample_each};
use miette::{IntoDiagnostic, WrapErr, miette};
use serde::Serialize;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

#[derive(clap::Args, Debug)]
pub struct SampleArgs {
    /// Number of positions.
    #[arg(long, default_value = "10", value_parser = limits::count)]
    pub count: usize,
    /// Buildings left per player: t3 (up to 3), t5 (4-5), t7 (6-7), t8 (8-9), t10 (10), t12 (11-12).
    #[arg(
        long,
        required_unless_present = "buildings",
        conflicts_with = "buildings"
    )]
    pub tier: Option<Tier>,
    /// Exactly this many buildings left per player (1 to 13), instead of a tier: files `bNN-*.yaml`.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=13))]
    pub buildings: Option<u32>,
    /// Who plays the games: `policy` (fast, varied) or `engine` (the engine against itself at
    /// full strength with --nodes per move, after two policy moves).
    #[arg(long, default_value = "policy", value_parser = ["policy", "engine"])]
    pub players: String,
    /// Nodes per engine move (with --players engine), 1000 to 10000000.
    #[arg(long, default_value = "20000", value_parser = clap::value_parser!(u64).range(1000..=10_000_000))]
    pub nodes: u64,
    /// The engine's level (with --players engine), 1 to 10: each level below 10 halves the nodes
    /// and adds noise.
    #[arg(long, default_value = "10", value_parser = clap::value_parser!(u8).range(1..=10))]
    pub level: u8,
    /// Seed of the games; the same seed gives the same positions.
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
    /// Print the files written as JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// One written position, as `--json` reports it.
#[derive(Serialize)]
struct WrittenSample {
    file: String,
    to_move: &'static str,
    buildings_left: u32,
    game_seed: String,
    ply: usize,
}

/// The whole run, as `--json` reports it.
#[derive(Serialize)]
struct SampleReport {
    files: Vec<WrittenSample>,
    wanted: usize,
    games: u64,
    interrupted: bool,
}

impl SampleArgs {
    fn band(&self) -> Band {
        match (self.tier, self.buildings) {
            (Some(tier), _) => Band::Tier(tier),
            (None, Some(n)) => Band::Buildings(n),
            // clap requires one of the two.
            (None, None) => Band::Tier(Tier::T10),
        }
    }
}

pub fn run(args: &SampleArgs) -> miette::Result<()> {
    let band = args.band();
    // Numbers padded to the widest one (at least two digits), so that the files sort in order.
    let width = (args.first + args.count - 1).to_string().len().max(2);
    let names: Vec<PathBuf> = (0..args.count)
        .map(|i| {
            args.output
                .join(format!("{}-{:0width$}.yaml", band.name(), args.first + i))
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
    let stop = ctrl_c_flag();
    let mut written: Vec<WrittenSample> = Vec::new();
    let mut failure: Option<miette::Report> = None;
    // Each position is written as soon as it is found, so that an interrupted run keeps them.
    let summary = sample_each(
        args.rules,
        band,
        args.seed,
        args.count,
        players(args),
        &stop,
        &mut |sample| {
            let path = &names[written.len()];
            let result = write_sample(sample, path, args).and_then(|w| {
                if !args.json {
                    emit_text(&format!(
                        "Wrote {} ({} to move, {} left, ply {})\n",
                        w.file,
                        w.to_move,
                        count(i64::from(w.buildings_left), "building"),
                        w.ply
                    ))?;
                }
                Ok(w)
            });
            match result {
                Ok(w) => {
                    written.push(w);
                    ControlFlow::Continue(())
                }
                Err(e) => {
                    failure = Some(e);
                    ControlFlow::Break(())
                }
            }
        },
    );
    if let Some(failure) = failure {
        return Err(failure);
    }
    let interrupted = stop.load(Ordering::Relaxed);
    if args.json {
        emit_json(&SampleReport {
            files: written,
            wanted: args.count,
            games: summary.games,
            interrupted,
        })?;
    }
    if interrupted {
        return Err(Failure::new(
            Exit::Interrupted,
            format!(
                "stopped by Ctrl-C: {} of {} written",
                summary.found,
                count(args.count as i64, "position")
            ),
        )
        .into());
    }
    if summary.found < args.count {
        return Err(miette!(
            help = "try another --seed, tier or number of buildings",
            "found only {} of {} in {}",
            count(summary.found as i64, "position"),
            match band {
                Band::Tier(tier) => format!("tier {tier}"),
                other => other.to_string(),
            },
            count(summary.games as i64, "game")
        ));
    }
    Ok(())
}

fn players(args: &SampleArgs) -> Players {
    if args.players == "engine" {
        Players::Engine {
            nodes: args.nodes,
            level: args.level,
        }
    } else {
        Players::Policy
    }
}

/// Writes one sampled position as a position file.
fn write_sample(sample: &Sample, path: &Path, args: &SampleArgs) -> miette::Result<WrittenSample> {
    let position = sample.position;
    let stem = path
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let left = buildings_left(&position);
    let rules = args.rules.preset_name().unwrap_or("custom");
    let mut file = PositionFile::from_position(position);
    file.meta.title = Some(format!(
        "Endgame {stem}: {} to move, {} left per player",
        position.to_move().title(),
        count(left, "building")
    ));
    let band = args.band();
    let (tag, band_flag) = match band {
        Band::Tier(tier) => ("bench", format!("--tier {tier}")),
        Band::Buildings(n) => ("accuracy", format!("--buildings {n}")),
    };
    file.meta.tags = vec![tag.to_string(), band.name()];
    file.meta.source = Some(match players(args) {
        Players::Policy => format!(
            "cathedral sample {band_flag} --seed {} --rules {rules}: policy game seed {:#018x}, ply {}",
            args.seed, sample.game_seed, sample.ply
        ),
        Players::Engine { nodes, level } => {
            let level = if level == 10 {
                String::new()
            } else {
                format!(" --level {level}")
            };
            format!(
                "cathedral sample {band_flag} --players engine --nodes {nodes}{level} --seed {} --rules {rules}: engine game seed {:#018x}, ply {}",
                args.seed, sample.game_seed, sample.ply
            )
        }
    });
    std::fs::create_dir_all(&args.output)
        .into_diagnostic()
        .wrap_err_with(|| format!("cannot create {}", args.output.display()))?;
    file::save(path, &file, args.force).map_err(FileDiagnostic::from)?;
    Ok(WrittenSample {
        file: path.display().to_string(),
        to_move: position.to_move().name(),
        buildings_left: left,
        game_seed: format!("{:#018x}", sample.game_seed),
        ply: sample.ply,
    })
}
