//! The board diagram: a snapshot of the plain ASCII form, and building outlines in Unicode.

use cathedral::draw::terminal::{RenderStyle, board, position_text};
use cathedral::legality::parse_move;
use cathedral::{Cell, Position, Rules};

/// Cathedral, a Dark Castle, a Light Square, a Dark Bridge, a Light Tavern captured by a Dark Inn.
fn small_position() -> Position {
    let mut position = Position::new(Rules::CLASSIC);
    for text in [
        "cathedral:e7,d6,e6,f6,e5,e4",
        "dark:castle:a1,b1,c1,a2,c2",
        "light:square:h8,i8,h9,i9",
        "dark:bridge:d1,e1,f1",
        "light:tavern:a10",
        "dark:inn:a9,b9,b10",
        "light:stable:i2,i3",
    ] {
        let mv = parse_move(&position, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        position.play(mv);
    }
    position
}

#[test]
fn plain_board_snapshot() {
    insta::assert_snapshot!(board(&small_position(), RenderStyle::PLAIN));
}

#[test]
fn plain_rendering_has_no_escapes() {
    let text = position_text(&small_position(), RenderStyle::PLAIN);
    assert!(text.is_ascii());
    assert!(text.contains("Dark to move"));
    assert!(text.contains("hand: tavern x2, stable x2, inn x1"));
}

fn is_line(c: char) -> bool {
    ('\u{2500}'..='\u{257f}').contains(&c)
}

/// The characters of the diagram, one row per text line.
fn grid(text: &str) -> Vec<Vec<char>> {
    text.lines().map(|l| l.chars().collect()).collect()
}

/// Line and column of the middle character of `cell` in the diagram.
fn centre(cell: Cell) -> (usize, usize) {
    let row = 9 - cell.rank() as usize;
    (2 * row + 1, 3 + 4 * cell.file() as usize + 2)
}

#[test]
fn unicode_lines_separate_buildings_only() {
    let position = small_position();
    let style = RenderStyle {
        unicode: true,
        color: false,
    };
    let chars = grid(&board(&position, style));
    let building = |cell: Cell| position.buildings().position(|b| b.cells.contains(cell));
    let mut same = 0;
    for cell in Cell::all() {
        let (line, col) = centre(cell);
        // East neighbour: the edge is two columns right of the centre.
        if let Some(east) = Cell::new(cell.file() + 1, cell.rank()) {
            let edge = chars[line][col + 2];
            let wall = building(cell) != building(east);
            assert_eq!(is_line(edge), wall, "{cell}|{east}: `{edge}`");
            same += usize::from(!wall && building(cell).is_some());
        }
        // South neighbour: the edge is on the line below, over three columns.
        if cell.rank() > 0 {
            let south = Cell::new(cell.file(), cell.rank() - 1).expect("on board");
            let wall = building(cell) != building(south);
            for dc in [-1isize, 0, 1] {
                let edge = chars[line + 1][(col as isize + dc) as usize];
                assert_eq!(is_line(edge), wall, "{cell}/{south}: `{edge}`");
            }
            same += usize::from(!wall && building(cell).is_some());
        }
    }
    assert!(
        same > 10,
        "too few same-building neighbours checked: {same}"
    );
    // The frame is closed.
    assert_eq!(chars[0][3], '┌');
    assert_eq!(chars[20][3], '└');
    assert_eq!(chars[0][43], '┐');
    assert_eq!(chars[20][43], '┘');
}

#[test]
fn finished_game_shows_the_result() {
    let mut position = Position::new(Rules::CLASSIC);
    let mut list = cathedral::MoveList::new();
    for _ in 0..200 {
        position.legal_moves(&mut list);
        let Some(&mv) = list.as_slice().first() else {
            break;
        };
        position.play(mv);
    }
    assert!(position.is_game_over());
    let text = position_text(&position, RenderStyle::PLAIN);
    assert!(text.starts_with("   +---"), "{text}");
    assert!(text.contains("Game over: "), "{text}");
    let view = cathedral::view::PositionView::of(&position);
    assert!(view.game_over && view.legal_placements.is_empty());
}
