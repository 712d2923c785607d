//! The YAML document as written, before any rule is checked, read from the located tree of
//! `yaml.rs` by hand so that every mistake is named in the file format's words at its token.
//! See `docs/file-format.md`.

use super::located::{Errors, Located, Place};
use super::stored::{
    PuzzleGame, PuzzleInfo, PuzzleTempting, Ruling, RulingBuilding, RulingNearMiss, StoredBounds,
    StoredGlicko, StoredSolution,
};
use super::yaml::{
    Fields, MapShape, Node, Value, entries, field_path, in_field, items, not_a, text, texts, whole,
    word, words,
};
use crate::files::FileError;
use std::collections::BTreeMap;

/// A position file as read.
#[derive(Debug, Default)]
pub struct RawFile {
    pub title: Option<String>,
    pub description: Option<String>,
    pub tags: Vec<String>,
    pub source: Option<String>,
    pub rules: Option<Located<RawRules>>,
    pub to_move: Option<Located<String>>,
    pub passes: Option<Located<u8>>,
    pub cathedral: Option<Located<RawCathedral>>,
    pub light: Option<RawSide>,
    pub dark: Option<RawSide>,
    pub board: Option<Located<String>>,
    pub legend: Option<BTreeMap<String, Located<String>>>,
    pub ruling: Option<Ruling>,
    pub solution: Option<RawSolution>,
    pub bounds: Option<RawBounds>,
    pub puzzle: Option<RawPuzzle>,
}

/// `classic`, `moore1978`, `lehmann-woods`, `sheets`, or a map of the five options.
#[derive(Debug, Clone)]
pub enum RawRules {
    Preset(String),
    Options(Box<RawRuleOptions>),
}

/// The five options of a `rules:` map, each as written (missing: the classic value).
#[derive(Debug, Clone)]
pub struct RawRuleOptions {
    pub capture: Option<Located<String>>,
    pub pass: Option<Located<String>>,
    pub first_move: Option<Located<String>>,
    pub cathedral: Option<Located<String>>,
    pub claims: Option<Located<String>>,
}

/// The Cathedral's cells, or `to-place` / `gone`.
#[derive(Debug)]
pub enum RawCathedral {
    Status(String),
    Cells(Vec<Located<String>>),
}

/// One player's part.
#[derive(Debug, Default)]
pub struct RawSide {
    /// Each item a one-entry map: `- castle: [c3, d3, e3, c4, e4]`.
    pub buildings: Vec<RawBuildingEntry>,
    pub hand: Option<Located<Vec<RawHandEntry>>>,
    pub territory: Option<Located<Vec<Located<String>>>>,
    pub first_move_made: Option<bool>,
}

/// `- castle: [c3, d3, e3, c4, e4]`: the piece name (where the building is located) and cells.
#[derive(Debug)]
pub struct RawBuildingEntry {
    pub piece: Located<String>,
    pub cells: Vec<Located<String>>,
}

/// `tavern: 1` in a hand.
#[derive(Debug)]
pub struct RawHandEntry {
    pub piece: Located<String>,
    pub count: Located<u32>,
}

/// The `solution:` block with where its parts were written.
#[derive(Debug)]
pub struct RawSolution {
    pub solution: StoredSolution,
    pub place: Place,
    pub value: Place,
    pub best_move: Place,
    pub best_line: Vec<Place>,
    pub explanations: Place,
    /// Where `root_values` was written, and each of its keys (by move text).
    pub root_values: Place,
    pub root_keys: Vec<(String, Place)>,
}

/// The `bounds:` block with where it was written.
#[derive(Debug)]
pub struct RawBounds {
    pub bounds: StoredBounds,
    pub place: Place,
}

/// The `puzzle:` block with where its parts were written.
#[derive(Debug)]
pub struct RawPuzzle {
    pub puzzle: PuzzleInfo,
    pub place: Place,
    pub themes: Vec<Place>,
    pub difficulty: Place,
    pub margin: Place,
    /// The `game:` block of a puzzle from a played game, with where its moves were written.
    pub game: Option<RawPuzzleGame>,
    /// The `tempting:` block (the tempting wrong move and its refutation), with where its
    /// moves were written.
    pub tempting: Option<RawPuzzleGame>,
}

/// The `puzzle.game:` or `puzzle.tempting:` block with where its parts were written (`played`
/// and `played_value` are the tempting block's `move` and `value`).
#[derive(Debug)]
pub struct RawPuzzleGame {
    pub place: Place,
    pub played: Place,
    pub played_value: Place,
    pub refutation: Vec<Place>,
}

const FILE_FIELDS: [&str; 16] = [
    "title",
    "description",
    "tags",
    "source",
    "rules",
    "to_move",
    "passes",
    "cathedral",
    "light",
    "dark",
    "board",
    "legend",
    "ruling",
    "solution",
    "bounds",
    "puzzle",
];

