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

use crate::common;

use common::chromium::{chromium, missing};
use common::server::serve;
use std::path::Path;
use std::process::Command;

fn demanded() -> bool {
    std::env::var("CATHEDRAL_BROWSER_TESTS").as_deref() == Ok("1")
}

#[test]
fn the_static_site_works_with_no_server() {
    let _alone = crate::one_at_a_time();
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
        "solveStopIsolated",
        "analysis",
        "exact",
        "trainer",
        "study",
        "link",
        "puzzleLink",
        "installable",
        "offline",
        "monkey",
        "update",
    ] {
        assert!(
            log.contains(&format!("ok {scenario} ")) || std::env::var("SITE_ONLY").is_ok(),
            "scenario {scenario} did not run"
        );
    }
}

/// The command itself, with a stand-in module (no WebAssembly build needed): the files it
/// writes, the folders it refuses, what it says.
#[test]
fn the_site_command_writes_a_relative_offline_site_and_refuses_a_folder_it_does_not_own() {
    let tmp = tempfile::tempdir().unwrap();
    // The smallest valid WebAssembly module: the magic number and version 1.
    let wasm = tmp.path().join("empty.wasm");
    std::fs::write(&wasm, b"\0asm\x01\0\0\0").unwrap();
    let site = tmp.path().join("site");
    let run = |args: &[&str]| {
        Command::new(assert_cmd::cargo::cargo_bin("cathedral"))
            .args(["site", "--color", "never"])
            .args(args)
            .output()
            .expect("run cathedral site")
    };
    let written = run(&[
        "-o",
        site.to_str().unwrap(),
        "--wasm",
        wasm.to_str().unwrap(),
    ]);
    let said = String::from_utf8_lossy(&written.stdout);
    assert!(written.status.success(), "{said}");
    assert!(said.contains("within the budget"), "{said}");
    assert!(said.contains("cathedral.wasm"), "{said}");
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(index.contains(r#"data-engine="browser""#), "{index}");
    assert!(index.contains(r#"href="manifest.webmanifest""#), "{index}");
    // Every address is relative: the site works from any folder of a host.
    assert!(
        !index.contains("href=\"/") && !index.contains("src=\"/"),
        "{index}"
    );
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(site.join("manifest.webmanifest")).unwrap())
            .unwrap();
    assert_eq!(manifest["start_url"], "./");
    // The site says its version, as the binary that wrote it does (tests/release.rs).
    assert_eq!(manifest["version"], env!("CARGO_PKG_VERSION"));
    assert!(
        index.contains(&format!(
            "<footer id=\"about\">Cathedral toolkit {} (commit ",
            env!("CARGO_PKG_VERSION")
        )),
        "the page's footer"
    );
    for icon in manifest["icons"].as_array().unwrap() {
        assert!(site.join(icon["src"].as_str().unwrap()).is_file(), "{icon}");
    }
    let png = std::fs::read(site.join("icon-512.png")).unwrap();
    assert!(png.starts_with(b"\x89PNG"));
    // The service worker keeps every file of the site, each of which exists.
    let worker = std::fs::read_to_string(site.join("sw.js")).unwrap();
    let kept: Vec<&str> = worker
        .lines()
        .filter_map(|l| l.trim().strip_prefix('"')?.strip_suffix("\","))
        .collect();
    for file in &kept {
        assert!(
            *file == "./" || site.join(file).is_file(),
            "sw.js keeps {file}, which the site lacks"
        );
    }
    for file in [
        "index.html",
        "cathedral.wasm",
        "assets/app.js",
        "assets/worker.js",
    ] {
        assert!(kept.contains(&file), "sw.js does not keep {file}: {kept:?}");
    }
    // Written again over its own site: allowed, and the same files.
    assert!(
        run(&[
            "-o",
            site.to_str().unwrap(),
            "--wasm",
            wasm.to_str().unwrap()
        ])
        .status
        .success()
    );

    // A folder with someone's files is refused at once, in words, and left alone.
    let theirs = tmp.path().join("theirs");
    std::fs::create_dir(&theirs).unwrap();
    std::fs::write(theirs.join("notes.txt"), "mine").unwrap();
    let refused = run(&[
        "-o",
        theirs.to_str().unwrap(),
        "--wasm",
        wasm.to_str().unwrap(),
    ]);
    let error = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(3), "{error}");
    assert!(
        error.contains("is not empty") && error.contains("--force"),
        "{error}"
    );
    assert_eq!(std::fs::read_dir(&theirs).unwrap().count(), 1);
    // With --force the site's files go in beside them.
    let forced = run(&[
        "-o",
        theirs.to_str().unwrap(),
        "--wasm",
        wasm.to_str().unwrap(),
        "--force",
    ]);
    assert!(forced.status.success());
    assert_eq!(
        std::fs::read_to_string(theirs.join("notes.txt")).unwrap(),
        "mine"
    );
    // A file that is not WebAssembly.
    let readme = Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
    let other = tmp.path().join("other");
    let refused = run(&[
        "-o",
        other.to_str().unwrap(),
        "--wasm",
        readme.to_str().unwrap(),
    ]);
    let error = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(3), "{error}");
    assert!(error.contains("is not a WebAssembly module"), "{error}");
    assert!(!other.exists(), "nothing written for a refused module");
}
