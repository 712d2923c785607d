//! Position files: loading, round trips and every kind of bad input.

use cathedral::file::{load, parse_str, to_yaml};
use cathedral::{Piece, Player, Position, Rules};
use std::path::Path;
use std::time::{Duration, Instant};

use crate::common;

use common::LEAKS;

use common::{cathedral, stdout_of};

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
        "not valid YAML: unclosed bracket",
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

// ---------------------------------------------------------------------------------------------
// Parser wording: every message in the file format's terms, at the offending token.

/// Panics if `shown` holds a word of the parser, of serde or of Rust.
fn assert_no_leak(shown: &str) {
    let words: Vec<&str> = shown
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .collect();
    for leak in LEAKS {
        let leaked = if leak.contains(' ') {
            shown.contains(leak)
        } else {
            words.contains(&leak)
        };
        assert!(!leaked, "`{leak}` leaks into: {shown}");
    }
}

/// Asserts the error is at `line`:`column` and says `needle`, in the file format's words.
fn assert_located(text: &str, line: usize, column: usize, needle: &str) {
    let error = error_of(text);
    let shown = error.to_string();
    assert!(shown.contains(needle), "expected `{needle}` in: {shown}");
    assert_eq!(
        (error.line, error.column),
        (Some(line), Some(column)),
        "wrong place in: {shown}"
    );
    assert!(
        shown.starts_with(&format!("bad.yaml:{line}:{column}: ")),
        "{shown}"
    );
    assert_no_leak(&shown);
}

#[test]
fn numbers_out_of_range_are_refused_in_the_domains_words() {
    for passes in [
        "300",
        "-1",
        "1.5",
        "99999999999999999999999",
        "1e999",
        ".NaN",
    ] {
        assert_located(
            &format!("passes: {passes}\n"),
            1,
            9,
            &format!("passes: `{passes}` is not a number of passes: expected 0, 1 or 2"),
        );
    }
    assert_located(
        "passes: [1]\n",
        1,
        9,
        "passes: a list is not a number of passes: expected 0, 1 or 2",
    );
    assert_located(
        "light:\n  hand: {tavern: -1}\n",
        2,
        18,
        "light.hand: `-1` is not a number of buildings",
    );
    assert_located(
        "light:\n  hand: {tavern: 1000}\n",
        2,
        18,
        "Light would have 1000 Taverns (1000 in hand, 0 on the board), but a set holds only 2",
    );
    assert_located(
        "solution:\n  value: lots\n",
        2,
        10,
        "solution.value: `lots` is not a value: expected a whole number",
    );
    assert_located(
        "puzzle:\n  question: q\n  difficulty: easy\n  margin: [1]\nsolution: {value: 0}\n",
        4,
        11,
        "puzzle.margin: a list is not a margin",
    );
}

#[test]
fn wrong_kinds_of_values_are_refused_in_the_domains_words() {
    assert_located(
        "rules: [a, b]\n",
        1,
        8,
        "rules: a list is not a rule variant: expected a preset name (classic, moore1978, lehmann-woods, sheets) or the five options capture/pass/first_move/cathedral/claims",
    );
    assert_located(
        "rules: {capture: optional, foo: 1}\n",
        1,
        28,
        "rules: `foo` is not a rule option: expected capture, pass, first_move, cathedral or claims",
    );
    assert_located(
        "rules: {capture: [a]}\n",
        1,
        18,
        "rules.capture: a list is not a rule option's value",
    );
    assert_located(
        "light: [1, 2]\n",
        1,
        8,
        "light: a list is not a player's part: expected a map of buildings, hand, territory and first_move_made",
    );
    assert_located(
        "cathedral: {a: 1}\n",
        1,
        12,
        "cathedral: a map is not a Cathedral state: expected its cells like `[e4, e5, d6, e6, f6, e7]`, `to-place` or `gone`",
    );
    assert_located("tags: 5\n", 1, 7, "tags: `5` is not a list of tags");
    assert_located(
        "light:\n  first_move_made: maybe\n",
        2,
        20,
        "light.first_move_made: `maybe` is not true or false",
    );
    assert_located(
        "dark:\n  buildings: {stable: [a1]}\n",
        2,
        14,
        "dark.buildings: a map is not a list of buildings",
    );
    assert_located(
        "dark:\n  buildings:\n  - stable: a1\n",
        3,
        13,
        "dark.buildings: `a1` is not a list of cells",
    );
    assert_located(
        "dark:\n  buildings:\n  - [a1]\n",
        3,
        5,
        "each building is a one-entry map like `- castle: [c3, d3, e3, c4, e4]`",
    );
    assert_located(
        "to_move: [light]\n",
        1,
        10,
        "to_move: a list is not a player: expected `light` or `dark`",
    );
    assert_located("board: [a]\n", 1, 8, "board: a list is not a board diagram");
    assert_located("legend: [a]\n", 1, 9, "legend: a list is not a legend");
    assert_located(
        "ruling: {moves: a1}\n",
        1,
        17,
        "ruling.moves: `a1` is not a list of moves",
    );
    assert_located("[1, 2]\n", 1, 1, "a list is not a position");
    // A row that cannot be found in the text as written: the board itself is pointed at.
    assert_located(
        "to_move: light\nboard: \"x\\ty\"\n",
        2,
        8,
        "a board row has 10 cells (files a..j), this one has 2",
    );
    assert_located("title: [a]\n", 1, 8, "title: a list is not text");
}

