//! The printable worksheet: readable sizes, the hands as text, and answers that say why.

use cathedral::file::{PositionFile, load};
use cathedral::present::words::result_phrase;
use cathedral::puzzle::{AnalyseOptions, TryKind, greedy_choices, solve_line, wrong_try};
use cathedral::puzzle::{SheetPuzzle, sheet_html};
use std::path::Path;

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
    let html = sheet_html("Test", &puzzles);
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
    let html = sheet_html("Test", &puzzles);
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
    );
    let text = outside_diagrams(&html);
    assert!(text.contains("Cathedral - to place"), "{text}");
    assert!(text.contains("47 squares unplaced"));
}

#[test]
fn each_answer_refutes_the_most_tempting_wrong_move() {
    // 001 and 003: the greedy player finds the answer; the others: it does not.
    let puzzles = puzzles(&[1, 3, 5, 11, 40, 72]);
    let html = sheet_html("Test", &puzzles);
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
