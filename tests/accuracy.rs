//! `cathedral accuracy`: the estimating search alone against stored exact values.

use crate::common;

use common::{cathedral, json_of};

fn suite(names: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for name in names {
        std::fs::copy(format!("puzzles/bench/{name}"), dir.path().join(name)).unwrap();
    }
    dir
}

#[test]
fn figures_follow_the_positions_and_repeat_with_a_node_budget() {
    let dir = suite(&["t8-01.yaml", "t8-03.yaml", "t8-06.yaml"]);
    let run = || {
        json_of(cathedral().arg("accuracy").arg(dir.path()).args([
            "--nodes",
            "20000",
            "--check-moves",
            "60",
            "--json",
        ]))
    };
    let v = run();
    let positions = v["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 3);
    let mut errors = 0.0;
    for p in positions {
        let (exact, estimate) = (
            p["exact"].as_f64().unwrap(),
            p["estimate"].as_f64().unwrap(),
        );
        assert!((p["error"].as_f64().unwrap() - (estimate - exact).abs()).abs() < 1e-9);
        errors += (estimate - exact).abs();
        // The chosen move's exact value never beats the position's.
        let loss = p["loss"]
            .as_i64()
            .expect("t8 positions solve within a minute");
        assert!(loss >= 0, "{p}");
        assert_eq!(
            p["chosen_value"].as_i64().unwrap() + loss,
            p["exact"].as_i64().unwrap()
        );
    }
    assert!((v["mean_absolute_error"].as_f64().unwrap() - errors / 3.0).abs() < 1e-9);
    assert_eq!(v["moves_checked"], 3);
    assert_eq!(v, run(), "a node budget gives the same figures");
    // The stored values are those of the files.
    let stored = std::fs::read_to_string(dir.path().join("t8-01.yaml")).unwrap();
    assert!(
        stored.contains(&format!("value: {}", positions[0]["exact"])),
        "{stored}"
    );
}

#[test]
fn positions_without_exact_values_and_bad_options_are_refused() {
    let dir = suite(&["t8-01.yaml"]);
    std::fs::copy("puzzles/examples/midgame.yaml", dir.path().join("z.yaml")).unwrap();
    cathedral()
        .arg("accuracy")
        .arg(dir.path())
        .args(["--nodes", "1000"])
        .assert()
        .code(3)
        .stderr(predicates::str::contains("has nothing proven"));
    let empty = tempfile::tempdir().unwrap();
    cathedral()
        .arg("accuracy")
        .arg(empty.path())
        .assert()
        .code(3)
        .stderr(predicates::str::contains("holds no position files"));
    for bad in [["--nodes", "0"], ["--time", "-1"], ["--check-moves", "0"]] {
        cathedral()
            .arg("accuracy")
            .arg(dir.path())
            .args(bad)
            .assert()
            .code(2);
    }
}

/// `cathedral bench DIR --record` on one thread within `seconds`, with a small table.
fn bench_record(dir: &std::path::Path, seconds: &str) -> std::process::Output {
    cathedral()
        .arg("bench")
        .arg(dir)
        .args([
            "--record",
            "--threads",
            "1",
            "--time-limit",
            seconds,
            "--tt-mb",
            "16",
        ])
        .output()
        .unwrap()
}

/// A bench file with its solution block turned into a win/draw/loss proof of the same sign:
/// the sign.
fn as_result_only(name: &str, dir: &std::path::Path) -> i64 {
    i64::from(as_result_only_value(name, dir).signum())
}

/// The same, giving the exact value the file held.
fn as_result_only_value(name: &str, dir: &std::path::Path) -> i32 {
    let text = std::fs::read_to_string(format!("puzzles/bench/{name}")).unwrap();
    let at = text.find("solution:").unwrap();
    let value: i32 = text[at..]
        .lines()
        .find_map(|l| l.trim().strip_prefix("value: "))
        .unwrap()
        .parse()
        .unwrap();
    let sign = value.signum();
    std::fs::write(
        dir.join(name),
        format!("{}solution:\n  value: {sign}\n  wdl: true\n", &text[..at]),
    )
    .unwrap();
    value
}

#[test]
fn result_only_proofs_are_audited_and_a_deeper_search_is_the_reference_for_the_rest() {
    let dir = suite(&["t8-01.yaml", "t8-03.yaml", "t8-06.yaml", "t7-02.yaml"]);
    // A proven win and a proven loss, their margins forgotten.
    let signs: Vec<i64> = ["t7-01.yaml", "t7-05.yaml"]
        .iter()
        .map(|name| as_result_only(name, dir.path()))
        .collect();
    assert_eq!(signs, [1, -1]);
    std::fs::copy("puzzles/examples/midgame.yaml", dir.path().join("z.yaml")).unwrap();
    // Without --deeper, a file with nothing proven is refused unless left out on purpose.
    let skipped = json_of(cathedral().arg("accuracy").arg(dir.path()).args([
        "--nodes",
        "5000",
        "--skip-unsolved",
        "--json",
    ]));
    assert_eq!(skipped["left_out"], serde_json::json!(["z.yaml"]));
    assert_eq!(skipped["positions"].as_array().unwrap().len(), 6);
    let v = json_of(
        cathedral()
            .arg("accuracy")
            .arg(dir.path())
            .args(["--nodes", "5000", "--deeper", "4", "--json"]),
    );
    let positions = v["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 7);
    assert_eq!(v["exact_positions"], 4);
    // The bounds audit: a proven win is at least +1, a loss at most -1.
    let mut outside = 0;
    let mut right = 0;
    for p in positions
        .iter()
        .filter(|p| p["truth"].get("bounds").is_some())
    {
        let estimate = p["estimate"].as_f64().unwrap();
        let bounds = &p["truth"]["bounds"];
        let distance = if let Some(lower) = bounds["lower"].as_f64() {
            (lower - estimate).max(0.0)
        } else {
            (estimate - bounds["upper"].as_f64().unwrap()).max(0.0)
        };
        assert!(
            (p["outside"].as_f64().unwrap() - distance).abs() < 1e-9,
            "{p}"
        );
        outside += usize::from(distance > 0.0);
        let sign = if bounds["lower"].is_null() { -1.0 } else { 1.0 };
        right += usize::from(estimate * sign > 0.5);
        assert!(p["error"].is_null() && p["exact"].is_null());
    }
    let audit = &v["bounds"];
    assert_eq!(audit["positions"], 2);
    assert_eq!(audit["outside"], outside);
    assert_eq!(audit["result_fixed"], 2);
    assert!((audit["result_right"].as_f64().unwrap() - right as f64 / 2.0).abs() < 1e-9);
    // Nothing proven: only the deeper search to compare with.
    let midgame = positions.iter().find(|p| p["name"] == "z.yaml").unwrap();
    assert_eq!(midgame["truth"], "unknown");
    assert!(midgame["result_right"].is_null() && midgame["outside"].is_null());
    let deeper = &v["deeper"];
    assert_eq!(
        (deeper["factor"].as_u64(), deeper["positions"].as_u64()),
        (Some(4), Some(7))
    );
    let mean = positions
        .iter()
        .map(|p| (p["estimate"].as_f64().unwrap() - p["deeper"].as_f64().unwrap()).abs())
        .sum::<f64>()
        / 7.0;
    assert!((deeper["mean_absolute_difference"].as_f64().unwrap() - mean).abs() < 1e-9);
    // The splits hold every exact position once each.
    for split in ["by_proof_time", "by_value", "by_buildings"] {
        let total: u64 = v[split]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["positions"].as_u64().unwrap())
            .sum();
        assert_eq!(total, 4, "{split}");
    }
    // The text says the same in words.
    let text = cathedral()
        .arg("accuracy")
        .arg(dir.path())
        .args(["--nodes", "5000", "--deeper", "4"])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&text.stdout);
    assert!(out.contains("2 positions with only bounds proven"), "{out}");
    assert!(out.contains(">= +1") || out.contains("<= -1"), "{out}");
    assert!(
        out.contains("with 4x the budget (an estimate, not a truth)"),
        "{out}"
    );
}

