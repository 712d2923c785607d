//! The HTML report of a whole-game analysis: a plot of the value over the game (exact and
//! estimated parts drawn distinctly, marked moves as coloured dots that link to their diagrams),
//! the table of every move, a board at each marked move with what it missed, and the summary.

use crate::analysis::game::{GameAnalysis, Mark, PlayerSummary};
use crate::cathedral::draw::svg::{SvgOptions, render_svg};
use crate::cathedral::engine::Judgement;
use crate::cathedral::file::GameRecord;
use crate::cathedral::player::Player;
use crate::cathedral::position::Position;
use crate::present::escape;

const STYLE: &str = "
body { font-family: Georgia, 'Times New Roman', serif; font-size: 11pt; margin: 1.5em auto; max-width: 60em; color: #222; }
h1 { font-size: 17pt; margin: 0 0 2mm 0; }
h2 { font-size: 13pt; margin: 6mm 0 2mm 0; }
.result { margin: 0 0 4mm 0; }
.plot svg { width: 100%; height: auto; max-width: 56em; }
table.moves { border-collapse: collapse; font-size: 10pt; }
table.moves td, table.moves th { padding: 0.5mm 2mm; text-align: left; }
table.moves td.num { text-align: right; font-variant-numeric: tabular-nums; }
table.moves tr:nth-child(even) { background: #f4f1ea; }
.mark-inaccuracy { color: #8a6d00; font-weight: bold; }
.mark-mistake { color: #c05a00; font-weight: bold; }
.mark-blunder { color: #b00020; font-weight: bold; }
.marked { display: grid; grid-template-columns: 22em 1fr; gap: 2mm 6mm; margin-bottom: 6mm; break-inside: avoid; }
.marked svg { width: 100%; height: auto; }
.notes li { margin-bottom: 1mm; }
code { font-size: 10pt; }
.legend { font-size: 10pt; color: #555; }
";

/// The plot's size in pixels.
const WIDTH: f64 = 760.0;
const HEIGHT: f64 = 260.0;
const LEFT: f64 = 44.0;
const RIGHT: f64 = 12.0;
const TOP: f64 = 14.0;
const BOTTOM: f64 = 30.0;

fn mark_colour(mark: Mark) -> &'static str {
    match mark {
        Mark::Inaccuracy => "#d4a900",
        Mark::Mistake => "#e07000",
        Mark::Blunder => "#b00020",
    }
}

/// The value plot: Light's view of every position, the exact stretch solid with filled dots, the
/// estimated stretch dashed with hollow dots; marked moves coloured, each dot a link.
pub fn value_plot_svg(values: &[(f64, Judgement)], marks: &[Option<Mark>]) -> String {
    let n = values.len().max(2) - 1;
    let top = values
        .iter()
        .map(|(v, _)| v.abs())
        .fold(5.0_f64, f64::max)
        .ceil();
    let x = |i: usize| LEFT + (WIDTH - LEFT - RIGHT) * i as f64 / n as f64;
    let y = |v: f64| TOP + (HEIGHT - TOP - BOTTOM) * (top - v) / (2.0 * top);
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" role=\"img\" aria-label=\"The value of the game for Light, move by move\" font-family=\"DejaVu Sans, Arial, sans-serif\" font-size=\"11\">\n"
    );
    // Light ahead above, Dark ahead below.
    svg.push_str(&format!(
        "<rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{}\" height=\"{}\" fill=\"#fbf8ef\"/>\n<rect x=\"{LEFT}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#efe6df\"/>\n",
        WIDTH - LEFT - RIGHT,
        y(0.0) - TOP,
        y(0.0),
        WIDTH - LEFT - RIGHT,
        HEIGHT - BOTTOM - y(0.0)
    ));
    for tick in [-top, -top / 2.0, 0.0, top / 2.0, top] {
        svg.push_str(&format!(
            "<line x1=\"{LEFT}\" x2=\"{}\" y1=\"{y:.1}\" y2=\"{y:.1}\" stroke=\"{}\" stroke-width=\"{}\"/><text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>\n",
            WIDTH - RIGHT,
            if tick == 0.0 { "#555" } else { "#ddd" },
            if tick == 0.0 { 1.2 } else { 0.6 },
            LEFT - 4.0,
            y(tick) + 4.0,
            if tick == 0.0 { "0".to_string() } else { format!("{tick:+.0}") },
            y = y(tick),
        ));
    }
    let step = (n / 10).max(1);
    for i in (0..=n).step_by(step) {
        svg.push_str(&format!(
            "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{i}</text>\n",
            x(i),
            HEIGHT - BOTTOM + 15.0
        ));
    }
    svg.push_str(&format!(
        "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\" fill=\"#555\">move</text><text x=\"12\" y=\"{:.1}\" transform=\"rotate(-90 12 {:.1})\" text-anchor=\"middle\" fill=\"#555\">Light ahead (squares)</text>\n",
        (LEFT + WIDTH - RIGHT) / 2.0,
        HEIGHT - 3.0,
        HEIGHT / 2.0,
        HEIGHT / 2.0
    ));
    // Segments: solid between two exact values, dashed otherwise.
    for i in 1..values.len() {
        let exact = values[i - 1].1 == Judgement::Exact && values[i].1 == Judgement::Exact;
        svg.push_str(&format!(
            "<line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"#2b4c7e\" stroke-width=\"2\"{}/>\n",
            x(i - 1),
            y(values[i - 1].0),
            x(i),
            y(values[i].0),
            if exact { "" } else { " stroke-dasharray=\"5 4\"" }
        ));
    }
    for (i, (value, judgement)) in values.iter().enumerate() {
        // Dot i is the position after move i; its mark is move i's.
        let mark = i
            .checked_sub(1)
            .and_then(|m| marks.get(m).copied().flatten());
        let (fill, radius) = match (mark, judgement) {
            (Some(mark), _) => (mark_colour(mark), 5.0),
            (None, Judgement::Exact) => ("#2b4c7e", 3.0),
            (None, Judgement::Estimate) => ("#ffffff", 3.0),
        };
        let target = match mark {
            Some(_) => format!("#move-{i}"),
            None => format!("#row-{i}"),
        };
        let title = format!(
            "after move {i}: {value:+.2} for Light ({})",
            match judgement {
                Judgement::Exact => "exact",
                Judgement::Estimate => "estimate",
            }
        );
        svg.push_str(&format!(
            "<a href=\"{target}\"><circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"{radius}\" fill=\"{fill}\" stroke=\"#2b4c7e\" stroke-width=\"1.5\"><title>{title}</title></circle></a>\n",
            x(i),
            y(*value)
        ));
    }
    svg.push_str("</svg>\n");
    svg
}

fn summary_row(name: &str, summary: &PlayerSummary) -> String {
    format!(
        "<tr><td>{name}</td><td class=\"num\">{}</td><td class=\"num\">{:.2}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
        summary.moves,
        summary.average_loss,
        summary.inaccuracies,
        summary.mistakes,
        summary.blunders,
        summary.exact_moves
    )
}

/// The value plot of an analysed game: every position's value for Light, with the marks.
pub fn game_plot_svg(game: &GameRecord, analysis: &GameAnalysis<Position>) -> String {
    let positions = game.positions();
    let values: Vec<(f64, Judgement)> = positions
        .iter()
        .enumerate()
        .map(|(i, position)| {
            let (value, judgement) = match analysis.plies.get(i) {
                Some(ply) => (ply.before.value, ply.before.judgement),
                None => (analysis.end.value, analysis.end.judgement),
            };
            let light_view = if position.to_move() == Player::Light {
                value
            } else {
                -value
            };
            (light_view, judgement)
        })
        .collect();
    let marks: Vec<Option<Mark>> = analysis.plies.iter().map(|p| p.mark).collect();
    value_plot_svg(&values, &marks)
}

/// The report of game `number` of a record, analysed.
pub fn game_report_html(
    game: &GameRecord,
    number: usize,
    analysis: &GameAnalysis<Position>,
) -> String {
    let positions = game.positions();
    let side = |name: &Option<String>, colour: &str| match name {
        Some(name) => format!("{name} ({colour})"),
        None => colour.to_string(),
    };
    let heading = format!(
        "{} v {}",
        side(&game.light, "Light"),
        side(&game.dark, "Dark")
    );
    let mut html = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Analysis: {}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>Game {number}: {}</h1>\n",
        escape(&heading),
        escape(&heading)
    );
    let context: Vec<String> = [&game.event, &game.site, &game.date, &game.round]
        .into_iter()
        .flatten()
        .map(|s| escape(s))
        .collect();
    if !context.is_empty() {
        html.push_str(&format!("<p>{}</p>\n", context.join(", ")));
    }
    if let Some((light, dark)) = game.result() {
        let verdict = match light.cmp(&dark) {
            std::cmp::Ordering::Less => format!("Light wins by {}", dark - light),
            std::cmp::Ordering::Greater => format!("Dark wins by {}", light - dark),
            std::cmp::Ordering::Equal => "A draw".to_string(),
        };
        html.push_str(&format!(
            "<p class=\"result\"><b>{verdict}</b>: Light {light}, Dark {dark} unplaced squares.</p>\n"
        ));
    }
    html.push_str("<h2>The game at a glance</h2>\n");
    for line in &analysis.headlines {
        html.push_str(&format!("<p class=\"headline\">{}</p>\n", escape(line)));
    }
    html.push_str("<div class=\"plot\">\n");
    html.push_str(&game_plot_svg(game, analysis));
    html.push_str("</div>\n<p class=\"legend\">The value for Light after each move, in squares (above the line Light is ahead). Solid line and filled dots: exact values, proven by the solver; dashed line and hollow dots: the engine's estimates. Coloured dots: inaccuracies (yellow), mistakes (orange), blunders (red); click a dot to see the move.</p>\n");
    // Marked moves with a board each.
    let marked: Vec<_> = analysis
        .plies
        .iter()
        .filter_map(|p| p.mark.map(|mark| (p, mark)))
        .collect();
    if !marked.is_empty() {
        html.push_str("<h2>Marked moves</h2>\n");
    }
    for (ply, mark) in marked {
        let after = &positions[ply.ply];
        let played = game.moves[ply.ply - 1].mv;
        let highlight = played
            .placement()
            .map(|id| crate::cathedral::placement::table().get(id).mask)
            .unwrap_or_default();
        let svg = render_svg(
            after,
            &SvgOptions {
                highlight,
                caption: Some(format!("After {}. {}", ply.ply, ply.played)),
                hands: false,
            },
        );
        html.push_str(&format!(
            "<div class=\"marked\" id=\"move-{}\">\n<div>{svg}</div>\n<div>\n<p><b>{}. <code>{}</code> <span class=\"mark-{}\">{}</span></b> ({}): gives up {:.1} squares{}.</p>\n",
            ply.ply,
            ply.ply,
            escape(&ply.played),
            mark.word(),
            mark.symbol(),
            mark.word(),
            ply.loss,
            if ply.loss_is_exact { " (exact)" } else { " (estimated)" }
        ));
        if let Some(best) = &ply.before.best {
            html.push_str(&format!(
                "<p>Best was <code>{}</code>, worth {:+.2} to {}; the move played leaves {:+.2}.</p>\n",
                escape(best),
                ply.before.value,
                ply.mover.title(),
                ply.after_value
            ));
        }
        if ply.turning_point {
            html.push_str(&format!(
                "<p>A turning point: it turns {} into {} for {}.</p>\n",
                ply.outcome_before.phrase(),
                ply.outcome_after.phrase(),
                ply.mover.title()
            ));
        }
        if !ply.notes.is_empty() {
            html.push_str("<ul class=\"notes\">\n");
            for note in &ply.notes {
                html.push_str(&format!("<li>{}</li>\n", escape(note)));
            }
            html.push_str("</ul>\n");
        }
        html.push_str("</div>\n</div>\n");
    }
    // Every move.
    html.push_str("<h2>Every move</h2>\n<table class=\"moves\">\n<tr><th>#</th><th>move</th><th>value before</th><th>loss</th><th></th><th>best</th></tr>\n");
    for ply in &analysis.plies {
        let value = match ply.before.judgement {
            Judgement::Exact => format!("{:+.0}", ply.before.value),
            Judgement::Estimate => format!("~{:+.2}", ply.before.value),
        };
        let mark = ply.mark.map_or(String::new(), |m| {
            format!(
                "<a class=\"mark-{}\" href=\"#move-{}\">{}</a>",
                m.word(),
                ply.ply,
                m.symbol()
            )
        });
        html.push_str(&format!(
            "<tr id=\"row-{}\"><td class=\"num\">{}</td><td><code>{}</code></td><td class=\"num\">{value}</td><td class=\"num\">{}</td><td>{mark}</td><td><code>{}</code></td></tr>\n",
            ply.ply,
            ply.ply,
            escape(&ply.played),
            if ply.loss >= 0.05 { format!("{:.1}", ply.loss) } else { String::new() },
            escape(ply.before.best.as_deref().unwrap_or(""))
        ));
    }
    html.push_str("</table>\n<p class=\"legend\">Values are the mover's, in squares: exact when written as a whole number, ~ for estimates.</p>\n");
    html.push_str(&format!(
        "<h2>Summary</h2>\n<table class=\"moves\">\n<tr><th></th><th>moves</th><th>average loss</th><th>?!</th><th>?</th><th>??</th><th>judged exactly</th></tr>\n{}\n{}\n</table>\n<p class=\"legend\">Marks: ?! loses {:.0} squares or more, ? {:.0} or more (or turns the result one step down), ?? {:.0} or more (or turns a win into a loss). Made by <code>cathedral analyse</code>.</p>\n</body>\n</html>\n",
        summary_row("Light", &analysis.light()),
        summary_row("Dark", &analysis.dark()),
        analysis.thresholds[0],
        analysis.thresholds[1],
        analysis.thresholds[2]
    ));
    html
}
