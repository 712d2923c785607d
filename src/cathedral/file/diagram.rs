//! The board diagram form: ten rows of labels, rank 10 on top, one label per building.
//!
//! ```yaml
//! board: |
//!   10 . . . . . . . . . .
//!    9 . . . . . . . . . .
//!    ...
//!    1 A A A . . . . . . .
//!      a b c d e f g h i j
//! legend:
//!   A: dark bridge
//! ```

use super::located::{Errors, Located, Place, RawBuilding};
use crate::cathedral::bitboard::Bitboard;
use crate::cathedral::cell::Cell;
use crate::cathedral::piece::Piece;
use crate::cathedral::player::Player;
use crate::files::FileError;
use std::collections::BTreeMap;

/// Reads the diagram's buildings into `out`.
pub(super) fn read(
    errors: &Errors,
    board: &Located<String>,
    legend: Option<&BTreeMap<String, Located<String>>>,
    out: &mut Vec<RawBuilding>,
) -> Result<(), FileError> {
    let board_place = board.place;
    let rows = rows_of(errors, &board.value, board_place)?;
    let mut labels: BTreeMap<char, (Bitboard, Place)> = BTreeMap::new();
    for (rank_from_top, row) in rows.iter().enumerate() {
        let rank = 9 - rank_from_top as u8;
        for (file, &symbol) in row.symbols.iter().enumerate() {
            if symbol == '.' {
                continue;
            }
            let cell = Cell::new(file as u8, rank).unwrap_or_else(|| unreachable!("10x10 checked"));
            let entry = labels.entry(symbol).or_insert((Bitboard::EMPTY, row.place));
            entry.0.insert(cell);
        }
    }
    let empty = BTreeMap::new();
    let legend = legend.unwrap_or(&empty);
    for (label, meaning) in legend {
        let mut chars = label.chars();
        if let (Some(c), None) = (chars.next(), chars.next()) {
            if c == '.' {
                return Err(errors.at(
                    meaning.place,
                    "`.` marks an empty cell and cannot be a label",
                ));
            }
            if !labels.contains_key(&c) {
                return Err(errors.at(
                    meaning.place,
                    format!("label `{label}` is in the legend but not on the board"),
                ));
            }
        } else {
            return Err(errors.at(
                meaning.place,
                format!("legend label `{label}` must be a single character"),
            ));
        }
    }
    for (symbol, (cells, place)) in labels {
        let Some(meaning) = legend.get(&symbol.to_string()) else {
            return Err(errors.at(
                place,
                format!("label `{symbol}` on the board is not in the `legend:` (add e.g. `{symbol}: dark castle`)"),
            ));
        };
        let (owner, piece) = parse_meaning(errors, meaning)?;
        out.push(RawBuilding {
            owner,
            piece,
            cells,
            place,
        });
    }
    Ok(())
}

struct Row {
    symbols: Vec<char>,
    place: Place,
}

fn rows_of(errors: &Errors, text: &str, board_place: Place) -> Result<Vec<Row>, FileError> {
    let mut rows = Vec::new();
    let mut search_from = board_place.0.unwrap_or(1);
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        // Locate the row in the file, for error messages.
        let place = match locate(errors.text, trimmed, &mut search_from) {
            (None, _) => board_place,
            found => found,
        };
        if is_file_letters(trimmed) {
            continue; // the file letters under the board
        }
        if rows.len() == 10 {
            return Err(errors.at(
                place,
                "the board diagram has more than 10 rows; it needs 10, rank 10 at the top",
            ));
        }
        let mut tokens: Vec<&str> = trimmed.split_whitespace().collect();
        let expected_rank = 10 - rows.len();
        if let Some(first) = tokens.first()
            && first.chars().all(|c| c.is_ascii_digit())
            && tokens.len() > 1
        {
            if first.parse::<usize>().ok() != Some(expected_rank) {
                return Err(errors.at(
                    place,
                    format!("this row is labelled rank {first}, but rows go from 10 at the top down to 1, so rank {expected_rank} was expected"),
                ));
            }
            tokens.remove(0);
        }
        let symbols: Vec<char> = if tokens.len() == 1 {
            tokens[0].chars().collect()
        } else {
            let mut symbols = Vec::new();
            for token in &tokens {
                let mut chars = token.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => symbols.push(c),
                    _ => {
                        return Err(errors.at(
                            place,
                            format!("`{token}` is not one label: separate the ten cells of a row by spaces, one character each (`.` for empty)"),
                        ));
                    }
                }
            }
            symbols
        };
        if symbols.len() != 10 {
            return Err(errors.at(
                place,
                format!(
                    "a board row has 10 cells (files a..j), this one has {}",
                    symbols.len()
                ),
            ));
        }
        rows.push(Row { symbols, place });
    }
    if rows.len() != 10 {
        return Err(errors.at(
            board_place,
            format!(
                "the board diagram has {} row{}; it needs 10, rank 10 at the top",
                rows.len(),
                if rows.len() == 1 { "" } else { "s" }
            ),
        ));
    }
    Ok(rows)
}

/// `a b c d e f g h i j`: the file letters under the board.
fn is_file_letters(row: &str) -> bool {
    let tokens: Vec<&str> = row.split_whitespace().collect();
    tokens.len() == 10
        && tokens
            .iter()
            .all(|t| t.len() == 1 && ('a'..='j').contains(&t.chars().next().unwrap_or(' ')))
}

/// The line and column where `needle` first occurs at or after line `from`.
fn locate(text: &str, needle: &str, from: &mut usize) -> Place {
    for (i, line) in text.lines().enumerate().skip(from.saturating_sub(1)) {
        if let Some(column) = line.find(needle) {
            *from = i + 2;
            return (Some(i + 1), Some(line[..column].chars().count() + 1));
        }
    }
    (None, None)
}

/// `dark castle`, `light inn`, `cathedral`.
fn parse_meaning(
    errors: &Errors,
    meaning: &Located<String>,
) -> Result<(Option<Player>, Piece), FileError> {
    let place = meaning.place;
    let words: Vec<&str> = meaning.value.split_whitespace().collect();
    let bad = || {
        errors.at(
            place,
            format!(
                "`{}` is not a building: expected `light PIECE`, `dark PIECE` or `cathedral`",
                meaning.value
            ),
        )
    };
    match words.as_slice() {
        [word] => match word.parse::<Piece>() {
            Ok(Piece::Cathedral) => Ok((None, Piece::Cathedral)),
            _ => Err(bad()),
        },
        [player, piece] => {
            let player: Player = player.parse().map_err(|_| bad())?;
            let piece: Piece =
                piece
                    .parse()
                    .map_err(|e: crate::cathedral::piece::ParsePieceError| {
                        errors.at(place, e.to_string())
                    })?;
            if piece == Piece::Cathedral {
                return Err(errors.at(
                    place,
                    "the Cathedral belongs to no player: write just `cathedral`",
                ));
            }
            Ok((Some(player), piece))
        }
        _ => Err(bad()),
    }
}
