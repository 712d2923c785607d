//! Trains the learned evaluation (`src/cathedral/engine/network/`) on exact values labelled by
//! `examples/eval_data.rs`, with candle, and writes the weights the engine reads.
//!
//! `cargo run --release --features train --example train_eval -- OUT DATA... [--epochs N]
//! [--hidden H1,H2] [--seed S] [--lr R] [--huber D] [--compare WEIGHTS] [--init WEIGHTS] [--fits-only]`
//!
//! Replays each labelled position's game (a policy game from the seed in DATA's first line, an
//! engine game from its `# game` line of moves), checks that it reaches the same position (by key),
//! computes its inputs (`engine::inputs`) and trains `skip · x + w3 · relu(w2 · relu(w1 · x + b1) +
//! b2) + b3` with AdamW on the Huber loss (quadratic within `D` squares, 1 by default), in
//! minibatches of 256 shuffled by the seed. The positions of every tenth game are held out: the
//! figures printed for them (mean absolute error, sign right, and how often an estimate near 0 is
//! an exact draw) are the test; `--compare` prints the same figures for another weights file (the
//! committed one, say) on the same positions. All weights start from the seed too, so the same
//! command on the same data writes the same file; `--init` starts them from a weights file instead
//! (fine-tuning it, with its hidden sizes). `--fits-only` trains a network that does not read the
//! placements' counts (`engine::inputs::Counting::FitsOnly`): those inputs are 0 in every batch
//! it trains on and their weights are set to 0 at the start (a zero input has no gradient, so they
//! stay 0), and the engine, seeing the weights at 0, does not count them.
//! OUT is refused if it exists and is not the committed weights file being retrained.

use candle_core::{DType, Device, Tensor, Var};
use candle_nn::{AdamW, Optimizer, ParamsAdamW};
use cathedral::Cell;
use cathedral::boardgame::Rng;
use cathedral::engine::eval::{WEIGHTS, estimate};
use cathedral::engine::inputs::{INPUTS, PLANES, SUMMARY, inputs, placement_count_inputs};
use cathedral::engine::network::Network;
use cathedral::legality::parse_move;
use cathedral::policy::{Policy, play_game};
use cathedral::sampler::{buildings_left, game_seed};
use cathedral::{Position, Rules};
use std::collections::BTreeMap;
use std::fmt::Write as _;

struct Example {
    x: [f32; INPUTS],
    y: f32,
    test: bool,
    /// The label is an exact value (not a search's estimate).
    exact: bool,
    buildings: u32,
    linear: f32,
}

struct Options {
    out: String,
    data: Vec<String>,
    epochs: usize,
    hidden: (usize, usize),
    seed: u64,
    lr: f64,
    huber: f64,
    compare: Option<String>,
    init: Option<String>,
    fits_only: bool,
}

fn fail(message: String) -> ! {
    eprintln!("train_eval: {message}");
    std::process::exit(2)
}

