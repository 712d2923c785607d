//! The Python package (`python/`, the module `src/python/`): runs its pytest suite
//! (`tests/python/`) in the virtual environment `.ci/python-setup` builds at
//! `target/python-venv` (or the interpreter `CATHEDRAL_PYTHON` names), against the `cathedral`
//! binary of this build. The suite checks the module's data against the binary's `--json`,
//! plays random games through the PettingZoo environment move by move against it, runs
//! PettingZoo's API test, bad input and Ctrl-C during a solve, and the distributed solve on a
//! local Ray cluster of 2 CPUs (`docs/distributed.md`).
//!
//! Where the environment is missing the test says so and passes, unless
//! `CATHEDRAL_PYTHON_TESTS=1` demands it (as `.ci/run` does), when it fails. After changing the
//! Rust code, run `.ci/python-setup` again: the package in the environment is built from the
//! sources as they were then.

use std::path::PathBuf;
use std::process::Command;

fn python() -> PathBuf {
    std::env::var_os("CATHEDRAL_PYTHON").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/python-venv/bin/python"),
        PathBuf::from,
    )
}

#[test]
fn python_package_suite() {
    let _alone = crate::one_at_a_time();
    let python = python();
    let demanded = std::env::var("CATHEDRAL_PYTHON_TESTS").is_ok_and(|v| v == "1");
    let installed = python.exists()
        && Command::new(&python)
            .args(["-c", "import cathedral, pettingzoo, pytest"])
            .status()
            .is_ok_and(|s| s.success());
    if !installed {
        let why = format!(
            "{} with the package, PettingZoo and pytest is missing (run .ci/python-setup)",
            python.display()
        );
        assert!(!demanded, "CATHEDRAL_PYTHON_TESTS=1 but {why}");
        eprintln!("skipping the Python tests: {why}");
        return;
    }
    let output = Command::new(&python)
        .args([
            "-m",
            "pytest",
            "tests/python",
            "-q",
            "-p",
            "no:cacheprovider",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("CATHEDRAL_BIN", env!("CARGO_BIN_EXE_cathedral"))
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .expect("pytest runs");
    let report = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    eprintln!("{report}");
    assert!(
        output.status.success(),
        "the Python tests failed:\n{report}"
    );
}
