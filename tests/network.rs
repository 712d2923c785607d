//! The learned evaluation's inference against plain reference code: the sparse inputs against the
//! dense ones, the engine's inference against a textbook one in `f64` and against the outputs the
//! trainer (candle) recorded with the weights, and located errors for bad weights files.

use cathedral::boardgame::Rng;
use cathedral::engine::accumulator::PlaneSums;
use cathedral::engine::eval::{Evaluation, NETWORK_BUILDINGS, WEIGHTS, Weights, estimate};
use cathedral::engine::inputs::{
    Counting, INPUTS, SUMMARY, SparseInputs, inputs, placement_count_inputs, summary_counting,
    summary_of,
};
use cathedral::engine::network::Network;
use cathedral::policy::{Policy, play_game};
use cathedral::sampler::buildings_left;
use cathedral::{Bitboard, Piece, Player, Position, Rules, table};

/// Positions of seeded policy games after the Cathedral is placed, from start to end.
fn positions(games: u64) -> Vec<Position> {
    let policy = Policy::default();
    (0..games)
        .flat_map(|game| {
            let mut rng = Rng::new(1000 + game);
            play_game(Position::new(Rules::CLASSIC), &policy, &mut rng, |_, _| {
                false
            })
        })
        .filter(|p| !p.cathedral_to_place())
        .collect()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-3 * (1.0 + a.abs().max(b.abs()))
}

#[test]
fn the_sparse_inputs_are_the_dense_ones() {
    for position in positions(20) {
        let dense = inputs(&position);
        let sparse = SparseInputs::of(&position);
        assert_eq!(dense[..SUMMARY], sparse.summary[..]);
        let mut active: Vec<usize> = sparse.active().iter().map(|&i| usize::from(i)).collect();
        active.sort_unstable();
        let ones: Vec<usize> = (SUMMARY..INPUTS).filter(|&i| dense[i] != 0.0).collect();
        assert_eq!(active, ones);
        assert!(ones.iter().all(|&i| dense[i] == 1.0));
    }
}

/// The inputs before the planes, from their documentation, by plain enumeration of the placement
/// table's masks: a reference for [`inputs`], which counts with shifted bitboards.
fn reference_summary(position: &Position) -> Vec<f32> {
    let table = table();
    let me = position.to_move();
    let mut out = Vec::new();
    for player in [me, me.opponent()] {
        let side = position.side(player);
        let free = !position.occupied() - position.side(player.opponent()).territory;
        let own = side.territory - position.occupied();
        let fitting = |piece: Piece, cells: Bitboard| {
            table
                .ids(Some(player), piece)
                .filter(|&id| {
                    let mask = table.get(id).mask;
                    mask & cells == mask
                })
                .count() as u32
        };
        let mut all = 0;
        let mut kinds = [[0.0f32; 4]; Piece::PLAYER_KINDS.len()];
        for piece in Piece::PLAYER_KINDS {
            let count = side.hand.count(piece);
            if count == 0 {
                continue;
            }
            let placements = fitting(piece, free);
            let when = |yes: bool| if yes { f32::from(count) } else { 0.0 };
            kinds[piece.index()] = [
                f32::from(count),
                when(placements > 0),
                when(fitting(piece, own) > 0),
                (placements as f32).ln_1p(),
            ];
            all += placements;
        }
        out.extend(kinds.iter().flatten());
        out.extend([
            side.hand.squares() as f32 / 10.0,
            own.count() as f32 / 10.0,
            free.count() as f32 / 10.0,
            (all as f32).ln_1p(),
        ]);
    }
    out.push(f32::from(u8::from(me == Player::Light)));
    out
}

#[test]
fn the_summary_inputs_are_what_they_say() {
    let positions = positions(30);
    let (mut stuck, mut safe) = (0, 0);
    for position in &positions {
        let fast = inputs(position);
        let reference = reference_summary(position);
        assert_eq!(reference.len(), SUMMARY);
        assert_eq!(fast[..SUMMARY], reference[..], "{position:?}");
        // Kinds in hand that fit nowhere, and kinds that fit in their owner's territory: the
        // positions hold both, so the test reaches every branch.
        let per_player = (SUMMARY - 1) / 2;
        let kinds = (0..2).flat_map(|slot| {
            (0..Piece::PLAYER_KINDS.len()).map(move |k| slot * per_player + 4 * k)
        });
        stuck += kinds
            .clone()
            .filter(|&at| reference[at + 1] < reference[at])
            .count();
        safe += kinds.filter(|&at| reference[at + 2] > 0.0).count();
    }
    assert!(stuck > 100 && safe > 100, "{stuck} stuck, {safe} safe");
}

