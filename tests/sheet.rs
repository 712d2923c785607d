//! The printable worksheet: readable sizes, the hands as text, 4 or 6 puzzles a page on A4 or
//! Letter, a legend and answer lines on every page, questions that do not give the answer away,
//! answers that say why, the default mix of themes, territory patterns apart in greyscale, and
//! the command line's options.

use cathedral::draw::svg::{CELL, SvgOptions, cell_origin, render_print_svg};
use cathedral::file::{Difficulty, PositionFile, Theme, load};
use cathedral::present::words::result_phrase;
use cathedral::puzzle::{AnalyseOptions, TryKind, greedy_choices, solve_line, wrong_try};
use cathedral::puzzle::{Paper, PerPage, SheetOptions, SheetPuzzle, sheet_html};
use cathedral::puzzle::{answer_idea, sheet_question, theme_mix};
use cathedral::{Cell, Piece, Player};
use predicates::prelude::*;
use std::path::Path;

use crate::common;

use common::cathedral;

fn puzzle(name: String, file: PositionFile) -> SheetPuzzle {
    let wrong_try = wrong_try(&file.position, &AnalyseOptions::default());
    SheetPuzzle {
        name,
        file,
        wrong_try,
    }
}

fn puzzles(numbers: &[u32]) -> Vec<SheetPuzzle> {
    numbers
        .iter()
        .map(|n| {
            let name = format!("puzzle-{n:03}");
            let path = format!("puzzles/teaching/{name}.yaml");
            let file = load(Path::new(&path)).unwrap_or_else(|e| panic!("{e}"));
            puzzle(name, file)
        })
        .collect()
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The text after `class="answers"`: the answers page.
fn answers(html: &str) -> &str {
    &html[html.find("class=\"answers\"").expect("answers section")..]
}

/// The page without its SVG diagrams.
fn outside_diagrams(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    while let Some(start) = rest.find("<svg") {
        out.push_str(&rest[..start]);
        let end = rest[start..].find("</svg>").expect("</svg>") + start + "</svg>".len();
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// The `font-size` in points of the CSS rule for `selector`.
fn font_size_pt(html: &str, selector: &str) -> f64 {
    let rule_start = html
        .find(&format!("{selector} {{"))
        .unwrap_or_else(|| panic!("no CSS rule for {selector}"));
    let rule = &html[rule_start..rule_start + html[rule_start..].find('}').expect("}")];
    let rule = &rule[rule.find('{').expect("{") + 1..];
    let value = rule
        .split(';')
        .find_map(|d| d.trim().strip_prefix("font-size:"))
        .unwrap_or_else(|| panic!("no font-size in {rule}"))
        .trim();
    value
        .strip_suffix("pt")
        .unwrap_or_else(|| panic!("font-size {value} is not in points"))
        .parse()
        .expect("number")
}

#[test]
fn the_answers_page_gives_move_value_and_every_explanation() {
    let puzzles = puzzles(&[5, 11, 72]);
    let html = sheet_html("Test", &puzzles, &SheetOptions::default());
    let answers = answers(&html);
    for SheetPuzzle { name, file, .. } in &puzzles {
        let solution = file.solution.as_ref().expect("solution");
        let info = file.puzzle.as_ref().expect("puzzle");
        assert!(answers.contains(name.as_str()), "{name} not named");
        assert!(
            answers.contains(&escape(solution.best_move.as_deref().expect("best move"))),
            "{name}: no answer move"
        );
        assert!(
            answers.contains(&result_phrase(solution.value)),
            "{name}: no value ({})",
            result_phrase(solution.value)
        );
        assert!(
            answers.contains(&format!("{:+}", solution.value))
                || answers.contains(&format!("value {}", solution.value)),
            "{name}: no signed value"
        );
        assert_eq!(solution.explanations.len(), solution.best_line.len());
        for explanation in &solution.explanations {
            for line in explanation.lines() {
                assert!(
                    answers.contains(&escape(line.trim())),
                    "{name}: the answers page lacks {:?}",
                    line.trim()
                );
            }
        }
        // The margin: how much worse every other move is.
        assert!(
            answers.contains(&format!("at least {} square", info.margin)),
            "{name}: no margin"
        );
    }
}

#[test]
fn questions_and_hands_are_readable_text_on_the_page() {
    let puzzles = puzzles(&[5, 72]);
    let html = sheet_html("Test", &puzzles, &SheetOptions::default());
    assert!(
        font_size_pt(&html, ".question") >= 12.0,
        "the question must print at 12 pt or more"
    );
    assert!(font_size_pt(&html, ".hands") >= 10.0);
    assert!(font_size_pt(&html, "body") >= 11.0);
    // The hands are HTML text (printed at the page's text size), not small print inside the
    // diagram: puzzle-072's Dark hand holds the Infirmary, Light's does not.
    let text = outside_diagrams(&html);
    assert!(
        text.contains("Infirmary (5)"),
        "no hands outside the diagrams"
    );
    assert!(
        text.contains("18 squares"),
        "Dark's unplaced squares in puzzle-072"
    );
    assert!(html.contains("@page"), "no print page size and margins");
}

#[test]
fn a_cathedral_to_place_is_listed_with_the_hands() {
    let opening =
        load(Path::new("puzzles/examples/opening.yaml")).unwrap_or_else(|e| panic!("{e}"));
    let html = sheet_html(
        "Test",
        &[SheetPuzzle {
            name: "opening".to_string(),
            file: opening,
            wrong_try: None,
        }],
        &SheetOptions::default(),
    );
    let text = outside_diagrams(&html);
    assert!(text.contains("Cathedral - to place"), "{text}");
    assert!(text.contains("47 squares unplaced"));
}

#[test]
fn each_answer_refutes_the_most_tempting_wrong_move() {
    // 001 and 003: the greedy player finds the answer; the others: it does not.
    let puzzles = puzzles(&[1, 3, 5, 11, 40, 72]);
    let html = sheet_html("Test", &puzzles, &SheetOptions::default());
    let answers = answers(&html);
    let mut kinds = Vec::new();
    for SheetPuzzle {
        name,
        file,
        wrong_try,
    } in &puzzles
    {
        let wrong = wrong_try
            .as_ref()
            .unwrap_or_else(|| panic!("{name}: no wrong try"));
        let solution = file.solution.as_ref().expect("solution");
        let best = solution.best_move.as_deref().expect("best move");
        assert_ne!(
            wrong.played.notation, best,
            "{name}: the answer is not wrong"
        );
        // Its value, solved again here from the position after it.
        let (child, line, _) = solve_line(&wrong.played.after, &AnalyseOptions::default())
            .unwrap_or_else(|| panic!("{name}: not solved"));
        assert_eq!(wrong.value, -child, "{name}");
        assert_eq!(wrong.loss, solution.value - wrong.value, "{name}");
        assert!(wrong.loss >= 1, "{name}: it loses nothing");
        assert_eq!(wrong.reply_line.len(), line.len(), "{name}");
        if wrong.kind == TryKind::Greedy {
            let greedy: Vec<String> = greedy_choices(&file.position)
                .into_iter()
                .map(|m| cathedral::notation::format_move_with_player(&file.position, m))
                .collect();
            assert!(
                greedy.contains(&wrong.played.notation),
                "{name}: {greedy:?}"
            );
        }
        kinds.push(wrong.kind);
        assert!(
            answers.contains(&format!(
                "Tempting but wrong: <code>{}</code>",
                escape(&wrong.played.notation)
            )),
            "{name}: the tempting move is not on the page"
        );
        assert!(answers.contains(&format!("gives away {} square", wrong.loss)));
        for report in &wrong.reply_line {
            for text in report.to_string().lines() {
                assert!(
                    answers.contains(&escape(text.trim())),
                    "{name}: the refutation lacks {:?}",
                    text.trim()
                );
            }
        }
    }
    assert!(
        kinds.contains(&TryKind::Greedy) && kinds.contains(&TryKind::Closest),
        "{kinds:?}"
    );
}

/// Every puzzle file of the shipped collection, by name, without wrong tries (no solving).
fn teaching() -> Vec<SheetPuzzle> {
    common::yaml_files("puzzles/teaching")
        .into_iter()
        .map(|path| SheetPuzzle {
            name: path.file_stem().unwrap().to_string_lossy().into_owned(),
            file: load(&path).unwrap_or_else(|e| panic!("{e}")),
            wrong_try: None,
        })
        .collect()
}

/// The shipped puzzles `numbers`, without wrong tries.
fn unrefuted(numbers: &[u32]) -> Vec<SheetPuzzle> {
    numbers
        .iter()
        .map(|n| {
            let name = format!("puzzle-{n:03}");
            let file = load(Path::new(&format!("puzzles/teaching/{name}.yaml")))
                .unwrap_or_else(|e| panic!("{e}"));
            SheetPuzzle {
                name,
                file,
                wrong_try: None,
            }
        })
        .collect()
}

/// The puzzle pages: everything before the answers.
fn puzzle_pages(html: &str) -> &str {
    &html[..html.find("class=\"answers\"").expect("answers section")]
}

/// The printed pages of puzzles, each from its `<section class="page">` to the next.
fn pages(html: &str) -> Vec<&str> {
    let puzzles = puzzle_pages(html);
    let starts: Vec<usize> = puzzles
        .match_indices("<section class=\"page\">")
        .map(|(i, _)| i)
        .collect();
    starts
        .iter()
        .enumerate()
        .map(|(k, &start)| &puzzles[start..starts.get(k + 1).copied().unwrap_or(puzzles.len())])
        .collect()
}

fn first_theme(file: &PositionFile) -> Option<Theme> {
    file.puzzle
        .as_ref()
        .and_then(|p| p.themes.first())
        .and_then(|t| t.parse().ok())
}

#[test]
fn the_count_per_page_sets_the_pages_and_the_grid() {
    let nine = unrefuted(&[1, 2, 3, 4, 5, 6, 7, 8, 9]);
    for (per_page, columns, expected_pages) in [(PerPage::Four, 2, 3), (PerPage::Six, 3, 2)] {
        let options = SheetOptions {
            per_page,
            ..SheetOptions::default()
        };
        let html = sheet_html("Test", &nine, &options);
        let pages = pages(&html);
        assert_eq!(pages.len(), expected_pages, "{per_page:?}");
        let counts: Vec<usize> = pages
            .iter()
            .map(|p| p.matches("<div class=\"puzzle\">").count())
            .collect();
        let full = per_page.count();
        assert!(
            counts[..counts.len() - 1].iter().all(|&c| c == full),
            "{counts:?}"
        );
        assert_eq!(counts.iter().sum::<usize>(), 9);
        // Every page breaks after it, and the answers start on a new one.
        assert!(html.contains(".page { ") && html.contains("break-after: page"));
        assert!(html.contains(".answers { break-before: page"));
        assert!(
            html.contains(&format!(
                "grid-template-columns: repeat({columns}, minmax(0, 1fr))"
            )),
            "{per_page:?}: no {columns}-column grid"
        );
        // Two rows of puzzles: two rows for boards.
        let rows = &html[html.find("grid-template-rows:").unwrap()..];
        let rows = &rows[..rows.find(';').unwrap()];
        assert_eq!(rows.matches("1fr").count(), 2, "{rows}");
        // The heading says which puzzles the page holds.
        assert!(pages[1].contains(&format!("puzzles {}-", full + 1)));
    }
}

#[test]
fn the_paper_sets_the_page_size_and_margins() {
    let two = unrefuted(&[1, 5]);
    for (paper, size, width) in [
        (Paper::A4, "A4", "190.0mm"),
        (Paper::Letter, "letter", "195.9mm"),
    ] {
        let html = sheet_html(
            "Test",
            &two,
            &SheetOptions {
                paper,
                ..SheetOptions::default()
            },
        );
        assert!(
            html.contains(&format!("@page {{ size: {size}; margin: 10mm; }}")),
            "{paper:?}"
        );
        // Each page is one printed page: the paper less its margins (and 1 mm for rounding).
        let (w, h) = paper.size_mm();
        assert!(html.contains(&format!("width: {width}")), "{paper:?}");
        assert!(
            html.contains(&format!("height: {:.1}mm", h - 21.0)),
            "{paper:?}"
        );
        assert!((w - 20.0 - width.trim_end_matches("mm").parse::<f64>().unwrap()).abs() < 0.05);
        // A long list of cells in an answer wraps anywhere: wider than the page, it would make
        // Chromium shrink every page to fit it.
        assert!(html.contains("overflow-wrap: anywhere"));
    }
}

#[test]
fn every_page_has_the_legend() {
    let html = sheet_html(
        "Test",
        &unrefuted(&[1, 2, 3, 4, 5, 62]),
        &SheetOptions::default(),
    );
    let pages = pages(&html);
    assert_eq!(pages.len(), 2);
    for page in pages {
        let legend = &page[page.find("<footer class=\"legend\">").expect("a legend")..];
        let text = outside_diagrams(legend);
        for piece in Piece::ALL {
            assert!(
                text.contains(&format!(
                    "<b>{}</b> {} {}",
                    piece.code(),
                    piece.title(),
                    piece.size()
                )),
                "the legend lacks {piece:?}"
            );
        }
        for words in [
            "Dark building",
            "Light building",
            "CA: the Cathedral",
            "Dark territory: stripes",
            "Light territory: dots",
            "only its owner may build there",
            "a1 is the bottom left corner",
            "Inn c3, c4, d4",
        ] {
            assert!(text.contains(words), "the legend lacks {words:?}");
        }
        // The samples are the diagrams' own patterns.
        assert!(legend.contains("url(#print-dark-territory)"));
        assert!(legend.contains("url(#print-light-territory)"));
    }
}

#[test]
fn every_puzzle_has_lines_for_the_answer() {
    let puzzles = unrefuted(&[1, 5, 46, 72, 62]);
    let html = sheet_html("Test", &puzzles, &SheetOptions::default());
    let pages = puzzle_pages(&html);
    let places: Vec<&str> = pages.split("<div class=\"puzzle\">").skip(1).collect();
    assert_eq!(places.len(), puzzles.len());
    for place in places {
        assert_eq!(
            place
                .matches(
                    "<p class=\"write\"><span>Your move:</span><span class=\"blank\"></span></p>"
                )
                .count(),
            1
        );
        assert!(place.contains("<span>Why:</span><span class=\"blank\"></span>"));
    }
    assert!(
        html.contains(".write .blank { flex: 1;"),
        "the line fills the column"
    );
}

#[test]
fn questions_ask_without_giving_the_answer_away() {
    let puzzles = teaching();
    let html = sheet_html("Test", &puzzles, &SheetOptions::default());
    let pages = puzzle_pages(&html);
    let answers = answers(&html);
    let cell_names: Vec<String> = (0..10u8)
        .flat_map(|f| (0..10u8).map(move |r| Cell::new(f, r).unwrap().to_string()))
        .collect();
    for SheetPuzzle { name, file, .. } in &puzzles {
        let solution = file.solution.as_ref().expect("solution");
        let best = solution.best_move.as_deref().expect("best move");
        let question = sheet_question(file);
        assert!(
            pages.contains(&escape(&question)),
            "{name}: its question is not on the page"
        );
        // The question names the side to move and no cell at all.
        let mover = file.position.to_move().title();
        assert!(
            question.starts_with(&format!("{mover} to move: ")),
            "{question}"
        );
        assert!(question.ends_with('?'), "{question}");
        let words: Vec<&str> = question
            .split(|c: char| !c.is_ascii_alphanumeric())
            .collect();
        assert!(
            !cell_names.iter().any(|c| words.contains(&c.as_str())),
            "{name}: {question}"
        );
        // The title that tells is on the answers page only; the move is nowhere on the puzzle
        // pages.
        let title = file.meta.title.as_deref().expect("title");
        assert!(!pages.contains(&escape(title)), "{name}: {title}");
        assert!(answers.contains(&escape(title)), "{name}: {title}");
        assert!(!pages.contains(best), "{name}: {best}");
    }
    // The example of issue 74.
    let [stable] = &unrefuted(&[46])[..] else {
        unreachable!()
    };
    assert_eq!(
        stable.file.meta.title.as_deref(),
        Some("Dark's Stable at a6-a7 first: the order decides")
    );
    assert_eq!(
        sheet_question(&stable.file),
        "Dark to move: which building first?"
    );
}

#[test]
fn answers_say_the_idea_beside_the_move() {
    let puzzles = teaching();
    let html = sheet_html("Test", &puzzles, &SheetOptions::default());
    let answers = answers(&html);
    let mut seen = std::collections::BTreeSet::new();
    for SheetPuzzle { name, file, .. } in &puzzles {
        let solution = file.solution.as_ref().expect("solution");
        let best = solution.best_move.as_deref().expect("best move");
        let idea = answer_idea(file).unwrap_or_else(|| panic!("{name}: no idea"));
        // Beside the move.
        assert!(
            answers.contains(&format!(
                "<b>Answer:</b> <code>{}</code> &ndash; <span class=\"idea\">{}</span>",
                escape(best),
                escape(&idea)
            )),
            "{name}: the idea is not beside the move"
        );
        // A sentence (or a few), naming the building and its cells as the move places them.
        let mover = file.position.to_move().title();
        let parts: Vec<&str> = best.split(':').collect();
        let [_, piece, cells] = parts[..] else {
            panic!("{name}: {best}")
        };
        let piece = format!("{}{}", piece[..1].to_uppercase(), &piece[1..]);
        let mut cells: Vec<Cell> = cells.split(',').map(|c| c.parse().unwrap()).collect();
        cells.sort_by_key(|c| (c.file(), c.rank()));
        let cells: Vec<String> = cells.iter().map(ToString::to_string).collect();
        assert!(
            idea.starts_with(&format!("{mover}'s {piece} on {}", cells.join(", "))),
            "{name}: {idea}"
        );
        assert!(idea.ends_with('.') && idea.len() > 40, "{name}: {idea}");
        // What the move claims or captures, and the idea of each theme.
        let themes: Vec<Theme> = file
            .puzzle
            .as_ref()
            .unwrap()
            .themes
            .iter()
            .map(|t| t.parse().unwrap())
            .collect();
        for theme in &themes {
            let said = match theme {
                Theme::Capture => idea.contains(" captures ") && idea.contains("claims the "),
                Theme::Claim => idea.contains("closes off ") || idea.contains(" captures "),
                Theme::Block => idea.contains("nowhere to go"),
                Theme::CathedralCapture => idea.contains("Cathedral"),
                Theme::DiagonalTrap => {
                    idea.contains("Watch the corners:") && idea.contains(" corner")
                }
                Theme::Tempo => {
                    idea.contains("the order decides") || idea.contains("own territory, where ")
                }
                Theme::EndgameCount => {
                    // The count at the end is the value.
                    let end = |p: Player| {
                        let mut position = file.position;
                        for text in &solution.best_line {
                            position
                                .play(cathedral::legality::parse_move(&position, text).unwrap());
                        }
                        position.unplaced_squares(p)
                    };
                    let me = file.position.to_move();
                    assert_eq!(
                        i64::from(end(me.opponent())) - i64::from(end(me)),
                        i64::from(solution.value),
                        "{name}"
                    );
                    idea.contains("the count decides")
                        && idea.contains(&format!(
                            "{mover} ending with {} unplaced, {} with {}.",
                            match end(me) {
                                0 => "no squares".to_string(),
                                n => cathedral::present::words::count(n, "square"),
                            },
                            me.opponent().title(),
                            match end(me.opponent()) {
                                0 => "no squares".to_string(),
                                n => cathedral::present::words::count(n, "square"),
                            }
                        ))
                }
            };
            assert!(said, "{name} ({theme}): {idea}");
            seen.insert(*theme);
        }
    }
    assert_eq!(seen.len(), Theme::ALL.len(), "{seen:?}");
    // A puzzle without a theme still says why: the answer takes the squares of the tempting
    // move's refutation.
    let [untitled] = &unrefuted(&[184])[..] else {
        unreachable!()
    };
    assert!(untitled.file.puzzle.as_ref().unwrap().themes.is_empty());
    assert_eq!(
        answer_idea(&untitled.file).as_deref(),
        Some(
            "Dark's Stable on a3, a4 goes in now. It takes squares Light needs: after the tempting \
             Bridge on d1, e1, f1, Light's Stable on a3, a4 goes there."
        )
    );
    // One capture, in full.
    let [capture] = &unrefuted(&[5])[..] else {
        unreachable!()
    };
    assert_eq!(
        answer_idea(&capture.file).as_deref(),
        Some("Dark's Tavern on h6 captures Light's Bridge and claims the 4 squares of its region.")
    );
}

#[test]
fn the_default_mix_takes_every_theme_and_level() {
    let puzzles = teaching();
    let files: Vec<&PositionFile> = puzzles.iter().map(|p| &p.file).collect();
    let picks = theme_mix(&files, 8, &[]);
    assert_eq!(picks.len(), 8);
    assert_eq!(
        theme_mix(&files, 8, &[]),
        picks,
        "the same files, the same mix"
    );
    let firsts: std::collections::BTreeSet<Theme> = picks
        .iter()
        .filter_map(|&i| first_theme(files[i]))
        .collect();
    assert!(firsts.len() >= 6, "{firsts:?}");
    let carried: std::collections::BTreeSet<String> = picks
        .iter()
        .flat_map(|&i| files[i].puzzle.as_ref().unwrap().themes.clone())
        .collect();
    assert_eq!(carried.len(), Theme::ALL.len(), "{carried:?}");
    // Not five of one kind: no first theme more than twice.
    for theme in &firsts {
        let n = picks
            .iter()
            .filter(|&&i| first_theme(files[i]) == Some(*theme))
            .count();
        assert!(n <= 2, "{theme}: {n}");
    }
    // Every level, easiest first.
    let levels: Vec<Difficulty> = picks
        .iter()
        .map(|&i| {
            files[i]
                .puzzle
                .as_ref()
                .unwrap()
                .difficulty
                .parse()
                .unwrap()
        })
        .collect();
    assert!(levels.windows(2).all(|w| w[0] <= w[1]), "{levels:?}");
    for level in Difficulty::ALL {
        assert!(levels.contains(&level), "{levels:?}");
    }
    // One page of four: four different first themes.
    let four = theme_mix(&files, 4, &[]);
    let firsts: std::collections::BTreeSet<_> =
        four.iter().filter_map(|&i| first_theme(files[i])).collect();
    assert_eq!(firsts.len(), 4, "{four:?}");
    // Themes asked for, in turn.
    let two = theme_mix(&files, 6, &[Theme::Claim, Theme::DiagonalTrap]);
    let firsts: Vec<_> = two.iter().filter_map(|&i| first_theme(files[i])).collect();
    assert_eq!(
        firsts.iter().filter(|t| **t == Theme::Claim).count(),
        3,
        "{firsts:?}"
    );
    assert_eq!(
        firsts.iter().filter(|t| **t == Theme::DiagonalTrap).count(),
        3
    );
    // Fewer files than asked for: all of them, once each.
    let mut few = theme_mix(&files[..3], 8, &[]);
    few.sort_unstable();
    assert_eq!(few, vec![0, 1, 2]);
}

/// Rec. 601 luma (0-1) of each pixel of `cell`, inset by 4 pixels from its edges, as a
/// greyscale printer or `pdftoppm -gray` sees the picture.
fn luma_of_cell(pixmap: &resvg::tiny_skia::Pixmap, cell: Cell) -> Vec<f64> {
    let (x0, y0) = cell_origin(cell);
    let mut out = Vec::new();
    for y in y0 + 4..y0 + CELL - 4 {
        for x in x0 + 4..x0 + CELL - 4 {
            let p = pixmap.pixel(x, y).expect("inside");
            out.push(
                (0.299 * f64::from(p.red())
                    + 0.587 * f64::from(p.green())
                    + 0.114 * f64::from(p.blue()))
                    / 255.0,
            );
        }
    }
    out
}

#[test]
fn territory_patterns_stay_apart_in_greyscale() {
    // puzzle-001: Light's territory d1, f10, h1, i1, j1; Dark's j5, j7, j8, j10.
    let file = load(Path::new("puzzles/teaching/puzzle-001.yaml")).unwrap();
    let svg = render_print_svg(&file.position, &SvgOptions::default());
    let tree = resvg::usvg::Tree::from_str(&svg, &resvg::usvg::Options::default()).expect("SVG");
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    let light = luma_of_cell(&pixmap, "d1".parse().unwrap());
    let dark = luma_of_cell(&pixmap, "j5".parse().unwrap());
    let range = |v: &[f64]| {
        let min = v.iter().copied().fold(1.0, f64::min);
        let max = v.iter().copied().fold(0.0, f64::max);
        (min, max)
    };
    // Each pattern's ink stands out from its ground by at least 40 % of the grey scale.
    for (who, cells) in [("Light", &light), ("Dark", &dark)] {
        let (min, max) = range(cells);
        assert!(max - min >= 0.4, "{who}: luma {min:.2}..{max:.2}");
    }
    // The two are different shapes, not one pattern in two colours: inked where the other is
    // not on at least a fifth of the cell (each thresholded at its own midpoint).
    let ink = |v: &[f64]| {
        let (min, max) = range(v);
        v.iter()
            .map(|&l| l < (min + max) / 2.0)
            .collect::<Vec<bool>>()
    };
    let (a, b) = (ink(&light), ink(&dark));
    let differ = a.iter().zip(&b).filter(|(x, y)| x != y).count();
    assert!(differ * 5 >= a.len(), "{differ} of {}", a.len());
    // And their mean tones differ: Light's territory reads paler than Dark's.
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    assert!(
        mean(&light) - mean(&dark) >= 0.1,
        "{:.2} vs {:.2}",
        mean(&light),
        mean(&dark)
    );
}

/// A directory holding copies of the shipped puzzles `numbers`.
fn copied(numbers: &[u32]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    for n in numbers {
        let name = format!("puzzle-{n:03}.yaml");
        std::fs::copy(format!("puzzles/teaching/{name}"), dir.path().join(&name)).unwrap();
    }
    dir
}

#[test]
fn the_command_line_takes_the_layout_and_the_selection() {
    let dir = copied(&[1, 2, 3, 4, 5, 46, 62, 67]);
    let html = common::stdout_of(
        cathedral()
            .args(["sheet", "--quiet", "--per-page", "6", "--paper", "letter"])
            .arg(dir.path()),
    );
    assert!(html.contains("@page { size: letter;"));
    assert_eq!(pages(&html).len(), 2, "8 puzzles, 6 a page");
    assert!(html.contains("repeat(3, minmax(0, 1fr))"));
    // The default: a mix, easiest first; not the first files by name.
    let default = common::stdout_of(
        cathedral()
            .args(["sheet", "--quiet", "--count", "4"])
            .arg(dir.path()),
    );
    let pages_text = puzzle_pages(&default);
    assert_eq!(pages_text.matches("<div class=\"puzzle\">").count(), 4);
    for ask in [
        "can you capture?",
        "which squares can you claim?",
        "which building first?",
    ] {
        assert!(pages_text.contains(ask), "the mix lacks {ask:?}");
    }
    // --pick: these, in this order.
    let picked = common::stdout_of(
        cathedral()
            .args(["sheet", "--quiet", "--pick", "puzzle-046,puzzle-005.yaml"])
            .arg(dir.path()),
    );
    let answers = answers(&picked);
    let (a, b) = (
        answers.find("puzzle-046").unwrap(),
        answers.find("puzzle-005").unwrap(),
    );
    assert!(a < b);
    assert_eq!(
        puzzle_pages(&picked)
            .matches("<div class=\"puzzle\">")
            .count(),
        2
    );
    // --theme keeps only those.
    let claims = common::stdout_of(
        cathedral()
            .args(["sheet", "--quiet", "--theme", "claim"])
            .arg(dir.path()),
    );
    assert!(
        answers_of(&claims).iter().all(|t| t.contains("claim")),
        "{:?}",
        answers_of(&claims)
    );
    // --all: every puzzle, by name.
    let all = common::stdout_of(
        cathedral()
            .args(["sheet", "--quiet", "--all"])
            .arg(dir.path()),
    );
    assert_eq!(
        puzzle_pages(&all).matches("<div class=\"puzzle\">").count(),
        8
    );
}

/// The themes line of each answer.
fn answers_of(html: &str) -> Vec<String> {
    answers(html)
        .split("Themes: ")
        .skip(1)
        .map(|t| t[..t.find('.').unwrap()].to_string())
        .collect()
}

#[test]
fn bad_option_values_are_refused_in_words() {
    let dir = copied(&[1, 5]);
    for (args, says) in [
        (&["--per-page", "5"][..], "possible values: 4, 6"),
        (&["--per-page", "four"][..], "possible values: 4, 6"),
        (&["--paper", "a3"][..], "possible values: a4, letter"),
        (&["--count", "0"][..], "--count"),
        (&["--theme", "fork"][..], "`fork` is not a theme"),
        (
            &["--difficulty", "tricky"][..],
            "`tricky` is not a difficulty",
        ),
        (
            &["--pick", "puzzle-001", "--all"][..],
            "cannot be used with",
        ),
        (&["--count", "4", "--all"][..], "cannot be used with"),
    ] {
        cathedral()
            .arg("sheet")
            .arg(dir.path())
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(says));
    }
    cathedral()
        .arg("sheet")
        .arg(dir.path())
        .args(["--pick", "puzzle-002"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains("holds no puzzle `puzzle-002`"));
    cathedral()
        .arg("sheet")
        .arg(dir.path())
        .args(["--theme", "claim"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "no puzzle with the --theme and --difficulty",
        ));
}
