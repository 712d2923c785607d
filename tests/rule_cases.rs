//! Every file in `puzzles/rules/` is a position with moves and the ruling the rules demand for the
//! last one: claims, captures, near misses with their reasons, refusals, passes and game ends.

use cathedral::explain::explain_move;
use cathedral::file::{Ruling, RulingBuilding, load};
use cathedral::legality::{MoveError, parse_move};
use cathedral::{Bitboard, CathedralStatus, Cell, MoveList, Player, Position};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn cell_set(cells: &[String], context: &str) -> BTreeSet<String> {
    cells
        .iter()
        .map(|c| {
            c.parse::<Cell>()
                .unwrap_or_else(|e| panic!("{context}: {e}"))
                .to_string()
        })
        .collect()
}

fn names(cells: Bitboard) -> BTreeSet<String> {
    cells.cells().map(|c| c.to_string()).collect()
}

fn check_case(path: &Path) -> Result<(), String> {
    let name = path.display().to_string();
    let file = load(path).map_err(|e| e.to_string())?;
    let ruling: Ruling = file.ruling.clone().ok_or(format!("{name}: no `ruling:`"))?;
    let (last, before_last) = ruling
        .moves
        .split_last()
        .ok_or(format!("{name}: `ruling.moves` is empty"))?;
    let mut position: Position = file.position;
    for text in before_last {
        let mv =
            parse_move(&position, text).map_err(|e| format!("{name}: setup move {text}: {e}"))?;
        position.play(mv);
    }
    let mv = match (parse_move(&position, last), &ruling.illegal) {
        (Err(MoveError::Illegal(illegal)), Some(expected)) => {
            if illegal.code() != expected {
                return Err(format!(
                    "{name}: {last} refused as {} ({illegal}), expected {expected}",
                    illegal.code()
                ));
            }
            return Ok(());
        }
        (Err(e), _) => return Err(format!("{name}: {last}: {e}")),
        (Ok(_), Some(expected)) => {
            return Err(format!(
                "{name}: {last} was accepted, expected refusal {expected}"
            ));
        }
        (Ok(mv), None) => mv,
    };
    let mut legal = MoveList::new();
    position.legal_moves(&mut legal);
    if !legal.contains(mv) {
        return Err(format!(
            "{name}: {last} resolved but is not in the move list"
        ));
    }
    let mover = position.to_move();
    let report = explain_move(&position, mv);
    let after = report.after;

    let claimed: BTreeSet<String> = report.claims.iter().flat_map(|c| names(c.cells)).collect();
    // Whatever a move claims is the mover's and no longer the opponent's.
    for claim in &report.claims {
        if !claim
            .cells
            .is_subset(after.side(mover).territory | after.occupied())
        {
            return Err(format!("{name}: claimed cells are not {mover}'s territory"));
        }
        if claim
            .cells
            .intersects(after.side(mover.opponent()).territory)
        {
            return Err(format!(
                "{name}: claimed cells still belong to the opponent"
            ));
        }
    }
    if let Some(expected) = &ruling.claimed {
        let expected = cell_set(expected, &name);
        if claimed != expected {
            return Err(format!(
                "{name}: claimed {claimed:?}, expected {expected:?}\n{report}"
            ));
        }
    }
    if let Some(expected) = &ruling.captured {
        let mut got: Vec<RulingBuilding> = report
            .captures()
            .map(|b| RulingBuilding {
                player: b.owner.map_or("cathedral", Player::name).to_string(),
                piece: b.piece.name().to_string(),
                cells: b
                    .cells
                    .cells_by_file()
                    .iter()
                    .map(Cell::to_string)
                    .collect(),
            })
            .collect();
        got.sort();
        let mut expected = expected.clone();
        expected.sort();
        if got != expected {
            return Err(format!(
                "{name}: captured {got:?}, expected {expected:?}\n{report}"
            ));
        }
    }
    for expected in &ruling.near_misses {
        let cells = cell_set(&expected.cells, &name);
        let found = report
            .near_misses
            .iter()
            .any(|m| m.reason.code() == expected.reason && names(m.cells) == cells);
        if !found {
            return Err(format!(
                "{name}: no near miss `{}` on {cells:?}; the report says:\n{report}",
                expected.reason
            ));
        }
    }
    if let Some(game_over) = ruling.game_over
        && after.is_game_over() != game_over
    {
        return Err(format!(
            "{name}: game over is {}, expected {game_over}",
            after.is_game_over()
        ));
    }
    if let Some(expected) = &ruling.unplaced_squares {
        for player in Player::BOTH {
            let want = expected.get(player.name()).copied();
            if want.is_some() && want != Some(after.unplaced_squares(player)) {
                return Err(format!(
                    "{name}: {player} has {} unplaced squares, expected {want:?}",
                    after.unplaced_squares(player)
                ));
            }
        }
    }
    if let Some(expected) = &ruling.to_move
        && after.to_move().name() != expected
    {
        return Err(format!(
            "{name}: {} to move, expected {expected}",
            after.to_move()
        ));
    }
    if let Some(expected) = &ruling.cathedral {
        let status = match after.cathedral_status() {
            CathedralStatus::ToPlace => "to-place",
            CathedralStatus::OnBoard => "on-board",
            CathedralStatus::Gone => "gone",
        };
        if status != expected {
            return Err(format!(
                "{name}: the Cathedral is {status}, expected {expected}"
            ));
        }
    }
    if let Some(expected) = ruling.legal_moves
        && after.count_moves() != expected
    {
        return Err(format!(
            "{name}: {} legal moves, expected {expected}",
            after.count_moves()
        ));
    }
    Ok(())
}

fn case_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir("puzzles/rules")
        .expect("puzzles/rules exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_rule_case_gets_its_ruling() {
    let files = case_files();
    assert!(files.len() >= 15, "only {} rule cases", files.len());
    let failures: Vec<String> = files.iter().filter_map(|f| check_case(f).err()).collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n\n{}",
        failures.len(),
        files.len(),
        failures.join("\n\n")
    );
}

#[test]
fn a_wrong_ruling_is_detected() {
    // The checker itself must be able to fail: flip each case's claimed cells and captures.
    for path in case_files() {
        let text = std::fs::read_to_string(&path).expect("readable");
        if !text.contains("claimed: [a1") {
            continue;
        }
        let altered = text.replacen("claimed: [a1", "claimed: [j5, a1", 1);
        let temp = std::env::temp_dir().join(format!(
            "cathedral-altered-{}-{}",
            std::process::id(),
            path.file_name()
                .and_then(|n| n.to_str())
                .unwrap_or("case.yaml")
        ));
        std::fs::write(&temp, altered).expect("temp file");
        let result = check_case(&temp);
        let _ = std::fs::remove_file(&temp);
        assert!(
            result.is_err(),
            "{}: an altered ruling still passed",
            path.display()
        );
    }
}
