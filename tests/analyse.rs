//! Whole-game analysis: exact losses where the solver proves both sides of a move, marks by
//! their thresholds, reproducible reports under a node budget, the HTML report, and the
//! annotated record (`--annotate`).

use crate::common;

use cathedral::analysis::Budget;
use cathedral::analysis::game::{Mark, analyse_game};
use cathedral::boardgame::{SolveOptions, solve};
use cathedral::engine::Judgement;
use cathedral::file::{GameRecord, Mark as Glyph, RecordedMove, load};
use common::{cathedral, stdout_of};

#[test]
fn an_endgame_blunder_is_measured_exactly_and_marked() {
    let start = load(std::path::Path::new("puzzles/bench/t5-01.yaml"))
        .unwrap()
        .position;
    let solution = solve(
        &start,
        &SolveOptions {
            threads: 1,
            tt_mb: 16,
            ..SolveOptions::default()
        },
        &|_| {},
    );
    let value = solution.value().expect("solved");
    let worst = solution
        .root_moves
        .iter()
        .min_by_key(|r| r.lower)
        .expect("moves");
    assert!(worst.is_exact());
    let exact_loss = f64::from(value - worst.lower);
    assert!(exact_loss >= 2.0, "t5-01's worst move loses {exact_loss}");
    let game = GameRecord {
        start: Some(start),
        rules: start.rules(),
        moves: vec![RecordedMove::new(worst.mv)],
        ..GameRecord::default()
    };
    let analysis = analyse_game::<cathedral::Position>(
        &game,
        &Budget {
            nodes: Some(2_000_000),
            time: None,
            tt_mb: 64,
            stop: Default::default(),
            recheck: None,
        },
        &|_, _| {},
    );
    let ply = &analysis.plies[0];
    assert_eq!(ply.before.judgement, Judgement::Exact);
    assert_eq!(ply.before.value, f64::from(value));
    assert!(ply.loss_is_exact);
    assert_eq!(ply.loss, exact_loss);
    let expected = if exact_loss >= 8.0 {
        Mark::Blunder
    } else if exact_loss >= 4.0 || (value > 0 && worst.lower <= 0) {
        Mark::Mistake
    } else {
        Mark::Inaccuracy
    };
    assert!(
        ply.mark >= Some(expected),
        "{:?} for a loss of {exact_loss}",
        ply.mark
    );
    assert_eq!(analysis.dark().moves + analysis.light().moves, 1);
}

#[test]
fn analyse_is_reproducible_with_a_node_budget_and_writes_an_html_report() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("independent.yaml");
    cathedral()
        .args(["convert", "tests/data/independent-games.jsonl", "-o"])
        .arg(&record)
        .assert()
        .success();
    let run = || {
        stdout_of(cathedral().arg("analyse").arg(&record).args([
            "--game",
            "3",
            "--nodes-per-move",
            "20000",
            "--json",
        ]))
    };
    let first = run();
    assert_eq!(first, run(), "the same report twice");
    let analysis: serde_json::Value = serde_json::from_str(&first).unwrap();
    let plies = analysis["plies"].as_array().unwrap();
    assert!(plies.len() > 20, "{} moves", plies.len());
    for ply in plies {
        let loss = ply["loss"].as_f64().unwrap();
        assert!(loss >= 0.0);
        // The best move loses nothing: the two values come from one search.
        if ply["before"]["best"] == ply["played"] {
            assert_eq!(loss, 0.0, "{ply}");
        }
        let mark = ply["mark"].as_str();
        if loss >= 8.0 {
            assert_eq!(mark, Some("blunder"), "{ply}");
        } else if loss >= 4.0 {
            assert!(matches!(mark, Some("mistake" | "blunder")), "{ply}");
        } else if loss >= 2.0 {
            assert!(mark.is_some(), "{ply}");
        } else if !ply["turning_point"].as_bool().unwrap() {
            assert_eq!(mark, None, "{ply}");
        }
    }
    // The end of a finished game is exact.
    assert_eq!(analysis["end"]["judgement"], "exact");
    let html = dir.path().join("report.html");
    let text = stdout_of(
        cathedral()
            .arg("analyse")
            .arg(&record)
            .args([
                "--game",
                "3",
                "--nodes-per-move",
                "20000",
                "--color",
                "never",
                "--html",
            ])
            .arg(&html),
    );
    assert!(text.contains("average loss"), "{text}");
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("<svg"), "a plot and boards");
    assert!(page.contains("stroke-dasharray"), "estimates drawn dashed");
    assert!(page.contains("The game at a glance"));
    // Not over the report without --force, nor over the input.
    cathedral()
        .arg("analyse")
        .arg(&record)
        .args(["--nodes-per-move", "1000", "--html"])
        .arg(&html)
        .assert()
        .failure();
    cathedral()
        .arg("analyse")
        .arg(&record)
        .args(["--nodes-per-move", "1000", "--force", "--html"])
        .arg(&record)
        .assert()
        .failure();
}

