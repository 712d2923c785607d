//! A YAML syntax error in the writer's words. The parser says what it could not do ("mapping
//! values are not allowed in this context") where it noticed, often a line after the mistake;
//! this looks at the lines as written for the mistakes people make in hand-written files (a tab
//! in an indent, a key indented unlike the keys beside it, a key without its colon or without a
//! space after it, a `: ` inside a value, a bracket or quote never closed) and says what is
//! wrong and where. Names no game: every game's YAML files can use it.

/// A mistake found in the text around a parser's complaint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxHint {
    /// The 1-based line of the mistake.
    pub line: usize,
    /// The 1-based column (in characters) of the mistake.
    pub column: usize,
    /// What is wrong and how to write it, in words.
    pub message: String,
}

/// The mistake behind the parser's complaint `parser` at `line` and `column` (1-based) of
/// `text`, when the lines show one; `None` leaves the parser's own words.
pub fn explain(text: &str, line: usize, column: usize, parser: &str) -> Option<SyntaxHint> {
    let lines: Vec<&str> = text.lines().collect();
    let index = line.checked_sub(1)?;
    let at = |line: usize, column: usize, message: String| {
        Some(SyntaxHint {
            line: line + 1,
            column,
            message,
        })
    };
    let parser = parser.to_ascii_lowercase();
    let first_content = lines.iter().position(|l| is_content(l));
    // A tab where an indent is: the line the parser stopped at has one; or the parser names
    // tabs, and the tab is there, on the next line (where a value it was reading goes on), or
    // before; or the parser found no document where the first line starts with one.
    let tab_line = match lines.get(index).and_then(|l| leading_tab(l)) {
        Some(column) => Some((index, column)),
        None if parser.contains("tab") => std::iter::once(index + 1)
            .chain((0..=index).rev())
            .filter(|&i| i < lines.len())
            .find_map(|i| leading_tab(lines[i]).map(|c| (i, c))),
        None if parser.contains("document start") => {
            first_content.and_then(|i| leading_tab(lines[i]).map(|c| (i, c)))
        }
        None => None,
    };
    if let Some((i, column)) = tab_line {
        return at(
            i,
            column,
            "tabs are not allowed for indentation in YAML; use spaces".to_string(),
        );
    }
    let state = Scan::until(&lines, index.min(lines.len()));
    // A quote opened on an earlier line and never closed: the parser stops where the text it
    // thinks is quoted goes wrong, or at the end of the file.
    if let Some((i, column, quote)) = state.quote
        && i < index.min(lines.len())
        && (parser.contains("quot") || parser.contains("end of") || index >= lines.len())
    {
        let inside = if quote == '"' { "\\\"" } else { "''" };
        return at(
            i,
            column,
            format!(
                "the quote {quote} here is never closed: end the text with {quote} (a {quote} inside it is written {inside})"
            ),
        );
    }
    let current = lines.get(index)?;
    // A bracket left open on an earlier line, and a key at its line's indent or less: the
    // list or map was never closed.
    if let Some(&(i, column, bracket)) = state.brackets.last()
        && i < index
        && key_colon(body(current)).is_some()
        && indent(current) <= indent(lines[i])
    {
        let (what, close) = if bracket == '[' {
            ("list", ']')
        } else {
            ("map", '}')
        };
        return at(
            i,
            column,
            format!(
                "this `{bracket}` is never closed: end the {what} with `{close}` before line {}",
                index + 1
            ),
        );
    }
    // A file whose first line is indented, and a later one less.
    if parser.contains("document start")
        && let Some(first) = first_content
        && indent(lines[first]) > 0
        && first < index
    {
        return at(
            first,
            1,
            format!(
                "the first line is indented {}, more than the lines after it: the keys of a file start at its left edge",
                spaces(indent(lines[first]))
            ),
        );
    }
    let previous = (0..index).rev().find(|&i| is_content(lines[i]));
    // The line above, `p`, is the odd one out when it starts a block (the line before it ends
    // with `:` or opens a block of text, `key: >`) and the lines from this one on agree on an
    // indent of their own: more than `p`'s, or less when `p` starts a block of text.
    let odd_previous = |p: usize| {
        let opener = (0..p).rev().find(|&i| is_content(lines[i]));
        let starts_block = opener.is_some_and(|i| {
            starts_text_block(lines[i])
                || (lines[i].trim_end().ends_with(':') && indent(current) > indent(lines[i]))
        });
        let next = (index + 1..lines.len()).find(|&i| is_content(lines[i]));
        (starts_block && next.is_some_and(|n| indent(lines[n]) == indent(current))).then(|| {
            format!(
                "this line is indented {}, the lines after it (from line {}) {}: the lines of one block are indented alike",
                spaces(indent(lines[p])),
                index + 1,
                spaces(indent(current))
            )
        })
    };
    if parser.contains("mapping values are not allowed") {
        let before: String = current.chars().take(column.saturating_sub(1)).collect();
        if let Some(colon) = key_colon(before.trim_start_matches(' ')) {
            // `title: a: b`: the second colon is in the value.
            let key_end = indent(current) + colon;
            let key = &current[indent(current)..key_end];
            let value = current[key_end + 1..].trim();
            let quoted = if value.contains('"') {
                format!("'{}'", value.replace('\'', "''"))
            } else {
                format!("\"{value}\"")
            };
            return at(
                index,
                column,
                format!(
                    "a value holding `: ` must be quoted, or YAML reads a key in it: write `{key}: {quoted}`"
                ),
            );
        }
        let p = previous?;
        if indent(current) > indent(lines[p]) && !lines[p].trim_end().ends_with(':') {
            if let Some(message) = odd_previous(p) {
                return at(p, indent(lines[p]) + 1, message);
            }
            return at(index, indent(current) + 1, indented_more(&lines, index, p));
        }
        if indent(current) == indent(lines[p])
            && key_colon(body(lines[p])).is_none()
            && !lines[p].trim_start().starts_with("- ")
        {
            // `rules classic` then `to_move: light`: YAML reads both lines as one key.
            return at(p, indent(lines[p]) + 1, no_colon(lines[p]));
        }
        return None;
    }
    if parser.contains("did not find expected key") || parser.contains("indentation") {
        let p = previous?;
        let own = indent(current);
        let is_item = |i: usize| lines[i].trim_start().starts_with("- ") || lines[i].trim() == "-";
        if current.trim_start().starts_with("- ")
            && let Some(q) = (0..index).rev().find(|&i| is_item(i))
            && indent(lines[q]) != own
        {
            // The item above is the odd one out when the one before it is indented like this.
            if let Some(r) = (0..q).rev().find(|&i| is_content(lines[i]))
                && is_item(r)
                && indent(lines[r]) == own
            {
                return at(
                    q,
                    indent(lines[q]) + 1,
                    format!(
                        "this item is indented {}, the items around it {}: indent the items of one list alike",
                        spaces(indent(lines[q])),
                        spaces(own)
                    ),
                );
            }
            return at(
                index,
                own + 1,
                format!(
                    "this item is indented {}, the item above it (line {}) {}: indent the items of one list alike",
                    spaces(own),
                    q + 1,
                    spaces(indent(lines[q]))
                ),
            );
        }
        if own != indent(lines[p])
            && let Some(message) = odd_previous(p)
        {
            return at(p, indent(lines[p]) + 1, message);
        }
        if own > indent(lines[p]) {
            return at(index, own + 1, indented_more(&lines, index, p));
        }
        if own < indent(lines[p]) {
            let outer = (0..p)
                .rev()
                .find(|&i| is_content(lines[i]) && indent(lines[i]) < own)?;
            return at(
                index,
                own + 1,
                format!(
                    "this line is indented {}, less than line {} above it ({}) but more than line {} ({}): a key is indented like the other keys of its mapping",
                    spaces(own),
                    p + 1,
                    spaces(indent(lines[p])),
                    outer + 1,
                    spaces(indent(lines[outer]))
                ),
            );
        }
        return None;
    }
    if parser.contains("expected '-' indicator") {
        let own = indent(current);
        let q = (0..index)
            .rev()
            .find(|&i| is_content(lines[i]) && indent(lines[i]) <= own)?;
        if indent(lines[q]) == own && lines[q].trim_start().starts_with('-') {
            return at(
                index,
                own + 1,
                format!(
                    "this line stands among the items of the list above it (line {}) but is no item: start it with `- `, or indent it like the keys of its own mapping",
                    q + 1
                ),
            );
        }
        return None;
    }
    if parser.contains("simple key expected ':'") {
        let start = indent(current);
        let text = body(current);
        let offset = current.len() - text.len();
        if let Some(colon) = text.find(':')
            && colon > 0
            && !text[..colon].contains(char::is_whitespace)
            && text[colon + 1..].starts_with(|c: char| !c.is_whitespace())
        {
            let column = current[..offset + colon].chars().count() + 1;
            return at(
                index,
                column,
                format!(
                    "a `:` after a key needs a space after it: write `{}: {}`",
                    &text[..colon],
                    text[colon + 1..].trim_end()
                ),
            );
        }
        if !text.contains(':') {
            return at(index, start + 1, no_colon(current));
        }
    }
    None
}

