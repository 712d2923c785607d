//! The territory view (`cathedral::territory`): shares that are probabilities, settled
//! cells that never change owner in real games, the same map for the same seed, the exact final
//! board where the end is forced. `POST /api/territory` is tested with the rest of the API in
//! tests/web_api.rs.

use cathedral::boardgame::{SolveOptions, solve};
use cathedral::engine::Judgement;
use cathedral::file::{GameRecord, load_records};
use cathedral::territory::{Playout, TerritoryMap, TerritoryOptions, owners, settled, territory};
use cathedral::{Bitboard, Cell, MoveList, Player, Position};
use std::collections::HashSet;
use std::path::Path;

fn games() -> Vec<GameRecord> {
    let mut games = load_records(Path::new("docs/analysis/engine-games.yaml")).unwrap();
    games.extend(load_records(Path::new("docs/analysis/independent-games.yaml")).unwrap());
    games
}

fn small(seed: u64) -> TerritoryOptions {
    TerritoryOptions {
        playouts: 4,
        nodes_per_move: 300,
        seed,
        ..TerritoryOptions::default()
    }
}

fn check_shares(map: &TerritoryMap) {
    assert_eq!(map.cells.len(), 100);
    for (cell, entry) in Cell::all().zip(&map.cells) {
        assert_eq!(entry.cell, cell);
        assert!((0.0..=1.0).contains(&entry.light), "{entry:?}");
        assert!((0.0..=1.0).contains(&entry.dark), "{entry:?}");
        assert!(entry.light + entry.dark <= 1.0 + 1e-9, "{entry:?}");
        if entry.settled {
            assert!(
                [(1.0, 0.0), (0.0, 1.0), (0.0, 0.0)].contains(&(entry.light, entry.dark)),
                "{entry:?}"
            );
        }
    }
    let light: f64 = map.cells.iter().map(|c| c.light).sum();
    let dark: f64 = map.cells.iter().map(|c| c.dark).sum();
    assert!((light - map.light_expected).abs() < 1e-9);
    assert!((dark - map.dark_expected).abs() < 1e-9);
    assert!(map.light_expected + map.dark_expected <= 100.0 + 1e-9);
}

#[test]
fn shares_are_probabilities_and_buildings_that_touch_are_settled() {
    let game = &games()[0];
    let positions = game.positions();
    for ply in [0, 1, 8, 16] {
        let position = positions[ply];
        let map = territory(&position, &small(1));
        check_shares(&map);
        assert_eq!(map.playouts, 4);
        assert!(map.complete);
        if ply < 16 {
            assert_eq!(map.judgement, Judgement::Estimate, "ply {ply}");
            assert_eq!(map.value, None);
        } else {
            // In the solver's reach: proven within the playouts' budget, and rightly so.
            assert_eq!(map.judgement, Judgement::Exact, "ply {ply}");
            let solution = solve(&position, &SolveOptions::default(), &|_| {});
            let light = match position.to_move() {
                Player::Light => solution.lower,
                Player::Dark => -solution.lower,
            };
            assert_eq!(map.value, Some(light));
        }
        // Two buildings of one player that touch can never be captured: settled, theirs.
        for player in Player::BOTH {
            let side = position.side(player);
            for (i, &a) in side.buildings.iter().enumerate() {
                let touching = side
                    .buildings
                    .iter()
                    .enumerate()
                    .any(|(j, &b)| i != j && b.any() && a.dilate8().intersects(b));
                if !a.any() || !touching {
                    continue;
                }
                for cell in a.cells() {
                    let entry = map.at(cell);
                    assert!(entry.settled, "ply {ply}: {cell}");
                    let share = if player == Player::Light {
                        entry.light
                    } else {
                        entry.dark
                    };
                    assert_eq!(share, 1.0, "ply {ply}: {cell}");
                }
            }
        }
    }
    // Nothing on the board yet: nothing is settled.
    let map = territory(&positions[0], &small(1));
    assert!(map.cells.iter().all(|c| !c.settled));
    // By ply 16 some buildings touch.
    let map = territory(&positions[16], &small(1));
    assert!(map.cells.iter().filter(|c| c.settled).count() >= 10);
}

