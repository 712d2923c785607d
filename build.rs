//! Embeds in the binary what the web board serves: the shipped teaching puzzles
//! (`puzzles/teaching/*.yaml`) for its trainer, the course's lessons (`puzzles/learn/*.yaml`)
//! and the page's files (`src/web/assets/`: HTML, CSS, ES modules, the icon), each as a
//! generated list of names and `include_str!`s.

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
