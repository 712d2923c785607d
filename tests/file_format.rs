//! Position files: loading, round trips and every kind of bad input.

use cathedral::file::{load, parse_str, to_yaml};
use cathedral::{Piece, Player, Position, Rules};
use std::path::Path;

fn error_of(text: &str) -> cathedral::file::FileError {
    match parse_str("bad.yaml", text) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e,
    }
}

/// Asserts the error names the file, the line, and says `needle`.
fn assert_error(text: &str, line: Option<usize>, needle: &str) {
    let error = error_of(text);
    let shown = error.to_string();
    assert!(shown.starts_with("bad.yaml"), "no file name: {shown}");
    assert!(shown.contains(needle), "expected `{needle}` in: {shown}");
    assert_eq!(error.line, line, "wrong line in: {shown}");
    if line.is_some() {
        assert!(error.column.is_some(), "no column: {shown}");
        assert!(shown.contains(" | "), "no excerpt: {shown}");
    }
}

const BASE: &str = "rules: classic\nto_move: light\ncathedral: [e4, e5, d6, e6, f6, e7]\n";

#[test]
fn bundled_examples_load_and_round_trip() {
    let mut count = 0;
    for entry in std::fs::read_dir("puzzles/examples").expect("examples folder") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "yaml") {
            let file = load(&path).unwrap_or_else(|e| panic!("{e}"));
            let text = to_yaml(&file);
            let again = parse_str("again.yaml", &text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(again, file, "{}", path.display());
            assert_eq!(to_yaml(&again), text);
            count += 1;
        }
    }
    assert!(count >= 4);
}

#[test]
fn diagram_form_reads_buildings() {
    let file = load(Path::new("puzzles/examples/diagram.yaml")).unwrap_or_else(|e| panic!("{e}"));
    let position = file.position;
    let bridge = position
        .buildings()
        .find(|b| b.owner == Some(Player::Dark) && b.piece == Piece::Bridge)
        .expect("dark bridge");
    assert_eq!(bridge.cells.to_string(), "b1,b2,b3");
    assert_eq!(position.cathedral().to_string(), "d6,e4,e5,e6,e7,f6");
    assert_eq!(position.to_move(), Player::Light);
    assert_eq!(position.side(Player::Light).hand.count(Piece::Inn), 1);
}

#[test]
fn defaults_fill_hands_first_moves_and_territory() {
    // Dark walls off a1 with a Stable and a Tavern... b1,b2 + a2: the corner a1 is Dark's.
    let text = format!(
        "{BASE}dark:\n  buildings:\n  - stable: [b1, b2]\n  - tavern: [a2]\nlight:\n  buildings:\n  - inn: [i9, i10, j9]\n"
    );
    let file = parse_str("t.yaml", &text).unwrap_or_else(|e| panic!("{e}"));
    let position = file.position;
    assert_eq!(position.side(Player::Dark).territory.to_string(), "a1");
    assert_eq!(position.side(Player::Light).territory.to_string(), "j10");
    assert!(position.side(Player::Dark).first_move_made);
    assert_eq!(position.side(Player::Dark).hand.count(Piece::Tavern), 1);
    assert_eq!(position.unplaced_squares(Player::Dark), 47 - 3);
    assert_eq!(position.rules(), Rules::CLASSIC);
}

#[test]
fn an_empty_file_is_the_start_of_a_game() {
    let file = parse_str("t.yaml", "title: start\n").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(file.position, Position::new(Rules::CLASSIC));
}

#[test]
fn yaml_syntax_errors_are_located() {
    assert_error(
        "rules: classic\nto_move: [light\n",
        Some(2),
        "expected string",
    );
    assert_error(
        "rules: classic\nlight: {buildings: [\n",
        Some(2),
        "unclosed bracket",
    );
    assert_error("rules: classic\n  to_move: light\n", Some(2), "");
}

#[test]
fn unknown_fields_are_refused() {
    assert_error("rules: classic\ntomove: light\n", Some(2), "tomove");
}

#[test]
fn unknown_piece_names_are_refused() {
    let text = format!("{BASE}dark:\n  buildings:\n  - church: [a1]\n");
    assert_error(&text, Some(6), "`church` is not a building");
}

#[test]
fn cells_off_the_board_are_refused() {
    let text = format!("{BASE}dark:\n  buildings:\n  - stable: [a10, a11]\n");
    assert_error(&text, Some(6), "`a11` is not a cell");
    let text = format!("{BASE}dark:\n  territory: [k1]\n");
    assert_error(&text, Some(5), "`k1` is not a cell");
}

