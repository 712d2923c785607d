//! Game records: reading with every move checked and errors located, canonical writing, round
//! trips, fragments from a start position, the records `match` writes, annotation marks and
//! variations.

use cathedral::file::{GameRecord, Mark, RecordedMove, parse_records, records_to_yaml};
use cathedral::{Player, Position, Rules};

fn read(text: &str) -> Vec<GameRecord> {
    parse_records("game.yaml", text).unwrap_or_else(|e| panic!("{e}"))
}

fn error_of(text: &str) -> cathedral::file::FileError {
    parse_records("game.yaml", text).expect_err("must be refused")
}

#[test]
fn the_hand_written_example_reads_and_round_trips() {
    let text = std::fs::read_to_string("puzzles/games/example.yaml").unwrap();
    let games = read(&text);
    assert_eq!(games.len(), 1);
    let game = &games[0];
    assert_eq!(game.light.as_deref(), Some("Ann"));
    assert_eq!(game.round.as_deref(), Some("3"));
    assert_eq!(game.moves.len(), 4);
    assert_eq!(
        game.moves[2].comment.as_deref(),
        Some("a corner claim in the making")
    );
    assert_eq!(game.result(), None, "four moves do not end a game");
    let canonical = records_to_yaml(&games);
    let again = read(&canonical);
    assert_eq!(again, games);
    assert_eq!(records_to_yaml(&again), canonical, "writing is canonical");
}

/// Plays policy games to the end and returns them as records.
fn policy_games(count: u64, rules: Rules) -> Vec<GameRecord> {
    (0..count)
        .map(|seed| {
            let mut rng = cathedral::boardgame::Rng::new(seed);
            let positions = cathedral::policy::play_game(
                Position::new(rules),
                &cathedral::policy::Policy::default(),
                &mut rng,
                |_, _| false,
            );
            // Recover each move from consecutive positions.
            let mut moves = Vec::new();
            for pair in positions.windows(2) {
                let mut list = cathedral::MoveList::new();
                pair[0].legal_moves(&mut list);
                let mv = *list
                    .iter()
                    .find(|&&m| {
                        let mut p = pair[0];
                        p.play(m);
                        p == pair[1]
                    })
                    .expect("a move leads there");
                moves.push(cathedral::file::RecordedMove::new(mv));
            }
            GameRecord {
                light: Some(format!("policy seed {seed}")),
                dark: Some("policy".into()),
                rules,
                moves,
                ..GameRecord::default()
            }
        })
        .collect()
}

#[test]
fn whole_games_round_trip_with_their_results_under_every_preset() {
    for rules in Rules::PRESETS.map(|(_, rules)| rules) {
        let games = policy_games(6, rules);
        let text = records_to_yaml(&games);
        assert_eq!(text.matches("\n---\n").count(), 5, "six documents");
        assert_eq!(
            text.matches("result:").count(),
            6,
            "every finished game states its result"
        );
        let again = read(&text);
        assert_eq!(again, games);
        for game in &again {
            let end = game.final_position();
            assert!(end.is_game_over());
            assert_eq!(
                game.result(),
                Some((
                    end.unplaced_squares(Player::Light),
                    end.unplaced_squares(Player::Dark)
                ))
            );
        }
    }
}

#[test]
fn a_fragment_starts_from_a_position_and_keeps_it() {
    let start = std::fs::read_to_string("puzzles/bench/t5-01.yaml").unwrap();
    let indented: String = start
        .lines()
        .take_while(|l| !l.starts_with("solution:"))
        .map(|l| format!("  {l}\n"))
        .collect();
    let text = format!("light: Ann\nstart:\n{indented}moves:\n- dark:stable:a1,b1\n");
    let games = read(&text);
    assert_eq!(games[0].start.map(|p| p.to_move()), Some(Player::Dark));
    assert_eq!(games[0].moves.len(), 1);
    let again = read(&records_to_yaml(&games));
    assert_eq!(again, games);
}

