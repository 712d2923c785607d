//! The shared layers are really generic: a toy game that is not Cathedral implements
//! `boardgame::Game` and is solved by the same driver, checked against a plain recursion; it
//! implements `frontend::Playable` too and is driven through the command code that
//! `cathedral show|moves|play|perft|solve|render` run for every game; with `frontend::Recorded`,
//! `analysis::Judge` and `arena::MatchGame` it goes through whole-game analysis, standings and
//! matches (the runner, the statistics and the sequential test) as well. This is where a third
//! game plugs in (`docs/architecture.md`).
//!
//! The game ("coins in a row"): a row of coins worth 0-9; the players take turns taking the
//! coin at either end; the final score is the mover's coins minus the opponent's.

use cathedral::analysis::game::{GameAnalysis, Judged, Mark, analyse_game};
use cathedral::analysis::standings::standings;
use cathedral::analysis::{Budget, Judge};
use cathedral::arena::{
    self, BuiltIn, BuiltInPlayer, Contestant, MatchGame, MatchOptions, PairResult, Schedule, Sprt,
    SprtOn, SprtVerdict, run_match, summarize,
};
use cathedral::boardgame::{
    Game, Judgement, Method, Rng, Solution, SolveOptions, Stats, divide, perft, solve,
};
use cathedral::files::FileError;
use cathedral::frontend::{
    self, Bundled, EngineChoice, EngineInfo, EngineRequest, Loaded, MovesReport, Playable,
    Recorded, SvgRequest, TextStyle,
};
use serde::Serialize;

const MAX_COINS: usize = 10;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Coins {
    coins: [u8; MAX_COINS],
    /// The coins still on the table are `coins[left..right]`.
    left: u8,
    right: u8,
    /// The side to move's coins so far minus the opponent's.
    diff: i32,
    /// Coins taken by the first and the second mover (not in the key: the value does not depend
    /// on them).
    taken: [u8; 2],
    /// Coins taken so far: the first mover moves at even plies.
    ply: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    Left,
    Right,
}

impl Coins {
    fn new(coins: &[u8]) -> Coins {
        let mut all = [0; MAX_COINS];
        all[..coins.len()].copy_from_slice(coins);
        Coins {
            coins: all,
            left: 0,
            right: coins.len() as u8,
            diff: 0,
            taken: [0; 2],
            ply: 0,
        }
    }

    fn remaining(&self) -> i32 {
        self.coins[self.left as usize..self.right as usize]
            .iter()
            .map(|&c| c as i32)
            .sum()
    }
}

impl Game for Coins {
    type Move = End;
    type Buffer = Vec<End>;

    const MIN_VALUE: i32 = -9 * MAX_COINS as i32;
    const MAX_VALUE: i32 = 9 * MAX_COINS as i32;

    fn key(&self) -> (u64, u64) {
        let packed = self.coins.iter().fold(0u64, |key, &c| key << 4 | c as u64);
        let state = (self.left as u64) << 16 | (self.right as u64) << 8 | (self.diff + 128) as u64;
        (packed, state)
    }

    fn generate(&self, buffer: &mut Vec<End>) {
        buffer.clear();
        match self.right - self.left {
            0 => {}
            1 => buffer.push(End::Left),
            _ => buffer.extend([End::Left, End::Right]),
        }
    }

    fn moves(buffer: &mut Vec<End>) -> &mut [End] {
        buffer
    }

    fn play(&mut self, mv: End) {
        let coin = match mv {
            End::Left => {
                self.left += 1;
                self.coins[self.left as usize - 1]
            }
            End::Right => {
                self.right -= 1;
                self.coins[self.right as usize]
            }
        };
        self.taken[usize::from(self.ply % 2)] += coin;
        self.ply += 1;
        // The turn passes: the new mover's view is the negation.
        self.diff = -(self.diff + coin as i32);
    }

    fn terminal_value(&self) -> i32 {
        self.diff
    }

    fn bounds(&self) -> (i32, i32) {
        let rest = self.remaining();
        (self.diff - rest, self.diff + rest)
    }

    fn encode(mv: End) -> u32 {
        mv as u32
    }

    fn decode(code: u32) -> End {
        if code == 0 { End::Left } else { End::Right }
    }
}

/// The exact value by plain recursion over every line: the reference.
fn minimax(position: &Coins) -> i32 {
    let mut moves = Vec::new();
    position.generate(&mut moves);
    if moves.is_empty() {
        return position.terminal_value();
    }
    moves
        .iter()
        .map(|&mv| {
            let mut child = *position;
            child.play(mv);
            -minimax(&child)
        })
        .max()
        .expect("a move")
}

fn random_row(rng: &mut Rng) -> Vec<u8> {
    let len = 1 + rng.below(MAX_COINS as u64) as usize;
    (0..len).map(|_| rng.below(10) as u8).collect()
}

fn options(threads: usize, wdl: bool) -> SolveOptions {
    SolveOptions {
        threads,
        tt_mb: 1,
        wdl,
        ..SolveOptions::default()
    }
}

#[test]
fn the_generic_driver_solves_the_toy_game_exactly() {
    let mut rng = Rng::new(7);
    for _ in 0..300 {
        let row = random_row(&mut rng);
        let position = Coins::new(&row);
        let expected = minimax(&position);
        for (threads, method) in [1, 2]
            .into_iter()
            .flat_map(|t| [(t, Method::AlphaBeta), (t, Method::ProofNumbers)])
        {
            let options = SolveOptions {
                method,
                ..options(threads, false)
            };
            let solution = solve(&position, &options, &|_| {});
            assert!(solution.complete, "{row:?}");
            assert_eq!(
                solution.value(),
                Some(expected),
                "{row:?}, {threads} threads, {method:?}"
            );

            // The best line is legal and ends with the value.
            let mut end = position;
            for &mv in &solution.best_line {
                let mut legal = Vec::new();
                end.generate(&mut legal);
                assert!(legal.contains(&mv), "{row:?}: {mv:?} is not legal");
                end.play(mv);
            }
            assert!(end.is_over(), "{row:?}: the line stops early");
            let sign = if solution.best_line.len() % 2 == 0 {
                1
            } else {
                -1
            };
            assert_eq!(sign * end.terminal_value(), expected, "{row:?}");

            // Every root move gets its own exact value, best first.
            for root in &solution.root_moves {
                let mut child = position;
                child.play(root.mv);
                assert_eq!(
                    (root.lower, root.upper),
                    (-minimax(&child), -minimax(&child))
                );
            }
            let values: Vec<i32> = solution.root_moves.iter().map(|r| r.lower).collect();
            assert!(values.windows(2).all(|w| w[0] >= w[1]), "{row:?}");
            assert_eq!(values.first(), Some(&expected), "{row:?}");
        }
    }
}

