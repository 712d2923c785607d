//! Every legal move's canonical text reads back as the same move.

use cathedral::file::load;
use cathedral::legality::parse_move;
use cathedral::notation::{format_move, format_move_with_player};
use cathedral::{MoveList, Position, Rules};
use std::path::Path;

fn assert_round_trip(position: &Position) -> usize {
    let mut list = MoveList::new();
    position.legal_moves(&mut list);
    for &mv in list.as_slice() {
        for text in [
            format_move(position, mv),
            format_move_with_player(position, mv),
        ] {
            let back = parse_move(position, &text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(back, mv, "{text}");
        }
    }
    list.len()
}

#[test]
fn canonical_moves_read_back() {
    let mut checked = assert_round_trip(&Position::new(Rules::CLASSIC));
    for path in [
        "puzzles/examples/midgame.yaml",
        "puzzles/examples/endgame.yaml",
    ] {
        let file = load(Path::new(path)).unwrap_or_else(|e| panic!("{e}"));
        checked += assert_round_trip(&file.position);
    }
    // Optional capture: moves that spare a building carry `/spare:`.
    let file = load(Path::new("puzzles/rules/16-optional-capture-declined.yaml"))
        .unwrap_or_else(|e| panic!("{e}"));
    let spare_moves = {
        let mut list = MoveList::new();
        file.position.legal_moves(&mut list);
        list.iter().filter(|m| !m.spared().is_empty()).count()
    };
    assert!(spare_moves > 0, "no sparing move generated");
    checked += assert_round_trip(&file.position);
    assert!(checked > 1000, "only {checked} moves checked");
}

#[test]
fn error_example_in_the_file_format_doc_is_real() {
    let text = "rules: classic\nto_move: light\ncathedral: [e4, e5, d6, e6, f6, e7]\ndark:\n  buildings:\n  - inn: [a1, a2, a3]\n";
    let error = cathedral::file::parse_str("bad.yaml", text).expect_err("wrong shape");
    let shown = error.to_string();
    let doc = std::fs::read_to_string("docs/file-format.md").expect("doc");
    assert!(
        doc.contains(&shown),
        "docs/file-format.md should show:\n{shown}"
    );
}
