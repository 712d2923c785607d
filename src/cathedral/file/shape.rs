//! Shapes drawn on the board, as lichess draws them with a right-drag: a circle on a cell or an
//! arrow from a cell to another, in one of four colours. A game record keeps them on the move
//! whose position they were drawn on (`shapes:`, `docs/game-record.md`), a study on its chapter.
//!
//! Written as a word: `e4` is a green circle, `e4-g7` a green arrow from e4 to g7, and a colour
//! other than green goes in front with a colon: `red:c3`, `blue:e4-g7`, `yellow:j10`.

use super::located::Errors;
use super::yaml::{Node, items, word};
use crate::cathedral::cell::Cell;
use crate::files::FileError;

/// The colour of a shape: lichess's four brushes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum ShapeColour {
    /// The default: drawn without a modifier key, written without a colour.
    #[default]
    Green,
    /// Shift (or Ctrl) held while drawing.
    Red,
    /// Alt held.
    Blue,
    /// Shift and Alt held.
    Yellow,
}

impl ShapeColour {
    /// The four colours, green first.
    pub const ALL: [ShapeColour; 4] = [
        ShapeColour::Green,
        ShapeColour::Red,
        ShapeColour::Blue,
        ShapeColour::Yellow,
    ];

    /// Its name as written: `green`, `red`, `blue` or `yellow`.
    pub fn name(self) -> &'static str {
        match self {
            ShapeColour::Green => "green",
            ShapeColour::Red => "red",
            ShapeColour::Blue => "blue",
            ShapeColour::Yellow => "yellow",
        }
    }
}

/// A circle (`from == to`) or an arrow from `from` to `to`, in a colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    /// The circled cell, or where the arrow starts.
    pub from: Cell,
    /// Where the arrow ends; `from` for a circle.
    pub to: Cell,
    /// Its colour.
    pub colour: ShapeColour,
}

impl Shape {
    /// A circle on `cell`.
    pub fn circle(cell: Cell, colour: ShapeColour) -> Shape {
        Shape {
            from: cell,
            to: cell,
            colour,
        }
    }

    /// An arrow from `from` to `to`.
    pub fn arrow(from: Cell, to: Cell, colour: ShapeColour) -> Shape {
        Shape { from, to, colour }
    }

    /// Whether it is a circle.
    pub fn is_circle(&self) -> bool {
        self.from == self.to
    }

    /// Whether `other` is drawn on the same cells (in any colour): the page draws one shape per
    /// place, and drawing it again removes it.
    pub fn same_place(&self, other: &Shape) -> bool {
        self.from == other.from && self.to == other.to
    }
}

/// Written `e4`, `e4-g7`, `red:c3`: the colour only when it is not green.
impl std::fmt::Display for Shape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.colour != ShapeColour::Green {
            write!(f, "{}:", self.colour.name())?;
        }
        if self.is_circle() {
            write!(f, "{}", self.from)
        } else {
            write!(f, "{}-{}", self.from, self.to)
        }
    }
}

impl serde::Serialize for Shape {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// A text that is no shape, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShapeError {
    /// What was written.
    pub written: String,
    /// What is wrong with it.
    pub reason: String,
}

/// How a shape is written, for messages.
pub const SHAPE_FORM: &str = "a shape is a cell (a circle, `e4`) or two cells joined by `-` (an arrow, `e4-g7`), with `red:`, `blue:` or `yellow:` in front for a colour other than green (`red:c3`)";

impl std::fmt::Display for ShapeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let shown: String = self.written.chars().take(40).collect();
        write!(f, "`{shown}` is not a shape: {}; {SHAPE_FORM}", self.reason)
    }
}

impl std::error::Error for ShapeError {}

impl std::str::FromStr for Shape {
    type Err = ShapeError;

