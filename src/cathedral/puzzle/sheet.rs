//! A printable HTML worksheet, laid out for A4 or US Letter ([`Paper`]): 4 puzzles a page (two
//! columns, two rows) or 6 (three columns, two rows, [`PerPage`]), each page exactly one printed
//! page. A page is a heading (the sheet's title, the puzzles on it, a line for the pupil's
//! name), the grid of puzzles filling the page, and a legend at its foot: the building codes
//! with their names and sizes, the colours and the territory patterns (distinct in greyscale:
//! Dark's stripes, Light's dots), the Cathedral, and how cells are named. Each puzzle is its
//! board, scaled into what its place leaves after the text under it, a question that asks
//! without telling ([`sheet_question`]: from the side to move and the first theme, never the
//! puzzle's title, which names the answer), the goal (what best play achieves), both hands as
//! text and two lines to write on: the move and why.
//!
//! Then the answers, on pages of their own in two columns: for each puzzle its title (the one
//! that tells), the answer move beside its idea in a sentence ([`answer_idea`]: what the move
//! captures, claims, blocks or waits for, and why by the puzzle's themes), the value with best
//! play, how much worse every other move is, the best line move by move in words (the stored
//! explanations), and the most tempting wrong move with the opponent's refutation (computed by
//! [`crate::cathedral::puzzle::wrong_try`]).
//!
//! [`theme_mix`] picks a sheet's puzzles when none are named: a mix of themes and levels.

use super::greedy;
use super::themes::{blocked_pieces, explain_line, idea_title};
use crate::cathedral::cell::Cell;
use crate::cathedral::draw::svg::{
    PRINT_PATTERN_IDS, SvgOptions, cathedral_note, colours, hand_lines, player_fill,
    print_patterns, render_print_svg,
};
use crate::cathedral::explain::{MoveReport, NearMissReason};
use crate::cathedral::file::{Difficulty, PositionFile, Theme};
use crate::cathedral::legality::parse_move;
use crate::cathedral::moves::Move;
use crate::cathedral::piece::Piece;
use crate::cathedral::player::Player;
use crate::cathedral::position::{Building, Position};
use crate::cathedral::puzzle::{TryKind, WrongTry, stored_try};
use crate::present::escape;
use crate::present::words::{count, result_phrase, signed};

/// The paper a worksheet is printed on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Paper {
    /// ISO A4, 210 x 297 mm.
    #[default]
    A4,
    /// US Letter, 8.5 x 11 in (215.9 x 279.4 mm).
    Letter,
}

impl Paper {
    /// Width and height in millimetres.
    pub fn size_mm(self) -> (f64, f64) {
        match self {
            Paper::A4 => (210.0, 297.0),
            Paper::Letter => (215.9, 279.4),
        }
    }

    /// The name of the size in CSS `@page { size: ... }`.
    pub fn css_name(self) -> &'static str {
        match self {
            Paper::A4 => "A4",
            Paper::Letter => "letter",
        }
    }
}

/// Puzzles per printed page.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PerPage {
    /// Two columns, two rows.
    #[default]
    Four,
    /// Three columns, two rows.
    Six,
}

impl PerPage {
    /// The number of puzzles on a full page.
    pub fn count(self) -> usize {
        self.columns() * self.rows()
    }

    /// Columns of the grid.
    pub fn columns(self) -> usize {
        match self {
            PerPage::Four => 2,
            PerPage::Six => 3,
        }
    }

    /// Rows of the grid.
    pub fn rows(self) -> usize {
        2
    }
}

/// How a worksheet is laid out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SheetOptions {
    /// The paper size, in the page's `@page` rule and the size of every page.
    pub paper: Paper,
    /// Puzzles per page.
    pub per_page: PerPage,
}

/// The parts of a puzzle's place, one above the other: board, question, goal, hands, move
/// line, why line.
const PUZZLE_PARTS: usize = 6;

/// The margin on every side of a printed page, in millimetres (`@page { margin }`).
pub const PAGE_MARGIN_MM: f64 = 10.0;

/// The order in which [`theme_mix`] takes themes: the ideas that do something on the board
/// first, so that even one page shows different kinds.
pub const MIX_ORDER: [Theme; 7] = [
    Theme::Capture,
    Theme::Claim,
    Theme::Block,
    Theme::Tempo,
    Theme::CathedralCapture,
    Theme::DiagonalTrap,
    Theme::EndgameCount,
];

