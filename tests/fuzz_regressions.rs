//! Inputs the fuzz targets in `tests/fuzz/` found to fail (docs/fuzzing.md), kept as tests.

use cathedral::legality::{IllegalMove, MoveError, parse_move};
use cathedral::{MoveList, Position, Rules};

/// Every legal move of `position`.
fn legal(position: &Position) -> MoveList {
    let mut list = MoveList::new();
    position.legal_moves(&mut list);
    list
}

/// `notation` crash-edf0e20e: from the start, after Light passes, a Cathedral placement was read
/// as a move that is not legal.
#[test]
fn a_cathedral_placement_after_a_pass_at_the_start_is_legal_or_refused() {
    for rules in [Rules::CLASSIC, Rules::MOORE_1978] {
        let mut position = Position::new(rules);
        let Ok(pass) = parse_move(&position, "light:pass") else {
            continue;
        };
        assert!(legal(&position).contains(pass), "{rules:?}: light:pass");
        position.play(pass);
        // Dark is to move and only Light places the Cathedral.
        for text in [
            "cathedral:e4,e5,d6,e6,f6,e7",
            "light:cathedral:e4,e5,d6,e6,f6,e7",
        ] {
            assert_eq!(
                parse_move(&position, text),
                Err(MoveError::Illegal(IllegalMove::CathedralNotAvailable)),
                "{rules:?}: {text}"
            );
        }
        assert_eq!(legal(&position).iter().count(), 1, "Dark must pass");
    }
}