#[test]
fn stored_root_values_check_the_chosen_move_as_a_solve_would() {
    // A t5 position without its solution: `bench --record --root-values` writes the value and
    // every root move's value.
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string("puzzles/bench/t5-02.yaml").unwrap();
    let unsolved = &text[..text.find("solution:").unwrap()];
    std::fs::write(dir.path().join("t5-02.yaml"), unsolved).unwrap();
    let status = cathedral()
        .arg("bench")
        .arg(dir.path())
        .args(["--record", "--root-values", "--threads", "1", "-q"])
        .output()
        .unwrap();
    assert!(status.status.success(), "{status:?}");
    let recorded = cathedral::file::load(&dir.path().join("t5-02.yaml")).unwrap();
    let solution = recorded.solution.unwrap();
    let mut moves = cathedral::MoveList::default();
    recorded.position.legal_moves(&mut moves);
    assert_eq!(solution.root_values.len(), moves.len());
    assert_eq!(
        solution.root_values.values().max().copied(),
        Some(solution.value)
    );
    assert!(solution.seconds.is_some());
    // A file with a stored value but no root values gets them, the rest of it unchanged.
    let solved = tempfile::tempdir().unwrap();
    let original = std::fs::read_to_string("puzzles/bench/t5-03.yaml").unwrap();
    std::fs::write(solved.path().join("t5-03.yaml"), &original).unwrap();
    cathedral()
        .arg("bench")
        .arg(solved.path())
        .args([
            "--record",
            "--root-values",
            "--only-missing",
            "--threads",
            "1",
            "-q",
        ])
        .assert()
        .success();
    let updated = std::fs::read_to_string(solved.path().join("t5-03.yaml")).unwrap();
    let head = |t: &str| t[..t.find("\nsolution:").unwrap()].to_string();
    assert_eq!(head(&updated), head(&original));
    let before = cathedral::file::parse_str("a", &original)
        .unwrap()
        .solution
        .unwrap();
    let after = cathedral::file::parse_str("b", &updated)
        .unwrap()
        .solution
        .unwrap();
    assert_eq!(
        (after.value, &after.best_line),
        (before.value, &before.best_line)
    );
    assert!(before.root_values.is_empty() && !after.root_values.is_empty());

    // A second run has nothing left to record.
    let again = cathedral()
        .arg("bench")
        .arg(dir.path())
        .args([
            "--record",
            "--root-values",
            "--only-missing",
            "--json",
            "-q",
        ])
        .output()
        .unwrap();
    let again: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(again["positions"].as_array().unwrap().len(), 0);

    // The accuracy report takes the chosen move's value from the stored root values, and a
    // solve of the position after it agrees.
    let by_roots = json_of(
        cathedral()
            .arg("accuracy")
            .arg(dir.path())
            .args(["--nodes", "5000", "--json"]),
    );
    assert_eq!(by_roots["moves_checked_by_root_values"], 1);
    let judged = &by_roots["positions"][0];
    let chosen = judged["chosen"].as_str().unwrap();
    assert_eq!(
        judged["chosen_value"].as_i64(),
        solution.root_values.get(chosen).map(|&v| i64::from(v))
    );
    let plain = tempfile::tempdir().unwrap();
    std::fs::copy("puzzles/bench/t5-02.yaml", plain.path().join("t5-02.yaml")).unwrap();
    let by_solving = json_of(cathedral().arg("accuracy").arg(plain.path()).args([
        "--nodes",
        "5000",
        "--check-moves",
        "60",
        "--json",
    ]));
    assert_eq!(by_solving["moves_checked_by_root_values"], 0);
    assert_eq!(by_solving["positions"][0]["chosen"], judged["chosen"]);
    assert_eq!(
        by_solving["positions"][0]["chosen_value"],
        judged["chosen_value"]
    );
}