/// Reads the document `root` as a position file.
pub(super) fn read_file(errors: &Errors, root: &Node) -> Result<RawFile, FileError> {
    let fields = Fields::read(
        errors,
        root,
        "",
        &MapShape {
            noun: "a position file",
            field_noun: "a field of a position file",
            known: &FILE_FIELDS,
            expected: "a map of fields like `to_move: light` (see docs/file-format.md)",
        },
    )?;
    let free_text = |name: &str| match fields.get(name) {
        Some(node) => text(errors, node, name),
        None => Ok(None),
    };
    let mut raw = RawFile {
        title: free_text("title")?,
        description: free_text("description")?,
        source: free_text("source")?,
        ..RawFile::default()
    };
    if let Some(node) = fields.get("tags") {
        raw.tags = words(
            errors,
            node,
            "tags",
            "a list of tags",
            "a tag",
            "a list of words like `[endgame, capture]`",
        )?;
    }
    if let Some(node) = fields.value("rules") {
        raw.rules = Some(located(node, read_rules(errors, node)?));
    }
    if let Some(node) = fields.value("to_move") {
        let player = word(errors, node, "to_move", "a player", "`light` or `dark`")?;
        raw.to_move = Some(located(node, player.to_string()));
    }
    if let Some(node) = fields.value("passes") {
        let passes = whole(
            errors,
            node,
            "passes",
            "a number of passes",
            "0, 1 or 2",
            0,
            2,
        )?;
        raw.passes = Some(located(node, passes as u8));
    }
    if let Some(node) = fields.value("cathedral") {
        let cathedral = match &node.value {
            Value::Seq(_) => RawCathedral::Cells(cells(errors, node, "cathedral")?),
            _ => RawCathedral::Status(
                word(
                    errors,
                    node,
                    "cathedral",
                    "a Cathedral state",
                    "its cells like `[e4, e5, d6, e6, f6, e7]`, `to-place` or `gone`",
                )?
                .to_string(),
            ),
        };
        raw.cathedral = Some(located(node, cathedral));
    }
    if let Some(node) = fields.get("light") {
        raw.light = Some(read_side(errors, node, "light")?);
    }
    if let Some(node) = fields.get("dark") {
        raw.dark = Some(read_side(errors, node, "dark")?);
    }
    if let Some(node) = fields.value("board") {
        let board = node.scalar().ok_or_else(|| {
            not_a(
                errors,
                node,
                "board",
                "a board diagram",
                "ten rows of text after `board: |` (see docs/file-format.md)",
            )
        })?;
        raw.board = Some(located(node, board.to_string()));
    }
    if let Some(node) = fields.value("legend") {
        let mut legend = BTreeMap::new();
        for (_, label, meaning) in entries(
            errors,
            node,
            "legend",
            "a legend",
            "a map of labels like `A: dark castle`",
        )? {
            let what = field_path("legend", label);
            let building = word(
                errors,
                meaning,
                &what,
                "a building",
                "`light PIECE`, `dark PIECE` or `cathedral`",
            )?;
            legend.insert(label.to_string(), located(meaning, building.to_string()));
        }
        raw.legend = Some(legend);
    }
    if let Some(node) = fields.value("ruling") {
        raw.ruling = Some(read_ruling(errors, node)?);
    }
    if let Some(node) = fields.value("solution") {
        raw.solution = Some(read_solution(errors, node)?);
    }
    if let Some(node) = fields.value("bounds") {
        raw.bounds = Some(read_bounds(errors, node)?);
    }
    if let Some(node) = fields.value("puzzle") {
        raw.puzzle = Some(read_puzzle(errors, node)?);
    }
    Ok(raw)
}

pub(super) fn located<T>(node: &Node, value: T) -> Located<T> {
    Located {
        value,
        place: node.place,
    }
}

/// The field `name`, which must be given: `what: `name` is missing: description` otherwise.
fn required<'a>(
    errors: &Errors,
    fields: &Fields<'a>,
    node: &Node,
    what: &str,
    name: &str,
    description: &str,
) -> Result<&'a Node, FileError> {
    fields.value(name).ok_or_else(|| {
        errors.at(
            node.place,
            in_field(what, format!("`{name}` is missing: {description}")),
        )
    })
}

/// A list of cells, each with where it was written.
fn cells(errors: &Errors, node: &Node, what: &str) -> Result<Vec<Located<String>>, FileError> {
    items(
        errors,
        node,
        what,
        "a list of cells",
        "cells like `[c3, d3]`",
    )?
    .iter()
    .map(|cell| {
        let name = word(errors, cell, what, "a cell", "a cell like `c3`")?;
        Ok(located(cell, name.to_string()))
    })
    .collect()
}