#[test]
fn wrong_shapes_name_the_piece_and_the_expected_shape() {
    let text = format!("{BASE}dark:\n  buildings:\n  - inn: [a1, a2, a3]\n");
    assert_error(
        &text,
        Some(6),
        "Dark's Inn at a1,a2,a3 does not have its shape",
    );
    // Light's Abbey drawn the Dark way: a mirror image, which is not allowed.
    let text = format!("{BASE}light:\n  buildings:\n  - abbey: [a2, b2, b1, c1]\n");
    assert_error(&text, Some(6), "mirror image");
}

#[test]
fn overlapping_buildings_are_refused() {
    let text = format!("{BASE}dark:\n  buildings:\n  - stable: [a1, a2]\n  - tavern: [a2]\n");
    assert_error(&text, Some(7), "overlaps Dark's Stable at a2");
    let text = format!("{BASE}dark:\n  buildings:\n  - tavern: [e5]\n");
    assert_error(&text, Some(6), "Dark's Tavern overlaps the Cathedral at e5");
}

#[test]
fn more_buildings_than_the_set_holds_are_refused() {
    let text = format!(
        "{BASE}dark:\n  buildings:\n  - tavern: [a1]\n  - tavern: [c1]\n  - tavern: [j1]\n"
    );
    assert_error(&text, Some(8), "a set holds only 2");
    let text = format!("{BASE}dark:\n  buildings:\n  - tavern: [a1]\n  hand: {{tavern: 2}}\n");
    assert_error(&text, Some(7), "a set holds only 2");
}

#[test]
fn territory_on_a_building_is_refused() {
    let text = format!("{BASE}dark:\n  buildings:\n  - tavern: [a1]\n  territory: [a1, a2]\n");
    assert_error(&text, Some(7), "covered by a building");
}

#[test]
fn territory_of_both_players_is_refused() {
    let text = format!("{BASE}dark:\n  territory: [a1]\nlight:\n  territory: [a1]\n");
    assert_error(&text, Some(5), "territory of both players");
}

#[test]
fn a_region_the_rules_would_have_captured_is_refused() {
    // Dark walls in Light's Tavern at a1 and Dark moved last (Light to move).
    let text = format!(
        "{BASE}dark:\n  buildings:\n  - stable: [b1, b2]\n  - stable: [a3, b3]\nlight:\n  buildings:\n  - tavern: [a1]\n  - inn: [i9, i10, j9]\n"
    );
    assert_error(&text, None, "would already have captured it");
    // With Dark to move the capture is still to come: accepted.
    let pending = text.replace("to_move: light", "to_move: dark");
    assert!(parse_str("ok.yaml", &pending).is_ok());
}

#[test]
fn bad_diagrams_are_refused() {
    let board =
        |rows: &str, legend: &str| format!("to_move: light\nboard: |\n{rows}legend:\n{legend}");
    let empty_row = "  . . . . . . . . . .\n";
    let nine = empty_row.repeat(9);
    assert_error(&board(&nine, "  A: dark tavern\n"), Some(3), "has 9 rows");
    let ten_bad = format!("{}  . . . . . . . . .\n", empty_row.repeat(9));
    assert_error(&board(&ten_bad, "  A: dark tavern\n"), Some(12), "has 9");
    let unknown = format!("{}  A . . . . . . . . .\n", empty_row.repeat(9));
    assert_error(
        &board(&unknown, "  B: dark tavern\n"),
        Some(14),
        "label `B` is in the legend but not on the board",
    );
    assert_error(
        &board(&unknown, "  A: dark church\n"),
        Some(14),
        "`church` is not a building",
    );
}

#[test]
fn bad_rules_and_states_are_refused() {
    assert_error("rules: chess\n", Some(1), "`chess` is not a rule variant");
    assert_error(
        "rules: {capture: sometimes}\n",
        Some(1),
        "`sometimes` is not a value of `capture`",
    );
    assert_error(
        "to_move: blue\ncathedral: [e4, e5, d6, e6, f6, e7]\n",
        Some(1),
        "not a player",
    );
    assert_error(
        "cathedral: to-place\ndark:\n  buildings:\n  - tavern: [a1]\n",
        Some(1),
        "before any building",
    );
    assert_error("cathedral: somewhere\n", Some(1), "not a Cathedral state");
}