#[test]
fn all_games_of_a_file_get_a_line_each() {
    let text = stdout_of(cathedral().args([
        "analyse",
        "docs/analysis/engine-games.yaml",
        "--all",
        "--nodes-per-move",
        "5000",
        "--color",
        "never",
    ]));
    assert!(text.contains("4 games"), "{text}");
    assert!(text.contains("Mean average loss"), "{text}");
    cathedral()
        .args([
            "analyse",
            "docs/analysis/engine-games.yaml",
            "--all",
            "--html",
            "x.html",
        ])
        .assert()
        .code(2);
}

#[test]
fn annotate_writes_the_marks_as_glyphs_with_a_comment_and_never_over_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("annotated.yaml");
    let input = "tests/data/blunder-games.yaml";
    let budget = ["--nodes-per-move", "2000", "--threads", "1"];
    let json = stdout_of(
        cathedral()
            .args(["analyse", input, "--json", "--annotate"])
            .arg(&out)
            .args(budget),
    );
    let analysis: serde_json::Value = serde_json::from_str(&json).unwrap();
    let original = cathedral::file::load_records(std::path::Path::new(input)).unwrap();
    let annotated = cathedral::file::load_records(&out).unwrap();
    assert_eq!(annotated.len(), 1, "game 1 only");
    let (game, before) = (&annotated[0], &original[0]);
    let moves = |g: &GameRecord| g.moves.iter().map(|m| m.mv).collect::<Vec<_>>();
    assert_eq!(moves(game), moves(before), "the same moves");
    assert_eq!(game.comment, before.comment, "the record's own fields kept");
    // Every mark of the analysis is the move's glyph, with a comment that says what was best
    // and what the move gave up; unmarked moves are as they were.
    let plies = analysis["plies"].as_array().unwrap();
    let mut marked = 0;
    for (ply, recorded) in plies.iter().zip(&game.moves) {
        let glyph = match ply["mark"].as_str() {
            Some("inaccuracy") => Some(Glyph::Dubious),
            Some("mistake") => Some(Glyph::Mistake),
            Some("blunder") => Some(Glyph::Blunder),
            _ => None,
        };
        assert_eq!(recorded.mark, glyph, "{ply}");
        if let Some(glyph) = glyph {
            marked += 1;
            let comment = recorded.comment.as_deref().unwrap();
            let loss = ply["loss"].as_f64().unwrap();
            let word = ply["mark"].as_str().unwrap();
            assert!(
                comment.starts_with(&format!("{word}, gives up {loss:.1} squares")),
                "{comment}"
            );
            let best = ply["before"]["best"].as_str().unwrap();
            assert!(
                comment.ends_with(&format!("; best was {best}")),
                "{comment}"
            );
            assert!(matches!(
                glyph,
                Glyph::Dubious | Glyph::Mistake | Glyph::Blunder
            ));
        } else {
            assert_eq!(recorded.comment, None, "{ply}");
        }
    }
    assert!(marked >= 1, "{json}");
    // Move 21 is the known blunder: it gives away 2 squares, proven (the file's comment).
    assert_eq!(game.moves[20].mark, Some(Glyph::Dubious));
    assert_eq!(
        game.moves[20].comment.as_deref(),
        Some("inaccuracy, gives up 2.0 squares, exact; best was light:stable:g1,h1")
    );
    // Not over the record without --force, never over the input; with --force, every game.
    let first = std::fs::read_to_string(&out).unwrap();
    cathedral()
        .args(["analyse", input, "--annotate"])
        .arg(&out)
        .args(budget)
        .assert()
        .failure()
        .stderr(predicates::str::contains("already exists"));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), first);
    cathedral()
        .args(["analyse", input, "--force", "--annotate", input])
        .args(budget)
        .assert()
        .failure()
        .stderr(predicates::str::contains("is also the input"));
    stdout_of(
        cathedral()
            .args(["analyse", input, "--all", "--force", "--annotate"])
            .arg(&out)
            .args(budget),
    );
    let all = cathedral::file::load_records(&out).unwrap();
    assert_eq!(all.len(), 2);
    assert_eq!(all[0], annotated[0], "the same analysis of game 1");
}

