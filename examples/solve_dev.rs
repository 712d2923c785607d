//! Development driver for the solver: `cargo run --release --features tools --example solve_dev -- FILE [threads]
//! [wdl] [noroot] [t=SECS] [n=MAX_NODES] [mb=TABLE_MIB] [g=FIXED_ESTIMATE | est]`.

use cathedral::boardgame::engine::estimator;
use cathedral::boardgame::{Estimator, SolveOptions, solve};
use cathedral::file::load;
use std::path::Path;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!(
            "usage: solve_dev FILE [threads] [wdl] [noroot] [t=SECS] [n=NODES] [mb=MIB] [g=N | est]"
        );
        std::process::exit(2);
    };
    let file = match load(Path::new(path)) {
        Ok(file) => file,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let options = SolveOptions {
        threads: args.get(2).and_then(|t| t.parse().ok()).unwrap_or(1),
        wdl: args.iter().any(|a| a == "wdl"),
        root_values: !args.iter().any(|a| a == "noroot"),
        tt_mb: args
            .iter()
            .find_map(|a| a.strip_prefix("mb="))
            .and_then(|m| m.parse().ok())
            .unwrap_or(256),
        time_limit: args
            .iter()
            .find_map(|a| a.strip_prefix("t="))
            .and_then(|t| t.parse().ok())
            .map(std::time::Duration::from_secs_f64),
        // g=N: a fixed estimate N; est: the engine's.
        estimate: match args.iter().find_map(|a| a.strip_prefix("g=")) {
            Some(g) => g.parse::<i32>().ok().map(|g| Estimator::new(move |_| g)),
            None => args
                .iter()
                .any(|a| a == "est")
                .then(|| estimator(&file.position)),
        },
        max_nodes: args
            .iter()
            .find_map(|a| a.strip_prefix("n="))
            .and_then(|n| n.parse().ok()),
        ..SolveOptions::default()
    };
    let solution = solve(&file.position, &options, &|p| {
        eprintln!(
            "  {} nodes, {:.1?}, [{}, {}]",
            p.nodes, p.elapsed, p.lower, p.upper
        )
    });
    let s = &solution.stats;
    println!(
        "value [{}, {}] complete={} nodes={} time={:.3}s nps={:.0} per thread, tt hits {}/{} threads={} unwinds={}",
        solution.lower,
        solution.upper,
        solution.complete,
        s.nodes,
        s.elapsed.as_secs_f64(),
        s.nodes as f64 / s.elapsed.as_secs_f64() / s.threads as f64,
        s.tt_hits,
        s.tt_probes,
        s.threads,
        s.unwinds
    );
    println!("line: {:?}", solution.best_line);
    for m in solution.root_moves.iter().take(5) {
        println!("  {:?} [{}, {}]", m.mv, m.lower, m.upper);
    }
}
