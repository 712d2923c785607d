//! The learned evaluation's whole training in one command: the data, the networks of each
//! generation and the final fine-tuning, in the order the committed weights were made
//! (`docs/engine.md`, "How it was trained").
//!
//! `cargo run --release --features train --example train_network -- DIR [--scale F] [--plan]`
//!
//! Runs these stages, each writing one file in DIR (created if missing):
//!
//! 1. `gen1.txt`: exact values of the positions with at most 8 buildings in the larger hand of
//!    6,000 policy games (seed 41; `examples/eval_data.rs`).
//! 2. `net1.txt`: a network trained on them (60 epochs, 32-32; `examples/train_eval.rs`).
//! 3. `gen2.txt`: 900 policy games of seed 43, their positions with 9 to 13 buildings labelled by
//!    the estimating search at 100,000 nodes with `net1.txt` judging up to 8 buildings (it knows
//!    nothing earlier), the linear features beyond.
//! 4. `net2.txt`: a network trained afresh on both files (60 epochs).
//! 5. `engine-exact.txt` and 6. `engine-search.txt`: the engine's own games with `net2.txt`
//!    (seed 201: 2 to 6 policy moves, then 30,000 nodes a move for both sides), exact values up
//!    to 8 buildings (640 games) and the search's estimates at 100,000 nodes from 9 to 13 (768).
//! 7. `gen1-896.txt`: the positions of `gen1.txt`'s first 896 games, so that what the network
//!    knew of policy games stays.
//! 8. `network.txt`: `net2.txt` fine-tuned on files 5, 6 and 7 (10 epochs at a tenth of the
//!    rate, the Huber loss 1 square wide).
//!
//! Each stage is skipped when its file is complete (a `.done` file beside it says so), and a
//! labelling stage that was interrupted goes on after its last finished batch of 64 games, so an
//! interrupted run loses at most one batch. Nothing else in DIR is touched, and nothing outside
//! it: `network.txt` is installed by copying it over `src/cathedral/engine/network.txt` once it
//! has earned its place (the commands to measure it are printed at the end).
//!
//! `--scale F` multiplies every number of games by F (at least one batch each): `--scale 0.02`
//! runs the whole pipeline in a few minutes, to try it, with networks that know little.
//! `--plan` prints the stages' commands and does nothing.
//!
//! The stages run the two examples as programs (built first with `cargo build`, so the one
//! command is all it takes), with everything they print shown. The networks train on the CPU
//! (candle): a GPU is not needed. On 2 cores the whole run takes about an hour and a half, most
//! of it labelling (stage 1 took 1,790 s when last run whole, on 27 November 2026; on 29
//! November stage 3 took 1,117 s, partly beside a CI run, stages 5 and 6 695 and 847 s, the
//! three trainings 226, 136 and 8 s; `docs/engine.md`).

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Games per batch of `eval_data`: a labelling file grows a batch at a time.
const BATCH: u64 = 64;

/// One stage of the pipeline: the file it writes and how.
struct Stage {
    output: &'static str,
    what: &'static str,
    step: Step,
}