#[test]
fn the_engines_inference_agrees_with_the_reference_on_many_positions() {
    let network = Network::builtin();
    let positions = positions(40);
    assert!(positions.len() > 1000);
    for position in &positions {
        let dense = inputs(position);
        let reference = network.forward_reference(&dense);
        let plain = f64::from(network.forward(&dense));
        let fast = f64::from(network.estimate(&SparseInputs::of(position)));
        assert!(close(reference, plain), "{reference} against {plain}");
        assert!(close(reference, fast), "{reference} against {fast}");
        // The engine asks the network only within its training data's reach.
        let evaluated = Evaluation::Network.estimate(position);
        let expected = if buildings_left(position) <= NETWORK_BUILDINGS {
            fast
        } else {
            estimate(position, &WEIGHTS)
        };
        assert!(close(evaluated, expected), "{evaluated} against {expected}");
    }
}

#[test]
fn a_network_judging_up_to_some_buildings_leaves_the_rest_to_the_linear_features() {
    // As a network trained on exact values alone labels the next generation's data
    // (examples/train_network.rs): the network up to 8 buildings, the linear features beyond,
    // with and without the accumulator.
    let network = Network::builtin();
    let bounded = Evaluation::LearnedUpTo {
        network,
        buildings: 8,
    };
    let (mut below, mut above) = (0, 0);
    for position in positions(12) {
        if position.cathedral_to_place() {
            continue;
        }
        let expected = if buildings_left(&position) <= 8 {
            below += 1;
            Evaluation::Learned(network).estimate(&position)
        } else {
            above += 1;
            estimate(&position, &WEIGHTS)
        };
        let sums = PlaneSums::of(network, &position);
        for got in [
            bounded.estimate(&position),
            bounded.estimate_accumulated(&position, &sums),
        ] {
            assert_eq!(
                got.to_bits(),
                expected.to_bits(),
                "{got} against {expected}"
            );
        }
    }
    assert!(below > 50 && above > 50, "both sides: {below} and {above}");
}

#[test]
fn the_accumulator_updated_move_by_move_is_the_one_made_afresh() {
    // The committed network and one of every width, whose fixed points differ.
    let mut networks = vec![Network::builtin()];
    for (h1, h2) in [(16, 8), (64, 32), (128, 16)] {
        let network = Network::parse(&weights_text(h1, h2, 2000 + h1 as u64)).expect("reads");
        networks.push(Box::leak(Box::new(network)));
    }
    let mut rng = Rng::new(5);
    for (n, &network) in networks.iter().enumerate() {
        let evaluation = Evaluation::Learned(network);
        for game in 0..6 {
            let mut game_rng = Rng::new(500 + 10 * n as u64 + game);
            let line = play_game(
                Position::new(Rules::CLASSIC),
                &Policy::default(),
                &mut game_rng,
                |_, _| false,
            );
            // Move by move, as the search updates them: placements, claims, captures, passes.
            let mut sums = PlaneSums::of(network, &line[0]);
            let mut updates = 0;
            for pair in line.windows(2) {
                let mut next = PlaneSums::default();
                next.update(network, &pair[0], &sums, &pair[1]);
                assert_eq!(next, PlaneSums::of(network, &pair[1]));
                let (fast, plain) = (
                    evaluation.estimate_accumulated(&pair[1], &next),
                    evaluation.estimate(&pair[1]),
                );
                assert_eq!(fast.to_bits(), plain.to_bits(), "{fast} against {plain}");
                sums = next;
                updates += 1;
            }
            assert!(updates > 20, "a whole game: {updates} moves");
            // Between any two positions of the game too: the update is the cells that differ.
            for _ in 0..20 {
                let (i, j) = (
                    rng.below(line.len() as u64) as usize,
                    rng.below(line.len() as u64) as usize,
                );
                let mut sums = PlaneSums::default();
                sums.update(
                    network,
                    &line[i],
                    &PlaneSums::of(network, &line[i]),
                    &line[j],
                );
                assert_eq!(sums, PlaneSums::of(network, &line[j]));
            }
        }
    }
    // An empty accumulator is made afresh, never read as a position's.
    let position = &positions(1)[5];
    let mut sums = PlaneSums::default();
    sums.update(
        Network::builtin(),
        &positions(1)[4],
        &PlaneSums::default(),
        position,
    );
    assert_eq!(sums, PlaneSums::of(Network::builtin(), position));
    assert!(
        PlaneSums::default()
            .view(cathedral::Player::Light)
            .is_none()
    );
    let evaluation = Evaluation::Network;
    assert_eq!(
        evaluation
            .estimate_accumulated(position, &PlaneSums::default())
            .to_bits(),
        evaluation.estimate(position).to_bits()
    );
}

