//! The integration tests, gathered into one test binary: each file of `tests/` is a module here,
//! so the library's generic code is compiled and linked once for all of them instead of once per
//! file (`docs/performance.md`, "The test build"). `tests/layers.rs` fails when a test file is
//! not named here. Run one file's tests with `cargo test --test integration perft::`.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test that fails should panic with what it found"
)]

mod common;

mod accuracy;
mod analyse;
mod bench_values;
mod cli;
mod cli_solve;
mod conventions;
mod corintho;
mod corintho_cli;
mod corintho_records;
mod engine;
mod exit_codes;
mod file_format;
mod fuzz_regressions;
mod layers;
mod network;
mod notation;
mod oracle;
mod palette;
mod parser_fuzz;
mod perft;
mod play;
mod properties;
mod protocol;
mod puzzle_cli;
mod puzzle_collection;
mod puzzle_rating;
mod puzzle_refutation;
mod puzzles;
mod puzzles_from_games;
mod record_cli;
mod records;
mod release;
mod render;
mod rule_cases;
mod sheet;
mod solver_exact;
mod sprt;
mod study;
mod svg;
mod table_growth;
mod territory;
mod toy_game;
mod tracked_files;
mod web_api;
