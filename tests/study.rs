//! Studies (`docs/study-format.md`): the course in `puzzles/learn/` passes `study check`, and a
//! study with a wrong or unprovable answer, or a bad move, is refused with the place named.

use crate::common;

use common::cathedral;
use predicates::str::contains;

/// Every study of the course passes: its rules answers agree with the rules engine and its
/// moves are proven best.
#[test]
fn the_course_passes_its_check() {
    let mut files: Vec<_> = std::fs::read_dir("puzzles/learn")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    cathedral()
        .args(["study", "check", "--time-limit", "120"])
        .args(&files)
        .assert()
        .success()
        .stdout(contains("Every answer holds"));
}

fn lesson() -> String {
    std::fs::read_to_string("puzzles/learn/02-walls-and-territory.yaml").unwrap()
}

/// The line (from 1) of the first occurrence of `needle` in `text`.
fn line_of(text: &str, needle: &str) -> usize {
    text.lines().position(|l| l.contains(needle)).unwrap() + 1
}

fn check(text: &str) -> assert_cmd::assert::Assert {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("study.yaml");
    std::fs::write(&path, text).unwrap();
    let assert = cathedral().args(["study", "check"]).arg(&path).assert();
    drop(dir);
    assert
}

#[test]
fn a_wrong_rules_answer_is_refused_where_it_is_written() {
    let text = lesson().replace("    cells: [a1, a2, b1, b2]", "    cells: [a1, a2, b1]");
    let line = line_of(&text, "    cells: [a1, a2, b1]");
    check(&text).code(5).stderr(contains(format!(
        ":{line}:12: chapter 1 (A wall against the board's edge): after dark:bridge:c1,c2,c3, Dark owns a1, a2, b1, b2; the answer leaves out b2"
    )));
    // Saying a diagonal contact claims is wrong too.
    let text = lesson().replace(
        "    after: dark:stable:c1,c2\n    player: dark\n    cells: []",
        "    after: dark:stable:c1,c2\n    player: dark\n    cells: [a1]",
    );
    check(&text)
        .code(5)
        .stderr(contains("Dark owns no cell; not a1"));
}

#[test]
fn a_move_that_is_not_best_is_refused_with_what_it_gives_up() {
    let text = lesson();
    let best = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("answers: ["))
        .unwrap()
        .trim_end_matches(']')
        .to_string();
    // Another legal move of the same position: the first listed by `moves`, if not the best.
    let start = text.find("- title: Close the wall").unwrap();
    let chapter = &text[start..];
    let position_text: String = chapter
        [chapter.find("  start:\n").unwrap() + 9..chapter.find("  question:").unwrap()]
        .lines()
        .map(|l| l.strip_prefix("    ").unwrap_or(l))
        .collect::<Vec<_>>()
        .join("\n");
    let position = cathedral::file::parse_str("p.yaml", &position_text)
        .unwrap()
        .position;
    let mut moves = cathedral::MoveList::default();
    position.legal_moves(&mut moves);
    let other = moves
        .iter()
        .map(|&m| cathedral::notation::format_move_with_player(&position, m))
        .find(|m| *m != best)
        .unwrap();
    let wrong = text.replace(
        &format!("answers: [{best}]"),
        &format!("answers: [{best}, {other}]"),
    );
    check(&wrong).code(5).stderr(contains(format!(
        "`{other}` is not a best move: it gives up"
    )));
}

#[test]
fn bad_studies_are_refused_with_the_place() {
    let cases = [
        (
            lesson().replace("study: Walls", "stdy: Walls"),
            "`stdy` is not a field of a study",
        ),
        (
            lesson().replace("after: dark:bridge:c1,c2,c3", "after: dark:bridge:c1,c2,c4"),
            "cannot be played here",
        ),
        (
            lesson().replace("find: owned", "find: cells"),
            "`cells` is no kind of question",
        ),
        (
            lesson().replace("arrows: [[c3, c1]]", "arrows: [[c3]]"),
            "an arrow has 2 cells",
        ),
        (
            lesson().replace("highlights: [a1, a2, b1, b2]", "highlights: [a1, z9]"),
            "`z9` is not a cell",
        ),
        (
            "study: Empty\nchapters: []\n".to_string(),
            "a study needs at least one chapter",
        ),
        ("chapters:\n- title: t\n".to_string(), "`study` is missing"),
    ];
    for (text, needle) in cases {
        check(&text).code(3).stderr(contains(needle));
    }
}

