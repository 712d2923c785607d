//! Print-friendly SVG diagrams of positions: a grid with coordinates, each building drawn as one
//! shape in its player's colour, the Cathedral distinct, territory hatched in its owner's colour,
//! the hands beside the board (with a Cathedral still to place), an optional highlighted move and
//! a caption wrapped onto as many lines as it needs.
//!
//! The picture is sized from its content. SVG cannot measure text, so widths are estimated
//! generously (`text_width`) for DejaVu Sans, one of the widest common sans-serif fonts and the
//! first one asked for: the text fits with any narrower font too.

use crate::cathedral::bitboard::Bitboard;
use crate::cathedral::cell::Cell;
use crate::cathedral::piece::Piece;
use crate::cathedral::player::Player;
use crate::cathedral::position::{Building, CathedralStatus, Position};
use crate::present::escape;
use std::fmt::Write;

/// Pixels per cell.
pub const CELL: u32 = 40;
/// Space left of and below the board for the coordinates.
pub const MARGIN: u32 = 28;
/// Space above the board.
const TOP: u32 = 8;
/// Space right of the board when the hands are not shown.
const RIGHT: u32 = 12;
/// The narrowest hands column (so that diagrams of similar positions have the same size).
const HAND_MIN_WIDTH: u32 = 230;
/// Space between text and the picture's edge.
const PAD: u32 = 12;
/// The fonts asked for, the widest first: `text_width` is an estimate for DejaVu Sans.
const FONT_FAMILY: &str =
    "'DejaVu Sans', Verdana, 'Bitstream Vera Sans', Arial, Helvetica, sans-serif";
/// Font sizes: building codes and coordinates, hand lines, hand headings, the caption.
const SMALL: u32 = 13;
const HEADING: u32 = 14;
const CAPTION: u32 = 15;
/// Baseline to baseline: under a heading, between hand lines, between caption lines.
const HEADING_STEP: u32 = 20;
const LINE_STEP: u32 = 17;
const CAPTION_STEP: u32 = 20;
/// Cell size of the small Cathedral drawn in the hands column.
const MINI: u32 = 12;

/// Fill colours, also used by tests that check rendered pixels.
pub mod colours {
    /// Light's buildings, and the stripes of Light's territory.
    pub const LIGHT: &str = "#f3dfa2";
    /// Dark's buildings, and the stripes of Dark's territory.
    pub const DARK: &str = "#6b3e26";
    /// The Cathedral.
    pub const CATHEDRAL: &str = "#8c7bb8";
    /// The background: empty cells and the margins.
    pub const BOARD: &str = "#ffffff";
    /// The lines between cells.
    pub const GRID: &str = "#c8c8c8";
    /// Building outlines and the board's border.
    pub const OUTLINE: &str = "#222222";
    /// The highlighted move's outline and markers.
    pub const HIGHLIGHT: &str = "#ff4500";
    /// The ground of Light's hatched territory.
    pub const LIGHT_TERRITORY: &str = "#f7ecc8";
    /// The ground of Dark's hatched territory.
    pub const DARK_TERRITORY: &str = "#d9c2b4";
}

/// What to draw besides the position.
#[derive(Clone, Debug, Default)]
pub struct SvgOptions {
    /// Cells to outline as the move under discussion.
    pub highlight: Bitboard,
    /// A line of text under the board.
    pub caption: Option<String>,
    /// List both hands to the right of the board.
    pub hands: bool,
}

/// The top-left pixel of `cell`.
pub fn cell_origin(cell: Cell) -> (u32, u32) {
    (
        MARGIN + cell.file() as u32 * CELL,
        (9 - cell.rank() as u32) * CELL + TOP,
    )
}

/// A player's colour.
pub(crate) fn player_fill(player: Player) -> &'static str {
    match player {
        Player::Light => colours::LIGHT,
        Player::Dark => colours::DARK,
    }
}

