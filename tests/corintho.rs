//! Corintho: the fast move generator against a plain reference implementation of the rules
//! (perft on the start and on random positions for 2, 3 and 4 players and every variant), the
//! generic solver against a plain minimax on the reference rules, the rule cases of
//! `puzzles/corintho/`, and located errors for bad files.

use cathedral::boardgame::{Method, Rng, SolveOptions, perft, solve};
use cathedral::corintho::file::{RuleCase, load, parse};
use cathedral::corintho::{
    Answer, Board, CorinthoMove, CorinthoPosition, CorinthoRules, Level, Lock, Outcome, Placement,
    Square, Stack,
};
use std::collections::BTreeSet;

// ---------------------------------------------------------------------------------------------
// The reference: the rules written plainly, on stacks as lists of levels.

#[derive(Clone, Debug)]
struct Plain {
    players: usize,
    ordered: bool,
    lock_moves: usize,
    base_rows: bool,
    /// Variant `answer: new_row`: any new row answers a claim.
    new_row_answers: bool,
    /// Stacks bottom to top: 0 base, 1 column, 2 capital; index rank * 4 + file.
    cells: Vec<Vec<u8>>,
    to_move: usize,
    supply: Vec<[u8; 3]>,
    shared: [u8; 3],
    /// Destinations of the last moves, most recent first (None for a pass).
    history: Vec<Option<usize>>,
    passes: usize,
    winner: Option<usize>,
}

fn plain_of(p: &CorinthoPosition) -> Plain {
    let rules = p.rules();
    let cells = (0..16)
        .map(|i| {
            let s = p.board().get(Square::new(i).unwrap());
            s.levels().map(|l| l as u8).collect()
        })
        .collect();
    let locked: Vec<Option<usize>> = p
        .lock_history()
        .iter()
        .map(|s| s.map(Square::index))
        .collect();
    Plain {
        players: rules.players as usize,
        ordered: rules.placement == Placement::Ordered,
        lock_moves: if rules.lock == Lock::Next {
            1
        } else {
            rules.players as usize - 1
        },
        base_rows: rules.base_rows,
        new_row_answers: rules.answer == Answer::NewRow,
        cells,
        to_move: p.to_move() as usize,
        supply: (0..rules.players).map(|i| p.supply(i)).collect(),
        shared: p.shared(),
        history: locked,
        passes: p.passes() as usize,
        winner: None,
    }
}

/// Every set of three platforms in a straight line, found by walking every direction.
fn plain_lines() -> Vec<[usize; 3]> {
    let mut out = Vec::new();
    for r in 0..4i32 {
        for f in 0..4i32 {
            for (df, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                let cells: Vec<(i32, i32)> = (0..3).map(|k| (f + k * df, r + k * dr)).collect();
                if cells
                    .iter()
                    .all(|&(x, y)| (0..4).contains(&x) && (0..4).contains(&y))
                {
                    let c: Vec<usize> = cells.iter().map(|&(x, y)| (y * 4 + x) as usize).collect();
                    out.push([c[0], c[1], c[2]]);
                }
            }
        }
    }
    out
}

impl Plain {
    fn rows(&self) -> BTreeSet<[usize; 3]> {
        plain_lines()
            .into_iter()
            .filter(|line| {
                let tops: Vec<Option<&u8>> = line.iter().map(|&c| self.cells[c].last()).collect();
                tops[0].is_some()
                    && tops[0] == tops[1]
                    && tops[1] == tops[2]
                    && (self.base_rows || tops[0] != Some(&0))
            })
            .collect()
    }

    fn locked(&self, cell: usize) -> bool {
        self.history
            .iter()
            .take(self.lock_moves)
            .any(|&h| h == Some(cell))
    }

    fn pieces(&self) -> [u8; 3] {
        let own = self.supply[self.to_move];
        if own.iter().sum::<u8>() > 0 {
            own
        } else {
            self.shared
        }
    }

    /// The rules' moves as text, claims aside.
    fn rule_moves(&self) -> Vec<String> {
        let mut out = Vec::new();
        let pieces = self.pieces();
        let name = |c: usize| format!("{}{}", (b'a' + (c % 4) as u8) as char, c / 4 + 1);
        for level in 0..3u8 {
            if pieces[level as usize] == 0 {
                continue;
            }
            for c in 0..16 {
                let ok = if !self.ordered || level == 0 {
                    self.cells[c].is_empty()
                } else {
                    !self.locked(c) && self.cells[c].last() == Some(&(level - 1))
                };
                if ok {
                    out.push(format!("{}@{}", ["B", "C", "K"][level as usize], name(c)));
                }
            }
        }
        for from in 0..16usize {
            for to in 0..16usize {
                let (ff, fr, tf, tr) = (from % 4, from / 4, to % 4, to / 4);
                let adjacent = ff.abs_diff(tf) + fr.abs_diff(tr) == 1;
                if !adjacent || self.locked(from) || self.locked(to) {
                    continue;
                }
                let (Some(&bottom), Some(&top)) = (self.cells[from].first(), self.cells[to].last())
                else {
                    continue;
                };
                if bottom == top + 1 {
                    out.push(format!("{}-{}", name(from), name(to)));
                }
            }
        }
        out
    }