fn options() -> Options {
    let mut args = std::env::args().skip(1);
    let mut options = Options {
        out: String::new(),
        data: Vec::new(),
        epochs: 40,
        hidden: (64, 32),
        seed: 1,
        lr: 0.003,
        huber: 1.0,
        compare: None,
        init: None,
        fits_only: false,
    };
    let mut positional = Vec::new();
    while let Some(arg) = args.next() {
        let mut value = |name: &str| {
            args.next()
                .unwrap_or_else(|| fail(format!("{name} needs a value")))
        };
        match arg.as_str() {
            "--epochs" => {
                options.epochs = value("--epochs")
                    .parse()
                    .ok()
                    .filter(|&n| (1..=10_000).contains(&n))
                    .unwrap_or_else(|| fail("--epochs: expected 1 to 10000".into()))
            }
            "--hidden" => {
                let text = value("--hidden");
                let sizes: Vec<usize> = text
                    .split(',')
                    .map(|s| s.parse().ok().filter(|&n| (1..=1024).contains(&n)))
                    .collect::<Option<_>>()
                    .unwrap_or_default();
                let [a, b] = sizes[..] else {
                    fail(format!(
                        "--hidden {text}: expected two sizes from 1 to 1024, like 64,32"
                    ))
                };
                options.hidden = (a, b);
            }
            "--seed" => {
                options.seed = value("--seed")
                    .parse()
                    .unwrap_or_else(|_| fail("--seed: expected a whole number".into()))
            }
            "--lr" => {
                options.lr = value("--lr")
                    .parse()
                    .ok()
                    .filter(|&r: &f64| r > 0.0 && r < 1.0)
                    .unwrap_or_else(|| fail("--lr: expected a rate between 0 and 1".into()))
            }
            "--huber" => {
                options.huber = value("--huber")
                    .parse()
                    .ok()
                    .filter(|&d: &f64| d > 0.0 && d <= 100.0)
                    .unwrap_or_else(|| {
                        fail("--huber: expected a width in squares above 0, at most 100".into())
                    })
            }
            "--compare" => options.compare = Some(value("--compare")),
            "--init" => options.init = Some(value("--init")),
            "--fits-only" => options.fits_only = true,
            _ if arg.starts_with("--") => fail(format!("unknown option {arg}")),
            _ => positional.push(arg),
        }
    }
    let mut positional = positional.into_iter();
    options.out = positional.next().unwrap_or_else(|| {
        fail(
            "usage: train_eval OUT DATA... [--epochs N] [--hidden H1,H2] [--seed S] [--lr R] [--huber D] [--compare WEIGHTS] [--init WEIGHTS] [--fits-only]"
                .into(),
        )
    });
    options.data = positional.collect();
    if options.data.is_empty() {
        fail("no DATA file (written by examples/eval_data.rs)".into());
    }
    if std::path::Path::new(&options.out).exists() && !options.out.ends_with("network.txt") {
        fail(format!("{} exists; not overwritten", options.out));
    }
    options
}

/// Reads one data file: replays each game once and keeps the labelled positions.
fn load(path: &str, examples: &mut Vec<Example>) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| fail(format!("{path}: {e}")));
    let mut lines = text.lines().enumerate();
    let header = lines.next().map(|(_, l)| l).unwrap_or_default();
    // eval_data's header says when the labels are the search's estimates, or the exact values
    // at the end of the engine's playouts (exact there, not here).
    let exact =
        !(header.contains("estimates by the search") || header.contains("where the engine's play"));
    let seed: u64 = header
        .split("seed ")
        .nth(1)
        .and_then(|s| s.split(',').next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            fail(format!(
                "{path}:1: expected the eval_data header with the seed"
            ))
        });
    let policy = Policy::default();
    // Engine games are replayed from their moves (`# game g MOVE ...` lines before their labels);
    // policy games from the seed.
    let engine_games = header.contains("engine games");
    let mut game: Option<(u64, Vec<Position>)> = None;
    let mut moves_of: std::collections::HashMap<u64, (usize, String)> = Default::default();
    for (i, line) in lines {
        if let Some(rest) = line.strip_prefix("# game ") {
            let (g, moves) = rest.split_once(' ').unwrap_or((rest, ""));
            let g = g.parse::<u64>().unwrap_or_else(|_| {
                fail(format!("{path}:{}: expected `# game g MOVE ...`", i + 1))
            });
            moves_of.insert(g, (i + 1, moves.to_string()));
            continue;
        }
        if line.starts_with('#') {
            continue;
        }
        let at = |what: &str| fail(format!("{path}:{}: {what}: `{line}`", i + 1));
        let words: Vec<&str> = line.split_whitespace().collect();
        let [g, ply, value, key] = words[..] else {
            at("expected `game ply value key`")
        };
        let (Ok(g), Ok(ply), Ok(value), Ok(key)) = (
            g.parse::<u64>(),
            ply.parse::<usize>(),
            value.parse::<f32>(),
            u64::from_str_radix(key, 16),
        ) else {
            at("expected numbers")
        };
        if game.as_ref().is_none_or(|(n, _)| *n != g) {
            let positions = if engine_games {
                let Some((moves_line, moves)) = moves_of.remove(&g) else {
                    at("no `# game` line with this game's moves before it")
                };
                replay(path, moves_line, &moves)
            } else {
                let mut rng = Rng::new(game_seed(seed, g));
                play_game(Position::new(Rules::CLASSIC), &policy, &mut rng, |_, _| {
                    false
                })
            };
            game = Some((g, positions));
        }
        let positions = &game
            .as_ref()
            .map(|(_, p)| p)
            .unwrap_or_else(|| unreachable!());
        let Some(position) = positions.get(ply) else {
            at("the game is shorter")
        };
        if position.key().halves().0 != key {
            at("replaying the game reaches another position (was the policy changed?)")
        }
        let x = inputs(position);
        let test = g % 10 == 0;
        // The board turned a quarter at a time is worth the same: the kinds' placements turn
        // with it (mirror images are not: two buildings of each set are chiral).
        let turns = if test || !augment() { 1 } else { 4 };
        let mut turned = x;
        for turn in 0..turns {
            if turn > 0 {
                turned = quarter_turn(&turned);
            }
            examples.push(Example {
                x: turned,
                y: value,
                test,
                exact,
                buildings: buildings_left(position),
                linear: estimate(position, &WEIGHTS) as f32,
            });
        }
    }
}

