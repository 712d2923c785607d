//! The position-file loader (`file::parse_str`, what the CLI calls on a file's text; puzzle files
//! with `puzzle:` and `solution:` blocks go through the same path) on arbitrary text.
//!
//! Checks, besides "no panic, no hang, no runaway memory":
//! - a loaded file written back by `file::to_yaml` loads again, to the same position and the same
//!   file (metadata, ruling, puzzle, solution);
//! - an error's `Display`, excerpt and offset never panic, and the offset is on a character
//!   boundary of the text (the CLI slices the text there);
//! - bytes that are not UTF-8 are refused by `file::load_from` (the standard-input path).
#![no_main]

mod check_error;

use cathedral::file;
use check_error::check_error;
use libfuzzer_sys::fuzz_target;


fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        // Not text: the reader of standard input refuses it, located at the first bad byte.
        match file::load_from("<stdin>", data) {
            Ok(loaded) => panic!("bytes that are not UTF-8 loaded: {loaded:?}"),
            Err(error) => check_error(&error),
        }
        return;
    };
    match file::parse_str("fuzz.yaml", text) {
        Ok(loaded) => {
            let written = file::to_yaml(&loaded);
            let again = file::parse_str("written.yaml", &written).unwrap_or_else(|error| {
                panic!("the written file does not load back: {error}\n--- written:\n{written}")
            });
            assert_eq!(
                again.position, loaded.position,
                "the position changed on the way back:\n{written}"
            );
            assert_eq!(again, loaded, "the file changed on the way back:\n{written}");
        }
        Err(error) => check_error(&error),
    }
});
