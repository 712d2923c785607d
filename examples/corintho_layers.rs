//! How big an endgame database of two-player Corintho would be: the number of foundations
//! (16 platforms, each empty or one of the six stacks `B C K BC CK BCK`) that hold exactly the
//! sections placed when S sections are left in the two supplies (4 of each level per player,
//! 24 in all), for S = 0..=MAX. A position adds to its foundation the split of the supplies
//! between the players, the locked platform, the side to move and the claim to answer.
//!
//! A position where no claim waits for its answer has no row standing (docs/corintho.md, "Rows,
//! claims and the win"), so the second count keeps only the **row-free** foundations: no line
//! of three platforms all occupied with the same top. Those are what a database of the
//! positions between claims would hold, before the split of the supplies, the lock and the side
//! to move multiply them (and before asking which are reachable from the start). The first count
//! is plain counting by a generating function; the second enumerates every row-free pattern of
//! tops (empty, base, column or capital on each platform: about 1.6 x 10^9 of the 4^16) and
//! multiplies each by its stacks (a column top is `C` or `BC`, a capital top `K`, `CK` or
//! `BCK`), within 8 sections of each level. No search; about half a minute.
//!
//! `cargo run --release --features tools --example corintho_layers -- MAX`

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
    let row_free = row_free_by_layer();
    println!(
        "sections left | foundations | up to the 8 symmetries (at least) | row-free | row-free up to the symmetries (at least)"
    );
    for (left, row_free) in row_free.iter().enumerate().take(max.min(3 * PER_LEVEL) + 1) {
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
            "{left:>13} | {total:>11.3e} | {:>11.3e} | {:>11.3e} | {:>11.3e}",
            total as f64 / 8.0,
            row_free,
            row_free / 8.0
        );
    }
    let all: f64 = row_free.iter().sum();
    println!(
        "every layer: {all:.3e} row-free foundations, {:.3e} up to the symmetries",
        all / 8.0
    );
}

/// The 24 lines of three platforms (platform = rank * 4 + file), each as its two lower
/// platforms, filed under its highest: the enumeration below fills the platforms in order and
/// checks a line when its last platform is filled.
fn lines_ending_at() -> [Vec<[usize; 2]>; PLATFORMS] {
    let mut ending: [Vec<[usize; 2]>; PLATFORMS] = Default::default();
    let mut lines = 0;
    for rank in 0..4i32 {
        for file in 0..4i32 {
            for (dr, df) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                let (r2, f2) = (rank + 2 * dr, file + 2 * df);
                if (0..4).contains(&r2) && (0..4).contains(&f2) {
                    let at = |r: i32, f: i32| (r * 4 + f) as usize;
                    ending[at(r2, f2)].push([at(rank, file), at(rank + dr, file + df)]);
                    lines += 1;
                }
            }
        }
    }
    assert_eq!(lines, 24);
    ending
}

/// Row-free foundations by sections left in the two supplies (index 0..=24).
fn row_free_by_layer() -> Vec<f64> {
    // Row-free patterns of tops (0 empty, 1 base, 2 column, 3 capital), counted by how many
    // platforms have each top: patterns[(b * 17 + c) * 17 + k].
    fn fill(
        platform: usize,
        tops: &mut [u8; PLATFORMS],
        counts: &mut [usize; 4],
        ending: &[Vec<[usize; 2]>; PLATFORMS],
        patterns: &mut [u64],
    ) {
        if platform == PLATFORMS {
            patterns[(counts[1] * 17 + counts[2]) * 17 + counts[3]] += 1;
            return;
        }
        for top in 0..4u8 {
            if top != 0
                && ending[platform]
                    .iter()
                    .any(|&[a, b]| tops[a] == top && tops[b] == top)
            {
                continue;
            }
            tops[platform] = top;
            counts[usize::from(top)] += 1;
            fill(platform + 1, tops, counts, ending, patterns);
            counts[usize::from(top)] -= 1;
        }
        tops[platform] = 0;
    }
    let ending = lines_ending_at();
    let mut patterns = vec![0u64; 17 * 17 * 17];
    fill(0, &mut [0; PLATFORMS], &mut [0; 4], &ending, &mut patterns);
    let mut choose = [[0f64; 17]; 17];
    for n in 0..17 {
        choose[n][0] = 1.0;
        for k in 1..=n {
            choose[n][k] = choose[n - 1][k - 1] + choose[n - 1][k];
        }
    }
    let mut layers = vec![0f64; 3 * PER_LEVEL + 1];
    for b in 0..=PLATFORMS {
        for c in 0..=PLATFORMS - b {
            for k in 0..=PLATFORMS - b - c {
                let count = patterns[(b * 17 + c) * 17 + k] as f64;
                if count == 0.0 {
                    continue;
                }
                // Of the c column tops, x stand on a base (BC); of the k capital tops, y are CK
                // and z BCK.
                for x in 0..=c {
                    for y in 0..=k {
                        for z in 0..=k - y {
                            let (bases, columns, capitals) = (b + x + z, c + y + z, k);
                            if bases <= PER_LEVEL && columns <= PER_LEVEL && capitals <= PER_LEVEL {
                                layers[3 * PER_LEVEL - bases - columns - capitals] +=
                                    count * choose[c][x] * choose[k][y] * choose[k - y][z];
                            }
                        }
                    }
                }
            }
        }
    }
    layers
}