#[test]
fn a_building_without_cells_is_named() {
    assert_located(
        "light:\n  buildings:\n  - tavern: []\n",
        3,
        5,
        "Light's Tavern is given no cells: expected its 1 square, like `[c3]`",
    );
    let text = "to_move: light\nboard: |\n  . . . . . . . . . .\n";
    assert_error(text, Some(3), "the board diagram has 1 row; it needs 10");
}

#[test]
fn missing_required_fields_are_named() {
    assert_located(
        "solution:\n  best_line: []\n",
        2,
        3,
        "solution: `value` is missing",
    );
    assert_located("ruling:\n  note: n\n", 2, 3, "ruling: `moves` is missing");
}

#[test]
fn unknown_and_repeated_keys_are_named() {
    assert_located(
        "rules: classic\ntomove: light\n",
        2,
        1,
        "`tomove` is not a field of a position file (did you mean `to_move`?)",
    );
    assert_located(
        "light:\n  buildngs: []\n",
        2,
        3,
        "light: `buildngs` is not a field of a player's part (did you mean `buildings`?)",
    );
    assert_located(
        "to_move: light\nto_move: dark\n",
        2,
        1,
        "the key `to_move` appears twice (first on line 1)",
    );
    assert_located(
        "light:\n  hand: {tavern: 1, tavern: 2}\n",
        2,
        21,
        "light.hand: the key `tavern` appears twice",
    );
    assert_located(
        "? [a, b]\n: c\n",
        1,
        3,
        "a list is not a field of a position file",
    );
}

#[test]
fn several_documents_are_refused() {
    assert_located(
        "title: a\n---\ntitle: b\n",
        3,
        1,
        "this file holds several YAML documents (`---` starts a new one): one position per file",
    );
}

#[test]
fn bad_cells_are_located_at_the_cell() {
    let text = format!("{BASE}dark:\n  buildings:\n  - stable: [a1, k11]\n");
    assert_located(&text, 6, 18, "`k11` is not a cell");
    let text = format!("{BASE}dark:\n  buildings:\n  - stable: [a1, a0]\n");
    assert_located(&text, 6, 18, "`a0` is not a cell");
    let text = format!("{BASE}dark:\n  buildings:\n  - stable: [a1, a1]\n");
    assert_located(&text, 6, 18, "cell a1 is listed twice");
    let text = format!("{BASE}dark:\n  buildings:\n  - stable: [a1, [a2]]\n");
    assert_located(&text, 6, 18, "a list is not a cell");
    assert_located(
        "cathedral: [e4, e5, d6, e6, f6, e77]\n",
        1,
        33,
        "`e77` is not a cell",
    );
    let text = format!("{BASE}dark:\n  territory: [a1, k1]\n");
    assert_located(&text, 5, 19, "`k1` is not a cell");
}

