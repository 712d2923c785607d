//! Text wrapped between words to a width, for a terminal: the one place that decides where a
//! line of words may break. A front end asks it only for a terminal of known width; text for a
//! pipe or a file is never wrapped, so that scripts keep one line per item.
//!
//! Words are never cut: a move like `castle:c3,c4,d3,e3,e4`, a cell list or a preset name like
//! `lehmann-woods` longer than the room left on a line goes whole onto the next one.

use textwrap::core::display_width;
use textwrap::{Options, WordSplitter};

/// Terminals narrower than this are left to cut lines themselves: a hanging indent and a few
/// words a line would read worse than the terminal's own cut.
pub const MIN_WIDTH: usize = 20;

/// Whether `line` is drawn (a board's row, a table's): box-drawing characters anywhere, or
/// ASCII lines (`+---+`, `| a | b |`, a board row `10 | In |`) after any row number. Such lines
/// are never wrapped: breaking one at a space would take the drawing apart.
fn is_drawn(line: &str) -> bool {
    if line.chars().any(|c| ('\u{2500}'..='\u{257f}').contains(&c)) {
        return true;
    }
    // The line's characters without its colour escapes, wherever they are.
    let mut plain = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find('\u{1b}') {
        plain.push_str(&rest[..at]);
        rest = skip_escapes(&rest[at..]);
        if rest.starts_with('\u{1b}') {
            // Not a colour escape: keep it, and go on after it.
            plain.push('\u{1b}');
            rest = &rest[1..];
        }
    }
    plain.push_str(rest);
    plain
        .trim_start_matches(|c: char| c == ' ' || c.is_ascii_digit())
        .starts_with(['+', '|'])
}

/// `text` without the colour escapes (`ESC [ ... m`) it starts with.
fn skip_escapes(mut text: &str) -> &str {
    while let Some(rest) = text.strip_prefix("\u{1b}[") {
        match rest.find(|c: char| ('@'..='~').contains(&c)) {
            Some(end) => text = &rest[end + 1..],
            None => break,
        }
    }
    text
}

fn options<'a>(width: usize, first: &'a str, rest: &'a str) -> Options<'a> {
    Options::new(width)
        .break_words(false)
        // `lehmann-woods`, `proof-number`, `--all`: a hyphen is no place to break.
        .word_splitter(WordSplitter::NoHyphenation)
        .initial_indent(first)
        .subsequent_indent(rest)
}

/// `text` (one paragraph) wrapped between words to `width` columns, the first line starting
/// with `first` and every later one with `rest`. With `width` too small to hold the indent and
/// some words (see [`MIN_WIDTH`]), `first` and `text` on one line.
///
/// ```
/// use cathedral::present::wrap::paragraph;
/// assert_eq!(
///     paragraph("claims 4 squares (a1,a2,b1,b2), walled in", "- ", "  ", 24),
///     "- claims 4 squares\n  (a1,a2,b1,b2), walled\n  in"
/// );
/// ```
pub fn paragraph(text: &str, first: &str, rest: &str, width: usize) -> String {
    if width < display_width(first).max(display_width(rest)) + MIN_WIDTH {
        return format!("{first}{text}");
    }
    textwrap::fill(text, options(width, first, rest))
}

/// How a line starts: the colour escapes, indent and list marker (`3. `, `- `, `* `) before
/// its words, and the indent its continuation lines get: under the words after the marker, or
/// two columns in when there is none (a hanging indent, so that a continued line is told from
/// the next one).
fn lead(line: &str) -> (&str, String) {
    let mut indent = 0;
    let mut body = line;
    loop {
        let after = skip_escapes(body);
        let words = after.trim_start_matches(' ');
        indent += after.len() - words.len();
        if words.len() == body.len() {
            break;
        }
        body = words;
    }
    let digits = body.bytes().take_while(u8::is_ascii_digit).count();
    let marker = if digits > 0 && body[digits..].starts_with(". ") {
        digits + 2
    } else if body.starts_with("- ") || body.starts_with("* ") {
        2
    } else {
        0
    };
    let first = &line[..line.len() - body.len() + marker];
    let hang = if marker > 0 { marker } else { 2 };
    (first, " ".repeat(indent + hang))
}