#[test]
fn bad_records_are_refused_at_the_offending_move_with_the_reason() {
    // An illegal move: located at its line and column, numbered, with the reason.
    let error =
        error_of("light: Ann\nmoves:\n- light:cathedral:e5,f4,f5,f6,f7,g5\n- dark:inn:e5,e6,d6\n");
    assert_eq!((error.line, error.column), (Some(4), Some(3)), "{error}");
    assert!(
        error
            .message
            .contains("move 2 (`dark:inn:e5,e6,d6`) cannot be played"),
        "{error}"
    );
    assert!(error.message.contains("Cathedral"), "{error}");
    // The second game of a file is named as such, at its own line.
    let error = error_of(
        "moves:\n- light:cathedral:e5,f4,f5,f6,f7,g5\n---\nmoves:\n- light:cathedral:e5,f4,f5,f6,f7,g5\n- light:inn:a1,a2,b2\n",
    );
    assert_eq!(error.line, Some(6), "{error}");
    assert!(error.message.starts_with("game 2: move 2"), "{error}");
    // A number that is not the move's.
    let error =
        error_of("moves:\n- 1. light:cathedral:e5,f4,f5,f6,f7,g5\n- 3. dark:inn:a1,a2,b2\n");
    assert!(
        error.message.contains("numbered 3, but it is move 2"),
        "{error}"
    );
    // A result that the moves contradict, and one for an unfinished game.
    let games = policy_games(1, Rules::CLASSIC);
    let text = records_to_yaml(&games);
    let (light, dark) = games[0].result().unwrap();
    let wrong = text.replace(
        &format!("  light: {light}\n  dark: {dark}\n"),
        &format!("  light: {}\n  dark: {dark}\n", light + 1),
    );
    assert_ne!(wrong, text);
    let error = error_of(&wrong);
    assert!(error.message.contains("but the moves end with"), "{error}");
    let error =
        error_of("moves:\n- light:cathedral:e5,f4,f5,f6,f7,g5\nresult: {light: 0, dark: 0}\n");
    assert!(error.message.contains("the game is not over"), "{error}");
    // Unknown fields, a Dark Cathedral, no game at all, rules given twice.
    let error = error_of("players: [Ann, Bob]\nmoves: []\n");
    assert!(
        error.message.contains("is not a field of a game"),
        "{error}"
    );
    let error = error_of("cathedral: dark\nmoves: []\n");
    assert!(
        error.message.contains("Light places the Cathedral"),
        "{error}"
    );
    let error = error_of("# nothing here\n");
    assert!(error.message.contains("holds no game"), "{error}");
    let error =
        error_of("rules: classic\nstart:\n  rules: moore1978\n  to_move: light\nmoves: []\n");
    assert!(error.message.contains("rules are given twice"), "{error}");
    let error = error_of("moves:\n- move: light:cathedral:e5,f4,f5,f6,f7,g5\n  note: hi\n");
    assert!(
        error.message.contains("is not a field of a move"),
        "{error}"
    );
}

#[test]
fn the_independent_engines_games_convert_to_records_that_round_trip() {
    let text = std::fs::read_to_string("tests/data/independent-games.jsonl").unwrap();
    let games = cathedral::file::records_from_independent("independent-games.jsonl", &text)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(games.len(), 29);
    for (game, line) in games.iter().zip(text.lines()) {
        let json: serde_json::Value = serde_json::from_str(line).unwrap();
        let stated = &json["final"]["unplaced_squares"];
        let (light, dark) = game.result().expect("every recorded game is finished");
        assert_eq!(u64::from(light), stated["light"].as_u64().unwrap());
        assert_eq!(u64::from(dark), stated["dark"].as_u64().unwrap());
        assert_eq!(game.moves.len(), json["moves"].as_array().unwrap().len());
    }
    let yaml = records_to_yaml(&games);
    assert_eq!(read(&yaml), games);
    // Back to a plain move list and in again: the same games.
    let list: String = games
        .iter()
        .map(|g| g.move_texts().join("\n"))
        .collect::<Vec<_>>()
        .join("\n---\n");
    let again = cathedral::file::records_from_move_list("list.txt", &list, Rules::CLASSIC)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(again.len(), 29);
    for (a, b) in again.iter().zip(&games) {
        assert_eq!(a.moves, b.moves);
    }
}