/// The themes a puzzle file names, in its order (names it does not know left out).
fn themes_of(file: &PositionFile) -> Vec<Theme> {
    file.puzzle.as_ref().map_or_else(Vec::new, |p| {
        p.themes.iter().filter_map(|t| t.parse().ok()).collect()
    })
}

fn difficulty_of(file: &PositionFile) -> Option<Difficulty> {
    file.puzzle.as_ref().and_then(|p| p.difficulty.parse().ok())
}

/// A mix of `count` puzzles of `files` (fewer if there are fewer), as indices into `files`:
/// the themes `themes` taken in turn (all of [`MIX_ORDER`] when empty), and with each pick the
/// next level (easy, medium, hard, easy...). Each pick is the first puzzle (in the order of
/// `files`) not yet taken whose first theme is the turn's theme and whose level is the pick's,
/// else the first with that first theme, else the first carrying the theme at that level, else
/// the first carrying it, else (no puzzle left with the theme) the first left at that level,
/// else the first left. The picks are then ordered easiest first, in the order picked within a
/// level. The same files give the same mix.
pub fn theme_mix(files: &[&PositionFile], count: usize, themes: &[Theme]) -> Vec<usize> {
    let order: &[Theme] = if themes.is_empty() {
        &MIX_ORDER
    } else {
        themes
    };
    let themes: Vec<Vec<Theme>> = files.iter().map(|f| themes_of(f)).collect();
    let levels: Vec<Option<Difficulty>> = files.iter().map(|f| difficulty_of(f)).collect();
    let mut taken = vec![false; files.len()];
    let mut picks: Vec<usize> = Vec::new();
    let want = count.min(files.len());
    let mut turn = 0;
    while picks.len() < want {
        let theme = order[turn % order.len()];
        let level = Difficulty::ALL[picks.len() % Difficulty::ALL.len()];
        turn += 1;
        let first = |i: usize| themes[i].first() == Some(&theme);
        let carries = |i: usize| themes[i].contains(&theme);
        let at_level = |i: usize| levels[i] == Some(level);
        let preferences: [&dyn Fn(usize) -> bool; 6] = [
            &|i| first(i) && at_level(i),
            &first,
            &|i| carries(i) && at_level(i),
            &carries,
            &at_level,
            &|_| true,
        ];
        let found = preferences
            .iter()
            .find_map(|wanted| (0..files.len()).find(|&i| !taken[i] && wanted(i)));
        if let Some(i) = found {
            taken[i] = true;
            picks.push(i);
        }
    }
    // Easiest first; a puzzle without a known level last.
    picks.sort_by_key(|&i| levels[i].map_or(Difficulty::ALL.len(), |l| l as usize));
    picks
}

/// The question printed with a puzzle: the side to move and what to look for, from the
/// puzzle's first theme, never its answer: "Dark to move: which building first?".
pub fn sheet_question(file: &PositionFile) -> String {
    let position = &file.position;
    let mover = position.to_move().title();
    let opponent = position.to_move().opponent().title();
    let ask = match themes_of(file).first() {
        Some(Theme::Capture) => "which building can you capture?".to_string(),
        Some(Theme::CathedralCapture) => "how can you capture the Cathedral?".to_string(),
        Some(Theme::Claim) => "which squares can you claim?".to_string(),
        Some(Theme::Block) => format!("which of {opponent}'s buildings can you shut out?"),
        Some(Theme::DiagonalTrap) => "do the walls really close?".to_string(),
        Some(Theme::Tempo) => "which building first?".to_string(),
        Some(Theme::EndgameCount) => "what still fits?".to_string(),
        None => "what is the best move?".to_string(),
    };
    format!("{mover} to move: {ask}")
}

/// What best play achieves, as the pupil's goal: "Find the move that wins by 2 squares."
fn goal(file: &PositionFile) -> String {
    let Some(solution) = &file.solution else {
        return file
            .puzzle
            .as_ref()
            .map_or_else(String::new, |p| format!("{}.", p.question));
    };
    let value = solution.value;
    match (solution.wdl, value.signum()) {
        (true, 1) => "Find the move that wins.".to_string(),
        (true, -1) => "Find the move that loses least.".to_string(),
        (_, 0) => "Find the move that draws.".to_string(),
        (_, 1) => format!("Find the move that wins by {}.", count(value, "square")),
        _ => format!(
            "Find the move that loses by only {}.",
            count(-value, "square")
        ),
    }
}