/// The ground-truth suite (`puzzles/accuracy/`, `docs/engine.md`): every file loads (which
/// replays its best line and checks any root values), has 9 or 10 buildings left per player and
/// an exact value, none is a bench position, and the quickest solves are proven again here.
#[test]
fn the_accuracy_suite_loads_and_its_quickest_values_solve_again() {
    use cathedral::boardgame::{SolveOptions, solve};
    let mut files: Vec<_> = std::fs::read_dir("puzzles/accuracy")
        .expect("puzzles/accuracy")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    assert!(files.len() >= 180, "{} files", files.len());
    let bench: Vec<cathedral::Position> = std::fs::read_dir("puzzles/bench")
        .unwrap()
        .map(|e| cathedral::file::load(&e.unwrap().path()).unwrap().position)
        .collect();
    let mut timed = Vec::new();
    let mut with_roots = 0;
    let mut seen = std::collections::HashSet::new();
    for path in &files {
        let file = cathedral::file::load(path).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            seen.insert(file.position),
            "{} repeats a position",
            path.display()
        );
        let left = cathedral::sampler::buildings_left(&file.position);
        assert!((9..=12).contains(&left), "{}: {left}", path.display());
        assert!(!bench.contains(&file.position), "{}", path.display());
        let solution = file.solution.expect("an exact value");
        assert!(!solution.wdl && !solution.best_line.is_empty());
        with_roots += usize::from(!solution.root_values.is_empty());
        timed.push((
            solution.seconds.unwrap_or(f64::MAX),
            file.position,
            solution.value,
        ));
    }
    assert!(with_roots > 0, "no position with root values");
    // What waits in open/ loads (its bounds agree with its stored result) and repeats nothing.
    for entry in std::fs::read_dir("puzzles/accuracy/open").unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "yaml") {
            let file = cathedral::file::load(&path).unwrap_or_else(|e| panic!("{e}"));
            assert!(
                seen.insert(file.position),
                "{} repeats a position",
                path.display()
            );
            assert!(
                file.solution.as_ref().is_none_or(|s| s.wdl),
                "{}",
                path.display()
            );
        }
    }
    timed.sort_by(|a, b| a.0.total_cmp(&b.0));
    for (_, position, value) in timed.iter().take(3) {
        let solved = solve(
            position,
            &SolveOptions {
                threads: 1,
                root_values: false,
                ..SolveOptions::default()
            },
            &|_| {},
        );
        assert_eq!(solved.value(), Some(*value));
    }
}