/// The message for a line indented more than a key above it that already has its value.
fn indented_more(lines: &[&str], index: usize, previous: usize) -> String {
    let key = key_colon(body(lines[previous]))
        .map(|colon| format!(" (`{}`)", &body(lines[previous])[..colon]))
        .unwrap_or_default();
    format!(
        "this line is indented more than the key above it{key} expects; indent keys of one mapping alike (line {} is indented {}, this one {})",
        previous + 1,
        spaces(indent(lines[previous])),
        spaces(indent(lines[index]))
    )
}

/// The message for a key written without its colon.
fn no_colon(line: &str) -> String {
    let text = body(line).trim_end();
    match text.split_once(char::is_whitespace) {
        Some((key, value)) => format!(
            "`{text}` has no `:` after its key: write `{key}: {}`",
            value.trim_start()
        ),
        None => format!("`{text}` has no `:` after it: write `{text}:` and its value"),
    }
}

/// `1 space`, `4 spaces`.
fn spaces(n: usize) -> String {
    if n == 1 {
        "1 space".to_string()
    } else {
        format!("{n} spaces")
    }
}

/// Whether a line holds more than spaces and a comment.
fn is_content(line: &str) -> bool {
    let text = line.trim();
    !text.is_empty() && !text.starts_with('#')
}