    fn from_str(text: &str) -> Result<Shape, ShapeError> {
        let written = text.trim();
        let fail = |reason: String| ShapeError {
            written: written.to_string(),
            reason,
        };
        let (colour, cells) = match written.split_once(':') {
            Some((name, rest)) => {
                let name = name.trim();
                let colour = ShapeColour::ALL
                    .into_iter()
                    .find(|c| c.name().eq_ignore_ascii_case(name))
                    .ok_or_else(|| {
                        fail(format!(
                            "`{name}` is not a colour: expected `green` (the default, left out), `red`, `blue` or `yellow`"
                        ))
                    })?;
                (colour, rest.trim())
            }
            None => (ShapeColour::Green, written),
        };
        let cell = |text: &str| -> Result<Cell, ShapeError> {
            let text = text.trim();
            if text.is_empty() {
                return Err(fail("a cell is missing".to_string()));
            }
            text.parse::<Cell>().map_err(|_| {
                let shown: String = text.chars().take(20).collect();
                fail(format!(
                    "`{shown}` is not a cell (a file a..j and a rank 1..10, like `c3` or `j10`)"
                ))
            })
        };
        match cells.split_once('-') {
            None => Ok(Shape::circle(cell(cells)?, colour)),
            Some((a, b)) => {
                let (from, to) = (cell(a)?, cell(b)?);
                if from == to {
                    return Err(fail(format!(
                        "an arrow goes from a cell to another (`{from}` alone is a circle)"
                    )));
                }
                Ok(Shape::arrow(from, to, colour))
            }
        }
    }
}

/// Reads a list of shapes as written: each parsed, none drawn twice on the same cells. An error
/// comes with the index of the item it is about, for its place.
pub fn check_shapes<'a>(
    written: impl IntoIterator<Item = &'a str>,
) -> Result<Vec<Shape>, (usize, String)> {
    let mut shapes: Vec<Shape> = Vec::new();
    for (index, text) in written.into_iter().enumerate() {
        let shape = text.parse::<Shape>().map_err(|e| (index, e.to_string()))?;
        if let Some(before) = shapes.iter().find(|s| s.same_place(&shape)) {
            let what = if shape.is_circle() {
                "a cell has one circle"
            } else {
                "two cells have one arrow between them"
            };
            return Err((
                index,
                format!("`{shape}` is drawn twice (`{before}` is there already): {what}"),
            ));
        }
        shapes.push(shape);
    }
    Ok(shapes)
}

/// A list of shapes as written in a file (`shapes: [e4, e4-g7, red:c3]`), each error at its
/// item's line and column; `what` names the field (`move 3: shapes`).
pub(super) fn read_shapes(
    errors: &Errors,
    node: &Node,
    what: &str,
) -> Result<Vec<Shape>, FileError> {
    let list = items(
        errors,
        node,
        what,
        "a list of shapes",
        "a list of shapes like `[e4, e4-g7, red:c3]`",
    )?;
    let mut texts = Vec::with_capacity(list.len());
    for item in list {
        texts.push(word(
            errors,
            item,
            what,
            "a shape",
            "a shape like `e4`, `e4-g7` or `red:c3`",
        )?);
    }
    check_shapes(texts.iter().copied())
        .map_err(|(index, message)| errors.at(list[index].place, format!("{what}: {message}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_are_written_as_they_are_read() {
        for text in [
            "e4",
            "e4-g7",
            "red:c3",
            "blue:e4-g7",
            "yellow:j10",
            "a1-j10",
        ] {
            let shape: Shape = text.parse().unwrap();
            assert_eq!(shape.to_string(), text);
        }
        let green: Shape = "Green:E4".parse().unwrap();
        assert_eq!(green.to_string(), "e4");
    }

    #[test]
    fn bad_shapes_say_why() {
        let error = |text: &str| text.parse::<Shape>().unwrap_err().to_string();
        assert!(error("k4").starts_with("`k4` is not a shape: `k4` is not a cell"));
        assert!(error("pink:e4").contains("`pink` is not a colour"));
        assert!(error("e4-e4").contains("an arrow goes from a cell to another"));
        assert!(error("e4-").contains("a cell is missing"));
        let (index, message) = check_shapes(["e4", "red:e4"]).unwrap_err();
        assert_eq!(index, 1);
        assert!(message.contains("drawn twice"), "{message}");
    }
}
