//! Embeds the shipped teaching puzzles (`puzzles/teaching/*.yaml`) in the binary for the web
//! board's trainer: a generated list of names and `include_str!`s.

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
}