#[test]
fn the_inference_reproduces_the_trainers_outputs() {
    let network = Network::builtin();
    assert!(
        network.checks().len() >= 8,
        "the weights carry the trainer's checks"
    );
    for (x, expected) in network.checks() {
        let got = network.forward(x);
        assert!(
            close(f64::from(got), f64::from(*expected)),
            "{got} against candle's {expected}"
        );
        assert!(close(network.forward_reference(x), f64::from(*expected)));
    }
}

#[test]
fn the_network_judges_the_endgame_better_than_material() {
    // Not a test of strength (matches are), but a guard against weights that read the inputs
    // wrongly: on positions a few buildings from the end the network must beat counting squares
    // in hand, which a scrambled input order would not.
    let policy = Policy::default();
    let mut errors = (0.0, 0.0);
    let mut count = 0;
    for game in 0..30 {
        let mut rng = Rng::new(77 + game);
        let positions = play_game(Position::new(Rules::CLASSIC), &policy, &mut rng, |_, _| {
            false
        });
        for position in positions.iter().rev().skip(1).take(4) {
            let exact = cathedral::boardgame::solve(
                position,
                &cathedral::boardgame::SolveOptions::default(),
                &|_| {},
            );
            let Some(value) = exact.value() else { continue };
            let value = f64::from(value);
            errors.0 += (Evaluation::Network.estimate(position) - value).abs();
            errors.1 += (estimate(position, &Weights::MATERIAL.0) - value).abs();
            count += 1;
        }
    }
    assert!(count >= 60);
    assert!(
        errors.0 < errors.1,
        "network {} against material {}",
        errors.0 / f64::from(count),
        errors.1 / f64::from(count)
    );
}

/// A weights file with `h1` and `h2` hidden units whose numbers come from `seed` (small, of both
/// signs, so that the rectifiers cut some units off and pass others).
fn weights_text(h1: usize, h2: usize, seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let mut numbers = |n: usize, scale: f64| {
        (0..n)
            .map(|_| format!("{:.6}", (rng.below(2001) as f64 / 1000.0 - 1.0) * scale))
            .collect::<Vec<_>>()
            .join(" ")
    };
    format!(
        "w1 {h1} {INPUTS}\n{}\nb1 1 {h1}\n{}\nw2 {h2} {h1}\n{}\nb2 1 {h2}\n{}\nw3 1 {h2}\n{}\nb3 1 1\n{}\nskip 1 {INPUTS}\n{}\n",
        numbers(h1 * INPUTS, 0.2),
        numbers(h1, 0.5),
        numbers(h2 * h1, 0.3),
        numbers(h2, 0.5),
        numbers(h2, 1.0),
        numbers(1, 1.0),
        numbers(INPUTS, 0.1),
    )
}

#[test]
fn the_inference_agrees_with_the_reference_at_every_width() {
    let positions = positions(3);
    for (h1, h2) in [(16, 8), (32, 5), (64, 32), (128, 16)] {
        let network = Network::parse(&weights_text(h1, h2, 1000 + h1 as u64))
            .expect("a generated file reads");
        assert_eq!(network.to_string(), format!("{INPUTS}-{h1}-{h2}-1"));
        for position in &positions {
            let dense = inputs(position);
            let reference = network.forward_reference(&dense);
            let fast = f64::from(network.estimate(&SparseInputs::of(position)));
            assert!(
                close(reference, fast),
                "{h1}-{h2}: {reference} against {fast}"
            );
        }
    }
}

#[test]
fn bad_weights_are_refused_with_the_line() {
    let zeros = |n: usize| vec!["0"; n].join(" ");
    let good = format!(
        "# a comment\nw1 16 {INPUTS}\n{}\nb1 1 16\n{} 0\nw2 1 16\n{}\nb2 1 1\n0\nw3 1 1\n1\nb3 1 1\n0.5\nskip 1 {INPUTS}\n{}\n",
        zeros(16 * INPUTS),
        zeros(15),
        zeros(16),
        zeros(INPUTS)
    );
    let network = Network::parse(&good).expect("a well-formed file reads");
    assert_eq!(network.forward(&[0.0; INPUTS]), 0.5);
    assert_eq!(network.to_string(), format!("{INPUTS}-16-1-1"));
    let cases = [
        (
            good.replace("b1 1 16\n0 0", "b1 1 16\nx 0"),
            "line 5: `x` is not a number",
        ),
        (
            good.replace("w2 1 16", "w2 16 1"),
            "`w2` is 16 x 1, expected H x 16",
        ),
        (good.replace("b3 1 1\n0.5\n", ""), "no tensor `b3`"),
        (
            good.replace("w3 1 1\n1", "w3 1 1\nNaN"),
            "`NaN` is not finite",
        ),
        (good.replace("w3 1 1", "w3 one 1"), "`one` is not a size"),
        (good[..good.len() - 4].to_string(), "`skip` ends after"),
        (
            weights_text(24, 4, 1),
            "the first must have 16, 32, 64 or 128 units",
        ),
    ];
    for (text, expected) in cases {
        let error = Network::parse(&text).expect_err(expected).to_string();
        assert!(
            error.contains(expected),
            "{error:?} should say {expected:?}"
        );
    }
}