pub(super) fn read_rules(errors: &Errors, node: &Node) -> Result<RawRules, FileError> {
    match &node.value {
        Value::Map(_) => {
            let fields = Fields::read(
                errors,
                node,
                "rules",
                &MapShape {
                    noun: "a rule variant",
                    field_noun: "a rule option",
                    known: &["capture", "pass", "first_move", "cathedral", "claims"],
                    expected: "",
                },
            )?;
            let option = |name: &str, values: &str| -> Result<_, FileError> {
                match fields.value(name) {
                    Some(value) => {
                        let what = field_path("rules", name);
                        let text = word(errors, value, &what, "a rule option's value", values)?;
                        Ok(Some(located(value, text.to_string())))
                    }
                    None => Ok(None),
                }
            };
            Ok(RawRules::Options(Box::new(RawRuleOptions {
                capture: option("capture", "mandatory or optional")?,
                pass: option("pass", "forced or voluntary")?,
                first_move: option("first_move", "no-claim or no-enclosure")?,
                cathedral: option("cathedral", "first or after-first-move")?,
                claims: option("claims", "standing or at-once")?,
            })))
        }
        _ => node
            .scalar()
            .map(|name| RawRules::Preset(name.to_string()))
            .ok_or_else(|| {
                not_a(
                    errors,
                    node,
                    "rules",
                    "a rule variant",
                    "a preset name (classic, moore1978, lehmann-woods, sheets) or the five options capture/pass/first_move/cathedral/claims",
                )
            }),
    }
}

const SIDE_FIELDS: [&str; 4] = ["buildings", "hand", "territory", "first_move_made"];

fn read_side(errors: &Errors, node: &Node, what: &str) -> Result<RawSide, FileError> {
    let fields = Fields::read(
        errors,
        node,
        what,
        &MapShape {
            noun: "a player's part",
            field_noun: "a field of a player's part",
            known: &SIDE_FIELDS,
            expected: "a map of buildings, hand, territory and first_move_made",
        },
    )?;
    let mut side = RawSide::default();
    if let Some(list) = fields.get("buildings") {
        let what = field_path(what, "buildings");
        let example = "one entry per building like `- castle: [c3, d3, e3, c4, e4]`";
        for item in items(errors, list, &what, "a list of buildings", example)? {
            let one_entry = || {
                errors.at(
                    item.place,
                    in_field(
                        &what,
                        "each building is a one-entry map like `- castle: [c3, d3, e3, c4, e4]`",
                    ),
                )
            };
            if !matches!(item.value, Value::Map(_)) {
                return Err(one_entry());
            }
            let entry = entries(errors, item, &what, "a building", example)?;
            let [(key, piece, cell_list)] = entry.as_slice() else {
                return Err(one_entry());
            };
            side.buildings.push(RawBuildingEntry {
                piece: located(key, piece.to_string()),
                cells: cells(errors, cell_list, &what)?,
            });
        }
    }
    if let Some(hand) = fields.value("hand") {
        let what = field_path(what, "hand");
        let mut list = Vec::new();
        for (key, piece, count) in entries(
            errors,
            hand,
            &what,
            "a hand",
            "a map of buildings and counts like `{tavern: 1, stable: 2}`",
        )? {
            let n = whole(
                errors,
                count,
                &what,
                "a number of buildings",
                "a whole number, 0 or more",
                0,
                u32::MAX.into(),
            )?;
            list.push(RawHandEntry {
                piece: located(key, piece.to_string()),
                count: located(count, n as u32),
            });
        }
        side.hand = Some(located(hand, list));
    }
    if let Some(territory) = fields.value("territory") {
        let what = field_path(what, "territory");
        side.territory = Some(located(territory, cells(errors, territory, &what)?));
    }
    if let Some(flag) = fields.value("first_move_made") {
        let what = field_path(what, "first_move_made");
        side.first_move_made = Some(super::yaml::boolean(errors, flag, &what)?);
    }
    Ok(side)
}

const RULING_FIELDS: [&str; 11] = [
    "note",
    "moves",
    "claimed",
    "captured",
    "near_misses",
    "illegal",
    "game_over",
    "unplaced_squares",
    "to_move",
    "cathedral",
    "legal_moves",
];