#[test]
fn move_lists_take_numbers_and_comments_and_refuse_a_bad_move_at_its_place() {
    let games = cathedral::file::records_from_move_list(
        "list.txt",
        "# a game\n1. light:cathedral:e5,f4,f5,f6,f7,g5\n2. dark:castle:b2,b3,c2,d2,d3 # solid\n",
        Rules::CLASSIC,
    )
    .unwrap();
    assert_eq!(games[0].moves.len(), 2);
    let error = cathedral::file::records_from_move_list(
        "list.txt",
        "light:cathedral:e5,f4,f5,f6,f7,g5\n  dark:inn:e5,e6,d6\n",
        Rules::CLASSIC,
    )
    .unwrap_err();
    assert_eq!((error.line, error.column), (Some(2), Some(3)), "{error}");
    assert!(error.message.contains("game 1, move 2"), "{error}");
    let error =
        cathedral::file::records_from_independent("x.jsonl", "{\"moves\": 3}\n").unwrap_err();
    assert_eq!(error.line, Some(1));
    assert!(error.message.contains("not a recorded game"), "{error}");
}

/// Reads `text`, writes it, reads and writes again: the same games and the same text.
fn round_trip(name: &str, games: &[GameRecord]) -> String {
    let canonical = records_to_yaml(games);
    let again = parse_records(name, &canonical)
        .unwrap_or_else(|e| panic!("{name}: the canonical text does not read: {e}\n{canonical}"));
    assert_eq!(
        again, games,
        "{name}: the games read back differ\n{canonical}"
    );
    assert_eq!(
        records_to_yaml(&again),
        canonical,
        "{name}: writing is canonical"
    );
    canonical
}

/// The first moves of `puzzles/games/example.yaml`, and alternatives to them.
const CATHEDRAL: &str = "light:cathedral:e5,f4,f5,f6,f7,g5";
const CASTLE: &str = "dark:castle:b2,b3,c2,d2,d3";
const INFIRMARY: &str = "light:infirmary:h2,i1,i2,i3,j2";

#[test]
fn marks_are_read_after_the_move_or_as_mark_and_written_in_the_short_form() {
    let text = format!(
        "moves:\n- 1. {CATHEDRAL} !?\n- move: 2. {CASTLE}\n  mark: \"??\"\n- {INFIRMARY}!\n- dark:inn:a10,a9,b9 dubious\n- move: light:inn:j10,j9,i9\n  mark: brilliant\n  comment: the last corner\n- dark:inn:a1,a2,b1 ?\n"
    );
    let games = read(&text);
    let marks: Vec<Option<Mark>> = games[0].moves.iter().map(|m| m.mark).collect();
    assert_eq!(
        marks,
        [
            Some(Mark::Interesting),
            Some(Mark::Blunder),
            Some(Mark::Good),
            Some(Mark::Dubious),
            Some(Mark::Brilliant),
            Some(Mark::Mistake)
        ]
    );
    assert_eq!(
        games[0].moves[4].comment.as_deref(),
        Some("the last corner")
    );
    // The short form when a move has a mark and nothing else; the map with `mark:` quoted when
    // it has a comment too.
    let canonical = round_trip("marks", &games);
    assert_eq!(
        canonical,
        format!(
            "rules: classic\nmoves:\n- {CATHEDRAL} !?\n- {CASTLE} ??\n- {INFIRMARY} !\n- dark:inn:a9,a10,b9 ?!\n- move: light:inn:i9,j9,j10\n  comment: the last corner\n  mark: \"!!\"\n- dark:inn:a1,a2,b1 ?\n"
        )
    );
    // Every glyph and word, and the glyph written back.
    for mark in Mark::ALL {
        assert_eq!(mark.glyph().parse::<Mark>(), Ok(mark));
        assert_eq!(mark.word().parse::<Mark>(), Ok(mark));
        assert_eq!(mark.to_string(), mark.glyph());
    }
    let error = "!!!".parse::<Mark>().unwrap_err().to_string();
    assert!(
        error.contains("expected `!`, `?`, `!?`, `?!`, `!!` or `??`"),
        "{error}"
    );
}