#[test]
fn the_evaluation_is_chosen_by_eval_and_the_default_is_the_network() {
    let dir = suite(&["t8-01.yaml", "t8-03.yaml"]);
    let run = |eval: &str| {
        json_of(
            cathedral()
                .arg("accuracy")
                .arg(dir.path())
                .args(["--nodes", "5000", "--json", "--eval", eval]),
        )
    };
    let estimates = |v: &serde_json::Value| -> Vec<f64> {
        v["positions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["estimate"].as_f64().unwrap())
            .collect()
    };
    let (default, linear, network) = (run("default"), run("linear"), run("network"));
    assert_eq!(default, network);
    assert_ne!(estimates(&linear), estimates(&network));
    assert_eq!(
        network,
        run("network"),
        "a node budget gives the same figures"
    );
    cathedral()
        .arg("accuracy")
        .arg(dir.path())
        .args(["--eval", "neural"])
        .assert()
        .failure();
}

/// `--weights FILE` reads a network from a file: the committed weights read so judge as the
/// built-in network does; a file that is not a network is refused with its path and line.
#[test]
fn weights_read_from_a_file_judge_as_the_built_in_network() {
    let dir = suite(&["t8-01.yaml", "t8-03.yaml"]);
    let run = |args: &[&str]| {
        json_of(
            cathedral()
                .arg("accuracy")
                .arg(dir.path())
                .args(["--nodes", "5000", "--json"])
                .args(args),
        )
    };
    let weights = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/src/cathedral/engine/network.txt"
    );
    assert_eq!(run(&["--weights", weights]), run(&["--eval", "network"]));

    let bad = tempfile::tempdir().unwrap();
    let file = bad.path().join("bad.txt");
    std::fs::write(&file, "# a network\nw1 2 597\n0.5 x\n").unwrap();
    let output = cathedral()
        .arg("accuracy")
        .arg(dir.path())
        .arg("--weights")
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("bad.txt") && stderr.contains("line 3"),
        "{stderr}"
    );
    cathedral()
        .arg("accuracy")
        .arg(dir.path())
        .args(["--weights", "no-such-weights.txt"])
        .assert()
        .code(3)
        .stderr(predicates::str::contains("no-such-weights.txt"));
}

