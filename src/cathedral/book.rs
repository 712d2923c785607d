//! The opening book: for positions of the first plies, the moves played from them in the
//! opening study's engine games (`docs/opening.md`), with how many games each has behind it,
//! the mean final margin for the side that plays it and its worst result. Estimates from
//! self-play at a fixed budget, never exact values.
//!
//! The file lists each position once, by the line that reaches it from the start, in one
//! rotation; the book holds it in all four rotations of the board (the symmetries of the game: the Abbey and the
//! Academy are mirror images between the sets, so reflections are not).
//!
//! ```
//! use cathedral::book::Book;
//! use cathedral::{Position, Rules};
//! let book = Book::bundled();
//! let moves = book.lookup(&Position::new(Rules::CLASSIC)).expect("the start is in the book");
//! assert!(moves.len() >= 56); // every class of Cathedral placement, in every rotation
//! assert!(moves.windows(2).all(|w| w[0].margin >= w[1].margin));
//! ```

use crate::cathedral::legality::parse_move;
use crate::cathedral::moves::Move;
use crate::cathedral::notation::format_move_with_player;
use crate::cathedral::position::Position;
use crate::cathedral::rules::Rules;
use crate::file::FileError;
use serde::{Deserialize, Serialize};
use serde_saphyr::{Location, Spanned};
use std::collections::HashMap;
use std::sync::OnceLock;

/// The book made by the opening study (`python python/bench/opening.py`), built in.
const BUNDLED: &str = include_str!("../../puzzles/book/opening.yaml");

/// The fewest buildings in both hands together of any position in the bundled book (a unit
/// test holds it to the book): a position with fewer is not in it, whatever the book says.
const BUNDLED_FEWEST_IN_HANDS: u32 = 27;

/// A move of the book with its statistics.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BookMove {
    /// The move.
    #[serde(skip)]
    pub mv: Move,
    /// The move in the notation, with the player.
    #[serde(rename = "move")]
    pub text: String,
    /// Games of the study played through it.
    pub games: u32,
    /// Their mean final margin in squares for the side that plays the move (positive: it won
    /// by that many).
    pub margin: f64,
    /// The worst of those games for that side: the best answer the opponent found.
    pub worst: i32,
}

