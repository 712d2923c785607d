//! `cathedral match`: engine-vs-engine games in pairs with colours swapped, the statistics of the
//! match, and every game written as a record.

use super::ColorArg;
use super::shared::exit::{Exit, Failure};
use super::shared::game::with_game;
use super::shared::limits;
use super::shared::output::{
    emit_json, emit_text, new_table, pairs_bar, refuse_overwrite, style_for, wrap_for_terminal,
};
use super::shared::search::ctrl_c_flag;
use crate::protocol::ExternalEngine;
use cathedral::arena::{
    self, Budget, BuiltIn, BuiltInPlayer, Contestant, MatchGame, MatchOptions, MatchRun,
    MatchSummary, PairResult, PlayedGame, Schedule, Sprt, run_match, summarize,
};
use cathedral::boardgame::Clock;
use cathedral::present::words::count;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct MatchArgs {
    /// Player A: random, policy, greedy, engine, engine:level=N,nodes=N,time=T, or cmd:COMMAND
    /// (a program speaking the engine protocol, e.g. "cmd:./my-engine --flag").
    #[arg(long, value_name = "SPEC")]
    pub a: String,
    /// Player B, as for --a.
    #[arg(long, value_name = "SPEC")]
    pub b: String,
    /// Games to play: an even number, played in pairs with colours swapped (with --sprt, the
    /// most to play).
    #[arg(long, default_value = "20", value_name = "N", value_parser = limits::even_games)]
    pub games: usize,
    /// Stop as soon as a sequential probability ratio test on the pairs decides between H0 (A
    /// is ELO0 stronger) and H1 (A is ELO1 stronger), like `--sprt 0,10` (docs/engine.md).
    #[arg(long, value_name = "ELO0,ELO1", value_parser = limits::elo_bounds)]
    pub sprt: Option<(f64, f64)>,
    /// What the SPRT counts: `games`, each game of a pair won, drawn or lost (pentanomial), or
    /// `pairs`, each pair won, drawn or lost by the two games' total score, as the Elo of the
    /// summary is (better where the seat decides most games, as in Cathedral).
    #[arg(
        long,
        value_enum,
        default_value = "games",
        value_name = "WHAT",
        requires = "sprt"
    )]
    pub sprt_on: SprtOn,
    /// The SPRT's false positive rate: accepting H1 when H0 holds.
    #[arg(long, default_value = "0.05", value_name = "P", requires = "sprt", value_parser = limits::error_rate)]
    pub alpha: f64,
    /// The SPRT's false negative rate: accepting H0 when H1 holds.
    #[arg(long, default_value = "0.05", value_name = "P", requires = "sprt", value_parser = limits::error_rate)]
    pub beta: f64,
    /// Time per move for engines without a budget of their own: seconds, or 500ms, 2s.
    #[arg(long, default_value = "1", value_name = "SECS", value_parser = limits::positive_seconds)]
    pub time: Duration,
    /// Nodes per move instead of a time: the games are the same on every machine.
    #[arg(long, value_name = "N", value_parser = limits::budget)]
    pub nodes: Option<u64>,
    /// A game clock instead of a time per move, BASE+INCREMENT (60+1, 2m+500ms): each side's
    /// time for a game and what each move adds back; engines share it out, and a side whose
    /// clock runs out loses the game on time.
    #[arg(long, value_name = "BASE+INC", value_parser = limits::clock, conflicts_with_all = ["nodes", "time"])]
    pub clock: Option<Clock>,
    /// Seeds the openings and the players' random choices.
    #[arg(long, default_value = "1", value_name = "S")]
    pub seed: u64,
    /// Seeded opening plies before the players take over (the same for both games of a pair).
    #[arg(long, default_value = "2", value_name = "K", value_parser = opening_plies)]
    pub opening_plies: usize,
    /// Rule variant: classic or moore1978.
    #[arg(long, default_value = "classic")]
    pub rules: String,
    /// Pairs played at once (each game uses one core).
    #[arg(long, default_value = "1", value_name = "N", value_parser = limits::threads)]
    pub jobs: usize,
    /// Table memory per built-in engine in MiB.
    #[arg(long, default_value = "16", value_name = "N", value_parser = limits::table_mib)]
    pub tt_mb: usize,
    /// Folder for the game records (created; must be empty unless --force).
    #[arg(short, long, value_name = "DIR")]
    pub output: Option<PathBuf>,
    /// Write into a folder that already holds files.
    #[arg(long)]
    pub force: bool,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
    /// The game: `corintho` for Corintho (two players; its built-in players are random and
    /// engine).
    #[arg(long, value_enum, value_name = "GAME")]
    pub game: Option<super::GameName>,
    #[command(flatten)]
    pub color: ColorArg,
}

