//! Perft pins: exact move-sequence counts of fixed positions under several rule variants, so that
//! speed work on move generation and claim evaluation cannot silently change results.
//!
//! Every pinned number was cross-checked against [`naive_perft`], a deliberately slow generator
//! written here from the rules alone: it loops over every placement of the global table for the
//! pieces in the mover's hand, tests the mask against the occupied cells and the opponent's
//! territory, checks first-move enclosure with its own cell-by-cell flood fill, works out the
//! optional-capture variants from the regions the rules evaluate, found by its own flood fill
//! (`common::naive`: every region under `claims: standing`, the parts of the region the building
//! went into under `at-once`), and adds passes from the rule text. The fast counts must equal the pins at every depth; the naive counts are
//! recomputed at the shallower depths.

use cathedral::CathedralStatus;
use cathedral::Spared;
use cathedral::boardgame::perft;
use cathedral::rules::{Capture, CathedralTiming, Claims, FirstMove, Pass};
use cathedral::{
    Bitboard, Cell, Move, MoveList, Piece, PlacementId, Player, Position, Rules, table,
};

use crate::common;

use common::replay;

/// Seed 1 of `tests/data/independent-games.jsonl`: the Cathedral and Dark's first building.
const OPENING: &[&str] = &["cathedral:a8,b7,b8,b9,c8,d8", "inn:a3,a4,b4"];

/// Seed 1 of `tests/data/independent-games.jsonl`, first 11 plies: Dark to move, 241 moves, some
/// of which capture.
const MIDGAME: &[&str] = &[
    "cathedral:a8,b7,b8,b9,c8,d8",
    "inn:a3,a4,b4",
    "castle:f5,f6,g6,h5,h6",
    "castle:c1,c2,d2,e1,e2",
    "tower:e3,e4,f2,f3,g2",
    "square:f8,f9,g8,g9",
    "abbey:d9,d10,e8,e9",
    "manor:b5,c4,c5,c6",
    "tavern:b2",
    "stable:i4,i5",
    "infirmary:h9,i8,i9,i10,j9",
];

/// Seed 9 of `tests/data/independent-games.jsonl`, first 19 plies: Dark to move, 55 moves of which
/// 11 capture.
const ENDGAME: &[&str] = &[
    "cathedral:e5,f4,f5,f6,g5,h5",
    "academy:d8,e8,e9,f7,f8",
    "stable:j7,j8",
    "square:c2,c3,d2,d3",
    "manor:d5,d6,d7,e6",
    "stable:b9,b10",
    "bridge:f2,g2,h2",
    "tavern:e1",
    "inn:i5,i6,j5",
    "inn:g8,g9,h9",
    "stable:b2,b3",
    "tower:b5,b6,c4,c5,d4",
    "infirmary:g7,h6,h7,h8,i7",
    "bridge:b1,c1,d1",
    "tavern:c7",
    "inn:i2,i3,j2",
    "tavern:h3",
    "tavern:e2",
    "inn:e3,e4,f3",
];

/// The game of rule cases 33 and 38: Light's first building encloses the Dark Tavern a1, which
/// the standing reading captures at Light's next building move and `claims: at-once` never does.
const FIRST_MOVE_ENCLOSES: &[&str] = &["cathedral:e5,f4,f5,f6,f7,g5", "tavern:a1", "inn:a2,b1,b2"];

/// [`FIRST_MOVE_ENCLOSES`] played on under `sheets` (random moves, larger buildings mostly; seed
/// 74) to an endgame of 57 moves where the Dark Tavern a1 still stands in the region Light's
/// first building closed, never captured: Dark to move with 5 moves.
const LATE_OPEN_REGION: &[&str] = &[
    "cathedral:e5,f4,f5,f6,f7,g5",
    "tavern:a1",
    "inn:a2,b1,b2",
    "dark:infirmary:b9,c8,c9,c10,d9",
    "light:manor:f10,g9,g10,h10",
    "dark:tower:b5,b6,c4,c5,d4",
    "light:castle:i4,i6,j4,j5,j6",
    "dark:academy:d7,e7,e8,e9,f8",
    "light:inn:i8,i9,j8",
    "dark:inn:g3,g4,h3",
    "light:tower:d1,d2,e2,e3,f3",
    "dark:castle:f1,f2,g1,h1,h2",
    "light:infirmary:g7,h6,h7,h8,i7",
    "dark:manor:a3,b3,b4,c3",
    "light:academy:a6,a7,b7,b8,c7",
    "dark:square:i2,i3,j2,j3",
    "light:tavern:e10",
    "dark:inn:d5,d6,e6",
    "light:tavern:e4",
    "dark:abbey:a8,b7,b8,c7",
];