#[test]
fn yaml_beyond_a_position_files_needs_is_refused_in_words() {
    let deep = format!("tags: {}1{}\n", "[".repeat(40), "]".repeat(40));
    let error = error_of(&deep);
    assert!(error.to_string().contains("nested too deeply"), "{error}");
    assert_no_leak(&error.to_string());
    // One long text repeated by aliases: more text than a position file holds.
    let long = format!(
        "title: &t \"{}\"\ntags: [*t, *t, *t]\n",
        "x".repeat(400_000)
    );
    let error = error_of(&long);
    let shown = error.to_string();
    assert!(shown.contains("is too long"), "{shown}");
    assert_eq!(error.line, Some(2), "{shown}");
    assert_no_leak(&shown);
    let error = error_of("title: *nowhere\n");
    assert!(error.to_string().contains("`*nowhere`"), "{error}");
    assert_no_leak(&error.to_string());
}

#[test]
fn long_words_are_quoted_short() {
    let text = format!("cathedral: [{}]\n", "a".repeat(5000));
    let error = error_of(&text);
    assert!(error.message.contains("is not a cell"), "{error}");
    assert!(error.message.contains('…'), "{error}");
    assert!(
        error.message.len() < 200,
        "{} bytes: {error}",
        error.message.len()
    );
    let text = format!("light:\n  hand: {{{}: 1}}\n", "b".repeat(1000));
    let error = error_of(&text);
    assert!(
        error.message.len() < 200,
        "{} bytes: {error}",
        error.message.len()
    );
    assert_eq!(error.line, Some(2), "{error}");
}

#[test]
fn large_inputs_within_the_limit_are_read_quickly() {
    let start = Instant::now();
    // Many keys in one map: repeated keys are found without comparing every pair.
    let keys: Vec<String> = (0..45_000).map(|i| format!("k{i}: 1")).collect();
    let text = format!("light:\n  hand: {{{}}}\n", keys.join(", "));
    assert!(text.len() < 1 << 20);
    let error = error_of(&text);
    assert!(error.message.contains("`k0` is not a building"), "{error}");
    // Many board rows: refused at the eleventh.
    let text = format!("board: |\n{}", "  . . . . . . . . . .\n".repeat(40_000));
    assert!(text.len() < 1 << 20);
    let error = error_of(&text);
    assert!(error.message.contains("more than 10 rows"), "{error}");
    assert_eq!(error.line, Some(12), "{error}");
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
}

// ---------------------------------------------------------------------------------------------
// Input size: capped, and long lines cut in excerpts.

#[test]
fn text_over_the_size_limit_is_refused() {
    let text = format!("title: \"{}\"\n", "x".repeat(1 << 20));
    let error = error_of(&text);
    assert!(error.to_string().starts_with("bad.yaml: "), "{error}");
    assert!(error.message.contains("1 MiB"), "{error}");
    assert_eq!(error.line, None);
}

#[test]
fn endless_input_is_refused_without_reading_it_all() {
    // `repeat` never ends: only a bounded read returns.
    let error =
        cathedral::file::load_from("<stdin>", std::io::repeat(b'#')).expect_err("endless input");
    assert!(error.to_string().starts_with("<stdin>: "), "{error}");
    assert!(error.message.contains("1 MiB"), "{error}");
}

#[test]
fn a_file_over_the_size_limit_is_refused_naming_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("big.yaml");
    std::fs::write(&path, "#".repeat(2 << 20)).expect("write");
    let error = load(&path).expect_err("too big");
    let shown = error.to_string();
    assert!(shown.starts_with(&path.display().to_string()), "{shown}");
    assert!(shown.contains("1 MiB"), "{shown}");
}

#[test]
fn text_that_is_not_utf8_is_located() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("latin1.yaml");
    std::fs::write(&path, b"title: caf\xe9\n").expect("write");
    let error = load(&path).expect_err("not UTF-8");
    let shown = error.to_string();
    assert_eq!((error.line, error.column), (Some(1), Some(11)), "{shown}");
    assert!(shown.contains("not UTF-8 text"), "{shown}");
    assert_no_leak(&shown);
}

