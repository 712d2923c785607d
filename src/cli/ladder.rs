//! `cathedral ladder`: measures the ladder of levels (`src/cathedral/engine/ladder.rs`) in Elo.
//! The greedy player against level 1, the random player against level 1, and each level against
//! the next, all as `cathedral match` plays them (pairs with colours swapped, seeded openings);
//! the ratings chained up from the greedy player at 0, with 95 % intervals.

use super::ColorArg;
use super::shared::exit::{Exit, Failure};
use super::shared::limits;
use super::shared::output::{emit_json, emit_text, new_table, pairs_bar, style_for};
use super::shared::search::ctrl_c_flag;
use cathedral::Position;
use cathedral::Rules;
use cathedral::arena::chain::{Rating, Step, step};
use cathedral::arena::{
    Budget, BuiltIn, BuiltInPlayer, Contestant, MatchOptions, PairResult, Schedule, run_match,
};
use cathedral::engine::ladder::LADDER;
use serde::Serialize;
use std::sync::atomic::Ordering;

#[derive(clap::Args, Debug)]
pub struct LadderArgs {
    /// Games of each match: an even number, played in pairs with colours swapped.
    #[arg(long, default_value = "200", value_name = "N", value_parser = limits::even_games)]
    pub games: usize,
    /// Nodes per move of level 10 (the levels below have budgets of their own, which this caps).
    #[arg(long, default_value = "200000", value_name = "N", value_parser = limits::budget)]
    pub nodes: u64,
    /// Seeds the openings and the players' choices.
    #[arg(long, default_value = "1", value_name = "S")]
    pub seed: u64,
    /// Pairs played at once (each game uses one core).
    #[arg(long, default_value = "1", value_name = "N", value_parser = limits::threads)]
    pub jobs: usize,
    /// Table memory per engine in MiB.
    #[arg(long, default_value = "16", value_name = "N", value_parser = limits::table_mib)]
    pub tt_mb: usize,
    /// Measure only the levels up to this one (the matches above it are not played).
    #[arg(long, default_value = "10", value_name = "LEVEL", value_parser = limits::level)]
    pub up_to: u8,
    /// Print the results as JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub color: ColorArg,
}

/// One match of the ladder and what it measured.
#[derive(Serialize)]
struct Measured {
    a: String,
    b: String,
    pairs: usize,
    /// A's Elo over B; null after a sweep.
    step: Option<Step>,
    seconds: f64,
}

/// One row of the ladder's table.
#[derive(Serialize)]
struct Row {
    player: String,
    summary: String,
    /// Elo over the greedy player; null where a sweep broke the chain.
    rating: Option<Rating>,
}

#[derive(Serialize)]
struct LadderJson<'a> {
    nodes: u64,
    games: usize,
    seed: u64,
    matches: &'a [Measured],
    ladder: &'a [Row],
}

fn engine(level: u8) -> BuiltIn {
    BuiltIn::engine(level)
}

fn name(player: BuiltIn) -> String {
    match player {
        BuiltIn::Engine { level, .. } => format!("level {level}"),
        other => other.to_string(),
    }
}