#[test]
fn the_generic_driver_answers_win_draw_loss() {
    let mut rng = Rng::new(11);
    for _ in 0..200 {
        let row = random_row(&mut rng);
        let position = Coins::new(&row);
        for method in [Method::AlphaBeta, Method::ProofNumbers] {
            let options = SolveOptions {
                method,
                ..options(1, true)
            };
            let solution = solve(&position, &options, &|_| {});
            assert_eq!(
                solution.value(),
                Some(minimax(&position).signum()),
                "{row:?} {method:?}"
            );
        }
    }
}

#[test]
fn a_stopped_solve_keeps_true_bounds() {
    let position = Coins::new(&[3, 9, 1, 4, 1, 5, 9, 2, 6, 5]);
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let solution = solve(
        &position,
        &SolveOptions {
            stop,
            ..options(1, false)
        },
        &|_| {},
    );
    assert!(!solution.complete);
    let value = minimax(&position);
    assert!(solution.lower <= value && value <= solution.upper);
}

#[test]
fn generic_perft_counts_the_toy_game() {
    // With n coins, every ply but the last has two choices: 2^(n-1) games of n plies.
    for n in 1..=MAX_COINS {
        let position = Coins::new(&vec![1; n]);
        assert_eq!(perft(&position, n as u32), 1 << (n - 1), "{n} coins");
        assert_eq!(
            perft(&position, n as u32 + 1),
            0,
            "{n} coins: the game is over"
        );
        let split: u64 = divide(&position, n as u32).iter().map(|(_, c)| c).sum();
        assert_eq!(split, 1 << (n - 1));
    }
}

/// A toy position file: `coins: 3 1 4` (and an optional `title: ...` line).
fn parse_coins(name: &str, text: &str) -> Result<Loaded<Coins>, FileError> {
    let mut coins = None;
    let mut title = None;
    for (i, line) in text.lines().enumerate() {
        let located = |message: String| FileError::new(name, message).at(Some(i + 1), Some(1));
        if let Some(rest) = line.strip_prefix("coins:") {
            let row: Result<Vec<u8>, _> = rest.split_whitespace().map(str::parse::<u8>).collect();
            let row = row.map_err(|_| located("expected coins worth 0 to 9".to_string()))?;
            if row.is_empty() || row.len() > MAX_COINS || row.iter().any(|&c| c > 9) {
                return Err(located(format!(
                    "expected 1 to {MAX_COINS} coins worth 0 to 9"
                )));
            }
            coins = Some(Coins::new(&row));
        } else if let Some(rest) = line.strip_prefix("title:") {
            title = Some(rest.trim().to_string());
        } else if !line.trim().is_empty() {
            return Err(located(format!("`{line}` is not `coins:` or `title:`")));
        }
    }
    let position = coins.ok_or_else(|| FileError::new(name, "no `coins:` line"))?;
    Ok(Loaded {
        title,
        ..Loaded::of(position)
    })
}

/// What taking a coin did.
struct Taken {
    mv: End,
    coin: u8,
    after: Coins,
}

#[derive(Serialize)]
struct CoinsView {
    coins: Vec<u8>,
    diff: i32,
    title: Option<String>,
}

#[derive(Serialize)]
struct CoinsSolve {
    value: Option<i32>,
    line: Vec<String>,
}

/// Why the toy game refuses a move, in words.
#[derive(Debug)]
struct NotAMove(String);

impl std::fmt::Display for NotAMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NotAMove {}

impl Playable for Coins {
    const NAME: &'static str = "coins";
    const EXAMPLE_MOVES: &'static str = "`left right`";
    const MOVE_GROUP: &'static str = "end";

    type MoveError = NotAMove;
    type Explanation = Taken;
    type View = CoinsView;
    type SolveReport = CoinsSolve;

    fn fresh_start(&self) -> Coins {
        *self
    }

    fn bundled(_which: Bundled) -> Loaded<Coins> {
        Loaded::of(Coins::new(&[3, 1, 4, 1, 5]))
    }

