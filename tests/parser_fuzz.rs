//! Position files and moves from arbitrary or damaged text: an error or a position, never a panic.

use cathedral::file::{parse_str, to_yaml};
use cathedral::legality::parse_move;
use cathedral::{Position, Rules};
use proptest::prelude::*;

use crate::common;

use common::LEAKS;

const SEEDS: [&str; 3] = [
    include_str!("../puzzles/examples/midgame.yaml"),
    include_str!("../puzzles/examples/diagram.yaml"),
    include_str!("../puzzles/rules/13-capturing-a-wall-takes-its-territory.yaml"),
];

/// The words of `shown` that come from the parser, serde or Rust.
fn leaks(shown: &str) -> Vec<&'static str> {
    let words: Vec<&str> = shown
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .collect();
    LEAKS
        .into_iter()
        .filter(|leak| {
            if leak.contains(' ') {
                shown.contains(leak)
            } else {
                words.contains(leak)
            }
        })
        .collect()
}

/// Values of every kind and shape, most of them wrong wherever they are put.
const HOSTILE: [&str; 26] = [
    "-1",
    "300",
    "99999999999999999999999",
    "1.5",
    "1e999",
    ".nan",
    "-.inf",
    "[a, b]",
    "[[a1]]",
    "{x: 1}",
    "{}",
    "[]",
    "~",
    "yes",
    "maybe",
    "\"\"",
    "k11",
    "[k11]",
    "[a1, a0]",
    "!!int x",
    "!!binary aGVsbG8=",
    "*nowhere",
    "&anchor x",
    "0x10",
    "'quoted'",
    "|\n    text",
];

/// Every place a value can go: `{}` marks it.
const SLOTS: [&str; 44] = [
    "title: {}",
    "description: {}",
    "tags: {}",
    "tags: [{}]",
    "source: {}",
    "rules: {}",
    "rules: {capture: {}}",
    "rules: {pass: {}}",
    "rules: {first_move: {}}",
    "to_move: {}",
    "passes: {}",
    "cathedral: {}",
    "cathedral: [e4, e5, d6, e6, f6, {}]",
    "light: {}",
    "light:\n  buildings: {}",
    "light:\n  buildings:\n  - {}",
    "light:\n  buildings:\n  - tavern: {}",
    "light:\n  buildings:\n  - {}: [a1]",
    "light:\n  hand: {}",
    "light:\n  hand: {tavern: {}}",
    "light:\n  hand: {{}: 1}",
    "light:\n  territory: {}",
    "light:\n  first_move_made: {}",
    "to_move: light\nboard: {}",
    "legend: {}",
    "legend: {A: {}}",
    "ruling: {}",
    "ruling: {moves: {}}",
    "ruling: {moves: [pass], claimed: {}}",
    "ruling: {moves: [pass], captured: {}}",
    "ruling: {moves: [pass], captured: [{}]}",
    "ruling: {moves: [pass], captured: [{player: {}, piece: tavern, cells: [a1]}]}",
    "ruling: {moves: [pass], near_misses: [{reason: {}, cells: [a1]}]}",
    "ruling: {moves: [pass], unplaced_squares: {light: {}}}",
    "ruling: {moves: [pass], legal_moves: {}}",
    "ruling: {moves: [pass], game_over: {}}",
    "solution: {}",
    "solution: {value: {}}",
    "solution: {value: 0, wdl: {}}",
    "solution: {value: 0, best_line: {}}",
    "solution: {value: 0, nodes: {}}",
    "puzzle: {}\nsolution: {value: 0}",
    "puzzle: {question: q, difficulty: easy, margin: {}}\nsolution: {value: 0}",
    "puzzle: {question: q, difficulty: easy, margin: 1, seed: {}}\nsolution: {value: 0}",
];

#[test]
fn wrong_values_everywhere_are_refused_in_the_domains_words() {
    let mut refused = 0;
    for slot in SLOTS {
        for value in HOSTILE {
            let text = format!("{}\n", slot.replace("{}", value));
            if let Err(error) = parse_str("bad.yaml", &text) {
                refused += 1;
                let shown = error.to_string();
                let found = leaks(&shown);
                assert!(found.is_empty(), "{found:?} in:\n{shown}\nfrom:\n{text}");
                assert!(
                    error.message.len() < 400,
                    "a long message:\n{shown}\nfrom:\n{text}"
                );
            }
        }
    }
    assert!(refused > SLOTS.len() * HOSTILE.len() / 2, "{refused}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
        let _ = parse_str("fuzz.yaml", &text);
    }

    #[test]
    fn damaged_files_never_panic(seed in 0usize..3, cut in 0usize..4000, insert in "[a-z0-9:,\\[\\] \\n.#-]{0,12}") {
        let original = SEEDS[seed];
        let boundary = |mut i: usize| {
            i = i.min(original.len());
            while !original.is_char_boundary(i) {
                i -= 1;
            }
            i
        };
        let start = boundary(cut);
        let end = boundary(start + insert.len()).max(start);
        let damaged = format!("{}{}{}", &original[..start], insert, &original[end..]);
        if let Ok(file) = parse_str("fuzz.yaml", &damaged) {
            // Whatever loads must write and load back to the same position.
            let again = parse_str("again.yaml", &to_yaml(&file));
            prop_assert!(again.is_ok(), "{:?}", again.err());
            prop_assert_eq!(again.ok().map(|f| f.position), Some(file.position));
        }
    }

    #[test]
    fn damaged_files_never_leak_parser_words(seed in 0usize..3, cut in 0usize..4000, hostile in 0usize..26, newline in any::<bool>()) {
        let original = SEEDS[seed];
        let mut at = cut.min(original.len());
        while !original.is_char_boundary(at) {
            at -= 1;
        }
        let separator = if newline { "\n" } else { " " };
        let damaged = format!("{}{separator}{}{}", &original[..at], HOSTILE[hostile], &original[at..]);
        if let Err(error) = parse_str("fuzz.yaml", &damaged) {
            let shown = error.to_string();
            let found = leaks(&shown);
            prop_assert!(found.is_empty(), "{:?} in:\n{}", found, shown);
        }
    }

    #[test]
    fn arbitrary_moves_never_panic(text in "((light|dark):)?[a-z]{0,9}(:[a-k][0-9]{1,2}(,[a-k][0-9]{1,2}){0,6})?(/spare:[a-j][0-9])?") {
        let position = Position::new(Rules::MOORE_1978);
        let _ = parse_move(&position, &text);
        let midgame = parse_str("m.yaml", SEEDS[0]).map(|f| f.position);
        prop_assert!(midgame.is_ok());
        if let Ok(midgame) = midgame {
            let _ = parse_move(&midgame, &text);
        }
    }
}
