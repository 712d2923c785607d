//! The YAML layer: the text as a tree of values, each with the line and column it was written
//! at, and every complaint of the YAML parser put in the file format's words. Nothing of the
//! parser's own wording (nor of serde's, nor of Rust's types) reaches a user: the schema is read
//! from this tree by hand (`schema.rs`), so that each message can say what was expected there.

use super::located::{Errors, Place};
use crate::files::FileError;
use crate::files::{explain_yaml_syntax, size_words};
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_saphyr::budget::BudgetBreach;
use serde_saphyr::{Budget, DuplicateKeyPolicy, Location, NonFiniteFloatPolicy, Spanned};
use std::collections::HashMap;
use std::fmt;

/// The deepest nesting a position file may use (it needs five levels at most).
const MAX_DEPTH: usize = 16;
/// The most values (scalars, lists and maps) a position file may hold.
const MAX_NODES: usize = 100_000;
/// The longest word (a cell, a piece name, a move, a key), in characters: longer ones are
/// refused before they are quoted whole in a message.
const MAX_WORD: usize = 100;

/// Line and column of a parser location, when it knew them.
fn place_of(location: &Location) -> Place {
    let line = location.line() as usize;
    let column = location.column() as usize;
    if line == 0 {
        (None, None)
    } else {
        (Some(line), (column > 0).then_some(column))
    }
}

/// A value as written.
#[derive(Debug)]
pub(super) enum Value {
    /// `~`, `null` or nothing.
    Null,
    Bool(bool),
    Int(i128),
    /// A number that is not whole (or too large for one).
    Float,
    /// Text: its words are the node's `raw`.
    Str,
    Seq(Vec<Node>),
    /// Entries in the order written; keys may repeat (the reader refuses that).
    Map(Vec<(Node, Node)>),
}

/// A value with where it was written.
#[derive(Debug)]
pub(super) struct Node {
    pub value: Value,
    pub place: Place,
    /// A scalar as written (`y`, `0x10`, `1e999`; a quoted string's text), for messages and for
    /// words YAML would read as something else: the legend label `y` is not `true`.
    pub raw: String,
}

impl Node {
    /// The value as a word or text, when it is a scalar (not a list, a map or nothing).
    pub fn scalar(&self) -> Option<&str> {
        match self.value {
            Value::Seq(_) | Value::Map(_) | Value::Null => None,
            _ => Some(&self.raw),
        }
    }

    /// What was found, for messages: "a list", "a map", "nothing" or the value in backticks
    /// (shortened when long).
    pub fn found(&self) -> String {
        match self.value {
            Value::Seq(_) => "a list".to_string(),
            Value::Map(_) => "a map".to_string(),
            Value::Null => "nothing".to_string(),
            _ => format!("`{}`", shorten(&self.raw)),
        }
    }
}

/// `text`, or its start and an ellipsis when it is long or runs over lines.
fn shorten(text: &str) -> String {
    const LIMIT: usize = 40;
    let first_line = text.lines().next().unwrap_or("");
    if first_line.chars().count() <= LIMIT && first_line.len() == text.trim_end().len() {
        return first_line.to_string();
    }
    let cut: String = first_line.chars().take(LIMIT).collect();
    format!("{cut}…")
}

/// The tree as the parser gives it, before raw scalars are recovered from the text.
enum Tree {
    Null,
    Bool(bool),
    Int(i128),
    Float(f64),
    Str(String),
    Seq(Vec<Spanned<Tree>>),
    Map(Vec<(Spanned<Tree>, Spanned<Tree>)>),
}

impl<'de> Deserialize<'de> for Tree {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Tree, D::Error> {
        deserializer.deserialize_any(TreeVisitor)
    }
}

struct TreeVisitor;

