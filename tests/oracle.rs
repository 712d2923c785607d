//! Replays the games recorded by an independent public Cathedral engine (see
//! `tests/data/independent-games.md`) and checks every recorded state against ours.

use cathedral::ClaimLog;
use cathedral::legality::parse_move;
use cathedral::{Bitboard, Cell, Piece, Player, Position, Rules};
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Deserialize)]
struct Game {
    seed: u64,
    moves: Vec<Entry>,
    #[serde(rename = "final")]
    final_: Final,
}

#[derive(Deserialize)]
struct Final {
    unplaced_squares: BTreeMap<String, u32>,
}

#[derive(Deserialize)]
struct Entry {
    player: String,
    #[serde(default)]
    pass: bool,
    piece: Option<String>,
    #[serde(default)]
    cells: Vec<String>,
    #[serde(default)]
    captured: Vec<RecordedBuilding>,
    after: Option<State>,
}

#[derive(Deserialize, Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
struct RecordedBuilding {
    player: String,
    piece: String,
    cells: Vec<String>,
}

#[derive(Deserialize)]
struct State {
    buildings: Vec<RecordedBuilding>,
    territory: BTreeMap<String, Vec<String>>,
    hands: BTreeMap<String, BTreeMap<String, u8>>,
    to_move: String,
    legal_placements: u32,
}

fn cells_of(cells: Bitboard) -> Vec<String> {
    cells.cells_by_file().iter().map(Cell::to_string).collect()
}

fn our_buildings(position: &Position) -> Vec<RecordedBuilding> {
    let mut list: Vec<RecordedBuilding> = position
        .buildings()
        .map(|b| RecordedBuilding {
            player: b.owner.map_or("cathedral", Player::name).to_string(),
            piece: b.piece.name().to_string(),
            cells: cells_of(b.cells),
        })
        .collect();
    list.sort();
    list
}

fn games() -> Vec<Game> {
    include_str!("data/independent-games.jsonl")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("oracle line parses"))
        .collect()
}

#[test]
fn every_recorded_state_agrees_under_classic_rules() {
    let games = games();
    assert_eq!(games.len(), 29);
    let mut states = 0;
    for game in &games {
        let mut position = Position::new(Rules::CLASSIC);
        for (ply, entry) in game.moves.iter().enumerate() {
            let at = format!("game seed {} ply {ply}", game.seed);
            let mover = if entry.player == "cathedral" {
                "light"
            } else {
                entry.player.as_str()
            };
            assert_eq!(position.to_move().name(), mover, "{at}: side to move");
            if entry.pass {
                assert_eq!(
                    position.count_placements(position.to_move()),
                    0,
                    "{at}: pass with placements"
                );
                let mv = parse_move(&position, "pass").unwrap_or_else(|e| panic!("{at}: {e}"));
                position.play(mv);
                continue;
            }
            let text = format!(
                "{}:{}",
                entry.piece.as_deref().unwrap_or("?"),
                entry.cells.join(",")
            );
            let mv = parse_move(&position, &text).unwrap_or_else(|e| panic!("{at}: {text}: {e}"));
            let mut log = ClaimLog::default();
            position.play_with(mv, &mut log);
            let mut captured: Vec<RecordedBuilding> = log
                .claims
                .iter()
                .filter_map(|(_, b)| *b)
                .map(|b| RecordedBuilding {
                    player: b.owner.map_or("cathedral", Player::name).to_string(),
                    piece: b.piece.name().to_string(),
                    cells: cells_of(b.cells),
                })
                .collect();
            captured.sort();
            let mut expected_captured = entry.captured.clone();
            expected_captured.sort();
            assert_eq!(captured, expected_captured, "{at}: captures");
            let state = entry
                .after
                .as_ref()
                .expect("placements record the state after");
            let mut expected_buildings = state.buildings.clone();
            expected_buildings.sort();
            assert_eq!(
                our_buildings(&position),
                expected_buildings,
                "{at}: buildings"
            );
            for player in Player::BOTH {
                assert_eq!(
                    cells_of(position.side(player).territory),
                    state.territory[player.name()],
                    "{at}: {player} territory"
                );
                for piece in Piece::PLAYER_KINDS {
                    assert_eq!(
                        position.side(player).hand.count(piece),
                        state.hands[player.name()][piece.name()],
                        "{at}: {player} {piece} in hand"
                    );
                }
            }
            assert_eq!(
                position.to_move().name(),
                state.to_move,
                "{at}: to move after"
            );
            assert_eq!(
                position.count_placements(position.to_move()),
                state.legal_placements,
                "{at}: legal placements"
            );
            states += 1;
        }
        assert!(
            position.is_game_over(),
            "game seed {}: not over at the end",
            game.seed
        );
        for player in Player::BOTH {
            assert_eq!(
                position.unplaced_squares(player),
                game.final_.unplaced_squares[player.name()],
                "game seed {}: {player} final unplaced squares",
                game.seed
            );
        }
    }
    assert!(states > 600, "only {states} states checked");
}
