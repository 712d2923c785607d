//! The web board in a real browser: starts `cathedral serve`, runs `tests/browser/e2e.js` (headless
//! Chromium driven by playwright-core) and checks pixels of its screenshots. One scenario per flow
//! that once broke and per feature: placing with the mouse (shapes turned, then pointed), a
//! refused placement, the keyboard, Undo at the start and against the engine, the engine never
//! playing over a record, the result at the end, a busy server retried, solving and stopping, the
//! engine's line and candidates on the board, the evaluation, a streamed analysis stopped, the
//! trainer, records, the editor, a phone with touch, a shared link and a reload, the question
//! before a game is discarded, the territory view, help, the World display and an axe-core scan;
//! then screenshots at phone, laptop, desktop sizes and in dark mode.
//!
//! Needs `node`, Debian's `chromium` and `npm ci` in tests/browser; `.ci/run` installs them. Where
//! they are missing the test says so and passes, unless `CATHEDRAL_BROWSER_TESTS=1` demands it
//! (as `.ci/run` does), when it fails.

use crate::common;

use common::chromium::{chromium, missing};
use common::server::serve;
use std::path::Path;
use std::process::Command;

#[derive(serde::Deserialize)]
struct PixelCheck {
    screenshot: String,
    x: u32,
    y: u32,
    expect: String,
    what: String,
}

fn rgb(hex: &str) -> [u8; 3] {
    let value = u32::from_str_radix(hex.trim_start_matches('#'), 16).expect("a colour #rrggbb");
    [(value >> 16) as u8, (value >> 8) as u8, value as u8]
}

/// The folder of the browser scripts, or `None` (the test passes, saying why) where node,
/// Chromium or the scripts' packages are missing and the run does not demand them.
fn browser_scripts() -> Option<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser");
    if let Some(reason) = missing(&dir) {
        assert!(
            std::env::var("CATHEDRAL_BROWSER_TESTS").as_deref() != Ok("1"),
            "CATHEDRAL_BROWSER_TESTS=1 but {reason}"
        );
        eprintln!("browser tests skipped: {reason}");
        return None;
    }
    Some(dir)
}

/// Runs `script` of the browser scripts against `url`, its screenshots into a fresh `out`
/// folder of the target's: what it printed, and whether it succeeded.
fn run_script(
    dir: &Path,
    script: &str,
    url: &str,
    out: &str,
) -> (std::path::PathBuf, String, bool) {
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(out);
    let _ = std::fs::remove_dir_all(&out);
    let run = Command::new("node")
        .arg(dir.join(script))
        .arg(url)
        .arg(&out)
        .env("CHROMIUM", chromium())
        .output()
        .expect("run node");
    let report = String::from_utf8_lossy(&run.stdout).to_string();
    eprintln!("{report}{}", String::from_utf8_lossy(&run.stderr));
    (out, report, run.status.success())
}

/// Two players on the play server (`serve --play`) in two browser contexts, a laptop and a
/// phone: accounts, a challenge by name and its link, a rated match of two games on the board,
/// a reload and a network cut in the middle, resignations, the match's result and the rating it
/// moved, axe-core on the lobby and the game (tests/browser/play.js).
#[test]
fn two_players_play_a_match_in_real_browsers() {
    let _alone = crate::one_at_a_time();
    let Some(dir) = browser_scripts() else { return };
    let database = tempfile::tempdir().unwrap();
    let file = database.path().join("play.sqlite");
    let (_server, url) = serve(&["--play", "--database", file.to_str().unwrap()]);
    let (out, report, success) = run_script(&dir, "play.js", &url, "browser-play");
    assert!(
        success && report.contains("ok play"),
        "the play scenario failed (screenshots in {})",
        out.display()
    );
}

#[test]
fn the_board_works_in_a_real_browser() {
    let _alone = crate::one_at_a_time();
    let Some(dir) = browser_scripts() else { return };
    let (_server, url) = serve(&["--max-searches", "4"]);
    let (out, report, success) = run_script(&dir, "e2e.js", &url, "browser");
    assert!(
        success,
        "the browser tests failed (screenshots in {})",
        out.display()
    );
    assert!(!report.contains("FAILED"));

    let checks: Vec<PixelCheck> =
        serde_json::from_str(&std::fs::read_to_string(out.join("pixels.json")).unwrap()).unwrap();
    assert!(checks.len() >= 5, "too few pixel checks: {}", checks.len());
    for check in &checks {
        let picture = resvg::tiny_skia::Pixmap::load_png(out.join(&check.screenshot))
            .unwrap_or_else(|e| panic!("{}: {e}", check.screenshot));
        let pixel = picture
            .pixel(check.x, check.y)
            .unwrap_or_else(|| panic!("{} is outside {}", check.what, check.screenshot));
        let seen = [pixel.red(), pixel.green(), pixel.blue()];
        let expected = rgb(&check.expect);
        let distance = seen
            .iter()
            .zip(expected)
            .map(|(&a, b)| (i32::from(a) - i32::from(b)).abs())
            .max()
            .unwrap();
        assert!(
            distance <= 24,
            "{}: at ({}, {}) of {} the colour is #{:02x}{:02x}{:02x}, expected about {}",
            check.what,
            check.x,
            check.y,
            check.screenshot,
            seen[0],
            seen[1],
            seen[2],
            check.expect
        );
    }
}

/// The trainer's spaced repetition (src/web/assets/review.js), unit-tested in node:
/// `tests/browser/review_test.mjs`.
#[test]
fn the_review_schedule_follows_supermemo_2() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser");
    if Command::new("node").arg("--version").output().is_err() {
        assert!(
            std::env::var("CATHEDRAL_BROWSER_TESTS").as_deref() != Ok("1"),
            "CATHEDRAL_BROWSER_TESTS=1 but node is missing"
        );
        eprintln!("review schedule tests skipped: node is missing");
        return;
    }
    let run = Command::new("node")
        .arg(dir.join("review_test.mjs"))
        .output()
        .expect("run node");
    assert!(
        run.status.success(),
        "{}{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
}