/// Optional capture with claims at once: a declined capture stays open until the region is closed
/// again.
const OPTIONAL_AT_ONCE: Rules = Rules {
    capture: Capture::Optional,
    claims: Claims::AtOnce,
    ..Rules::CLASSIC
};

/// Moore's rules with claims at once.
const MOORE_AT_ONCE: Rules = Rules {
    claims: Claims::AtOnce,
    ..Rules::MOORE_1978
};

const NO_ENCLOSURE: Rules = Rules {
    capture: Capture::Mandatory,
    pass: Pass::Forced,
    first_move: FirstMove::NoEnclosure,
    ..Rules::CLASSIC
};

// ----- the naive generator -------------------------------------------------------------------

/// Whether the cells of the board not in `covered` fall apart into two or more 8-connected
/// regions, by the breadth-first search over file/rank coordinates of `common::naive`.
fn naive_splits(covered: Bitboard) -> bool {
    common::naive::regions_of(!covered).len() > 1
}

/// Every legal placement of `player`, by scanning the whole placement table.
fn naive_placements(position: &Position, player: Player) -> Vec<PlacementId> {
    let table = table();
    let occupied: Bitboard = position
        .buildings()
        .fold(Bitboard::EMPTY, |m, b| m | b.cells);
    if position.cathedral_status() == CathedralStatus::ToPlace {
        // Light's placement is the Cathedral. Dark waits for it, except that under Lehmann-Woods
        // its first building comes before.
        let dark_first = position.rules().cathedral == CathedralTiming::AfterFirstMove
            && !position.side(Player::Dark).first_move_made;
        if player == Player::Light {
            return table
                .ids(None, Piece::Cathedral)
                .filter(|&id| (table.get(id).mask & occupied).is_empty())
                .collect();
        }
        if !dark_first {
            return Vec::new();
        }
    }
    let side = position.side(player);
    let blocked = occupied | position.side(player.opponent()).territory;
    let first_building = !side.first_move_made;
    let mut ids = Vec::new();
    for piece in Piece::PLAYER_KINDS {
        if side.hand.count(piece) == 0 {
            continue;
        }
        for id in table.ids(Some(player), piece) {
            let mask = table.get(id).mask;
            if (mask & blocked).any() {
                continue;
            }
            if first_building
                && position.rules().first_move == FirstMove::NoEnclosure
                && naive_splits(side.occupied | mask)
            {
                continue;
            }
            ids.push(id);
        }
    }
    ids
}

/// The [`Spared`] bits of the buildings that placing `id` captures, from the regions the rules
/// evaluate, worked out cell by cell (`common::naive`), not by playing the move.
fn naive_captures(position: &Position, id: PlacementId) -> u16 {
    common::naive::captures(position, Move::place(id))
}

/// Every legal move of the player to move, sorted.
fn naive_moves(position: &Position) -> Vec<Move> {
    let rules = position.rules();
    if rules.pass == Pass::Voluntary && position.passes() >= 2 {
        return Vec::new();
    }
    let mover = position.to_move();
    let mut moves = Vec::new();
    let placements = naive_placements(position, mover);
    for &id in &placements {
        moves.push(Move::place(id));
        if rules.capture == Capture::Optional {
            // One move per non-empty subset of the captures to decline.
            let captures = naive_captures(position, id);
            for subset in 1..=captures {
                if subset & !captures == 0 {
                    moves.push(Move::place_sparing(id, Spared::from_bits(subset)));
                }
            }
        }
    }
    let opponent_can_place = !naive_placements(position, mover.opponent()).is_empty();
    let pass_allowed = match rules.pass {
        Pass::Forced => placements.is_empty() && opponent_can_place,
        Pass::Voluntary => !placements.is_empty() || opponent_can_place,
    };
    if pass_allowed {
        moves.push(Move::PASS);
    }
    moves.sort();
    moves
}

/// Perft with the naive generator. Also checks at every node that the engine lists exactly the
/// same moves and that `count_moves` agrees with `legal_moves`.
fn naive_perft(position: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = naive_moves(position);
    let mut list = MoveList::new();
    position.legal_moves(&mut list);
    let mut fast: Vec<Move> = list.as_slice().to_vec();
    fast.sort();
    assert_eq!(fast, moves, "engine and naive generator disagree");
    assert_eq!(
        position.count_moves() as usize,
        list.len(),
        "count_moves disagrees with legal_moves"
    );
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&mv| {
            let mut child = *position;
            child.play(mv);
            naive_perft(&child, depth - 1)
        })
        .sum()
}