impl<'de> Visitor<'de> for TreeVisitor {
    type Value = Tree;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a YAML value")
    }
    fn visit_unit<E>(self) -> Result<Tree, E> {
        Ok(Tree::Null)
    }
    fn visit_none<E>(self) -> Result<Tree, E> {
        Ok(Tree::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Tree, D::Error> {
        Tree::deserialize(deserializer)
    }
    fn visit_bool<E>(self, v: bool) -> Result<Tree, E> {
        Ok(Tree::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Tree, E> {
        Ok(Tree::Int(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Tree, E> {
        Ok(Tree::Int(v.into()))
    }
    fn visit_i128<E>(self, v: i128) -> Result<Tree, E> {
        Ok(Tree::Int(v))
    }
    fn visit_u128<E>(self, v: u128) -> Result<Tree, E> {
        Ok(i128::try_from(v).map_or(Tree::Float(v as f64), Tree::Int))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Tree, E> {
        Ok(Tree::Float(v))
    }
    fn visit_char<E>(self, v: char) -> Result<Tree, E> {
        Ok(Tree::Str(v.to_string()))
    }
    fn visit_str<E>(self, v: &str) -> Result<Tree, E> {
        Ok(Tree::Str(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Tree, E> {
        Ok(Tree::Str(v))
    }
    fn visit_bytes<E>(self, v: &[u8]) -> Result<Tree, E> {
        Ok(Tree::Str(String::from_utf8_lossy(v).into_owned()))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Tree, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Spanned<Tree>>()? {
            items.push(item);
        }
        Ok(Tree::Seq(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Tree, A::Error> {
        let mut entries = Vec::new();
        while let Some(key) = map.next_key::<Spanned<Tree>>()? {
            let value = map.next_value::<Spanned<Tree>>()?;
            entries.push((key, value));
        }
        Ok(Tree::Map(entries))
    }
}

fn node_of(text: &str, spanned: Spanned<Tree>) -> Node {
    let location = spanned.referenced;
    let place = place_of(&location);
    // A scalar as written: its bytes in the text (plain scalars have no escapes).
    let written = || {
        let span = location.span();
        let start = span.byte_offset()? as usize;
        let len = span.byte_len()? as usize;
        text.get(start..start.checked_add(len)?).map(str::to_string)
    };
    let (value, raw) = match spanned.value {
        Tree::Null => (Value::Null, written().unwrap_or_default()),
        Tree::Bool(v) => (Value::Bool(v), written().unwrap_or_else(|| v.to_string())),
        Tree::Int(v) => (Value::Int(v), written().unwrap_or_else(|| v.to_string())),
        Tree::Float(v) => (Value::Float, written().unwrap_or_else(|| v.to_string())),
        // `.nan` and `.inf` come as canonical words: `1e999` is shown as written.
        Tree::Str(v) if [".nan", ".inf", "-.inf"].contains(&v.as_str()) => {
            let raw = written()
                .filter(|w| !w.starts_with(['"', '\'']))
                .unwrap_or(v);
            (Value::Str, raw)
        }
        Tree::Str(v) => (Value::Str, v),
        Tree::Seq(items) => (
            Value::Seq(items.into_iter().map(|i| node_of(text, i)).collect()),
            String::new(),
        ),
        Tree::Map(entries) => (
            Value::Map(
                entries
                    .into_iter()
                    .map(|(k, v)| (node_of(text, k), node_of(text, v)))
                    .collect(),
            ),
            String::new(),
        ),
    };
    Node { value, place, raw }
}

/// Parses `text` as one YAML document (a position file: at most [`MAX_DEPTH`] levels deep).
pub(super) fn parse(errors: &Errors, text: &str, max_bytes: usize) -> Result<Node, FileError> {
    parse_nested(
        errors,
        text,
        max_bytes,
        MAX_DEPTH,
        "a position file needs 5",
    )
}

/// Parses `text` as one YAML document of at most `max_depth` levels; `needs` says how deep the
/// format goes, for the message when a document goes deeper.
pub(super) fn parse_nested(
    errors: &Errors,
    text: &str,
    max_bytes: usize,
    max_depth: usize,
    needs: &str,
) -> Result<Node, FileError> {
    let mut options = serde_saphyr::Options::default();
    // Repeated keys reach the reader, which names them.
    options.duplicate_keys = DuplicateKeyPolicy::PassThrough;
    // `.nan` and `.inf` reach the reader as words, which says where they do not belong.
    options.non_finite_float_policy = NonFiniteFloatPolicy::AsString;
    let mut budget = Budget::default();
    budget.max_depth = max_depth;
    budget.max_nodes = MAX_NODES;
    budget.max_total_scalar_bytes = max_bytes;
    options.budget = Some(budget);
    let tree: Spanned<Tree> = serde_saphyr::from_str_with_options(text, options)
        .map_err(|e| yaml_error(errors, text, &e, max_bytes, max_depth, needs))?;
    Ok(node_of(text, tree))
}

/// A complaint of the YAML parser, in the file format's words; a syntax error at the line of the
/// mistake when the lines of `text` (the text parsed) show it.
fn yaml_error(
    errors: &Errors,
    text: &str,
    error: &serde_saphyr::Error,
    max_bytes: usize,
    max_depth: usize,
    needs: &str,
) -> FileError {
    use serde_saphyr::Error as E;
    let place = error
        .location()
        .map(|l| place_of(&l))
        .unwrap_or((None, None));
    let mut inner = error.without_snippet();
    while let E::AliasError { error, .. } = inner {
        inner = error.without_snippet();
    }
    let syntax = |what: &str| format!("not valid YAML: {what} (see docs/file-format.md)");
    // What the parser could not do, said as what is wrong in the lines as written (a tab in an
    // indent, a key indented unlike its neighbours, a missing colon), where the mistake is.
    let parser_said = match inner {
        E::ExternalMessage { msg, .. } => Some(msg.as_str()),
        E::IndentationError { .. } => Some("indentation"),
        E::Eof { .. } => Some("end of the stream"),
        _ => None,
    };
    if let (Some(said), (Some(line), column)) = (parser_said, place)
        && let Some(hint) = explain_yaml_syntax(text, line, column.unwrap_or(1), said)
    {
        return errors.at((Some(hint.line), Some(hint.column)), hint.message);
    }
    let message = match inner {
        E::MultipleDocuments { .. } => {
            "this file holds several YAML documents (`---` starts a new one): one position per file"
                .to_string()
        }
        E::DuplicateMappingKey { key: Some(key), .. } => {
            format!("the key `{}` appears twice", shorten(key))
        }
        E::DuplicateMappingKey { key: None, .. } => "this key appears twice".to_string(),
        E::Budget { breach, .. } => match breach {
            BudgetBreach::Depth { .. } => format!(
                "the values here are nested too deeply (more than {max_depth} levels; {needs})"
            ),
            BudgetBreach::Nodes { .. } | BudgetBreach::Events { .. } => format!(
                "the file holds too many values (more than {MAX_NODES}; a position file holds a few hundred)"
            ),
            BudgetBreach::ScalarBytes { .. } => format!(
                "the text here is too long: a position file holds at most {} of text, aliases (`*name`) counted each time",
                size_words(max_bytes)
            ),
            BudgetBreach::Documents { .. } => {
                "this file holds several YAML documents (`---` starts a new one): one position per file"
                    .to_string()
            }
            _ => "the file uses more aliases (`*name`) or anchors (`&name`) than a position file may"
                .to_string(),
        },
        E::Eof { .. } => syntax("the file ends in the middle of a value"),
        E::UnknownAnchor { .. } => {
            let alias = place
                .0
                .and_then(|line| errors.text.lines().nth(line - 1))
                .and_then(|line| {
                    let from: usize = line
                        .chars()
                        .take(place.1.unwrap_or(1).saturating_sub(1))
                        .map(char::len_utf8)
                        .sum();
                    let rest = line.get(from..)?.strip_prefix('*')?;
                    let name: String = rest
                        .chars()
                        .take_while(|c| !c.is_whitespace() && !",[]{}".contains(*c))
                        .collect();
                    Some(format!("`*{}`", shorten(&name)))
                })
                .unwrap_or_else(|| "this alias".to_string());
            format!("{alias} refers to no anchor (`&name`) defined before it")
        }
        E::AliasReplayCounterOverflow { .. }
        | E::AliasReplayLimitExceeded { .. }
        | E::AliasExpansionLimitExceeded { .. }
        | E::AliasReplayStackDepthExceeded { .. }
        | E::RecursiveReferencesRequireWeakTypes { .. } => {
            "the file uses more aliases (`*name`) than a position file may".to_string()
        }
        E::InvalidScalar { .. }
        | E::TaggedScalarCannotDeserializeIntoString { .. }
        | E::InvalidBinaryBase64 { .. }
        | E::BinaryNotUtf8 { .. } => {
            "this value does not fit its YAML tag (`!!...`); position files need no tags".to_string()
        }
        E::UnsupportedTag { tag, .. } => format!(
            "the YAML tag `{}` is not used in position files",
            shorten(tag)
        ),
        E::MergeValueNotMapOrSeqOfMaps { .. } | E::MergeKeyNotAllowed { .. } => {
            syntax("a merge (`<<:`) needs a map")
        }
        E::FoldedBlockScalarMustIndentContent { .. } => {
            syntax("the lines of a block of text (`>` or `|`) must be indented")
        }
        E::IndentationError { .. } => syntax("wrong indentation"),
        E::InvalidUtf8Input => "the file is not UTF-8 text".to_string(),
        E::ExternalMessage { msg, .. } => syntax(&parser_words(msg)),
        _ => syntax("this is not YAML a position file can hold"),
    };
    errors.at(place, message)
}

/// The YAML parser's own message, without a location of its own (ours is given) or hints at
/// its programming interface.
fn parser_words(message: &str) -> String {
    let mut message = message.lines().next().unwrap_or("").trim().to_string();
    if let Some(rest) = message.strip_prefix("line ")
        && rest.split_whitespace().nth(1) == Some("column")
        && let Some((_, after)) = rest.split_once(": ")
    {
        message = after.to_string();
    }
    if let Some((before, _)) = message.split_once("; use ") {
        message = before.to_string();
    }
    if message.is_empty() {
        "the text cannot be read as YAML".to_string()
    } else {
        shorten_message(&message)
    }
}

fn shorten_message(message: &str) -> String {
    const LIMIT: usize = 160;
    if message.chars().count() <= LIMIT {
        return message.to_string();
    }
    let cut: String = message.chars().take(LIMIT).collect();
    format!("{cut}…")
}

// ---------------------------------------------------------------------------------------------
// Reading the tree: each helper names the field (`light.hand`) and what it expected.

/// `what: message`, or just the message at the top level.
pub(super) fn in_field(what: &str, message: impl fmt::Display) -> String {
    if what.is_empty() {
        message.to_string()
    } else {
        format!("{what}: {message}")
    }
}

/// `light` + `hand` = `light.hand`.
pub(super) fn field_path(parent: &str, key: &str) -> String {
    if parent.is_empty() {
        key.to_string()
    } else {
        format!("{parent}.{key}")
    }
}

/// "what: FOUND is not NOUN: expected EXPECTED", at the node.
pub(super) fn not_a(
    errors: &Errors,
    node: &Node,
    what: &str,
    noun: &str,
    expected: &str,
) -> FileError {
    let mut message = format!("{} is not {noun}", node.found());
    if !expected.is_empty() {
        message.push_str(": expected ");
        message.push_str(expected);
    }
    errors.at(node.place, in_field(what, message))
}

/// The entries of a map whose keys are words, each key once. Nothing (`~`) is an empty map.
pub(super) fn entries<'a>(
    errors: &Errors,
    node: &'a Node,
    what: &str,
    noun: &str,
    expected: &str,
) -> Result<Vec<(&'a Node, &'a str, &'a Node)>, FileError> {
    let list = match &node.value {
        Value::Map(list) => list,
        Value::Null => return Ok(Vec::new()),
        _ => return Err(not_a(errors, node, what, noun, expected)),
    };
    let mut out: Vec<(&Node, &str, &Node)> = Vec::with_capacity(list.len());
    let mut seen: HashMap<&str, &Node> = HashMap::with_capacity(list.len());
    for (key, value) in list {
        let word = match key.scalar() {
            Some(word) if word.chars().count() <= MAX_WORD => word,
            _ => {
                return Err(errors.at(
                    key.place,
                    in_field(
                        what,
                        format!("{} is not a key: expected a word", key.found()),
                    ),
                ));
            }
        };
        if let Some(first) = seen.insert(word, key) {
            let first_line = first
                .place
                .0
                .map(|line| format!(" (first on line {line})"))
                .unwrap_or_default();
            return Err(errors.at(
                key.place,
                in_field(
                    what,
                    format!("the key `{}` appears twice{first_line}", shorten(word)),
                ),
            ));
        }
        out.push((key, word, value));
    }
    Ok(out)
}

/// What a map of fields is expected to hold, for reading one ([`Fields::read`]) and for the
/// errors that name it: `noun` says what the map is ("a player's part"), `field_noun` what a
/// field of it is ("a field of a player's part", "a rule option"), `known` the fields it may
/// have and `expected` what it holds, for a value that is no map.
#[derive(Clone, Copy)]
pub(super) struct MapShape<'k> {
    pub noun: &'k str,
    pub field_noun: &'k str,
    pub known: &'k [&'k str],
    pub expected: &'k str,
}

/// A map with a fixed set of fields: `known` names them.
pub(super) struct Fields<'a> {
    entries: Vec<(&'a Node, &'a str, &'a Node)>,
}

impl<'a> Fields<'a> {
    /// Reads `node`, the value of `what`, as a map of the fields `shape` knows; a value that is
    /// no map, or a key that is none of them, is an error in `shape`'s words.
    pub fn read(
        errors: &Errors,
        node: &'a Node,
        what: &str,
        shape: &MapShape<'_>,
    ) -> Result<Fields<'a>, FileError> {
        let MapShape {
            noun,
            field_noun,
            known,
            expected,
        } = *shape;
        let not_a_field = |key: &Node, word: Option<&str>| {
            let (shown, hint) = match word {
                Some(word) => (
                    format!("`{}`", shorten(word)),
                    closest(word, known)
                        .map(|k| format!(" (did you mean `{k}`?)"))
                        .unwrap_or_default(),
                ),
                None => (key.found(), String::new()),
            };
            errors.at(
                key.place,
                in_field(
                    what,
                    format!(
                        "{shown} is not {field_noun}{hint}: expected {}",
                        one_of(known)
                    ),
                ),
            )
        };
        if let Value::Map(list) = &node.value
            && let Some((key, _)) = list.iter().find(|(key, _)| key.scalar().is_none())
        {
            return Err(not_a_field(key, None));
        }
        let entries = entries(errors, node, what, noun, expected)?;
        if let Some((key, word, _)) = entries.iter().find(|(_, word, _)| !known.contains(word)) {
            return Err(not_a_field(key, Some(word)));
        }
        Ok(Fields { entries })
    }

    /// The value of field `name`, unless absent.
    pub fn get(&self, name: &str) -> Option<&'a Node> {
        self.entries
            .iter()
            .find(|(_, key, _)| *key == name)
            .map(|(_, _, value)| *value)
    }

    /// Where the key of field `name` was written, unless absent.
    pub fn key_place(&self, name: &str) -> Option<super::located::Place> {
        self.entries
            .iter()
            .find(|(_, key, _)| *key == name)
            .map(|(key, _, _)| key.place)
    }

    /// The value of field `name`, unless absent or nothing (`~`).
    pub fn value(&self, name: &str) -> Option<&'a Node> {
        self.get(name).filter(|n| !matches!(n.value, Value::Null))
    }
}

/// `a, b or c`.
pub(super) fn one_of(words: &[&str]) -> String {
    match words {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// The known word closest to `word`, if it is only a typo away.
fn closest<'a>(word: &str, known: &[&'a str]) -> Option<&'a str> {
    let word = word.to_ascii_lowercase();
    known
        .iter()
        .map(|k| (edit_distance(&word, k), *k))
        .filter(|(d, k)| *d <= 2 && *d < k.len())
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().take(64).collect();
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut current = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitute = previous[j] + usize::from(ca != cb);
            current.push(substitute.min(previous[j + 1] + 1).min(current[j] + 1));
        }
        previous = current;
    }
    previous[b.len()]
}

/// Free text: any scalar. Nothing (`~`) is no text.
pub(super) fn text(errors: &Errors, node: &Node, what: &str) -> Result<Option<String>, FileError> {
    match node.value {
        Value::Null => Ok(None),
        Value::Seq(_) | Value::Map(_) => Err(not_a(errors, node, what, "text", "")),
        _ => Ok(Some(node.raw.clone())),
    }
}

/// A word (a name, a cell, a move): any scalar of at most [`MAX_WORD`] characters.
pub(super) fn word<'a>(
    errors: &Errors,
    node: &'a Node,
    what: &str,
    noun: &str,
    expected: &str,
) -> Result<&'a str, FileError> {
    node.scalar()
        .filter(|w| w.chars().count() <= MAX_WORD)
        .ok_or_else(|| not_a(errors, node, what, noun, expected))
}

/// The items of a list. Nothing (`~`) is an empty list.
pub(super) fn items<'a>(
    errors: &Errors,
    node: &'a Node,
    what: &str,
    noun: &str,
    expected: &str,
) -> Result<&'a [Node], FileError> {
    match &node.value {
        Value::Seq(items) => Ok(items),
        Value::Null => Ok(&[]),
        _ => Err(not_a(errors, node, what, noun, expected)),
    }
}