/// The first blunder game's analysis at `nodes` per position, with `recheck`.
fn reviewed(
    nodes: u64,
    recheck: Option<cathedral::analysis::Recheck>,
) -> (
    GameRecord,
    cathedral::analysis::game::GameAnalysis<cathedral::Position>,
) {
    let game = cathedral::file::load_records(std::path::Path::new("tests/data/blunder-games.yaml"))
        .unwrap()
        .remove(0);
    let budget = Budget {
        nodes: Some(nodes),
        time: None,
        tt_mb: 16,
        stop: Default::default(),
        recheck,
    };
    let analysis = analyse_game::<cathedral::Position>(&game, &budget, &|_, _| {});
    (game, analysis)
}

#[test]
fn the_second_stage_judges_again_exactly_the_moves_in_doubt() {
    use cathedral::analysis::Recheck;
    use cathedral::analysis::game::in_doubt;
    let recheck = Recheck {
        factor: 4,
        from_loss: 1.0,
        unstable: 2.0,
        turns_from: 0.5,
    };
    let (game, first) = reviewed(1500, None);
    let (_, second) = reviewed(1500, Some(recheck));
    let positions = game.positions();
    let judged: Vec<_> = first
        .plies
        .iter()
        .map(|p| p.before.clone())
        .chain(std::iter::once(first.end.clone()))
        .collect();
    let mut again = 0;
    for (i, (one, two)) in first.plies.iter().zip(&second.plies).enumerate() {
        let doubted = in_doubt(&positions, i, &judged[i], &judged[i + 1], &recheck);
        assert_eq!(two.before.deeper, doubted, "move {}", i + 1);
        assert!(!one.before.deeper);
        if doubted {
            again += 1;
            assert!(
                two.before.nodes > one.before.nodes,
                "move {}: deeper",
                i + 1
            );
        } else {
            // A move not in doubt keeps its first judgement.
            assert_eq!(two.before.value, one.before.value, "move {}", i + 1);
            assert_eq!(two.before.played_value, one.before.played_value);
        }
    }
    // Some moves are judged again and most are not: the stage spends where it matters.
    assert!(
        again > 0 && again < first.plies.len() / 2,
        "{again} of {}",
        first.plies.len()
    );
}

#[test]
fn the_review_in_the_games_order_gives_the_same_marks_as_the_batch() {
    use cathedral::analysis::game::{Review, assemble};
    let recheck = Some(cathedral::analysis::Recheck {
        factor: 4,
        from_loss: 1.0,
        unstable: 2.0,
        turns_from: 0.5,
    });
    let (game, batch) = reviewed(1500, recheck);
    let positions = game.positions();
    let budget = Budget {
        nodes: Some(1500),
        time: None,
        tt_mb: 16,
        stop: Default::default(),
        recheck,
    };
    let mut review = Review::new(&game, &positions, &budget);
    let mut streamed = Vec::new();
    while let Some(plies) = review.step() {
        streamed.extend(plies);
    }
    assert_eq!(streamed.len(), batch.plies.len());
    let ordered = assemble(&game, review.judged());
    for ((a, b), c) in batch.plies.iter().zip(&streamed).zip(&ordered.plies) {
        assert_eq!(a.ply, b.ply);
        for other in [b, c] {
            assert_eq!(a.loss, other.loss, "move {}", a.ply);
            assert_eq!(a.mark, other.mark, "move {}", a.ply);
            assert_eq!(a.before.deeper, other.before.deeper, "move {}", a.ply);
            assert_eq!(a.notes, other.notes, "move {}", a.ply);
        }
    }
}