/// The excerpt's offending line and the column of its caret (in characters).
fn excerpt_line_and_caret(shown: &str) -> (String, usize) {
    let lines: Vec<&str> = shown.lines().collect();
    assert_eq!(lines.len(), 3, "message, line, caret: {shown}");
    let (_, content) = lines[1].split_once(" | ").expect("excerpt line");
    let (_, caret) = lines[2].split_once(" | ").expect("caret line");
    assert!(caret.trim_start().starts_with('^'), "{shown}");
    (content.to_string(), caret.chars().count() - 1)
}

#[test]
fn long_lines_are_cut_around_the_error_in_excerpts() {
    // The error at the end of a long line.
    let text = format!("{{title: \"{}\", passes: 300}}\n", "x".repeat(5000));
    let shown = error_of(&text).to_string();
    assert!(shown.contains("`300` is not a number of passes"), "{shown}");
    let (content, caret) = excerpt_line_and_caret(&shown);
    assert!(content.chars().count() <= 100, "not cut: {}", content.len());
    assert!(content.starts_with('…'), "{content}");
    assert_eq!(
        content.chars().skip(caret).take(3).collect::<String>(),
        "300"
    );
    // The error at the start of a long line.
    let text = format!("{{passes: 300, title: \"{}\"}}\n", "x".repeat(5000));
    let shown = error_of(&text).to_string();
    let (content, caret) = excerpt_line_and_caret(&shown);
    assert!(content.chars().count() <= 100, "not cut: {}", content.len());
    assert!(content.ends_with('…'), "{content}");
    assert_eq!(
        content.chars().skip(caret).take(3).collect::<String>(),
        "300"
    );
    // The example of docs/file-format.md is real.
    let text = format!("{{title: \"{}\", passes: 300}}\n", "x".repeat(5000));
    let shown = parse_str("long.yaml", &text)
        .expect_err("passes")
        .to_string();
    let doc = std::fs::read_to_string("docs/file-format.md").expect("doc");
    assert!(
        doc.contains(&shown),
        "docs/file-format.md should show:\n{shown}"
    );
    // Short lines are shown whole, as before.
    let shown = error_of("passes: 300\n").to_string();
    assert_eq!(
        excerpt_line_and_caret(&shown),
        ("passes: 300".to_string(), 8)
    );
}

// ---------------------------------------------------------------------------------------------
// The command line: `-` for standard input, the size limit, short excerpts.

const MIDGAME: &str = "puzzles/examples/midgame.yaml";

/// The standard error of a failing `cathedral show` run on `file`, and how long it took.
fn show_fails(file: &Path) -> (String, Duration) {
    let start = Instant::now();
    let output = cathedral()
        .arg("show")
        .arg(file)
        .assert()
        .failure()
        .get_output()
        .stderr
        .clone();
    (String::from_utf8(output).expect("utf-8"), start.elapsed())
}

#[test]
fn show_dash_reads_the_position_from_standard_input() {
    let text = std::fs::read_to_string(MIDGAME).expect("midgame");
    let from_stdin = stdout_of(cathedral().args(["show", "-"]).write_stdin(text));
    let from_file = stdout_of(cathedral().args(["show", MIDGAME]));
    assert_eq!(from_stdin, from_file);
    let from_stdin = stdout_of(
        cathedral()
            .args(["moves", "-"])
            .write_stdin(std::fs::read_to_string(MIDGAME).expect("midgame")),
    );
    assert_eq!(from_stdin, stdout_of(cathedral().args(["moves", MIDGAME])));
}

#[test]
fn errors_in_standard_input_are_named_stdin() {
    let output = cathedral()
        .args(["show", "-"])
        .write_stdin("passes: 300\n")
        .assert()
        .failure()
        .get_output()
        .stderr
        .clone();
    let stderr = String::from_utf8(output).expect("utf-8");
    assert!(
        stderr.contains("<stdin>:1:9: passes: `300` is not a number of passes"),
        "{stderr}"
    );
    let output = cathedral()
        .args(["show", "-"])
        .write_stdin("#".repeat(2 << 20))
        .assert()
        .failure()
        .get_output()
        .stderr
        .clone();
    let stderr = String::from_utf8(output).expect("utf-8");
    assert!(stderr.contains("<stdin>: "), "{stderr}");
    assert!(stderr.contains("1 MiB"), "{stderr}");
}

