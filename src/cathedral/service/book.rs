//! `POST /api/book`: the opening book's moves in the position a game reaches, with their
//! statistics (`docs/opening.md`), for the page's opening explorer.

use super::api::{ApiError, GAME, GameRequest, read, replay};
use crate::Player;
use crate::book::{Book, BookMove};
use serde::Serialize;

#[derive(Serialize)]
pub(crate) struct BookAnswer {
    /// Whether the position is in the book.
    in_book: bool,
    /// The book's name.
    name: String,
    /// The engine's nodes per move in the book's games.
    nodes_per_move: u64,
    /// The side to move.
    mover: Player,
    /// The move the book plays here (what `cathedral bestmove` answers), if in the book.
    choice: Option<String>,
    /// The book's moves here, best first: games, mean final margin and worst result for the
    /// side that plays it (estimates from engine self-play).
    moves: Vec<BookMove>,
}

pub(crate) fn book(body: &[u8]) -> Result<serde_json::Value, ApiError> {
    let game: GameRequest = read(body, &GAME)?;
    let (position, _) = replay(&game)?;
    let answer = {
        let book = Book::bundled();
        let moves = book
            .lookup(&position)
            .map(<[BookMove]>::to_vec)
            .unwrap_or_default();
        BookAnswer {
            in_book: !moves.is_empty(),
            name: book.name.clone(),
            nodes_per_move: book.nodes_per_move,
            mover: position.to_move(),
            choice: book.choice(&position).map(|m| m.text.clone()),
            moves,
        }
    };
    super::to_json(&answer)
}