enum Step {
    /// `eval_data OUT games SEED MAX-LEFT MAX-NODES first-game REST...`: `games` before
    /// scaling, `before` the three arguments before `first-game` (which the pipeline sets when
    /// it goes on), `rest` those after it.
    Label {
        games: u64,
        before: [&'static str; 3],
        rest: Vec<String>,
    },
    /// `train_eval OUT ARGS...`.
    Train { args: Vec<String> },
    /// The labels of `from` whose game is below `games` (before scaling), its header kept.
    Head { from: &'static str, games: u64 },
}

fn fail(message: impl std::fmt::Display) -> ! {
    eprintln!("train_network: {message}");
    std::process::exit(2)
}

fn strings(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

fn stages() -> Vec<Stage> {
    vec![
        Stage {
            output: "gen1.txt",
            what: "exact values, policy games, at most 8 buildings",
            step: Step::Label {
                games: 6000,
                before: ["41", "8", "1000000"],
                rest: Vec::new(),
            },
        },
        Stage {
            output: "net1.txt",
            what: "generation 1's network",
            step: Step::Train {
                args: strings(&[
                    "gen1.txt", "--epochs", "60", "--hidden", "32,32", "--seed", "1", "--lr",
                    "0.003",
                ]),
            },
        },
        Stage {
            output: "gen2.txt",
            what: "the search's estimates with generation 1's network, 9 to 13 buildings",
            step: Step::Label {
                games: 900,
                before: ["43", "13", "0"],
                rest: strings(&["9", "100000", "search", "policy", "network:net1.txt:8"]),
            },
        },
        Stage {
            output: "net2.txt",
            what: "generations 1 and 2's network",
            step: Step::Train {
                args: strings(&[
                    "gen1.txt", "gen2.txt", "--epochs", "60", "--hidden", "32,32", "--seed", "1",
                    "--lr", "0.003",
                ]),
            },
        },
        Stage {
            output: "engine-exact.txt",
            what: "exact values, the engine's own games, at most 8 buildings",
            step: Step::Label {
                games: 640,
                before: ["201", "8", "1000000"],
                rest: strings(&["0", "0", "search", "engine:30000", "network:net2.txt"]),
            },
        },
        Stage {
            output: "engine-search.txt",
            what: "the search's estimates, the engine's own games, 9 to 13 buildings",
            step: Step::Label {
                games: 768,
                before: ["201", "13", "1000000"],
                rest: strings(&["9", "100000", "search", "engine:30000", "network:net2.txt"]),
            },
        },
        Stage {
            output: "gen1-896.txt",
            what: "generation 1's first 896 games",
            step: Step::Head {
                from: "gen1.txt",
                games: 896,
            },
        },
        Stage {
            output: "network.txt",
            what: "the final network: generation 2's fine-tuned on the engine's games",
            step: Step::Train {
                args: strings(&[
                    "gen1-896.txt",
                    "engine-exact.txt",
                    "engine-search.txt",
                    "--epochs",
                    "10",
                    "--hidden",
                    "32,32",
                    "--seed",
                    "1",
                    "--lr",
                    "0.0003",
                    "--huber",
                    "1",
                    "--init",
                    "net2.txt",
                ]),
            },
        },
    ]
}

struct Options {
    dir: PathBuf,
    scale: f64,
    plan: bool,
}

fn options() -> Options {
    let usage = "usage: train_network DIR [--scale F] [--plan]";
    let mut args = std::env::args().skip(1);
    let (mut dir, mut scale, mut plan) = (None, 1.0, false);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--scale" => {
                scale = args
                    .next()
                    .and_then(|s| s.parse::<f64>().ok())
                    .filter(|&f| f > 0.0 && f <= 10.0)
                    .unwrap_or_else(|| fail("--scale: expected a factor above 0, at most 10"))
            }
            "--plan" => plan = true,
            _ if arg.starts_with("--") => fail(format!("unknown option {arg}; {usage}")),
            _ if dir.is_none() => dir = Some(PathBuf::from(arg)),
            _ => fail(format!("one DIR only; {usage}")),
        }
    }
    let dir = dir.unwrap_or_else(|| fail(usage));
    Options { dir, scale, plan }
}

/// `games` scaled, at least one batch.
fn scaled(games: u64, scale: f64) -> u64 {
    ((games as f64 * scale).round() as u64).max(BATCH.min(games))
}

/// The game to go on from in a labelling file `eval_data` was writing: the batch after the last
/// game it holds (batches are written whole), or `None` when it holds no label yet.
fn resume_point(path: &Path) -> Option<u64> {
    let file = std::fs::File::open(path).ok()?;
    let mut last = None;
    for line in std::io::BufReader::new(file).lines() {
        let line = line.unwrap_or_else(|e| fail(format!("{}: {e}", path.display())));
        let game = match line.strip_prefix("# game ") {
            Some(rest) => rest.split(' ').next(),
            None if line.starts_with('#') => None,
            None => line.split(' ').next(),
        };
        if let Some(g) = game.and_then(|g| g.parse::<u64>().ok()) {
            last = Some(last.map_or(g, |l: u64| l.max(g)));
        }
    }
    last.map(|g| (g / BATCH + 1) * BATCH)
}

/// The examples' programs, beside this one's (built by `cargo build` first).
fn program(name: &str) -> PathBuf {
    let me = std::env::current_exe().unwrap_or_else(|e| fail(format!("where am I? {e}")));
    me.with_file_name(format!("{name}{}", std::env::consts::EXE_SUFFIX))
}

fn build_tools() {
    // `cargo run` tells its program which cargo it is; the profile is the one this was built in.
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let release = !cfg!(debug_assertions);
    let mut command = Command::new(cargo);
    command.args(["build", "--features", "train", "--example", "eval_data"]);
    command.args(["--example", "train_eval"]);
    if release {
        command.arg("--release");
    }
    run(&mut command, "building eval_data and train_eval");
}

