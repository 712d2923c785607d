//! Random playouts under every rule variant, checking the state invariants after every move.

use cathedral::SQUARES_PER_PLAYER;
use cathedral::rules::Pass;
use cathedral::{Bitboard, Hand, Move, MoveList, Piece, Player, Position, Rules};
use cathedral::{CathedralStatus, internals::SLOT_PIECES};
use proptest::prelude::*;

use crate::common;

/// Longest playout accepted: a game places at most 28 buildings plus the Cathedral, and captures
/// or passes add a few more plies; 200 means something loops.
const MAX_PLIES: usize = 200;

/// SplitMix64, so that a playout is a pure function of its seed.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z % n as u64) as usize
    }
}

fn variant(index: usize) -> Rules {
    Rules::all().nth(index).expect("thirty-two variants")
}

/// Empty cells that are nobody's territory.
fn open_unclaimed(position: &Position) -> Bitboard {
    !(position.occupied()
        | position.side(Player::Light).territory
        | position.side(Player::Dark).territory)
}

/// Checks every invariant of one position; `Err` names the first one broken.
fn check_invariants(position: &Position) -> Result<(), TestCaseError> {
    // No two buildings overlap, and the per-side unions are right.
    let mut covered = Bitboard::EMPTY;
    for building in position.buildings() {
        prop_assert!(
            !building.cells.intersects(covered),
            "{building} overlaps another building"
        );
        prop_assert_eq!(
            building.cells.count(),
            building.piece.size(),
            "{} has the wrong size",
            building
        );
        covered |= building.cells;
    }
    prop_assert_eq!(covered, position.occupied());
    let light = position.side(Player::Light);
    let dark = position.side(Player::Dark);
    prop_assert!(
        !light.territory.intersects(dark.territory),
        "territories overlap"
    );
    for player in Player::BOTH {
        let side = position.side(player);
        prop_assert!(
            !side.territory.intersects(covered),
            "{player}'s territory holds a building"
        );
        // Hand plus buildings on the board is the full set, kind by kind.
        let mut total = side.hand;
        let mut on_board_squares = 0;
        for (slot, cells) in side.buildings.iter().enumerate() {
            if cells.any() {
                total.add(SLOT_PIECES[slot]);
                on_board_squares += cells.count();
            }
        }
        prop_assert_eq!(
            total,
            Hand::FULL,
            "{}'s hand and board do not make a full set",
            player
        );
        prop_assert_eq!(
            position.unplaced_squares(player),
            SQUARES_PER_PLAYER - on_board_squares
        );
    }
    match position.cathedral_status() {
        CathedralStatus::OnBoard => {
            prop_assert_eq!(position.cathedral().count(), Piece::Cathedral.size())
        }
        CathedralStatus::ToPlace | CathedralStatus::Gone => {
            prop_assert!(position.cathedral().is_empty())
        }
    }
    let mut list = MoveList::new();
    position.legal_moves(&mut list);
    prop_assert_eq!(
        position.count_moves() as usize,
        list.len(),
        "count_moves disagrees with legal_moves"
    );
    prop_assert_eq!(
        list.is_empty(),
        position.is_game_over(),
        "no legal move exactly when the game is over"
    );
    Ok(())
}

/// The territories after `mv` are those the rules' words give, worked out cell by cell
/// (`common::naive`): the mover's grows by the regions claimed (less the cells it built on), and
/// the opponent's loses them.
fn check_claims(before: &Position, mv: Move, after: &Position) -> Result<(), TestCaseError> {
    let mover = before.to_move();
    let Some(id) = mv.placement() else {
        prop_assert_eq!(after.side(mover).territory, before.side(mover).territory);
        return Ok(());
    };
    let placed = cathedral::table().get(id).mask;
    let claimed = common::naive::claimed(before, mv);
    let opponent = mover.opponent();
    prop_assert_eq!(
        after.side(mover).territory,
        (before.side(mover).territory - placed) | claimed,
        "{} ({}): {:?} claimed other cells than the rules' words give",
        mover,
        before.rules(),
        mv
    );
    prop_assert_eq!(
        after.side(opponent).territory,
        before.side(opponent).territory - claimed,
        "{:?} took other cells from the opponent than the rules' words give",
        mv
    );
    Ok(())
}

