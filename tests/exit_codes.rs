//! Every exit status of the README's table, and the options and inputs that lead to each: out of
//! range values are refused before any work (2), unusable input is 3, an unproven solve 4, a
//! wrong answer 5, Ctrl-C 130 after printing what was found.

use crate::common;

use common::cathedral;
use predicates::prelude::*;
use std::fs;

const T5: &str = "puzzles/bench/t5-02.yaml";
const T7: &str = "puzzles/bench/t7-02.yaml";
const PUZZLE: &str = "puzzles/teaching/puzzle-001.yaml";

/// The stored answer of a puzzle file.
fn answer(path: &str) -> String {
    let file = cathedral::file::load(std::path::Path::new(path)).expect("puzzle");
    file.solution.and_then(|s| s.best_move).expect("best move")
}

/// A legal move of a puzzle file that is not its stored answer.
fn wrong_move(path: &str) -> String {
    let file = cathedral::file::load(std::path::Path::new(path)).expect("puzzle");
    let mut moves = cathedral::MoveList::new();
    file.position.legal_moves(&mut moves);
    let right = answer(path);
    moves
        .iter()
        .map(|&mv| cathedral::notation::format_move_with_player(&file.position, mv))
        .find(|text| *text != right)
        .expect("a second legal move")
}

#[test]
fn success_is_0() {
    cathedral()
        .args(["solve", T5, "--threads", "1"])
        .assert()
        .code(0);
    cathedral()
        .args(["check", PUZZLE, &answer(PUZZLE)])
        .assert()
        .code(0);
}

#[test]
fn out_of_range_options_are_usage_errors_before_any_work() {
    for args in [
        vec!["solve", T5, "--time-limit", "1e30"],
        vec!["solve", T5, "--time-limit", "-1"],
        vec!["solve", T5, "--time-limit", "nan"],
        vec!["solve", T5, "--tt-mb", "100000"],
        vec!["solve", T5, "--tt-mb", "18446744073709551615"],
        vec!["solve", T5, "--tt-mb", "0"],
        vec!["solve", T5, "--threads", "10000"],
        vec!["bench", "puzzles/bench", "--threads", "65"],
        vec!["check", PUZZLE, "pass", "--time-limit", "0"],
        vec!["generate", "--count", "0", "-o", "/nonexistent/never"],
        vec!["generate", "--margin", "0", "-o", "/nonexistent/never"],
        vec!["generate", "--time-limit", "2x", "-o", "/nonexistent/never"],
        vec![
            "sample",
            "--tier",
            "t5",
            "--count",
            "100000",
            "-o",
            "/nonexistent/never",
        ],
        vec!["perft", "puzzles/examples/opening.yaml", "99"],
        vec!["perft", "puzzles/examples/opening.yaml", "two"],
    ] {
        cathedral()
            .args(&args)
            .timeout(std::time::Duration::from_secs(20))
            .assert()
            .code(2)
            .stderr(predicate::str::contains("panicked").not());
    }
}