/// Checks the engine's perft against `pinned` (depth 1, 2, ..) and the naive perft against the
/// first `naive_depth` pins.
fn check(rules: Rules, moves: &[&str], pinned: &[u64], naive_depth: usize) {
    let position = replay(rules, moves);
    for (depth, &expected) in pinned.iter().enumerate().take(naive_depth) {
        assert_eq!(
            naive_perft(&position, depth as u32 + 1),
            expected,
            "naive perft {}",
            depth + 1
        );
    }
    for (depth, &expected) in pinned.iter().enumerate() {
        assert_eq!(
            perft(&position, depth as u32 + 1),
            expected,
            "perft {}",
            depth + 1
        );
    }
}

// ----- pins ----------------------------------------------------------------------------------
//
// `check(rules, moves, pins, naive_depth)`: the engine must give `pins[d - 1]` for perft `d`, and
// the naive generator must agree for the first `naive_depth` depths.

#[test]
fn start_classic() {
    check(Rules::CLASSIC, &[], &[224, 398_548], 2);
}

#[test]
fn start_moore1978() {
    // One more root move than classic: Light may pass instead of placing the Cathedral.
    check(Rules::MOORE_1978, &[], &[225, 398_773], 2);
}

/// Under Lehmann-Woods the first three plies are Dark's building, the Cathedral and Light's
/// building: the same sets of placements as classic's Cathedral, Dark, Light, so the same counts
/// at depths 2 and 3, reached in another order.
#[test]
fn start_lehmann_woods() {
    check(Rules::LEHMANN_WOODS, &[], &[2_141, 398_548], 2);
    check(Rules::LEHMANN_WOODS, &["inn:a3,a4,b4"], &[207, 342_413], 2);
    let voluntary = Rules {
        capture: Capture::Optional,
        pass: Pass::Voluntary,
        ..Rules::LEHMANN_WOODS
    };
    // Dark may pass instead; Light then places the Cathedral (or passes too, ending the game).
    check(voluntary, &[], &[2_142, 400_914], 2);
    let no_enclosure = Rules {
        first_move: FirstMove::NoEnclosure,
        ..Rules::LEHMANN_WOODS
    };
    check(no_enclosure, &[], &[2_069, 383_988], 2);
}

/// After Light places the Cathedral under Lehmann-Woods, Light moves again, with its first
/// building; then Dark. Classic hands the turn to Dark after the Cathedral.
#[test]
fn lehmann_woods_light_keeps_the_turn_after_the_cathedral() {
    let after_cathedral = replay(
        Rules::LEHMANN_WOODS,
        &["inn:a3,a4,b4", "cathedral:e4,e5,d6,e6,f6,e7"],
    );
    assert_eq!(after_cathedral.to_move(), Player::Light);
    assert_eq!(after_cathedral.cathedral_status(), CathedralStatus::OnBoard);
    let after_light = replay(
        Rules::LEHMANN_WOODS,
        &["inn:a3,a4,b4", "cathedral:e4,e5,d6,e6,f6,e7", "tavern:j10"],
    );
    assert_eq!(after_light.to_move(), Player::Dark);
    let classic = replay(Rules::CLASSIC, &["cathedral:e4,e5,d6,e6,f6,e7"]);
    assert_eq!(classic.to_move(), Player::Dark);
    assert_eq!(Position::new(Rules::LEHMANN_WOODS).to_move(), Player::Dark);
}

#[test]
fn start_no_enclosure() {
    check(NO_ENCLOSURE, &[], &[224, 383_988], 1);
}

#[test]
fn opening_classic() {
    check(Rules::CLASSIC, OPENING, &[1_695, 2_503_246], 1);
}

#[test]
fn opening_no_enclosure() {
    // Light's first building may not cut the board: 48 fewer placements than classic.
    check(NO_ENCLOSURE, OPENING, &[1_647, 2_430_038], 1);
}

#[test]
fn opening_moore1978() {
    check(Rules::MOORE_1978, OPENING, &[1_696], 1);
}

#[test]
fn midgame_classic() {
    check(Rules::CLASSIC, MIDGAME, &[241, 51_310, 8_299_364], 2);
}

#[test]
fn midgame_moore1978() {
    check(Rules::MOORE_1978, MIDGAME, &[249, 53_457], 2);
}

#[test]
fn midgame_no_enclosure() {
    // Both first moves are made: the variant changes nothing any more.
    check(NO_ENCLOSURE, MIDGAME, &[241, 51_310, 8_299_364], 1);
}

#[test]
fn endgame_classic() {
    check(Rules::CLASSIC, ENDGAME, &[55, 959, 16_481, 134_111], 3);
}

#[test]
fn endgame_moore1978() {
    // Optional capture adds one move per declinable subset of captures, and a pass per node.
    check(Rules::MOORE_1978, ENDGAME, &[67, 1_154, 25_409, 252_752], 3);
}

