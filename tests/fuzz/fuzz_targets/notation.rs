//! The move notation (`notation::MoveText`, `legality::parse_move`) on arbitrary text: one move,
//! and a line of moves separated by whitespace played one after the other.
//!
//! Checks, besides "no panic, no hang":
//! - a move that parses, written back (`Display`), parses to the same `MoveText`, and that text
//!   is canonical (writing it again gives the same text);
//! - a move that resolves in a position is one of the position's legal moves, and its canonical
//!   text (`format_move`, `format_move_with_player`) resolves to the same move;
//! - a line that plays from a position, written by `format_line`, replays to the same moves and
//!   the same final position;
//! - every error's `Display` works.
#![no_main]

use cathedral::legality::parse_move;
use cathedral::notation::{MoveText, format_line, format_move, format_move_with_player};
use cathedral::{Move, MoveList, Position, Rules, file};
use libfuzzer_sys::fuzz_target;
use std::sync::LazyLock;

/// Positions of every rule variant: the starts, a midgame, an endgame, optional capture
/// (`/spare:`), voluntary passing, `first_move: no-enclosure` and Lehmann-Woods (the start, and
/// Light to place the Cathedral after Dark's first building).
static POSITIONS: LazyLock<Vec<Position>> = LazyLock::new(|| {
    let files = [
        include_str!("../../../puzzles/examples/midgame.yaml"),
        include_str!("../../../puzzles/examples/endgame.yaml"),
        include_str!("../../../puzzles/rules/16-optional-capture-declined.yaml"),
        include_str!("../../../puzzles/rules/19-voluntary-pass.yaml"),
        include_str!("../../../puzzles/rules/22-no-enclosure-first-move-refused.yaml"),
        include_str!("../../../puzzles/rules/30-lehmann-woods-cathedral-before-light-building.yaml"),
    ];
    let mut positions = vec![
        Position::new(Rules::CLASSIC),
        Position::new(Rules::MOORE_1978),
        Position::new(Rules::LEHMANN_WOODS),
    ];
    for text in files {
        positions.push(file::parse_str("seed.yaml", text).expect("a bundled file").position);
    }
    positions
});

fn check_legal(position: &Position, mv: Move, text: &str) {
    let mut legal = MoveList::new();
    position.legal_moves(&mut legal);
    assert!(legal.contains(mv), "`{text}` resolved to {mv:?}, not a legal move");
    for written in [format_move(position, mv), format_move_with_player(position, mv)] {
        assert_eq!(
            parse_move(position, &written),
            Ok(mv),
            "`{text}` resolved to {mv:?}, written `{written}`"
        );
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };

    // One move, as written.
    match text.parse::<MoveText>() {
        Ok(parsed) => {
            let written = parsed.to_string();
            let again: MoveText = written.parse().unwrap_or_else(|e| {
                panic!("`{text}` was read, but its text `{written}` is refused: {e}")
            });
            assert_eq!(again, parsed, "`{text}` written `{written}`");
            assert_eq!(again.to_string(), written);
        }
        Err(error) => {
            let _ = error.to_string();
        }
    }

    for position in POSITIONS.iter() {
        // One move, checked against the position.
        match parse_move(position, text) {
            Ok(mv) => check_legal(position, mv, text),
            Err(error) => {
                let _ = error.to_string();
            }
        }

        // A line: moves separated by whitespace, played in turn until one is refused.
        let mut current = *position;
        let mut line = Vec::new();
        for word in text.split_whitespace() {
            match parse_move(&current, word) {
                Ok(mv) => {
                    check_legal(&current, mv, word);
                    line.push(mv);
                    current.play(mv);
                }
                Err(error) => {
                    let _ = error.to_string();
                    break;
                }
            }
        }
        let written = format_line(position, &line);
        assert_eq!(written.len(), line.len());
        let mut replay = *position;
        for (word, &mv) in written.iter().zip(&line) {
            assert_eq!(parse_move(&replay, word), Ok(mv), "line {written:?}");
            replay.play(mv);
        }
        assert_eq!(replay, current, "line {written:?}");
    }
});
