//! Embeds in the binary what the web board serves: the shipped teaching puzzles
//! (`puzzles/teaching/*.yaml`) for its trainer, the course's lessons (`puzzles/learn/*.yaml`)
//! and the page's files (`src/web/assets/`: HTML, CSS, ES modules, the icon), each as a
//! generated list of names and `include_str!`s. It also says which commit the binary is built
//! from (`CATHEDRAL_COMMIT`, for `cathedral --version`).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a build script: a failure should stop the build with what went wrong"
)]

use std::fmt::Write;
use std::path::Path;

fn main() {
    // Read at run time, not baked in with `env!`: a build script binary reused from another
    // checkout of the crate (a worktree sharing the target directory) must read this one's files.
    let root = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let root = Path::new(&root);
    // A trainer without puzzles is a broken build, not an empty list.
    embed(
        &root.join("puzzles/teaching"),
        |path| path.extension().is_some_and(|e| e == "yaml"),
        |path| path.file_stem(),
        "/// The shipped teaching puzzles: (name, file text).\npub const TEACHING",
        "teaching.rs",
    );
    // The course: lessons as studies (docs/study-format.md), in the order of their file names.
    embed(
        &root.join("puzzles/learn"),
        |path| path.extension().is_some_and(|e| e == "yaml"),
        |path| path.file_stem(),
        "/// The course's lessons, in order: (name, study file text).\npub const COURSE",
        "course.rs",
    );
    // The page is plain ES modules with no build step: whatever lies in the folder (not its
    // subfolders) is what the browser gets, by file name.
    commit(root);
    embed(
        &root.join("src/web/assets"),
        |path| path.is_file(),
        |path| path.file_name(),
        "/// The web page's files: (name, text), as in src/web/assets/.\npub const ASSETS",
        "assets.rs",
    );
}

/// Writes `OUT_DIR/target`: `declaration: &[(&str, &str)]` listing the files of `dir` that `keep`
/// accepts, sorted, each as (its `name`, `include_str!` of it).
fn embed(
    dir: &Path,
    keep: impl Fn(&Path) -> bool,
    name: impl Fn(&Path) -> Option<&std::ffi::OsStr>,
    declaration: &str,
    target: &str,
) {
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| keep(p))
        .collect();
    files.sort();
    let mut out = format!("{declaration}: &[(&str, &str)] = &[\n");
    for path in files {
        println!("cargo:rerun-if-changed={}", path.display());
        let name = name(&path).and_then(|s| s.to_str()).unwrap_or("file");
        let _ = writeln!(
            out,
            "    ({name:?}, include_str!({:?})),",
            path.display().to_string()
        );
    }
    out.push_str("];\n");
    let target = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join(target);
    std::fs::write(&target, out)
        .unwrap_or_else(|e| panic!("cannot write {}: {e}", target.display()));
}

/// Sets `CATHEDRAL_COMMIT` to the commit the crate is built from, its first 12 hex digits: from
/// git in a checkout, from `.cargo_vcs_info.json` in a package cargo made from one (what
/// `cargo install cathedral` builds), or from the environment (`CATHEDRAL_COMMIT`, for builds of
/// a source archive); `unknown` otherwise. A release's binaries, wheels and site say the same.
fn commit(root: &Path) {
    println!("cargo:rerun-if-env-changed=CATHEDRAL_COMMIT");
    let from_env = std::env::var("CATHEDRAL_COMMIT").ok();
    let from_git = || {
        let git = root.join(".git");
        if !git.exists() {
            return None;
        }
        // Rebuilt when the checkout moves to another commit.
        println!("cargo:rerun-if-changed={}", git.join("HEAD").display());
        if let Ok(head) = std::fs::read_to_string(git.join("HEAD"))
            && let Some(reference) = head.trim().strip_prefix("ref: ")
        {
            println!("cargo:rerun-if-changed={}", git.join(reference).display());
            println!(
                "cargo:rerun-if-changed={}",
                git.join("packed-refs").display()
            );
        }
        let out = std::process::Command::new("git")
            .arg("-C")
            .arg(root)
            .args(["rev-parse", "HEAD"])
            .output()
            .ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
    };
    let from_package = || {
        let info = std::fs::read_to_string(root.join(".cargo_vcs_info.json")).ok()?;
        let at = info.find("\"sha1\"")?;
        let rest = &info[at + 6..];
        let start = rest.find('"')? + 1;
        let end = start + rest[start..].find('"')?;
        Some(rest[start..end].to_string())
    };
    let commit = from_env
        .or_else(from_git)
        .or_else(from_package)
        .filter(|c| c.len() >= 7 && c.chars().all(|c| c.is_ascii_hexdigit()))
        .map_or_else(
            || "unknown".to_string(),
            |c| c[..c.len().min(12)].to_string(),
        );
    println!("cargo:rustc-env=CATHEDRAL_COMMIT={commit}");
}