    fn apply(&mut self, mv: &str) {
        let sq = |t: &str| t.parse::<Square>().unwrap().index();
        if mv == "pass" {
            self.passes += 1;
            self.history.insert(0, None);
        } else if let Some((level, to)) = mv.split_once('@') {
            let level = "BCK".find(level).unwrap();
            let mine = self.supply[self.to_move].iter().sum::<u8>() > 0;
            let pool = if mine {
                &mut self.supply[self.to_move]
            } else {
                &mut self.shared
            };
            pool[level] -= 1;
            let to = sq(to);
            self.cells[to].push(level as u8);
            self.history.insert(0, Some(to));
            self.passes = 0;
        } else {
            let (from, to) = mv.split_once('-').unwrap();
            let (from, to) = (sq(from), sq(to));
            let moved = std::mem::take(&mut self.cells[from]);
            self.cells[to].extend(moved);
            self.history.insert(0, Some(to));
            self.passes = 0;
        }
        self.to_move = (self.to_move + 1) % self.players;
    }

    /// Whether going from the claimed rows `before` to the rows `after` answers the claim: the
    /// sheet's reading, every claimed row broken or extended (a new row sharing two of its
    /// platforms: together a row of four); variant `new_row`, all broken or any new row.
    fn answered(&self, before: &BTreeSet<[usize; 3]>, after: &BTreeSet<[usize; 3]>) -> bool {
        let new: Vec<&[usize; 3]> = after.difference(before).collect();
        if self.new_row_answers {
            return after.is_empty() || !new.is_empty();
        }
        before.iter().all(|row| {
            !after.contains(row)
                || new
                    .iter()
                    .any(|n| n.iter().filter(|c| row.contains(c)).count() == 2)
        })
    }

    /// Plays a move with the claim rules: a claim left standing gives the claimant the win.
    fn play(&mut self, mv: &str) {
        let before = self.rows();
        let claimant = (self.to_move + self.players - 1) % self.players;
        self.apply(mv);
        let after = self.rows();
        if !before.is_empty() && !self.answered(&before, &after) {
            self.winner = Some(claimant);
        }
    }

    /// The legal moves: while rows stand, only those that break them all or make a new row.
    fn moves(&self) -> Vec<String> {
        if self.winner.is_some() {
            return Vec::new();
        }
        let before = self.rows();
        let mut moves = self.rule_moves();
        if !before.is_empty() {
            moves.retain(|mv| {
                let mut child = self.clone();
                child.apply(mv);
                self.answered(&before, &child.rows())
            });
            return moves;
        }
        if moves.is_empty() && self.passes + 1 < self.players {
            moves.push("pass".to_string());
        }
        moves
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves()
            .iter()
            .map(|mv| {
                let mut child = self.clone();
                child.play(mv);
                child.perft(depth - 1)
            })
            .sum()
    }

    /// Plain minimax, two players: +1 when the side to move wins. `None` past `budget` nodes.
    fn minimax(&self, budget: &mut u64) -> Option<i32> {
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        let moves = self.moves();
        if moves.is_empty() {
            let claimant = (self.to_move + 1) % 2;
            return Some(match self.winner {
                Some(w) if w == self.to_move => 1,
                Some(_) => -1,
                None if !self.rows().is_empty() && claimant != self.to_move => -1,
                None => 0,
            });
        }
        let mut best = -1;
        for mv in &moves {
            let mut child = self.clone();
            child.play(mv);
            best = best.max(-child.minimax(budget)?);
        }
        Some(best)
    }
}

// ---------------------------------------------------------------------------------------------
// Random positions.

fn random_rules(rng: &mut Rng) -> CorinthoRules {
    let mut rules = CorinthoRules::for_players(2 + rng.below(3) as u8).unwrap();
    if rng.below(4) == 0 {
        rules.placement = Placement::Ordered;
    }
    if rng.below(2) == 0 {
        rules.lock = Lock::Next;
    }
    rules.base_rows = rng.below(4) != 0;
    if rng.below(2) == 0 {
        rules.answer = Answer::NewRow;
    }
    rules
}

/// A position reached by `plies` random legal moves.
fn random_game(rng: &mut Rng, rules: CorinthoRules, plies: usize) -> CorinthoPosition {
    let mut position = CorinthoPosition::new(rules);
    for _ in 0..plies {
        let moves = position.legal_moves();
        if moves.is_empty() {
            break;
        }
        position.play(moves[rng.below(moves.len() as u64) as usize]);
    }
    position
}

