//! `cathedral generate`, `check`, `render`, `sheet` and `index` from the command line, with the
//! diagrams rendered to pixels.

use cathedral::MoveList;
use cathedral::draw::svg::{CELL, cell_origin, colours};
use cathedral::file::{PositionFile, load};
use cathedral::legality::parse_move;
use cathedral::notation::format_move_with_player;
use cathedral::puzzle::sheet_question;
use cathedral::table;
use cathedral::{Cell, Player};
use predicates::prelude::*;
use std::path::Path;
use std::sync::OnceLock;

use crate::common;

use common::cathedral;

/// Two generated puzzles, shared by the tests (generated once).
fn puzzles() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().expect("temp dir");
        cathedral()
            .args([
                "generate",
                "--count",
                "2",
                "--seed",
                "3",
                "--threads",
                "1",
                "-o",
            ])
            .arg(dir.path())
            .assert()
            .success()
            .stdout(predicate::str::contains("2 puzzles in"));
        dir
    })
    .path()
}

fn puzzle(n: usize) -> (std::path::PathBuf, PositionFile) {
    let path = puzzles().join(format!("puzzle-{n:03}.yaml"));
    let file = load(&path).unwrap_or_else(|e| panic!("{e}"));
    (path, file)
}

fn best_move_text(file: &PositionFile) -> String {
    file.solution
        .as_ref()
        .and_then(|s| s.best_move.clone())
        .expect("stored best move")
}

#[test]
fn generate_writes_puzzles_and_an_index_and_never_overwrites() {
    let dir = puzzles();
    for n in 1..=2 {
        let (_, file) = puzzle(n);
        let p = file.puzzle.as_ref().expect("puzzle block");
        assert!(p.question.contains(" to play and "), "{}", p.question);
        assert!(
            file.solution
                .as_ref()
                .is_some_and(|s| !s.explanations.is_empty())
        );
    }
    let index = std::fs::read_to_string(dir.join("README.md")).expect("index");
    assert!(index.contains("[puzzle-001.yaml](puzzle-001.yaml)"));
    assert!(index.contains("[puzzle-002.yaml](puzzle-002.yaml)"));
    cathedral()
        .args(["generate", "--count", "1", "--seed", "3", "-o"])
        .arg(dir)
        .assert()
        .failure()
        .stderr(predicate::str::contains("not overwriting"));
    // `index` may rewrite its own README, not a hand-written one.
    cathedral().arg("index").arg(dir).assert().success();
    let other = tempfile::tempdir().expect("temp dir");
    std::fs::copy(dir.join("puzzle-001.yaml"), other.path().join("a.yaml")).unwrap();
    std::fs::write(other.path().join("README.md"), "mine\n").unwrap();
    cathedral()
        .arg("index")
        .arg(other.path())
        .assert()
        .failure()
        .stderr(predicate::str::contains("not overwriting"));
    assert_eq!(
        std::fs::read_to_string(other.path().join("README.md")).unwrap(),
        "mine\n"
    );
}

#[test]
fn check_accepts_the_answer_and_refutes_another_move() {
    let (path, file) = puzzle(1);
    let best = best_move_text(&file);
    cathedral()
        .arg("check")
        .arg(&path)
        .arg(&best)
        .assert()
        .success()
        .stdout(predicate::str::starts_with("Correct: "));
    // Another placement: any legal move of a different placement.
    let position = file.position;
    let best_mv = parse_move(&position, &best).unwrap();
    let mut list = MoveList::new();
    position.legal_moves(&mut list);
    let other = list
        .iter()
        .copied()
        .find(|m| m.placement() != best_mv.placement())
        .expect("another move");
    let other_text = format_move_with_player(&position, other);
    let out = cathedral()
        .arg("check")
        .arg(&path)
        .arg(&other_text)
        .assert()
        // 5: a wrong answer (not an error).
        .code(5)
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    assert!(out.starts_with("Not the answer: "), "{out}");
    assert!(out.contains("gives away"), "{out}");
    assert!(out.contains(&format!("The answer: {best}")), "{out}");
    let opponent = position.to_move().opponent();
    if out.contains("refutation") {
        assert!(out.contains(&format!("1. {}:", opponent.name())), "{out}");
    }
    // Bad input: an error, not a panic.
    cathedral()
        .arg("check")
        .arg(&path)
        .arg("dark:castle:a1")
        .assert()
        .failure()
        .stderr(predicate::str::contains("cannot be played"));
}

struct Picture(resvg::tiny_skia::Pixmap);