/// The committed network with every weight of the placements' counts set to 0, written out as a
/// weights file: what `train_eval --fits-only` makes.
fn without_counts(network: &Network) -> String {
    let counts: Vec<usize> = placement_count_inputs().collect();
    let mut text = String::new();
    for (name, rows, cols, mut values) in network.tensors() {
        if name == "w1" || name == "skip" {
            for row in values.chunks_mut(cols) {
                for &i in &counts {
                    row[i] = 0.0;
                }
            }
        }
        text.push_str(&format!("{name} {rows} {cols}\n"));
        for row in values.chunks(cols) {
            let words: Vec<String> = row.iter().map(|v| format!("{v:e}")).collect();
            text.push_str(&words.join(" "));
            text.push('\n');
        }
    }
    text
}

#[test]
fn a_network_without_the_counts_is_judged_without_counting() {
    let full = Network::builtin();
    assert_eq!(full.counting(), Counting::All);
    let fits_only: &'static Network = Box::leak(Box::new(
        Network::parse(&without_counts(full)).expect("a written file reads"),
    ));
    assert_eq!(fits_only.counting(), Counting::FitsOnly);
    let evaluation = Evaluation::Learned(fits_only);
    // The counted inputs are the ones the docs name: 4k + 3 and the totals' last, per player.
    let counts: Vec<usize> = placement_count_inputs().collect();
    assert_eq!(counts.len(), 24);
    let (mut counted, mut differ) = (0, 0);
    for position in positions(20) {
        let all = summary_of(&position);
        let fits = summary_counting(&position, Counting::FitsOnly);
        for i in 0..SUMMARY {
            if counts.contains(&i) {
                assert_eq!(fits[i], 0.0, "input {i} is left at 0");
                counted += usize::from(all[i] != 0.0);
            } else {
                // Whether a kind fits, fits safely, and the totals: found without counting, the
                // same as from the counts.
                assert_eq!(fits[i], all[i], "input {i} of {position:?}");
            }
        }
        // Zero weights read zero inputs: the same estimate, bit for bit, counted or not, and
        // the evaluation (which asks the network what to compute) gives it.
        let exact = fits_only.estimate(&SparseInputs::of(&position));
        let cheap = fits_only.estimate(&SparseInputs::counting(&position, Counting::FitsOnly));
        assert_eq!(exact.to_bits(), cheap.to_bits());
        if buildings_left(&position) <= NETWORK_BUILDINGS && !position.cathedral_to_place() {
            assert_eq!(evaluation.estimate(&position), f64::from(exact));
        }
        differ += usize::from(exact != full.estimate(&SparseInputs::of(&position)));
    }
    assert!(
        counted > 1000,
        "the positions have counts to leave out ({counted})"
    );
    assert!(differ > 100, "the counts' weights mattered ({differ})");
}

#[test]
fn the_tensors_are_the_files_own_numbers() {
    // `Network::tensors` is what `train_eval --init` fine-tunes: written back in the file's
    // format, they must be the committed file's tensors number for number, and read as the same
    // network.
    let network = Network::builtin();
    let text = std::fs::read_to_string("src/cathedral/engine/network.txt").unwrap();
    let mut written = String::new();
    for (name, rows, cols, values) in network.tensors() {
        assert_eq!(values.len(), rows * cols, "{name}");
        written.push_str(&format!("{name} {rows} {cols}\n"));
        for row in values.chunks(cols) {
            let words: Vec<String> = row.iter().map(|v| format!("{v:e}")).collect();
            written.push_str(&words.join(" "));
            written.push('\n');
        }
        // The same numbers as the file's, read plainly from its text.
        let header = format!("{name} {rows} {cols}");
        let at = text
            .lines()
            .position(|l| l.trim() == header)
            .expect(&header);
        let file: Vec<f32> = text
            .lines()
            .skip(at + 1)
            .flat_map(str::split_whitespace)
            .take(rows * cols)
            .map(|w| w.parse().unwrap())
            .collect();
        assert_eq!(file, values, "{name}");
    }
    let again = Network::parse(&written).unwrap();
    for position in positions(3) {
        let x = inputs(&position);
        assert_eq!(network.forward(&x), again.forward(&x));
    }
}
