//! The 10x10 diagram. Cells are three characters wide and separated by one-character edges;
//! an edge is a line where two different buildings meet (or a building meets an empty cell, or
//! the board ends), and each junction's character follows from which of its four arms are drawn.

use super::RenderStyle;
use super::palette::{Tint, empty_text, fill_char, paint, territory_text};
use crate::cathedral::cell::Cell;
use crate::cathedral::piece::Piece;
use crate::cathedral::player::Player;
use crate::cathedral::position::Position;

const SIZE: usize = 10;

/// What one cell holds. Rows run from rank 10 (row 0) down to rank 1 (row 9).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Content {
    Empty,
    Territory(Player),
    Building {
        /// Index of the building in [`Position::buildings`]; tells two Stables apart.
        id: usize,
        owner: Option<Player>,
        piece: Piece,
        /// The one cell that shows the piece code.
        label: bool,
    },
}

impl Content {
    fn building_id(self) -> Option<usize> {
        match self {
            Content::Building { id, .. } => Some(id),
            _ => None,
        }
    }

    fn tint(self) -> Option<Tint> {
        match self {
            Content::Empty => None,
            Content::Territory(player) => Some(Tint::Territory(player)),
            Content::Building { owner, .. } => Some(Tint::Building(owner)),
        }
    }

    /// What a gap between two cells (or a junction among four) shares with its neighbours when
    /// no line is drawn there: the same building, or the same player's territory.
    fn area(self) -> Option<(Option<usize>, Option<Tint>)> {
        match self {
            Content::Empty => None,
            _ => Some((self.building_id(), self.tint())),
        }
    }
}

struct Grid {
    cells: [[Content; SIZE]; SIZE],
}

impl Grid {
    fn of(position: &Position) -> Grid {
        let mut cells = [[Content::Empty; SIZE]; SIZE];
        for player in Player::BOTH {
            for cell in position.side(player).territory.cells() {
                cells[row_of(cell)][cell.file() as usize] = Content::Territory(player);
            }
        }
        for (id, building) in position.buildings().enumerate() {
            let label = building
                .cells
                .cells()
                .max_by_key(|c| (c.rank(), std::cmp::Reverse(c.file())));
            for cell in building.cells.cells() {
                cells[row_of(cell)][cell.file() as usize] = Content::Building {
                    id,
                    owner: building.owner,
                    piece: building.piece,
                    label: Some(cell) == label,
                };
            }
        }
        Grid { cells }
    }

    /// The cell at `row`, `col`, or `None` off the board (signed so callers can step outside).
    fn at(&self, row: isize, col: isize) -> Option<Content> {
        let (r, c) = (usize::try_from(row).ok()?, usize::try_from(col).ok()?);
        self.cells.get(r)?.get(c).copied()
    }

    /// Whether a line separates two side-by-side cells (either may be off the board).
    fn wall(a: Option<Content>, b: Option<Content>) -> bool {
        match (a, b) {
            (Some(a), Some(b)) => a.building_id() != b.building_id(),
            (None, None) => false,
            _ => true,
        }
    }

    /// The shared area of cells with no line between them, if they all share one.
    fn shared(cells: &[Option<Content>]) -> Option<Tint> {
        let first = cells.first().copied().flatten()?.area()?;
        cells
            .iter()
            .all(|c| c.and_then(Content::area) == Some(first))
            .then_some(first.1)
            .flatten()
    }
}

fn row_of(cell: Cell) -> usize {
    SIZE - 1 - cell.rank() as usize
}

/// Which lines meet at a junction.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
struct Arms {
    up: bool,
    down: bool,
    left: bool,
    right: bool,
}

