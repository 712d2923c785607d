//! SVG diagrams rendered to pixels: the colours at given cells must be right.

use cathedral::file::load;
use cathedral::present::svg::{CELL, SvgOptions, cell_origin, colours, render_svg};
use cathedral::{Bitboard, Cell, Position};
use std::path::Path;

struct Picture {
    pixmap: resvg::tiny_skia::Pixmap,
}

impl Picture {
    fn render(svg: &str) -> Picture {
        let tree =
            resvg::usvg::Tree::from_str(svg, &resvg::usvg::Options::default()).expect("valid SVG");
        let size = tree.size().to_int_size();
        let mut pixmap =
            resvg::tiny_skia::Pixmap::new(size.width(), size.height()).expect("pixmap");
        resvg::render(
            &tree,
            resvg::tiny_skia::Transform::default(),
            &mut pixmap.as_mut(),
        );
        Picture { pixmap }
    }

    fn at(&self, x: u32, y: u32) -> String {
        let pixel = self.pixmap.pixel(x, y).expect("inside the picture");
        format!(
            "#{:02x}{:02x}{:02x}",
            pixel.red(),
            pixel.green(),
            pixel.blue()
        )
    }

    /// The colour a little inside the lower-left quarter of a cell (away from labels and outlines).
    fn cell(&self, name: &str) -> String {
        let cell: Cell = name.parse().expect("cell");
        let (x, y) = cell_origin(cell);
        self.at(x + CELL / 4, y + CELL * 3 / 4)
    }

    /// The colours seen along the cell's diagonal (for hatched territory).
    fn cell_colours(&self, name: &str) -> Vec<String> {
        let cell: Cell = name.parse().expect("cell");
        let (x, y) = cell_origin(cell);
        (6..CELL - 6).map(|d| self.at(x + d, y + d)).collect()
    }
}

/// Whether two `#rrggbb` colours differ by at most 24 in every channel (hatch lines are
/// anti-aliased).
fn near(a: &str, b: &str) -> bool {
    let channels = |c: &str| -> Vec<i32> {
        (0..3)
            .map(|i| i32::from_str_radix(&c[1 + 2 * i..3 + 2 * i], 16).unwrap_or(-1000))
            .collect()
    };
    channels(a)
        .iter()
        .zip(channels(b))
        .all(|(x, y)| (x - y).abs() <= 24)
}

fn position(path: &str) -> Position {
    load(Path::new(path))
        .unwrap_or_else(|e| panic!("{e}"))
        .position
}

#[test]
fn buildings_cathedral_and_empty_cells_have_their_colours() {
    let position = position("puzzles/examples/diagram.yaml");
    let picture = Picture::render(&render_svg(
        &position,
        &SvgOptions {
            hands: true,
            ..SvgOptions::default()
        },
    ));
    for cell in ["b1", "b2", "b3"] {
        assert_eq!(picture.cell(cell), colours::DARK, "dark bridge at {cell}");
    }
    for cell in ["h2", "h3", "i3"] {
        assert_eq!(picture.cell(cell), colours::LIGHT, "light inn at {cell}");
    }
    for cell in ["e4", "e5", "d6", "e6", "f6", "e7"] {
        assert_eq!(
            picture.cell(cell),
            colours::CATHEDRAL,
            "cathedral at {cell}"
        );
    }
    for cell in ["a1", "j10", "c5"] {
        assert_eq!(picture.cell(cell), colours::BOARD, "empty {cell}");
    }
}

#[test]
fn territory_is_hatched_in_its_owners_colours() {
    let position = position("puzzles/rules/14-playing-into-own-territory.yaml");
    assert!(position.side(cathedral::Player::Dark).territory.any());
    let picture = Picture::render(&render_svg(&position, &SvgOptions::default()));
    let seen = picture.cell_colours("a1");
    assert!(
        seen.iter().any(|c| near(c, colours::DARK)),
        "no hatch line in {seen:?}"
    );
    assert!(
        seen.iter().any(|c| c == colours::DARK_TERRITORY),
        "no tint in {seen:?}"
    );
    assert!(
        !seen.iter().any(|c| c == colours::BOARD),
        "white in territory: {seen:?}"
    );
}

#[test]
fn a_highlighted_move_is_outlined() {
    let position = position("puzzles/examples/diagram.yaml");
    let highlight: Bitboard = ["c1", "c2", "c3"]
        .iter()
        .map(|s| s.parse::<Cell>().expect("cell"))
        .collect();
    let plain = Picture::render(&render_svg(&position, &SvgOptions::default()));
    let marked = Picture::render(&render_svg(
        &position,
        &SvgOptions {
            highlight,
            caption: Some("Dark to play".into()),
            hands: false,
        },
    ));
    // The outline runs along the left edge of c1..c3.
    let (x, y) = cell_origin("c2".parse().expect("cell"));
    assert_ne!(plain.at(x, y + CELL / 2), colours::HIGHLIGHT);
    assert_eq!(marked.at(x, y + CELL / 2), colours::HIGHLIGHT);
    assert_eq!(
        marked.cell("c2"),
        colours::BOARD,
        "the highlight must not fill the cells"
    );
}

#[test]
fn no_outline_inside_a_building() {
    let position = position("puzzles/examples/diagram.yaml");
    let picture = Picture::render(&render_svg(&position, &SvgOptions::default()));
    // Between b1 and b2 (same Dark Bridge) the fill continues across the shared edge.
    let (x, y) = cell_origin("b2".parse().expect("cell"));
    assert_eq!(picture.at(x + CELL / 4, y + CELL), colours::DARK);
    // Between b3 and b4 (building and empty) there is the outline.
    let (x, y) = cell_origin("b4".parse().expect("cell"));
    assert_eq!(picture.at(x + CELL / 4, y + CELL), colours::OUTLINE);
}
