//! Match and tournament standings from game records, scored as the Travel and World editions'
//! rule sheets score them: each game scores each side's unplaced squares; a match is two games
//! between the same players with colours swapped, won by the lower total; a tournament ranks
//! players by their accumulated unplaced squares, lowest first.
//!
//! Written once for every game ([`Judge`]): each game scores each seat (lower is better; Corintho
//! scores 0 for a win, 1 for a draw, 2 for a loss), and a match is two two-player games between
//! the same players with the seats swapped.

use crate::analysis::Judge;
use serde::Serialize;
use std::collections::BTreeMap;

/// One player's line of the table.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Standing {
    /// The player's name as in the records.
    pub player: String,
    /// 1 for the lowest total; players with equal totals share a rank.
    pub rank: usize,
    /// Finished games played.
    pub games: usize,
    /// Unplaced squares over all finished games: the tournament score, lower is better (of
    /// another game, its score: Corintho's 0 per win, 1 per draw, 2 per loss).
    pub squares: u32,
    /// Games won, drawn, lost (fewer unplaced squares than every opponent wins; as few as the
    /// fewest of the others draws).
    pub game_wins: usize,
    /// See `game_wins`.
    pub game_draws: usize,
    /// See `game_wins`.
    pub game_losses: usize,
    /// Matches (pairs of games with colours swapped) won, drawn, lost.
    pub match_wins: usize,
    /// See `match_wins`.
    pub match_draws: usize,
    /// See `match_wins`.
    pub match_losses: usize,
}

/// A match: two games between the same players with colours swapped.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MatchScore {
    /// The player who was Light in the first game.
    pub first: String,
    /// The other player.
    pub second: String,
    /// Each player's unplaced squares over both games.
    pub first_squares: u32,
    /// See `first_squares`.
    pub second_squares: u32,
    /// Where the two games are: "file game N".
    pub games: [String; 2],
}

/// Standings and what could not be counted.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Standings {
    /// The table, best first.
    pub table: Vec<Standing>,
    /// Every complete match.
    pub matches: Vec<MatchScore>,
    /// Games counted in the table but without their return game ("file game N: Ann v Bob").
    pub unpaired: Vec<String>,
    /// Games not counted: unfinished, or without both players' names.
    pub skipped: Vec<String>,
    /// Groups of players sharing a rank.
    pub ties: Vec<Vec<String>>,
}

/// A finished two-player game as the pairing needs it.
struct Finished {
    light: String,
    dark: String,
    light_squares: u32,
    dark_squares: u32,
    place: String,
    /// The seats' titles (`Light`, `Dark`).
    titles: Vec<String>,
}

/// The standings of `games`, each with where it is (`"file game N"`).
pub fn standings<G: Judge>(games: &[(String, G::Record)]) -> Standings {
    let mut out = Standings::default();
    let mut table: BTreeMap<String, Standing> = BTreeMap::new();
    // Finished games per unordered pairing, in file order.
    let mut pairings: BTreeMap<(String, String), Vec<Finished>> = BTreeMap::new();
    for (place, game) in games {
        let Some(names) = G::player_names(game) else {
            out.skipped
                .push(format!("{place}: a player's name is missing"));
            continue;
        };
        let Some(scores) = G::scores(game).filter(|s| s.len() == names.len()) else {
            out.skipped.push(format!(
                "{place}: {} is not finished ({})",
                names.join(" v "),
                crate::present::words::count(G::record_moves(game).len() as i64, "move")
            ));
            continue;
        };
        for (i, (name, &own)) in names.iter().zip(&scores).enumerate() {
            let best_other = scores
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, &s)| s)
                .min()
                .unwrap_or(own);
            let line = table.entry(name.clone()).or_insert_with(|| Standing {
                player: name.clone(),
                ..Standing::default()
            });
            line.games += 1;
            line.squares += own;
            match own.cmp(&best_other) {
                std::cmp::Ordering::Less => line.game_wins += 1,
                std::cmp::Ordering::Equal => line.game_draws += 1,
                std::cmp::Ordering::Greater => line.game_losses += 1,
            }
        }
        let (Ok([light, dark]), Ok([light_squares, dark_squares])) =
            (<[String; 2]>::try_from(names), <[u32; 2]>::try_from(scores))
        else {
            // Not a two-player game: counted in the table, never a match.
            continue;
        };
        let titles = G::seats(&G::record_start(game))
            .into_iter()
            .map(G::seat_title)
            .collect();
        let key = if light <= dark {
            (light.clone(), dark.clone())
        } else {
            (dark.clone(), light.clone())
        };
        pairings.entry(key).or_default().push(Finished {
            light,
            dark,
            light_squares,
            dark_squares,
            place: place.clone(),
            titles,
        });
    }
    for games in pairings.values() {
        let mut waiting: Vec<&Finished> = Vec::new();
        for game in games {
            // The return game: the same two players, colours swapped.
            if let Some(at) = waiting
                .iter()
                .position(|w| w.light == game.dark && w.dark == game.light)
            {
                let first = waiting.remove(at);
                let score = MatchScore {
                    first: first.light.clone(),
                    second: first.dark.clone(),
                    first_squares: first.light_squares + game.dark_squares,
                    second_squares: first.dark_squares + game.light_squares,
                    games: [first.place.clone(), game.place.clone()],
                };
                for (name, own, other) in [
                    (&score.first, score.first_squares, score.second_squares),
                    (&score.second, score.second_squares, score.first_squares),
                ] {
                    if let Some(line) = table.get_mut(name) {
                        match own.cmp(&other) {
                            std::cmp::Ordering::Less => line.match_wins += 1,
                            std::cmp::Ordering::Equal => line.match_draws += 1,
                            std::cmp::Ordering::Greater => line.match_losses += 1,
                        }
                    }
                }
                out.matches.push(score);
            } else {
                waiting.push(game);
            }
        }
        for game in waiting {
            let title = |i: usize| game.titles.get(i).cloned().unwrap_or_default();
            out.unpaired.push(format!(
                "{}: {} ({}) v {} ({}) has no return game with colours swapped",
                game.place,
                game.light,
                title(0),
                game.dark,
                title(1)
            ));
        }
    }
    let mut lines: Vec<Standing> = table.into_values().collect();
    lines.sort_by(|a, b| a.squares.cmp(&b.squares).then(a.player.cmp(&b.player)));
    for i in 0..lines.len() {
        lines[i].rank = if i > 0 && lines[i].squares == lines[i - 1].squares {
            lines[i - 1].rank
        } else {
            i + 1
        };
    }
    let mut by_rank: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    for line in &lines {
        by_rank
            .entry(line.rank)
            .or_default()
            .push(line.player.clone());
    }
    out.ties = by_rank.into_values().filter(|g| g.len() > 1).collect();
    out.table = lines;
    out
}