/// A random late position: random stacks, small supplies, maybe a lock.
fn random_late(rng: &mut Rng, rules: CorinthoRules, max_supply: u64) -> CorinthoPosition {
    loop {
        let mut board = Board::default();
        let mut counts = [0u8; 3];
        let total = rules.total();
        for sq in Square::all() {
            if rng.below(100) < 55 {
                let stack = Stack::from_bits([1, 2, 4, 3, 6, 7][rng.below(6) as usize]).unwrap();
                if stack
                    .levels()
                    .all(|l| counts[l as usize] < total[l as usize])
                {
                    for l in stack.levels() {
                        counts[l as usize] += 1;
                    }
                    board.set(sq, stack);
                }
            }
        }
        let supply: Vec<[u8; 3]> = (0..rules.players)
            .map(|_| [0; 3].map(|_: u8| rng.below(max_supply + 1) as u8))
            .map(|s: [u8; 3]| {
                let start = rules.start_supply();
                [0, 1, 2].map(|i| s[i].min(start[i]))
            })
            .collect();
        let shared = if rules.players == 3 {
            [0, 1, 2].map(|_| rng.below(2) as u8)
        } else {
            [0; 3]
        };
        let occupied: Vec<Square> = Square::all()
            .filter(|&s| !board.get(s).is_empty())
            .collect();
        let locked: Vec<Option<Square>> = if !occupied.is_empty() && rng.below(2) == 0 {
            vec![Some(occupied[rng.below(occupied.len() as u64) as usize])]
        } else {
            Vec::new()
        };
        let to_move = rng.below(rules.players as u64) as u8;
        if let Ok(p) =
            CorinthoPosition::from_parts(rules, board, to_move, &supply, shared, &locked, 0)
        {
            return p;
        }
    }
}

fn sorted(moves: &[CorinthoMove]) -> Vec<String> {
    let mut v: Vec<String> = moves.iter().map(ToString::to_string).collect();
    v.sort();
    v
}

// ---------------------------------------------------------------------------------------------

/// The value a best line from `position` reached at its `end`, from `position`'s side to move's
/// view; the line must end the game.
fn line_end_value(position: &CorinthoPosition, end: &CorinthoPosition) -> i32 {
    match end.outcome() {
        Outcome::Won(p) if p == position.to_move() => 1,
        Outcome::Won(_) => -1,
        Outcome::Drawn => 0,
        Outcome::Ongoing => panic!("the best line stops before the end: {position:?}"),
    }
}

#[test]
fn perft_of_the_start_is_pinned_and_matches_the_reference() {
    let start = CorinthoPosition::new(CorinthoRules::for_players(2).unwrap());
    let pinned = [1, 48, 2_160, 90_720, 3_529_656];
    for (depth, &count) in pinned.iter().enumerate() {
        assert_eq!(perft(&start, depth as u32), count, "depth {depth}");
    }
    // The reference is slow: three plies.
    assert_eq!(plain_of(&start).perft(3), 90_720);
}

#[test]
fn moves_match_the_reference_on_random_positions() {
    let mut rng = Rng::new(13);
    for case in 0..400 {
        let rules = random_rules(&mut rng);
        let position = if case % 2 == 0 {
            let plies = rng.below(30) as usize;
            random_game(&mut rng, rules, plies)
        } else {
            random_late(&mut rng, rules, 2)
        };
        let plain = plain_of(&position);
        let mut expected = plain.moves();
        expected.sort();
        assert_eq!(sorted(&position.legal_moves()), expected, "{position:?}");
        assert_eq!(perft(&position, 2), plain.perft(2), "{position:?}");
        // And the outcome after each move.
        for mv in position.legal_moves() {
            let mut fast = position;
            fast.play(mv);
            let mut slow = plain.clone();
            slow.play(&mv.to_string());
            let mut expected = slow.moves();
            expected.sort();
            assert_eq!(sorted(&fast.legal_moves()), expected, "{position:?} {mv}");
        }
    }
}

#[test]
fn the_solver_matches_plain_minimax_on_random_small_positions() {
    let mut rng = Rng::new(2026);
    let mut checked = 0;
    let mut values = [0; 3];
    while checked < 100 {
        let mut rules = random_rules(&mut rng);
        rules.players = 2;
        rules.lock = Lock::Next;
        let position = random_late(&mut rng, rules, 1);
        let mut budget = 30_000;
        let Some(expected) = plain_of(&position).minimax(&mut budget) else {
            continue;
        };
        for threads in [1, 2] {
            let options = SolveOptions {
                threads,
                tt_mb: 1,
                wdl: true,
                ..SolveOptions::default()
            };
            let solution = solve(&position, &options, &|_| {});
            assert_eq!(
                solution.value(),
                Some(expected),
                "{threads} threads: {position:?}"
            );
            // The best line is legal and ends in the value.
            let mut end = position;
            for mv in &solution.best_line {
                assert!(end.legal_moves().contains(mv));
                end.play(*mv);
            }
            let reached = line_end_value(&position, &end);
            assert_eq!(reached, expected, "{position:?}");
        }
        values[(expected + 1) as usize] += 1;
        checked += 1;
    }
    // The sample holds wins, losses and draws alike (else it would prove little).
    assert!(values.iter().all(|&n| n > 0), "{values:?}");
}

#[test]
fn every_move_lowers_the_potential_so_games_end() {
    let mut rng = Rng::new(5);
    for _ in 0..100 {
        let rules = random_rules(&mut rng);
        let mut position = CorinthoPosition::new(rules);
        let mut passes = 0;
        loop {
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len() as u64) as usize];
            let before = position.potential();
            position.play(mv);
            if mv == CorinthoMove::Pass {
                passes += 1;
                assert!(passes < rules.players as u32);
            } else {
                passes = 0;
                assert!(position.potential() < before);
            }
        }
        assert_ne!(position.outcome(), Outcome::Ongoing);
    }
}