/// Every position of a game written as its moves, the start included.
fn replay(path: &str, line: usize, moves: &str) -> Vec<Position> {
    let mut position = Position::new(Rules::CLASSIC);
    let mut positions = vec![position];
    for text in moves.split_whitespace() {
        let mv = parse_move(&position, text)
            .unwrap_or_else(|e| fail(format!("{path}:{line}: move {}: {e}", positions.len())));
        position.play(mv);
        positions.push(position);
    }
    positions
}

fn augment() -> bool {
    std::env::var_os("TRAIN_EVAL_NO_TURNS").is_none()
}

/// `x` with the board's planes turned a quarter: the cell at (file, rank) moves to
/// (9 - rank, file).
fn quarter_turn(x: &[f32; INPUTS]) -> [f32; INPUTS] {
    let mut out = *x;
    for cell in Cell::all() {
        let Some(to) = Cell::new(9 - cell.rank(), cell.file()) else {
            unreachable!("the board is square")
        };
        for plane in 0..PLANES {
            out[SUMMARY + 100 * plane + to.index()] = x[SUMMARY + 100 * plane + cell.index()];
        }
    }
    out
}

/// Weights drawn uniformly from ±1/sqrt(fan_in), from `rng`.
fn init(rng: &mut Rng, rows: usize, cols: usize, fan_in: usize) -> candle_core::Result<Var> {
    let bound = 1.0 / (fan_in as f64).sqrt();
    let values: Vec<f32> = (0..rows * cols)
        .map(|_| ((rng.unit() * 2.0 - 1.0) * bound) as f32)
        .collect();
    Var::from_tensor(&Tensor::from_vec(values, (rows, cols), &Device::Cpu)?)
}

struct Model {
    w1: Var,
    b1: Var,
    w2: Var,
    b2: Var,
    w3: Var,
    b3: Var,
    skip: Var,
}

impl Model {
    fn new(seed: u64, (h1, h2): (usize, usize)) -> candle_core::Result<Model> {
        let mut rng = Rng::new(seed);
        Ok(Model {
            w1: init(&mut rng, h1, INPUTS, INPUTS)?,
            b1: init(&mut rng, 1, h1, INPUTS)?,
            w2: init(&mut rng, h2, h1, h1)?,
            b2: init(&mut rng, 1, h2, h1)?,
            w3: init(&mut rng, 1, h2, h2)?,
            b3: Var::from_tensor(&Tensor::zeros((1, 1), DType::F32, &Device::Cpu)?)?,
            skip: Var::from_tensor(&Tensor::zeros((1, INPUTS), DType::F32, &Device::Cpu)?)?,
        })
    }

    /// The weights of a weights file (its `--hidden` sizes with them), to train on from there.
    fn read(path: &str) -> candle_core::Result<Model> {
        let network = Network::read(std::path::Path::new(path))
            .unwrap_or_else(|e| fail(format!("--init {path}: {e}")));
        let mut tensors = network.tensors().into_iter();
        let mut var = || {
            let (_, rows, cols, values) = tensors.next().expect("seven tensors");
            Var::from_tensor(&Tensor::from_vec(values, (rows, cols), &Device::Cpu)?)
        };
        // In the order `Network::tensors` gives them.
        Ok(Model {
            w1: var()?,
            b1: var()?,
            w2: var()?,
            b2: var()?,
            w3: var()?,
            b3: var()?,
            skip: var()?,
        })
    }