/// What the SPRT counts of a pair.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtOn {
    /// Each game's result: a pair scores 0 to 4 half-points.
    Games,
    /// The pair's result by the total score: 0, 2 or 4 half-points.
    Pairs,
}

fn opening_plies(text: &str) -> Result<usize, String> {
    let plies = limits::depth(text)? as usize;
    Ok(plies)
}

/// A player as given on the command line.
#[derive(Clone, Debug)]
enum Spec {
    BuiltIn(BuiltIn),
    Command(String),
}

fn read_spec(option: &str, text: &str) -> miette::Result<Spec> {
    if let Some(command) = text.strip_prefix("cmd:") {
        if command.trim().is_empty() {
            return Err(
                Failure::new(Exit::Usage, format!("{option}: `cmd:` needs a command")).into(),
            );
        }
        return Ok(Spec::Command(command.to_string()));
    }
    text.parse()
        .map(Spec::BuiltIn)
        .map_err(|e| Failure::new(Exit::Usage, format!("{option}: {e}")).into())
}

fn contestant<G: MatchGame>(
    spec: &Spec,
    budget: Budget,
    tt_mb: usize,
) -> Result<Box<dyn Contestant<G>>, String> {
    Ok(match spec {
        Spec::BuiltIn(kind) => {
            G::plays(kind)?;
            Box::new(BuiltInPlayer::new(*kind, budget, tt_mb))
        }
        Spec::Command(command) => Box::new(ExternalEngine::start(command, budget)?),
    })
}

#[derive(Serialize)]
#[serde(bound = "")]
struct MatchJson<'a, G: MatchGame> {
    summary: &'a MatchSummary<G>,
    seconds: f64,
    games_per_minute: f64,
    interrupted: bool,
    records: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sprt: Option<&'a Sprt>,
    pairs: &'a [PairResult<G>],
}

pub fn run(args: &MatchArgs) -> miette::Result<()> {
    let game = args.game.unwrap_or(super::GameName::Cathedral);
    with_game!(game, G => play_match::<G>(args))
}