fn check_case(name: &str, mut position: CorinthoPosition, case: &RuleCase) {
    for (i, text) in case.play.iter().enumerate() {
        let mv = CorinthoMove::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        if let Err(why) = position.check(mv) {
            panic!("{name}: move {} `{text}` refused: {why}", i + 1);
        }
        position.play(mv);
        // Every position on the way is written and read back identically.
        let text = cathedral::corintho::file::to_yaml(&position, None);
        let back = parse(name, &text).unwrap_or_else(|e| panic!("{name}: {}", e.message));
        assert_eq!(
            back.position,
            position,
            "{name}, after move {}: {text}",
            i + 1
        );
    }
    let legal = position.legal_moves();
    for text in &case.legal {
        let mv = CorinthoMove::parse(text).unwrap();
        assert!(legal.contains(&mv), "{name}: `{text}` should be legal");
    }
    for text in &case.illegal {
        let mv = CorinthoMove::parse(text).unwrap();
        assert!(!legal.contains(&mv), "{name}: `{text}` should be refused");
        assert!(
            position.check(mv).is_err(),
            "{name}: `{text}` should be refused"
        );
    }
    for text in &case.concedes {
        let mv = CorinthoMove::parse(text).unwrap();
        assert!(!legal.contains(&mv), "{name}: `{text}` is in the move list");
        assert!(position.check(mv).is_ok(), "{name}: `{text}` is refused");
        assert!(position.concedes(mv), "{name}: `{text}` does not concede");
    }
    if let Some(n) = case.moves {
        assert_eq!(legal.len(), n, "{name}: {:?}", sorted(&legal));
    }
    if let Some(outcome) = &case.outcome {
        let actual = match position.outcome() {
            Outcome::Ongoing => "ongoing".to_string(),
            Outcome::Drawn => "drawn".to_string(),
            Outcome::Won(p) => format!("won by {}", p + 1),
        };
        assert_eq!(&actual, outcome, "{name}");
    }
    if let Some(value) = case.value {
        let options = SolveOptions {
            threads: 1,
            tt_mb: 4,
            wdl: true,
            ..SolveOptions::default()
        };
        assert_eq!(
            solve(&position, &options, &|_| {}).value(),
            Some(value),
            "{name}"
        );
        let mut budget = 300_000;
        let plain = plain_of(&position).minimax(&mut budget);
        assert_eq!(
            plain,
            Some(value),
            "{name}: the reference disagrees (None: too big for it)"
        );
    }
}

#[test]
fn the_rule_cases_hold() {
    let mut clauses = BTreeSet::new();
    let mut count = 0;
    let mut paths: Vec<_> = std::fs::read_dir("puzzles/corintho")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    paths.sort();
    for path in paths {
        let file = load(&path).unwrap_or_else(|e| panic!("{}: {}", path.display(), e.message));
        let Some(case) = &file.case else {
            continue;
        };
        check_case(&path.display().to_string(), file.position, case);
        clauses.insert(case.clause.clone());
        count += 1;
    }
    assert!(count >= 15, "{count} rule cases");
    assert!(clauses.len() >= 15, "{clauses:?}");
}

#[test]
fn bad_files_get_located_errors() {
    let cases = [
        (
            "game: corintho\nboard: ['. . . .', '. . . .', '. CB . .', '. . . .']\n",
            2,
            "`CB`",
        ),
        (
            "game: corintho\nplayers: 5\nboard: ['. . . .', '. . . .', '. . . .', '. . . .']\n",
            2,
            "5 players",
        ),
        (
            "game: corintho\nboard: ['. . . .', '. . .', '. . . .', '. . . .']\n",
            2,
            "3 platforms",
        ),
        (
            "game: corintho\nboard: ['. . . .', '. . . .', '. . . .']\n",
            2,
            "3 ranks",
        ),
        (
            "game: corintho\nboard: ['. . . .', '. . . .', '. . . .', '. . . .']\nlocked: [e5]\n",
            3,
            "not a platform",
        ),
        (
            "game: corintho\nboard: ['. . . .', '. . . .', '. . . .', '. . . .']\ncolour: red\n",
            3,
            "colour",
        ),
        (
            "game: corintho\nvariant: {placement: loose}\nboard: ['. . . .', '. . . .', '. . . .', '. . . .']\n",
            2,
            "loose",
        ),
        (
            "game: corintho\nboard: ['. . . .', '. . . .', '. . . .', '. . . .']\nsupply:\n  - {base: 5}\n  - {}\n",
            4,
            "at most 4",
        ),
        ("game: cathedral\nboard: []\n", 1, "not Corintho"),
        (
            "game: corintho\nto_move: 3\nboard: ['. . . .', '. . . .', '. . . .', '. . . .']\n",
            2,
            "does not play",
        ),
    ];
    for (text, line, words) in cases {
        let error = parse("bad.yaml", text).expect_err(text);
        assert_eq!(error.line, Some(line), "{text}: {}", error.message);
        assert!(error.message.contains(words), "{text}: {}", error.message);
    }
    // Ten bases on the board and in the supplies: two players have eight.
    let text = "game: corintho\nboard: ['B B B B', 'B . . .', '. . . .', '. . . .']\nsupply: [{base: 4}, {base: 1}]\n";
    assert!(parse("x", text).unwrap_err().message.contains("game has 8"));
}