/// The soundness of `settled` on every position of 33 recorded games: a settled cell ends as
/// it is now, whatever is played.
#[test]
fn settled_cells_never_change_owner_in_recorded_games() {
    let mut checked = 0;
    for (g, game) in games().iter().enumerate() {
        let end = game.final_position();
        let [light_end, dark_end] = owners(&end);
        for (ply, position) in game.positions().iter().enumerate() {
            let ([light, dark], cathedral) = settled(position);
            assert!(light.is_subset(light_end), "game {g} ply {ply}: Light");
            assert!(dark.is_subset(dark_end), "game {g} ply {ply}: Dark");
            if cathedral {
                assert_eq!(end.cathedral(), position.cathedral(), "game {g} ply {ply}");
            }
            checked += (light | dark).count();
        }
    }
    assert!(checked > 10_000, "{checked}");
}

#[test]
fn the_same_seed_gives_the_same_map() {
    let position = games()[1].positions()[10];
    let a = territory(&position, &small(7));
    let b = territory(&position, &small(7));
    assert_eq!(a, b);
    assert_eq!(a.nodes, b.nodes);
    let seeds: HashSet<String> = (1..=4)
        .map(|seed| format!("{:?}", territory(&position, &small(seed)).cells))
        .collect();
    assert!(seeds.len() > 1, "four seeds, one map");
    // The policy's playouts too.
    let policy = TerritoryOptions {
        playout: Playout::Policy,
        playouts: 32,
        ..small(3)
    };
    assert_eq!(territory(&position, &policy), territory(&position, &policy));
}

/// Every final ownership reachable from `position` by any legal play, or `None` beyond `budget`
/// positions.
fn endings(position: &Position, budget: &mut u64, out: &mut HashSet<[Bitboard; 2]>) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    if position.is_game_over() {
        out.insert(owners(position));
        return true;
    }
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    moves.iter().all(|&mv| {
        let mut next = *position;
        next.play(mv);
        endings(&next, budget, out)
    })
}

#[test]
fn a_forced_end_gives_the_exact_final_board() {
    let mut found = 0;
    for game in games() {
        let positions = game.positions();
        for back in 1..=4 {
            let Some(&position) = positions.len().checked_sub(1 + back).map(|i| &positions[i])
            else {
                continue;
            };
            let mut seen = HashSet::new();
            if !endings(&position, &mut 20_000, &mut seen) || seen.len() != 1 {
                continue;
            }
            let [light, dark] = *seen.iter().next().unwrap();
            let map = territory(&position, &small(1));
            check_shares(&map);
            for entry in &map.cells {
                let expected = (
                    f64::from(u8::from(light.contains(entry.cell))),
                    f64::from(u8::from(dark.contains(entry.cell))),
                );
                assert_eq!((entry.light, entry.dark), expected, "{}", entry.cell);
            }
            assert_eq!(map.light_expected, f64::from(light.count()));
            assert_eq!(map.dark_expected, f64::from(dark.count()));
            found += 1;
        }
    }
    assert!(found >= 10, "only {found} forced ends");
}

#[test]
fn a_finished_game_is_settled_and_exact() {
    let game = &games()[0];
    let end = game.final_position();
    assert!(end.is_game_over());
    let map = territory(&end, &small(1));
    check_shares(&map);
    assert_eq!(map.judgement, Judgement::Exact);
    assert!(map.complete);
    assert!(map.cells.iter().all(|c| c.settled));
    let [light, dark] = owners(&end);
    assert_eq!(map.light_expected, f64::from(light.count()));
    assert_eq!(map.dark_expected, f64::from(dark.count()));
}

#[test]
fn a_stopped_map_counts_what_finished() {
    let position = games()[0].positions()[6];
    let options = small(1);
    options
        .stop
        .store(true, std::sync::atomic::Ordering::Relaxed);
    let map = territory(&position, &options);
    assert_eq!(map.playouts, 0);
    assert!(!map.complete);
    check_shares(&map);
}