/// The spaces a line starts with.
fn indent(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// The line without its indent and list markers (`- - key: value` is `key: value`).
fn body(line: &str) -> &str {
    let mut text = line.trim_start();
    while let Some(rest) = text.strip_prefix("- ") {
        text = rest.trim_start();
    }
    text
}

/// The 1-based column of a tab among the spaces and tabs a line starts with.
fn leading_tab(line: &str) -> Option<usize> {
    for (i, c) in line.chars().enumerate() {
        match c {
            ' ' => {}
            '\t' => return Some(i + 1),
            _ => return None,
        }
    }
    None
}

/// Where the colon of `key: value` (or `key:` at the end) is in `text`, a line's body: the
/// first colon followed by a space or nothing, after a plain key.
fn key_colon(text: &str) -> Option<usize> {
    if text.starts_with(['[', '{', '"', '\'', '#', '|', '>']) {
        return None;
    }
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c == '#' && i > 0 && text[..i].ends_with(' ') {
            return None;
        }
        if c == ':' && chars.peek().is_none_or(|(_, next)| *next == ' ') {
            return (i > 0).then_some(i);
        }
    }
    None
}

/// The quotes and brackets open at the start of a line, from reading the lines before it.
struct Scan {
    /// The open brackets: 0-based line, 1-based column, the bracket.
    brackets: Vec<(usize, usize, char)>,
    /// The open quote, if any: 0-based line, 1-based column, the quote.
    quote: Option<(usize, usize, char)>,
}

