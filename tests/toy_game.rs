//! The generic core is really generic: a toy game that is not Cathedral implements
//! `boardgame::Game` and is solved by the same driver, checked against a plain recursion; it
//! implements `frontend::Playable` too and is driven through the command code that
//! `cathedral show|moves|play|perft|solve|render` run for every game.
//!
//! The game ("coins in a row"): a row of coins worth 0-9; the players take turns taking the
//! coin at either end; the final score is the mover's coins minus the opponent's.

use cathedral::boardgame::{Game, Rng, Solution, SolveOptions, Stats, divide, perft, solve};
use cathedral::file::FileError;
use cathedral::frontend::{
    self, Bundled, EngineChoice, EngineInfo, EngineRequest, Loaded, MovesReport, Playable,
    SvgRequest, TextStyle,
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
        for threads in [1, 2] {
            let solution = solve(&position, &options(threads, false), &|_| {});
            assert!(solution.complete, "{row:?}");
            assert_eq!(
                solution.value(),
                Some(expected),
                "{row:?}, {threads} threads"
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
        let solution = solve(&position, &options(1, true), &|_| {});
        assert_eq!(
            solution.value(),
            Some(minimax(&position).signum()),
            "{row:?}"
        );
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

impl Playable for Coins {
    const NAME: &'static str = "coins";
    const EXAMPLE_MOVES: &'static str = "`left right`";
    const MOVE_GROUP: &'static str = "end";

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

    fn parse_move(&self, text: &str) -> Result<End, String> {
        let mv = match text {
            "left" => End::Left,
            "right" => End::Right,
            _ => return Err(format!("`{text}` is not `left` or `right`")),
        };
        let mut legal = Vec::new();
        self.generate(&mut legal);
        if legal.contains(&mv) {
            Ok(mv)
        } else {
            Err("there is no coin left to take".to_string())
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
        // The estimating search, without reductions, is plain minimax to each depth.
        for depth in 1..=plies.min(4) {
            let thought = cathedral::boardgame::engine::think(
                &position,
                &cathedral::boardgame::engine::EngineOptions {
                    time: None,
                    max_depth: depth,
                    reductions: false,
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