fn play_match<G: MatchGame>(args: &MatchArgs) -> miette::Result<()> {
    let rules = G::match_rules(&args.rules).map_err(|e| {
        Failure::new(
            Exit::Usage,
            format!("invalid value '{}' for '--rules <RULES>': {e}", args.rules),
        )
    })?;
    let a = read_spec("--a", &args.a)?;
    let b = read_spec("--b", &args.b)?;
    let budget = match (args.nodes, args.clock) {
        (Some(n), _) => Budget::Nodes(n),
        (None, Some(clock)) => Budget::Clock(clock),
        (None, None) => Budget::Time(args.time),
    };
    if let Some(dir) = &args.output {
        prepare_folder(dir, args.force)?;
    }
    // Start each side once to check that it runs, and to learn its name.
    let names = [&a, &b]
        .iter()
        .map(|spec| {
            contestant::<G>(spec, budget, 1)
                .map(|c| c.name())
                .map_err(|e| Failure::new(Exit::Input, e))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let options = MatchOptions {
        rules,
        seed: args.seed,
        opening_plies: args.opening_plies,
        clock: args.clock,
    };
    let pairs = args.games / 2;
    let sprt = match args.sprt {
        Some((elo0, elo1)) => Some((
            Sprt::new(elo0, elo1, args.alpha, args.beta)
                .map_err(|e| Failure::new(Exit::Usage, format!("--sprt: {e}")))?,
            match args.sprt_on {
                SprtOn::Games => arena::SprtOn::Games,
                SprtOn::Pairs => arena::SprtOn::Pairs,
            },
        )),
        None => None,
    };
    let stop = ctrl_c_flag();
    let bar = pairs_bar(pairs);
    let make = || -> Result<[Box<dyn Contestant<G>>; 2], String> {
        Ok([
            contestant::<G>(&a, budget, args.tt_mb)?,
            contestant::<G>(&b, budget, args.tt_mb)?,
        ])
    };
    let on_pair = |result: &PairResult<G>, done: &[PairResult<G>], sprt: Option<&Sprt>| {
        if let Some(dir) = &args.output {
            write_records(dir, result)?;
        }
        let mut line = result.line();
        if let Some(sprt) = sprt {
            // Its own line: the pair's line stays within 80 columns.
            line.push_str(&format!("{:11}{}\n", "", sprt.ratio_text()));
        }
        let summary = summarize(&names[0], &names[1], done);
        bar.set_message(format!("A scores {:.0} %", 100.0 * summary.pair_score));
        bar.inc(1);
        if !args.json {
            bar.suspend(|| {
                let _ = emit_text(&line);
            });
        }
        Ok(())
    };
    let schedule = Schedule {
        pairs,
        jobs: args.jobs,
        sprt,
    };
    let run = run_match(&make, &options, schedule, &stop, &on_pair)
        .map_err(|e| miette::miette!("{e}"))?;
    bar.finish_and_clear();
    if let Some(message) = run.failure {
        return Err(Failure::new(Exit::Input, message).into());
    }
    let MatchRun {
        pairs: results,
        sprt,
        elapsed,
        ..
    } = run;
    let summary = summarize(&names[0], &names[1], &results);
    let interrupted = stop.load(Ordering::Relaxed);
    let games_per_minute = 2.0 * results.len() as f64 / elapsed.as_secs_f64().max(1e-9) * 60.0;
    if args.json {
        emit_json(&MatchJson {
            summary: &summary,
            seconds: elapsed.as_secs_f64(),
            games_per_minute,
            interrupted,
            records: args.output.as_ref().map(|d| d.display().to_string()),
            sprt: sprt.as_ref(),
            pairs: &results,
        })?;
    } else {
        if let Some(sprt) = &sprt {
            emit_text(&format!(
                "\n{}\n",
                wrap_for_terminal(&sprt.text(), "", "  ")
            ))?;
        }
        emit_text(&summary_text(
            &summary,
            args,
            budget,
            elapsed,
            games_per_minute,
        ))?;
    }
    if interrupted {
        return Err(Failure::new(
            Exit::Interrupted,
            format!(
                "stopped by Ctrl-C after {} of {}",
                results.len(),
                count(pairs as i64, "pair")
            ),
        )
        .into());
    }
    Ok(())
}

fn prepare_folder(dir: &Path, force: bool) -> miette::Result<()> {
    if dir.exists() {
        let holds_files = std::fs::read_dir(dir)
            .map_err(|e| miette::miette!("cannot read {}: {e}", dir.display()))?
            .next()
            .is_some();
        if holds_files && !force {
            return Err(refuse_overwrite(dir));
        }
    } else {
        std::fs::create_dir_all(dir)
            .map_err(|e| miette::miette!("cannot create {}: {e}", dir.display()))?;
    }
    Ok(())
}

/// Both games of a pair as one record file (`docs/game-record.md`).
fn write_records<G: MatchGame>(dir: &Path, pair: &PairResult<G>) -> Result<(), String> {
    let path = dir.join(format!("pair-{:04}.yaml", pair.pair));
    let records: Vec<_> = pair.games.iter().map(PlayedGame::record).collect();
    cathedral::file::write_atomically(&path, G::records_text(&records).as_bytes(), true)
        .map_err(|e| e.to_string())
}

fn summary_text<G: MatchGame>(
    summary: &MatchSummary<G>,
    args: &MatchArgs,
    budget: Budget,
    elapsed: Duration,
    games_per_minute: f64,
) -> String {
    let style = style_for(args.color);
    let mut table = new_table(style);
    table.set_header(["", "wins", "draws", "losses"]);
    for (label, tally) in [
        ("pairs (A's view)".to_string(), summary.pair_results),
        (
            format!("games with A as {}", G::SEATS[0]),
            summary.by_seat[0],
        ),
        (
            format!("games with A as {}", G::SEATS[1]),
            summary.by_seat[1],
        ),
    ] {
        table.add_row(vec![
            label,
            tally.wins.to_string(),
            tally.draws.to_string(),
            tally.losses.to_string(),
        ]);
    }
    let budget = match budget {
        Budget::Clock(_) => format!("{budget} each"),
        _ => format!("{budget} per move"),
    };
    let mut out = format!(
        "\nA: {}\nB: {}\n{}, {budget}, seed {}, {}\n{table}\n",
        summary.a,
        summary.b,
        count(summary.pairs as i64, "pair"),
        args.seed,
        match args.opening_plies {
            1 => "1 seeded opening ply".to_string(),
            n => format!("{n} seeded opening plies"),
        }
    );
    out.push_str(&format!(
        "A's pair score: {:.1} %; A's margin {:+.2} {} per game\n",
        100.0 * summary.pair_score,
        summary.mean_margin,
        G::UNIT[1]
    ));
    out.push_str(&format!("Elo of A over B: {}\n", summary.elo.text()));
    if summary.forfeits != (0, 0) {
        out.push_str(&format!(
            "Forfeits: A {}, B {}\n",
            summary.forfeits.0, summary.forfeits.1
        ));
    }
    out.push_str(&format!(
        "{} games in {:.1} s ({games_per_minute:.1} games per minute)\n",
        2 * summary.pairs,
        elapsed.as_secs_f64()
    ));
    if let Some(dir) = &args.output {
        out.push_str(&format!("Records in {}\n", dir.display()));
    }
    out
}