/// "Dark's Tavern", "the Cathedral".
fn building_name(building: &Building) -> String {
    match building.owner {
        Some(owner) => format!("{}'s {}", owner.title(), building.piece.title()),
        None => "the Cathedral".to_string(),
    }
}

/// "c3, c4, d4".
fn cells_text(building: &Building) -> String {
    building
        .cells
        .cells_by_file()
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// "Inn on c3, c4, d4".
fn placed_text(building: &Building) -> String {
    format!("{} on {}", building.piece.title(), cells_text(building))
}

/// "3 squares", "1 square", "no squares".
fn squares_left(n: u32) -> String {
    if n == 0 {
        "no squares".to_string()
    } else {
        count(n, "square")
    }
}

/// "A and B", "A, B and C".
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The moves of the stored best line (or the best move alone), parsed from `position`; `None`
/// if the file has no solution or a move does not parse.
fn best_line_moves(file: &PositionFile) -> Option<Vec<Move>> {
    let solution = file.solution.as_ref()?;
    let texts: Vec<&String> = if solution.best_line.is_empty() {
        solution.best_move.iter().collect()
    } else {
        solution.best_line.iter().collect()
    };
    let mut position = file.position;
    let mut moves = Vec::new();
    for text in texts {
        let mv = parse_move(&position, text).ok()?;
        position.play(mv);
        moves.push(mv);
    }
    (!moves.is_empty()).then_some(moves)
}

/// Where a wall leaks at a corner: the first diagonal-contact near miss on the best line, else
/// on the tempting move or its refutation, in words.
fn diagonal_words(reports: &[MoveReport], wrong: Option<&WrongTry>) -> String {
    let corner = |r: &MoveReport| {
        r.near_misses.iter().find_map(|m| match m.reason {
            NearMissReason::DiagonalContact { corner } => Some(corner),
            _ => None,
        })
    };
    let leak = |who: Player, [a, b]: [Cell; 2]| {
        format!(
            "{}'s wall leaks where {a} and {b} touch only at a corner",
            who.title()
        )
    };
    if let Some((k, r, c)) = reports
        .iter()
        .enumerate()
        .find_map(|(k, r)| corner(r).map(|c| (k, r, c)))
    {
        let when = if k == 0 {
            "with this move".to_string()
        } else {
            format!("on move {} of the best line", k + 1)
        };
        return format!("watch the corners: {when} {}", leak(r.mover, c));
    }
    if let Some(wrong) = wrong {
        let tempting = wrong
            .played
            .placed
            .as_ref()
            .map_or("move", |b| b.piece.title());
        if let Some(c) = corner(&wrong.played) {
            return format!(
                "watch the corners: with the tempting {tempting}, {}",
                leak(wrong.played.mover, c)
            );
        }
        if let Some((r, c)) = wrong
            .reply_line
            .iter()
            .find_map(|r| corner(r).map(|c| (r, c)))
        {
            return format!(
                "watch the corners: after the tempting {tempting}, {}",
                leak(r.mover, c)
            );
        }
    }
    "watch the corners: buildings that touch only corner to corner leave a gap, and no region closes through it".to_string()
}

/// The idea of a puzzle's answer in a sentence, made from the answer's explanation and the
/// puzzle's themes: what the move captures, claims, blocks or where it waits, then why it is
/// the answer by theme (the Cathedral taken later, the greedy choice that comes later on the
/// best line, corners that leak, the count at the end), whether it takes the squares of the
/// opponent's refutation of the stored tempting move, and with nothing else to say, what the
/// mover claims or captures later on the best line. `None` without a stored best move.
///
/// "Dark's Stable on a6, a7 goes in now. The Castle on e1, e2, e3, f2, g2, the move that looks
/// biggest now, still fits later (move 3 of the best line): the order decides."
pub fn answer_idea(file: &PositionFile) -> Option<String> {
    let position = &file.position;
    let moves = best_line_moves(file)?;
    let reports = explain_line(position, &moves);
    let answer = reports.first()?;
    let mover = answer.mover;
    let (me, them) = (mover.title(), mover.opponent().title());
    let themes = themes_of(file);
    let Some(building) = &answer.placed else {
        return Some(format!(
            "{me} passes: every building that still fits does better for {them}."
        ));
    };
    let mut does: Vec<String> = Vec::new();
    let captured: Vec<String> = answer.captures().map(building_name).collect();
    let claimed: u32 = answer.claims.iter().map(|c| c.size).sum();
    if !captured.is_empty() {
        does.push(format!(
            "captures {} and claims the {} of its region",
            and_list(&captured),
            count(claimed, "square")
        ));
    } else if claimed > 0 {
        does.push(format!(
            "closes off {} that only {me} may build on now",
            count(claimed, "square")
        ));
    }
    let blocked: Vec<String> = blocked_pieces(position, &answer.after)
        .iter()
        .map(|p| format!("{them}'s {}", p.title()))
        .collect();
    if !blocked.is_empty() {
        does.push(format!("leaves {} nowhere to go", and_list(&blocked)));
    }
    if answer.in_own_territory {
        does.push(format!(
            "waits inside {me}'s own territory, where {them} may not build, so that {them} must use up the open squares first"
        ));
    }
    if does.is_empty() {
        does.push("goes in now".to_string());
    }
    let mut why: Vec<String> = Vec::new();
    let captures_cathedral = |r: &MoveReport| r.captures().any(|b| b.owner.is_none());
    if themes.contains(&Theme::CathedralCapture)
        && !captures_cathedral(answer)
        && let Some((k, later)) = reports
            .iter()
            .enumerate()
            .skip(1)
            .find(|(_, r)| r.mover == mover && captures_cathedral(r))
    {
        let with = later
            .placed
            .as_ref()
            .map_or_else(String::new, |b| format!(" with the {}", placed_text(b)));
        why.push(format!(
            "it prepares the Cathedral's capture: {me} takes it{with} on move {} of the best line",
            k + 1
        ));
    }
    if themes.contains(&Theme::Tempo) {
        // A greedy choice the mover plays later on the best line: right move, wrong time.
        let greedy: Vec<_> = greedy::choices(position)
            .iter()
            .filter_map(|m| m.placement())
            .collect();
        let later = moves
            .iter()
            .zip(&reports)
            .enumerate()
            .skip(1)
            .find(|(_, (m, r))| {
                r.mover == mover && m.placement().is_some_and(|p| greedy.contains(&p))
            });
        if let Some((k, (_, report))) = later
            && let Some(b) = &report.placed
        {
            why.push(format!(
                "the {}, which looks best now, still fits later (move {} of the best line): the order decides",
                placed_text(b),
                k + 1
            ));
        }
    }
    let wrong = stored_try(file);
    if themes.contains(&Theme::DiagonalTrap) {
        why.push(diagonal_words(&reports, wrong.as_ref()));
    }
    // The tempting move's refutation starts where the answer goes: the answer takes the
    // squares the opponent needs (said unless two reasons are said already).
    if why.len() < 2
        && let Some(wrong) = &wrong
        && let (Some(tempting), Some(reply)) = (
            &wrong.played.placed,
            wrong.reply_line.first().and_then(|r| r.placed.as_ref()),
        )
        && reply.owner == Some(mover.opponent())
        && (reply.cells & building.cells).any()
    {
        why.push(format!(
            "it takes squares {them} needs: after the tempting {}, {them}'s {} goes there",
            placed_text(tempting),
            placed_text(reply)
        ));
    }
    if themes.contains(&Theme::EndgameCount)
        && let Some(last) = reports.last()
    {
        let end = &last.after;
        why.push(format!(
            "nothing is claimed or captured to the end: the count decides, {me} ending with {} unplaced, {them} with {}",
            squares_left(end.unplaced_squares(mover)),
            squares_left(end.unplaced_squares(mover.opponent()))
        ));
    }
    // Nothing else to say: what the mover gains later on the best line.
    if why.is_empty()
        && let Some((k, later)) = reports
            .iter()
            .enumerate()
            .skip(1)
            .find(|(_, r)| r.mover == mover && !r.claims.is_empty())
        && let Some(placed) = &later.placed
    {
        let captured: Vec<String> = later.captures().map(building_name).collect();
        let claimed: u32 = later.claims.iter().map(|c| c.size).sum();
        let gain = if captured.is_empty() {
            format!("claims {}", count(claimed, "square"))
        } else {
            format!(
                "captures {} and claims {}",
                and_list(&captured),
                count(claimed, "square")
            )
        };
        why.push(format!(
            "later on the best line (move {}) {me}'s {} {gain}",
            k + 1,
            placed_text(placed)
        ));
    }
    // The move and what it does, then each reason as a sentence of its own.
    let mut idea = format!("{me}'s {} {}.", placed_text(building), and_list(&does));
    for reason in why {
        let mut chars = reason.chars();
        if let Some(first) = chars.next() {
            idea.push(' ');
            idea.extend(first.to_uppercase());
            idea.push_str(chars.as_str());
            idea.push('.');
        }
    }
    Some(idea)
}

/// The puzzle's title that names the answer, for the answers page: the file's, else the one
/// its answer gives ([`idea_title`]).
fn telling_title(file: &PositionFile) -> Option<String> {
    if let Some(title) = &file.meta.title {
        return Some(title.clone());
    }
    let answer = best_line_moves(file)?.into_iter().next()?;
    Some(idea_title(&file.position, answer, &themes_of(file)))
}

/// The page's style: `@page` size and margins, pages of a fixed size (one printed page each)
/// with the grid of `options.per_page` filling what the heading and legend leave. Font sizes
/// are in points: questions 12 pt, hands 10 pt, text 11 pt.
fn style(options: &SheetOptions) -> String {
    let (width, height) = options.paper.size_mm();
    let page_width = width - 2.0 * PAGE_MARGIN_MM;
    // A little under the printable height: rounding must never push a page onto two.
    let page_height = height - 2.0 * PAGE_MARGIN_MM - 1.0;
    let columns = options.per_page.columns();
    // Each row of puzzles is a row for the boards, sharing what is left equally (every board
    // the same size), and a row for each part under them, as high as the highest in the row.
    let grid_rows = vec![
        format!("minmax(0, 1fr){}", " auto".repeat(PUZZLE_PARTS - 1));
        options.per_page.rows()
    ]
    .join(" ");
    format!(
        "
@page {{ size: {paper}; margin: {PAGE_MARGIN_MM}mm; }}
* {{ box-sizing: border-box; }}
html {{ -webkit-print-color-adjust: exact; print-color-adjust: exact; }}
body {{ font-family: Georgia, 'Times New Roman', serif; font-size: 11pt; margin: 0; color: #222; }}
.page {{ width: {page_width:.1}mm; height: {page_height:.1}mm; display: flex; flex-direction: column; overflow: hidden;
  break-after: page; page-break-after: always; }}
.head {{ flex: none; display: flex; align-items: baseline; gap: 4mm; border-bottom: 0.4mm solid #222;
  padding-bottom: 1.2mm; margin-bottom: 3mm; }}
.head h1 {{ font-size: 15pt; margin: 0; }}
.head .count {{ color: #555; font-size: 10pt; }}
.head .name {{ margin-left: auto; font-size: 11pt; display: flex; gap: 2mm; align-items: baseline; }}
.head .name .blank {{ width: 55mm; }}
.blank {{ display: inline-block; border-bottom: 0.3mm solid #222; height: 1em; }}
.grid {{ flex: 1 1 auto; min-height: 0; display: grid; grid-template-columns: repeat({columns}, minmax(0, 1fr));
  grid-template-rows: {grid_rows}; column-gap: 7mm; row-gap: 0; }}
.puzzle {{ grid-row: span {PUZZLE_PARTS}; display: grid; grid-template-rows: subgrid; min-width: 0; padding-bottom: 4mm; }}
.board {{ min-height: 20mm; position: relative; }}
.board svg {{ position: absolute; left: 0; top: 0; width: 100%; height: 100%; display: block; }}
.question {{ font-size: 12pt; font-weight: bold; margin: 1.5mm 0 0.5mm 0; }}
.number {{ color: #555; }}
.level {{ font-weight: normal; color: #555; font-size: 10pt; }}
.goal {{ font-size: 11pt; margin: 0 0 1mm 0; }}
.hands {{ font-size: 10pt; margin: 0; line-height: 1.25; }}
.hands p {{ margin: 0 0 0.6mm 0; }}
.swatch {{ display: inline-block; width: 0.75em; height: 0.75em; border: 1px solid #222;
  vertical-align: -0.05em; margin-right: 0.3em; }}
.write {{ display: flex; align-items: baseline; gap: 2mm; margin: 2mm 0 0 0; font-size: 11pt; }}
.write .blank {{ flex: 1; height: 5mm; }}
.legend {{ flex: none; border-top: 0.4mm solid #222; margin-top: 0; padding-top: 1.2mm; font-size: 8.5pt; line-height: 1.3; }}
.legend p {{ margin: 0 0 0.6mm 0; }}
.legend .key {{ white-space: nowrap; margin-right: 3mm; }}
.legend .key svg {{ width: 8mm; height: 4mm; vertical-align: -0.8mm; margin-right: 1mm; }}
.legend .code {{ white-space: nowrap; margin-right: 2.2mm; }}
.answers {{ break-before: page; page-break-before: always; width: {page_width:.1}mm; overflow-wrap: anywhere; }}
.answers > ol {{ padding-left: 1.6em; margin: 0; column-count: 2; column-gap: 8mm; font-size: 10pt; }}
.answers > ol > li {{ margin-bottom: 3mm; }}
.answer-title {{ margin: 0 0 0.8mm 0; break-after: avoid; page-break-after: avoid; }}
.answer {{ margin: 0 0 1mm 0; break-inside: avoid; page-break-inside: avoid; }}
.answers li li, .heading {{ break-inside: avoid; page-break-inside: avoid; }}
.heading {{ break-after: avoid; page-break-after: avoid; }}
.idea {{ font-style: italic; }}
.answers code {{ font-size: 9.5pt; }}
.line {{ font-size: 9.5pt; margin: 0; padding-left: 1.6em; }}
.line li {{ margin: 0 0 0.4mm 0; }}
.line li:first-child {{ font-weight: bold; }}
.detail {{ display: block; font-weight: normal; padding-left: 1em; }}
.heading {{ margin: 1mm 0 0.5mm 0; font-size: 9.5pt; font-style: italic; }}
.refutation li:first-child {{ font-weight: normal; }}
@media screen {{
  body {{ background: #ddd; }}
  .page, .answers {{ background: #fff; margin: 8mm auto; padding: {PAGE_MARGIN_MM}mm; box-sizing: content-box; }}
  .answers {{ min-height: {page_height:.1}mm; }}
}}
",
        paper = options.paper.css_name(),
    )
}

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

/// A key's sample, drawn at the diagrams' scale (a cell of 40 units is a sample's height
/// twice): a filled rectangle, or the territory pattern.
fn key_sample(fill: &str) -> String {
    format!(
        "<svg viewBox=\"0 0 40 20\" xmlns=\"http://www.w3.org/2000/svg\"><defs>{}</defs><rect x=\"0.75\" y=\"0.75\" width=\"38.5\" height=\"18.5\" fill=\"{fill}\" stroke=\"{}\" stroke-width=\"1.5\"/></svg>",
        print_patterns(),
        colours::OUTLINE
    )
}

/// The legend at the foot of every puzzle page: colours and patterns, codes, cell names.
fn legend_html() -> String {
    let mut out = String::from("<footer class=\"legend\">\n<p class=\"keys\">");
    let keys = [
        (colours::DARK.to_string(), "Dark building".to_string()),
        (colours::LIGHT.to_string(), "Light building".to_string()),
        (
            colours::CATHEDRAL.to_string(),
            "CA: the Cathedral, neither player's".to_string(),
        ),
        (
            format!("url(#{})", PRINT_PATTERN_IDS[1]),
            "Dark territory: stripes".to_string(),
        ),
        (
            format!("url(#{})", PRINT_PATTERN_IDS[0]),
            "Light territory: dots".to_string(),
        ),
    ];
    for (fill, words) in keys {
        out.push_str(&format!(
            "<span class=\"key\">{}{}</span> ",
            key_sample(&fill),
            escape(&words)
        ));
    }
    out.push_str(
        "<br>A territory is a region its owner has walled off: only its owner may build there.</p>\n",
    );
    out.push_str("<p class=\"codes\"><b>Codes</b> (squares):");
    for piece in Piece::ALL {
        out.push_str(&format!(
            " <span class=\"code\"><b>{}</b> {} {}</span>",
            piece.code(),
            piece.title(),
            piece.size()
        ));
    }
    out.push_str("</p>\n");
    out.push_str(
        "<p class=\"cells\"><b>Cells</b>: a column letter a-j (left to right) and a row number 1-10 (bottom to top): a1 is the bottom left corner, j10 the top right. Write a move as the building and its cells: Inn c3, c4, d4.</p>\n</footer>\n",
    );
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

/// One answer: the telling title, the move beside its idea in a sentence, the value, the
/// margin, the themes, the best line in words and the tempting wrong move refuted.
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
    let mut out = format!("<li><p class=\"answer-title\"><b>{}</b>", escape(name));
    if let Some(title) = telling_title(file) {
        out.push_str(&format!(": {}", escape(&title)));
    }
    out.push_str("</p>\n");
    out.push_str(&format!(
        "<p class=\"answer\"><b>Answer:</b> <code>{}</code>",
        escape(&best)
    ));
    if let Some(idea) = answer_idea(file) {
        out.push_str(&format!(
            " &ndash; <span class=\"idea\">{}</span>",
            escape(&idea)
        ));
    }
    out.push_str(&format!(" With best play {mover} {result}."));
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

/// One puzzle's place on a page: the board, the question, the goal, the hands and the lines
/// to write the answer on.
fn puzzle_html(number: usize, file: &PositionFile) -> String {
    let level = file
        .puzzle
        .as_ref()
        .map(|p| p.difficulty.as_str())
        .filter(|l| !l.is_empty())
        .map_or_else(String::new, |l| {
            format!(" <span class=\"level\">({})</span>", escape(l))
        });
    // The board alone: the hands follow as text, printed at a readable size.
    let svg = render_print_svg(&file.position, &SvgOptions::default());
    format!(
        "<div class=\"puzzle\">\n<div class=\"board\">{}</div>\n<p class=\"question\"><span class=\"number\">{number}.</span> {}</p>\n<p class=\"goal\">{}{level}</p>\n{}<p class=\"write\"><span>Your move:</span><span class=\"blank\"></span></p>\n<p class=\"write\"><span>Why:</span><span class=\"blank\"></span></p>\n</div>\n",
        svg.trim_end(),
        escape(&sheet_question(file)),
        escape(&goal(file)),
        hands_html(&file.position)
    )
}

/// The worksheet of `puzzles`, laid out by `options`: every file must carry a `puzzle:` and a
/// `solution:` block (the caller checks).
pub fn sheet_html(title: &str, puzzles: &[SheetPuzzle], options: &SheetOptions) -> String {
    let per_page = options.per_page.count();
    let mut out = String::new();
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str(&format!("<title>{}</title>\n", escape(title)));
    out.push_str(&format!(
        "<style>{}</style>\n</head>\n<body>\n",
        style(options)
    ));
    let legend = legend_html();
    for (page, chunk) in puzzles.chunks(per_page).enumerate() {
        let first = page * per_page + 1;
        let last = first + chunk.len() - 1;
        let range = if first == last {
            format!("puzzle {first}")
        } else {
            format!("puzzles {first}-{last}")
        };
        out.push_str(&format!(
            "<section class=\"page\">\n<header class=\"head\"><h1>{}</h1><span class=\"count\">{range} of {}</span><span class=\"name\">Name <span class=\"blank\"></span></span></header>\n<div class=\"grid\">\n",
            escape(title),
            puzzles.len()
        ));
        for (i, SheetPuzzle { file, .. }) in chunk.iter().enumerate() {
            out.push_str(&puzzle_html(first + i, file));
        }
        out.push_str("</div>\n");
        out.push_str(&legend);
        out.push_str("</section>\n");
    }
    out.push_str(&format!(
        "<section class=\"answers\">\n<header class=\"head\"><h1>Answers: {}</h1></header>\n<ol>\n",
        escape(title)
    ));
    for puzzle in puzzles {
        out.push_str(&answer_html(puzzle));
    }
    out.push_str("</ol>\n</section>\n</body>\n</html>\n");
    out
}
