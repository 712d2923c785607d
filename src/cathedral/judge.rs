//! Cathedral for whole-game analysis and standings: [`Judge`] on [`Position`]. Positions are
//! judged by the playing engine ([`choose`]: exact when the solver proves the value within the
//! budget, the estimating search's value otherwise), in squares; a finished game scores each
//! side's unplaced squares, as the rule sheets score matches and tournaments.

use super::engine::{Choice, Judgement, PlayOptions, choose};
use super::explain::{MoveReport, explain_move};
use super::file::{self, GameRecord};
use super::moves::Move;
use super::notation::{format_line, format_move_with_player};
use super::player::Player;
use super::position::{Building, Position};
use crate::analysis::game::{
    BLUNDER, DRAW_BAND, GameAnalysis, INACCURACY, Judged, MISTAKE, Mark, PlayerSummary, PlyAnalysis,
};
use crate::analysis::{Budget, Judge, Recheck};

/// Cathedral's review: the moves that first lose 2 squares or more, or half a square where the
/// first look turns the result down, or whose value moves by 3 squares or more between the
/// search before and the one after, judged again at eight times the budget. Chosen by
/// `cathedral review-bench` (docs/analysis.md, "How good is a review"): judging twice as many
/// moves four times deeper found fewer of the mistakes; the moves that turn the result from a
/// small loss found a quarter of the missed ones for 7 % more nodes.
pub const RECHECK: Recheck = Recheck {
    factor: 8,
    from_loss: 2.0,
    unstable: 3.0,
    turns_from: 0.5,
};

/// "Dark Castle (b2,b3,c2,d2,d3)".
fn building_words(building: &Building) -> String {
    format!("{} ({})", building.label(), building.cells)
}

/// The record's glyph for the analysis's mark: `?!`, `?` or `??`.
fn record_mark(mark: Mark) -> file::Mark {
    match mark {
        Mark::Inaccuracy => file::Mark::Dubious,
        Mark::Mistake => file::Mark::Mistake,
        Mark::Blunder => file::Mark::Blunder,
    }
}

/// What the analysis says of a marked move, as the text report does: "mistake, gives up 4.5
/// squares; best was dark:inn:a1,a2,b2".
fn mark_comment(ply: &PlyAnalysis<Position>, mark: Mark) -> String {
    format!(
        "{}, gives up {:.1} squares{}{}",
        mark.word(),
        ply.loss,
        if ply.loss_is_exact { ", exact" } else { "" },
        ply.before
            .best
            .as_ref()
            .map(|best| format!("; best was {best}"))
            .unwrap_or_default()
    )
}

/// What a move gains at once: captures and claimed squares.
fn gains(report: &MoveReport) -> (Vec<String>, u32) {
    let captures = report.captures().map(building_words).collect();
    let claimed = report.claims.iter().map(|c| c.size).sum();
    (captures, claimed)
}

impl Judge for Position {
    type Seat = Player;

    const THRESHOLDS: [f64; 3] = [INACCURACY, MISTAKE, BLUNDER];
    const DRAW_BAND: f64 = DRAW_BAND;
    const RECHECK: Option<Recheck> = Some(RECHECK);
    const UNITS: &'static str = "squares";
    const VALUE_LEGEND: &'static str = "Values are the mover's, in squares: exact (+3) when the solver proved them, ~ estimates otherwise.";
    const RESULT_LEGEND: &'static str = "result: Light-Dark unplaced squares";
    const HTML_REPORT: bool = true;
    const ANNOTATE: bool = true;
    const SCORE_COLUMN: &'static str = "unplaced";
    const SCORE_WORDS: &'static str = "squares";
    const STANDINGS_LEGEND: &'static str = "Ranked by unplaced squares over all finished games, lowest first; a match is two games with colours swapped, won by the lower total.";

