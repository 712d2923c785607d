//! Embeds in the binary what the web board serves: the shipped teaching puzzles
//! (`puzzles/teaching/*.yaml`) for its trainer and the page's files (`src/web/assets/`: HTML,
//! CSS, ES modules, the icon), each as a generated list of names and `include_str!`s.

use std::fmt::Write;
use std::path::Path;

fn main() {
    // Read at run time, not baked in with `env!`: a build script binary reused from another
    // checkout of the crate (a worktree sharing the target directory) must read this one's files.
    let root = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let dir = Path::new(&root).join("puzzles/teaching");
    println!("cargo:rerun-if-changed={}", dir.display());
    // A trainer without puzzles is a broken build, not an empty list.
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read the teaching puzzles in {}: {e}", dir.display()))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    let mut out = String::from(
        "/// The shipped teaching puzzles: (name, file text).\npub const TEACHING: &[(&str, &str)] = &[\n",
    );
    for path in files {
        println!("cargo:rerun-if-changed={}", path.display());
        let name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("puzzle");
        let _ = writeln!(
            out,
            "    ({name:?}, include_str!({:?})),",
            path.display().to_string()
        );
    }
    out.push_str("];\n");
    let target =
        Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("teaching.rs");
    std::fs::write(target, out).expect("write the puzzle list");
    embed_assets(&root);
}

/// Every file of `src/web/assets/` (not its subfolders), sorted by name: the page is plain ES
/// modules with no build step, so whatever lies there is what the browser gets.
fn embed_assets(root: &str) {
    let dir = Path::new(root).join("src/web/assets");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read the web assets in {}: {e}", dir.display()))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    let mut out = String::from(
        "/// The web page's files: (name, text), as in src/web/assets/.\npub const ASSETS: &[(&str, &str)] = &[\n",
    );
    for path in files {
        println!("cargo:rerun-if-changed={}", path.display());
        let name = path.file_name().and_then(|s| s.to_str()).unwrap_or("asset");
        let _ = writeln!(
            out,
            "    ({name:?}, include_str!({:?})),",
            path.display().to_string()
        );
    }
    out.push_str("];\n");
    let target =
        Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("assets.rs");
    std::fs::write(target, out).expect("write the asset list");
}
