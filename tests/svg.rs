//! SVG diagrams rendered to pixels: the colours at given cells must be right.

use cathedral::draw::svg::{CELL, SvgOptions, cell_origin, colours, render_svg};
use cathedral::file::load;
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

/// One `<text>` element: where it is anchored, how it is drawn and what it says.
#[derive(Debug)]
struct Text {
    x: f64,
    y: f64,
    size: f64,
    bold: bool,
    anchor: String,
    content: String,
}

impl Text {
    /// A generous estimate of the text's box: 0.62 em per character (0.68 em in bold), wider than
    /// the average of DejaVu Sans, one of the widest common fonts; from one em above the baseline
    /// to 0.3 em below.
    fn extent(&self) -> (f64, f64, f64, f64) {
        let per_char = if self.bold { 0.68 } else { 0.62 };
        let width = self.content.chars().count() as f64 * per_char * self.size;
        let left = match self.anchor.as_str() {
            "middle" => self.x - width / 2.0,
            "end" => self.x - width,
            _ => self.x,
        };
        (
            left,
            self.y - self.size,
            left + width,
            self.y + 0.3 * self.size,
        )
    }
}

fn attribute<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let start = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    let end = start + tag[start..].find('"')?;
    Some(&tag[start..end])
}

fn unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
}

/// The picture's size (from the `viewBox`) and its text elements.
fn texts(svg: &str) -> ((f64, f64), Vec<Text>) {
    let open = &svg[..svg.find('>').expect("svg tag")];
    let view: Vec<f64> = attribute(open, "viewBox")
        .expect("viewBox")
        .split_whitespace()
        .map(|n| n.parse().expect("number"))
        .collect();
    assert_eq!(&view[..2], &[0.0, 0.0], "the viewBox starts at the origin");
    let mut found = Vec::new();
    let mut rest = svg;
    while let Some(start) = rest.find("<text") {
        let after = &rest[start..];
        let tag_end = after.find('>').expect("end of tag");
        let tag = &after[..tag_end];
        let close = after.find("</text>").expect("</text>");
        let content = &after[tag_end + 1..close];
        assert!(
            !content.contains('<'),
            "nested elements in a text are not measured by this test: {content}"
        );
        let number = |name: &str| -> f64 {
            attribute(tag, name)
                .unwrap_or_else(|| panic!("text without {name}: {tag}"))
                .parse()
                .expect("number")
        };
        found.push(Text {
            x: number("x"),
            y: number("y"),
            size: number("font-size"),
            bold: attribute(tag, "font-weight") == Some("bold"),
            anchor: attribute(tag, "text-anchor").unwrap_or("start").to_string(),
            content: unescape(content),
        });
        rest = &after[close..];
    }
    ((view[2], view[3]), found)
}

/// Every text element, measured generously, lies inside the picture.
fn assert_texts_inside(svg: &str, what: &str) {
    let ((width, height), texts) = texts(svg);
    assert!(!texts.is_empty());
    for text in &texts {
        let (left, top, right, bottom) = text.extent();
        assert!(
            left >= 0.0 && top >= 0.0 && right <= width && bottom <= height,
            "{what}: {:?} at ({left:.0}, {top:.0})-({right:.0}, {bottom:.0}) is not inside {width}x{height}",
            text.content
        );
    }
}

