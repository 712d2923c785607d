//! Development tool: re-detects the themes, rating and level of every puzzle in a directory
//! after a solver change, and rewrites the files whose detected themes changed (the solver may
//! return another, equally good best line, and themes are read from that line). Values, best
//! moves and margins are only checked, never rewritten: a change there is a bug.
//! `cargo run --release --features tools --example retheme_dev -- puzzles/teaching`, then
//! `cathedral index puzzles/teaching`.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a tool run by hand: a failure should stop it with what went wrong"
)]

use cathedral::file::{load, to_yaml};
use cathedral::legality::parse_move;
use cathedral::puzzle::{AnalyseOptions, Features, analyse};
use std::time::Duration;

fn main() {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "puzzles/teaching".into());
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| fail(&format!("{dir}: {e}")))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    paths.sort();
    for path in paths {
        let name = path.display().to_string();
        let mut file = load(&path).unwrap_or_else(|e| fail(&format!("{e}")));
        let (Some(puzzle), Some(stored)) = (file.puzzle.clone(), file.solution.clone()) else {
            continue;
        };
        let options = AnalyseOptions {
            margin: puzzle.margin,
            time_limit: Duration::from_secs(120),
            max_nodes: u64::MAX,
            ..AnalyseOptions::default()
        };
        let analysis = analyse(&file.position, &options)
            .unwrap_or_else(|r| fail(&format!("{name} is no longer a puzzle: {r}")));
        let best = stored
            .best_move
            .as_deref()
            .and_then(|m| parse_move(&file.position, m).ok());
        if analysis.value != stored.value
            || best.map(|b| b.placement()) != Some(analysis.best_move.placement())
        {
            fail(&format!("{name}: the value or the best move changed"));
        }
        let themes: Vec<String> = analysis
            .themes
            .iter()
            .map(|t| t.name().to_string())
            .collect();
        if themes == puzzle.themes {
            continue;
        }
        let features = Features {
            nodes: puzzle.effort.unwrap_or(analysis.features.nodes),
            ..analysis.features
        };
        let difficulty = features.difficulty().name().to_string();
        let lead = analysis.themes.first().map_or("Endgame", |t| t.title());
        let title = file.meta.title.clone().unwrap_or_default();
        let new_title = match title.split_once(": ") {
            Some((stem, _)) => format!("{stem}: {lead} ({difficulty})"),
            None => title.clone(),
        };
        println!(
            "{name}: themes {:?} -> {themes:?}, rating {:?} -> {}, {} -> {difficulty}, title {title:?} -> {new_title:?}",
            puzzle.themes,
            puzzle.rating,
            features.rating(),
            puzzle.difficulty
        );
        let info = file.puzzle.as_mut().expect("checked above");
        info.themes = themes;
        info.rating = Some(features.rating());
        info.difficulty = difficulty;
        file.meta.title = Some(new_title);
        std::fs::write(&path, to_yaml(&file)).unwrap_or_else(|e| fail(&format!("{name}: {e}")));
    }
}

fn fail(message: &str) -> ! {
    eprintln!("{message}");
    std::process::exit(1);
}