#[test]
fn oversized_files_are_refused_quickly() {
    let dir = tempfile::tempdir().expect("temp dir");
    let big = dir.path().join("big.yaml");
    std::fs::write(&big, "#".repeat(2 << 20)).expect("write");
    let (stderr, took) = show_fails(&big);
    assert!(stderr.contains(&big.display().to_string()), "{stderr}");
    assert!(stderr.contains("1 MiB"), "{stderr}");
    assert!(took < Duration::from_secs(10), "took {took:?}");
    // 50 MB on one line: refused without an excerpt of it.
    let line = dir.path().join("line.yaml");
    let mut text = "x".repeat(50 << 20);
    text.insert_str(0, "title: ");
    std::fs::write(&line, text).expect("write");
    let (stderr, took) = show_fails(&line);
    assert!(stderr.contains("1 MiB"), "{stderr}");
    assert!(stderr.len() < 1000, "{} bytes of error", stderr.len());
    assert!(took < Duration::from_secs(10), "took {took:?}");
}

#[cfg(unix)]
#[test]
fn an_endless_device_is_refused_quickly() {
    let (stderr, took) = show_fails(Path::new("/dev/zero"));
    assert!(stderr.contains("/dev/zero"), "{stderr}");
    assert!(stderr.contains("1 MiB"), "{stderr}");
    assert!(took < Duration::from_secs(10), "took {took:?}");
}

/// The column (in characters) of `needle` in the excerpt line holding it, and of the label's
/// marker on the next line that has one (miette draws `▲`, or `^` in ASCII).
fn label_columns(stderr: &str, needle: &str) -> (usize, usize) {
    let lines: Vec<&str> = stderr.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains(needle) && !l.contains("×") && !l.contains("Error"))
        .unwrap_or_else(|| panic!("no excerpt line with `{needle}`:\n{stderr}"));
    let column_of = |line: &str, pattern: &str| {
        let byte = line.find(pattern).expect("found");
        line[..byte].chars().count()
    };
    let marker_line = lines[at + 1..]
        .iter()
        .find(|l| l.contains('▲') || l.contains('^'))
        .unwrap_or_else(|| panic!("no marker:\n{stderr}"));
    let marker = if marker_line.contains('▲') {
        "▲"
    } else {
        "^"
    };
    (column_of(lines[at], needle), column_of(marker_line, marker))
}

#[test]
fn long_lines_are_cut_around_the_error_on_the_command_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("long.yaml");
    // Under 1 MiB, one line, the error near its end.
    let text = format!("{{title: \"{}\", passes: 300}}\n", "x".repeat(900_000));
    std::fs::write(&path, &text).expect("write");
    let (stderr, took) = show_fails(&path);
    assert!(
        stderr.contains("`300` is not a number of passes"),
        "{stderr}"
    );
    assert!(stderr.len() < 2000, "{} bytes of error", stderr.len());
    assert!(stderr.contains('…'), "{stderr}");
    let (value, marker) = label_columns(&stderr, "300}");
    assert_eq!(value, marker, "the label is not under the value:\n{stderr}");
    assert!(took < Duration::from_secs(10), "took {took:?}");
    // A short offending line next to a long one: the long one is cut too.
    let text = format!("title: \"{}\"\npasses: 300\n", "x".repeat(900_000));
    std::fs::write(&path, &text).expect("write");
    let (stderr, _) = show_fails(&path);
    assert!(stderr.len() < 2000, "{} bytes of error", stderr.len());
    let (value, marker) = label_columns(&stderr, "passes: 300");
    assert_eq!(value + "passes: ".len(), marker, "{stderr}");
    assert!(
        stderr.contains(&format!("{}:2:9", path.display())),
        "{stderr}"
    );
}