/// Every line of `text` longer than `width` columns wrapped between words, with its indent and
/// list marker kept and a hanging indent after (see `lead`); lines that fit, drawn lines (a
/// board, a table) and lines with nowhere to break are left as they are. Colour escapes take no
/// room. Lines are only ever split, never joined, so text already wrapped is unchanged.
///
/// ```
/// use cathedral::present::wrap::lines;
/// let text = "Light to move\nLight: 23 squares unplaced, territory 2 squares, 6 buildings placed\n";
/// assert_eq!(
///     lines(text, 40),
///     "Light to move\nLight: 23 squares unplaced, territory 2\n  squares, 6 buildings placed\n"
/// );
/// ```
pub fn lines(text: &str, width: usize) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        if display_width(line) <= width || is_drawn(line) {
            out.push_str(line);
            continue;
        }
        let (first, rest) = lead(line);
        out.push_str(&paragraph(&line[first.len()..], first, &rest, width));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The line `play` prints for the capture of a lone building.
    const CLAIM: &str = "  claims 4 squares (a1,a2,b1,b2), walled in by Dark Stable (a3,b3), Dark Bridge (c1,c2,c3) and the south and west edges; captures Light Tavern (a1): it stood alone in the region, so it is removed and returns to Light's hand";

    /// Every word of `text`, in order.
    fn words(text: &str) -> Vec<&str> {
        text.split_whitespace().collect()
    }

    #[test]
    fn lines_break_between_words_within_the_width() {
        for width in [24, 33, 40, 57, 80, 100] {
            let wrapped = lines(CLAIM, width);
            for line in wrapped.lines() {
                assert!(
                    display_width(line) <= width,
                    "{} columns at width {width}: `{line}`",
                    display_width(line)
                );
                assert!(line.starts_with("  "), "lost the indent: `{line}`");
            }
            // Nothing cut, nothing lost, nothing added: the same words in the same order.
            assert_eq!(words(&wrapped), words(CLAIM), "width {width}");
            if width < CLAIM.len() {
                assert!(wrapped.lines().count() > 1, "not wrapped at {width}");
                // Continuation lines hang two columns further in.
                assert!(
                    wrapped
                        .lines()
                        .skip(1)
                        .all(|l| l.starts_with("    ") && !l.starts_with("     ")),
                    "{wrapped}"
                );
            }
        }
    }

    #[test]
    fn words_longer_than_a_line_are_never_cut() {
        let text = "1. Dark places castle:c3,c4,d3,e3,e4,f4 after lehmann-woods";
        assert_eq!(
            lines(text, 24),
            "1. Dark places\n   castle:c3,c4,d3,e3,e4,f4\n   after lehmann-woods"
        );
        // Not at a hyphen either, though `lehmann-` would fit.
        assert_eq!(
            lines("Rules: preset lehmann-woods", 22),
            "Rules: preset\n  lehmann-woods"
        );
    }

    #[test]
    fn lines_that_fit_drawings_and_newlines_are_kept() {
        let board = "   +---+---+\n10 | In    | x y z\n   | Sq  |   |\n     a   b   c\n";
        assert_eq!(lines(board, 12), board);
        let coloured = "\u{1b}[0m 9 \u{1b}[1m| In  |   |   |   |   |   |   |   |";
        assert_eq!(lines(coloured, 24), coloured);
        let table = "│ manor   ┆    18 ┆ manor:h2,i1,i2,j2  manor:g3,h2,h3,i3 │";
        assert_eq!(lines(table, 30), table);
        assert_eq!(lines("a b\n\nc d\n", 80), "a b\n\nc d\n");
        assert_eq!(lines("", 80), "");
        // Wrapping twice changes nothing more.
        let once = lines(CLAIM, 50);
        assert_eq!(lines(&once, 50), once);
    }

    #[test]
    fn colour_escapes_take_no_room() {
        let red = "\u{1b}[41mLight\u{1b}[0m";
        let text = format!("{red}: 23 squares unplaced");
        assert_eq!(lines(&text, 28), text);
        assert_eq!(lines(&text, 22), format!("{red}: 23 squares\n  unplaced"));
    }

    #[test]
    fn an_indent_after_a_colour_escape_is_kept() {
        // `play --color always`: the claim's line is green from before its indent.
        let green = format!("\u{1b}[32m{CLAIM}\u{1b}[0m");
        let wrapped = lines(&green, 60);
        assert!(
            wrapped.starts_with("\u{1b}[32m  claims 4 squares"),
            "{wrapped}"
        );
        assert!(wrapped.lines().count() > 2, "{wrapped}");
        for line in wrapped.lines().skip(1) {
            assert!(
                line.starts_with("    ") && !line.starts_with("     "),
                "{wrapped}"
            );
            assert!(display_width(line) <= 60, "{wrapped}");
        }
    }

    #[test]
    fn narrow_widths_leave_the_line_alone() {
        assert_eq!(lines(CLAIM, MIN_WIDTH - 1), CLAIM);
        assert_eq!(paragraph("a b c", "> ", "  ", 5), "> a b c");
    }

    #[test]
    fn markers_set_the_hanging_indent() {
        assert_eq!(
            lines("12. one two three four five six", 24),
            "12. one two three four\n    five six"
        );
        assert_eq!(
            lines("  - one two three four five six", 26),
            "  - one two three four\n    five six"
        );
    }
}