/// An opening book.
#[derive(Clone, Debug)]
pub struct Book {
    /// What the file calls it.
    pub name: String,
    /// The rules its games were played under.
    pub rules: Rules,
    /// The engine's nodes per move in its games.
    pub nodes_per_move: u64,
    positions: HashMap<Position, Vec<BookMove>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBook {
    book: String,
    rules: Spanned<String>,
    nodes_per_move: u64,
    positions: Vec<RawPosition>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPosition {
    line: Vec<Spanned<String>>,
    moves: Vec<RawMove>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMove {
    #[serde(rename = "move")]
    mv: Spanned<String>,
    games: u32,
    margin: f64,
    worst: i32,
}

/// A map of the board's cells as (file, rank), from 0.
type CellMap = fn(u8, u8) -> (u8, u8);

/// The four rotations of the board.
const ROTATIONS: [CellMap; 4] = [
    |x, y| (x, y),
    |x, y| (y, 9 - x),
    |x, y| (9 - x, 9 - y),
    |x, y| (9 - y, x),
];

/// A move's text with its cells turned by `rotate` (`light:tavern:a1` -> `light:tavern:a10`);
/// a pass or a text without cells is left as it is.
fn rotated(text: &str, rotate: CellMap) -> String {
    let Some((head, cells)) = text.rsplit_once(':') else {
        return text.to_string();
    };
    let turned: Option<Vec<String>> = cells
        .split(',')
        .map(|cell| {
            let cell = cell.trim();
            let file = cell.bytes().next()?.checked_sub(b'a')?;
            let rank: u8 = cell.get(1..)?.parse().ok()?;
            let (x, y) = (file, rank.checked_sub(1)?);
            if x > 9 || y > 9 {
                return None;
            }
            let (x, y) = rotate(x, y);
            Some(format!("{}{}", char::from(b'a' + x), y + 1))
        })
        .collect();
    match turned {
        Some(cells) => format!("{head}:{}", cells.join(",")),
        None => text.to_string(),
    }
}

impl Book {
    /// The book built into the program: the opening study's, for the classic rules.
    pub fn bundled() -> &'static Book {
        static BOOK: OnceLock<Book> = OnceLock::new();
        BOOK.get_or_init(|| {
            // The bundled file is checked by the tests; an unreadable one would be a build
            // defect, and an empty book then only means no book moves.
            Book::parse("<bundled book>", BUNDLED).unwrap_or_else(|_| Book {
                name: "empty".to_string(),
                rules: Rules::CLASSIC,
                nodes_per_move: 0,
                positions: HashMap::new(),
            })
        })
    }

    /// The bundled book when `position` may be in it, else `None` without reading the book:
    /// reading it (every line replayed in four rotations) costs a fifth of a second, most of a
    /// short `bestmove` in the middle game, where the book holds nothing.
    pub fn bundled_for(position: &Position) -> Option<&'static Book> {
        (position.buildings_in_hands() >= BUNDLED_FEWEST_IN_HANDS).then(Book::bundled)
    }

    /// Reads a book file's text; `name` labels errors, which are located at the line and
    /// column of what is wrong.
    pub fn parse(name: &str, text: &str) -> Result<Book, FileError> {
        let error = |location: Option<&Location>, message: String| {
            let (line, column) = match location {
                Some(l) if l.line() > 0 => (
                    Some(l.line() as usize),
                    (l.column() > 0).then_some(l.column() as usize),
                ),
                _ => (None, None),
            };
            FileError::new(name, message)
                .at(line, column)
                .with_source(text)
        };
        let raw: RawBook = serde_saphyr::from_str(text).map_err(|e| {
            let message = e.without_snippet().to_string();
            let first = message.lines().next().unwrap_or("not valid YAML").to_string();
            error(
                e.location().as_ref(),
                format!("{first} (an opening book: book, rules, nodes_per_move, positions; docs/opening.md)"),
            )
        })?;
        let rules: Rules = raw
            .rules
            .value
            .parse()
            .map_err(|e: crate::rules::RulesError| {
                error(Some(&raw.rules.referenced), e.to_string())
            })?;
        let mut positions: HashMap<Position, Vec<BookMove>> = HashMap::new();
        for entry in &raw.positions {
            for rotate in ROTATIONS {
                let mut position = Position::new(rules);
                for step in &entry.line {
                    let text = rotated(&step.value, rotate);
                    let mv = parse_move(&position, &text).map_err(|e| {
                        error(
                            Some(&step.referenced),
                            format!("`{}` cannot be played on the line: {e}", step.value),
                        )
                    })?;
                    position.play(mv);
                }
                let mut moves = Vec::with_capacity(entry.moves.len());
                for m in &entry.moves {
                    let text = rotated(&m.mv.value, rotate);
                    let mv = parse_move(&position, &text).map_err(|e| {
                        error(
                            Some(&m.mv.referenced),
                            format!("`{}` cannot be played after the line: {e}", m.mv.value),
                        )
                    })?;
                    if !m.margin.is_finite() || m.games == 0 {
                        return Err(error(
                            Some(&m.mv.referenced),
                            format!(
                                "`{}`: expected at least 1 game and a finite margin",
                                m.mv.value
                            ),
                        ));
                    }
                    moves.push(BookMove {
                        mv,
                        text: format_move_with_player(&position, mv),
                        games: m.games,
                        margin: m.margin,
                        worst: m.worst,
                    });
                }
                // The start and any position a rotation keeps gather the turned moves of
                // each rotation; a move met twice is the same statistic.
                let known = positions.entry(position).or_default();
                for m in moves {
                    if !known.iter().any(|k| k.mv == m.mv) {
                        known.push(m);
                    }
                }
            }
        }
        for moves in positions.values_mut() {
            moves.sort_by(|a, b| b.margin.total_cmp(&a.margin).then(b.games.cmp(&a.games)));
        }
        Ok(Book {
            name: raw.book,
            rules,
            nodes_per_move: raw.nodes_per_move,
            positions,
        })
    }

    /// The book's moves in `position`, best first (by mean margin), or `None` when the position
    /// is not in the book.
    pub fn lookup(&self, position: &Position) -> Option<&[BookMove]> {
        self.positions
            .get(position)
            .map(Vec::as_slice)
            .filter(|m| !m.is_empty())
    }

    /// The move the book plays: the best mean margin among the moves with at least two games
    /// behind them (one game is one engine game, not a statistic), else the best of all.
    pub fn choice(&self, position: &Position) -> Option<&BookMove> {
        let moves = self.lookup(position)?;
        moves
            .iter()
            .find(|m| m.games >= 2)
            .or_else(|| moves.first())
    }

    /// Positions in the book, rotations counted.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// Whether the book holds no position.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn legal(position: &Position) -> Vec<Move> {
        crate::frontend::Playable::legal_moves(position)
    }