fn fill_of(building: &Building) -> &'static str {
    building.owner.map_or(colours::CATHEDRAL, player_fill)
}

/// The outline of a set of cells: every cell edge that borders a cell outside the set.
fn outline_path(cells: Bitboard) -> String {
    let mut path = String::new();
    for cell in cells.cells() {
        let (x, y) = cell_origin(cell);
        let (f, r) = (cell.file() as i8, cell.rank() as i8);
        let outside = |df: i8, dr: i8| -> bool {
            let (nf, nr) = (f + df, r + dr);
            !((0..10).contains(&nf)
                && (0..10).contains(&nr)
                && Cell::new(nf as u8, nr as u8).is_some_and(|n| cells.contains(n)))
        };
        let c = CELL;
        if outside(0, 1) {
            let _ = write!(path, "M{x},{y}h{c}");
        }
        if outside(0, -1) {
            let _ = write!(path, "M{x},{}h{c}", y + c);
        }
        if outside(-1, 0) {
            let _ = write!(path, "M{x},{y}v{c}");
        }
        if outside(1, 0) {
            let _ = write!(path, "M{},{y}v{c}", x + c);
        }
    }
    path
}

/// The estimated width in pixels of `text` at `size` pixels, generously: at least 0.62 em per
/// character (0.68 em in bold), more than the average of DejaVu Sans (about 0.5 em in plain
/// text), and more again for runs of capitals and wide letters.
fn text_width(text: &str, size: u32, bold: bool) -> u32 {
    let per_char = |c: char| -> f64 {
        match c {
            'm' | 'w' | 'M' | 'W' | '@' | '%' | '&' | '+' | '=' => 1.0,
            'i' | 'j' | 'l' | 'I' | 'J' | '.' | ',' | ':' | ';' | '\'' | '|' | '!' => 0.4,
            'f' | 't' | 'r' | ' ' | '(' | ')' | '[' | ']' | '-' | '/' => 0.45,
            c if c.is_ascii_uppercase() => 0.8,
            _ => 0.64,
        }
    };
    let (scale, floor) = if bold { (1.12, 0.68) } else { (1.0, 0.62) };
    let chars = text.chars().count() as f64;
    let em = (text.chars().map(per_char).sum::<f64>() * scale).max(floor * chars);
    (em * f64::from(size)).ceil() as u32
}

/// `text` in lines no wider than `width` pixels at `size`, broken between words (a word wider
/// than `width` gets a line of its own).
fn wrap(text: &str, size: u32, width: u32) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let candidate = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if line.is_empty() || text_width(&candidate, size, false) <= width {
            line = candidate;
        } else {
            lines.push(std::mem::replace(&mut line, word.to_string()));
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// One `<text>` element; `attributes` are written as given (anchor, weight, fill).
fn write_text(svg: &mut String, x: u32, y: u32, size: u32, attributes: &str, text: &str) {
    let _ = write!(
        svg,
        r#"<text x="{x}" y="{y}" font-size="{size}"{attributes}>{}</text>"#,
        escape(text)
    );
}

/// A hand as lines of text: `Tavern x2 (1 each)`, `Castle (5)`; `nothing left` if empty.
pub(crate) fn hand_lines(position: &Position, player: Player) -> Vec<String> {
    let hand = position.side(player).hand;
    let mut lines: Vec<String> = Piece::PLAYER_KINDS
        .iter()
        .filter(|p| hand.count(**p) > 0)
        .map(|p| match hand.count(*p) {
            1 => format!("{} ({})", p.title(), p.size()),
            n => format!("{} x{n} ({} each)", p.title(), p.size()),
        })
        .collect();
    if lines.is_empty() {
        lines.push("nothing left".to_string());
    }
    lines
}

/// A hand's heading: `Dark (to move) - 18 unplaced`.
fn hand_heading(position: &Position, player: Player) -> String {
    let marker = if player == position.to_move() && !position.is_game_over() {
        " (to move)"
    } else {
        ""
    };
    format!(
        "{}{marker} - {} unplaced",
        player.title(),
        position.unplaced_squares(player)
    )
}

/// The Cathedral when it is not on the board: `Cathedral - to place (6)` or
/// `Cathedral - captured`.
pub(crate) fn cathedral_note(position: &Position) -> Option<&'static str> {
    match position.cathedral_status() {
        CathedralStatus::ToPlace => Some("Cathedral - to place (6)"),
        CathedralStatus::OnBoard => None,
        CathedralStatus::Gone => Some("Cathedral - captured"),
    }
}

