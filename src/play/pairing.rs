//! A match: two games with the colours swapped, decided on the combined score, as the Magnetic
//! Travel sheet scores it ("Now play with the Dark player positioning the Cathedral first. At
//! the end, the player with the combined lowest score wins"). It is the rated unit; a single
//! game can be rated too.

use serde::{Deserialize, Serialize};

/// The games of a match.
pub const MATCH_GAMES: usize = 2;

/// Which player sits where in game `round` (0 or 1) of a match between `players`: the first
/// player moves first in the first game, the second in the second.
pub fn seats_in_round<T: Clone>(players: &[T; 2], round: usize) -> [T; 2] {
    if round.is_multiple_of(2) {
        players.clone()
    } else {
        [players[1].clone(), players[0].clone()]
    }
}

/// A decided match (or single game) between two players, from the first player's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchResult {
    /// Each player's combined score over the games (lower is better).
    pub totals: [u32; 2],
    /// The winning player (0 or 1), `None` for a drawn match.
    pub winner: Option<usize>,
}

/// The result of a match from each game's scores by seat, the games in order (round 0 first).
///
/// ```
/// use cathedral::play::match_result;
/// // The first player leaves 4 squares as Light and 0 as Dark; the second 0 and 9.
/// let result = match_result(&[vec![4, 0], vec![9, 0]]);
/// assert_eq!(result.totals, [4, 9]);
/// assert_eq!(result.winner, Some(0));
/// ```
pub fn match_result(games: &[Vec<u32>]) -> MatchResult {
    let mut totals = [0u32; 2];
    for (round, scores) in games.iter().enumerate() {
        let by_player = seats_in_round(&[0usize, 1], round);
        for (seat, player) in by_player.iter().enumerate() {
            totals[*player] += scores.get(seat).copied().unwrap_or(0);
        }
    }
    let winner = match totals[0].cmp(&totals[1]) {
        std::cmp::Ordering::Less => Some(0),
        std::cmp::Ordering::Greater => Some(1),
        std::cmp::Ordering::Equal => None,
    };
    MatchResult { totals, winner }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_swap_and_the_totals_decide() {
        assert_eq!(seats_in_round(&["a", "b"], 0), ["a", "b"]);
        assert_eq!(seats_in_round(&["a", "b"], 1), ["b", "a"]);
        // Dark wins both games by the same margin: the match is drawn.
        let drawn = match_result(&[vec![5, 0], vec![5, 0]]);
        assert_eq!((drawn.totals, drawn.winner), ([5, 5], None));
        // The second player loses game 1 by 3 and wins game 2 by 7.
        let second = match_result(&[vec![0, 3], vec![0, 7]]);
        assert_eq!((second.totals, second.winner), ([7, 3], Some(1)));
    }
}