#[test]
fn variations_nest_are_numbered_from_their_branch_and_leave_the_main_line_alone() {
    // A variation is an alternative to its move: played from the position before it, its first
    // move numbered as the move it replaces.
    let text = format!(
        "moves:
- 1. {CATHEDRAL}
- move: 2. {CASTLE}
  comment: solid
  variations:
  - - 2. dark:inn:a1,a2,b2 ?!
    - move: 3. light:inn:j10,j9,i9
      variations:
      - - 3. light:tavern:j1
        - 4. dark:tavern:a10 !
  - - dark:inn:a10,a9,b9
- 3. {INFIRMARY}
"
    );
    let games = read(&text);
    let game = &games[0];
    assert_eq!(game.moves.len(), 3, "variations are not moves of the game");
    assert_eq!(game.move_texts()[2], INFIRMARY);
    assert_eq!(game.positions().len(), 4);
    let castle = &game.moves[1];
    assert_eq!(castle.comment.as_deref(), Some("solid"));
    assert_eq!(castle.variations.len(), 2);
    let first = &castle.variations[0];
    assert_eq!(first.len(), 2);
    assert_eq!(first[0].mark, Some(Mark::Dubious));
    assert_eq!(first[1].variations.len(), 1);
    assert_eq!(first[1].variations[0][1].mark, Some(Mark::Good));
    // The nested variation starts where the move it replaces was played: after 1. and 2. of its
    // enclosing variation.
    let mut position = Position::new(Rules::CLASSIC);
    position.play(game.moves[0].mv);
    position.play(first[0].mv);
    let mut list = cathedral::MoveList::new();
    position.legal_moves(&mut list);
    assert!(list.iter().any(|&m| m == first[1].variations[0][0].mv));
    let canonical = round_trip("variations", &games);
    assert_eq!(
        canonical,
        format!(
            "rules: classic
moves:
- {CATHEDRAL}
- move: {CASTLE}
  comment: solid
  variations:
  - - dark:inn:a1,a2,b2 ?!
    - move: light:inn:i9,j9,j10
      variations:
      - - light:tavern:j1
        - dark:tavern:a10 !
  - - dark:inn:a9,a10,b9
- {INFIRMARY}
"
        )
    );
}

#[test]
fn bad_marks_and_bad_variation_moves_are_refused_at_their_place() {
    // A glyph that is no mark: at its own column, after the move or quoted, or under `mark:`.
    let error = error_of(&format!("moves:\n- 1. {CATHEDRAL} !!!\n"));
    assert_eq!((error.line, error.column), (Some(2), Some(40)), "{error}");
    assert!(
        error.message.starts_with(
            "move 1: `!!!` is not a mark: expected `!`, `?`, `!?`, `?!`, `!!` or `??`"
        ),
        "{error}"
    );
    let error = error_of(&format!("moves:\n- \"1. {CATHEDRAL} !!!\"\n"));
    assert_eq!((error.line, error.column), (Some(2), Some(41)), "{error}");
    let error = error_of(&format!(
        "moves:\n- {CATHEDRAL}\n- move: {CASTLE}\n  mark: '?!?'\n"
    ));
    assert_eq!((error.line, error.column), (Some(4), Some(9)), "{error}");
    assert!(
        error.message.starts_with("move 2: `?!?` is not a mark"),
        "{error}"
    );
    // An unquoted glyph after `mark:` is YAML of another meaning: say to quote it.
    for glyph in ["?", "!?", "!!", "!"] {
        let error = error_of(&format!("moves:\n- move: {CATHEDRAL}\n  mark: {glyph}\n"));
        assert_eq!(error.line, Some(3), "{glyph}: {error}");
        assert!(error.message.contains("must be quoted"), "{glyph}: {error}");
    }
    let error = error_of(&format!("moves:\n- move: {CATHEDRAL} !\n  mark: \"!\"\n"));
    assert!(error.message.contains("its mark twice"), "{error}");
    // An illegal move in a variation: its number, the variation's place, the reason.
    let error = error_of(&format!(
        "moves:\n- {CATHEDRAL}\n- move: {CASTLE}\n  variations:\n  - - dark:inn:a1,a2,b2\n    - light:inn:b3,a3,a2\n"
    ));
    assert_eq!((error.line, error.column), (Some(6), Some(7)), "{error}");
    assert!(
        error.message.starts_with(
            "move 3 of the variation to move 2 (`light:inn:b3,a3,a2`) cannot be played: "
        ),
        "{error}"
    );
    // The variation is played from the position before its move: Dark's Castle is not there.
    let error = error_of(&format!(
        "moves:\n- {CATHEDRAL}\n- move: {CASTLE}\n  variations:\n  - - dark:inn:a1,a2,b2\n  - - {CASTLE}\n    - {CASTLE}\n"
    ));
    assert_eq!((error.line, error.column), (Some(7), Some(7)), "{error}");
    assert!(
        error
            .message
            .starts_with("move 3 of variation 2 to move 2 (`dark:castle"),
        "{error}"
    );
    // Nested: named with the variation it lies in.
    let error = error_of(&format!(
        "moves:\n- {CATHEDRAL}\n- move: {CASTLE}\n  variations:\n  - - dark:inn:a1,a2,b2\n    - move: light:inn:j10,j9,i9\n      variations:\n      - - light:inn:a1,a2,b2\n"
    ));
    assert_eq!((error.line, error.column), (Some(8), Some(11)), "{error}");
    assert!(
        error.message.starts_with(
            "move 3 of the variation to move 3 in the variation to move 2 (`light:inn:a1,a2,b2`) cannot be played"
        ),
        "{error}"
    );
    // A wrong number in a variation: they go on from the move the variation replaces.
    let error = error_of(&format!(
        "moves:\n- {CATHEDRAL}\n- move: {CASTLE}\n  variations:\n  - - 2. dark:inn:a1,a2,b2\n    - 4. light:inn:j10,j9,i9\n"
    ));
    assert_eq!((error.line, error.column), (Some(6), Some(7)), "{error}");
    assert!(
        error.message.contains(
            "is numbered 4, but it is move 3 of the variation to move 2: a variation's moves are numbered on from the move it replaces"
        ),
        "{error}"
    );
    // A bad mark in a variation; an empty variation; a variation that is no list; in game 2.
    let error = error_of(&format!(
        "moves:\n- move: {CATHEDRAL}\n  variations:\n  - - light:cathedral:e4,e5,d6,e6,f6,e7 ?!!\n"
    ));
    assert_eq!((error.line, error.column), (Some(4), Some(41)), "{error}");
    assert!(
        error
            .message
            .starts_with("move 1 of the variation to move 1: `?!!` is not a mark"),
        "{error}"
    );
    let error = error_of(&format!(
        "moves:\n- move: {CATHEDRAL}\n  variations:\n  - []\n"
    ));
    assert_eq!(error.line, Some(4), "{error}");
    assert!(
        error
            .message
            .contains("the variation to move 1 has no moves"),
        "{error}"
    );
    let error = error_of(&format!(
        "moves: []\n---\nmoves:\n- move: {CATHEDRAL}\n  variations:\n  - {CATHEDRAL}\n"
    ));
    assert_eq!(error.line, Some(6), "{error}");
    assert!(
        error
            .message
            .starts_with("game 2: the variation to move 1: `light:cathedral"),
        "{error}"
    );
    assert!(error.message.contains("is not a variation"), "{error}");
    let error = error_of("moves:\n- comment: no move here\n  mark: \"!\"\n");
    assert!(error.message.contains("move 1 has no `move:`"), "{error}");
}