    /// The placements' counts' weights set to 0 (`--fits-only`): in the first layer's columns
    /// and the linear part (`mask`: 1 for every input, 0 for those).
    fn drop_counts(&self, mask: &Tensor) -> candle_core::Result<()> {
        self.w1.set(&self.w1.as_tensor().broadcast_mul(mask)?)?;
        self.skip.set(&self.skip.as_tensor().broadcast_mul(mask)?)?;
        Ok(())
    }

    fn vars(&self) -> Vec<Var> {
        [
            &self.w1, &self.b1, &self.w2, &self.b2, &self.w3, &self.b3, &self.skip,
        ]
        .into_iter()
        .cloned()
        .collect()
    }

    /// Estimates for a batch `x` (n x INPUTS): n x 1.
    fn forward(&self, x: &Tensor) -> candle_core::Result<Tensor> {
        let h1 = x.matmul(&self.w1.t()?)?.broadcast_add(&self.b1)?.relu()?;
        let h2 = h1.matmul(&self.w2.t()?)?.broadcast_add(&self.b2)?.relu()?;
        let deep = h2.matmul(&self.w3.t()?)?;
        let wide = x.matmul(&self.skip.t()?)?;
        (deep + wide)?.broadcast_add(&self.b3)
    }
}

fn batch(examples: &[&Example]) -> candle_core::Result<(Tensor, Tensor)> {
    let x: Vec<f32> = examples.iter().flat_map(|e| e.x).collect();
    let y: Vec<f32> = examples.iter().map(|e| e.y).collect();
    Ok((
        Tensor::from_vec(x, (examples.len(), INPUTS), &Device::Cpu)?,
        Tensor::from_vec(y, (examples.len(), 1), &Device::Cpu)?,
    ))
}

/// Mean absolute error and the share with the right sign (an estimate within half a square of
/// 0 reads as a draw), of `predict` on `examples`.
fn score(examples: &[&Example], predict: &[f32]) -> (f64, f64) {
    let sign = |v: f32| {
        if v > 0.5 {
            1
        } else if v < -0.5 {
            -1
        } else {
            0
        }
    };
    let n = examples.len().max(1) as f64;
    let mae = examples
        .iter()
        .zip(predict)
        .map(|(e, p)| f64::from((p - e.y).abs()))
        .sum::<f64>()
        / n;
    let right = examples
        .iter()
        .zip(predict)
        .filter(|(e, p)| sign(**p) == sign(e.y))
        .count() as f64
        / n;
    (mae, right)
}