/// The box-drawing (or ASCII) character for a junction with these arms; `None` when it has none.
fn junction(arms: Arms, unicode: bool) -> Option<char> {
    let Arms {
        up,
        down,
        left,
        right,
    } = arms;
    if !unicode {
        return (up || down || left || right).then_some('+');
    }
    let c = match (up, down, left, right) {
        (false, false, false, false) => return None,
        (true, false, false, false) => '╵',
        (false, true, false, false) => '╷',
        (false, false, true, false) => '╴',
        (false, false, false, true) => '╶',
        (true, true, false, false) => '│',
        (false, false, true, true) => '─',
        (false, true, false, true) => '┌',
        (false, true, true, false) => '┐',
        (true, false, false, true) => '└',
        (true, false, true, false) => '┘',
        (true, true, false, true) => '├',
        (true, true, true, false) => '┤',
        (false, true, true, true) => '┬',
        (true, false, true, true) => '┴',
        (true, true, true, true) => '┼',
    };
    Some(c)
}

/// Draws the board of `position`: rank numbers on the left, file letters below.
pub fn board(position: &Position, style: RenderStyle) -> String {
    let grid = Grid::of(position);
    let mut out = String::new();
    for line in 0..=SIZE as isize {
        out.push_str("   ");
        out.push_str(&junction_line(&grid, line, style));
        out.push('\n');
        if line < SIZE as isize {
            out.push_str(&format!("{:>2} ", SIZE as isize - line));
            out.push_str(&cell_line(&grid, line, style));
            out.push('\n');
        }
    }
    let files: String = ('a'..='j').map(|file| format!("  {file} ")).collect();
    out.push_str(&format!("   {}\n", files.trim_end()));
    out
}

/// The line above board row `line` (below the last row when `line` is 10).
fn junction_line(grid: &Grid, line: isize, style: RenderStyle) -> String {
    let mut out = String::new();
    for col in 0..=SIZE as isize {
        let (nw, ne) = (grid.at(line - 1, col - 1), grid.at(line - 1, col));
        let (sw, se) = (grid.at(line, col - 1), grid.at(line, col));
        let arms = Arms {
            up: line > 0 && Grid::wall(nw, ne),
            down: line < SIZE as isize && Grid::wall(sw, se),
            left: col > 0 && Grid::wall(nw, sw),
            right: col < SIZE as isize && Grid::wall(ne, se),
        };
        match junction(arms, style.unicode) {
            Some(c) => out.push(c),
            None => out.push_str(&gap(style, Grid::shared(&[nw, ne, sw, se]), 1)),
        }
        if col < SIZE as isize {
            if Grid::wall(ne, se) {
                out.push_str(if style.unicode { "───" } else { "---" });
            } else {
                out.push_str(&gap(style, Grid::shared(&[ne, se]), 3));
            }
        }
    }
    out
}

/// Board row `row`: edges and cell contents.
fn cell_line(grid: &Grid, row: isize, style: RenderStyle) -> String {
    let mut out = String::new();
    for col in 0..=SIZE as isize {
        let (west, east) = (grid.at(row, col - 1), grid.at(row, col));
        if Grid::wall(west, east) {
            out.push(if style.unicode { '│' } else { '|' });
        } else {
            out.push_str(&gap(style, Grid::shared(&[west, east]), 1));
        }
        if let Some(content) = east {
            out.push_str(&cell_text(content, style));
        }
    }
    out
}

/// `width` characters of a gap with no line in it, filled like the area it lies in.
fn gap(style: RenderStyle, area: Option<Tint>, width: usize) -> String {
    let fill = match area {
        // ASCII leaves the gaps inside a building blank, so the code stays readable.
        Some(Tint::Building(owner)) if style.unicode => fill_char(style, owner),
        _ => ' ',
    };
    paint(style, area, &fill.to_string().repeat(width))
}

/// The three characters of one cell.
fn cell_text(content: Content, style: RenderStyle) -> String {
    let text = match content {
        Content::Empty => empty_text(style).to_string(),
        Content::Territory(player) => territory_text(style, player).to_string(),
        Content::Building {
            owner,
            piece,
            label: true,
            ..
        } => {
            let mark = if owner.is_none() {
                ' '
            } else {
                fill_char(style, owner)
            };
            format!("{mark}{}", piece.code())
        }
        Content::Building { owner, .. } => fill_char(style, owner).to_string().repeat(3),
    };
    paint(style, content.tint(), &text)
}
