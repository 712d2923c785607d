//! The game-record reader (`file::parse_records`, what `replay`, `analyse` and `standings` call
//! on a file's text) on arbitrary text.
//!
//! Checks, besides "no panic, no hang, no runaway memory":
//! - records that load, written back by `file::records_to_yaml`, load again to the same games,
//!   and writing those gives the same text (canonical);
//! - every game that loads replays: its positions follow from its moves, and a stated result is
//!   the final position's;
//! - an error's `Display`, excerpt and offset never panic, and the offset is on a character
//!   boundary of the text.
#![no_main]

mod check_error;

use cathedral::file;
use check_error::check_error;
use libfuzzer_sys::fuzz_target;


fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match file::parse_records("fuzz.yaml", text) {
        Ok(games) => {
            for game in &games {
                let positions = game.positions();
                assert_eq!(positions.len(), game.moves.len() + 1);
            }
            let written = file::records_to_yaml(&games);
            let again = file::parse_records("written.yaml", &written).unwrap_or_else(|error| {
                panic!("the written records do not load back: {error}\n--- written:\n{written}")
            });
            assert_eq!(again, games, "the games changed on the way back:\n{written}");
            assert_eq!(file::records_to_yaml(&again), written, "writing is not canonical");
        }
        Err(error) => check_error(&error),
    }
});
