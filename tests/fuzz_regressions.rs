//! Inputs the fuzz targets in `tests/fuzz/` found to fail (docs/fuzzing.md), kept as tests.

use cathedral::legality::{IllegalMove, MoveError, parse_move};
use cathedral::rules::Pass;
use cathedral::{MoveList, Player, Position, Rules};

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
        // The case the fuzzer found needs Light's pass at the start: allowed under `pass: voluntary` (Moore 1978),
        // and under `pass: forced` refused for the placements Light has, which is checked too.
        let pass = match (parse_move(&position, "light:pass"), rules.pass) {
            (Ok(pass), Pass::Voluntary) => pass,
            (
                Err(MoveError::Illegal(IllegalMove::PassNotAllowed { player, placements })),
                Pass::Forced,
            ) => {
                assert_eq!(player, Player::Light, "{rules:?}");
                assert!(
                    placements > 0,
                    "{rules:?}: refused with no placement to make"
                );
                continue;
            }
            (answer, pass) => {
                panic!("{rules:?}: light:pass at the start under {pass:?}: {answer:?}")
            }
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
