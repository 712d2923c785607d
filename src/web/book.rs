//! `POST /api/book`: the opening book's moves in the position a game reaches, with their
//! statistics (`docs/opening.md`), for the page's opening explorer.

use super::api::{ApiError, GAME, GameRequest, read, replay};
use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::http::StatusCode;
use cathedral::Player;
use cathedral::book::{Book, BookMove};
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

pub(crate) async fn book(
    body: Result<Json<serde_json::Value>, JsonRejection>,
) -> Result<Json<BookAnswer>, ApiError> {
    let game: GameRequest = read(body, &GAME)?;
    let (position, _) = replay(&game)?;
    // Off the async workers: the first request may still find the book being read.
    let answer = tokio::task::spawn_blocking(move || {
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
    })
    .await
    .map_err(|_| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the opening book's lookup failed".into(),
        )
    })?;
    Ok(Json(answer))
}