#[test]
fn an_unprovable_question_says_so() {
    // A find-the-move question at the start of a game cannot be proven in a second.
    let text = "study: Too early\nchapters:\n- title: The first move\n  moves: ['light:cathedral:e4,e5,d6,e6,f6,e7']\n  question:\n    find: move\n    answers: ['dark:castle:a1,a2,b2,c1,c2']\n";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("early.yaml");
    std::fs::write(&path, text).unwrap();
    cathedral()
        .args(["study", "check", "--time-limit", "1"])
        .arg(&path)
        .assert()
        .code(4)
        .stderr(contains("is not proven within 1 s"));
}

/// The content of a study, without where things were written.
fn content(study: &cathedral::file::Study) -> Vec<String> {
    study
        .chapters
        .iter()
        .map(|c| {
            let question = match &c.question {
                Some(cathedral::file::Question::FindMove { answers }) => {
                    format!("move {:?}", answers.iter().map(|a| a.0).collect::<Vec<_>>())
                }
                Some(cathedral::file::Question::Owned {
                    after,
                    player,
                    cells,
                    ..
                }) => format!("owned {after:?} {player:?} {cells:?}"),
                Some(cathedral::file::Question::Legal { moves }) => format!(
                    "legal {:?}",
                    moves.iter().map(|m| (&m.text, m.legal)).collect::<Vec<_>>()
                ),
                Some(cathedral::file::Question::Result { winner, margin, .. }) => {
                    format!("result {winner:?} {margin}")
                }
                None => "none".to_string(),
            };
            format!(
                "{}|{}|{:?}|{:?}|{:?}|{:?}|{:?}|{question}",
                c.title, c.text, c.start, c.moves, c.position, c.arrows, c.highlights
            )
        })
        .collect()
}

#[test]
fn a_study_written_back_reads_the_same() {
    for file in [
        "00-the-object-of-the-game",
        "02-walls-and-territory",
        "01-placing-buildings",
        "03-the-first-move",
        "05-passing-and-the-end",
        "06-first-plans",
    ] {
        written_back_reads_the_same(
            &std::fs::read_to_string(format!("puzzles/learn/{file}.yaml")).unwrap(),
        );
    }
}

fn written_back_reads_the_same(text: &str) {
    let read = cathedral::file::parse_study("a.yaml", text).unwrap();
    let written = cathedral::file::study_to_yaml(&read);
    let again = cathedral::file::parse_study("b.yaml", &written)
        .unwrap_or_else(|e| panic!("{e}\n{written}"));
    assert_eq!(content(&again), content(&read));
    assert_eq!(
        (&again.title, &again.description, &again.author),
        (&read.title, &read.description, &read.author)
    );
    assert_eq!(
        cathedral::file::study_to_yaml(&again),
        written,
        "writing is stable"
    );
}

#[test]
fn a_study_starts_from_a_records_marked_and_commented_moves() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("s.yaml");
    cathedral()
        .args(["study", "new", "--from", "puzzles/games/example.yaml", "-o"])
        .arg(&out)
        .assert()
        .success()
        .stdout(contains("1 chapter"));
    let study = cathedral::file::load_study(&out).unwrap();
    let record = &cathedral::file::load_records(std::path::Path::new("puzzles/games/example.yaml"))
        .unwrap()[0];
    let commented: Vec<usize> = record
        .moves
        .iter()
        .enumerate()
        .filter(|(_, m)| m.comment.is_some() || m.mark.is_some())
        .map(|(i, _)| i)
        .collect();
    assert_eq!(study.chapters.len(), commented.len());
    // The chapter's position is the one before the commented move.
    let chapter = &study.chapters[0];
    assert_eq!(chapter.moves.len(), commented[0]);
    assert!(
        chapter.text.contains("a corner claim in the making"),
        "{}",
        chapter.text
    );
    // Nothing is overwritten without --force; a game the record lacks is named.
    cathedral()
        .args(["study", "new", "--from", "puzzles/games/example.yaml", "-o"])
        .arg(&out)
        .assert()
        .failure()
        .stderr(contains("--force"));
    cathedral()
        .args([
            "study",
            "new",
            "--from",
            "puzzles/games/example.yaml",
            "--game",
            "2",
        ])
        .assert()
        .code(3)
        .stderr(contains("holds 1 game: --game 2 is not one of them"));
}