/// Plays one random game from the start, checking everything after every move.
fn playout(rules: Rules, seed: u64) -> Result<(), TestCaseError> {
    let mut rng = Rng(seed);
    let mut position = Position::new(rules);
    let mut list = MoveList::new();
    let mut cathedral_gone = false;
    check_invariants(&position)?;
    for _ in 0..MAX_PLIES {
        position.legal_moves(&mut list);
        if list.is_empty() {
            break;
        }
        let mv: Move = list.as_slice()[rng.below(list.len())];
        let before = position;
        let mut after = position;
        after.play(mv);
        check_claims(&before, mv, &after)?;
        // Playing on a copy leaves the original alone, and every move changes the copy.
        prop_assert_eq!(position, before);
        prop_assert_ne!(after, before, "{:?} changed nothing", mv);
        // Placing only shrinks the unclaimed open cells; captures turn cells into territory.
        prop_assert!(
            open_unclaimed(&after).is_subset(open_unclaimed(&before)),
            "{:?} made unclaimed open cells",
            mv
        );
        position = after;
        check_invariants(&position)?;
        // The Cathedral, once captured, never comes back.
        if cathedral_gone {
            prop_assert_eq!(position.cathedral_status(), CathedralStatus::Gone);
        }
        cathedral_gone = position.cathedral_status() == CathedralStatus::Gone;
    }
    prop_assert!(position.is_game_over(), "no end after {} plies", MAX_PLIES);
    if rules.pass == Pass::Forced {
        for player in Player::BOTH {
            prop_assert_eq!(
                position.count_placements(player),
                0,
                "{} can still place at the end",
                player
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn random_playouts_keep_the_invariants(rules in 0..32usize, seed in any::<u64>()) {
        playout(variant(rules), seed)?;
    }
}

#[test]
fn every_variant_gets_a_playout() {
    assert_eq!(Rules::all().count(), 32);
    for (index, rules) in Rules::all().enumerate() {
        playout(rules, index as u64).unwrap_or_else(|e| panic!("{rules}: {e}"));
    }
}

/// The incrementally updated Zobrist key always equals the key computed from scratch, and equal
/// keys come only from equal positions along random games.
#[test]
fn zobrist_keys_stay_exact_along_random_games() {
    type Canonical = (
        Vec<String>,
        [Bitboard; 2],
        [Hand; 2],
        [bool; 2],
        Player,
        u8,
        CathedralStatus,
    );
    let canonical = |p: &Position| -> Canonical {
        let mut buildings: Vec<String> = p.buildings().map(|b| format!("{b:?}")).collect();
        buildings.sort();
        let side = |pl: Player| p.side(pl);
        (
            buildings,
            [side(Player::Light).territory, side(Player::Dark).territory],
            [side(Player::Light).hand, side(Player::Dark).hand],
            [
                side(Player::Light).first_move_made,
                side(Player::Dark).first_move_made,
            ],
            p.to_move(),
            p.passes().min(2),
            p.cathedral_status(),
        )
    };
    let mut total = 0;
    for (index, rules) in Rules::all().enumerate() {
        let mut seen: std::collections::HashMap<cathedral::Key, Canonical> = Default::default();
        for seed in 0..12u64 {
            let mut rng = Rng(seed * 31 + index as u64);
            let mut position = Position::new(rules);
            let mut list = cathedral::MoveList::new();
            loop {
                assert_eq!(position.key(), position.recompute_key());
                let previous = seen.insert(position.key(), canonical(&position));
                if let Some(previous) = previous {
                    assert_eq!(previous, canonical(&position), "two positions share a key");
                }
                position.legal_moves(&mut list);
                if list.is_empty() {
                    break;
                }
                position.play(list.as_slice()[rng.below(list.len())]);
            }
        }
        total += seen.len();
    }
    assert!(total > 2000, "only {total} positions");
}
