//! Print-friendly SVG diagrams of positions: a grid with coordinates, each building drawn as one
//! shape in its player's colour, the Cathedral distinct, territory hatched in its owner's colour,
//! the hands beside the board, an optional highlighted move and a caption.

use crate::cathedral::bitboard::Bitboard;
use crate::cathedral::cell::Cell;
use crate::cathedral::piece::Piece;
use crate::cathedral::player::Player;
use crate::cathedral::position::{Building, CathedralStatus, Position};
use std::fmt::Write;

/// Pixels per cell.
pub const CELL: u32 = 40;
/// Space left of and below the board for the coordinates.
pub const MARGIN: u32 = 28;
const HAND_WIDTH: u32 = 230;

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
    pub const HIGHLIGHT: &str = "#d62828";
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
        (9 - cell.rank() as u32) * CELL + 8,
    )
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn fill_of(building: &Building) -> &'static str {
    match building.owner {
        Some(Player::Light) => colours::LIGHT,
        Some(Player::Dark) => colours::DARK,
        None => colours::CATHEDRAL,
    }
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

/// A hand as text: `Tavern x2, Castle = 7 squares`.
fn hand_lines(position: &Position, player: Player) -> Vec<String> {
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

/// The SVG document of `position`.
pub fn render_svg(position: &Position, options: &SvgOptions) -> String {
    let board = 10 * CELL;
    let width = MARGIN + board + 12 + if options.hands { HAND_WIDTH } else { 0 };
    let caption_height = if options.caption.is_some() { 34 } else { 0 };
    let height = 8 + board + MARGIN + caption_height;
    let mut svg = String::new();
    let _ = write!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif">"#
    );
    svg.push_str(&format!(
        r#"<defs><pattern id="hatch-light" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="8" height="8" fill="{lt}"/><line x1="0" y1="0" x2="0" y2="8" stroke="{l}" stroke-width="3"/></pattern><pattern id="hatch-dark" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="8" height="8" fill="{dt}"/><line x1="0" y1="0" x2="0" y2="8" stroke="{d}" stroke-width="3"/></pattern></defs>"#,
        lt = colours::LIGHT_TERRITORY,
        l = colours::LIGHT,
        dt = colours::DARK_TERRITORY,
        d = colours::DARK,
    ));
    let _ = write!(
        svg,
        r#"<rect x="0" y="0" width="{width}" height="{height}" fill="{}"/>"#,
        colours::BOARD
    );
    // Territory, hatched in its owner's colour.
    for (player, pattern) in [(Player::Light, "hatch-light"), (Player::Dark, "hatch-dark")] {
        for cell in position.side(player).territory.cells() {
            let (x, y) = cell_origin(cell);
            let _ = write!(
                svg,
                r#"<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="url(#{pattern})"/>"#
            );
        }
    }
    // Grid.
    let top = 8;
    for i in 0..=10 {
        let x = MARGIN + i * CELL;
        let y = top + i * CELL;
        let _ = write!(
            svg,
            r#"<line x1="{x}" y1="{top}" x2="{x}" y2="{}" stroke="{g}" stroke-width="1"/><line x1="{MARGIN}" y1="{y}" x2="{}" y2="{y}" stroke="{g}" stroke-width="1"/>"#,
            top + board,
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
                svg,
                r#"<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}"/>"#
            );
        }
        let _ = write!(
            svg,
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
            let _ = write!(
                svg,
                r#"<text x="{}" y="{}" font-size="13" text-anchor="middle" fill="{text_colour}">{}</text>"#,
                x + CELL / 2,
                y + CELL / 2 + 5,
                building.piece.code()
            );
        }
    }
    // Board border.
    let _ = write!(
        svg,
        r#"<rect x="{MARGIN}" y="{top}" width="{board}" height="{board}" fill="none" stroke="{}" stroke-width="3"/>"#,
        colours::OUTLINE
    );
    // The highlighted move.
    if options.highlight.any() {
        let _ = write!(
            svg,
            r#"<path d="{}" stroke="{}" stroke-width="5" stroke-linecap="round" fill="none"/>"#,
            outline_path(options.highlight),
            colours::HIGHLIGHT
        );
        for cell in options.highlight.cells() {
            let (x, y) = cell_origin(cell);
            let _ = write!(
                svg,
                r#"<circle cx="{}" cy="{}" r="5" fill="{}"/>"#,
                x + CELL / 2,
                y + CELL - 8,
                colours::HIGHLIGHT
            );
        }
    }
    // Coordinates.
    for i in 0..10u32 {
        let _ = write!(
            svg,
            r##"<text x="{}" y="{}" font-size="13" text-anchor="middle" fill="#444">{}</text>"##,
            MARGIN + i * CELL + CELL / 2,
            top + board + 18,
            (b'a' + i as u8) as char
        );
        let _ = write!(
            svg,
            r##"<text x="{}" y="{}" font-size="13" text-anchor="end" fill="#444">{}</text>"##,
            MARGIN - 6,
            top + (9 - i) * CELL + CELL / 2 + 5,
            i + 1
        );
    }
    if options.hands {
        let x = MARGIN + board + 20;
        let mut y = top + 16;
        let to_move = position.to_move();
        for player in [Player::Dark, Player::Light] {
            let marker = if player == to_move && !position.is_game_over() {
                " (to move)"
            } else {
                ""
            };
            let _ = write!(
                svg,
                r#"<rect x="{x}" y="{}" width="14" height="14" fill="{}" stroke="{}"/><text x="{}" y="{y}" font-size="14" font-weight="bold">{}{} - {} unplaced</text>"#,
                y - 12,
                if player == Player::Light {
                    colours::LIGHT
                } else {
                    colours::DARK
                },
                colours::OUTLINE,
                x + 20,
                player.title(),
                marker,
                position.unplaced_squares(player)
            );
            y += 20;
            for line in hand_lines(position, player) {
                let _ = write!(
                    svg,
                    r#"<text x="{}" y="{y}" font-size="13">{}</text>"#,
                    x + 20,
                    escape(&line)
                );
                y += 17;
            }
            y += 16;
        }
        let cathedral = match position.cathedral_status() {
            CathedralStatus::ToPlace => "Cathedral: to place",
            CathedralStatus::OnBoard => "",
            CathedralStatus::Gone => "Cathedral: captured",
        };
        if !cathedral.is_empty() {
            let _ = write!(
                svg,
                r#"<text x="{x}" y="{y}" font-size="13">{cathedral}</text>"#
            );
        }
    }
    if let Some(caption) = &options.caption {
        let _ = write!(
            svg,
            r#"<text x="{}" y="{}" font-size="15" text-anchor="middle">{}</text>"#,
            MARGIN + board / 2,
            top + board + MARGIN + 20,
            escape(caption)
        );
    }
    svg.push_str("</svg>\n");
    svg
}