#[test]
fn moves_with_commas_are_written_so_that_they_read_back() {
    // A question whose answer covers several cells (the Bridge of the first lesson's chapter).
    let text = lesson();
    let read = cathedral::file::parse_study("a.yaml", &text).unwrap();
    let mut study = read.clone();
    let first = &mut study.chapters[0];
    let after = match &first.question {
        Some(cathedral::file::Question::Owned { after, .. }) => *after,
        _ => panic!("the first chapter asks which cells"),
    };
    first.question = Some(cathedral::file::Question::FindMove {
        answers: vec![(after, cathedral::file::Location::default())],
    });
    let written = cathedral::file::study_to_yaml(&study);
    let again = cathedral::file::parse_study("b.yaml", &written)
        .unwrap_or_else(|e| panic!("{e}\n{written}"));
    assert_eq!(content(&again), content(&study));
}

fn placing() -> String {
    std::fs::read_to_string("puzzles/learn/01-placing-buildings.yaml").unwrap()
}

fn the_end() -> String {
    std::fs::read_to_string("puzzles/learn/05-passing-and-the-end.yaml").unwrap()
}

/// A rules question's answer that the rules engine contradicts is refused where it is
/// written, with the rule that decides it.
#[test]
fn a_wrong_legal_or_result_answer_is_refused_where_it_is_written() {
    // A move the rules refuse, listed as legal.
    let text = placing().replacen(
        "    legal:\n    - light:cathedral:e5,f4,f5,f6,f7,g5\n",
        "    legal:\n    - light:cathedral:e5,f4,f5,f6,f7,g5\n    - light:tavern:j10\n",
        1,
    );
    let line = line_of(&text, "    - light:tavern:j10");
    check(&text).code(5).stderr(contains(format!(
        ":{line}:7: chapter 1 (The Cathedral comes first): `light:tavern:j10` is not legal here (Light must place the Cathedral before this building), but the study lists it under `legal:`"
    )));
    // A legal move listed as illegal.
    let text = placing().replacen(
        "    illegal:\n    - light:tavern:a1\n",
        "    illegal:\n    - light:tavern:a1\n    - light:cathedral:b5,c4,c5,c6,c7,d5\n",
        1,
    );
    check(&text)
        .code(5)
        .stderr(contains("`light:cathedral:b5,c4,c5,c6,c7,d5` is legal here, but the study lists it under `illegal:`"));
    // The wrong winner, and the wrong margin.
    let text = the_end().replacen(
        "    winner: dark\n    margin: 7",
        "    winner: light\n    margin: 7",
        1,
    );
    check(&text).code(5).stderr(contains(
        "the game ends Dark wins by 7 squares; the study says Light wins by 7 squares",
    ));
    let text = the_end().replacen(
        "    winner: dark\n    margin: 7",
        "    winner: dark\n    margin: 6",
        1,
    );
    check(&text)
        .code(5)
        .stderr(contains("the study says Dark wins by 6 squares"));
}