#[test]
fn review_bench_compares_with_a_kept_reference_and_refuses_another_budgets() {
    let dir = tempfile::tempdir().unwrap();
    let reference = dir.path().join("ref.json");
    let run = |reference_nodes: &str| {
        let mut command = cathedral();
        command
            .args(["review-bench", "tests/data/blunder-games.yaml", "--both"])
            .args(["--nodes-per-move", "400,800", "--threads", "1", "--json"])
            .args(["--reference-nodes", reference_nodes, "--reference"])
            .arg(&reference);
        command
    };
    let first: serde_json::Value = serde_json::from_str(&stdout_of(&mut run("4000"))).unwrap();
    assert!(reference.exists(), "the reference is kept");
    let reviews = first["reviews"].as_array().unwrap();
    // Two budgets, each with one stage and with two.
    assert_eq!(reviews.len(), 4, "{first}");
    let moves = first["moves"].as_u64().unwrap();
    assert!(moves > 20, "{first}");
    for review in reviews {
        let c = &review["comparison"];
        assert_eq!(c["moves"], moves);
        let row = &c["mistakes"];
        assert_eq!(
            row["found"].as_u64().unwrap() + row["missed"].as_u64().unwrap(),
            row["reference"].as_u64().unwrap()
        );
        assert!(review["nodes"].as_u64().unwrap() > 0);
        if review["recheck"].is_null() {
            assert_eq!(c["judged_again"], 0, "{review}");
        }
    }
    assert!(
        reviews
            .iter()
            .any(|r| r["comparison"]["judged_again"].as_u64() > Some(0)),
        "the second stage judged some moves again: {first}"
    );
    // Read back: the same figures but the times, without judging the reference again.
    let second: serde_json::Value = serde_json::from_str(&stdout_of(&mut run("4000"))).unwrap();
    for (a, b) in reviews.iter().zip(second["reviews"].as_array().unwrap()) {
        let (a, b) = (&a["comparison"], &b["comparison"]);
        for row in [
            "inaccuracies",
            "mistakes",
            "blunders",
            "proven_mistakes",
            "judged_again",
        ] {
            assert_eq!(a[row], b[row], "{row}");
        }
        // The reference's losses come back through JSON's decimals.
        for figure in ["mean_error", "bias", "mean_error_marked", "bias_marked"] {
            let (x, y) = (a[figure].as_f64().unwrap(), b[figure].as_f64().unwrap());
            assert!((x - y).abs() < 1e-9, "{figure}: {x} and {y}");
        }
    }
    assert_eq!(first["reference_seconds"], second["reference_seconds"]);
    // Another budget's reference is refused in words, and the file stays.
    let before = std::fs::read_to_string(&reference).unwrap();
    let output = run("5000").output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("another budget"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&reference).unwrap(), before);
}

#[test]
fn the_headlines_name_the_biggest_losses_and_the_turning_points() {
    let (_, analysis) = reviewed(1500, None);
    assert_eq!(analysis.headlines.len(), 2);
    let biggest = analysis.biggest_losses(3);
    assert!(!biggest.is_empty(), "the blunder game has marked moves");
    assert!(biggest.windows(2).all(|w| w[0].loss >= w[1].loss));
    let worst = analysis
        .plies
        .iter()
        .filter(|p| p.mark.is_some())
        .map(|p| p.loss)
        .fold(0.0, f64::max);
    assert_eq!(biggest[0].loss, worst);
    let first = &analysis.headlines[0];
    assert!(first.starts_with("Biggest losses: "), "{first}");
    for ply in &biggest {
        let words = format!(
            "{}. {} ({:.1} squares, {})",
            ply.ply,
            ply.mover.title(),
            ply.loss,
            if ply.loss_is_exact {
                "exact"
            } else {
                "estimate"
            }
        );
        assert!(first.contains(&words), "{first} names {words}");
    }
    let second = &analysis.headlines[1];
    if analysis.turning_points.is_empty() {
        assert_eq!(second, "No move changed the result.");
    } else {
        for ply in &analysis.turning_points {
            assert!(
                second.contains(&format!("{ply}. ")),
                "{second} names move {ply}"
            );
        }
    }
}