impl Scan {
    /// The state at the start of line `end` (0-based), block scalars (`|`, `>`) skipped.
    fn until(lines: &[&str], end: usize) -> Scan {
        let mut scan = Scan {
            brackets: Vec::new(),
            quote: None,
        };
        let mut block: Option<usize> = None;
        for (index, line) in lines.iter().enumerate().take(end) {
            if let Some(outer) = block {
                if line.trim().is_empty() || indent(line) > outer {
                    continue;
                }
                block = None;
            }
            scan.line(index, line);
            if scan.quote.is_none() && scan.brackets.is_empty() && starts_text_block(line) {
                block = Some(indent(line));
            }
        }
        scan
    }

    fn line(&mut self, index: usize, line: &str) {
        let chars: Vec<char> = line.chars().collect();
        // The last character that was not a space, on this line: what a quote or bracket
        // follows decides whether it starts a value or is part of a word (`Light's`).
        let mut last: Option<char> = None;
        // Whether that character closed a list or map: a quote after one starts a value too
        // (`tags: [a, b]"` opens a quote the parser reads on).
        let mut closed = false;
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            match self.quote {
                Some((_, _, '"')) => {
                    if c == '\\' {
                        i += 1;
                    } else if c == '"' {
                        self.quote = None;
                        last = Some(c);
                    }
                }
                Some(_) => {
                    if c == '\'' {
                        if chars.get(i + 1) == Some(&'\'') {
                            i += 1;
                        } else {
                            self.quote = None;
                            last = Some(c);
                        }
                    }
                }
                None => {
                    let starts_value = closed || last.is_none_or(|l| ":-[{,?".contains(l));
                    let mut popped = false;
                    match c {
                        '#' if i == 0 || chars[i - 1].is_whitespace() => break,
                        '"' | '\'' if starts_value => self.quote = Some((index, i + 1, c)),
                        '[' | '{' if starts_value || !self.brackets.is_empty() => {
                            self.brackets.push((index, i + 1, c));
                        }
                        ']' | '}' if !self.brackets.is_empty() => {
                            self.brackets.pop();
                            popped = true;
                        }
                        _ => {}
                    }
                    if !c.is_whitespace() {
                        closed = popped;
                        last = Some(c);
                    }
                }
            }
            i += 1;
        }
    }
}