/// The held-out figures of `net` (its estimates of `test`), beside the linear features': overall,
/// by buildings in the larger hand, and the calibration of the exact labels (how often an
/// estimate in each band is an exact draw, and how many exact draws read as draws).
fn held_out_report(test: &[&Example], net: &[f32], name: &str) -> String {
    let linear: Vec<f32> = test.iter().map(|e| e.linear).collect();
    let (mae, right) = score(test, net);
    let (linear_mae, linear_right) = score(test, &linear);
    let mut report = format!(
        "# held out ({} positions of every tenth game): {name} {mae:.3} squares, sign right {:.1} %; \
         linear {linear_mae:.3}, {:.1} %\n",
        test.len(),
        100.0 * right,
        100.0 * linear_right
    );
    let mut by_buildings: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    for (i, e) in test.iter().enumerate() {
        by_buildings.entry(e.buildings).or_default().push(i);
    }
    for (b, indices) in &by_buildings {
        let subset: Vec<&Example> = indices.iter().map(|&i| test[i]).collect();
        let pick = |v: &[f32]| indices.iter().map(|&i| v[i]).collect::<Vec<f32>>();
        let (m, r) = score(&subset, &pick(net));
        let (lm, lr) = score(&subset, &pick(&linear));
        let _ = writeln!(
            report,
            "#   {b} buildings: {} positions, {name} {m:.3} / {:.1} %, linear {lm:.3} / {:.1} %",
            subset.len(),
            100.0 * r,
            100.0 * lr
        );
    }
    let bands = [
        ("below -1.5", f32::NEG_INFINITY, -1.5),
        ("-1.5 to -0.5", -1.5, -0.5),
        ("-0.5 to +0.5", -0.5, 0.5),
        ("+0.5 to +1.5", 0.5, 1.5),
        ("above +1.5", 1.5, f32::INFINITY),
    ];
    let exact: Vec<(f32, f32)> = test
        .iter()
        .zip(net)
        .filter(|(e, _)| e.exact)
        .map(|(e, p)| (e.y, *p))
        .collect();
    let draws = exact.iter().filter(|(y, _)| *y == 0.0).count();
    let read = exact
        .iter()
        .filter(|(y, p)| *y == 0.0 && p.abs() <= 0.5)
        .count();
    let _ = writeln!(
        report,
        "# exact labels held out: {} positions, {draws} draws, {read} of them estimated within 0.5 of 0",
        exact.len()
    );
    for (band, low, high) in bands {
        let inside: Vec<&(f32, f32)> = exact
            .iter()
            .filter(|(_, p)| *p > low && *p <= high)
            .collect();
        let drawn = inside.iter().filter(|(y, _)| *y == 0.0).count();
        let _ = writeln!(
            report,
            "#   estimate {band}: {} positions, {drawn} exact draws ({:.1} %)",
            inside.len(),
            100.0 * drawn as f64 / inside.len().max(1) as f64
        );
    }
    report
}

fn predict(model: &Model, examples: &[&Example]) -> candle_core::Result<Vec<f32>> {
    let mut out = Vec::with_capacity(examples.len());
    for chunk in examples.chunks(4096) {
        let (x, _) = batch(chunk)?;
        out.extend(model.forward(&x)?.flatten_all()?.to_vec1::<f32>()?);
    }
    Ok(out)
}

fn tensor_text(name: &str, t: &Tensor) -> candle_core::Result<String> {
    let rows = t.to_vec2::<f32>()?;
    let mut text = format!("{name} {} {}\n", rows.len(), rows[0].len());
    for row in rows {
        let numbers: Vec<String> = row.iter().map(|v| format!("{v:e}")).collect();
        for line in numbers.chunks(8) {
            let _ = writeln!(text, "{}", line.join(" "));
        }
    }
    Ok(text)
}

