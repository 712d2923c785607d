//! `cathedral sheet DIR -o sheet.html`: a printable worksheet of the puzzles in a directory.

use super::index::puzzle_files;
use super::output::emit;
use super::play::refuse_overwrite;
use cathedral::puzzle::sheet::sheet_html;
use miette::{IntoDiagnostic, WrapErr, miette};
use std::path::Path;

pub fn run(dir: &Path, output: &Path, title: Option<&str>, force: bool) -> miette::Result<()> {
    if output.exists() && !force {
        return Err(refuse_overwrite(output));
    }
    let files = puzzle_files(dir)?;
    if files.is_empty() {
        return Err(miette!(
            help = "`cathedral generate --count 10 -o DIR` makes some",
            "{} holds no puzzle files (position files with a `puzzle:` block)",
            dir.display()
        ));
    }
    let title = title.map_or_else(
        || {
            format!(
                "Cathedral puzzles: {}",
                dir.file_name()
                    .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
            )
        },
        str::to_string,
    );
    std::fs::write(output, sheet_html(&title, &files))
        .into_diagnostic()
        .wrap_err_with(|| format!("cannot write {}", output.display()))?;
    emit(&format!(
        "Wrote {} ({} puzzles, answers on the last page)\n",
        output.display(),
        files.len()
    ))
}