    fn bundled_name(_which: Bundled) -> &'static str {
        "<five coins>"
    }

    fn parse_file(name: &str, text: &str) -> Result<Loaded<Coins>, FileError> {
        parse_coins(name, text)
    }

    fn file_text(&self, _title: Option<&str>, _source: Option<&str>) -> String {
        let row: Vec<String> = self.coins[self.left as usize..self.right as usize]
            .iter()
            .map(u8::to_string)
            .collect();
        format!("coins: {}\n", row.join(" "))
    }

    fn parse_move(&self, text: &str) -> Result<End, NotAMove> {
        let mv = match text {
            "left" => End::Left,
            "right" => End::Right,
            _ => return Err(NotAMove(format!("`{text}` is not `left` or `right`"))),
        };
        let mut legal = Vec::new();
        self.generate(&mut legal);
        if legal.contains(&mv) {
            Ok(mv)
        } else {
            Err(NotAMove("there is no coin left to take".to_string()))
        }
    }

    fn move_text(&self, mv: End) -> String {
        match mv {
            End::Left => "left".to_string(),
            End::Right => "right".to_string(),
        }
    }

    fn legal_moves(&self) -> Vec<End> {
        let mut moves = Vec::new();
        self.generate(&mut moves);
        moves
    }

    fn move_group(&self, mv: End) -> (usize, String) {
        (0, self.move_text(mv))
    }

    fn side_to_move(&self) -> (serde_json::Value, String) {
        ("mover".into(), "The mover".to_string())
    }

    fn moves_notes(&self) -> Vec<String> {
        Vec::new()
    }

    fn explain(&self, mv: End) -> Taken {
        let coin = match mv {
            End::Left => self.coins[self.left as usize],
            End::Right => self.coins[self.right as usize - 1],
        };
        let mut after = *self;
        after.play(mv);
        Taken { mv, coin, after }
    }

    fn after(explanation: &Taken) -> Coins {
        explanation.after
    }

    fn explanation_text(explanation: &Taken, _style: TextStyle) -> String {
        format!(
            "takes the {:?} coin, worth {}",
            explanation.mv, explanation.coin
        )
    }

    fn explanation_view(explanation: &Taken) -> impl Serialize + '_ {
        explanation.coin
    }

    fn view(&self, title: Option<String>) -> CoinsView {
        CoinsView {
            coins: self.coins[self.left as usize..self.right as usize].to_vec(),
            diff: self.diff,
            title,
        }
    }

    fn draw_text(&self, _style: TextStyle) -> String {
        self.file_text(None, None)
    }

    fn draw_svg(&self, request: &SvgRequest<End>) -> String {
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\"><text>{}{}</text></svg>\n",
            self.file_text(None, None).trim(),
            request
                .highlight
                .map_or(String::new(), |mv| format!(" ({})", self.move_text(mv)))
        )
    }

    fn engine_choice(
        &self,
        _request: &EngineRequest,
        _info: &mut dyn FnMut(&EngineInfo<End>),
    ) -> EngineChoice<End> {
        let solution = solve(self, &options(1, false), &|_| {});
        EngineChoice {
            best: solution.best_line.first().copied(),
            value: format!("{:+}", solution.lower),
            exact: true,
            verdict: "exact".to_string(),
            depth: 0,
            nodes: Some(solution.stats.nodes),
            elapsed: solution.stats.elapsed,
            pv: solution.best_line,
        }
    }

    fn solve_report(&self, solution: &Solution<End>, _wdl: bool) -> CoinsSolve {
        CoinsSolve {
            value: solution.value(),
            line: self.line_text(&solution.best_line),
        }
    }

    fn is_proven(report: &CoinsSolve) -> bool {
        report.value.is_some()
    }

    fn solve_text(
        report: &CoinsSolve,
        _stats: &Stats,
        title: Option<&str>,
        _all: bool,
        _value_only: bool,
        _style: TextStyle,
    ) -> String {
        format!(
            "{}value {:?}, line {}\n",
            title.map_or(String::new(), |t| format!("{t}\n")),
            report.value,
            report.line.join(" ")
        )
    }
}

#[test]
fn the_toy_game_runs_through_the_command_code() {
    let loaded = Coins::parse_file("toy.txt", "title: Five coins\ncoins: 3 1 4 1 5\n").unwrap();
    // show: the title, then the drawing; or the view as JSON.
    let shown = frontend::show(&loaded, false, TextStyle::PLAIN);
    assert_eq!(shown, "Five coins\n\ncoins: 3 1 4 1 5\n");
    let json: serde_json::Value =
        serde_json::from_str(&frontend::show(&loaded, true, TextStyle::PLAIN)).unwrap();
    assert_eq!(json["coins"], serde_json::json!([3, 1, 4, 1, 5]));
    assert_eq!(json["title"], "Five coins");

    // moves: both ends, grouped, counted.
    let report = MovesReport::of(&loaded.position);
    assert_eq!(
        (report.total, report.moves.clone()),
        (2, vec!["left".to_string(), "right".to_string()])
    );
    assert!(
        report
            .text(true, TextStyle::PLAIN)
            .contains("The mover to move: 2 legal moves in total")
    );

    // play: each move explained in order; a bad move stops with its number and the reason.
    let mut seen = Vec::new();
    let played = frontend::play(
        loaded.position,
        &["left".into(), "right".into()],
        |n, taken| {
            seen.push((n, taken.coin));
        },
    )
    .unwrap();
    assert_eq!(seen, vec![(1, 3), (2, 5)]);
    assert_eq!(played.end.file_text(None, None), "coins: 1 4 1\n");
    let json: serde_json::Value = serde_json::from_str(&played.json()).unwrap();
    assert_eq!(json["moves"], serde_json::json!([3, 5]));
    assert_eq!(json["final"]["coins"], serde_json::json!([1, 4, 1]));
    let error = frontend::play(
        loaded.position,
        &["left".into(), "middle".into()],
        |_, _| {},
    )
    .err()
    .unwrap();
    assert_eq!(
        error.to_string(),
        "move 2 (`middle`) cannot be played: `middle` is not `left` or `right`"
    );

    // perft: the same counts as the core's, with the divide in the game's notation.
    let counted = frontend::perft(&loaded.position, 4, true);
    assert_eq!(counted.count, perft(&loaded.position, 4));
    assert_eq!(counted.count, 1 << 4);
    let divided = counted.divide.as_ref().unwrap();
    assert_eq!((divided[0].mv.as_str(), divided[0].count), ("left", 8));
    assert!(counted.text().contains("perft(4) = 16"));

    // solve: the value of plain minimax and a line that reaches it, through the game's report.
    let (report, solution) =
        frontend::solve(&loaded.position, &options(1, false), &|_| {}).unwrap();
    assert_eq!(report.value, Some(minimax(&loaded.position)));
    let text = frontend::solve_text(&loaded, &report, &solution, false, false, TextStyle::PLAIN);
    assert!(text.starts_with("Five coins\nvalue Some("), "{text}");
    let replayed = frontend::play(loaded.position, &report.line, |_, _| {}).unwrap();
    assert!(replayed.end.is_over());

    // render: the move highlighted, or the reason it cannot be played.
    let svg = frontend::render(&loaded.position, Some("right"), None, true).unwrap();
    assert!(svg.contains("(right)"), "{svg}");
    let error = frontend::render(&played.end, Some("up"), None, true).unwrap_err();
    assert!(error.contains("`up` cannot be played here"), "{error}");

    // A bad file is located.
    let error = Coins::parse_file("toy.txt", "coins: 3 x\n").err().unwrap();
    assert_eq!(
        (error.line, error.message.as_str()),
        (Some(1), "expected coins worth 0 to 9")
    );
}