fn run(command: &mut Command, what: &str) {
    let status = command
        .status()
        .unwrap_or_else(|e| fail(format!("{what}: cannot start {command:?}: {e}")));
    if !status.success() {
        fail(format!("{what}: {command:?} failed ({status})"));
    }
}

/// The command of `stage`, run in DIR, going on from `first` for a labelling stage.
fn command(stage: &Stage, scale: f64, first: u64) -> Option<Command> {
    match &stage.step {
        Step::Label {
            games,
            before,
            rest,
        } => {
            let mut command = Command::new(program("eval_data"));
            command
                .arg(stage.output)
                .arg(scaled(*games, scale).to_string())
                .args(before)
                .arg(first.to_string())
                .args(rest);
            Some(command)
        }
        Step::Train { args } => {
            let mut command = Command::new(program("train_eval"));
            command.arg(stage.output).args(args);
            Some(command)
        }
        Step::Head { .. } => None,
    }
}

/// Writes the labels of `from` whose game is below `games`: policy games, so no `# game` lines.
fn head(dir: &Path, from: &str, games: u64, output: &str) -> std::io::Result<usize> {
    let text = std::fs::read_to_string(dir.join(from))?;
    let mut out = std::io::BufWriter::new(std::fs::File::create(dir.join(output))?);
    let mut kept = 0;
    for line in text.lines() {
        let game = line.split(' ').next().and_then(|g| g.parse::<u64>().ok());
        match game {
            None if line.starts_with('#') => writeln!(out, "{line}")?,
            Some(g) if g < games => {
                writeln!(out, "{line}")?;
                kept += 1;
            }
            _ => {}
        }
    }
    out.flush()?;
    Ok(kept)
}

fn main() {
    let options = options();
    let dir = &options.dir;
    let stages = stages();
    if options.plan {
        println!("# in {}", dir.display());
        for stage in &stages {
            match command(stage, options.scale, 0) {
                Some(command) => println!("{command:?}  # {}", stage.what),
                None => println!("# {}: {}", stage.output, stage.what),
            }
        }
        return;
    }
    std::fs::create_dir_all(dir).unwrap_or_else(|e| fail(format!("{}: {e}", dir.display())));
    build_tools();
    let started = std::time::Instant::now();
    for (n, stage) in stages.iter().enumerate() {
        let output = dir.join(stage.output);
        let done = dir.join(format!("{}.done", stage.output));
        let name = format!("stage {} of {}, {}", n + 1, stages.len(), stage.output);
        if done.exists() {
            eprintln!("{name}: done before, kept");
            continue;
        }
        eprintln!(
            "{name}: {} ({:.0} s so far)",
            stage.what,
            started.elapsed().as_secs_f64()
        );
        match &stage.step {
            Step::Label { .. } => {
                let first = resume_point(&output).unwrap_or_else(|| {
                    // Nothing labelled yet: a header alone is written again.
                    if output.exists() {
                        std::fs::remove_file(&output)
                            .unwrap_or_else(|e| fail(format!("{}: {e}", output.display())));
                    }
                    0
                });
                if first > 0 {
                    eprintln!("{name}: going on from game {first}");
                }
                let mut command = command(stage, options.scale, first).expect("a program");
                run(command.current_dir(dir), &name);
            }
            Step::Train { .. } => {
                if output.exists() {
                    fail(format!(
                        "{} exists without {}: a training that was stopped? Remove it to train again",
                        output.display(),
                        done.display()
                    ));
                }
                let mut command = command(stage, options.scale, 0).expect("a program");
                run(command.current_dir(dir), &name);
            }
            Step::Head { from, games } => {
                let kept = head(dir, from, scaled(*games, options.scale), stage.output)
                    .unwrap_or_else(|e| fail(format!("{name}: {e}")));
                eprintln!("{name}: {kept} positions");
            }
        }
        std::fs::write(&done, format!("{:.0} s\n", started.elapsed().as_secs_f64()))
            .unwrap_or_else(|e| fail(format!("{}: {e}", done.display())));
    }
    let network = dir.join("network.txt");
    println!(
        "trained: {} ({:.0} s). To measure it against the committed network:\n  \
         cathedral accuracy puzzles/accuracy --nodes 1000000 --weights {0}\n  \
         cathedral match --a engine:weights={0} --b engine --nodes 100000 --games 400 --sprt 0,50 --sprt-on pairs\n\
         and, once it has earned its place, copy it over src/cathedral/engine/network.txt.",
        network.display(),
        started.elapsed().as_secs_f64()
    );
}