    #[test]
    fn rotations_turn_cells_and_leave_passes() {
        assert_eq!(rotated("light:tavern:a1", ROTATIONS[1]), "light:tavern:a10");
        assert_eq!(
            rotated("dark:bridge:a1,a2,a3", ROTATIONS[2]),
            "dark:bridge:j10,j9,j8"
        );
        assert_eq!(rotated("pass", ROTATIONS[1]), "pass");
        for text in ["light:tavern:c4", "dark:bridge:a1,a2,a3"] {
            let mut turned = text.to_string();
            for _ in 0..4 {
                turned = rotated(&turned, ROTATIONS[1]);
            }
            assert_eq!(turned, text);
        }
    }

    /// The four rotations are symmetries of the game: after every Cathedral placement, Dark's
    /// legal first moves turn into those after the turned placement.
    #[test]
    fn rotations_are_symmetries_of_the_game() {
        let start = Position::new(Rules::CLASSIC);
        let texts = |p: &Position| -> std::collections::BTreeSet<String> {
            legal(p)
                .iter()
                .map(|&m| {
                    let t = format_move_with_player(p, m);
                    let (head, cells) = t.rsplit_once(':').unwrap_or((&t, ""));
                    let mut cells: Vec<&str> = cells.split(',').collect();
                    cells.sort();
                    format!("{head}:{}", cells.join(","))
                })
                .collect()
        };
        for &placement in legal(&start).iter().step_by(7) {
            let text = format_move_with_player(&start, placement);
            let mut after = start;
            after.play(placement);
            for rotate in ROTATIONS {
                let turned = parse_move(&start, &rotated(&text, rotate)).expect("a placement");
                let mut image = start;
                image.play(turned);
                let mapped: std::collections::BTreeSet<String> = texts(&after)
                    .iter()
                    .map(|t| {
                        let r = rotated(t, rotate);
                        let (head, cells) = r.rsplit_once(':').unwrap_or((&r, ""));
                        let mut cells: Vec<&str> = cells.split(',').collect();
                        cells.sort();
                        format!("{head}:{}", cells.join(","))
                    })
                    .collect();
                assert_eq!(mapped, texts(&image), "{text}");
            }
        }
    }

    #[test]
    fn bad_books_are_refused_with_a_location() {
        let e = Book::parse("b.yaml", "book: x\nrules: classic\nnodes_per_move: 1\npositions:\n- line: []\n  moves:\n  - {move: \"light:tavern:a1\", games: 1, margin: 0, worst: 0}\n").unwrap_err();
        assert_eq!(e.line, Some(7), "{e}");
        assert!(e.message.contains("light:tavern:a1"), "{e}");
        let e = Book::parse(
            "b.yaml",
            "book: x\nrules: nonsense\nnodes_per_move: 1\npositions: []\n",
        )
        .unwrap_err();
        assert_eq!(e.line, Some(2), "{e}");
        let e = Book::parse("b.yaml", "book: x\n").unwrap_err();
        assert!(e.message.contains("opening book"), "{e}");
    }

    #[test]
    fn the_bundled_book_is_skipped_only_where_it_holds_nothing() {
        let book = Book::parse("<bundled book>", BUNDLED).unwrap_or_else(|e| panic!("{e}"));
        let fewest = book
            .positions
            .keys()
            .map(Position::buildings_in_hands)
            .min();
        assert_eq!(fewest, Some(BUNDLED_FEWEST_IN_HANDS));
        // Along a game, the book is offered while the position has as many buildings in hand
        // as one of its positions, and refused after.
        let mut position = Position::new(Rules::CLASSIC);
        for _ in 0..6 {
            assert_eq!(
                Book::bundled_for(&position).is_some(),
                position.buildings_in_hands() >= BUNDLED_FEWEST_IN_HANDS
            );
            if book.lookup(&position).is_some() {
                assert!(Book::bundled_for(&position).is_some());
            }
            let mv = legal(&position)[0];
            position.play(mv);
        }
        assert!(Book::bundled_for(&position).is_none());
    }

    #[test]
    fn the_bundled_book_reads_and_covers_the_start() {
        let book = Book::parse("<bundled book>", BUNDLED).unwrap_or_else(|e| panic!("{e}"));
        let start = Position::new(Rules::CLASSIC);
        let moves = book.lookup(&start).expect("the start");
        assert_eq!(moves.len(), legal(&start).len());
        let choice = book.choice(&start).expect("a choice");
        let mut after = start;
        after.play(choice.mv);
        assert!(
            book.lookup(&after).is_some(),
            "the book goes on after its own move"
        );
    }
}
