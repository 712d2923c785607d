//! Game records: reading with every move checked and errors located, canonical writing, round
//! trips, fragments from a start position, and the records `match` writes.

use cathedral::file::{GameRecord, parse_records, records_to_yaml};
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
                moves.push(cathedral::file::RecordedMove { mv, comment: None });
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
    for rules in [Rules::CLASSIC, Rules::MOORE_1978] {
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