    fn judge(&self, played: Option<Move>, budget: &Budget) -> Judged<Move> {
        let options = PlayOptions {
            nodes: budget.nodes,
            time: budget.time,
            tt_mb: budget.tt_mb,
            stop: budget.stop.clone(),
            also: played,
            ..PlayOptions::default()
        };
        let choice: Choice = choose(self, &options, &mut |_| {});
        // The played move's value comes from the deepest finished iteration: so do the best
        // move and its value here, so that the two compare like for like (the best move of a
        // play may come from an unfinished deeper iteration).
        let finished = choice
            .also
            .as_ref()
            .filter(|_| choice.judgement == Judgement::Estimate)
            .and(choice.candidates.first());
        let (value, best_move, pv) = match finished {
            Some(best) => (best.estimate, Some(best.mv), best.pv.clone()),
            None => (choice.value, choice.best, choice.pv.clone()),
        };
        let played_value = match (&choice.also, played) {
            // The best move played loses nothing.
            (_, Some(mv)) if Some(mv) == best_move => Some(value),
            (Some(also), _) => Some(also.estimate),
            _ => None,
        };
        Judged {
            value: f64::from(value) / 100.0,
            judgement: if self.is_game_over() {
                Judgement::Exact
            } else {
                choice.judgement
            },
            best: best_move.map(|mv| format_move_with_player(self, mv)),
            line: format_line(self, &pv),
            played_value: played_value.map(|v| f64::from(v) / 100.0),
            best_move,
            nodes: Some(choice.nodes),
            deeper: false,
        }
    }

    /// Captures or claims the best move had and the played one lacks, and what the played move
    /// allows the opponent's best reply to capture or claim.
    fn move_notes(&self, played: Move, best: Option<Move>, reply: Option<Move>) -> Vec<String> {
        let mut notes = Vec::new();
        let report = explain_move(self, played);
        let (played_captures, played_claimed) = gains(&report);
        if let Some(best) = best {
            let best_report = explain_move(self, best);
            let (best_captures, best_claimed) = gains(&best_report);
            let best_text = format_move_with_player(self, best);
            for capture in best_captures
                .iter()
                .filter(|c| !played_captures.contains(c))
            {
                notes.push(format!(
                    "missed capture: {best_text} would have captured {capture}"
                ));
            }
            if best_claimed > played_claimed {
                notes.push(format!(
                    "missed claim: {best_text} claims {}, the move played {}",
                    crate::present::words::count(best_claimed, "square"),
                    played_claimed
                ));
            }
        }
        if let Some(reply) = reply {
            let after_position = report.after;
            let reply_report = explain_move(&after_position, reply);
            let (captures, claimed) = gains(&reply_report);
            let reply_text = format_move_with_player(&after_position, reply);
            for capture in &captures {
                notes.push(format!("allows {reply_text} to capture {capture}",));
            }
            if captures.is_empty() && claimed >= 3 {
                let cells: Vec<String> = reply_report
                    .claims
                    .iter()
                    .map(|c| c.cells.to_string())
                    .collect();
                notes.push(format!(
                    "allows {reply_text} to claim {claimed} squares ({})",
                    cells.join("; ")
                ));
            }
        }
        notes
    }

    fn seats(_start: &Position) -> Vec<Player> {
        vec![Player::Light, Player::Dark]
    }

    fn seat_to_move(&self) -> Player {
        self.to_move()
    }

    fn seat_title(seat: Player) -> String {
        seat.title().to_string()
    }

    fn seat_key(seat: Player) -> String {
        seat.name().to_string()
    }

    fn result_line(record: &GameRecord) -> Option<String> {
        record
            .result()
            .map(|(light, dark)| format!("Result: Light {light}, Dark {dark} unplaced squares."))
    }

    fn result_short(record: &GameRecord) -> String {
        match record.result() {
            Some((l, d)) => format!("{l}-{d}"),
            None => "unfinished".to_string(),
        }
    }

    fn player_names(record: &GameRecord) -> Option<Vec<String>> {
        Some(vec![record.light.clone()?, record.dark.clone()?])
    }

    /// Each side's unplaced squares.
    fn scores(record: &GameRecord) -> Option<Vec<u32>> {
        record.result().map(|(light, dark)| vec![light, dark])
    }

