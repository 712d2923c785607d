//! Moves in words: what a move did, which rows it made or broke, and how the game stands.

use super::board::{LINES, Square, line_squares};
use super::moves::CorinthoMove;
use super::position::{CorinthoPosition, Outcome};
use super::rules::Answer;

/// A row in words: `columns on a1 b1 c1`.
pub fn row_words(position: &CorinthoPosition, line: usize) -> String {
    let squares = line_squares(line);
    let top = position
        .board()
        .get(squares[0])
        .top()
        .map_or("sections", |l| l.name());
    let names: Vec<String> = squares.iter().map(Square::to_string).collect();
    format!("{top}s on {}", names.join(" "))
}

fn rows_words(position: &CorinthoPosition, rows: u32) -> String {
    (0..LINES.len())
        .filter(|i| rows >> i & 1 != 0)
        .map(|i| row_words(position, i))
        .collect::<Vec<_>>()
        .join("; ")
}

/// Player number as people count: `player 1`.
pub fn player_name(player: u8) -> String {
    format!("player {}", player + 1)
}

/// Explains `mv` played from `before` (which must allow it): one sentence per fact.
///
/// ```
/// use cathedral::corintho::{CorinthoMove, CorinthoPosition, CorinthoRules};
/// use cathedral::corintho::explain::explain;
/// let start = CorinthoPosition::new(CorinthoRules::for_players(2).unwrap());
/// let text = explain(&start, CorinthoMove::parse("C@b2").unwrap());
/// assert!(text[0].starts_with("Player 1 places a column on b2"));
/// ```
pub fn explain(before: &CorinthoPosition, mv: CorinthoMove) -> Vec<String> {
    let mover = before.to_move();
    let mut after = *before;
    after.play(mv);
    let mut out = Vec::new();
    let who = capitalised(&player_name(mover));
    out.push(match mv {
        CorinthoMove::Place { level, to } => {
            format!("{who} places a {} on {to}.", level.name())
        }
        CorinthoMove::Stack { from, to } => format!(
            "{who} moves the stack {} from {from} onto {} at {to}: now {}.",
            before.board().get(from),
            before.board().get(to),
            after.board().get(to)
        ),
        CorinthoMove::Pass => format!("{who} has no legal move and passes."),
    });
    let new_rows = after.rows() & !before.rows();
    let broken = before.rows() & !after.rows();
    if let Some(claimant) = before.claimant() {
        if broken == before.rows() {
            out.push(format!(
                "It breaks the row of {}: {}.",
                player_name(claimant),
                rows_words(before, broken)
            ));
        } else if before.rules().answers(before.rows(), after.rows()) {
            out.push(match before.rules().answer {
                Answer::Modify => format!(
                    "It modifies the row of {}: every row is broken or extended into a row of four (Fig. 4).",
                    player_name(claimant)
                ),
                Answer::NewRow => format!(
                    "It answers the row of {} with a new row (variant answer: new_row).",
                    player_name(claimant)
                ),
            });
        }
    } else if broken != 0 {
        out.push(format!("It breaks {}.", rows_words(before, broken)));
    }
    if new_rows != 0 {
        out.push(format!("It makes a row: {}.", rows_words(&after, new_rows)));
    }
    match after.outcome() {
        Outcome::Won(winner) if after.claimant() == Some(winner) => out.push(format!(
            "No move of {} can modify the row: {} wins.",
            player_name(after.to_move()),
            player_name(winner)
        )),
        Outcome::Won(winner) => out.push(format!(
            "The row of {} still stands: {} wins.",
            player_name(winner),
            player_name(winner)
        )),
        Outcome::Drawn => out.push("No player can move: the game is drawn.".to_string()),
        Outcome::Ongoing => {
            if after.claimant().is_some() {
                let what = match after.rules().answer {
                    Answer::Modify => "break or extend every row",
                    Answer::NewRow => "break every row or make a new one",
                };
                out.push(format!(
                    "{} must {what}, or lose.",
                    capitalised(&player_name(after.to_move()))
                ));
            }
        }
    }
    out
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().collect::<String>() + chars.as_str())
        .unwrap_or_default()
}