/// Every game record shipped in the repository: the YAML files (outside `target/`) with a
/// `moves:` key at the top of a document and no `game:` key (Corintho's records). Today six
/// files and 52 games: `docs/analysis/engine-games.yaml` (4), `docs/analysis/
/// independent-games.yaml` (29), the review benchmark's two samples of it in
/// `docs/analysis/review-bench/` (8 each), `puzzles/games/example.yaml` (1) and
/// `tests/data/blunder-games.yaml` (2).
fn shipped_records() -> Vec<std::path::PathBuf> {
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name();
            if path.is_dir() {
                if name != "target" && !name.to_string_lossy().starts_with('.') {
                    walk(&path, out);
                }
            } else if path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                let top = |key: &str| text.lines().any(|l| l.starts_with(key));
                if top("moves:") && !top("game:") {
                    out.push(path);
                }
            }
        }
    }
    let mut files = Vec::new();
    for dir in ["docs", "puzzles", "tests", "examples", "benches"] {
        walk(std::path::Path::new(dir), &mut files);
    }
    files.sort();
    files
}

#[test]
fn every_record_shipped_reads_and_round_trips() {
    let files = shipped_records();
    let mut games = 0;
    for file in &files {
        let name = file.display().to_string();
        let text = std::fs::read_to_string(file).unwrap();
        let read = parse_records(&name, &text).unwrap_or_else(|e| panic!("{e}"));
        games += read.len();
        round_trip(&name, &read);
    }
    let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    assert_eq!(
        names,
        [
            "docs/analysis/engine-games.yaml",
            "docs/analysis/independent-games.yaml",
            "docs/analysis/review-bench/random-sample.yaml",
            "docs/analysis/review-bench/random-tuning.yaml",
            "puzzles/games/example.yaml",
            "tests/data/blunder-games.yaml"
        ],
        "the record files shipped: update this list and the comment on shipped_records"
    );
    assert_eq!(games, 52);
}