#[test]
fn endgame_no_enclosure() {
    check(NO_ENCLOSURE, ENDGAME, &[55, 959, 16_481], 2);
}

// `claims: at-once`. Under mandatory capture the two readings count the same until a region is
// left open: the endgame and midgame agree with the classic pins, the first-move enclosure parts
// at depth 3 (deep_pins), where Dark may build in a1 again. With optional capture every declined
// capture parts them from depth 3.

#[test]
fn endgame_sheets() {
    check(Rules::SHEETS, ENDGAME, &[55, 959, 16_481, 134_111], 3);
}

#[test]
fn midgame_sheets() {
    check(Rules::SHEETS, MIDGAME, &[241, 51_310], 2);
}

/// Perft 3 parts the readings here (2,725,769,386 under `classic`, 2,713,899,274 under `sheets`,
/// measured with `cathedral perft`), too many for a test: the endgame below is pinned instead.
#[test]
fn first_move_enclosure_both_readings() {
    check(Rules::CLASSIC, FIRST_MOVE_ENCLOSES, &[1_617, 2_313_437], 1);
    check(Rules::SHEETS, FIRST_MOVE_ENCLOSES, &[1_617, 2_313_437], 1);
}

#[test]
fn endgame_with_a_region_left_open_sheets() {
    let position = replay(Rules::SHEETS, LATE_OPEN_REGION);
    let a1 = "a1".parse::<Cell>().expect("a cell");
    assert!(position.side(Player::Dark).occupied.contains(a1));
    check(
        Rules::SHEETS,
        LATE_OPEN_REGION,
        &[5, 179, 518, 7_412, 7_412, 58_952],
        4,
    );
}

#[test]
fn endgame_optional_capture_at_once() {
    check(OPTIONAL_AT_ONCE, ENDGAME, &[66, 1_071, 20_060, 152_562], 3);
}

#[test]
fn endgame_moore_at_once() {
    check(MOORE_AT_ONCE, ENDGAME, &[67, 1_154, 23_704, 213_240], 3);
}

#[test]
fn midgame_optional_capture_at_once() {
    check(OPTIONAL_AT_ONCE, MIDGAME, &[248, 52_964], 2);
}

/// The expensive pins and naive cross-checks (about 30 s with the optimised test profile on
/// this 2-core machine, idle).
#[test]
fn deep_pins() {
    check(Rules::CLASSIC, &[], &[224, 398_548, 624_864_152], 2);
    check(Rules::LEHMANN_WOODS, &[], &[2_141, 398_548, 624_864_152], 2);
    check(Rules::MOORE_1978, &[], &[225, 398_773], 2);
    check(NO_ENCLOSURE, &[], &[224, 383_988, 578_914_136], 2);
    check(Rules::CLASSIC, OPENING, &[1_695, 2_503_246], 2);
    check(NO_ENCLOSURE, OPENING, &[1_647, 2_430_038], 2);
    check(Rules::MOORE_1978, OPENING, &[1_696, 2_508_685], 2);
    check(Rules::CLASSIC, MIDGAME, &[241, 51_310, 8_299_364], 3);
    check(Rules::MOORE_1978, MIDGAME, &[249, 53_457, 9_262_960], 3);
    check(NO_ENCLOSURE, MIDGAME, &[241, 51_310, 8_299_364], 3);
    check(
        Rules::CLASSIC,
        ENDGAME,
        &[55, 959, 16_481, 134_111, 750_114],
        4,
    );
    check(
        Rules::MOORE_1978,
        ENDGAME,
        &[67, 1_154, 25_409, 252_752, 1_954_518],
        4,
    );
    check(
        NO_ENCLOSURE,
        ENDGAME,
        &[55, 959, 16_481, 134_111, 750_114],
        4,
    );
    check(Rules::CLASSIC, FIRST_MOVE_ENCLOSES, &[1_617, 2_313_437], 2);
    check(Rules::SHEETS, FIRST_MOVE_ENCLOSES, &[1_617, 2_313_437], 2);
    // The naive generator floods the board for every placement's captures: depth 2 here.
    check(Rules::SHEETS, MIDGAME, &[241, 51_310, 8_299_364], 2);
    check(OPTIONAL_AT_ONCE, MIDGAME, &[248, 52_964, 8_856_978], 2);
    check(MOORE_AT_ONCE, MIDGAME, &[249, 53_457, 9_010_208], 2);
    check(
        MOORE_AT_ONCE,
        ENDGAME,
        &[67, 1_154, 23_704, 213_240, 1_597_678],
        4,
    );
    check(
        OPTIONAL_AT_ONCE,
        ENDGAME,
        &[66, 1_071, 20_060, 152_562, 850_403],
        4,
    );
}