#[test]
fn bad_rules_questions_are_refused_with_the_place() {
    let cases = [
        (
            placing().replacen("    - dark:tavern:a1", "    - dark:bridge:a1,a2,b3", 1),
            "`dark:bridge:a1,a2,b3`: these cells are not the shape of the Bridge, however it is turned",
        ),
        (
            placing().replacen("    - dark:tavern:a1", "    - tavern:b7", 1),
            "`tavern:b7` names no player",
        ),
        (
            placing().replacen("    - dark:tavern:a1", "    - light:tavern:a1", 1),
            "this move is listed twice",
        ),
        (
            placing().replacen("    find: legal\n", "    find: legal\n    winner: dark\n", 1),
            "`winner` does not belong to a `find: legal` question",
        ),
        (
            // A result asked before the end of the game.
            the_end().replacen("    find: legal\n", "    find: result\n    winner: dark\n    margin: 1\n", 1)
                .replacen("    legal:\n    - light:pass\n    illegal:\n    - light:bridge:j6,j7,j8\n    - dark:bridge:j6,j7,j8\n", "", 1),
            "a `find: result` question is asked where the game is over; in this chapter's position Light can still move",
        ),
        (
            the_end().replacen("    winner: dark\n    margin: 7", "    winner: draw\n    margin: 7", 1),
            "a draw has margin 0",
        ),
        (
            the_end().replacen("    winner: dark\n    margin: 7", "    winner: nobody\n    margin: 7", 1),
            "`nobody` is no result",
        ),
    ];
    for (text, needle) in cases {
        check(&text).code(3).stderr(contains(needle));
    }
}

/// A move of `answers:`, `after:` or `moves:` written without its player is refused where it
/// is written, as under `legal:`, saying how to write it.
#[test]
fn a_move_without_its_player_is_refused_where_it_is_written() {
    let cases = [
        (
            lesson().replace("answers: [dark:tavern:g5]", "answers: [tavern:g5]"),
            "answers: [tavern:g5]",
            "chapter 4.question.answers: `tavern:g5` names no player: a study writes every move with its player, like `dark:tavern:g5` (Dark is to move here)",
        ),
        (
            lesson().replace("after: dark:bridge:c1,c2,c3", "after: bridge:c1,c2,c3"),
            "after: bridge:c1,c2,c3",
            "chapter 1.question.after: `bridge:c1,c2,c3` names no player: a study writes every move with its player, like `dark:bridge:c1,c2,c3` (Dark is to move here)",
        ),
        (
            std::fs::read_to_string("puzzles/learn/03-the-first-move.yaml")
                .unwrap()
                .replace("  - light:tavern:j5", "  - tavern:j5"),
            "  - tavern:j5",
            "chapter 2.moves: `tavern:j5` names no player: a study writes every move with its player, like `light:tavern:j5` (Light is to move here)",
        ),
    ];
    for (text, written, message) in cases {
        let line = line_of(&text, written);
        check(&text)
            .code(3)
            .stderr(contains(format!(":{line}:")))
            .stderr(contains(message));
    }
}

/// A position where Dark's last Tavern is as good on every free square: Light has nothing
/// left to place, so each Tavern ends the game with nothing unplaced on either side. Its
/// question accepts `answers`.
fn any_square_will_do(answers: &[String]) -> String {
    let mut text = String::from(
        "study: Many best moves\nchapters:\n- title: Any free square\n  start:\n    rules: classic\n    to_move: dark\n    cathedral: [e5, f4, f5, f6, f7, g5]\n    light:\n      buildings:\n      - tavern: [a1]\n      hand: {}\n    dark:\n      buildings:\n      - tavern: [j10]\n      hand: {tavern: 1}\n  question:\n    find: move\n    answers:\n",
    );
    for answer in answers {
        text.push_str(&format!("    - {answer}\n"));
    }
    text
}

/// Every free square of `any_square_will_do`, as Dark's Tavern moves, rank by rank (the order
/// in which the rules list them).
fn free_taverns() -> Vec<String> {
    let taken = ["a1", "j10", "e5", "f4", "f5", "f6", "f7", "g5"];
    let mut moves = Vec::new();
    for rank in 1..=10 {
        for file in 'a'..='j' {
            let cell = format!("{file}{rank}");
            if !taken.contains(&cell.as_str()) {
                moves.push(format!("dark:tavern:{cell}"));
            }
        }
    }
    moves
}