#[test]
fn files_round_trip() {
    let mut rng = Rng::new(99);
    for _ in 0..100 {
        let rules = random_rules(&mut rng);
        let mut position = random_late(&mut rng, rules, 2);
        if rng.below(5) == 0 {
            position = position.with_winner(rng.below(rules.players as u64) as u8);
        }
        let text = cathedral::corintho::file::to_yaml(&position, Some("t"));
        let back = parse("x", &text).unwrap_or_else(|e| panic!("{text}\n{}", e.message));
        assert_eq!(back.position, position, "{text}");
    }
}

/// Every rule set: each player count with each combination of the variants.
fn every_rules() -> Vec<CorinthoRules> {
    let mut out = Vec::new();
    for players in 2..=4 {
        for placement in [Placement::Free, Placement::Ordered] {
            for lock in [Lock::Next, Lock::Round] {
                for base_rows in [true, false] {
                    for answer in [Answer::Modify, Answer::NewRow] {
                        let mut rules = CorinthoRules::for_players(players).unwrap();
                        rules.placement = placement;
                        rules.lock = lock;
                        rules.base_rows = base_rows;
                        rules.answer = answer;
                        out.push(rules);
                    }
                }
            }
        }
    }
    out
}

#[test]
fn every_reachable_position_round_trips_through_a_file() {
    // Random games to their end, every position on the way written and read back: the same
    // position (so the same moves), locks carried across passes included.
    let mut rng = Rng::new(30);
    let (mut positions, mut pass_between_moves) = (0, 0);
    for rules in every_rules() {
        for _ in 0..6 {
            let mut position = CorinthoPosition::new(rules);
            loop {
                let text = cathedral::corintho::file::to_yaml(&position, None);
                let back = parse("x", &text).unwrap_or_else(|e| panic!("{text}\n{}", e.message));
                assert_eq!(back.position, position, "{text}");
                positions += 1;
                let history = position.lock_history();
                if history
                    .iter()
                    .skip_while(|l| l.is_some())
                    .any(Option::is_some)
                {
                    pass_between_moves += 1;
                }
                let moves = position.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.below(moves.len() as u64) as usize];
                position.play(mv);
            }
        }
    }
    assert!(positions > 5_000, "{positions}");
    assert!(
        pass_between_moves > 0,
        "no lock history with a pass before a move"
    );
}

#[test]
fn a_file_without_pass_entries_reads_its_passes_as_the_latest_turns() {
    // `passes: 1` with `locked: [d4]` (as files were written before `pass` entries): the pass
    // came after the move to d4, so d4 stays locked one turn only.
    let board = "board: ['K B K K', 'B K . C', 'B K B BC', 'K B K B']\nsupply: [{}, {}, {base: 1}]\nshared: {base: 0, column: 0, capital: 0}\n";
    let head = "game: corintho\nplayers: 3\nvariant: {lock: round}\nto_move: 3\n";
    let old = parse("x", &format!("{head}{board}locked: [d4]\npasses: 1\n")).unwrap();
    let new = parse(
        "x",
        &format!("{head}{board}locked: [pass, d4]\npasses: 1\n"),
    )
    .unwrap();
    assert_eq!(old.position, new.position);
    let mut position = new.position;
    position.play(CorinthoMove::parse("B@c3").unwrap());
    assert!(
        position
            .legal_moves()
            .contains(&CorinthoMove::parse("d4-d3").unwrap())
    );
}

#[test]
fn a_written_history_may_list_what_passes_pushed_out_of_reach() {
    // Each pass at the head of the history makes room for one more, older entry: it locks
    // nothing (the pass was the next turn), and the file reads as without it.
    let two = "game: corintho\nboard: ['. . . .', '. . . C', '. . . .', '. . . B']\n";
    let board = "board: ['K B K K', 'B K . C', 'B K B BC', 'K B K B']\nsupply: [{}, {}, {base: 1}]\nshared: {base: 0, column: 0, capital: 0}\n";
    let next = format!("game: corintho\nplayers: 3\nvariant: {{lock: next}}\nto_move: 3\n{board}");
    let round =
        format!("game: corintho\nplayers: 3\nvariant: {{lock: round}}\nto_move: 3\n{board}");
    for (head, history, passes, same_as) in [
        (two.to_string(), "[pass, d3]", 1, "[pass]"),
        (next.clone(), "[pass, d4]", 1, "[pass]"),
        (round.clone(), "[pass, pass, d4]", 2, "[pass, pass]"),
    ] {
        let with = parse("x", &format!("{head}locked: {history}\npasses: {passes}\n"))
            .unwrap_or_else(|e| panic!("{history}: {}", e.message));
        let without = parse("x", &format!("{head}locked: {same_as}\npasses: {passes}\n")).unwrap();
        assert_eq!(with.position, without.position, "{history}");
    }
    // Beyond what the passes make room for, still refused, saying why.
    let error = parse("x", &format!("{two}locked: [pass, d3, d1]\npasses: 1\n")).unwrap_err();
    assert!(
        error.message.contains("3 locked platforms: at most 2 with these rules (1 and one more for each pass before them)"),
        "{}",
        error.message
    );
    let error = parse("x", &format!("{two}locked: [d3, d1]\n")).unwrap_err();
    assert!(
        error
            .message
            .contains("2 locked platforms: at most 1 with these rules"),
        "{}",
        error.message
    );
}