/// A t3 bench position (11 legal moves) without its `solution:` block, and its legal moves
/// with the player.
fn t3_without_solution() -> (String, Vec<String>) {
    let text = std::fs::read_to_string("puzzles/bench/t3-02.yaml").unwrap();
    let text = text[..text.find("solution:").unwrap()].to_string();
    let position = parse_str("t3.yaml", &text).unwrap().position;
    let mut list = cathedral::MoveList::default();
    position.legal_moves(&mut list);
    let moves = list
        .iter()
        .map(|&mv| cathedral::notation::format_move_with_player(&position, mv))
        .collect();
    (text, moves)
}

/// `text` with a solution whose root values are `values` (the first move best with `value`).
fn with_root_values(text: &str, value: i32, values: &[(String, i32)]) -> String {
    let mut out = format!("{text}solution:\n  value: {value}\n  seconds: 0.25\n  root_values:\n");
    for (mv, v) in values {
        out.push_str(&format!("    {mv}: {v}\n"));
    }
    out
}

#[test]
fn stored_root_values_must_name_every_legal_move_once_and_agree_with_the_value() {
    let (text, moves) = t3_without_solution();
    assert!(moves.len() >= 3, "{moves:?}");
    let values: Vec<(String, i32)> = moves
        .iter()
        .enumerate()
        .map(|(i, mv)| (mv.clone(), if i == 0 { 5 } else { -(i as i32) }))
        .collect();
    let good = with_root_values(&text, 5, &values);
    let file = parse_str("good.yaml", &good).unwrap();
    let solution = file.solution.clone().unwrap();
    assert_eq!(solution.root_values.len(), moves.len());
    assert_eq!(solution.seconds, Some(0.25));
    // Written and read back unchanged.
    let again = parse_str("again.yaml", &to_yaml(&file)).unwrap();
    assert_eq!(again.solution, file.solution);

    let lines = text.lines().count();
    // A move left out.
    assert_error(
        &with_root_values(&text, 5, &values[..values.len() - 1]),
        Some(lines + 4),
        &format!(
            "root_values has {} moves, but the position has {} legal moves",
            moves.len() - 1,
            moves.len()
        ),
    );
    // The best root value is not the value.
    assert_error(
        &with_root_values(&text, 4, &values),
        Some(lines + 2),
        "value is 4 but the best of root_values is 5",
    );
    // A move that cannot be played, located at its key.
    let mut wrong = values.clone();
    wrong[1].0 = "dark:stable:e8,f8".to_string();
    assert_error(
        &with_root_values(&text, 5, &wrong),
        Some(lines + 6),
        "root_values move `dark:stable:e8,f8` cannot be played",
    );
    // The same move twice, written two ways (with and without the player).
    let mut twice = values.clone();
    twice[1].0 = values[0].0.split_once(':').unwrap().1.to_string();
    let error = error_of(&with_root_values(&text, 5, &twice));
    assert!(
        error.to_string().contains("names the move") && error.line.is_some(),
        "{error}"
    );
    // Seconds must be a number, 0 or more.
    assert_error(
        &format!("{text}solution:\n  value: 5\n  seconds: -1\n"),
        Some(lines + 3),
        "solution.seconds: `-1` is not a time",
    );
}