/// A move YAML cut at its commas: `moves: [light:inn:a2,b1,b2]` holds three items for YAML
/// (`light:inn:a2`, `b1`, `b2`), as commas part the items of a list in brackets. When item
/// `index` of `list` is such a piece, or the move before such pieces, a sentence to append to
/// its error that says so and how to quote it.
pub(super) fn cut_at_commas(list: &[Node], index: usize) -> Option<String> {
    // A cell as written, `b1` or `j10`: a letter and a number.
    let cell_like = |node: &Node| {
        node.scalar().is_some_and(|w| {
            (2..=3).contains(&w.len())
                && w.starts_with(|c: char| c.is_ascii_alphabetic())
                && w[1..].bytes().all(|b| b.is_ascii_digit())
        })
    };
    let same_line = |a: &Node, b: &Node| a.place.0.is_some() && a.place.0 == b.place.0;
    // The move: this item, or the nearest before it with only cells between, on its line.
    let mut start = index;
    while start > 0 && cell_like(&list[start]) && same_line(&list[start - 1], &list[start]) {
        start -= 1;
    }
    let first = list.get(start)?;
    if !first.scalar().is_some_and(|w| w.contains(':')) {
        return None;
    }
    let pieces: Vec<&str> = std::iter::once(first)
        .chain(
            list[start + 1..]
                .iter()
                .take_while(|n| cell_like(n) && same_line(first, n)),
        )
        .filter_map(Node::scalar)
        .collect();
    if pieces.len() < 2 || start + pieces.len() <= index {
        return None;
    }
    let whole = shorten(&pieces.join(","));
    let items: Vec<String> = pieces.iter().map(|p| format!("`{}`", shorten(p))).collect();
    let (last, init) = items.split_last()?;
    Some(format!(
        " (in a list in brackets YAML reads commas as between items, so `{whole}` became {} items, {} and {last}: quote a move with commas, like `\"{whole}\"`, or write one move a line, `- {whole}`)",
        pieces.len(),
        init.join(", "),
    ))
}