#[test]
fn levels_and_stacks_print_as_they_parse() {
    for bits in [1, 2, 4, 3, 6, 7] {
        let stack = Stack::from_bits(bits).unwrap();
        assert_eq!(Stack::parse(&stack.to_string()), Some(stack));
    }
    assert_eq!(Level::from_letter('k'), Some(Level::Capital));
    assert_eq!(Stack::parse("BK"), None);
}

// ---------------------------------------------------------------------------------------------
// The solver's levers (src/corintho/folded.rs): symmetry folding and the immediate-win test.

#[test]
fn the_folded_solver_matches_plain_minimax_on_random_small_positions() {
    use cathedral::corintho::Folded;
    let mut rng = Rng::new(4711);
    let mut checked = 0;
    let mut values = [0; 3];
    let mut immediate = 0;
    while checked < 60 {
        let mut rules = random_rules(&mut rng);
        rules.players = 2;
        rules.lock = if checked % 2 == 0 {
            Lock::Next
        } else {
            Lock::Round
        };
        let position = random_late(&mut rng, rules, 1);
        let mut budget = 30_000;
        let Some(expected) = plain_of(&position).minimax(&mut budget) else {
            continue;
        };
        if position.wins_at_once() {
            assert_eq!(expected, 1, "an immediate win that is none: {position:?}");
            immediate += 1;
        }
        for (symmetry, knowledge) in [(true, false), (false, true), (true, true)] {
            for (threads, method) in [1, 2]
                .into_iter()
                .flat_map(|t| [(t, Method::AlphaBeta), (t, Method::ProofNumbers)])
            {
                let options = SolveOptions {
                    threads,
                    tt_mb: 1,
                    wdl: true,
                    method,
                    ..SolveOptions::default()
                };
                let folded = Folded::with(position, symmetry, knowledge);
                let solution = solve(&folded, &options, &|_| {});
                assert_eq!(
                    solution.value(),
                    Some(expected),
                    "symmetry {symmetry}, knowledge {knowledge}, {threads} threads, {method:?}: {position:?}"
                );
                // Every root move's value too, against minimax of the child.
                for root in solution.root_moves.iter().filter(|_| threads == 1) {
                    assert!(root.is_exact());
                    let mut child = *folded.position();
                    child.play(root.mv);
                    let mut budget = 30_000;
                    let child_value = plain_of(&child).minimax(&mut budget).unwrap();
                    assert_eq!(root.lower, -child_value, "{position:?} {}", root.mv);
                }
            }
        }
        // The unfolded best line is a legal line of the position that reaches the value.
        let options = SolveOptions {
            threads: 1,
            tt_mb: 1,
            wdl: true,
            root_values: false,
            ..SolveOptions::default()
        };
        let solution = solve(&Folded::new(position), &options, &|_| {});
        let line = Folded::unfold_line(&position, &solution.best_line);
        assert_eq!(line.len(), solution.best_line.len(), "{position:?}");
        let mut end = position;
        for mv in &line {
            assert!(end.legal_moves().contains(mv), "{position:?} {mv}");
            end.play(*mv);
        }
        let reached = line_end_value(&position, &end);
        assert_eq!(reached, expected, "{position:?}");
        values[(expected + 1) as usize] += 1;
        checked += 1;
    }
    assert!(values.iter().all(|&n| n > 0), "{values:?}");
    assert!(immediate > 0, "no immediate win in the sample");
}

#[test]
fn the_immediate_win_test_is_exact_and_rows_after_matches_play() {
    // `wins_at_once` exactly when some legal move leaves the opponent without a move and rows
    // standing; `rows_after` and `makes_row` as playing the move says.
    let mut rng = Rng::new(99);
    let mut wins = 0;
    for case in 0..3000 {
        let mut rules = random_rules(&mut rng);
        rules.players = 2;
        let position = if case % 2 == 0 {
            let plies = rng.below(24) as usize;
            random_game(&mut rng, rules, plies)
        } else {
            random_late(&mut rng, rules, 2)
        };
        let moves = position.legal_moves();
        let mut expected = false;
        for &mv in &moves {
            let mut child = position;
            child.play(mv);
            assert_eq!(position.rows_after(mv), child.rows(), "{position:?} {mv}");
            assert_eq!(
                position.makes_row(mv),
                child.rows() & !position.rows() != 0,
                "{position:?} {mv}"
            );
            if child.rows() != 0 && child.legal_moves().is_empty() {
                expected = true;
            }
        }
        assert_eq!(position.wins_at_once(), expected, "{position:?}");
        if let Some(mv) = position.winning_move() {
            let mut child = position;
            child.play(mv);
            assert!(child.rows() != 0 && child.legal_moves().is_empty());
            assert_eq!(child.outcome(), Outcome::Won(position.to_move()));
        }
        wins += usize::from(expected);
    }
    assert!(wins > 20, "{wins}");
}