#[test]
fn bounds_load_round_trip_and_are_checked_against_the_solution() {
    let (text, _) = t3_without_solution();
    let lines = text.lines().count();
    let with = |block: &str| format!("{text}{block}");
    let file = parse_str(
        "b.yaml",
        &with("bounds:\n  lower: -2\n  upper: 6\n  nodes: 1000\n  seconds: 1.5\n"),
    )
    .unwrap();
    let bounds = file.bounds.clone().unwrap();
    assert_eq!(
        (bounds.lower, bounds.upper, bounds.nodes),
        (-2, 6, Some(1000))
    );
    // Written and read back, the same file.
    let again = parse_str("again.yaml", &cathedral::file::to_yaml(&file)).unwrap();
    assert_eq!(again, file);
    // With a solution they must hold: the stored t3-02 value is 3... read it, then contradict it.
    let stored = parse_str(
        "t.yaml",
        &std::fs::read_to_string("puzzles/bench/t3-02.yaml").unwrap(),
    )
    .unwrap()
    .solution
    .unwrap()
    .value;
    let solution = format!("solution:\n  value: {stored}\n");
    assert!(
        parse_str(
            "ok.yaml",
            &with(&format!(
                "{solution}bounds:\n  lower: {stored}\n  upper: 47\n"
            ))
        )
        .is_ok()
    );
    assert_error(
        &with(&format!(
            "{solution}bounds:\n  lower: {}\n  upper: 47\n",
            stored + 1
        )),
        Some(lines + 4),
        "contradict the solution's value",
    );
    // A proven win allows every margin of 1 or more, and no loss.
    assert!(
        parse_str(
            "w.yaml",
            &with("solution:\n  value: 1\n  wdl: true\nbounds:\n  lower: -5\n  upper: 9\n")
        )
        .is_ok()
    );
    assert_error(
        &with("solution:\n  value: 1\n  wdl: true\nbounds:\n  lower: -5\n  upper: -1\n"),
        Some(lines + 5),
        "(win/draw/loss)",
    );
    assert_error(
        &with("bounds:\n  lower: 4\n  upper: 3\n"),
        Some(lines + 2),
        "lower 4 is above upper 3",
    );
    assert_error(
        &with("bounds:\n  lower: -50\n  upper: 3\n"),
        Some(lines + 2),
        "out of range",
    );
    assert_error(
        &with("bounds:\n  lower: 1\n"),
        Some(lines + 2),
        "bounds: `upper` is missing",
    );
    assert_error(
        &with("bounds:\n  lower: 1\n  upper: 2\n  seconds: soon\n"),
        Some(lines + 4),
        "bounds.seconds: `soon` is not a time",
    );
    assert_error(
        &with("bounds:\n  lower: 1\n  uper: 2\n"),
        Some(lines + 3),
        "did you mean `upper`",
    );
}

// ---------------------------------------------------------------------------------------------
// YAML syntax in the writer's words (issue 74): what is wrong in the lines as written, at the
// line of the mistake, not where the parser noticed it.

#[test]
fn a_tab_in_an_indent_is_named_at_the_tab() {
    for (text, line) in [
        ("rules: classic\nlight:\n\tbuildings: []\n", 3),
        (
            "rules: classic\nlight:\n  buildings: []\n\tterritory: [a5]\n",
            4,
        ),
    ] {
        assert_located(
            text,
            line,
            1,
            "tabs are not allowed for indentation in YAML; use spaces",
        );
    }
}

#[test]
fn a_key_indented_unlike_its_neighbours_is_named_on_its_line() {
    // More than the key above it, whose value is on its line: the parser speaks of "mapping
    // values" at the colon.
    for (text, line, column) in [
        (
            "rules: classic\nto_move: light\n  dark:\n    territory: [a1]\n",
            3,
            3,
        ),
        ("rules: classic\n to_move: light\n", 2, 2),
        (
            "rules: classic\nlight:\n  buildings: []\n   territory: [a5]\n",
            4,
            4,
        ),
        ("rules: classic\n# a comment\n\n to_move: light\n", 4, 2),
    ] {
        assert_located(
            text,
            line,
            column,
            "this line is indented more than the key above it",
        );
        assert_located(text, line, column, "indent keys of one mapping alike");
    }
    // Less than the line above it but more than the one above that.
    assert_located(
        "rules: classic\nlight:\n  buildings:\n    - stable: [a1, a2]\n   territory: [a5]\n",
        5,
        4,
        "this line is indented 3 spaces, less than line 4 above it (4 spaces) but more than line 3 (2 spaces)",
    );
    // A list item indented unlike the item above it.
    assert_located(
        "light:\n  buildings:\n    - stable: [a1, a2]\n  - tavern: [a5]\n",
        4,
        3,
        "this item is indented 2 spaces, the item above it (line 3) 4 spaces: indent the items of one list alike",
    );
}