    /// The analysis's mark replaces a mark the move had; its comment follows the move's own
    /// (after "; "). Unmarked moves, the variations and the rest of the record stay as they were.
    fn annotated(record: &GameRecord, analysis: &GameAnalysis<Position>) -> Option<GameRecord> {
        let mut annotated = record.clone();
        for ply in &analysis.plies {
            let Some(mark) = ply.mark else {
                continue;
            };
            let Some(recorded) = ply
                .ply
                .checked_sub(1)
                .and_then(|i| annotated.moves.get_mut(i))
            else {
                continue;
            };
            let note = mark_comment(ply, mark);
            recorded.mark = Some(record_mark(mark));
            recorded.comment = Some(match recorded.comment.take() {
                Some(own) if !own.trim().is_empty() => format!("{own}; {note}"),
                _ => note,
            });
        }
        Some(annotated)
    }

    fn report_html(
        record: &GameRecord,
        number: usize,
        analysis: &GameAnalysis<Position>,
    ) -> Option<String> {
        Some(crate::cathedral::draw::game_report_html(
            record, number, analysis,
        ))
    }
}

impl GameAnalysis<Position> {
    /// Light's summary.
    pub fn light(&self) -> PlayerSummary {
        self.summary(Player::Light)
    }

    /// Dark's summary.
    pub fn dark(&self) -> PlayerSummary {
        self.summary(Player::Dark)
    }
}

#[cfg(test)]
mod tests {
    // The shared standings (crate::analysis::standings) on Cathedral's records.
    use crate::analysis::standings::standings;
    use crate::cathedral::file::GameRecord;
    use crate::cathedral::position::Position;
    use crate::cathedral::rules::Rules;

    /// A finished game between `light` and `dark`: a policy game from `seed`.
    fn game(light: &str, dark: &str, seed: u64) -> GameRecord {
        let mut rng = crate::boardgame::Rng::new(seed);
        let policy = crate::cathedral::policy::Policy::default();
        let mut position = Position::new(Rules::CLASSIC);
        let mut moves = Vec::new();
        while let Some(mv) = policy.choose(&position, &mut rng) {
            position.play(mv);
            moves.push(crate::cathedral::file::RecordedMove::new(mv));
        }
        GameRecord {
            light: Some(light.into()),
            dark: Some(dark.into()),
            moves,
            ..GameRecord::default()
        }
    }

    #[test]
    fn matches_pair_return_games_and_the_table_counts_squares() {
        let games: Vec<(String, GameRecord)> = [
            ("Ann", "Bob", 1),
            ("Bob", "Ann", 2),
            ("Ann", "Cy", 3),
            ("Cy", "Bob", 4),
        ]
        .iter()
        .enumerate()
        .map(|(i, &(l, d, s))| (format!("t.yaml game {}", i + 1), game(l, d, s)))
        .collect();
        let mut unfinished = game("Ann", "Bob", 5);
        unfinished.moves.truncate(3);
        let mut all = games.clone();
        all.push(("t.yaml game 5".into(), unfinished));
        let result = standings::<Position>(&all);
        assert_eq!(
            result.matches.len(),
            1,
            "only Ann and Bob played a return game"
        );
        assert_eq!(result.unpaired.len(), 2);
        assert_eq!(result.skipped.len(), 1);
        let m = &result.matches[0];
        let (l1, d1) = games[0].1.result().unwrap();
        let (l2, d2) = games[1].1.result().unwrap();
        assert_eq!((m.first.as_str(), m.first_squares), ("Ann", l1 + d2));
        assert_eq!((m.second.as_str(), m.second_squares), ("Bob", d1 + l2));
        // Every finished game counts each side's unplaced squares once.
        let total: u32 = result.table.iter().map(|s| s.squares).sum();
        let expected: u32 = games
            .iter()
            .map(|(_, g)| {
                let (l, d) = g.result().unwrap();
                l + d
            })
            .sum();
        assert_eq!(total, expected);
        assert!(
            result
                .table
                .windows(2)
                .all(|w| w[0].squares <= w[1].squares)
        );
        assert_eq!(result.table.iter().map(|s| s.games).sum::<usize>(), 8);
    }
}
