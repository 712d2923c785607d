//! `cathedral index DIR`: the README index of a puzzle directory.

use super::shared::input::load_position;
use super::shared::output::emit;
use super::shared::output::refuse_overwrite;
use cathedral::file::PositionFile;
use cathedral::puzzle::{MARKER, index_markdown};
use miette::{IntoDiagnostic, WrapErr, miette};
use std::path::{Path, PathBuf};

/// Whether `path` is an index this command wrote (and may rewrite).
pub fn is_generated(path: &Path) -> bool {
    std::fs::read_to_string(path).is_ok_and(|t| t.starts_with(MARKER))
}

/// The puzzle files of `dir` (with a `puzzle:` block), sorted by name.
pub fn puzzle_files(dir: &Path) -> miette::Result<Vec<(String, PositionFile)>> {
    let entries = std::fs::read_dir(dir)
        .into_diagnostic()
        .wrap_err_with(|| format!("cannot read the directory {}", dir.display()))?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "yaml" || e == "yml"))
        .collect();
    paths.sort();
    let mut files = Vec::new();
    for path in paths {
        let file = load_position(&path)?;
        if file.puzzle.is_some() {
            let name = path
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            files.push((name, file));
        }
    }
    Ok(files)
}

/// Writes `dir/README.md` (which must be missing or generated); returns the number of puzzles.
pub fn write_index(dir: &Path) -> miette::Result<usize> {
    let files = puzzle_files(dir)?;
    let readme = dir.join("README.md");
    let heading = dir.file_name().map_or_else(
        || "Puzzles".to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    std::fs::write(
        &readme,
        index_markdown(&format!("Puzzles: {heading}"), &files),
    )
    .into_diagnostic()
    .wrap_err_with(|| format!("cannot write {}", readme.display()))?;
    Ok(files.len())
}

#[derive(clap::Args, Debug)]
pub struct IndexArgs {
    /// Directory of puzzle files.
    pub dir: PathBuf,
    /// Replace a README.md that this command did not write.
    #[arg(long)]
    pub force: bool,
}

pub fn run(args: &IndexArgs) -> miette::Result<()> {
    let dir = args.dir.as_path();
    let readme = dir.join("README.md");
    if readme.exists() && !args.force && !is_generated(&readme) {
        return Err(refuse_overwrite(&readme));
    }
    let n = write_index(dir)?;
    if n == 0 {
        return Err(miette!(
            "{} holds no puzzle files (position files with a `puzzle:` block)",
            dir.display()
        ));
    }
    emit(&format!("Wrote {} ({n} puzzles)\n", readme.display()))
}