fn read_ruling(errors: &Errors, node: &Node) -> Result<Ruling, FileError> {
    let fields = Fields::read(
        errors,
        node,
        "ruling",
        &MapShape {
            noun: "a ruling",
            field_noun: "a field of a ruling",
            known: &RULING_FIELDS,
            expected: "a map with the `moves` to play and what the last one does (see docs/file-format.md)",
        },
    )?;
    let path = |name: &str| field_path("ruling", name);
    let moves = required(
        errors,
        &fields,
        node,
        "ruling",
        "moves",
        "the moves to play, like `moves: ['dark:stable:c1,c2']`",
    )?;
    let moves_example = "moves in notation like `['dark:stable:c1,c2']`";
    let cell_words = |name: &str| -> Result<Option<Vec<String>>, FileError> {
        fields
            .value(name)
            .map(|n| cell_list(errors, n, &path(name)))
            .transpose()
    };
    let word_of = |name: &str, noun: &str, expected: &str| -> Result<Option<String>, FileError> {
        fields
            .value(name)
            .map(|n| word(errors, n, &path(name), noun, expected).map(str::to_string))
            .transpose()
    };
    let captured = fields
        .value("captured")
        .map(|list| read_captured(errors, list, &path("captured")))
        .transpose()?;
    let near_misses = match fields.value("near_misses") {
        Some(list) => read_near_misses(errors, list, &path("near_misses"))?,
        None => Vec::new(),
    };
    let unplaced_squares = fields
        .value("unplaced_squares")
        .map(|map| read_squares(errors, map, &path("unplaced_squares")))
        .transpose()?;
    Ok(Ruling {
        note: fields
            .get("note")
            .map(|n| text(errors, n, &path("note")))
            .transpose()?
            .flatten(),
        moves: words(
            errors,
            moves,
            &path("moves"),
            "a list of moves",
            "a move",
            moves_example,
        )?,
        claimed: cell_words("claimed")?,
        captured,
        near_misses,
        illegal: word_of("illegal", "a reason", "a reason like `opponent-territory`")?,
        game_over: fields
            .value("game_over")
            .map(|n| super::yaml::boolean(errors, n, &path("game_over")))
            .transpose()?,
        unplaced_squares,
        to_move: word_of("to_move", "a player", "`light` or `dark`")?,
        cathedral: word_of(
            "cathedral",
            "a Cathedral state",
            "`on-board`, `gone` or `to-place`",
        )?,
        legal_moves: fields
            .value("legal_moves")
            .map(|n| {
                whole(
                    errors,
                    n,
                    &path("legal_moves"),
                    "a number of moves",
                    "a whole number, 0 or more",
                    0,
                    u32::MAX.into(),
                )
                .map(|n| n as u32)
            })
            .transpose()?,
    })
}

/// A list of cells, `[a1, a2]`.
fn cell_list(errors: &Errors, node: &Node, what: &str) -> Result<Vec<String>, FileError> {
    words(
        errors,
        node,
        what,
        "a list of cells",
        "a cell",
        "cells like `[a1, a2]`",
    )
}

/// A ruling's `captured:` buildings.
fn read_captured(
    errors: &Errors,
    list: &Node,
    what: &str,
) -> Result<Vec<RulingBuilding>, FileError> {
    let mut buildings = Vec::new();
    for item in items(
        errors,
        list,
        what,
        "a list of buildings",
        "buildings like `[{player: light, piece: tavern, cells: [a1]}]`",
    )? {
        let building = Fields::read(
            errors,
            item,
            what,
            &MapShape {
                noun: "a building",
                field_noun: "a field of a captured building",
                known: &["player", "piece", "cells"],
                expected: "a map like `{player: light, piece: tavern, cells: [a1]}`",
            },
        )?;
        let part = |name: &str, description: &str| {
            required(errors, &building, item, what, name, description)
        };
        buildings.push(RulingBuilding {
            player: word(
                errors,
                part("player", "`light`, `dark` or `cathedral`")?,
                what,
                "a player",
                "`light`, `dark` or `cathedral`",
            )?
            .to_string(),
            piece: word(
                errors,
                part("piece", "the piece name, like `tavern`")?,
                what,
                "a piece",
                "a piece name like `tavern`",
            )?
            .to_string(),
            cells: cell_list(
                errors,
                part("cells", "the cells it covered, like `[a1]`")?,
                what,
            )?,
        });
    }
    Ok(buildings)
}

/// A ruling's `near_misses:`, the cells a claim did not take and why.
fn read_near_misses(
    errors: &Errors,
    list: &Node,
    what: &str,
) -> Result<Vec<RulingNearMiss>, FileError> {
    let mut near_misses = Vec::new();
    for item in items(
        errors,
        list,
        what,
        "a list of near misses",
        "near misses like `[{reason: diagonal-contact, cells: [a1]}]`",
    )? {
        let miss = Fields::read(
            errors,
            item,
            what,
            &MapShape {
                noun: "a near miss",
                field_noun: "a field of a near miss",
                known: &["reason", "cells"],
                expected: "a map like `{reason: diagonal-contact, cells: [a1]}`",
            },
        )?;
        let part =
            |name: &str, description: &str| required(errors, &miss, item, what, name, description);
        near_misses.push(RulingNearMiss {
            reason: word(
                errors,
                part("reason", "why the cells were not claimed")?,
                what,
                "a reason",
                "a reason like `diagonal-contact`",
            )?
            .to_string(),
            cells: cell_list(
                errors,
                part("cells", "the cells that were not claimed")?,
                what,
            )?,
        });
    }
    Ok(near_misses)
}

