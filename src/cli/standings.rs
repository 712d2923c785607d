//! `cathedral standings FILES...`: match and tournament standings from game records, scored as
//! the rule sheets score them (docs/game-record.md).

use super::ColorArg;
use super::replay::load_records;
use super::shared::game::{which, with_game};
use super::shared::output::{
    emit_json, emit_text, new_table, right_align, style_for, wrap_for_terminal,
};
use cathedral::analysis::Judge;
use cathedral::analysis::standings::standings;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct StandingsArgs {
    /// Game record files (docs/game-record.md).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Print the standings as JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub color: ColorArg,
}

/// The standings of the record files, of whichever game the first file declares
/// (`game: corintho`); every file must hold games of that game.
pub fn run(args: &StandingsArgs) -> miette::Result<()> {
    with_game!(which(None, args.files.first().map(PathBuf::as_path)), G => table::<G>(args))
}

fn table<G: Judge>(args: &StandingsArgs) -> miette::Result<()> {
    let mut games = Vec::new();
    for path in &args.files {
        for (i, game) in load_records::<G>(path)?.into_iter().enumerate() {
            games.push((format!("{} game {}", path.display(), i + 1), game));
        }
    }
    let result = standings::<G>(&games);
    if args.json {
        return emit_json(&result);
    }
    let mut table = new_table(style_for(args.color));
    table.set_header([
        "rank",
        "player",
        "games",
        G::SCORE_COLUMN,
        "games W-D-L",
        "matches W-D-L",
    ]);
    for line in &result.table {
        table.add_row(vec![
            line.rank.to_string(),
            line.player.clone(),
            line.games.to_string(),
            line.squares.to_string(),
            format!(
                "{}-{}-{}",
                line.game_wins, line.game_draws, line.game_losses
            ),
            format!(
                "{}-{}-{}",
                line.match_wins, line.match_draws, line.match_losses
            ),
        ]);
    }
    right_align(&mut table, &[0, 2, 3]);
    let mut out = format!(
        "{table}\n{}\n",
        wrap_for_terminal(G::STANDINGS_LEGEND, "", "")
    );
    if !result.matches.is_empty() {
        out.push_str("\nMatches:\n");
        for m in &result.matches {
            let verdict = match m.first_squares.cmp(&m.second_squares) {
                std::cmp::Ordering::Less => format!("{} wins", m.first),
                std::cmp::Ordering::Greater => format!("{} wins", m.second),
                std::cmp::Ordering::Equal => "drawn".to_string(),
            };
            out.push_str(&wrap_for_terminal(
                &format!(
                    "{} {} - {} {}: {verdict} ({}; {})",
                    m.first, m.first_squares, m.second_squares, m.second, m.games[0], m.games[1]
                ),
                "  ",
                "    ",
            ));
            out.push('\n');
        }
    }
    for (title, list) in [
        (
            "Without a return game (counted in the table, not as a match)",
            &result.unpaired,
        ),
        ("Not counted", &result.skipped),
    ] {
        if !list.is_empty() {
            out.push_str(&format!("\n{title}:\n"));
            for line in list {
                out.push_str(&wrap_for_terminal(line, "  ", "    "));
                out.push('\n');
            }
        }
    }
    for tie in &result.ties {
        out.push_str(&format!(
            "\nTied on {}: {}\n",
            G::SCORE_WORDS,
            tie.join(", ")
        ));
    }
    emit_text(&out)
}
