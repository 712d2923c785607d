//! Position files and moves from arbitrary or damaged text: an error or a position, never a panic.

use cathedral::file::{parse_str, to_yaml};
use cathedral::legality::parse_move;
use cathedral::{Position, Rules};
use proptest::prelude::*;

const SEEDS: [&str; 3] = [
    include_str!("../puzzles/examples/midgame.yaml"),
    include_str!("../puzzles/examples/diagram.yaml"),
    include_str!("../puzzles/rules/13-capturing-a-wall-takes-its-territory.yaml"),
];

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
