//! The generic core is really generic: a toy game that is not Cathedral implements
//! `boardgame::Game` and is solved by the same driver, checked against a plain recursion.
//!
//! The game ("coins in a row"): a row of coins worth 0-9; the players take turns taking the
//! coin at either end; the final score is the mover's coins minus the opponent's.

use cathedral::boardgame::{Game, Rng, SolveOptions, divide, perft, solve};

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