#[test]
fn the_eight_images_of_a_position_fold_to_one() {
    let mut rng = Rng::new(5);
    for case in 0..300 {
        let rules = random_rules(&mut rng);
        let position = if case % 2 == 0 {
            let plies = rng.below(20) as usize;
            random_game(&mut rng, rules, plies)
        } else {
            random_late(&mut rng, rules, 2)
        };
        let (folded, _) = position.canonical();
        let moves = position.legal_moves().len();
        for s in 0..8 {
            let image = position.image(s);
            assert_eq!(image.canonical().0, folded, "{position:?} symmetry {s}");
            assert_eq!(image.legal_moves().len(), moves);
            assert_eq!(perft(&image, 2), perft(&position, 2), "{position:?} {s}");
            assert_eq!(image.rows().count_ones(), position.rows().count_ones());
            assert_eq!(image.outcome(), position.outcome());
        }
    }
}

/// The position after `line` from the two-player start.
fn after(line: &str) -> CorinthoPosition {
    let mut position = CorinthoPosition::new(CorinthoRules::for_players(2).unwrap());
    for mv in line.split_whitespace() {
        position.play(CorinthoMove::parse(mv).unwrap());
    }
    position
}

#[test]
fn the_proven_values_near_the_start_are_pinned() {
    // docs/corintho.md, "The start: what is proven". After two plies, 297 positions up to the
    // square's symmetries; in exactly 9 the second player has put a section next to the first
    // player's same section, and the first player completes a row nothing can modify.
    let start = CorinthoPosition::new(CorinthoRules::for_players(2).unwrap());
    let mut classes = BTreeSet::new();
    let mut wins = Vec::new();
    for first in start.legal_moves() {
        let mut p1 = start;
        p1.play(first);
        assert!(!p1.wins_at_once());
        for second in p1.legal_moves() {
            let mut p2 = p1;
            p2.play(second);
            if classes.insert(p2.canonical().0.key()) && p2.wins_at_once() {
                wins.push(p2);
            }
        }
    }
    assert_eq!(classes.len(), 297);
    assert_eq!(wins.len(), 9);
    let expected = [
        ("B@b1 B@c2", "B@d3"),
        ("C@b1 C@c2", "C@d3"),
        ("K@b1 K@c2", "K@d3"),
        ("B@b2 B@c1", "B@a3"),
        ("C@b2 C@c1", "C@a3"),
        ("K@b2 K@c1", "K@a3"),
        ("B@b1 B@d3", "B@c2"),
        ("C@b1 C@d3", "C@c2"),
        ("K@b1 K@d3", "K@c2"),
    ];
    let options = SolveOptions {
        threads: 1,
        tt_mb: 4,
        wdl: true,
        root_values: false,
        ..SolveOptions::default()
    };
    for (line, winning) in expected {
        let p = after(line);
        assert!(
            wins.iter().any(|w| w.canonical().0 == p.canonical().0),
            "{line}"
        );
        assert_eq!(
            p.winning_move(),
            Some(CorinthoMove::parse(winning).unwrap())
        );
        // The unchanged solver agrees (the claim is ordered first and refuted by no reply).
        let plain = solve(&p, &options, &|_| {});
        assert_eq!(plain.value(), Some(1), "{line}");
        assert!(plain.stats.nodes < 100, "{line}: {}", plain.stats.nodes);
        // The folded solver proves the win by its immediate-win test alone, which stores no
        // move: finding a line to print could take long, so the solve stops soon after the
        // value (with one thread, always at the same node).
        let options = SolveOptions {
            max_nodes: Some(10_000),
            ..options.clone()
        };
        let folded = solve(&cathedral::corintho::Folded::new(p), &options, &|_| {});
        assert_eq!(folded.value(), Some(1), "{line}");
        assert!(
            cathedral::corintho::Folded::new(p)
                .position()
                .wins_at_once()
        );
    }
}

#[test]
fn a_position_still_fits_in_64_bytes() {
    // Copy-make: the top masks kept for `rows_after` must not make positions larger.
    assert!(std::mem::size_of::<CorinthoPosition>() <= 64);
}

// ---------------------------------------------------------------------------------------------
// Certificates: proofs written as strategies and checked by the plain verifier
// (examples/corintho_verify.rs, which uses nothing but the rules).

#[path = "../examples/corintho_verify.rs"]
mod verify;