/// A comment of those a record may hold, some of them YAML of another meaning unquoted.
fn random_comment(rng: &mut cathedral::boardgame::Rng) -> Option<String> {
    const COMMENTS: [&str; 16] = [
        "a corner claim in the making",
        "null",
        "~",
        "yes",
        "12",
        "- a dash",
        "key: value",
        "# not a comment",
        "!? in words",
        "?",
        "quotes ' and \"",
        "two\nlines",
        "é ✓ unicode",
        "trailing colon:",
        "@at and `backticks`",
        "[brackets] {braces}",
    ];
    (rng.below(3) == 0).then(|| COMMENTS[rng.below(COMMENTS.len() as u64) as usize].to_string())
}

/// Up to `length` moves played by the policy from `position`, each with a random mark,
/// comment and (while `depth` lasts) variations of their own.
fn random_line(
    mut position: Position,
    length: usize,
    depth: usize,
    rng: &mut cathedral::boardgame::Rng,
) -> Vec<RecordedMove> {
    let policy = cathedral::policy::Policy::default();
    let mut moves = Vec::new();
    while moves.len() < length {
        let Some(mv) = policy.choose(&position, rng) else {
            break;
        };
        let mut recorded = RecordedMove::new(mv);
        if rng.below(3) == 0 {
            recorded.mark = Some(Mark::ALL[rng.below(6) as usize]);
        }
        recorded.comment = random_comment(rng);
        if depth > 0 && rng.below(4) == 0 {
            for _ in 0..=rng.below(2) {
                let len = 1 + rng.below(6) as usize;
                recorded
                    .variations
                    .push(random_line(position, len, depth - 1, rng));
            }
        }
        position.play(mv);
        moves.push(recorded);
    }
    moves
}

#[test]
fn random_annotated_games_round_trip() {
    let mut marks = 0;
    let mut variations = 0;
    let mut nested = 0;
    for seed in 0..40 {
        let mut rng = cathedral::boardgame::Rng::new(seed);
        let rules = if seed % 4 == 3 {
            Rules::MOORE_1978
        } else {
            Rules::CLASSIC
        };
        let game = GameRecord {
            light: Some(format!("seed {seed}")),
            rules,
            moves: random_line(Position::new(rules), 100, 3, &mut rng),
            ..GameRecord::default()
        };
        for recorded in &game.moves {
            marks += usize::from(recorded.mark.is_some());
            variations += recorded.variations.len();
            nested += recorded
                .variations
                .iter()
                .flatten()
                .filter(|m| !m.variations.is_empty())
                .count();
        }
        round_trip(&format!("seed {seed}"), &[game]);
    }
    // The games exercise what they are meant to (364 marks, 418 variations, 348 variation moves
    // with variations of their own).
    assert!(
        marks > 200 && variations > 200 && nested > 100,
        "{marks} {variations} {nested}"
    );
}

/// A record under `rules: sheets` is replayed with claims at once: the Dark Tavern enclosed by
/// Light's first building stays on the board, where `classic` captures it.
#[test]
fn a_record_under_the_sheets_preset_replays_with_claims_at_once() {
    let moves = "moves: ['light:cathedral:e5,f4,f5,f6,f7,g5', 'dark:tavern:a1', 'light:inn:a2,b1,b2', 'dark:tavern:j10', 'light:tavern:e10']\n";
    let dark_on_board = |rules: &str| {
        let games = read(&format!("rules: {rules}\n{moves}"));
        games[0]
            .final_position()
            .side(Player::Dark)
            .hand
            .buildings()
    };
    assert_eq!(dark_on_board("classic"), 13, "captured: back in hand");
    assert_eq!(dark_on_board("sheets"), 12, "never captured");
    let games = read(&format!("rules: sheets\n{moves}"));
    assert!(records_to_yaml(&games).contains("rules: sheets"));
}