/// A ruling's `unplaced_squares:`, by player.
fn read_squares(
    errors: &Errors,
    map: &Node,
    what: &str,
) -> Result<BTreeMap<String, u32>, FileError> {
    let mut squares = BTreeMap::new();
    for (_, player, count) in entries(
        errors,
        map,
        what,
        "a map of squares",
        "a map like `{light: 39, dark: 42}`",
    )? {
        let n = whole(
            errors,
            count,
            what,
            "a number of squares",
            "a whole number, 0 or more",
            0,
            u32::MAX.into(),
        )?;
        squares.insert(player.to_string(), n as u32);
    }
    Ok(squares)
}

const SOLUTION_FIELDS: [&str; 8] = [
    "value",
    "wdl",
    "best_move",
    "best_line",
    "nodes",
    "seconds",
    "explanations",
    "root_values",
];

fn read_solution(errors: &Errors, node: &Node) -> Result<RawSolution, FileError> {
    let fields = Fields::read(
        errors,
        node,
        "solution",
        &MapShape {
            noun: "a solution",
            field_noun: "a field of a solution",
            known: &SOLUTION_FIELDS,
            expected: "a map with the exact `value` and a `best_line` (see docs/file-format.md)",
        },
    )?;
    let path = |name: &str| field_path("solution", name);
    let value = required(
        errors,
        &fields,
        node,
        "solution",
        "value",
        "the exact value, like `value: 3`",
    )?;
    let mut raw = RawSolution {
        solution: StoredSolution {
            value: exact_value(errors, value, &path("value"))?,
            ..StoredSolution::default()
        },
        place: node.place,
        value: value.place,
        best_move: node.place,
        best_line: Vec::new(),
        explanations: node.place,
        root_values: node.place,
        root_keys: Vec::new(),
    };
    if let Some(flag) = fields.value("wdl") {
        raw.solution.wdl = super::yaml::boolean(errors, flag, &path("wdl"))?;
    }
    if let Some(best) = fields.value("best_move") {
        let mv = word(
            errors,
            best,
            &path("best_move"),
            "a move",
            "a move with the player, like `dark:tavern:a4`",
        )?;
        raw.solution.best_move = Some(mv.to_string());
        raw.best_move = best.place;
    }
    if let Some(line) = fields.value("best_line") {
        read_best_line(errors, line, &path("best_line"), &mut raw)?;
    }
    if let Some(node) = fields.value("nodes") {
        raw.solution.nodes = Some(node_count(errors, node, &path("nodes"))?);
    }
    if let Some(node) = fields.value("seconds") {
        raw.solution.seconds = Some(seconds(errors, node, &path("seconds"))?);
    }
    if let Some(map) = fields.value("root_values") {
        raw.root_values = fields.key_place("root_values").unwrap_or(map.place);
        read_root_values(errors, map, &path("root_values"), &mut raw)?;
    }
    if let Some(list) = fields.value("explanations") {
        raw.solution.explanations = texts(
            errors,
            list,
            &path("explanations"),
            "a list of explanations",
            "one text per move of best_line",
        )?;
        raw.explanations = list.place;
    }
    Ok(raw)
}

/// An exact value of a solution: a whole number of squares (the range is checked against the
/// position later, where the board says how many squares are left).
fn exact_value(errors: &Errors, node: &Node, what: &str) -> Result<i32, FileError> {
    let value = whole(
        errors,
        node,
        what,
        "a value",
        "a whole number of squares, -47..47",
        i32::MIN.into(),
        i32::MAX.into(),
    )?;
    Ok(value as i32)
}

/// A solution's `best_line:`, each move's text with where it was written.
fn read_best_line(
    errors: &Errors,
    line: &Node,
    what: &str,
    raw: &mut RawSolution,
) -> Result<(), FileError> {
    for mv in items(
        errors,
        line,
        what,
        "a list of moves",
        "moves with the player, like `[dark:tavern:a4, light:tavern:e6]`",
    )? {
        let text = word(errors, mv, what, "a move", "")?;
        raw.solution.best_line.push(text.to_string());
        raw.best_line.push(mv.place);
    }
    Ok(())
}