/// Whether a line's value is a block scalar (`key: |`, `- >-`): the lines indented under it
/// are text, whatever quotes or brackets they hold.
fn starts_text_block(line: &str) -> bool {
    let text = line.split(" #").next().unwrap_or("").trim_end();
    let value = match text.rfind(": ") {
        Some(colon) => &text[colon + 2..],
        None => text.trim_start().strip_prefix("- ").unwrap_or(""),
    };
    let value = value.trim();
    value.starts_with(['|', '>'])
        && value[1..]
            .chars()
            .all(|c| c == '+' || c == '-' || c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hint(text: &str, line: usize, column: usize, parser: &str) -> SyntaxHint {
        explain(text, line, column, parser)
            .unwrap_or_else(|| panic!("no hint for {parser} at {line}:{column} in\n{text}"))
    }

    #[test]
    fn a_tab_in_an_indent_is_named_where_it_is() {
        let text = "rules: classic\nlight:\n\tbuildings: []\n";
        let h = hint(
            text,
            3,
            2,
            "tabs disallowed within this context (block indentation)",
        );
        assert_eq!((h.line, h.column), (3, 1));
        assert_eq!(
            h.message,
            "tabs are not allowed for indentation in YAML; use spaces"
        );
        // After spaces, on an earlier line than the parser names.
        let text = "light:\n  territory:\n  \t- a1\n  - a2\n";
        let h = hint(
            text,
            4,
            3,
            "found a tab character that violates indentation",
        );
        assert_eq!((h.line, h.column), (3, 3));
        // On the line after: the parser was reading a value that a tab interrupts.
        let text = "legend:\n  B: dark bridge\n\t  A: dark castle\n";
        let h = hint(text, 2, 6, "while scanning a plain scalar, found a tab");
        assert_eq!((h.line, h.column), (3, 1));
    }

    #[test]
    fn a_key_indented_more_than_its_neighbours_is_named() {
        let text = "rules: classic\nto_move: light\n  dark:\n    territory: [a1]\n";
        let h = hint(text, 3, 7, "mapping values are not allowed in this context");
        assert_eq!((h.line, h.column), (3, 3));
        assert!(
            h.message.starts_with(
                "this line is indented more than the key above it (`to_move`) expects; indent keys of one mapping alike"
            ),
            "{}",
            h.message
        );
        let text = "light:\n  buildings: []\n   territory: [a5]\n";
        let h = hint(
            text,
            3,
            4,
            "while parsing a block mapping, did not find expected key",
        );
        assert_eq!((h.line, h.column), (3, 4));
        assert!(h.message.contains("indented more"), "{}", h.message);
    }

    #[test]
    fn a_key_indented_less_than_its_neighbours_is_named() {
        let text = "light:\n  buildings:\n    - stable: [a1, a2]\n   territory: [a5]\n";
        let h = hint(
            text,
            4,
            4,
            "while parsing a block mapping, did not find expected key",
        );
        assert_eq!((h.line, h.column), (4, 4));
        assert!(
            h.message
                .starts_with("this line is indented 3 spaces, less than line 3 above it (4 spaces) but more than line 2 (2 spaces)"),
            "{}",
            h.message
        );
        let text = "light:\n  buildings:\n    - stable: [a1, a2]\n  - tavern: [a5]\n";
        let h = hint(
            text,
            4,
            5,
            "while parsing a block mapping, did not find expected key",
        );
        assert_eq!(
            h.message,
            "this item is indented 2 spaces, the item above it (line 3) 4 spaces: indent the items of one list alike"
        );
        // One item out of line among others: it is the one named.
        let text = "light:\n  buildings:\n  - inn: [a1, a2, b2]\n   - tavern: [b2]\n  - stable: [c1, c2]\n";
        let h = hint(
            text,
            5,
            3,
            "while parsing a block mapping, did not find expected key",
        );
        assert_eq!((h.line, h.column), (4, 4));
        assert_eq!(
            h.message,
            "this item is indented 3 spaces, the items around it 2 spaces: indent the items of one list alike"
        );
        // The first key of a mapping indented deeper than the keys after it.
        let text = "light:\n   first_move_made: true\n  hand: {}\n  territory: []\n";
        let h = hint(
            text,
            3,
            3,
            "while parsing a block mapping, did not find expected key",
        );
        assert_eq!((h.line, h.column), (2, 4));
    }

    #[test]
    fn a_missing_colon_is_named_on_its_own_line() {
        // The parser notices a line later: both lines read as one key.
        let text = "rules classic\nto_move: light\n";
        let h = hint(text, 2, 8, "mapping values are not allowed in this context");
        assert_eq!((h.line, h.column), (1, 1));
        assert_eq!(
            h.message,
            "`rules classic` has no `:` after its key: write `rules: classic`"
        );
        let text = "light:\n  buildings []\n  territory: [a5]\n";
        let h = hint(
            text,
            3,
            12,
            "mapping values are not allowed in this context",
        );
        assert_eq!((h.line, h.column), (2, 3));
        assert!(h.message.contains("write `buildings: []`"), "{}", h.message);
        let text = "rules: classic\nto_move light\n";
        let h = hint(text, 2, 1, "simple key expected ':'");
        assert_eq!((h.line, h.column), (2, 1));
        assert!(
            h.message.contains("write `to_move: light`"),
            "{}",
            h.message
        );
        let text = "title: x\nto_move:light\n";
        let h = hint(text, 2, 1, "simple key expected ':'");
        assert_eq!((h.line, h.column), (2, 8));
        assert_eq!(
            h.message,
            "a `:` after a key needs a space after it: write `to_move: light`"
        );
    }

    #[test]
    fn the_odd_line_out_is_named() {
        // The first key of a mapping indented unlike the keys after it.
        let text = "light:\n  hand:\n     tavern: 2\n      stable: 1\n      inn: 1\n";
        let h = hint(
            text,
            4,
            13,
            "mapping values are not allowed in this context",
        );
        assert_eq!((h.line, h.column), (3, 6));
        assert_eq!(
            h.message,
            "this line is indented 5 spaces, the lines after it (from line 4) 6 spaces: the lines of one block are indented alike"
        );
        // The first line of a block of text.
        let text = "description: >\n   The board form: one label\n  per building.\n  More.\nrules: classic\n";
        let h = hint(
            text,
            3,
            3,
            "while parsing a block mapping, did not find expected key",
        );
        assert_eq!((h.line, h.column), (2, 4));
        // A file's first line indented, or started with a tab.
        let text = " title: x\nrules: classic\n";
        let h = hint(text, 2, 1, "did not find expected <document start>");
        assert_eq!((h.line, h.column), (1, 1));
        assert!(h.message.starts_with("the first line is indented 1 space"));
        let text = "\ttitle: x\nrules: classic\n";
        let h = hint(text, 2, 1, "did not find expected <document start>");
        assert_eq!((h.line, h.column), (1, 1));
        assert!(h.message.starts_with("tabs are not allowed"));
    }

    #[test]
    fn a_colon_in_a_value_asks_for_quotes() {
        let h = hint(
            "title: a: b\n",
            1,
            9,
            "mapping values are not allowed in this context",
        );
        assert_eq!((h.line, h.column), (1, 9));
        assert!(
            h.message.ends_with("write `title: \"a: b\"`"),
            "{}",
            h.message
        );
    }

    #[test]
    fn brackets_and_quotes_left_open_are_named_where_they_open() {
        let text = "rules: classic\ncathedral: [e4, e5\nto_move: light\n";
        let h = hint(text, 3, 8, "illegal placement of ':' indicator");
        assert_eq!((h.line, h.column), (2, 12));
        assert_eq!(
            h.message,
            "this `[` is never closed: end the list with `]` before line 3"
        );
        let text = "title: \"abc\nrules: classic\n";
        let h = hint(text, 2, 1, "invalid indentation in multiline quoted scalar");
        assert_eq!((h.line, h.column), (1, 8));
        assert!(h.message.starts_with("the quote \" here is never closed"));
        // A quote after a list starts a value too; after a word it is part of it.
        let text = "tags: [a, b]\"\nrules: classic\n";
        let h = hint(text, 2, 1, "invalid indentation in multiline quoted scalar");
        assert_eq!((h.line, h.column), (1, 13));
        assert_eq!(
            explain(
                "title: a]\"\nrules classic\nx: y\n",
                3,
                2,
                "invalid indentation in multiline quoted scalar"
            ),
            None
        );
        // Quotes inside words, closed quotes and block text are no open quote.
        let text = "title: Light's turn\nsource: 'a ''b'''\ndescription: |\n  \"[it's\nrules classic\nto_move: light\n";
        let h = hint(text, 6, 8, "mapping values are not allowed in this context");
        assert_eq!((h.line, h.column), (5, 1));
        // A list over several lines is fine while its items stay inside it.
        let text = "cathedral: [e4, e5,\n  d6: x]\n";
        assert_eq!(explain(text, 2, 5, "something else"), None);
    }

    #[test]
    fn other_complaints_keep_the_parsers_words() {
        assert_eq!(explain("a: b\n", 1, 1, "unknown problem"), None);
        assert_eq!(explain("", 3, 1, "mapping values are not allowed"), None);
        assert_eq!(
            explain("a: b\n", 0, 1, "mapping values are not allowed"),
            None
        );
        // Never a panic, whatever the place: past the end, in the middle of a character.
        for parser in [
            "mapping values are not allowed in this context",
            "did not find expected key",
            "simple key expected ':'",
            "tabs disallowed",
            "invalid indentation in multiline quoted scalar",
            "did not find expected '-' indicator",
        ] {
            for text in [
                "é: \"x\n  é y\n\t",
                "- a\nb: c\n",
                ":\n :\n",
                "\"",
                "[\n{\n",
            ] {
                for line in 0..5 {
                    for column in 0..8 {
                        let _ = explain(text, line, column, parser);
                    }
                }
            }
        }
    }
}