// ---------------------------------------------------------------------------------------------
// The layers above the commands: records, whole-game analysis, standings and matches, written
// once for every game, on the toy game.

/// A toy game record: the start, the moves, and the two players' names.
#[derive(Clone, Debug, PartialEq)]
struct CoinsRecord {
    start: Coins,
    moves: Vec<End>,
    players: Option<[String; 2]>,
}

/// Records as text: one game a document (`---` between games), with `coins:`, `moves:` and an
/// optional `players:` line.
fn parse_coin_records(name: &str, text: &str) -> Result<Vec<CoinsRecord>, FileError> {
    let mut records = Vec::new();
    for document in text.split("---\n") {
        let mut coins = String::new();
        let mut moves = Vec::new();
        let mut players = None;
        for (i, line) in document.lines().enumerate() {
            let located = |message: String| FileError::new(name, message).at(Some(i + 1), Some(1));
            if line.starts_with("coins:") {
                coins = format!("{line}\n");
            } else if let Some(rest) = line.strip_prefix("moves:") {
                moves = rest.split_whitespace().map(str::to_string).collect();
            } else if let Some(rest) = line.strip_prefix("players:") {
                let names: Vec<String> = rest.split_whitespace().map(str::to_string).collect();
                let [first, second]: [String; 2] = names
                    .try_into()
                    .map_err(|_| located("expected two players".to_string()))?;
                players = Some([first, second]);
            } else if !line.trim().is_empty() {
                return Err(located(format!("`{line}` is not a record line")));
            }
        }
        let start = parse_coins(name, &coins)?.position;
        let played = frontend::play(start, &moves, |_, _| {})
            .map_err(|e| FileError::new(name, e.to_string()))?;
        records.push(CoinsRecord {
            start,
            moves: played.moves,
            players,
        });
    }
    Ok(records)
}

impl Recorded for Coins {
    type Record = CoinsRecord;

    fn parse_records(name: &str, text: &str) -> Result<Vec<CoinsRecord>, FileError> {
        parse_coin_records(name, text)
    }

    fn records_text(records: &[CoinsRecord]) -> String {
        let texts: Vec<String> = records
            .iter()
            .map(|record| {
                let players = record
                    .players
                    .as_ref()
                    .map_or(String::new(), |[a, b]| format!("players: {a} {b}\n"));
                format!(
                    "{}moves: {}\n{players}",
                    record.start.file_text(None, None),
                    record.start.line_text(&record.moves).join(" ")
                )
            })
            .collect();
        texts.join("---\n")
    }

    fn new_record(start: Coins, moves: &[End]) -> CoinsRecord {
        CoinsRecord {
            start,
            moves: moves.to_vec(),
            players: None,
        }
    }

    fn record_start(record: &CoinsRecord) -> Coins {
        record.start
    }

    fn record_moves(record: &CoinsRecord) -> Vec<End> {
        record.moves.clone()
    }

    fn extend_record(record: &mut CoinsRecord, moves: &[End]) {
        record.moves.extend_from_slice(moves);
    }

    fn move_comments(record: &CoinsRecord) -> Vec<Option<String>> {
        vec![None; record.moves.len()]
    }

    fn record_comment(_record: &CoinsRecord) -> Option<&str> {
        None
    }

    fn record_heading(record: &CoinsRecord, number: usize) -> String {
        match &record.players {
            Some([a, b]) => format!("game {number}: {a} v {b}"),
            None => format!("game {number}"),
        }
    }

    fn record_meta(record: &CoinsRecord) -> impl Serialize + '_ {
        &record.players
    }
}

/// The exact value of every move from `position`, from the mover's view.
fn move_values(position: &Coins) -> Vec<(End, i32)> {
    position
        .legal_moves()
        .into_iter()
        .map(|mv| {
            let mut child = *position;
            child.play(mv);
            (mv, -minimax(&child))
        })
        .collect()
}

/// The end of a record's game.
fn record_end(record: &CoinsRecord) -> Coins {
    *frontend::record_positions::<Coins>(record)
        .last()
        .expect("the start at least")
}

impl Judge for Coins {
    type Seat = u8;

    const THRESHOLDS: [f64; 3] = [2.0, 4.0, 8.0];
    const DRAW_BAND: f64 = 0.5;
    const UNITS: &'static str = "coins";
    const VALUE_LEGEND: &'static str = "Values are the mover's, in coins, all exact.";
    const RESULT_LEGEND: &'static str = "result: who took more";
    const SCORE_COLUMN: &'static str = "conceded";
    const SCORE_WORDS: &'static str = "coins conceded";
    const STANDINGS_LEGEND: &'static str = "Ranked by the coins the opponents took, lowest first.";

    /// Every position judged exactly by plain recursion: the toy game is small.
    fn judge(&self, played: Option<End>, _budget: &Budget) -> Judged<End> {
        let values = move_values(self);
        let best = values.iter().max_by_key(|(_, v)| *v).copied();
        let mut line = Vec::new();
        let mut position = *self;
        while let Some((mv, _)) = move_values(&position).into_iter().max_by_key(|(_, v)| *v) {
            line.push(position.move_text(mv));
            position.play(mv);
        }
        Judged {
            value: f64::from(minimax(self)),
            judgement: Judgement::Exact,
            best: best.map(|(mv, _)| self.move_text(mv)),
            line,
            played_value: played.and_then(|p| {
                values
                    .iter()
                    .find(|(mv, _)| *mv == p)
                    .map(|(_, v)| f64::from(*v))
            }),
            best_move: best.map(|(mv, _)| mv),
            nodes: None,
            deeper: false,
        }
    }

    fn seats(_start: &Coins) -> Vec<u8> {
        vec![0, 1]
    }

    fn seat_to_move(&self) -> u8 {
        self.ply % 2
    }