/// A list of words.
pub(super) fn words(
    errors: &Errors,
    node: &Node,
    what: &str,
    noun: &str,
    item_noun: &str,
    expected: &str,
) -> Result<Vec<String>, FileError> {
    items(errors, node, what, noun, expected)?
        .iter()
        .map(|item| word(errors, item, what, item_noun, "").map(str::to_string))
        .collect()
}

/// A list of free texts.
pub(super) fn texts(
    errors: &Errors,
    node: &Node,
    what: &str,
    noun: &str,
    expected: &str,
) -> Result<Vec<String>, FileError> {
    items(errors, node, what, noun, expected)?
        .iter()
        .map(|item| Ok(text(errors, item, what)?.unwrap_or_default()))
        .collect()
}

/// A whole number from `min` to `max`.
pub(super) fn whole(
    errors: &Errors,
    node: &Node,
    what: &str,
    noun: &str,
    expected: &str,
    min: i128,
    max: i128,
) -> Result<i128, FileError> {
    match node.value {
        Value::Int(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(not_a(errors, node, what, noun, expected)),
    }
}

/// `true` or `false` (YAML also reads `yes` and `no`).
pub(super) fn boolean(errors: &Errors, node: &Node, what: &str) -> Result<bool, FileError> {
    match node.value {
        Value::Bool(b) => Ok(b),
        _ => Err(not_a(errors, node, what, "true or false", "")),
    }
}