fn file(path: &str) -> cathedral::file::PositionFile {
    load(Path::new(path)).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn every_text_lies_inside_the_picture() {
    let claim = file("puzzles/teaching/puzzle-072.yaml");
    let caption =
        "puzzle-072: Dark to play and lose by only 5 squares. Answer: Bridge g5-i5 claims j3, j4";
    for (what, position, hands, caption) in [
        (
            "diagram with hands",
            position("puzzles/examples/diagram.yaml"),
            true,
            None,
        ),
        (
            "opening (full hands, Cathedral to place)",
            position("puzzles/examples/opening.yaml"),
            true,
            None,
        ),
        (
            "puzzle-072 with its caption",
            claim.position,
            true,
            Some(caption),
        ),
        (
            "puzzle-072 without hands",
            claim.position,
            false,
            Some(caption),
        ),
        (
            "endgame without hands",
            position("puzzles/examples/endgame.yaml"),
            false,
            Some("Dark to play"),
        ),
    ] {
        let svg = render_svg(
            &position,
            &SvgOptions {
                hands,
                caption: caption.map(str::to_string),
                ..SvgOptions::default()
            },
        );
        assert_texts_inside(&svg, what);
    }
}

#[test]
fn full_hands_fit_the_picture() {
    let position = position("puzzles/examples/opening.yaml");
    let svg = render_svg(
        &position,
        &SvgOptions {
            hands: true,
            ..SvgOptions::default()
        },
    );
    let ((_, height), texts) = texts(&svg);
    let academies: Vec<&Text> = texts
        .iter()
        .filter(|t| t.content.starts_with("Academy"))
        .collect();
    assert_eq!(academies.len(), 2, "one Academy in each hand: {texts:?}");
    for text in academies {
        assert!(
            text.extent().3 <= height,
            "{:?} at y {} below the picture's height {height}",
            text.content,
            text.y
        );
    }
}

#[test]
fn a_cathedral_to_place_is_shown_beside_the_board() {
    let position = position("puzzles/examples/opening.yaml");
    assert_eq!(
        position.cathedral_status(),
        cathedral::CathedralStatus::ToPlace
    );
    let svg = render_svg(
        &position,
        &SvgOptions {
            hands: true,
            ..SvgOptions::default()
        },
    );
    let ((width, height), texts) = texts(&svg);
    let mention = texts
        .iter()
        .find(|t| t.content.contains("Cathedral") && t.content.contains("to place"))
        .unwrap_or_else(|| panic!("no text says the Cathedral is to place: {texts:?}"));
    let (left, top, right, bottom) = mention.extent();
    assert!(
        left >= 0.0 && top >= 0.0 && right <= width && bottom <= height,
        "{:?} is outside the picture",
        mention.content
    );
    // And it is drawn, in its colour, to the right of the empty board.
    let picture = Picture::render(&svg);
    let board_right = cell_origin("j1".parse().expect("cell")).0 + CELL;
    let purple = (board_right..picture.pixmap.width())
        .flat_map(|x| (0..picture.pixmap.height()).map(move |y| (x, y)))
        .filter(|&(x, y)| picture.at(x, y) == colours::CATHEDRAL)
        .count();
    assert!(
        purple > 100,
        "no Cathedral drawn beside the board ({purple} pixels)"
    );
    // A Cathedral on the board is not listed as to place.
    let svg = render_svg(
        &position_with_cathedral(),
        &SvgOptions {
            hands: true,
            ..SvgOptions::default()
        },
    );
    assert!(!svg.contains("to place"));
}

fn position_with_cathedral() -> Position {
    position("puzzles/examples/diagram.yaml")
}

#[test]
fn a_long_caption_is_wrapped_inside_the_picture() {
    let position = position("puzzles/examples/diagram.yaml");
    let caption = "Dark to play and win by 4 squares: the Tavern on h6 walls in the \
                   north-east corner, captures the lone Light Stable there and leaves Light \
                   no room for the Castle, whatever Light plays next";
    for hands in [true, false] {
        let svg = render_svg(
            &position,
            &SvgOptions {
                hands,
                caption: Some(caption.to_string()),
                ..SvgOptions::default()
            },
        );
        let ((width, _), texts) = texts(&svg);
        let lines: Vec<&Text> = texts
            .iter()
            .filter(|t| caption.contains(t.content.as_str()) && t.content.contains(' '))
            .collect();
        assert!(lines.len() >= 2, "the caption is not wrapped: {lines:?}");
        let joined = lines
            .iter()
            .map(|t| t.content.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        assert_eq!(joined, caption, "the lines, in order, make the caption");
        assert!(
            lines.windows(2).all(|w| w[1].y > w[0].y),
            "one line under the other"
        );
        assert!(
            width < 1000.0,
            "the picture grew instead of wrapping: {width}"
        );
        assert_texts_inside(&svg, "long caption");
    }
}