    fn seat_title(seat: u8) -> String {
        ["First", "Second"][usize::from(seat)].to_string()
    }

    fn seat_key(seat: u8) -> String {
        ["first", "second"][usize::from(seat)].to_string()
    }

    fn result_line(record: &CoinsRecord) -> Option<String> {
        let end = record_end(record);
        end.is_over()
            .then(|| format!("coins taken: {} to {}", end.taken[0], end.taken[1]))
    }

    fn result_short(record: &CoinsRecord) -> String {
        let end = record_end(record);
        format!("{}-{}", end.taken[0], end.taken[1])
    }

    fn player_names(record: &CoinsRecord) -> Option<Vec<String>> {
        record.players.clone().map(Vec::from)
    }

    /// Each seat's score, lower is better: the coins its opponent took.
    fn scores(record: &CoinsRecord) -> Option<Vec<u32>> {
        let end = record_end(record);
        end.is_over()
            .then(|| vec![u32::from(end.taken[1]), u32::from(end.taken[0])])
    }
}

/// The row every match game starts from: 8 coins.
const MATCH_ROW: [u8; 8] = [3, 1, 4, 1, 5, 9, 2, 6];

impl MatchGame for Coins {
    type Rules = ();

    const SEATS: [&'static str; 2] = ["First", "Second"];
    const SEAT_KEYS: [&'static str; 2] = ["first", "second"];
    const SCORE_KEYS: [&'static str; 2] = ["first_conceded", "second_conceded"];
    const AS_SEAT_KEYS: [&'static str; 2] = ["as_first", "as_second"];
    const SCORE_NOUN: &'static str = "conceded";
    const UNIT: [&'static str; 2] = ["coin", "coins"];
    const FORFEIT_SCORE: u32 = 90;

    fn match_rules(words: &str) -> Result<(), String> {
        match words {
            "standard" => Ok(()),
            _ => Err(format!(
                "`{words}`: the toy game's only rules are `standard`"
            )),
        }
    }

    fn start_under(_rules: ()) -> Coins {
        Coins::new(&MATCH_ROW)
    }

    fn rules_text(_rules: ()) -> String {
        "standard".to_string()
    }

    fn seat_to_move(&self) -> usize {
        usize::from(self.ply % 2)
    }

    fn final_scores(&self) -> [u32; 2] {
        [u32::from(self.taken[1]), u32::from(self.taken[0])]
    }

    fn opening_move(&self, rng: &mut Rng) -> Option<End> {
        let moves = self.legal_moves();
        (!moves.is_empty()).then(|| moves[rng.below(moves.len() as u64) as usize])
    }

    fn plays(kind: &BuiltIn) -> Result<(), String> {
        match kind {
            BuiltIn::Policy => Err("the toy game has no sampling policy".to_string()),
            _ => Ok(()),
        }
    }

    /// The engine plays perfectly (plain recursion); greedy takes the larger end.
    fn builtin_move(
        &self,
        kind: &BuiltIn,
        _budget: arena::Budget,
        _tt_mb: usize,
        _rng: &mut Rng,
        _seed: u64,
    ) -> Option<End> {
        match kind {
            BuiltIn::Engine { .. } => move_values(self)
                .into_iter()
                .max_by_key(|(_, v)| *v)
                .map(|(mv, _)| mv),
            BuiltIn::Greedy => self.legal_moves().into_iter().max_by_key(|&mv| match mv {
                End::Left => self.coins[self.left as usize],
                End::Right => self.coins[self.right as usize - 1],
            }),
            BuiltIn::Random | BuiltIn::Policy => None,
        }
    }

    fn match_record(
        _rules: (),
        moves: &[End],
        names: [&str; 2],
        _round: String,
        _comment: String,
    ) -> CoinsRecord {
        CoinsRecord {
            start: Coins::new(&MATCH_ROW),
            moves: moves.to_vec(),
            players: Some([names[0].to_string(), names[1].to_string()]),
        }
    }

    fn protocol_new_game(_rules: ()) -> Vec<String> {
        Vec::new()
    }
}

/// A whole game from `start` with the moves chosen by `choose`, as a record between `players`.
fn played_record(
    start: Coins,
    players: [&str; 2],
    mut choose: impl FnMut(&Coins) -> Option<End>,
) -> CoinsRecord {
    let mut position = start;
    let mut moves = Vec::new();
    while let Some(mv) = choose(&position) {
        position.play(mv);
        moves.push(mv);
    }
    CoinsRecord {
        start,
        moves,
        players: Some(players.map(str::to_string)),
    }
}

#[test]
fn the_toy_game_goes_through_whole_game_analysis() {
    let mut rng = Rng::new(11);
    let budget = Budget {
        nodes: Some(1000),
        time: None,
        tt_mb: 1,
        stop: Default::default(),
        recheck: None,
    };
    for _ in 0..30 {
        let row = random_row(&mut rng);
        let start = Coins::new(&row);
        let record = played_record(start, ["Ann", "Bob"], |p| p.opening_move(&mut rng));
        // The records round-trip through their text.
        let text = Coins::records_text(std::slice::from_ref(&record));
        assert_eq!(
            Coins::parse_records("t.txt", &text).unwrap(),
            vec![record.clone()]
        );

        let analysis: GameAnalysis<Coins> = analyse_game(&record, &budget, &|_, _| {});
        let positions = frontend::record_positions::<Coins>(&record);
        assert_eq!(analysis.plies.len(), record.moves.len());
        for (i, ply) in analysis.plies.iter().enumerate() {
            // Each move's loss is what plain minimax says it gave up, and it is marked by the
            // game's thresholds.
            let before = minimax(&positions[i]);
            let after = -minimax(&positions[i + 1]);
            assert_eq!(ply.mover, positions[i].ply % 2);
            assert_eq!(ply.before.value, f64::from(before));
            assert_eq!(ply.after_value, f64::from(after));
            assert_eq!(ply.loss, f64::from(before - after));
            assert!(ply.loss_is_exact);
            let expected = match before - after {
                l if l >= 8 => Some(Mark::Blunder),
                l if l >= 4 => Some(Mark::Mistake),
                l if l >= 2 => Some(Mark::Inaccuracy),
                _ => None,
            };
            if ply.outcome_before == ply.outcome_after {
                assert_eq!(ply.mark, expected, "ply {i}");
            } else {
                assert!(ply.mark.is_some(), "a result turned at ply {i} is marked");
            }
        }
        // The summaries count every move of each seat.
        let moves: usize = [0, 1].iter().map(|&s| analysis.summary(s).moves).sum();
        assert_eq!(moves, record.moves.len());
        assert!(analysis.end.judgement == Judgement::Exact);
    }
}

#[test]
fn the_toy_game_goes_through_the_standings() {
    let perfect = |p: &Coins| {
        move_values(p)
            .into_iter()
            .max_by_key(|(_, v)| *v)
            .map(|(mv, _)| mv)
    };
    let start = Coins::new(&MATCH_ROW);
    let worst = |p: &Coins| {
        move_values(p)
            .into_iter()
            .min_by_key(|(_, v)| *v)
            .map(|(mv, _)| mv)
    };
    // Ann plays perfectly, Bob as badly as he can: Ann wins both games of their match.
    let games = vec![
        ("t game 1".to_string(), {
            let mut turn = 0;
            played_record(start, ["Ann", "Bob"], |p| {
                turn += 1;
                if turn % 2 == 1 { perfect(p) } else { worst(p) }
            })
        }),
        ("t game 2".to_string(), {
            let mut turn = 0;
            played_record(start, ["Bob", "Ann"], |p| {
                turn += 1;
                if turn % 2 == 1 { worst(p) } else { perfect(p) }
            })
        }),
    ];
    let result = standings::<Coins>(&games);
    assert_eq!(result.matches.len(), 1);
    assert_eq!(result.table[0].player, "Ann");
    assert_eq!(result.table[0].match_wins, 1);
    assert_eq!(result.table[0].game_wins, 2);
    let conceded: u32 = games
        .iter()
        .map(|(_, g)| Coins::scores(g).unwrap().iter().sum::<u32>())
        .sum();
    assert_eq!(
        result.table.iter().map(|s| s.squares).sum::<u32>(),
        conceded
    );
}

#[test]
fn the_toy_game_plays_matches() {
    let options = MatchOptions {
        rules: (),
        seed: 3,
        opening_plies: 2,
        clock: None,
    };
    let engine: BuiltIn = "engine:level=1".parse().unwrap();
    let make = || -> Result<[Box<dyn Contestant<Coins>>; 2], String> {
        Ok([
            Box::new(BuiltInPlayer::new(engine, arena::Budget::Nodes(1), 1)),
            Box::new(BuiltInPlayer::new(
                BuiltIn::Random,
                arena::Budget::Nodes(1),
                1,
            )),
        ])
    };
    let heard = std::sync::atomic::AtomicUsize::new(0);
    let on_pair = |pair: &PairResult<Coins>, _: &[PairResult<Coins>], _: Option<&Sprt>| {
        heard.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        assert!(pair.line().starts_with(&format!("pair {:>4}: ", pair.pair)));
        Ok(())
    };
    let schedule = Schedule {
        pairs: 12,
        jobs: 2,
        sprt: None,
    };
    let stop = std::sync::atomic::AtomicBool::new(false);
    let run = run_match(&make, &options, schedule, &stop, &on_pair).unwrap();
    assert!(run.failure.is_none());
    assert_eq!(run.pairs.len(), 12);
    assert_eq!(heard.into_inner(), 12);
    for (i, pair) in run.pairs.iter().enumerate() {
        assert_eq!(pair.pair, i + 1);
        for game in &pair.games {
            // The perfect player gets at least the exact value of the position after the
            // seeded opening, from its seat; the record replays to the scores.
            let mut position = Coins::new(&MATCH_ROW);
            for &mv in &game.played[..options.opening_plies] {
                position.play(mv);
            }
            let value = minimax(&position);
            let engine_seat = usize::from(!game.a_is_first());
            let mover_seat = usize::from(position.ply % 2);
            let engine_value = if engine_seat == mover_seat {
                value
            } else {
                -value
            };
            let [first, second] = game.scores;
            let engine_margin = if engine_seat == 0 {
                second as i32 - first as i32
            } else {
                first as i32 - second as i32
            };
            assert!(engine_margin >= engine_value, "{game:?}");
            let end = record_end(&game.record());
            assert_eq!(end.final_scores(), game.scores);
        }
    }
    // A pair travels between processes as its JSON, read back by replaying every move; a state
    // whose move cannot be played is refused.
    let state = serde_json::to_value(&run.pairs[0]).unwrap();
    let back = PairResult::<Coins>::from_json("standard", &state).unwrap();
    assert_eq!(serde_json::to_value(&back).unwrap(), state);
    assert_eq!(back.games[1].played, run.pairs[0].games[1].played);
    let mut broken = state.clone();
    broken["games"][0]["moves"][0] = "middle".into();
    let refused = PairResult::<Coins>::from_json("standard", &broken)
        .err()
        .unwrap();
    assert!(refused.contains("`middle`"), "{refused}");
    assert!(PairResult::<Coins>::from_json("fancy", &state).is_err());

    let summary = summarize("engine", "random", &run.pairs);
    assert_eq!(summary.forfeits, (0, 0));
    assert_eq!(summary.pairs, 12);
    assert!(summary.mean_margin > 0.0, "{}", summary.mean_margin);

    // A sequential test that decides (the perfect player is far stronger) ends the match before
    // its last pair.
    let sprt = Sprt::new(-50.0, 400.0, 0.05, 0.05).unwrap();
    let schedule = Schedule {
        pairs: 200,
        jobs: 1,
        sprt: Some((sprt, SprtOn::Pairs)),
    };
    let run = run_match(&make, &options, schedule, &stop, &|_, _, _| Ok(())).unwrap();
    let sprt = run.sprt.expect("the test");
    assert_ne!(sprt.verdict(), SprtVerdict::Continue);
    assert!(run.pairs.len() < 200, "{}", run.pairs.len());

    // A contestant the game refuses, and a report that fails, end the match with the reason.
    assert!(Coins::plays(&BuiltIn::Policy).is_err());
    let failing = |_: &PairResult<Coins>, _: &[PairResult<Coins>], _: Option<&Sprt>| {
        Err("the disk is full".to_string())
    };
    let schedule = Schedule {
        pairs: 4,
        jobs: 1,
        sprt: None,
    };
    let run = run_match(&make, &options, schedule, &stop, &failing).unwrap();
    assert_eq!(run.failure.as_deref(), Some("the disk is full"));
    assert!(run.pairs.is_empty());
}

// ---------------------------------------------------------------------------------------------
// A move that keeps the turn (Cathedral's Lehmann-Woods opening: Light places the Cathedral and
// then its first building). Every search must add such a child's value as it is, not negate it.

/// Coins in a row where taking a coin worth 0 or 1 gives the taker another turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct BonusCoins(Coins);

impl BonusCoins {
    fn taken(&self, mv: End) -> u8 {
        let row = &self.0;
        match mv {
            End::Left => row.coins[row.left as usize],
            End::Right => row.coins[row.right as usize - 1],
        }
    }
}

impl Game for BonusCoins {
    type Move = End;
    type Buffer = Vec<End>;
    const MIN_VALUE: i32 = Coins::MIN_VALUE;
    const MAX_VALUE: i32 = Coins::MAX_VALUE;

    fn key(&self) -> (u64, u64) {
        self.0.key()
    }
    fn generate(&self, buffer: &mut Vec<End>) {
        self.0.generate(buffer);
    }
    fn moves(buffer: &mut Vec<End>) -> &mut [End] {
        buffer
    }
    fn keeps_turn(&self, mv: End) -> bool {
        self.taken(mv) <= 1
    }
    fn play(&mut self, mv: End) {
        let keeps = self.keeps_turn(mv);
        let before = self.0.diff;
        self.0.play(mv);
        if keeps {
            // `Coins::play` handed the turn over; take it back.
            self.0.diff = before + i32::from(self.taken_back(mv));
        }
    }
    fn terminal_value(&self) -> i32 {
        self.0.diff
    }
    fn bounds(&self) -> (i32, i32) {
        self.0.bounds()
    }
    fn encode(mv: End) -> u32 {
        Coins::encode(mv)
    }
    fn decode(code: u32) -> End {
        Coins::decode(code)
    }
}

impl BonusCoins {
    /// The coin `mv` has just taken (after `Coins::play`).
    fn taken_back(&self, mv: End) -> u8 {
        let row = &self.0;
        match mv {
            End::Left => row.coins[row.left as usize - 1],
            End::Right => row.coins[row.right as usize],
        }
    }
}

impl cathedral::boardgame::engine::Evaluate for BonusCoins {
    type Params = ();
    /// The coins so far, plus half of what is left (a deliberately rough guess).
    fn evaluate(&self, _params: &()) -> i32 {
        self.0.diff * 100 + self.0.remaining() * 50
    }
    /// The position the accumulator was made for: each use checks the search handed over the
    /// accumulator of the right position (the parent's to update, the position's to evaluate).
    type Accumulator = Option<BonusCoins>;
    fn accumulate(&self, _params: &(), out: &mut Option<BonusCoins>) {
        *out = Some(*self);
    }
    fn accumulate_from(
        &self,
        parent: &Self,
        from: &Option<BonusCoins>,
        _params: &(),
        out: &mut Option<BonusCoins>,
    ) {
        assert_eq!(*from, Some(*parent), "the parent's accumulator");
        *out = Some(*self);
    }
    fn evaluate_accumulated(&self, accumulator: &Option<BonusCoins>, params: &()) -> i32 {
        assert_eq!(*accumulator, Some(*self), "the position's own accumulator");
        self.evaluate(params)
    }
    fn max_plies_left(&self) -> u32 {
        u32::from(self.0.right - self.0.left)
    }
}

/// The reference: plain recursion to `depth` plies (the evaluation at the horizon), adding a
/// child's value as it is where the mover keeps the turn.
fn bonus_minimax(position: &BonusCoins, depth: u32) -> i32 {
    use cathedral::boardgame::engine::Evaluate;
    let mut moves = Vec::new();
    position.generate(&mut moves);
    if moves.is_empty() {
        return position.terminal_value() * 100;
    }
    if depth == 0 {
        return position.evaluate(&());
    }
    moves
        .iter()
        .map(|&mv| bonus_move_value(position, mv, depth))
        .max()
        .expect("a move")
}

fn bonus_move_value(position: &BonusCoins, mv: End, depth: u32) -> i32 {
    let mut child = *position;
    child.play(mv);
    let value = bonus_minimax(&child, depth - 1);
    if position.keeps_turn(mv) {
        value
    } else {
        -value
    }
}

#[test]
fn searches_add_the_value_of_a_move_that_keeps_the_turn_as_it_is() {
    let mut rng = Rng::new(23);
    let mut kept = 0;
    for _ in 0..200 {
        let position = BonusCoins(Coins::new(&random_row(&mut rng)));
        let plies = position.0.right as u32;
        let exact = bonus_minimax(&position, plies) / 100;
        // The exact solver, its root moves and its line, on one and two threads.
        for threads in [1, 2] {
            let solution = solve(&position, &options(threads, false), &|_| {});
            assert_eq!(solution.value(), Some(exact), "{position:?}");
            for root in &solution.root_moves {
                let value = bonus_move_value(&position, root.mv, plies) / 100;
                assert_eq!((root.lower, root.upper), (value, value), "{position:?}");
            }
            let mut end = position;
            let mut mover_view = 1;
            for &mv in &solution.best_line {
                if end.keeps_turn(mv) {
                    kept += 1;
                } else {
                    mover_view = -mover_view;
                }
                end.play(mv);
            }
            assert!(end.is_over(), "{position:?}: the line stops early");
            assert_eq!(mover_view * end.terminal_value(), exact, "{position:?}");
        }
        // The estimating search, without reductions or pruning, is plain minimax to each depth.
        for depth in 1..=plies.min(4) {
            let thought = cathedral::boardgame::engine::think(
                &position,
                &cathedral::boardgame::engine::EngineOptions {
                    time: None,
                    max_depth: depth,
                    reductions: false,
                    pruning: false,
                    multi_pv: 2,
                    tt_mb: 1,
                    ..Default::default()
                },
                &(),
                &mut |_| {},
            );
            assert_eq!(
                thought.estimate,
                bonus_minimax(&position, depth),
                "{position:?} at depth {depth}"
            );
            for candidate in &thought.candidates {
                assert_eq!(
                    candidate.estimate,
                    bonus_move_value(&position, candidate.mv, depth),
                    "{position:?} at depth {depth}"
                );
            }
        }
    }
    assert!(
        kept > 50,
        "only {kept} moves kept the turn on the best lines"
    );
}

// ---------------------------------------------------------------------------------------------
// The estimating search and the game's proven bounds: an estimate the game proves wrong is
// never the search's answer.

/// The plain toy game's evaluation lies: it always says the side to move takes every coin left
/// and one more, or the opponent does, outside the bounds [`Coins::bounds`] proves (only the
/// test below searches the plain game with the engine).
impl cathedral::boardgame::engine::Evaluate for Coins {
    type Params = ();
    fn evaluate(&self, _params: &()) -> i32 {
        let beyond = self.remaining() + 1;
        let lie = if self.key().0.count_ones().is_multiple_of(2) {
            beyond
        } else {
            -beyond
        };
        (self.diff + 2 * lie) * 100
    }
    type Accumulator = ();
    /// A row of at most ten coins is small enough: the horizon positions are solved exactly,
    /// the principal line's and the scouts' (the two tests after the next hold the search to
    /// it).
    fn horizon_solve_budget(&self, _principal: bool) -> u64 {
        1000
    }
}

#[test]
fn the_estimating_search_keeps_its_estimates_within_what_the_game_proves() {
    use cathedral::boardgame::engine::{EngineOptions, think};
    let mut rng = Rng::new(29);
    let mut outside = 0;
    for _ in 0..200 {
        let position = Coins::new(&random_row(&mut rng));
        if position.is_over() {
            continue;
        }
        let (lower, upper) = position.bounds();
        for depth in 1..=4 {
            let search = |pruning| {
                let options = EngineOptions {
                    time: None,
                    max_depth: depth,
                    pruning,
                    multi_pv: 2,
                    tt_mb: 1,
                    ..Default::default()
                };
                think(&position, &options, &(), &mut |_| {})
            };
            // The play's search: the root's estimate and each root move's lie within their
            // proven bounds.
            let thought = search(true);
            assert!(
                (lower * 100..=upper * 100).contains(&thought.estimate),
                "{position:?} at depth {depth}: {} outside {lower}..{upper}",
                thought.estimate
            );
            for candidate in &thought.candidates {
                let mut child = position;
                child.play(candidate.mv);
                let (child_lower, child_upper) = child.bounds();
                assert!(
                    (-child_upper * 100..=-child_lower * 100).contains(&candidate.estimate),
                    "{position:?} at depth {depth}: {:?} {} outside {child_lower}..{child_upper}",
                    candidate.mv,
                    candidate.estimate
                );
            }
            // Without the play's pruning the lie stands: the search is plain minimax.
            let plain = search(false).estimate;
            if !(lower * 100..=upper * 100).contains(&plain) {
                outside += 1;
            }
        }
    }
    assert!(
        outside > 300,
        "the lie was outside the bounds only {outside} times"
    );
}

/// The play's search (pruning on, one thread, the best move alone) to `depth` plies, with no
/// clock.
fn to_depth(depth: u32) -> cathedral::boardgame::engine::EngineOptions {
    cathedral::boardgame::engine::EngineOptions {
        time: None,
        max_depth: depth,
        multi_pv: 1,
        tt_mb: 1,
        ..Default::default()
    }
}

/// With the principal line's horizon positions solved exactly, the play's search estimates
/// exactly what its own line leads to, whatever the evaluation says: the root's estimate is the
/// exact value of the position its principal variation ends in. (The evaluation lies at every
/// other node, so the line itself need not be the best.)
#[test]
fn the_estimating_search_solves_its_principal_lines_horizon() {
    use cathedral::boardgame::engine::think;
    let mut rng = Rng::new(31);
    let mut checked = 0;
    for _ in 0..300 {
        let position = Coins::new(&random_row(&mut rng));
        if position.is_over() {
            continue;
        }
        for depth in 1..=4 {
            let thought = think(&position, &to_depth(depth), &(), &mut |_| {});
            let mut end = position;
            let mut sign = 1;
            for &mv in &thought.pv {
                end.play(mv);
                sign = -sign;
            }
            // A line cut short by the table says nothing about its horizon.
            if thought.pv.len() < depth as usize && !end.is_over() {
                continue;
            }
            assert_eq!(
                thought.estimate,
                sign * minimax(&end) * 100,
                "{position:?} at depth {depth}: the line {:?}",
                thought.pv
            );
            checked += 1;
        }
    }
    assert!(checked > 600, "only {checked} lines reached their horizon");
}

/// One ply deep, every root move leads to a horizon position: the first is searched with the
/// full window, the others by null-window scouts, re-searched in full only where they beat the
/// best so far. The lying evaluation misjudges a scout on either side, and one misjudged low
/// hides the better move (the principal line's solves never see it): only the scouts' solves
/// give the root's exact value here.
#[test]
fn the_estimating_search_solves_its_scouts_horizons() {
    use cathedral::boardgame::engine::think;
    let mut rng = Rng::new(37);
    let mut checked = 0;
    for _ in 0..300 {
        let position = Coins::new(&random_row(&mut rng));
        if position.is_over() {
            continue;
        }
        let thought = think(&position, &to_depth(1), &(), &mut |_| {});
        assert_eq!(
            thought.estimate,
            minimax(&position) * 100,
            "{position:?}: the line {:?}",
            thought.pv
        );
        checked += 1;
    }
    assert!(checked > 250, "only {checked} positions checked");
}
