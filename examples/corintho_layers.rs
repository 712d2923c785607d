//! How big an endgame database of two-player Corintho would be: the number of foundations
//! (16 platforms, each empty or one of the six stacks `B C K BC CK BCK`) that hold exactly the
//! sections placed when S sections are left in the two supplies (4 of each level per player,
//! 24 in all), for S = 0..=MAX. A position adds to its foundation the split of the supplies
//! between the players, the locked platform, the side to move and the claim to answer, so these
//! counts are lower bounds on a layer's positions (docs/corintho.md, "The start: what is
//! proven"). Plain counting by a generating function, no search.
//!
//! `cargo run --release --example corintho_layers -- MAX`

/// (bases, columns, capitals) of each platform state: empty, B, C, K, BC, CK, BCK.
const STATES: [[usize; 3]; 7] = [
    [0, 0, 0],
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
    [1, 1, 0],
    [0, 1, 1],
    [1, 1, 1],
];
/// Sections of one level in both supplies together.
const PER_LEVEL: usize = 8;
const PLATFORMS: usize = 16;

fn main() {
    let max: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(6);
    // boards[b][c][k]: foundations using b bases, c columns and k capitals, built one platform
    // at a time (u128: the largest count is below 7^16).
    let side = PER_LEVEL + 1;
    let index = |b: usize, c: usize, k: usize| (b * side + c) * side + k;
    let mut boards = vec![0u128; side * side * side];
    boards[index(0, 0, 0)] = 1;
    for _ in 0..PLATFORMS {
        let mut next = vec![0u128; boards.len()];
        for b in 0..side {
            for c in 0..side {
                for k in 0..side {
                    let count = boards[index(b, c, k)];
                    if count == 0 {
                        continue;
                    }
                    for [x, y, z] in STATES {
                        if b + x < side && c + y < side && k + z < side {
                            next[index(b + x, c + y, k + z)] += count;
                        }
                    }
                }
            }
        }
        boards = next;
    }
    println!("sections left | foundations | up to the 8 symmetries (at least)");
    for left in 0..=max.min(3 * PER_LEVEL) {
        let mut total = 0u128;
        for b in 0..side {
            for c in 0..side {
                for k in 0..side {
                    if 3 * PER_LEVEL - (b + c + k) == left {
                        total += boards[index(b, c, k)];
                    }
                }
            }
        }
        println!(
            "{left:>13} | {total:>11.3e} | {:>11.3e}",
            total as f64 / 8.0
        );
    }
}