#[test]
fn durations_take_units() {
    cathedral()
        .args(["solve", T5, "--threads", "1", "--time-limit", "2m"])
        .assert()
        .code(0);
    cathedral()
        .args(["solve", T5, "--time-limit", "3d"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("ms, s, m or h"));
}

#[test]
fn unusable_input_is_3() {
    cathedral()
        .args(["show", "no/such/file.yaml"])
        .assert()
        .code(3);
    cathedral()
        .args(["play", "puzzles/examples/opening.yaml", "nonsense"])
        .assert()
        .code(3);
    cathedral()
        .args(["check", PUZZLE, "nonsense"])
        .assert()
        .code(3);
    let empty = tempfile::tempdir().expect("temp dir");
    cathedral()
        .args(["bench", &empty.path().display().to_string()])
        .assert()
        .code(3);
    cathedral()
        .args(["sheet", &empty.path().display().to_string(), "-o"])
        .arg(empty.path().join("sheet.html"))
        .assert()
        .code(3);
}

#[test]
fn index_of_a_folder_without_puzzles_writes_nothing() {
    let empty = tempfile::tempdir().expect("temp dir");
    cathedral()
        .arg("index")
        .arg(empty.path())
        .assert()
        .code(3)
        .stderr(predicate::str::contains("holds no puzzle files"));
    assert!(
        !empty.path().join("README.md").exists(),
        "a failed index left a README.md behind"
    );
}

#[test]
fn an_unproven_solve_is_4_in_every_output_form() {
    for form in [None, Some("--json"), Some("--yaml")] {
        let mut cmd = cathedral();
        cmd.args(["solve", T7, "--threads", "1", "--time-limit", "0"]);
        if let Some(flag) = form {
            cmd.arg(flag);
        }
        cmd.assert().code(4);
    }
}

#[test]
fn a_wrong_answer_is_5_and_says_why_on_stdout() {
    cathedral()
        .args(["check", PUZZLE, &wrong_move(PUZZLE)])
        .assert()
        .code(5)
        .stdout(predicate::str::contains("Not the answer"))
        .stderr(predicate::str::is_empty());
}

#[test]
fn outputs_never_overwrite_their_input() {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("in.yaml");
    fs::copy("puzzles/examples/midgame.yaml", &input).expect("copy");
    let before = fs::read_to_string(&input).expect("read");
    cathedral()
        .arg("render")
        .arg(&input)
        .arg("-o")
        .arg(&input)
        .arg("--force")
        .assert()
        .failure()
        .stderr(predicate::str::contains("is also the input"));
    cathedral()
        .arg("play")
        .arg(&input)
        .arg("pass")
        .arg("-o")
        .arg(dir.path().join(".").join("in.yaml"))
        .arg("--force")
        .assert()
        .failure()
        .stderr(predicate::str::contains("is also the input"));
    assert_eq!(fs::read_to_string(&input).expect("read"), before);
}

#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_prints_what_was_found_and_exits_130() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("cathedral"))
        .args([
            "solve",
            "puzzles/bench/t8-09.yaml",
            "--threads",
            "1",
            "--tt-mb",
            "64",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    std::thread::sleep(std::time::Duration::from_millis(1500));
    // SAFETY: kill(2) with a valid pid and signal has no memory effects.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGINT);
    }
    let status = child.wait().expect("wait");
    let mut out = String::new();
    child
        .stdout
        .take()
        .expect("stdout")
        .read_to_string(&mut out)
        .expect("read");
    assert_eq!(status.code(), Some(130), "{out}");
    assert!(out.contains("the value is between"), "{out}");
    assert!(out.contains("Root moves"), "{out}");
}

/// Starts `cathedral ARGS` with its output piped, waits for `lines` lines starting with `Wrote`,
/// sends Ctrl-C and returns the exit status and everything printed (an unanswered run is killed
/// after two minutes, so the test fails instead of hanging).
#[cfg(target_os = "linux")]
fn interrupt_after_written(args: &[&str], lines: usize) -> (Option<i32>, String, String) {
    use std::io::{BufRead, BufReader, Read};
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("cathedral"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let pid = child.id() as libc::pid_t;
    let start = Instant::now();
    let watchdog = std::thread::spawn(move || {
        while start.elapsed() < Duration::from_secs(120) {
            std::thread::sleep(Duration::from_millis(200));
            // SAFETY: signal 0 only checks that the process exists.
            if unsafe { libc::kill(pid, 0) } != 0 {
                return;
            }
        }
        // SAFETY: kill(2) with a valid pid and signal has no memory effects.
        unsafe { libc::kill(pid, libc::SIGKILL) };
    });
    let mut reader = BufReader::new(child.stdout.take().expect("stdout"));
    let mut out = String::new();
    let mut written = 0;
    while written < lines {
        let mut line = String::new();
        if reader.read_line(&mut line).expect("read") == 0 {
            break;
        }
        written += usize::from(line.starts_with("Wrote"));
        out.push_str(&line);
    }
    // SAFETY: as above.
    unsafe { libc::kill(pid, libc::SIGINT) };
    reader.read_to_string(&mut out).expect("read");
    let mut err = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut err)
        .expect("read");
    let status = child.wait().expect("wait");
    watchdog.join().expect("watchdog");
    (status.code(), out, err)
}

#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_during_generate_keeps_the_puzzles_written_and_indexes_them() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out_dir = dir.path().join("puzzles");
    let out_arg = out_dir.to_str().expect("utf-8 path");
    let (status, out, err) = interrupt_after_written(
        &[
            "generate",
            "--count",
            "500",
            "--threads",
            "1",
            "-o",
            out_arg,
        ],
        2,
    );
    assert_eq!(status, Some(130), "{out}\n{err}");
    let wrote = out.lines().filter(|l| l.starts_with("Wrote")).count();
    assert!(wrote >= 2, "{out}");
    assert!(out.contains("Stopped by Ctrl-C"), "{out}");
    let mut files: Vec<String> = fs::read_dir(&out_dir)
        .expect("the folder")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".yaml"))
        .collect();
    files.sort();
    // Every file announced is there, whole, and nothing else: no partial file.
    assert_eq!(files.len(), wrote, "{files:?}\n{out}");
    let index = fs::read_to_string(out_dir.join("README.md")).expect("the index");
    for name in &files {
        cathedral::file::load(&out_dir.join(name)).expect("a whole puzzle file");
        assert!(index.contains(name.as_str()), "{name} not in the index");
    }
}

#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_during_sample_keeps_the_positions_written() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out_arg = dir.path().to_str().expect("utf-8 path");
    let (status, out, err) = interrupt_after_written(
        &["sample", "--tier", "t8", "--count", "10000", "-o", out_arg],
        3,
    );
    assert_eq!(status, Some(130), "{out}\n{err}");
    assert!(err.contains("stopped by Ctrl-C"), "{err}");
    let wrote = out.lines().filter(|l| l.starts_with("Wrote")).count();
    let files: Vec<_> = fs::read_dir(dir.path())
        .expect("the folder")
        .map(|e| e.expect("entry").path())
        .collect();
    assert_eq!(files.len(), wrote, "{files:?}\n{out}");
    for file in files {
        cathedral::file::load(&file).expect("a whole position file");
    }
}
