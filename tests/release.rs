//! Releases (issue 79, `docs/releasing.md`): one version everywhere, the release notes from the
//! changelog, the release build's archives and checksums, and `cathedral health`, the
//! container's health check.

use crate::common;

use common::server::serve;
use std::io::{Read, Write};
use std::path::Path;
use std::process::Command;

const VERSION: &str = env!("CARGO_PKG_VERSION");

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Runs a script of `.ci/` from the repository's root: (status, stdout, stderr).
fn script(name: &str, args: &[&str]) -> (bool, String, String) {
    let out = Command::new(root().join(".ci").join(name))
        .args(args)
        .current_dir(root())
        .output()
        .unwrap_or_else(|e| panic!(".ci/{name}: {e}"));
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The body of a GET of `path` from the server at `url`.
fn get(url: &str, path: &str) -> String {
    let address = url.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    answer.split_once("\r\n\r\n").unwrap().1.to_string()
}

#[test]
fn every_place_carries_the_same_version() {
    // The changelog's first version is the crate's.
    let changelog = read("CHANGELOG.md");
    let first = changelog
        .lines()
        .find_map(|l| l.strip_prefix("## ["))
        .and_then(|l| l.split(']').next())
        .expect("a version section in CHANGELOG.md");
    assert_eq!(first, VERSION, "CHANGELOG.md's first section");
    // The Python package takes the crate's version (maturin reads Cargo.toml), and says it.
    let pyproject = read("python/pyproject.toml");
    assert!(
        pyproject.contains("dynamic = [\"version\"]"),
        "python/pyproject.toml"
    );
    assert!(
        !pyproject.lines().any(|l| l.starts_with("version =")),
        "python/pyproject.toml names a version of its own"
    );
    assert!(
        read("src/python/mod.rs").contains("m.add(\"__version__\", env!(\"CARGO_PKG_VERSION\"))")
    );
    // The command line, with the commit.
    let out = common::stdout_of(common::cathedral().arg("--version"));
    let expected = format!("cathedral {VERSION} (commit ");
    assert!(out.starts_with(&expected), "{out}");
    let commit = out[expected.len()..].trim_end().trim_end_matches(')');
    assert!(
        commit == "unknown"
            || (commit.len() == 12 && commit.chars().all(|c| c.is_ascii_hexdigit())),
        "{out}"
    );
    // .ci/version, which the release workflow checks the tag against.
    let (ok, printed, _) = script("version", &[]);
    assert!(ok);
    assert_eq!(printed.trim(), VERSION);
    let (ok, _, said) = script("version", &["v99.0.0"]);
    assert!(!ok);
    assert!(said.contains("is not the crate's version"), "{said}");
    // The board's footer and the server's health answer.
    let (_server, url) = serve(&[]);
    let page = get(&url, "/");
    assert!(
        page.contains(&format!(
            "<footer id=\"about\">Cathedral toolkit {VERSION} (commit {commit})</footer>"
        )),
        "the page's footer"
    );
    let health: serde_json::Value = serde_json::from_str(&get(&url, "/api/health")).unwrap();
    assert_eq!(health["version"], VERSION);
    assert_eq!(health["commit"], commit);
}

#[test]
fn health_says_whether_a_server_answers() {
    let (_server, url) = serve(&[]);
    let port = url.rsplit(':').next().unwrap();
    let out = common::stdout_of(common::cathedral().args(["health", "--port", port]));
    assert!(
        out.starts_with(&format!("ok: cathedral {VERSION} (commit ")),
        "{out}"
    );
    // A port nobody listens on: the status says so, in words.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let free = closed.local_addr().unwrap().port().to_string();
    drop(closed);
    let out = common::cathedral()
        .args(["health", "--port", &free, "--timeout", "2"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("no healthy server at http://127.0.0.1:"),
        "{said}"
    );
}

#[test]
fn the_release_notes_are_the_changelogs_section() {
    let (ok, notes, said) = script("release-notes", &[]);
    assert!(ok, "{said}");
    let changelog = read("CHANGELOG.md");
    let start = changelog.find(&format!("## [{VERSION}]")).unwrap();
    let section = &changelog[start..];
    let body = &section[section.find('\n').unwrap() + 1..];
    let body = body.split("\n## [").next().unwrap();
    assert_eq!(notes.trim(), body.trim());
    assert!(notes.contains("### Added"), "{notes}");
    let (ok, _, said) = script("release-notes", &["9.9.9"]);
    assert!(!ok);
    assert!(said.contains("no section `## [9.9.9]`"), "{said}");
}

/// The release build's packaging, given a binary (the one these tests run) and a site: the
/// archive holds the binary and the documents under one folder, the site zip the site, the
/// notes are the changelog's, and every archive's checksum is right.
#[test]
fn the_release_build_packages_and_checksums_what_it_ships() {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR")).join("release-build");
    let _ = std::fs::remove_dir_all(&tmp);
    let site = tmp.join("site");
    std::fs::create_dir_all(site.join("assets")).unwrap();
    std::fs::write(site.join("index.html"), "<!doctype html>").unwrap();
    std::fs::write(site.join("assets/app.js"), "// the page").unwrap();
    let out = tmp.join("dist");
    let binary = assert_cmd::cargo::cargo_bin("cathedral");
    let (ok, printed, said) = script(
        "release-build",
        &[
            "--binary",
            binary.to_str().unwrap(),
            "--site",
            site.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert!(ok, "{printed}{said}");
    let host = String::from_utf8_lossy(&Command::new("rustc").arg("-vV").output().unwrap().stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_string))
        .unwrap();
    let name = format!("cathedral-{VERSION}-{host}");
    let archive = out.join(format!("{name}.tar.gz"));
    let listing = Command::new("tar")
        .arg("-tzf")
        .arg(&archive)
        .output()
        .unwrap();
    let mut listed: Vec<String> = String::from_utf8_lossy(&listing.stdout)
        .lines()
        .map(|l| l.trim_end_matches('/').to_string())
        .collect();
    listed.sort();
    let mut expected: Vec<String> = ["", "/CHANGELOG.md", "/LICENSE", "/README.md", "/cathedral"]
        .iter()
        .map(|f| format!("{name}{f}"))
        .collect();
    expected.sort();
    assert_eq!(listed, expected);
    // The packed binary is the one given, and runs.
    let unpacked = tmp.join("unpacked");
    std::fs::create_dir_all(&unpacked).unwrap();
    assert!(
        Command::new("tar")
            .arg("-xzf")
            .arg(&archive)
            .arg("-C")
            .arg(&unpacked)
            .status()
            .unwrap()
            .success()
    );
    let version = Command::new(unpacked.join(&name).join("cathedral"))
        .arg("--version")
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&version.stdout)
            .starts_with(&format!("cathedral {VERSION} (commit "))
    );
    // The site's zip holds the site as given, at its root.
    let site_zip = out.join(format!("cathedral-site-{VERSION}.zip"));
    let zipped = Command::new("python3")
        .args(["-m", "zipfile", "-l"])
        .arg(&site_zip)
        .output()
        .unwrap();
    let zipped = String::from_utf8_lossy(&zipped.stdout);
    assert!(
        zipped.lines().any(|l| l.starts_with("index.html ")),
        "{zipped}"
    );
    assert!(
        zipped.lines().any(|l| l.starts_with("assets/app.js ")),
        "{zipped}"
    );
    // The notes, and checksums that verify.
    let (_, notes, _) = script("release-notes", &[]);
    assert_eq!(
        std::fs::read_to_string(out.join("notes.md")).unwrap(),
        notes
    );
    let sums = std::fs::read_to_string(out.join("SHA256SUMS")).unwrap();
    assert_eq!(sums.lines().count(), 2, "{sums}");
    let check = Command::new("sha256sum")
        .args(["-c", "SHA256SUMS"])
        .current_dir(&out)
        .output()
        .unwrap();
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
    // A corrupted archive fails the check.
    std::fs::write(&site_zip, b"not the site").unwrap();
    let check = Command::new("sha256sum")
        .args(["-c", "--quiet", "SHA256SUMS"])
        .current_dir(&out)
        .output()
        .unwrap();
    assert!(!check.status.success());
}