pub fn run(args: &LadderArgs) -> miette::Result<()> {
    let top = args.up_to;
    let mut schedule = vec![(BuiltIn::Greedy, engine(1)), (BuiltIn::Random, engine(1))];
    schedule.extend((1..top).map(|level| (engine(level), engine(level + 1))));
    let stop = ctrl_c_flag();
    let options = MatchOptions {
        rules: Rules::CLASSIC,
        seed: args.seed,
        opening_plies: 2,
        clock: None,
    };
    let budget = Budget::Nodes(args.nodes);
    let pairs = args.games / 2;
    let mut measured: Vec<Measured> = Vec::new();
    for (a, b) in schedule {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let bar = pairs_bar(pairs);
        bar.set_message(format!("{} against {}", name(a), name(b)));
        let make = || -> Result<[Box<dyn Contestant<Position>>; 2], String> {
            Ok([
                Box::new(BuiltInPlayer::new(a, budget, args.tt_mb)),
                Box::new(BuiltInPlayer::new(b, budget, args.tt_mb)),
            ])
        };
        let on_pair = |_: &PairResult<Position>, _: &[PairResult<Position>], _: Option<&_>| {
            bar.inc(1);
            Ok(())
        };
        let run = run_match(
            &make,
            &options,
            Schedule {
                pairs,
                jobs: args.jobs,
                sprt: None,
            },
            &stop,
            &on_pair,
        )
        .map_err(|e| miette::miette!("{e}"))?;
        bar.finish_and_clear();
        if let Some(message) = run.failure {
            return Err(Failure::new(Exit::Input, message).into());
        }
        let scores: Vec<f64> = run.pairs.iter().map(PairResult::a_score).collect();
        let result = Measured {
            a: name(a),
            b: name(b),
            pairs: run.pairs.len(),
            step: step(&scores),
            seconds: run.elapsed.as_secs_f64(),
        };
        if !args.json {
            emit_text(&format!("{}\n", match_line(&result)))?;
        }
        measured.push(result);
    }
    let rows = chain(&measured, top);
    if args.json {
        emit_json(&LadderJson {
            nodes: args.nodes,
            games: args.games,
            seed: args.seed,
            matches: &measured,
            ladder: &rows,
        })?;
    } else {
        emit_text(&table_text(&rows, args))?;
    }
    if stop.load(Ordering::Relaxed) {
        return Err(Failure::new(
            Exit::Interrupted,
            format!(
                "stopped by Ctrl-C after {} of {} matches",
                measured.len(),
                top + 1
            ),
        )
        .into());
    }
    Ok(())
}

/// `level 3 against level 4: 100 pairs, A scores 38.0 %, -85 ± 70 Elo (41 s)`.
fn match_line(m: &Measured) -> String {
    let result = match &m.step {
        Some(s) => format!(
            "A scores {:.1} %, {:+.0} ± {:.0} Elo",
            100.0 * s.score,
            s.elo,
            1.96 * s.error
        ),
        None => "every pair went one way: no finite Elo".to_string(),
    };
    format!(
        "{} against {}: {} pairs, {result} ({:.0} s)",
        m.a, m.b, m.pairs, m.seconds
    )
}

/// The ratings: greedy at 0, level 1 from its match with greedy, random from its match with
/// level 1, and each level from the one below.
fn chain(measured: &[Measured], top: u8) -> Vec<Row> {
    let find = |a: &str, b: &str| {
        measured
            .iter()
            .find(|m| m.a == a && m.b == b)
            .and_then(|m| m.step)
    };
    let mut rows = vec![
        Row {
            player: "random".into(),
            summary: "a uniformly random legal move".into(),
            rating: find("random", "level 1")
                .zip(find("greedy", "level 1"))
                .map(|(random, greedy)| Rating::ANCHOR.above(&greedy).below(&random)),
        },
        Row {
            player: "greedy".into(),
            summary: "its biggest building where it claims the most".into(),
            rating: Some(Rating::ANCHOR),
        },
    ];
    let mut below = find("greedy", "level 1").map(|s| Rating::ANCHOR.above(&s));
    for rung in LADDER.iter().take(usize::from(top)) {
        if rung.level > 1 {
            let previous = format!("level {}", rung.level - 1);
            below = below
                .zip(find(&previous, &format!("level {}", rung.level)))
                .map(|(r, s)| r.above(&s));
        }
        rows.push(Row {
            player: format!("level {}", rung.level),
            summary: rung.summary.into(),
            rating: below,
        });
    }
    rows
}

fn table_text(rows: &[Row], args: &LadderArgs) -> String {
    let mut table = new_table(style_for(args.color));
    table.set_header(["player", "plays as", "Elo over greedy (95 %)"]);
    for row in rows {
        table.add_row(vec![
            row.player.clone(),
            row.summary.clone(),
            match row.rating {
                Some(r) if r == Rating::ANCHOR => "0 (the anchor)".to_string(),
                Some(r) => r.text(),
                None => "beyond measure (a sweep)".to_string(),
            },
        ]);
    }
    format!(
        "\n{} games a match, level 10 at {} nodes a move, seed {}\n{table}\n",
        args.games, args.nodes, args.seed
    )
}
