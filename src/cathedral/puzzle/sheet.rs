//! A printable HTML worksheet: the puzzles two per row, two rows per printed page, each a board
//! diagram filling its column with the question (12 pt) and both hands (10 pt) as text under it;
//! then the answers: for each puzzle the answer move, the value with best play, how much worse
//! every other move is, the best line move by move in words (the stored explanations), so the
//! reader sees what the answer claims or captures, and the most tempting wrong move with the
//! opponent's refutation (computed by [`crate::cathedral::puzzle::wrong_try`]).

use crate::cathedral::draw::svg::{
    SvgOptions, cathedral_note, colours, hand_lines, player_fill, render_svg,
};
use crate::cathedral::file::PositionFile;
use crate::cathedral::player::Player;
use crate::cathedral::position::Position;
use crate::cathedral::puzzle::{TryKind, WrongTry};
use crate::present::escape;
use crate::present::words::{count, result_phrase, signed};

/// Puzzles per printed page (two rows of two).
const PER_PAGE: usize = 4;

/// Sizes are in print units: a column of an A4 or Letter page is about 88 mm wide, and the board
/// fills it; two rows of puzzles fill the page.
const STYLE: &str = "
@page { size: auto; margin: 12mm; }
body { font-family: Georgia, 'Times New Roman', serif; font-size: 11pt; margin: 1.5em; color: #222; }
h1 { font-size: 16pt; margin: 0 0 4mm 0; }
.page { display: grid; grid-template-columns: 1fr 1fr; gap: 6mm 8mm; margin-bottom: 6mm; }
.puzzle { break-inside: avoid; page-break-inside: avoid; }
.puzzle svg { display: block; width: 100%; max-width: 88mm; height: auto; }
.question { font-size: 12pt; font-weight: bold; margin: 1.5mm 0 1mm 0; }
.number { color: #666; }
.level { font-weight: normal; color: #666; font-size: 10pt; }
.hands { font-size: 10pt; margin: 0; line-height: 1.3; }
.hands p { margin: 0 0 0.8mm 0; }
.swatch { display: inline-block; width: 0.75em; height: 0.75em; border: 1px solid #222;
  vertical-align: -0.05em; margin-right: 0.3em;
  -webkit-print-color-adjust: exact; print-color-adjust: exact; }
.answers { break-before: page; page-break-before: always; }
.answers > ol { padding-left: 2em; }
.answers > ol > li { margin-bottom: 4mm; break-inside: avoid; page-break-inside: avoid; }
.answer { margin: 0 0 1mm 0; }
.answers code { font-size: 10.5pt; }
.line { font-size: 10pt; margin: 0; padding-left: 1.6em; }
.line li { margin: 0 0 0.5mm 0; }
.line li:first-child { font-weight: bold; }
.detail { display: block; font-weight: normal; padding-left: 1em; }
.heading { margin: 1mm 0 0.5mm 0; font-size: 10pt; font-style: italic; }
.refutation li:first-child { font-weight: normal; }
@media print {
  body { margin: 0; }
  .page { break-after: page; page-break-after: always; margin-bottom: 0; }
  .page:last-of-type { break-after: auto; }
}
";

/// The player's colour as a small square before a heading.
fn swatch(fill: &str) -> String {
    format!("<span class=\"swatch\" style=\"background: {fill}\"></span>")
}

/// Both hands (and a Cathedral not on the board) as short paragraphs.
fn hands_html(position: &Position) -> String {
    let mut out = String::from("<div class=\"hands\">\n");
    for player in [Player::Dark, Player::Light] {
        let marker = if player == position.to_move() && !position.is_game_over() {
            " (to move)"
        } else {
            ""
        };
        out.push_str(&format!(
            "<p>{}<b>{}</b>{marker}, {} unplaced: {}</p>\n",
            swatch(player_fill(player)),
            player.title(),
            count(position.unplaced_squares(player), "square"),
            escape(&hand_lines(position, player).join(", "))
        ));
    }
    if let Some(note) = cathedral_note(position) {
        out.push_str(&format!(
            "<p>{}<b>{}</b></p>\n",
            swatch(colours::CATHEDRAL),
            escape(note)
        ));
    }
    out.push_str("</div>\n");
    out
}

/// One puzzle of a worksheet.
#[derive(Clone, Debug)]
pub struct SheetPuzzle {
    /// Its name in the answers (the file name).
    pub name: String,
    /// The puzzle file: it must carry a `puzzle:` and a `solution:` block.
    pub file: PositionFile,
    /// The most tempting wrong move, refuted; `None` leaves it out of the answer.
    pub wrong_try: Option<WrongTry>,
}

/// Moves explained, one per list item: the first line of each explanation, then its details.
fn explained_list(class: &str, explanations: impl Iterator<Item = String>) -> String {
    let mut out = format!("<ol class=\"{class}\">\n");
    for explanation in explanations {
        let mut lines = explanation.lines().map(str::trim).filter(|l| !l.is_empty());
        out.push_str("<li>");
        out.push_str(&escape(lines.next().unwrap_or_default()));
        for detail in lines {
            out.push_str(&format!("<span class=\"detail\">{}</span>", escape(detail)));
        }
        out.push_str("</li>\n");
    }
    out.push_str("</ol>\n");
    out
}

/// The wrong try: why it tempts, what it gives away, and the refutation move by move.
fn wrong_try_html(mover: &str, wrong: &WrongTry) -> String {
    let why = match wrong.kind {
        TryKind::Greedy => "the biggest building, claiming the most squares",
        TryKind::Closest => "the closest wrong move",
        TryKind::Played => "the move played in the game",
    };
    let mut out = format!(
        "<p class=\"heading\">Tempting but wrong: <code>{}</code> ({why}) gives away {}; after it {mover} {}.</p>\n",
        escape(&wrong.played.notation),
        count(i64::from(wrong.loss), "square"),
        escape(&result_phrase(wrong.value)),
    );
    if wrong.reply_line.is_empty() {
        out.push_str("<p class=\"heading\">The game ends there: neither player can move.</p>\n");
    } else {
        out.push_str(&format!(
            "<p class=\"heading\">{}'s refutation, with best play to the end:</p>\n",
            wrong.played.mover.opponent().title()
        ));
        out.push_str(&explained_list(
            "line refutation",
            wrong.reply_line.iter().map(ToString::to_string),
        ));
    }
    out
}

/// One answer: the move, the value, the margin, the themes, the best line in words and the
/// tempting wrong move refuted.
fn answer_html(puzzle: &SheetPuzzle) -> String {
    let (name, file) = (&puzzle.name, &puzzle.file);
    let Some(solution) = &file.solution else {
        return format!("<li><b>{}</b>: no stored solution</li>\n", escape(name));
    };
    let mover = file.position.to_move().title();
    let best = solution
        .best_move
        .clone()
        .or_else(|| solution.best_line.first().cloned())
        .unwrap_or_default();
    // A `wdl` value is only the sign: win, draw or loss.
    let result = if solution.wdl {
        match solution.value.signum() {
            1 => "wins".to_string(),
            0 => "draws".to_string(),
            _ => "loses".to_string(),
        }
    } else {
        format!(
            "{} (value {})",
            result_phrase(solution.value),
            signed(solution.value)
        )
    };
    let mut out = format!(
        "<li><p class=\"answer\"><b>{}</b>: <code>{}</code>. With best play {mover} {result}.",
        escape(name),
        escape(&best),
    );
    if let Some(info) = &file.puzzle {
        if info.margin > 0 {
            out.push_str(&format!(
                " Every other move is at least {} worse.",
                count(info.margin, "square")
            ));
        }
        if !info.themes.is_empty() {
            out.push_str(&format!(" Themes: {}.", escape(&info.themes.join(", "))));
        }
    }
    out.push_str("</p>\n");
    if !solution.explanations.is_empty() {
        out.push_str("<p class=\"heading\">Best play:</p>\n");
        out.push_str(&explained_list(
            "line",
            solution.explanations.iter().cloned(),
        ));
    }
    if let Some(wrong) = &puzzle.wrong_try {
        out.push_str(&wrong_try_html(mover, wrong));
    }
    out.push_str("</li>\n");
    out
}

/// The worksheet of `puzzles`: every file must carry a `puzzle:` and a `solution:` block (the
/// caller checks).
pub fn sheet_html(title: &str, puzzles: &[SheetPuzzle]) -> String {
    let mut out = String::new();
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str(&format!("<title>{}</title>\n", escape(title)));
    out.push_str(&format!("<style>{STYLE}</style>\n</head>\n<body>\n"));
    out.push_str(&format!("<h1>{}</h1>\n", escape(title)));
    for (page, chunk) in puzzles.chunks(PER_PAGE).enumerate() {
        out.push_str("<section class=\"page\">\n");
        for (i, SheetPuzzle { file, .. }) in chunk.iter().enumerate() {
            let number = page * PER_PAGE + i + 1;
            let (question, level) = file.puzzle.as_ref().map_or_else(
                || (String::new(), String::new()),
                |p| (p.question.clone(), p.difficulty.clone()),
            );
            // The board alone: the hands follow as text, printed at a readable size.
            let svg = render_svg(&file.position, &SvgOptions::default());
            let level = if level.is_empty() {
                String::new()
            } else {
                format!(" <span class=\"level\">({})</span>", escape(&level))
            };
            out.push_str(&format!(
                "<div class=\"puzzle\">\n{}<p class=\"question\"><span class=\"number\">{number}.</span> {}{level}</p>\n{}</div>\n",
                svg.trim_end(),
                escape(&question),
                hands_html(&file.position)
            ));
        }
        out.push_str("</section>\n");
    }
    out.push_str("<section class=\"answers\">\n<h1>Answers</h1>\n<ol>\n");
    for puzzle in puzzles {
        out.push_str(&answer_html(puzzle));
    }
    out.push_str("</ol>\n</section>\n</body>\n</html>\n");
    out
}
