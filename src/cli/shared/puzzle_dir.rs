//! Directories of puzzle files: listing them and writing their README index (`index`,
//! `generate` and `sheet` use these).

use super::exit::{Exit, Failure};
use super::input::load_position;
use cathedral::file::PositionFile;
use cathedral::puzzle::{MARKER, index_markdown};
use miette::IntoDiagnostic;
use std::path::{Path, PathBuf};

/// Whether `path` is an index this command wrote (and may rewrite).
pub fn is_generated(path: &Path) -> bool {
    std::fs::read_to_string(path).is_ok_and(|t| t.starts_with(MARKER))
}

/// The puzzle files of `dir` (with a `puzzle:` block), sorted by name.
pub fn puzzle_files(dir: &Path) -> miette::Result<Vec<(String, PositionFile)>> {
    let entries = std::fs::read_dir(dir).map_err(|e| {
        Failure::new(
            Exit::Input,
            format!("cannot read the directory {}: {e}", dir.display()),
        )
    })?;
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
/// The puzzle files of `dir`, refused in words when there are none.
pub fn some_puzzle_files(dir: &Path) -> miette::Result<Vec<(String, PositionFile)>> {
    let files = puzzle_files(dir)?;
    if files.is_empty() {
        return Err(Failure::new(
            Exit::Input,
            format!(
                "{} holds no puzzle files (position files with a `puzzle:` block)",
                dir.display()
            ),
        )
        .into());
    }
    Ok(files)
}

pub fn write_index(dir: &Path) -> miette::Result<usize> {
    let files = puzzle_files(dir)?;
    let readme = dir.join("README.md");
    let heading = dir.file_name().map_or_else(
        || "Puzzles".to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let text = index_markdown(&format!("Puzzles: {heading}"), &files);
    cathedral::file::write_atomically(&readme, text.as_bytes(), true)
        .map_err(super::input::FileDiagnostic::from)?;
    Ok(files.len())
}

/// The position files (`*.yaml`) of `dir`, by name; none is an error (`what` names the
/// directory in it: `benchmark directory`).
pub fn position_files(what: &str, dir: &Path) -> miette::Result<Vec<PathBuf>> {
    let entries = std::fs::read_dir(dir).map_err(|e| {
        Failure::new(
            Exit::Input,
            format!("cannot read the {what} {}: {e}", dir.display()),
        )
    })?;
    let mut files = Vec::new();
    for entry in entries {
        let path = entry.into_diagnostic()?.path();
        if path.is_file() && path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
            files.push(path);
        }
    }
    files.sort();
    if files.is_empty() {
        return Err(Failure::new(
            Exit::Input,
            format!("{} holds no position files (*.yaml)", dir.display()),
        )
        .into());
    }
    Ok(files)
}