/// Shapes (issue 75): circles and arrows on the start position and on moves (main line and
/// variations) read in the order drawn, written canonically in brackets, and read back the
/// same; a move with shapes and nothing else takes the map form.
#[test]
fn shapes_are_kept_on_their_moves_and_round_trip() {
    use cathedral::file::{Shape, ShapeColour};
    let text = format!(
        "shapes: [e5]\nmoves:\n- {CATHEDRAL}\n- move: {CASTLE}\n  comment: the corner\n  shapes: [a1, Red:d3-d5, blue:h9-h5]\n  variations:\n  - - move: dark:inn:h9,h10,i10\n      shapes: [yellow:j1-a10, green:c3]\n- move: {INFIRMARY}\n  mark: \"!\"\n  shapes: []\n"
    );
    let games = read(&text);
    let game = &games[0];
    let cell = |c: &str| c.parse::<cathedral::Cell>().unwrap();
    assert_eq!(
        game.shapes,
        vec![Shape::circle(cell("e5"), ShapeColour::Green)]
    );
    assert!(game.moves[0].shapes.is_empty());
    assert_eq!(
        game.moves[1].shapes,
        vec![
            Shape::circle(cell("a1"), ShapeColour::Green),
            Shape::arrow(cell("d3"), cell("d5"), ShapeColour::Red),
            Shape::arrow(cell("h9"), cell("h5"), ShapeColour::Blue),
        ]
    );
    assert_eq!(
        game.moves[1].variations[0][0]
            .shapes
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        ["yellow:j1-a10", "c3"]
    );
    let canonical = round_trip("shapes", &games);
    assert!(
        canonical.contains("\nshapes: [e5]\nmoves:\n"),
        "{canonical}"
    );
    assert!(
        canonical.contains("  shapes: [a1, red:d3-d5, blue:h9-h5]\n"),
        "{canonical}"
    );
    assert!(
        canonical.contains(&format!("- {INFIRMARY} !\n")),
        "an empty list leaves the short form: {canonical}"
    );
    // A move with shapes alone is written as a map, and read back.
    let mut lone = games[0].clone();
    lone.moves[0].shapes = vec![Shape::circle(cell("j10"), ShapeColour::Yellow)];
    let written = round_trip("lone shapes", &[lone]);
    assert!(
        written.contains(&format!("- move: {CATHEDRAL}\n  shapes: [yellow:j10]\n")),
        "{written}"
    );
}

/// A bad shape is refused at its line and column with what is wrong and how a shape is written;
/// so is a shape drawn twice on the same cells and a list that is no list.
#[test]
fn bad_shapes_are_refused_at_their_place() {
    let cases = [
        (
            format!("moves:\n- move: {CATHEDRAL}\n  shapes: [e4, k11]\n"),
            (3, 16),
            "move 1: shapes: `k11` is not a shape: `k11` is not a cell",
        ),
        (
            format!("moves:\n- move: {CATHEDRAL}\n  shapes:\n  - e4-e4\n"),
            (4, 5),
            "`e4-e4` is not a shape: an arrow goes from a cell to another (`e4` alone is a circle)",
        ),
        (
            format!("moves:\n- move: {CATHEDRAL}\n  shapes: [pink:e4]\n"),
            (3, 12),
            "`pink` is not a colour: expected `green` (the default, left out), `red`, `blue` or `yellow`",
        ),
        (
            format!("moves:\n- move: {CATHEDRAL}\n  shapes: [c3-c7, red:c3-c7]\n"),
            (3, 19),
            "`red:c3-c7` is drawn twice (`c3-c7` is there already)",
        ),
        (
            format!("shapes: e4\nmoves:\n- {CATHEDRAL}\n"),
            (1, 9),
            "shapes: `e4` is not a list of shapes: expected a list of shapes like `[e4, e4-g7, red:c3]`",
        ),
        (
            format!(
                "moves:\n- {CATHEDRAL}\n- move: {CASTLE}\n  variations:\n  - - move: dark:inn:h9,h10,i10\n      shapes: [a0]\n"
            ),
            (6, 16),
            "move 2 of the variation to move 2: shapes: `a0` is not a shape",
        ),
    ];
    for (text, (line, column), words) in cases {
        let error = error_of(&text);
        assert_eq!(
            (error.line, error.column),
            (Some(line), Some(column)),
            "{error}"
        );
        assert!(error.message.contains(words), "{error}");
    }
    let error = error_of(&format!("moves:\n- move: {CATHEDRAL}\n  shapes: [k11]\n"));
    assert!(
        error
            .message
            .contains("a shape is a cell (a circle, `e4`) or two cells joined by `-`"),
        "the message says how a shape is written: {error}"
    );
}