#[test]
fn bench_records_the_bounds_an_unfinished_solve_proved_and_accuracy_audits_them() {
    // A t12 position: not proven in a second, so its bounds are what the solve proved.
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string("puzzles/bench/t12-01.yaml").unwrap();
    let path = dir.path().join("t12-01.yaml");
    std::fs::write(&path, &text).unwrap();
    let run = bench_record(dir.path(), "1");
    let out = String::from_utf8_lossy(&run.stdout);
    // Unproven: the exit code says so, and the bounds are recorded.
    assert_eq!(run.status.code(), Some(4), "{out}");
    assert!(
        out.contains("Recorded the proven bounds of 1 unproven position: t12-01.yaml"),
        "{out}"
    );
    let written = std::fs::read_to_string(&path).unwrap();
    assert!(written.starts_with(&text), "the rest of the file is kept");
    let bounds = cathedral::file::load(&path).unwrap().bounds.unwrap();
    assert!(
        bounds.lower <= bounds.upper && bounds.seconds.is_some(),
        "{bounds:?}"
    );
    // Bounds that prove nothing narrower are not written again.
    let again = bench_record(dir.path(), "0.2");
    let after = cathedral::file::load(&path).unwrap().bounds.unwrap();
    assert!(
        after.lower >= bounds.lower && after.upper <= bounds.upper,
        "{after:?}"
    );
    assert_eq!(again.status.code(), Some(4));
    // accuracy judges the position against its bounds.
    let v = json_of(
        cathedral()
            .arg("accuracy")
            .arg(dir.path())
            .args(["--nodes", "5000", "--json"]),
    );
    let p = &v["positions"][0];
    assert_eq!(p["truth"]["bounds"]["lower"], after.lower);
    assert_eq!(p["truth"]["bounds"]["upper"], after.upper);
    let estimate = p["estimate"].as_f64().unwrap();
    let outside =
        (f64::from(after.lower) - estimate).max(0.0) + (estimate - f64::from(after.upper)).max(0.0);
    assert!((p["outside"].as_f64().unwrap() - outside).abs() < 1e-9);
    assert_eq!(v["bounds"]["positions"], 1);
}

#[test]
fn a_stored_result_keeps_the_margin_bounds_an_unfinished_solve_proved() {
    // t10-05 with only its result stored: a second's solve does not prove its margin here (if
    // a machine is fast enough that it does, the value it writes must be the known one).
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t10-05.yaml");
    let value = as_result_only_value("t10-05.yaml", dir.path());
    let run = bench_record(dir.path(), "1");
    let out = String::from_utf8_lossy(&run.stdout);
    let file = cathedral::file::load(&path).unwrap();
    let solution = file.solution.unwrap();
    if solution.wdl {
        // `ok` when the bounds prove the stored result again, `unproven` when not yet.
        assert!(out.contains(", bounds recorded"), "{out}");
        let bounds = file.bounds.expect("bounds recorded");
        assert!(
            bounds.lower <= value && value <= bounds.upper,
            "{bounds:?} must hold {value}"
        );
        assert_eq!(solution.value, value.signum());
    } else {
        assert_eq!(solution.value, value, "{out}");
    }
}
