//! The static site (`cathedral site`) in a real browser, with no Cathedral server: builds the
//! site (the WebAssembly service with cargo, in its own target folder so that it never waits for
//! the build running these tests), then runs `tests/browser/site.js` in headless Chromium:
//! the engine's move, a solve stopped with and without cross-origin isolation, an analysis equal
//! to the server's at the same node budget and one stopped, the solver's values on the bench's
//! t3-t8 positions against the stored ones, the trainer, a share link on a phone that never saw
//! the site, a reload, and offline after the first visit. A `cathedral serve` runs beside it,
//! only as the reference the analysis is compared with.
//!
//! Needs what `tests/browser.rs` needs and the `wasm32-unknown-unknown` target; where they are
//! missing the test says so and passes, unless `CATHEDRAL_BROWSER_TESTS=1` demands them (as
//! `.ci/run` does), when it fails.

mod common;

use common::browser::{chromium, missing, serve};
use std::path::Path;
use std::process::Command;

fn demanded() -> bool {
    std::env::var("CATHEDRAL_BROWSER_TESTS").as_deref() == Ok("1")
}

#[test]
fn the_static_site_works_with_no_server() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser");
    let wasm_target = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("wasm32-unknown-unknown"));
    let reason = missing(&dir).or_else(|| {
        (!wasm_target).then(|| {
            "the wasm32-unknown-unknown target is not installed (rustup target add wasm32-unknown-unknown)".to_string()
        })
    });
    if let Some(reason) = reason {
        assert!(!demanded(), "CATHEDRAL_BROWSER_TESTS=1 but {reason}");
        eprintln!("site tests skipped: {reason}");
        return;
    }
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let site = tmp.join("site");
    let built = Command::new(assert_cmd::cargo::cargo_bin("cathedral"))
        .args(["site", "--force", "--color", "never", "-o"])
        .arg(&site)
        .env("CARGO_TARGET_DIR", tmp.join("site-build"))
        .output()
        .expect("run cathedral site");
    let report = String::from_utf8_lossy(&built.stdout);
    eprintln!("{report}{}", String::from_utf8_lossy(&built.stderr));
    assert!(built.status.success(), "cathedral site failed");
    assert!(report.contains("within the budget"), "{report}");
    for file in [
        "index.html",
        "sw.js",
        "manifest.webmanifest",
        "cathedral.wasm",
    ] {
        assert!(site.join(file).is_file(), "the site has no {file}");
    }

    let (_server, url) = serve(&[]);
    let out = tmp.join("site-browser");
    let _ = std::fs::remove_dir_all(&out);
    let run = Command::new("node")
        .arg(dir.join("site.js"))
        .arg(&site)
        .arg(&url)
        .arg(&out)
        .env("CHROMIUM", chromium())
        .output()
        .expect("run node");
    let log = String::from_utf8_lossy(&run.stdout);
    eprintln!("{log}{}", String::from_utf8_lossy(&run.stderr));
    assert!(
        run.status.success() && !log.contains("FAILED"),
        "the site's browser tests failed (screenshots in {})",
        out.display()
    );
    for scenario in [
        "engine",
        "solveStop",
        "analysis",
        "exact",
        "trainer",
        "link",
        "offline",
    ] {
        assert!(
            log.contains(&format!("ok {scenario} ")) || std::env::var("SITE_ONLY").is_ok(),
            "scenario {scenario} did not run"
        );
    }
}