/// A "find the move" question that accepts a few of many equally best moves teaches nothing:
/// it is refused with the count, unless it leaves at most 3 best moves unaccepted; the table
/// names a few of the best moves it leaves out and says how many more there are.
#[test]
fn a_question_that_accepts_few_of_many_best_moves_is_refused() {
    let free = free_taverns();
    let all = free.len();
    assert_eq!(all, 92);
    let line = line_of(&any_square_will_do(&free[..2]), "    - dark:tavern:b1");
    check(&any_square_will_do(&free[..2]))
        .code(5)
        .stderr(contains(format!(
            ":{line}:7: chapter 1 (Any free square): the question accepts 2 of 92 equally best moves: accept every best move or choose a position where the best move stands out (a question may leave at most 3 best moves unaccepted)"
        )))
        .stdout(contains(
            "92 best moves, 2 accepted; also best: dark:tavern:d1, dark:tavern:e1, dark:tavern:f1 and 87 more",
        ));
    // Four left out: refused; three: accepted, each named.
    check(&any_square_will_do(&free[..all - 4]))
        .code(5)
        .stderr(contains("the question accepts 88 of 92 equally best moves"));
    check(&any_square_will_do(&free[..all - 3]))
        .success()
        .stdout(contains(
            "92 best moves, 89 accepted; also best: dark:tavern:g10, dark:tavern:h10, dark:tavern:i10",
        ))
        .stdout(contains("Every answer holds: 1 question proven."));
    check(&any_square_will_do(&free)).success();
}

/// A chapter's `shapes:` (issue 75) read as a record's, written back the same, refused at its
/// place when bad; `study new --from` a record carries the shapes drawn on each chapter's
/// position (the previous move's, the start's), a position with shapes making a chapter.
#[test]
fn shapes_come_from_records_and_round_trip_in_studies() {
    let text = "study: Shapes\nchapters:\n- title: Drawn\n  moves:\n  - light:cathedral:e5,f4,f5,f6,f7,g5\n  shapes: [c3, red:c3-c7]\n";
    let study = cathedral::file::parse_study("a.yaml", text).unwrap();
    let shapes: Vec<String> = study.chapters[0]
        .shapes
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(shapes, ["c3", "red:c3-c7"]);
    let written = cathedral::file::study_to_yaml(&study);
    assert!(written.contains("  shapes: [c3, red:c3-c7]\n"), "{written}");
    let again = cathedral::file::parse_study("b.yaml", &written).unwrap();
    assert_eq!(again.chapters[0].shapes, study.chapters[0].shapes);
    assert_eq!(content(&again), content(&study));
    let bad = cathedral::file::parse_study("a.yaml", &text.replace("red:c3-c7", "red:c3-c11"))
        .unwrap_err();
    assert_eq!((bad.line, bad.column), (Some(6), Some(16)), "{bad}");
    assert!(
        bad.message
            .contains("chapter 1.shapes: `red:c3-c11` is not a shape"),
        "{bad}"
    );
    let record = cathedral::file::parse_records(
        "game.yaml",
        "shapes: [e5]\nmoves:\n- light:cathedral:e5,f4,f5,f6,f7,g5\n- move: dark:castle:b2,b3,c2,d2,d3\n  shapes: [a1, blue:h9-h5]\n- light:infirmary:h2,i1,i2,i3,j2\n- dark:inn:h9,h10,i10 ?\n",
    )
    .unwrap();
    let from = cathedral::file::study_from_record(&record[0], "From a game");
    let chapters: Vec<(String, Vec<String>)> = from
        .chapters
        .iter()
        .map(|c| {
            (
                c.title.clone(),
                c.shapes.iter().map(ToString::to_string).collect(),
            )
        })
        .collect();
    assert_eq!(
        chapters,
        [
            ("Move 1".to_string(), vec!["e5".to_string()]),
            (
                "Move 3".to_string(),
                vec!["a1".to_string(), "blue:h9-h5".to_string()]
            ),
            ("Move 4".to_string(), vec![]),
        ]
    );
}