impl Picture {
    fn load(path: &Path) -> Picture {
        let svg = std::fs::read_to_string(path).expect("svg");
        let tree =
            resvg::usvg::Tree::from_str(&svg, &resvg::usvg::Options::default()).expect("valid SVG");
        let size = tree.size().to_int_size();
        let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
        resvg::render(
            &tree,
            resvg::tiny_skia::Transform::default(),
            &mut pixmap.as_mut(),
        );
        Picture(pixmap)
    }

    fn at(&self, x: u32, y: u32) -> String {
        let p = self.0.pixel(x, y).expect("inside");
        format!("#{:02x}{:02x}{:02x}", p.red(), p.green(), p.blue())
    }

    fn cell(&self, cell: Cell) -> String {
        let (x, y) = cell_origin(cell);
        self.at(x + CELL / 4, y + CELL * 3 / 4)
    }
}

#[test]
fn render_draws_the_puzzle_and_outlines_the_solution() {
    let (path, file) = puzzle(1);
    let out = tempfile::tempdir().expect("temp dir");
    let svg = out.path().join("p.svg");
    cathedral()
        .arg("render")
        .arg(&path)
        .arg("-o")
        .arg(&svg)
        .arg("--solution")
        .assert()
        .success();
    let picture = Picture::load(&svg);
    let position = file.position;
    for building in position.buildings() {
        let want = match building.owner {
            Some(Player::Light) => colours::LIGHT,
            Some(Player::Dark) => colours::DARK,
            None => colours::CATHEDRAL,
        };
        for cell in building.cells.cells() {
            assert_eq!(picture.cell(cell), want, "{building} at {cell}");
        }
    }
    // The answer's cells: empty, outlined in the highlight colour on their left edge where the
    // cell to the left is not part of the move.
    let best = parse_move(&position, &best_move_text(&file)).unwrap();
    let mask = table().get(best.placement().expect("a placement")).mask;
    let mut outlined = 0;
    for cell in mask.cells() {
        let left_outside = cell.file() == 0
            || Cell::new(cell.file() - 1, cell.rank()).is_some_and(|l| !mask.contains(l));
        if left_outside {
            let (x, y) = cell_origin(cell);
            assert_eq!(
                picture.at(x, y + CELL / 2),
                colours::HIGHLIGHT,
                "edge of {cell}"
            );
            outlined += 1;
        }
    }
    assert!(outlined > 0);
    // Never overwrites without --force; --force does.
    cathedral()
        .arg("render")
        .arg(&path)
        .arg("-o")
        .arg(&svg)
        .assert()
        .failure()
        .stderr(predicate::str::contains("not overwriting"));
    cathedral()
        .arg("render")
        .arg(&path)
        .arg("-o")
        .arg(&svg)
        .args(["--force", "--no-hands", "--caption", "Dark to play"])
        .assert()
        .success();
    // Without a highlight, the same edge is not red.
    let plain = Picture::load(&svg);
    let cell = mask.cells().next().unwrap();
    let (x, y) = cell_origin(cell);
    assert_ne!(plain.at(x, y + CELL / 2), colours::HIGHLIGHT);
    // A bad move is an error.
    cathedral()
        .arg("render")
        .arg(&path)
        .arg("-o")
        .arg(out.path().join("q.svg"))
        .args(["--move", "nonsense"])
        .assert()
        .failure();
}

#[test]
fn sheet_has_every_diagram_question_and_answer() {
    let dir = puzzles();
    let out = tempfile::tempdir().expect("temp dir");
    let html = out.path().join("sheet.html");
    cathedral()
        .arg("sheet")
        .arg(dir)
        .arg("-o")
        .arg(&html)
        .assert()
        .success();
    let text = std::fs::read_to_string(&html).unwrap();
    assert_eq!(text.matches("<div class=\"board\"><svg ").count(), 2);
    assert!(text.contains("page-break-before: always"));
    assert!(text.contains("grid-template-columns: repeat(2, minmax(0, 1fr))"));
    let answers = &text[text.find("class=\"answers\"").expect("answers section")..];
    for n in 1..=2 {
        let (_, file) = puzzle(n);
        assert!(text.contains(&sheet_question(&file)));
        assert!(answers.contains(&best_move_text(&file)));
    }
    assert_eq!(answers.matches("Tempting but wrong").count(), 2);
    let bare = cathedral()
        .arg("sheet")
        .arg(dir)
        .arg("--no-refutations")
        .assert()
        .success();
    let bare = String::from_utf8_lossy(&bare.get_output().stdout).into_owned();
    assert!(bare.contains("class=\"answers\"") && !bare.contains("Tempting but wrong"));
    cathedral()
        .args(["sheet", "--time-limit", "0"])
        .arg(dir)
        .assert()
        .code(2);
    cathedral()
        .arg("sheet")
        .arg(dir)
        .arg("-o")
        .arg(&html)
        .assert()
        .failure()
        .stderr(predicate::str::contains("not overwriting"));
}
