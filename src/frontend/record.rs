//! Game records for every game: the [`Recorded`] trait and appending moves to a record.

use super::game::Playable;
use crate::files::FileError;

/// A game whose whole games are kept in record files (several games per file).
pub trait Recorded: Playable + PartialEq {
    /// One recorded game: its start, its moves and what is known about it.
    type Record: Clone;

    /// Reads a record file's text; `name` labels errors (file, line, column).
    fn parse_records(name: &str, text: &str) -> Result<Vec<Self::Record>, FileError>;
    /// The record file's text for `records`.
    fn records_text(records: &[Self::Record]) -> String;
    /// A new record of a game from `start` with `moves`.
    fn new_record(start: Self, moves: &[Self::Move]) -> Self::Record;
    /// The position a record starts from.
    fn record_start(record: &Self::Record) -> Self;
    /// A record's moves.
    fn record_moves(record: &Self::Record) -> Vec<Self::Move>;
    /// Appends moves to a record.
    fn extend_record(record: &mut Self::Record, moves: &[Self::Move]);
    /// Each move's comment, in order.
    fn move_comments(record: &Self::Record) -> Vec<Option<String>>;
    /// The comment on the whole game.
    fn record_comment(record: &Self::Record) -> Option<&str>;
    /// "Game 1: Ann (Light) v Bob (Dark), Club night, 2026-11-20, round 3".
    fn record_heading(record: &Self::Record, number: usize) -> String;
    /// Who played and where, as data (`replay --json`'s fields after `game`).
    fn record_meta(record: &Self::Record) -> impl serde::Serialize + '_;
}

/// The position after every move of a record: the start first.
pub fn record_positions<G: Recorded>(record: &G::Record) -> Vec<G> {
    let mut position = G::record_start(record);
    let mut positions = vec![position];
    for mv in G::record_moves(record) {
        position.play(mv);
        positions.push(position);
    }
    positions
}

/// Appends `moves`, played from `start`, to the last game of `records` (which must end at
/// `start`), or starts a new game when there is none. The error says where the last game ends.
pub fn append_to_records<G: Recorded>(
    records: &mut Vec<G::Record>,
    start: G,
    moves: &[G::Move],
) -> Result<(), String> {
    match records.last_mut() {
        Some(record) => {
            let end = record_positions::<G>(record)
                .last()
                .copied()
                .unwrap_or(start);
            if end != start {
                return Err(format!(
                    "ends elsewhere than the position played from: its last game ends after {} with {} to move",
                    crate::present::words::count(G::record_moves(record).len() as i64, "move"),
                    end.side_to_move().1
                ));
            }
            G::extend_record(record, moves);
        }
        None => records.push(G::new_record(start, moves)),
    }
    Ok(())
}