/// A solution's `root_values:`, every legal move with the exact value after it.
fn read_root_values(
    errors: &Errors,
    map: &Node,
    what: &str,
    raw: &mut RawSolution,
) -> Result<(), FileError> {
    for (key, mv, value) in entries(
        errors,
        map,
        what,
        "a map of moves to values",
        "every legal move with the exact value after it, like `light:tavern:a4: -3`",
    )? {
        let value = exact_value(errors, value, what)?;
        raw.solution.root_values.insert(mv.to_string(), value);
        raw.root_keys.push((mv.to_string(), key.place));
    }
    Ok(())
}

/// Nodes a solve searched: a whole number, 0 or more.
fn node_count(errors: &Errors, node: &Node, what: &str) -> Result<u64, FileError> {
    Ok(whole(
        errors,
        node,
        what,
        "a number of nodes",
        "a whole number, 0 or more",
        0,
        u64::MAX.into(),
    )? as u64)
}

/// Seconds a solve took: a number 0 or more.
fn seconds(errors: &Errors, node: &Node, what: &str) -> Result<f64, FileError> {
    let number = match node.value {
        Value::Int(_) | Value::Float => node.raw.parse::<f64>().ok(),
        _ => None,
    };
    number
        .filter(|s| s.is_finite() && *s >= 0.0)
        .ok_or_else(|| {
            not_a(
                errors,
                node,
                what,
                "a time",
                "the seconds the solve took, a number 0 or more",
            )
        })
}

const BOUNDS_FIELDS: [&str; 4] = ["lower", "upper", "nodes", "seconds"];

/// The `bounds:` block: what an unfinished solve proved of the value.
fn read_bounds(errors: &Errors, node: &Node) -> Result<RawBounds, FileError> {
    let fields = Fields::read(
        errors,
        node,
        "bounds",
        &MapShape {
            noun: "bounds",
            field_noun: "a field of bounds",
            known: &BOUNDS_FIELDS,
            expected: "a map with the proven `lower` and `upper` bounds of the value (see docs/file-format.md)",
        },
    )?;
    let path = |name: &str| field_path("bounds", name);
    let bound = |name: &str, help: &str| -> Result<i32, FileError> {
        let value = required(errors, &fields, node, "bounds", name, help)?;
        Ok(whole(
            errors,
            value,
            &path(name),
            "a bound",
            "a whole number of squares, -47..47",
            i32::MIN.into(),
            i32::MAX.into(),
        )? as i32)
    };
    let mut bounds = StoredBounds {
        lower: bound("lower", "the proven lower bound, like `lower: -3`")?,
        upper: bound("upper", "the proven upper bound, like `upper: 5`")?,
        nodes: None,
        seconds: None,
    };
    if let Some(node) = fields.value("nodes") {
        bounds.nodes = Some(node_count(errors, node, &path("nodes"))?);
    }
    if let Some(node) = fields.value("seconds") {
        bounds.seconds = Some(seconds(errors, node, &path("seconds"))?);
    }
    Ok(RawBounds {
        bounds,
        place: node.place,
    })
}

const PUZZLE_FIELDS: [&str; 11] = [
    "question",
    "themes",
    "difficulty",
    "rating",
    "effort",
    "margin",
    "seed",
    "game",
    "tempting",
    "near_best",
    "glicko",
];

const PUZZLE_GAME_FIELDS: [&str; 9] = [
    "number",
    "move",
    "event",
    "round",
    "light",
    "dark",
    "played",
    "played_value",
    "refutation",
];

/// The `game:` block of a puzzle: the game and move it comes from, the move played there.
fn read_puzzle_game(
    errors: &Errors,
    node: &Node,
) -> Result<(PuzzleGame, RawPuzzleGame), FileError> {
    let fields = Fields::read(
        errors,
        node,
        "puzzle.game",
        &MapShape {
            noun: "a puzzle's game",
            field_noun: "a field of a puzzle's game",
            known: &PUZZLE_GAME_FIELDS,
            expected: "a map with the game's `number`, the `move` number and the move `played` (see docs/file-format.md)",
        },
    )?;
    let path = |name: &str| field_path("puzzle.game", name);
    let count = |name: &str, noun: &str, hint: &str| -> Result<u32, FileError> {
        let value = required(errors, &fields, node, "puzzle.game", name, hint)?;
        Ok(whole(
            errors,
            value,
            &path(name),
            noun,
            "a whole number, 1 or more",
            1,
            u32::MAX.into(),
        )? as u32)
    };
    let number = count(
        "number",
        "a game number",
        "the game's number in its record, 1 or more",
    )?;
    let move_number = count(
        "move",
        "a move number",
        "the number of the move to find, 1 or more",
    )?;
    let free = |name: &str| -> Result<Option<String>, FileError> {
        match fields.value(name) {
            Some(n) => text(errors, n, &path(name)),
            None => Ok(None),
        }
    };
    let played_node = required(
        errors,
        &fields,
        node,
        "puzzle.game",
        "played",
        "the move played in the game, like `dark:tavern:a4`",
    )?;
    let played = word(
        errors,
        played_node,
        &path("played"),
        "a move",
        "a move with the player, like `dark:tavern:a4`",
    )?
    .to_string();
    let value_node = required(
        errors,
        &fields,
        node,
        "puzzle.game",
        "played_value",
        "the exact value after the move played, like `played_value: -2`",
    )?;
    let played_value = exact_value(errors, value_node, &path("played_value"))?;
    let (refutation, places) = read_refutation(errors, &fields, &path("refutation"))?;
    Ok((
        PuzzleGame {
            number,
            move_number,
            event: free("event")?,
            round: free("round")?,
            light: free("light")?,
            dark: free("dark")?,
            played,
            played_value,
            refutation,
        },
        RawPuzzleGame {
            place: node.place,
            played: played_node.place,
            played_value: value_node.place,
            refutation: places,
        },
    ))
}