/// A colour swatch and a bold heading at baseline `y`; returns the right end of the text.
fn write_heading(svg: &mut String, x: u32, y: u32, fill: &str, text: &str) -> u32 {
    let _ = write!(
        svg,
        r#"<rect x="{x}" y="{}" width="14" height="14" fill="{fill}" stroke="{}"/>"#,
        y - 12,
        colours::OUTLINE
    );
    write_text(svg, x + 20, y, HEADING, r#" font-weight="bold""#, text);
    x + 20 + text_width(text, HEADING, true)
}

/// The hands column with its left edge at `x`: both hands, then the Cathedral if it is not on
/// the board (drawn small when it is still to place). Returns the right end of the widest line
/// and the bottom of the last one.
fn write_hands(svg: &mut String, position: &Position, x: u32) -> (u32, u32) {
    let mut right = x;
    let mut y = TOP + 16;
    let mut bottom = y;
    for player in [Player::Dark, Player::Light] {
        let heading = hand_heading(position, player);
        right = right.max(write_heading(svg, x, y, player_fill(player), &heading));
        bottom = y + 5;
        y += HEADING_STEP;
        for line in hand_lines(position, player) {
            write_text(svg, x + 20, y, SMALL, "", &line);
            right = right.max(x + 20 + text_width(&line, SMALL, false));
            bottom = y + 5;
            y += LINE_STEP;
        }
        y += 16;
    }
    if let Some(note) = cathedral_note(position) {
        right = right.max(write_heading(svg, x, y, colours::CATHEDRAL, note));
        bottom = y + 5;
        if position.cathedral_status() == CathedralStatus::ToPlace {
            let top = y + 10;
            let drawing = Piece::Cathedral.drawing(Player::Light);
            for (row, line) in drawing.iter().enumerate() {
                for (col, c) in line.chars().enumerate() {
                    if c == '#' {
                        let _ = write!(
                            svg,
                            r#"<rect x="{}" y="{}" width="{MINI}" height="{MINI}" fill="{}" stroke="{}" stroke-width="1"/>"#,
                            x + 20 + col as u32 * MINI,
                            top + row as u32 * MINI,
                            colours::CATHEDRAL,
                            colours::OUTLINE
                        );
                    }
                }
            }
            bottom = top + drawing.len() as u32 * MINI + 1;
        }
    }
    (right, bottom)
}

/// The SVG document of `position`.
pub fn render_svg(position: &Position, options: &SvgOptions) -> String {
    render(position, options, false)
}

/// The SVG document of `position` for print (the worksheet): each player's territory in its
/// own pattern that stays apart in greyscale (Dark's diagonal stripes, Light's dots; see
/// [`print_patterns`]), bolder and larger building codes and coordinates, and the board kept at
/// the bottom left of whatever box it is scaled into.
pub fn render_print_svg(position: &Position, options: &SvgOptions) -> String {
    render(position, options, true)
}

/// The pattern ids of the territory of Light and of Dark in print.
pub const PRINT_PATTERN_IDS: [&str; 2] = ["print-light-territory", "print-dark-territory"];

/// Print colours of the territory patterns, chosen for greyscale (Rec. 601 luma, as a
/// greyscale printer or `pdftoppm -gray` sees them): Light's dots are a dark gold (luma about
/// 0.42) on its pale ground (0.92), Dark's stripes its building colour (0.29) on its ground
/// (0.78). The two grounds differ too (0.92 against 0.78), and the patterns differ in shape.
pub mod print_colours {
    /// The dots of Light's territory.
    pub const LIGHT_INK: &str = "#8a6a14";
    /// The stripes of Dark's territory.
    pub const DARK_INK: &str = super::colours::DARK;
}

/// The `<pattern>` elements of the territory in print, with ids [`PRINT_PATTERN_IDS`] (for
/// the worksheet's legend as well as its diagrams): Light's territory dotted (a dot of radius
/// 2.2 every 10 pixels, 16 to a cell), Dark's striped (3-pixel diagonal stripes every 8).
pub fn print_patterns() -> String {
    format!(
        r#"<pattern id="{lid}" width="10" height="10" patternUnits="userSpaceOnUse"><rect width="10" height="10" fill="{lt}"/><circle cx="5" cy="5" r="2.2" fill="{li}"/></pattern><pattern id="{did}" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="8" height="8" fill="{dt}"/><line x1="2" y1="0" x2="2" y2="8" stroke="{di}" stroke-width="3"/></pattern>"#,
        lid = PRINT_PATTERN_IDS[0],
        did = PRINT_PATTERN_IDS[1],
        lt = colours::LIGHT_TERRITORY,
        li = print_colours::LIGHT_INK,
        dt = colours::DARK_TERRITORY,
        di = print_colours::DARK_INK,
    )
}

fn render(position: &Position, options: &SvgOptions, print: bool) -> String {
    let board = 10 * CELL;
    // Codes and coordinates: larger in print, where the board is scaled down to a column.
    let (code_size, code_weight, coordinate_size) = if print {
        (19, r#" font-weight="bold""#, 16)
    } else {
        (SMALL, "", SMALL)
    };
    // Everything but the frame is drawn first, measuring as it goes; the size comes last.
    let mut body = String::new();
    // Territory, hatched in its owner's colour.
    let patterns = if print {
        PRINT_PATTERN_IDS
    } else {
        ["hatch-light", "hatch-dark"]
    };
    for (player, pattern) in [(Player::Light, patterns[0]), (Player::Dark, patterns[1])] {
        for cell in position.side(player).territory.cells() {
            let (x, y) = cell_origin(cell);
            let _ = write!(
                body,
                r#"<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="url(#{pattern})"/>"#
            );
        }
    }
    // Grid.
    for i in 0..=10 {
        let x = MARGIN + i * CELL;
        let y = TOP + i * CELL;
        let _ = write!(
            body,
            r#"<line x1="{x}" y1="{TOP}" x2="{x}" y2="{}" stroke="{g}" stroke-width="1"/><line x1="{MARGIN}" y1="{y}" x2="{}" y2="{y}" stroke="{g}" stroke-width="1"/>"#,
            TOP + board,
            MARGIN + board,
            g = colours::GRID
        );
    }
    // Buildings: filled cells without inner lines, then one outline per building.
    for building in position.buildings() {
        let fill = fill_of(&building);
        for cell in building.cells.cells() {
            let (x, y) = cell_origin(cell);
            let _ = write!(
                body,
                r#"<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}"/>"#
            );
        }
        let _ = write!(
            body,
            r#"<path d="{}" stroke="{}" stroke-width="2.5" stroke-linecap="square" fill="none"/>"#,
            outline_path(building.cells),
            colours::OUTLINE
        );
        // The piece's code on its top-left cell.
        if let Some(label_cell) = building
            .cells
            .cells()
            .max_by_key(|c| (c.rank(), std::cmp::Reverse(c.file())))
        {
            let (x, y) = cell_origin(label_cell);
            let text_colour = if building.owner == Some(Player::Dark) {
                "#ffffff"
            } else {
                "#000000"
            };
            write_text(
                &mut body,
                x + CELL / 2,
                y + CELL / 2 + code_size * 2 / 5,
                code_size,
                &format!(r#" text-anchor="middle" fill="{text_colour}"{code_weight}"#),
                building.piece.code(),
            );
        }
    }
    // Board border.
    let _ = write!(
        body,
        r#"<rect x="{MARGIN}" y="{TOP}" width="{board}" height="{board}" fill="none" stroke="{}" stroke-width="3"/>"#,
        colours::OUTLINE
    );
    // The highlighted move.
    if options.highlight.any() {
        let _ = write!(
            body,
            r#"<path d="{}" stroke="{}" stroke-width="5" stroke-linecap="round" fill="none"/>"#,
            outline_path(options.highlight),
            colours::HIGHLIGHT
        );
        for cell in options.highlight.cells() {
            let (x, y) = cell_origin(cell);
            let _ = write!(
                body,
                r#"<circle cx="{}" cy="{}" r="5" fill="{}"/>"#,
                x + CELL / 2,
                y + CELL - 8,
                colours::HIGHLIGHT
            );
        }
    }
    // Coordinates.
    for i in 0..10u32 {
        let file = ((b'a' + i as u8) as char).to_string();
        write_text(
            &mut body,
            MARGIN + i * CELL + CELL / 2,
            TOP + board + 18,
            coordinate_size,
            r##" text-anchor="middle" fill="#444""##,
            &file,
        );
        write_text(
            &mut body,
            MARGIN - 6,
            TOP + (9 - i) * CELL + CELL / 2 + 5,
            coordinate_size,
            r##" text-anchor="end" fill="#444""##,
            &(i + 1).to_string(),
        );
    }
    let mut width = MARGIN + board + RIGHT;
    let mut height = TOP + board + MARGIN;
    if options.hands {
        let x = MARGIN + board + 20;
        let (right, bottom) = write_hands(&mut body, position, x);
        width = (right + PAD).max(width + HAND_MIN_WIDTH);
        height = height.max(bottom + PAD);
    }
    if let Some(caption) = &options.caption {
        // As wide as the picture, or as its longest word.
        let longest_word = caption
            .split_whitespace()
            .map(|w| text_width(w, CAPTION, false))
            .max()
            .unwrap_or(0);
        width = width.max(longest_word + 2 * PAD);
        let lines = wrap(caption, CAPTION, width - 2 * PAD);
        let mut y = height + 20;
        for line in &lines {
            write_text(
                &mut body,
                width / 2,
                y,
                CAPTION,
                r#" text-anchor="middle""#,
                line,
            );
            y += CAPTION_STEP;
        }
        height = y - CAPTION_STEP + 14;
    }
    let mut svg = String::new();
    // In print the board keeps to the bottom left of the box it is scaled into, next to the
    // text under it.
    let aspect = if print {
        r#" preserveAspectRatio="xMinYMax meet""#
    } else {
        ""
    };
    let _ = write!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}"{aspect} font-family="{FONT_FAMILY}">"#
    );
    if print {
        let _ = write!(svg, "<defs>{}</defs>", print_patterns());
    } else {
        let _ = write!(
            svg,
            r#"<defs><pattern id="hatch-light" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="8" height="8" fill="{lt}"/><line x1="0" y1="0" x2="0" y2="8" stroke="{l}" stroke-width="3"/></pattern><pattern id="hatch-dark" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="8" height="8" fill="{dt}"/><line x1="0" y1="0" x2="0" y2="8" stroke="{d}" stroke-width="3"/></pattern></defs>"#,
            lt = colours::LIGHT_TERRITORY,
            l = colours::LIGHT,
            dt = colours::DARK_TERRITORY,
            d = colours::DARK,
        );
    }
    let _ = write!(
        svg,
        r#"<rect x="0" y="0" width="{width}" height="{height}" fill="{}"/>"#,
        colours::BOARD
    );
    svg.push_str(&body);
    svg.push_str("</svg>\n");
    svg
}