#[test]
fn a_missing_colon_is_named_on_its_own_line() {
    // The parser notices on the next line, reading both lines as one key.
    assert_located(
        "rules classic\nto_move: light\n",
        1,
        1,
        "`rules classic` has no `:` after its key: write `rules: classic`",
    );
    assert_located(
        "rules: classic\nlight:\n  buildings []\n  territory: [a5]\n",
        3,
        3,
        "`buildings []` has no `:` after its key: write `buildings: []`",
    );
    assert_located(
        "rules: classic\nto_move light\ndark:\n  territory: [a1]\n",
        2,
        1,
        "write `to_move: light`",
    );
    assert_located(
        "title: x\nto_move:light\n",
        2,
        8,
        "a `:` after a key needs a space after it: write `to_move: light`",
    );
    assert_located("title: a: b\n", 1, 9, "a value holding `: ` must be quoted");
}

#[test]
fn a_bracket_left_open_is_named_where_it_opens() {
    assert_located(
        "rules: classic\ncathedral: [e4, e5\nto_move: light\n",
        2,
        12,
        "this `[` is never closed: end the list with `]` before line 3",
    );
    // Where the parser's own place is right, its words stay.
    assert_error(
        "rules: classic\nto_move: [light\n",
        Some(2),
        "not valid YAML: unclosed bracket",
    );
}

#[test]
fn a_caret_points_at_the_mistake() {
    let error = error_of("rules classic\nto_move: light\n");
    let shown = error.to_string();
    assert!(shown.contains("   1 | rules classic\n     | ^"), "{shown}");
    let error = error_of("rules: classic\nlight:\n\tbuildings: []\n");
    let shown = error.to_string();
    assert!(shown.contains("   3 |  buildings: []\n     | ^"), "{shown}");
}

#[test]
fn a_cell_or_move_is_not_named_twice() {
    let text = format!("{BASE}dark:\n  buildings:\n  - stable: [a1, k11]\n");
    let shown = error_of(&text).to_string();
    assert_eq!(shown.matches("`k11`").count(), 1, "{shown}");
    // A move named by its record is not named again by the reason.
    let error = cathedral::file::parse_records("game.yaml", "moves: [\"light:tavern:k11\"]\n")
        .expect_err("k11 is off the board");
    let shown = error.to_string();
    assert_eq!(shown.matches("light:tavern:k11").count(), 2, "{shown}");
    assert_eq!(shown.matches("`k11` is not a cell").count(), 1, "{shown}");
}

#[test]
fn a_move_cut_by_yaml_at_its_commas_asks_for_quotes() {
    let error = cathedral::file::parse_records("game.yaml", "moves: [light:inn:a2,b1,b2]\n")
        .expect_err("three items");
    let shown = error.to_string();
    assert!(
        shown.contains("the Inn covers 3 squares, but 1 cell is given"),
        "{shown}"
    );
    assert!(
        shown.contains("`light:inn:a2,b1,b2` became 3 items, `light:inn:a2`, `b1` and `b2`"),
        "{shown}"
    );
    assert!(shown.contains("like `\"light:inn:a2,b1,b2\"`"), "{shown}");
    assert_eq!(error.line, Some(1), "{shown}");
    // A one-square piece is played whole: the cell after it is the move that fails.
    let error = cathedral::file::parse_records(
        "game.yaml",
        "moves: [\"cathedral:e4,e5,d6,e6,f6,e7\", dark:tavern:a1,b2]\n",
    )
    .expect_err("three items");
    let shown = error.to_string();
    assert!(shown.starts_with("game.yaml:1:"), "{shown}");
    assert!(shown.contains("move 3 (`b2`)"), "{shown}");
    assert!(shown.contains("like `\"dark:tavern:a1,b2\"`"), "{shown}");
    // Quoted, or one move a line, it is one move.
    for text in [
        "moves: [\"cathedral:e4,e5,d6,e6,f6,e7\", \"dark:inn:a2,b1,b2\"]\n",
        "moves:\n- cathedral:e4,e5,d6,e6,f6,e7\n- dark:inn:a2,b1,b2\n",
    ] {
        let games =
            cathedral::file::parse_records("game.yaml", text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(games[0].moves.len(), 2);
    }
    // Cells after a move that is fine, on lines of their own, are not a cut move.
    let error = cathedral::file::parse_records(
        "game.yaml",
        "moves:\n- cathedral:e4,e5,d6,e6,f6,e7\n- b2\n",
    )
    .expect_err("b2 is no move");
    assert!(!error.to_string().contains("quote"), "{error}");
}