fn main() -> candle_core::Result<()> {
    let mut options = options();
    let started = std::time::Instant::now();
    let mut examples = Vec::new();
    for path in &options.data {
        load(path, &mut examples);
    }
    let mut train: Vec<&Example> = examples.iter().filter(|e| !e.test).collect();
    let test: Vec<&Example> = examples.iter().filter(|e| e.test).collect();
    let positions = test.len() + train.len() / if augment() { 4 } else { 1 };
    eprintln!(
        "{positions} positions: {} examples to train on (each position turned four ways), {} held out; read in {:.0} s",
        train.len(),
        test.len(),
        started.elapsed().as_secs_f64()
    );
    let model = match &options.init {
        None => Model::new(options.seed, options.hidden)?,
        Some(path) => {
            let model = Model::read(path)?;
            options.hidden = (model.w1.dims()[0], model.w2.dims()[0]);
            model
        }
    };
    // With `--fits-only`, the inputs the network may read: the counts' weights start at 0 and
    // the counts are 0 in every batch trained on, so those weights have no gradient and stay 0
    // (held-out estimates read the counts through zero weights: the same numbers).
    let mask = options.fits_only.then(|| {
        let mut mask = vec![1.0f32; INPUTS];
        for i in placement_count_inputs() {
            mask[i] = 0.0;
        }
        Tensor::from_vec(mask, (1, INPUTS), &Device::Cpu)
    });
    let mask = mask.transpose()?;
    if let Some(mask) = &mask {
        model.drop_counts(mask)?;
    }
    let mut optimizer = AdamW::new(
        model.vars(),
        ParamsAdamW {
            lr: options.lr,
            weight_decay: 1e-5,
            ..ParamsAdamW::default()
        },
    )?;
    let mut rng = Rng::new(options.seed ^ 0x5EED);
    for epoch in 0..options.epochs {
        // Cosine decay of the rate to a twentieth.
        let progress = epoch as f64 / options.epochs as f64;
        let lr = options.lr * (0.05 + 0.95 * 0.5 * (1.0 + (std::f64::consts::PI * progress).cos()));
        optimizer.set_learning_rate(lr);
        for i in (1..train.len()).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            train.swap(i, j);
        }
        for chunk in train.chunks(256) {
            let (x, y) = batch(chunk)?;
            let x = match &mask {
                Some(mask) => x.broadcast_mul(mask)?,
                None => x,
            };
            let error = (model.forward(&x)? - y)?;
            let size = error.abs()?;
            let quadratic = size.minimum(options.huber)?;
            // Huber: quadratic within `huber` squares, linear beyond; divided by the width so
            // that the gradient is at most 1 whatever the width (a narrow one is nearly the
            // absolute error, whose best constant is the median: a cluster of exact draws
            // pulls a nearby estimate to 0 rather than to the mean of its neighbours).
            let loss =
                ((&quadratic * (size - (&quadratic * 0.5)?)?)? / options.huber)?.mean_all()?;
            optimizer.backward_step(&loss)?;
        }
        if epoch % 5 == 4 || epoch + 1 == options.epochs {
            let (mae, right) = score(&test, &predict(&model, &test)?);
            eprintln!(
                "epoch {:>3}: held out {mae:.3} squares, sign right {:.1} %, {:.0} s",
                epoch + 1,
                100.0 * right,
                started.elapsed().as_secs_f64()
            );
        }
    }
    let net = predict(&model, &test)?;
    let report = held_out_report(&test, &net, "network");
    print!("{report}");
    if let Some(path) = &options.compare {
        // Another network (the committed one, say) on the same held-out positions: the fair
        // comparison, since neither trained on them.
        let other = Network::read(std::path::Path::new(path))
            .unwrap_or_else(|e| fail(format!("--compare {path}: {e}")));
        let theirs: Vec<f32> = test.iter().map(|e| other.forward(&e.x)).collect();
        print!(
            "# compared: {path} on the same positions\n{}",
            held_out_report(&test, &theirs, "compared")
        );
    }
    let mut text = format!(
        "# The learned evaluation's weights (src/cathedral/engine/network/), written by\n\
         # cargo run --release --features train --example train_eval -- {} {} --epochs {} --hidden {},{} --seed {} --lr {} --huber {}{}{}\n\
         # on {} positions labelled by examples/eval_data.rs ({} examples to train on: the other positions turned four ways).\n",
        options.out,
        options.data.join(" "),
        options.epochs,
        options.hidden.0,
        options.hidden.1,
        options.seed,
        options.lr,
        options.huber,
        options
            .init
            .as_ref()
            .map_or(String::new(), |path| format!(" --init {path}")),
        if options.fits_only {
            " --fits-only"
        } else {
            ""
        },
        positions,
        train.len()
    );
    text.push_str(&report);
    for (name, var) in [
        ("w1", &model.w1),
        ("b1", &model.b1),
        ("w2", &model.w2),
        ("b2", &model.b2),
        ("w3", &model.w3),
        ("b3", &model.b3),
        ("skip", &model.skip),
    ] {
        text.push_str(&tensor_text(name, var.as_tensor())?);
    }
    // A few held-out positions with the output candle computed, for the engine's test.
    for (e, out) in test
        .iter()
        .zip(&net)
        .step_by((test.len() / 12).max(1))
        .take(12)
    {
        let mut row: Vec<f32> = e.x.to_vec();
        row.push(*out);
        text.push_str(&tensor_text(
            "check",
            &Tensor::from_vec(row, (1, INPUTS + 1), &Device::Cpu)?,
        )?);
    }
    std::fs::write(&options.out, text).unwrap_or_else(|e| fail(format!("{}: {e}", options.out)));
    eprintln!("wrote {}", options.out);
    Ok(())
}