/// A block's `refutation:`, the opponent's moves with the player (none when absent), and where
/// each stands in the file.
fn read_refutation(
    errors: &Errors,
    fields: &Fields,
    what: &str,
) -> Result<(Vec<String>, Vec<Place>), FileError> {
    let mut refutation = Vec::new();
    let mut places = Vec::new();
    if let Some(line) = fields.value("refutation") {
        for mv in items(
            errors,
            line,
            what,
            "a list of moves",
            "moves with the player, like `[light:tavern:e6, dark:stable:a1,b1]`",
        )? {
            refutation.push(word(errors, mv, what, "a move", "")?.to_string());
            places.push(mv.place);
        }
    }
    Ok((refutation, places))
}

const PUZZLE_TEMPTING_FIELDS: [&str; 4] = ["kind", "move", "value", "refutation"];

/// The `tempting:` block of a puzzle: its most tempting wrong move, the move's exact value and
/// the opponent's refutation (`cathedral puzzles refute`).
fn read_puzzle_tempting(
    errors: &Errors,
    node: &Node,
) -> Result<(PuzzleTempting, RawPuzzleGame), FileError> {
    let fields = Fields::read(
        errors,
        node,
        "puzzle.tempting",
        &MapShape {
            noun: "a puzzle's tempting move",
            field_noun: "a field of a puzzle's tempting move",
            known: &PUZZLE_TEMPTING_FIELDS,
            expected: "a map with the `kind`, the `move`, its `value` and its `refutation` (see docs/file-format.md)",
        },
    )?;
    let path = |name: &str| field_path("puzzle.tempting", name);
    let kind_node = required(
        errors,
        &fields,
        node,
        "puzzle.tempting",
        "kind",
        "`greedy` or `closest`",
    )?;
    let kind = word(
        errors,
        kind_node,
        &path("kind"),
        "a kind",
        "`greedy` or `closest`",
    )?
    .to_string();
    if kind != "greedy" && kind != "closest" {
        return Err(not_a(
            errors,
            kind_node,
            &path("kind"),
            "a kind of tempting move",
            "`greedy` or `closest`",
        ));
    }
    let move_node = required(
        errors,
        &fields,
        node,
        "puzzle.tempting",
        "move",
        "the tempting wrong move, like `dark:tavern:a4`",
    )?;
    let played = word(
        errors,
        move_node,
        &path("move"),
        "a move",
        "a move with the player, like `dark:tavern:a4`",
    )?
    .to_string();
    let value_node = required(
        errors,
        &fields,
        node,
        "puzzle.tempting",
        "value",
        "the exact value after the tempting move, like `value: -2`",
    )?;
    let value = exact_value(errors, value_node, &path("value"))?;
    let (refutation, places) = read_refutation(errors, &fields, &path("refutation"))?;
    Ok((
        PuzzleTempting {
            kind,
            played,
            value,
            refutation,
        },
        RawPuzzleGame {
            place: node.place,
            played: move_node.place,
            played_value: value_node.place,
            refutation: places,
        },
    ))
}