#[test]
fn certificates_of_proven_positions_pass_the_plain_verifier_and_tampered_ones_fail() {
    use cathedral::boardgame::ProofSearch;
    use cathedral::corintho::Folded;
    use cathedral::corintho::certificate::{Claim, write_certificate};
    let start = CorinthoPosition::new(CorinthoRules::for_players(2).unwrap());
    let mut rng = Rng::new(2026);
    let (mut accepted, mut largest) = (0, 0);
    for _ in 0..60 {
        // A sensible random game (no move that hands the opponent an immediate win) 12-18
        // plies long: positions that take a real proof, yet small ones.
        let mut line = Vec::new();
        let mut position = start;
        let plies = 12 + rng.below(7) as usize;
        while line.len() < plies {
            let Some(mv) = position.sensible_random_move(&mut rng) else {
                break;
            };
            position.play(mv);
            line.push(mv);
        }
        if position.outcome() != cathedral::corintho::Outcome::Ongoing {
            continue;
        }
        let mut search = ProofSearch::new(1, 16).with_node_limit(Some(200_000));
        let folded = Folded::new(position);
        let claim = match search.at_least(&folded, 1) {
            Some(true) => Claim::Wins(position.to_move()),
            Some(false) => match search.at_least(&folded, 0) {
                Some(false) => Claim::Wins(1 - position.to_move()),
                Some(true) => Claim::DoesNotLose(position.to_move()),
                None => continue,
            },
            None => continue,
        };
        let mut text = Vec::new();
        let written = write_certificate(&start, &line, claim, &mut search, &mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        let checked = verify::verify(&text).unwrap_or_else(|why| panic!("{why}\n{text}"));
        assert_eq!(checked.moves_read as u64, written.moves);
        assert_eq!(checked.positions as u64, written.positions);
        accepted += 1;
        largest = largest.max(written.moves);
        // Tampered: the claim given to the other player, or the last move line dropped, is
        // refused.
        let other = text.replace(
            &format!("claim: {}", claim.words()),
            &format!("claim: player {} wins", 2 - claim_player(claim)),
        );
        assert!(
            verify::verify(&other).is_err(),
            "the other claim passed:\n{text}"
        );
        let lines: Vec<&str> = text.lines().collect();
        let dropped = lines[..lines.len() - 1].join("\n");
        assert!(verify::verify(&dropped).is_err());
    }
    eprintln!("{accepted} certificates accepted, the largest with {largest} moves");
    assert!(accepted >= 20, "{accepted}");
    assert!(largest >= 20, "{largest}");
}

fn claim_player(claim: cathedral::corintho::certificate::Claim) -> u8 {
    match claim {
        cathedral::corintho::certificate::Claim::Wins(p)
        | cathedral::corintho::certificate::Claim::DoesNotLose(p) => p,
    }
}

#[test]
fn the_published_certificate_passes_the_plain_verifier() {
    // docs/corintho.md, "Proof-number search": the quiet position 8 plies in.
    let text = std::fs::read_to_string("puzzles/corintho/certificates/quiet-ply-8.txt").unwrap();
    let checked = verify::verify(&text).unwrap_or_else(|why| panic!("{why}"));
    assert_eq!(checked.start, "C@b2 B@c3 K@b3 C@c2 B@a1 K@d4 B@d1 C@a4");
    assert_eq!(checked.claim, "player 1 wins");
    assert_eq!((checked.moves_read, checked.positions), (80_777, 159_057));
    // The strategy's first move changed to another legal move: the walk no longer fits.
    let first = text
        .lines()
        .find(|l| !l.starts_with('#') && !l.contains(':') && !l.is_empty())
        .unwrap();
    let mut position = CorinthoPosition::new(CorinthoRules::for_players(2).unwrap());
    for mv in checked.start.split_whitespace() {
        position.play(CorinthoMove::parse(mv).unwrap());
    }
    let other = position
        .legal_moves()
        .into_iter()
        .map(|m| m.to_string())
        .find(|m| m != first)
        .unwrap();
    let changed = text.replacen(&format!("\n{first}\n"), &format!("\n{other}\n"), 1);
    assert_ne!(changed, text);
    assert!(verify::verify(&changed).is_err());
}

/// A refused move says which rule refused it, as a kind a program can match on, in the words
/// every front end prints.
#[test]
fn a_refused_move_names_its_rule() {
    use cathedral::corintho::{CorinthoMoveError, IllegalCorinthoMove, ParseCorinthoMoveError};
    let mut position = CorinthoPosition::new(CorinthoRules::for_players(2).unwrap());
    let b1: Square = "b1".parse().unwrap();
    let c2: Square = "c2".parse().unwrap();
    assert_eq!(
        position.read_move("b1-c2"),
        Err(CorinthoMoveError::Illegal(IllegalCorinthoMove::NotNext {
            from: b1,
            to: c2
        }))
    );
    assert_eq!(
        position.check(CorinthoMove::parse("b1-b2").unwrap()),
        Err(IllegalCorinthoMove::NothingToMove { from: b1 })
    );
    position.play(CorinthoMove::parse("C@b1").unwrap());
    let refused = position.read_move("K@b1").unwrap_err();
    assert!(
        matches!(refused, CorinthoMoveError::Illegal(IllegalCorinthoMove::Occupied { to, .. }) if to == b1),
        "{refused:?}"
    );
    assert_eq!(
        refused.to_string(),
        "b1 is occupied (C): sections are placed on unoccupied platforms only"
    );
    assert_eq!(
        position.read_move("Q@b2"),
        Err(CorinthoMoveError::Parse(ParseCorinthoMoveError {
            text: "Q@b2".into()
        }))
    );
    assert_eq!(
        position.read_move("pass"),
        Err(CorinthoMoveError::Illegal(
            IllegalCorinthoMove::PassWithMoves
        ))
    );
}