fn read_puzzle(errors: &Errors, node: &Node) -> Result<RawPuzzle, FileError> {
    let fields = Fields::read(
        errors,
        node,
        "puzzle",
        &MapShape {
            noun: "a puzzle",
            field_noun: "a field of a puzzle",
            known: &PUZZLE_FIELDS,
            expected: "a map with the `question`, `difficulty` and `margin` (see docs/file-format.md)",
        },
    )?;
    let path = |name: &str| field_path("puzzle", name);
    let need = |name: &str, help: &str| required(errors, &fields, node, "puzzle", name, help);
    let question = need("question", "the question under the diagram")?;
    let difficulty = need("difficulty", "`easy`, `medium` or `hard`")?;
    let margin = need(
        "margin",
        "how much the best move beats every other, 1 or more",
    )?;
    let number = |name: &str, noun: &str, max: u64| -> Result<Option<u64>, FileError> {
        fields
            .value(name)
            .map(|n| {
                whole(
                    errors,
                    n,
                    &path(name),
                    noun,
                    "a whole number, 0 or more",
                    0,
                    max.into(),
                )
                .map(|n| n as u64)
            })
            .transpose()
    };
    let game = fields
        .value("game")
        .map(|n| read_puzzle_game(errors, n))
        .transpose()?;
    let tempting = fields
        .value("tempting")
        .map(|n| read_puzzle_tempting(errors, n))
        .transpose()?;
    let (themes, theme_places) = match fields.value("themes") {
        Some(list) => read_themes(errors, list, &path("themes"))?,
        None => (Vec::new(), Vec::new()),
    };
    Ok(RawPuzzle {
        puzzle: PuzzleInfo {
            question: text(errors, question, &path("question"))?.unwrap_or_default(),
            themes,
            difficulty: word(
                errors,
                difficulty,
                &path("difficulty"),
                "a difficulty",
                "`easy`, `medium` or `hard`",
            )?
            .to_string(),
            rating: number("rating", "a rating", u32::MAX.into())?.map(|n| n as u32),
            effort: number("effort", "a number of nodes", u64::MAX)?,
            margin: whole(
                errors,
                margin,
                &path("margin"),
                "a margin",
                "a whole number, 1 or more",
                i32::MIN.into(),
                i32::MAX.into(),
            )? as i32,
            seed: number("seed", "a seed", u64::MAX)?,
            near_best: number("near_best", "a number of moves", u32::MAX.into())?.map(|n| n as u32),
            glicko: fields
                .value("glicko")
                .map(|n| read_glicko(errors, n))
                .transpose()?,
            game: game.as_ref().map(|(g, _)| g.clone()),
            tempting: tempting.as_ref().map(|(t, _)| t.clone()),
        },
        place: node.place,
        themes: theme_places,
        difficulty: difficulty.place,
        margin: margin.place,
        game: game.map(|(_, raw)| raw),
        tempting: tempting.map(|(_, raw)| raw),
    })
}

/// A puzzle's `themes:`, with where each was written.
fn read_themes(
    errors: &Errors,
    list: &Node,
    what: &str,
) -> Result<(Vec<String>, Vec<Place>), FileError> {
    let mut themes = Vec::new();
    let mut places = Vec::new();
    for theme in items(
        errors,
        list,
        what,
        "a list of themes",
        "themes like `[capture, tempo]`",
    )? {
        themes.push(word(errors, theme, what, "a theme", "")?.to_string());
        places.push(theme.place);
    }
    Ok((themes, places))
}

const GLICKO_FIELDS: [&str; 3] = ["rating", "deviation", "volatility"];

/// The `puzzle.glicko:` block: rating and deviation in whole points, the volatility.
fn read_glicko(errors: &Errors, node: &Node) -> Result<StoredGlicko, FileError> {
    let fields = Fields::read(
        errors,
        node,
        "puzzle.glicko",
        &MapShape {
            noun: "a puzzle's rating",
            field_noun: "a field of a puzzle's rating",
            known: &GLICKO_FIELDS,
            expected: "a map with the `rating`, `deviation` and `volatility` (see docs/file-format.md)",
        },
    )?;
    let path = |name: &str| field_path("puzzle.glicko", name);
    let rating = required(
        errors,
        &fields,
        node,
        "puzzle.glicko",
        "rating",
        "the rating, like `rating: 1500`",
    )?;
    let deviation = required(
        errors,
        &fields,
        node,
        "puzzle.glicko",
        "deviation",
        "the rating's deviation, like `deviation: 80`",
    )?;
    let volatility = required(
        errors,
        &fields,
        node,
        "puzzle.glicko",
        "volatility",
        "the rating's volatility, like `volatility: 0.06`",
    )?;
    let number = match volatility.value {
        Value::Int(_) | Value::Float => volatility.raw.parse::<f64>().ok(),
        _ => None,
    };
    Ok(StoredGlicko {
        rating: whole(
            errors,
            rating,
            &path("rating"),
            "a rating",
            "a whole number from 0 to 4000",
            0,
            4000,
        )? as u32,
        deviation: whole(
            errors,
            deviation,
            &path("deviation"),
            "a deviation",
            "a whole number from 1 to 350",
            1,
            350,
        )? as u32,
        volatility: number.filter(|v| *v > 0.0 && *v <= 1.0).ok_or_else(|| {
            not_a(
                errors,
                volatility,
                &path("volatility"),
                "a volatility",
                "a number above 0, at most 1",
            )
        })?,
    })
}
